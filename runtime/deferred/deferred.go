package deferred

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// SearchToolName is the wire name of the client-side search tool, unless
// a tool of the surface has it: then the search tool takes the first free
// one of tool_search_2, tool_search_3, ... (Surface.SearchName).
const SearchToolName = "tool_search"

// Limits of the search tool's arguments; MaxQueryLength counts characters.
const (
	DefaultLimit   = 5
	MaxLimit       = 20
	MaxQueryLength = 500
)

// Group is one op group: on OpenAI a namespace, on Anthropic a label only.
type Group struct {
	Name        string
	Description string
	Tools       []runtime.Tool
}

// Surface is the deferred surface of a family. It is immutable and safe for
// concurrent use.
type Surface struct {
	groups []Group
	// loose are tools no op group claims, deferred at the top level.
	loose  []runtime.Tool
	index  *gateway.Index
	byName map[string]bool
	// searchName is the search tool's name (SearchName).
	searchName string
}

// New builds the surface over reg's groups: each op's tool (matched by
// Op.Tool against Tool.Name) joins its op's group, in registry order; tools
// without an op are deferred outside any group. Every op must resolve to a
// tool, every tool name must be a provider name, and a group name must be
// one too, since OpenAI calls carry it as the namespace. A tool named
// SearchToolName is deferred as any other, and the search tool is named
// otherwise (SearchName).
func New(reg gateway.Registry, tools []runtime.Tool) (*Surface, error) {
	byName := make(map[string]runtime.Tool, len(tools))
	for _, t := range tools {
		if err := runtime.CheckName(t.Name); err != nil {
			return nil, fmt.Errorf("deferred: tool %q: %w", t.Name, err)
		}
		if _, dup := byName[t.Name]; dup {
			return nil, fmt.Errorf("deferred: duplicate tool %q", t.Name)
		}
		byName[t.Name] = t
	}
	s := &Surface{byName: make(map[string]bool, len(tools)), searchName: runtime.FreeName(SearchToolName, func(name string) bool {
		_, taken := byName[name]
		return taken
	})}
	gi := map[string]int{}
	for _, g := range reg.Groups {
		if err := runtime.CheckName(g.Name); err != nil {
			return nil, fmt.Errorf("deferred: group %q: %w", g.Name, err)
		}
		gi[g.Name] = len(s.groups)
		desc := strings.TrimSpace(g.Summary)
		if desc == "" {
			desc = "Tools of the " + g.Name + " group."
		}
		s.groups = append(s.groups, Group{Name: g.Name, Description: desc})
	}
	ops := make([]gateway.Op, 0, len(tools))
	for _, op := range reg.Ops {
		t, ok := byName[op.Tool]
		if !ok {
			return nil, fmt.Errorf("deferred: op %q: no tool %q", op.Path, op.Tool)
		}
		if s.byName[t.Name] {
			continue // two ops over one tool: the tool is offered once
		}
		i, ok := gi[op.Group]
		if !ok {
			if err := runtime.CheckName(op.Group); err != nil {
				return nil, fmt.Errorf("deferred: op %q: group %q: %w", op.Path, op.Group, err)
			}
			i = len(s.groups)
			gi[op.Group] = i
			s.groups = append(s.groups, Group{Name: op.Group, Description: "Tools of the " + op.Group + " group."})
		}
		s.groups[i].Tools = append(s.groups[i].Tools, t)
		s.byName[t.Name] = true
		ops = append(ops, op)
	}
	for _, t := range tools {
		if !s.byName[t.Name] {
			s.loose = append(s.loose, t)
			s.byName[t.Name] = true
			ops = append(ops, gateway.Op{Path: t.Name, Tool: t.Name, Description: t.Description, Parameters: t.Parameters})
		}
	}
	kept := s.groups[:0]
	for _, g := range s.groups {
		if len(g.Tools) > 0 {
			kept = append(kept, g)
		}
	}
	s.groups = kept
	s.index = gateway.NewIndex(ops)
	return s, nil
}

// Groups returns the groups with tools, in registry order.
func (s *Surface) Groups() []Group { return append([]Group(nil), s.groups...) }

// Ungrouped returns the tools no op group claims.
func (s *Surface) Ungrouped() []runtime.Tool { return append([]runtime.Tool(nil), s.loose...) }

// Tools returns every deferred tool, group by group, then the ungrouped
// ones: what the agent loop must be able to dispatch.
func (s *Surface) Tools() []runtime.Tool {
	var out []runtime.Tool
	for _, g := range s.groups {
		out = append(out, g.Tools...)
	}
	return append(out, s.loose...)
}

// Deferred reports whether the tool named name belongs to the surface.
func (s *Surface) Deferred(name string) bool { return s.byName[name] }

// SearchName returns the name of the search tool (SearchTool):
// SearchToolName, or the first of tool_search_2, tool_search_3, ... that
// no tool of the surface has.
func (s *Surface) SearchName() string { return s.searchName }

// Search returns the names of up to limit tools ranked for query by
// gateway.Index, best first; a limit beyond the number of tools is all
// that match.
func (s *Surface) Search(query string, limit int) []string {
	// The index makes room for limit hits up front.
	limit = min(limit, len(s.byName))
	var out []string
	seen := map[string]bool{}
	for _, h := range s.index.Search(query, limit) {
		if !seen[h.Tool] {
			seen[h.Tool] = true
			out = append(out, h.Tool)
		}
	}
	return out
}

// searchParams is the search tool's parameters schema.
const searchParams = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"maxLength":500,"description":"What the tool should do, in a few words, e.g. \"create a todo item\"."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":20,"default":5,"description":"How many tools to load at most."}},` +
	`"required":["query"],"additionalProperties":false}`

// SearchTool returns the client-side search tool: the model calls it with
// a query and the best matching deferred tools are loaded for its next
// call. Its result value is a *References.
func (s *Surface) SearchTool() runtime.Tool {
	return runtime.Tool{
		Name:        s.searchName,
		Description: "Search the available tools by what they do. The best matching tools are loaded so you can call them next.",
		Parameters:  json.RawMessage(searchParams),
		Handler:     s.search,
		Annotations: runtime.LookupAnnotations(),
	}
}

func (s *Surface) search(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
	query, limit, err := searchArgs(s.searchName, args)
	if err != nil {
		return runtime.Result{}, err
	}
	names := s.Search(query, limit)
	if len(names) == 0 {
		return runtime.Result{Success: true, Message: fmt.Sprintf("No tool matches %q. Try other words for what the tool should do.", query)}, nil
	}
	return runtime.Result{Success: true, Value: &References{Tools: names}}, nil
}

// searchArgs reads the arguments of the search tool, named name in its
// errors: one JSON object whose members are named exactly and sent once,
// holding valid Unicode (as the gateway's), a non-empty query string and
// an optional integer limit. Errors are said in JSON's terms; a repeated
// member or invalid Unicode, at any depth, is a *runtime.ValidationError
// with the gateway's field error (code duplicate or encoding) rather than
// the value encoding/json would keep (the last one, U+FFFD).
func searchArgs(name string, args json.RawMessage) (query string, limit int, err error) {
	usage := fmt.Sprintf(`%s takes {"query": string, "limit"?: integer 1..%d}`, name, MaxLimit)
	var members map[string]json.RawMessage
	if t := bytes.TrimSpace(args); len(t) > 0 {
		if t[0] != '{' {
			return "", 0, runtime.Invalid("%s: the arguments must be a JSON object, got %s", usage, jsonKind(t))
		}
		if err := json.Unmarshal(t, &members); err != nil {
			return "", 0, runtime.Invalid("%s: the arguments are not one JSON object: %s", usage, strings.TrimPrefix(err.Error(), "json: "))
		}
		if p, ok := text.StrictProblem(t); ok {
			return "", 0, &runtime.ValidationError{Tool: name,
				Fields: []runtime.FieldError{{Path: p.Path, Code: p.Code, Message: p.Message}}}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(members)) {
		if k != "query" && k != "limit" {
			return "", 0, runtime.Invalid("%s: it has no argument %s", usage, text.Truncate(strconv.Quote(k), 80))
		}
	}
	raw, ok := members["query"]
	if ok && json.Unmarshal(raw, &query) != nil {
		return "", 0, runtime.Invalid(`%s: "query" must be a string, got %s`, usage, jsonKind(raw))
	}
	if strings.TrimSpace(query) == "" {
		return "", 0, runtime.Invalid(`%s needs a non-empty "query", e.g. {"query": "create a todo item"}`, name)
	}
	// The schema's maxLength counts characters, as JSON Schema does.
	if n := utf8.RuneCountInString(query); n > MaxQueryLength {
		return "", 0, runtime.Invalid(`%s: "query" is %d characters long; at most %d`, name, n, MaxQueryLength)
	}
	limit = DefaultLimit
	if raw, ok := members["limit"]; ok {
		var n float64
		if json.Unmarshal(raw, &n) != nil || n != math.Trunc(n) || n < 1 || n > MaxLimit {
			return "", 0, runtime.Invalid(`%s: "limit" must be an integer 1..%d, got %s`, name, MaxLimit, text.Truncate(string(bytes.TrimSpace(raw)), 40))
		}
		limit = int(n)
	}
	return query, limit, nil
}

// jsonKind names the kind of the JSON value raw.
func jsonKind(raw []byte) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// References names the tools a search loaded. It renders as
// {"tool_references":["a","b"]}, the text ParseReferences reads back.
type References struct {
	Tools []string `json:"tool_references"`
}

// Render implements runtime.Renderer.
func (r *References) Render() string {
	b, _ := json.Marshal(r)
	return string(b)
}

// ParseReferences reads the tool names out of a rendered *References, as
// the agent loop's tool message carries it; ok is false for any other text
// (a failed or empty search).
func ParseReferences(content string) (names []string, ok bool) {
	if !strings.HasPrefix(content, `{"tool_references":[`) {
		return nil, false
	}
	var r References
	dec := json.NewDecoder(strings.NewReader(content))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil || dec.More() || len(r.Tools) == 0 {
		return nil, false
	}
	return r.Tools, true
}
