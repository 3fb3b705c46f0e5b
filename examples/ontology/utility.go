package ontology

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// The utility tools answer from static tables: field meanings, a canned
// offline web (nothing here touches the network) and the BuildOS docs.

// fieldInfo describes one field of an entity type.
type fieldInfo struct {
	Type    string   `json:"type"`
	Values  []string `json:"values,omitempty"`
	Meaning string   `json:"meaning"`
}

// fields is what get_field_info knows, by entity type and field name.
var fields = map[string]map[string]fieldInfo{
	KindProject: {
		"state_key": {"enum", []string{"planning", "active", "paused", "completed", "archived"}, "Lifecycle state of the project."},
		"type_key":  {"string", []string{"project.software", "project.writing.book", "project.event"}, "Domain template the project follows."},
	},
	KindTask: {
		"state_key": {"enum", []string{"todo", "in_progress", "blocked", "done"}, "Where the task stands."},
		"priority":  {"integer", []string{"1", "2", "3", "4", "5"}, "1 is the highest priority, 5 the lowest; 3 by default."},
		"due_at":    {"date-time", nil, "When the task is due; null when it has no deadline."},
	},
	KindGoal: {
		"state_key":   {"enum", []string{"draft", "active", "achieved", "abandoned"}, "Progress of the goal."},
		"target_date": {"date", nil, "Date the goal should be reached by."},
	},
	KindPlan: {
		"state_key": {"enum", []string{"draft", "active", "completed"}, "Progress of the plan."},
	},
	KindDocument: {
		"state_key": {"enum", []string{"draft", "review", "published", "archived"}, "Editorial state of the document."},
		"type_key":  {"string", []string{folderType, "document.spec", "document.note", "document.brief", "document.research", "document.task"}, "Kind of document; folders hold other documents."},
	},
	KindMilestone: {
		"state_key": {"enum", []string{"pending", "reached", "missed"}, "Whether the milestone was reached by its due date."},
	},
	KindRisk: {
		"impact":      {"enum", []string{"low", "medium", "high", "critical"}, "How bad it is if the risk happens."},
		"probability": {"number", nil, "Likelihood from 0 to 1."},
	},
	KindRequirement: {
		"priority": {"enum", []string{"must", "should", "could", "wont"}, "MoSCoW priority."},
		"type_key": {"string", []string{"requirement.functional", "requirement.non_functional", "requirement.constraint"}, "Kind of requirement."},
	},
}

// page is a page of the canned offline web.
type page struct {
	URL     string `json:"url"`
	Title   string `json:"title"`
	Snippet string `json:"snippet"`
	text    string
}

var web = []page{
	{"https://docs.example.com/api-design", "API design guidelines", "Resource names, versioning and error envelopes for HTTP APIs.",
		"Name resources with plural nouns. Version the API in the path. Return errors as an envelope with a code, a message and details."},
	{"https://docs.example.com/project-planning", "Planning a software project", "Goals, plans, milestones and risks: a practical planning checklist.",
		"Start from goals, break them into plans and tasks, set milestones, and keep a risk register with impact and probability."},
	{"https://news.example.com/beta-launch", "How to run a public beta", "Staging, feedback loops and launch checklists for a public beta.",
		"Freeze features two weeks before the beta, run the launch checklist on staging, and collect feedback in one place."},
	{"https://docs.example.com/document-trees", "Organising documents in folders", "Folder structures that stay navigable as a project grows.",
		"Keep folders shallow: one level per team or area. Move specs next to the code area they describe."},
}

// guide is the BuildOS usage guide by topic; "" is the overview.
var guide = map[string]string{
	"": "BuildOS turns what you say into an organised project ontology. A project holds goals (outcomes), " +
		"plans (ordered work towards a goal), tasks (future human actions), documents in a folder tree, " +
		"milestones, risks and requirements; typed edges link any two of them (supports, blocks, depends_on, references, part_of).",
	"projects":   "Create a project for a multi-week effort. Give it goals; plans under goals; tasks under plans. Archive it when done.",
	"tasks":      "Create a task only for future human action. Search first to avoid duplicates. Move tasks through todo, in_progress, blocked and done.",
	"documents":  "Documents live in a folder tree per project. Use the tree to find folder ids; move documents under folders; attach documents to tasks.",
	"calendar":   "Tasks with a due date appear on the calendar; milestones appear as all-day markers.",
	"brain dump": "Type or dictate everything on your mind; BuildOS sorts it into projects, tasks and notes for you to confirm.",
}

// GetFieldInfo serves get_field_info.
func (s *Store) GetFieldInfo(ctx context.Context, tc runtime.ToolContext, p *GetFieldInfoParams) (runtime.ToolResult[GetFieldInfoResult], error) {
	return static(func() (string, any, error) {
		byField := fields[string(p.EntityType)]
		info, found := byField[p.Field]
		if !found {
			known := make([]string, 0, len(byField))
			for f := range byField {
				known = append(known, f)
			}
			slices.Sort(known)
			return "", nil, runtime.NotFound("%s has no documented field %q; known fields: %s", p.EntityType, p.Field, strings.Join(known, ", "))
		}
		return string(p.EntityType) + "." + p.Field, info, nil
	})
}

// WebSearch serves web_search from the canned pages: those sharing a word
// with the query, most shared words first.
func (s *Store) WebSearch(ctx context.Context, tc runtime.ToolContext, p *WebSearchParams) (runtime.ToolResult[WebSearchResult], error) {
	return static(func() (string, any, error) {
		type hit struct {
			page
			score int
		}
		var hits []hit
		for _, pg := range web {
			text := strings.ToLower(pg.Title + " " + pg.Snippet + " " + pg.text)
			score := 0
			for _, w := range strings.Fields(strings.ToLower(p.Query)) {
				if len(w) > 2 && strings.Contains(text, w) {
					score++
				}
			}
			if score > 0 {
				hits = append(hits, hit{pg, score})
			}
		}
		slices.SortStableFunc(hits, func(a, b hit) int { return b.score - a.score })
		out := []page{}
		for _, h := range hits[:min(len(hits), int(p.MaxResults))] {
			out = append(out, h.page)
		}
		return count(len(out), "result") + " (offline demo index)", out, nil
	})
}

// WebVisit serves web_visit from the canned pages.
func (s *Store) WebVisit(ctx context.Context, tc runtime.ToolContext, p *WebVisitParams) (runtime.ToolResult[WebVisitResult], error) {
	return static(func() (string, any, error) {
		for _, pg := range web {
			if pg.URL == strings.TrimSuffix(p.URL, "/") {
				return pg.Title, map[string]string{"url": pg.URL, "title": pg.Title, "text": pg.text}, nil
			}
		}
		return "", nil, runtime.NotFound("%s is not in the offline demo web; util.web.search lists the pages it has", p.URL)
	})
}

// GetBuildosOverview serves get_buildos_overview.
func (s *Store) GetBuildosOverview(ctx context.Context, tc runtime.ToolContext, p *GetBuildosOverviewParams) (runtime.ToolResult[GetBuildosOverviewResult], error) {
	return static(func() (string, any, error) {
		return "BuildOS overview", map[string]string{"overview": guide[""]}, nil
	})
}

// GetBuildosUsageGuide serves get_buildos_usage_guide: one topic, or every
// topic when none is given.
func (s *Store) GetBuildosUsageGuide(ctx context.Context, tc runtime.ToolContext, p *GetBuildosUsageGuideParams) (runtime.ToolResult[GetBuildosUsageGuideResult], error) {
	return static(func() (string, any, error) {
		topics := map[string]string{}
		for t, text := range guide {
			if t != "" && (p.Topic == nil || strings.EqualFold(t, *p.Topic)) {
				topics[t] = text
			}
		}
		if len(topics) == 0 {
			return "", nil, runtime.NotFound("no guide topic %q; topics: brain dump, calendar, documents, projects, tasks", *p.Topic)
		}
		return count(len(topics), "guide topic"), topics, nil
	})
}

// static turns the outcome of a utility that touches no data into a
// result.
func static(fn func() (string, any, error)) (runtime.ToolResult[json.RawMessage], error) {
	msg, v, err := fn()
	if err != nil {
		return runtime.ToolResult[json.RawMessage]{}, err
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return runtime.ToolResult[json.RawMessage]{}, err
	}
	return runtime.OK(json.RawMessage(raw), msg), nil
}
