package ontology

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// The entity kinds of the ontology.
const (
	KindProject     = "project"
	KindTask        = "task"
	KindGoal        = "goal"
	KindPlan        = "plan"
	KindDocument    = "document"
	KindMilestone   = "milestone"
	KindRisk        = "risk"
	KindRequirement = "requirement"
)

// allKinds is every kind, in the order search results are grouped.
var allKinds = []string{KindProject, KindTask, KindGoal, KindPlan, KindDocument, KindMilestone, KindRisk, KindRequirement}

// folderType is the type_key of documents that hold other documents.
const folderType = "document.folder"

// Entity is one node of the ontology. Every kind shares the struct; fields a
// kind does not use stay empty.
type Entity struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	ProjectID string `json:"project_id,omitempty"`
	// Title is the title of tasks, documents, milestones and risks, the
	// name of projects, goals and plans, and the text of requirements.
	Title       string `json:"title"`
	Description string `json:"description,omitempty"`
	Content     string `json:"content,omitempty"`
	TypeKey     string `json:"type_key,omitempty"`
	StateKey    string `json:"state_key,omitempty"`
	// ParentID is the folder of a document, the plan of a task and the
	// goal of a plan.
	ParentID    string  `json:"parent_id,omitempty"`
	GoalID      string  `json:"goal_id,omitempty"`  // tasks: the goal a task serves directly
	Priority    int64   `json:"priority,omitempty"` // tasks: 1 highest … 5 lowest
	MoSCoW      string  `json:"moscow,omitempty"`   // requirements: must, should, could, wont
	Due         string  `json:"due,omitempty"`      // due_at of tasks and milestones, target_date of goals
	Impact      string  `json:"impact,omitempty"`
	Probability float64 `json:"probability,omitempty"`
	Mitigation  string  `json:"mitigation,omitempty"`

	seq int // creation order: lists are newest first
	pos int // order among siblings in the document tree
}

// Edge is a typed link between two entities.
type Edge struct {
	ID      string `json:"id"`
	SrcID   string `json:"src_id"`
	SrcKind string `json:"src_kind"`
	DstID   string `json:"dst_id"`
	DstKind string `json:"dst_kind"`
	Rel     string `json:"rel"`
}

// Attachment is a document in a task's workspace.
type Attachment struct {
	DocumentID string `json:"document_id"`
	Role       string `json:"role"`
}

// Store implements Handlers over an in-memory ontology. It is safe for
// concurrent use. Write handlers honour gateway.DryRun: a dry run reports
// what the call would do and changes nothing.
type Store struct {
	mu          sync.Mutex
	entities    map[string]*Entity
	edges       map[string]*Edge
	attachments map[string][]Attachment // task id → its workspace documents
	next        int
}

var _ Handlers = (*Store)(nil)

// The ids of the demo project NewStore seeds (spec 004 §9: move the "API
// Spec" document under the "Engineering" folder).
const (
	DemoProjectID       = "3f2b8c1e-5d4a-4b6e-9c7f-1a2b3c4d5e6f"
	EngineeringFolderID = "7a1c2e3f-0000-4000-8000-0000000000aa"
	DesignFolderID      = "7a1c2e3f-0000-4000-8000-0000000000bb"
	APISpecID           = "7a1c2e3f-0000-4000-8000-000000000001"
	DemoGoalID          = "5b0e0000-0000-4000-8000-000000000001"
	DemoPlanID          = "5b0e0000-0000-4000-8000-000000000002"
	DemoTaskID          = "5b0e0000-0000-4000-8000-000000000003"
	DemoMilestoneID     = "5b0e0000-0000-4000-8000-000000000004"
	DemoRiskID          = "5b0e0000-0000-4000-8000-000000000005"
	DemoRequirementID   = "5b0e0000-0000-4000-8000-000000000006"
	DemoEdgeID          = "5b0e0000-0000-4000-8000-000000000007"
)

// NewStore returns a store seeded with the demo project "BuildOS Launch":
// a goal, a plan, three tasks, a milestone, a risk, a requirement, two
// folders with documents (the "API Spec" still at the root), and edges.
func NewStore() *Store {
	s := &Store{}
	p := DemoProjectID
	for _, e := range []*Entity{
		{ID: p, Kind: KindProject, Title: "BuildOS Launch", Description: "Ship the public beta of BuildOS.", TypeKey: "project.software", StateKey: "active"},
		{ID: DemoGoalID, Kind: KindGoal, ProjectID: p, Title: "Ship public beta", StateKey: "active", Due: "2026-09-01"},
		{ID: DemoPlanID, Kind: KindPlan, ProjectID: p, Title: "Beta rollout", StateKey: "active", ParentID: DemoGoalID},
		{ID: DemoTaskID, Kind: KindTask, ProjectID: p, Title: "Write API documentation", StateKey: "todo", Priority: 2, ParentID: DemoPlanID, Due: "2026-07-15T17:00:00Z"},
		{Kind: KindTask, ProjectID: p, Title: "Set up staging environment", StateKey: "in_progress", Priority: 1, ParentID: DemoPlanID},
		{Kind: KindTask, ProjectID: p, Title: "Review security checklist", StateKey: "blocked", Priority: 3},
		{ID: DemoMilestoneID, Kind: KindMilestone, ProjectID: p, Title: "Beta launch", StateKey: "pending", Due: "2026-09-01T09:00:00Z"},
		{ID: DemoRiskID, Kind: KindRisk, ProjectID: p, Title: "Staging costs exceed budget", Impact: "medium", Probability: 0.3},
		{ID: DemoRequirementID, Kind: KindRequirement, ProjectID: p, Title: "API responses take under 200 ms", TypeKey: "requirement.non_functional", MoSCoW: "must"},
		{ID: EngineeringFolderID, Kind: KindDocument, ProjectID: p, Title: "Engineering", TypeKey: folderType, StateKey: "published"},
		{ID: DesignFolderID, Kind: KindDocument, ProjectID: p, Title: "Design", TypeKey: folderType, StateKey: "published"},
		{Kind: KindDocument, ProjectID: p, Title: "Architecture Overview", TypeKey: "document.spec", StateKey: "review", ParentID: EngineeringFolderID, Content: "# Architecture\n\nServices, storage and queues."},
		{ID: APISpecID, Kind: KindDocument, ProjectID: p, Title: "API Spec", TypeKey: "document.spec", StateKey: "draft", Content: "# API Spec\n\nEndpoints of the public API."},
	} {
		s.insert(e)
	}
	s.edges[DemoEdgeID] = &Edge{ID: DemoEdgeID, SrcID: APISpecID, SrcKind: KindDocument, DstID: DemoTaskID, DstKind: KindTask, Rel: "supports"}
	s.attachments[DemoTaskID] = []Attachment{{DocumentID: APISpecID, Role: "reference"}}
	return s
}

// newID returns a fresh UUID-shaped id.
func (s *Store) newID() string {
	s.next++
	return fmt.Sprintf("00000000-0000-4000-8000-%012d", s.next)
}

// insert stores e, giving it an id when it has none and placing documents
// last among their siblings.
func (s *Store) insert(e *Entity) {
	if s.entities == nil {
		s.entities = map[string]*Entity{}
		s.edges = map[string]*Edge{}
		s.attachments = map[string][]Attachment{}
	}
	if e.ID == "" {
		e.ID = s.newID()
	}
	s.next++
	e.seq = s.next
	e.pos = len(s.children(e.ParentID, e.ProjectID))
	s.entities[e.ID] = e
}

// do runs fn under the store's lock and turns its outcome into a result.
func (s *Store) do(fn func() (string, any, error)) (runtime.ToolResult[json.RawMessage], error) {
	s.mu.Lock()
	defer s.mu.Unlock()
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

// write reports a change: it applies it unless ctx is a dry run, and says
// which happened.
func write(ctx context.Context, what string, apply func()) string {
	if gateway.DryRun(ctx) {
		return "dry run: would " + what
	}
	apply()
	return what
}

// get returns the entity id of kind k, or NOT_FOUND naming the op that
// lists them.
func (s *Store) get(k, id string) (*Entity, error) {
	e, found := s.entities[id]
	if !found || e.Kind != k {
		return nil, runtime.NotFound("no %s %s; onto.%s.search or onto.%s.list shows the existing ids", k, id, k, k)
	}
	return e, nil
}

// anyKind returns the entity id of whatever kind, or NOT_FOUND.
func (s *Store) anyKind(id string) (*Entity, error) {
	e, found := s.entities[id]
	if !found {
		return nil, runtime.NotFound("no entity %s; onto.search finds entities by name", id)
	}
	return e, nil
}

// filter selects entities; empty fields match everything.
type filter struct {
	kinds                       []string
	project, state, typ, impact string
	text                        string // case-insensitive substring of the title
	noun                        string // how the message names a result
}

func (f filter) keep(e *Entity) bool {
	return slices.Contains(f.kinds, e.Kind) &&
		(f.project == "" || e.ProjectID == f.project || e.ID == f.project && e.Kind == KindProject) &&
		(f.state == "" || e.StateKey == f.state) &&
		(f.typ == "" || e.TypeKey == f.typ) &&
		(f.impact == "" || e.Impact == f.impact) &&
		(f.text == "" || strings.Contains(strings.ToLower(e.Title), strings.ToLower(f.text)))
}

// of is the filter of one kind, scoped to a project when projectID is set.
func of(k string, projectID *string) filter {
	return filter{kinds: []string{k}, project: str(projectID), noun: k}
}

// list serves the list and search ops: the entities f keeps, newest first,
// at most limit.
func (s *Store) list(f filter, limit int64) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(func() (string, any, error) {
		if f.project != "" {
			if _, err := s.get(KindProject, f.project); err != nil {
				return "", nil, err
			}
		}
		out := []*Entity{}
		for _, e := range s.entities {
			if f.keep(e) {
				out = append(out, e)
			}
		}
		slices.SortFunc(out, func(a, b *Entity) int { return b.seq - a.seq })
		if int64(len(out)) > limit {
			out = out[:limit]
		}
		return count(len(out), f.noun), out, nil
	})
}

// details serves the get ops: the entity, its children (folder contents,
// a plan's tasks, a goal's plans; a project's entities by kind), its edges
// and, for documents, its path in the tree.
func (s *Store) details(k, id string) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(func() (string, any, error) {
		e, err := s.get(k, id)
		if err != nil {
			return "", nil, err
		}
		d := struct {
			*Entity
			Children []*Entity      `json:"children,omitempty"`
			Counts   map[string]int `json:"counts,omitempty"`
			Edges    []*Edge        `json:"edges"`
			Path     []*Entity      `json:"path,omitempty"`
		}{Entity: e, Edges: s.edgesOf(id, "both")}
		switch k {
		case KindProject:
			d.Counts = map[string]int{}
			for _, x := range s.entities {
				if x.ProjectID == id {
					d.Counts[x.Kind]++
				}
			}
		case KindDocument:
			d.Path = s.path(e)
		}
		if k != KindProject {
			d.Children = s.children(id, e.ProjectID)
		}
		return "found " + k + " " + e.Title, d, nil
	})
}

// update serves the update ops: sets change a copy of the entity, which
// replaces it unless ctx is a dry run.
func (s *Store) update(ctx context.Context, k, id string, sets ...func(*Entity)) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(func() (string, any, error) {
		e, err := s.get(k, id)
		if err != nil {
			return "", nil, err
		}
		c := *e
		for _, set := range sets {
			set(&c)
		}
		return write(ctx, "update "+k+" "+id, func() { *e = c }), &c, nil
	})
}

// remove serves the delete ops; the entity's edges and task attachments go
// with it, and the plans of a goal and the tasks of a plan are detached.
// A folder that still holds documents is a CONFLICT.
func (s *Store) remove(ctx context.Context, k, id string) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(func() (string, any, error) {
		e, err := s.get(k, id)
		if err != nil {
			return "", nil, err
		}
		kids := s.children(id, e.ProjectID)
		if k == KindDocument && len(kids) > 0 {
			return "", nil, runtime.Conflict("folder %s still holds %s; move or delete them first", e.Title, count(len(kids), "document"))
		}
		msg := write(ctx, "delete "+k+" "+id, func() {
			delete(s.entities, id)
			delete(s.attachments, id)
			for _, x := range s.entities {
				if x.ParentID == id {
					x.ParentID = ""
				}
				if x.GoalID == id {
					x.GoalID = ""
				}
			}
			for eid, ed := range s.edges {
				if ed.SrcID == id || ed.DstID == id {
					delete(s.edges, eid)
				}
			}
			for t, atts := range s.attachments {
				s.attachments[t] = slices.DeleteFunc(atts, func(a Attachment) bool { return a.DocumentID == id })
			}
		})
		return msg, map[string]string{"deleted": id, "kind": k}, nil
	})
}

// create serves the create ops: e goes into its project unless ctx is a dry
// run; then comes each of more (which may reference e.ID). An entity of
// the same kind and title in the project is a CONFLICT.
func (s *Store) create(ctx context.Context, e *Entity, more ...*Entity) (runtime.ToolResult[json.RawMessage], error) {
	return s.do(func() (string, any, error) {
		if err := s.checkNew(e); err != nil {
			return "", nil, err
		}
		e.ID = s.newID()
		for _, m := range more {
			m.ID, m.ProjectID = s.newID(), e.ID
		}
		msg := write(ctx, "create "+e.Kind+" "+e.Title, func() {
			for _, x := range append([]*Entity{e}, more...) {
				s.insert(x)
			}
		})
		return msg, append([]*Entity{e}, more...), nil
	})
}

// checkNew reports what stops e from being created: a missing project or
// parent, or a duplicate title.
func (s *Store) checkNew(e *Entity) error {
	if e.Kind != KindProject {
		if _, err := s.get(KindProject, e.ProjectID); err != nil {
			return err
		}
	}
	if e.ParentID != "" {
		if err := s.checkParent(e, e.ParentID); err != nil {
			return err
		}
	}
	if g, err := s.get(KindGoal, e.GoalID); e.GoalID != "" && (err != nil || g.ProjectID != e.ProjectID) {
		return runtime.NotFound("no goal %s in project %s; onto.goal.list shows them", e.GoalID, e.ProjectID)
	}
	for _, x := range s.entities {
		if x.Kind == e.Kind && x.ProjectID == e.ProjectID && strings.EqualFold(x.Title, e.Title) {
			return runtime.Conflict("%s %s already exists with this title; update it instead of creating another", e.Kind, x.ID)
		}
	}
	return nil
}

// parentKind is the kind a kind's ParentID refers to.
var parentKind = map[string]string{KindTask: KindPlan, KindPlan: KindGoal, KindDocument: KindDocument}

// checkParent reports whether parentID can hold e: an entity of the right
// kind in e's project (a folder, for documents), not e nor below e.
func (s *Store) checkParent(e *Entity, parentID string) error {
	want, ok := parentKind[e.Kind]
	if !ok {
		return runtime.Invalid("a %s has no parent; only tasks (under plans), plans (under goals) and documents (under folders) move", e.Kind)
	}
	p, err := s.get(want, parentID)
	if err != nil {
		return err
	}
	switch {
	case p.ProjectID != e.ProjectID:
		return runtime.Invalid("%s %s belongs to another project", want, parentID)
	case want == KindDocument && p.TypeKey != folderType:
		return runtime.Invalid("document %s (%s) is not a folder; onto.document.tree.get lists the folders", p.Title, p.TypeKey)
	}
	for x := p; x != nil; x = s.entities[x.ParentID] {
		if x.ID == e.ID {
			return runtime.Conflict("cannot move %s under itself or its own descendant %s", e.Title, p.Title)
		}
	}
	return nil
}

// children returns the entities directly under parentID in a project, in
// tree order; parentID "" gives the root documents.
func (s *Store) children(parentID, projectID string) []*Entity {
	var out []*Entity
	for _, e := range s.entities {
		if e.ParentID == parentID && e.ProjectID == projectID && (parentID != "" || e.Kind == KindDocument) {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *Entity) int {
		if a.pos != b.pos {
			return a.pos - b.pos
		}
		return a.seq - b.seq
	})
	return out
}

// reparent moves e under parentID ("" is the root) at position (nil: last),
// renumbering the new siblings.
func (s *Store) reparent(e *Entity, parentID string, position *int64) {
	sibs := slices.DeleteFunc(s.children(parentID, e.ProjectID), func(x *Entity) bool { return x == e })
	at := len(sibs)
	if position != nil && int(*position) < at {
		at = int(*position)
	}
	e.ParentID = parentID
	for i, x := range slices.Insert(sibs, at, e) {
		x.pos = i
	}
}

// path returns the folders from the root down to e, then e.
func (s *Store) path(e *Entity) []*Entity {
	var out []*Entity
	for x := e; x != nil; x = s.entities[x.ParentID] {
		out = append(out, x)
	}
	slices.Reverse(out)
	return out
}

// treeNode is a node of the document tree.
type treeNode struct {
	ID       string      `json:"id"`
	Title    string      `json:"title"`
	TypeKey  string      `json:"type_key"`
	Children []*treeNode `json:"children,omitempty"`
}

// tree returns the documents under parentID down to depth levels, folders
// only unless docs.
func (s *Store) tree(parentID, projectID string, docs bool, depth int64) []*treeNode {
	out := []*treeNode{}
	if depth == 0 {
		return out
	}
	for _, e := range s.children(parentID, projectID) {
		if e.TypeKey == folderType || docs {
			out = append(out, &treeNode{e.ID, e.Title, e.TypeKey, s.tree(e.ID, projectID, docs, depth-1)})
		}
	}
	return out
}

// edgesOf returns the edges of id in direction in, out or both.
func (s *Store) edgesOf(id, direction string) []*Edge {
	out := []*Edge{}
	for _, e := range s.edges {
		if (e.SrcID == id && direction != "in") || (e.DstID == id && direction != "out") {
			out = append(out, e)
		}
	}
	slices.SortFunc(out, func(a, b *Edge) int { return strings.Compare(a.ID, b.ID) })
	return out
}

// str is the string behind an optional string or enum argument, "" when
// absent.
func str[T ~string](p *T) string {
	if p == nil {
		return ""
	}
	return string(*p)
}

// set assigns an optional string or enum argument when present.
func set[T ~string](dst *string, p *T) {
	if p != nil {
		*dst = string(*p)
	}
}

// edits sets the fields most update ops share: title (or name),
// description and state, each when present.
func edits[T ~string](title, description *string, state *T) func(*Entity) {
	return func(e *Entity) {
		set(&e.Title, title)
		set(&e.Description, description)
		set(&e.StateKey, state)
	}
}

// setNullable assigns a nullable argument: null clears, absent keeps.
func setNullable(dst *string, v runtime.Nullable[string]) {
	if v.IsNull() {
		*dst = ""
	} else if x, present := v.Get(); present {
		*dst = x
	}
}

// setNum assigns an optional number argument when present.
func setNum[T int64 | float64](dst *T, p *T) {
	if p != nil {
		*dst = *p
	}
}

// count is "1 task", "2 tasks", "3 entities".
func count(n int, noun string) string {
	switch {
	case n == 1:
	case strings.HasSuffix(noun, "y"):
		noun = strings.TrimSuffix(noun, "y") + "ies"
	default:
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}
