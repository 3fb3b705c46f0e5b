package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
)

// The test family: a small slice of the BuildOS ontology of spec 004, with
// hand-written Decode functions standing in for the generated ones.

type taskListParams struct {
	ProjectID string `json:"project_id"`
	StateKey  string `json:"state_key"`
	Limit     int    `json:"limit"`
}

type taskGetParams struct {
	TaskID string `json:"task_id"`
}

type taskCreateParams struct {
	ProjectID string `json:"project_id"`
	Title     string `json:"title"`
	StateKey  string `json:"state_key"`
}

type taskUpdateParams struct {
	TaskID   string `json:"task_id"`
	Title    string `json:"title"`
	StateKey string `json:"state_key"`
}

type projectGetParams struct {
	ProjectID string `json:"project_id"`
}

type queryParams struct {
	Query string `json:"query"`
}

type reorganizeParams struct {
	ProjectID string `json:"project_id"`
}

type task struct {
	ID        string `json:"id"`
	ProjectID string `json:"project_id"`
	Title     string `json:"title"`
	StateKey  string `json:"state_key"`
}

// store is the fake backend of the test family.
type store struct {
	mu      sync.Mutex
	tasks   map[string]task
	nextID  int
	calls   atomic.Int64
	dryRuns []bool
}

func newStore() *store {
	return &store{tasks: map[string]task{
		"t1": {ID: "t1", ProjectID: "p1", Title: "Write spec", StateKey: "todo"},
		"t2": {ID: "t2", ProjectID: "p1", Title: "Review spec", StateKey: "done"},
	}, nextID: 3}
}

var stateEnum = []string{"todo", "in_progress", "done"}

// decoder builds a Decode function for params type T: unknown arguments,
// missing required ones, type errors and a per-type check, all aggregated.
func decoder[T any](tool string, required []string, check func(*T) []runtime.FieldError) func(json.RawMessage) (any, error) {
	known := map[string]bool{}
	rt := reflect.TypeFor[T]()
	for i := 0; i < rt.NumField(); i++ {
		known[strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	return func(args json.RawMessage) (any, error) {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(args, &m); err != nil {
			return nil, &runtime.ValidationError{Tool: tool, Fields: []runtime.FieldError{{Path: "", Code: "type", Message: "arguments must be an object", Expected: "object"}}}
		}
		var fe []runtime.FieldError
		var names []string
		for k := range m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if !known[k] {
				fe = append(fe, runtime.FieldError{Path: "/" + k, Code: "additionalProperties", Message: "unknown argument " + strconv.Quote(k)})
			}
		}
		for _, r := range required {
			if _, ok := m[r]; !ok {
				fe = append(fe, runtime.FieldError{Path: "/" + r, Code: "required", Message: r + " is required"})
			}
		}
		p := new(T)
		if err := json.Unmarshal(args, p); err != nil {
			var te *json.UnmarshalTypeError
			if errors.As(err, &te) {
				fe = append(fe, runtime.FieldError{Path: "/" + te.Field, Code: "type", Message: "must be " + te.Type.String(), Expected: te.Type.String(), Received: te.Value})
			}
		}
		if len(fe) == 0 && check != nil {
			fe = check(p)
		}
		if len(fe) > 0 {
			return nil, &runtime.ValidationError{Tool: tool, Fields: fe}
		}
		return p, nil
	}
}

func checkState(s string) []runtime.FieldError {
	if s == "" {
		return nil
	}
	for _, e := range stateEnum {
		if s == e {
			return nil
		}
	}
	return []runtime.FieldError{{Path: "/state_key", Code: "enum", Message: "must be one of todo, in_progress, done", Received: s, Suggestion: "in_progress"}}
}

// typedTool is what generated code produces: Decode, and a Handler that
// decodes, validates and calls the typed method.
func typedTool[T any](name, desc, schema string, required []string, check func(*T) []runtime.FieldError, h func(ctx context.Context, p *T) (any, error)) runtime.Tool {
	dec := decoder(name, required, check)
	return runtime.Tool{
		Name: name, Description: desc, Parameters: json.RawMessage(schema), Decode: dec,
		Handler: func(ctx context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			p, err := dec(args)
			if err != nil {
				return runtime.Result{}, err
			}
			assertHandlerArgs(name, args)
			if check != nil {
				if fe := check(p.(*T)); len(fe) > 0 {
					handlerViolation(name, fmt.Sprintf("called with params failing validation: %v", fe))
				}
			}
			v, err := h(ctx, p.(*T))
			if err != nil {
				return runtime.Result{}, err
			}
			return runtime.Result{Value: v, Success: true}, nil
		},
	}
}

func (s *store) tools() []runtime.Tool {
	return []runtime.Tool{
		typedTool("list_onto_tasks", "List tasks of a project, optionally filtered by state.",
			`{"type":"object","properties":{"project_id":{"type":"string","description":"Project to list tasks of."},"state_key":{"type":"string","enum":["todo","in_progress","done"]},"limit":{"type":"integer","default":20,"minimum":1}},"additionalProperties":false}`,
			nil, func(p *taskListParams) []runtime.FieldError { return checkState(p.StateKey) },
			func(_ context.Context, p *taskListParams) (any, error) {
				s.calls.Add(1)
				s.mu.Lock()
				defer s.mu.Unlock()
				out := []task{}
				for _, id := range sortedKeys(s.tasks) {
					t := s.tasks[id]
					if (p.ProjectID == "" || t.ProjectID == p.ProjectID) && (p.StateKey == "" || t.StateKey == p.StateKey) {
						out = append(out, t)
					}
				}
				return map[string]any{"tasks": out}, nil
			}),
		typedTool("get_onto_task_details", "Get one task with its details.",
			`{"type":"object","properties":{"task_id":{"type":"string","description":"Task ID."}},"required":["task_id"],"additionalProperties":false}`,
			[]string{"task_id"}, nil,
			func(_ context.Context, p *taskGetParams) (any, error) {
				s.calls.Add(1)
				s.mu.Lock()
				defer s.mu.Unlock()
				t, ok := s.tasks[p.TaskID]
				if !ok {
					return nil, runtime.NotFound("task %s does not exist", p.TaskID)
				}
				return t, nil
			}),
		typedTool("search_onto_tasks", "Search tasks by words in their title.",
			`{"type":"object","properties":{"query":{"type":"string","description":"Words to look for."}},"required":["query"]}`,
			[]string{"query"}, nil,
			func(_ context.Context, p *queryParams) (any, error) {
				s.calls.Add(1)
				s.mu.Lock()
				defer s.mu.Unlock()
				out := []task{}
				for _, id := range sortedKeys(s.tasks) {
					if strings.Contains(strings.ToLower(s.tasks[id].Title), strings.ToLower(p.Query)) {
						out = append(out, s.tasks[id])
					}
				}
				return map[string]any{"tasks": out}, nil
			}),
		typedTool("create_onto_task", "Create a task in a project. Only when the user asks for one; not for work you can do now.",
			`{"type":"object","properties":{"project_id":{"type":"string"},"title":{"type":"string"},"state_key":{"type":"string","enum":["todo","in_progress","done"],"default":"todo"}},"required":["project_id","title"],"additionalProperties":false}`,
			[]string{"project_id", "title"}, func(p *taskCreateParams) []runtime.FieldError { return checkState(p.StateKey) },
			func(ctx context.Context, p *taskCreateParams) (any, error) {
				s.calls.Add(1)
				s.mu.Lock()
				defer s.mu.Unlock()
				if DryRun(ctx) {
					return map[string]any{"would_create": p.Title}, nil
				}
				for _, t := range s.tasks {
					if t.ProjectID == p.ProjectID && t.Title == p.Title {
						return nil, runtime.Conflict("a task titled %q already exists in %s", p.Title, p.ProjectID)
					}
				}
				id := fmt.Sprintf("t%d", s.nextID)
				s.nextID++
				st := p.StateKey
				if st == "" {
					st = "todo"
				}
				t := task{ID: id, ProjectID: p.ProjectID, Title: p.Title, StateKey: st}
				s.tasks[id] = t
				return t, nil
			}),
		typedTool("update_onto_task", "Update a task's title or state.",
			`{"type":"object","properties":{"task_id":{"type":"string"},"title":{"type":"string"},"state_key":{"type":"string","enum":["todo","in_progress","done"]}},"required":["task_id"],"additionalProperties":false}`,
			[]string{"task_id"}, func(p *taskUpdateParams) []runtime.FieldError { return checkState(p.StateKey) },
			func(_ context.Context, p *taskUpdateParams) (any, error) {
				s.calls.Add(1)
				s.mu.Lock()
				defer s.mu.Unlock()
				t, ok := s.tasks[p.TaskID]
				if !ok {
					return nil, runtime.NotFound("task %s does not exist", p.TaskID)
				}
				if p.Title != "" {
					t.Title = p.Title
				}
				if p.StateKey != "" {
					t.StateKey = p.StateKey
				}
				s.tasks[p.TaskID] = t
				return t, nil
			}),
		typedTool("get_onto_project_details", "Get a project with its summary.",
			`{"type":"object","properties":{"project_id":{"type":"string"}},"required":["project_id"],"additionalProperties":false}`,
			[]string{"project_id"}, nil,
			func(_ context.Context, p *projectGetParams) (any, error) {
				s.calls.Add(1)
				if p.ProjectID != "p1" {
					return nil, runtime.NotFound("project %s does not exist", p.ProjectID)
				}
				return map[string]any{"id": "p1", "name": "Launch"}, nil
			}),
		typedTool("reorganize_onto_project_graph", "Reorganize a project's graph of goals, plans and tasks.",
			`{"type":"object","properties":{"project_id":{"type":"string"}},"required":["project_id"],"additionalProperties":false}`,
			[]string{"project_id"}, nil,
			func(ctx context.Context, p *reorganizeParams) (any, error) {
				s.calls.Add(1)
				s.mu.Lock()
				s.dryRuns = append(s.dryRuns, DryRun(ctx))
				s.mu.Unlock()
				return map[string]any{"project_id": p.ProjectID, "applied": !DryRun(ctx)}, nil
			}),
		typedTool("web_search", "Search the web and return result snippets.",
			`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`,
			[]string{"query"}, nil,
			func(_ context.Context, p *queryParams) (any, error) {
				s.calls.Add(1)
				if p.Query == "boom" {
					panic("index out of range")
				}
				return []string{"result for " + p.Query}, nil
			}),
		// A hand-written tool without Decode: the gateway checks required
		// and unknown arguments itself.
		{Name: "web_visit", Description: "Visit a web page and return its text.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"url":{"type":"string","format":"uri"}},"required":["url"]}`),
			Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
				s.calls.Add(1)
				assertHandlerArgs("web_visit", args)
				return runtime.Result{Message: "page text of " + string(args), Success: true}, nil
			}},
	}
}

// violations records what handlers saw that the gateway and the decoders
// promise they never see; the fuzz targets fail on any.
var violations struct {
	sync.Mutex
	list []string
}

func handlerViolation(tool, what string) {
	violations.Lock()
	defer violations.Unlock()
	if len(violations.list) < 10 {
		violations.list = append(violations.list, tool+": "+what)
	}
}

// takeViolations returns and clears the recorded violations.
func takeViolations() []string {
	violations.Lock()
	defer violations.Unlock()
	out := violations.list
	violations.list = nil
	return out
}

// assertHandlerArgs records raw arguments a handler must never get: not
// valid Unicode, or beyond the default limits.
func assertHandlerArgs(tool string, args json.RawMessage) {
	if !utf8.Valid(args) {
		handlerViolation(tool, fmt.Sprintf("called with invalid UTF-8 %.100q", args))
	}
	if len(args) > DefaultLimits.ArgsBytes {
		handlerViolation(tool, fmt.Sprintf("called with %d bytes of args", len(args)))
	}
	if fe := scanJSON(args, DefaultLimits); fe != nil {
		handlerViolation(tool, "called with args beyond the limits: "+fe.String())
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// testRegistry is the family's registry as generated code declares it:
// usage lines, argument summaries and examples included (the gateway
// reads them, it does not derive them).
func testRegistry() Registry {
	req := func(name, typ string) Arg { return Arg{Name: name, Type: typ, Required: true} }
	opt := func(name, typ, def string) Arg { return Arg{Name: name, Type: typ, Default: def} }
	ex := func(args string) []Example { return []Example{{Args: json.RawMessage(args)}} }
	const states = "todo|in_progress|done"
	return Registry{
		Version: "v-test",
		Groups:  []Group{{Name: "onto", Summary: "Projects, tasks and their graph."}, {Name: "util", Summary: "Web and helpers."}},
		Ops: []Op{
			{Path: "onto.task.list", Tool: "list_onto_tasks", Group: "onto", Kind: runtime.OpRead, Entity: "task", Action: "list",
				Usage: "onto.task.list [limit:integer=20] [project_id:string] [state_key:todo|in_progress|done]",
				Args:  []Arg{opt("limit", "integer", "20"), opt("project_id", "string", ""), opt("state_key", states, "")}, Examples: ex(`{}`)},
			{Path: "onto.task.get", Tool: "get_onto_task_details", Group: "onto", Kind: runtime.OpRead, Entity: "task", Action: "get",
				Usage: "onto.task.get task_id:string", Args: []Arg{req("task_id", "string")}, Examples: ex(`{"task_id":"<task_id>"}`)},
			{Path: "onto.task.search", Tool: "search_onto_tasks", Group: "onto", Kind: runtime.OpRead, Entity: "task", Action: "search",
				Usage: "onto.task.search query:string", Args: []Arg{req("query", "string")}, Examples: ex(`{"query":"<query>"}`)},
			{Path: "onto.task.create", Tool: "create_onto_task", Group: "onto", Kind: runtime.OpWrite, Entity: "task", Action: "create",
				Usage:    `onto.task.create project_id:string title:string [state_key:todo|in_progress|done="todo"]`,
				Args:     []Arg{req("project_id", "string"), req("title", "string"), opt("state_key", states, `"todo"`)},
				Policy:   &Policy{Do: []string{"User explicitly asks to create a task"}, Dont: []string{"Work you can do now"}},
				Examples: []Example{{Description: "a todo in project p1", Args: json.RawMessage(`{"project_id":"p1","title":"Draft launch email"}`)}}},
			{Path: "onto.task.update", Tool: "update_onto_task", Group: "onto", Kind: runtime.OpWrite, Entity: "task", Action: "update",
				Usage: "onto.task.update task_id:string [state_key:todo|in_progress|done] [title:string]",
				Args:  []Arg{req("task_id", "string"), opt("state_key", states, ""), opt("title", "string", "")}, Examples: ex(`{"task_id":"<task_id>"}`)},
			{Path: "onto.project.get", Tool: "get_onto_project_details", Group: "onto", Kind: runtime.OpRead, Entity: "project", Action: "get",
				Usage: "onto.project.get project_id:string", Args: []Arg{req("project_id", "string")}, Examples: ex(`{"project_id":"<project_id>"}`)},
			{Path: "onto.project.graph.reorganize", Tool: "reorganize_onto_project_graph", Group: "onto", Kind: runtime.OpWrite, Entity: "project", Action: "reorganize", DryRunDefault: true,
				Usage: "onto.project.graph.reorganize project_id:string", Args: []Arg{req("project_id", "string")}, Examples: ex(`{"project_id":"<project_id>"}`)},
			{Path: "util.web.search", Tool: "web_search", Group: "util", Kind: runtime.OpRead, Entity: "web", Action: "search",
				Usage: "util.web.search query:string", Args: []Arg{req("query", "string")}, Examples: ex(`{"query":"<query>"}`)},
			{Path: "util.web.visit", Tool: "web_visit", Group: "util", Kind: runtime.OpRead, Entity: "web", Action: "visit",
				Usage: "util.web.visit url:string", Args: []Arg{req("url", "string")}, Examples: ex(`{"url":"https://example.com"}`)},
		},
	}
}

type session string

func (s session) ID() string { return string(s) }

// counter returns deterministic trace ids tr_1, tr_2, …
func counter() func() string {
	var n atomic.Int64
	return func() string { return "tr_" + strconv.FormatInt(n.Add(1), 10) }
}

var epoch = time.Date(2025, 1, 31, 9, 0, 0, 0, time.UTC)

type harness struct {
	t     testing.TB
	g     *Gateway
	s     *store
	tools map[string]runtime.Tool
	sess  string
}

func newHarness(t testing.TB, opts ...Option) *harness {
	t.Helper()
	s := newStore()
	base := []Option{WithTraceIDs(counter()), WithClock(func() time.Time { return epoch })}
	g, err := New(testRegistry(), s.tools(), append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	h := &harness{t: t, g: g, s: s, tools: map[string]runtime.Tool{}, sess: "s1"}
	for _, tool := range g.Tools() {
		h.tools[tool.Name] = tool
	}
	return h
}

// call sends one tool call through runtime.Dispatch, as an agent loop does,
// and returns the text the model would read.
func (h *harness) call(tool, args string) string {
	h.t.Helper()
	tc := runtime.NewToolContext(runtime.ContextParts{Session: session(h.sess), Call: runtime.ToolCall{ID: "c", Name: tool, Args: json.RawMessage(args)}})
	res, err := runtime.Dispatch(context.Background(), h.tools[tool], tc, json.RawMessage(args))
	if err != nil {
		h.t.Fatalf("%s(%s): propagated error %v", tool, args, err)
	}
	return runtime.RenderResult(res)
}

// obj calls and decodes the answer.
func (h *harness) obj(tool, args string) map[string]any {
	h.t.Helper()
	text := h.call(tool, args)
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		h.t.Fatalf("%s(%s): answer is not JSON: %v\n%s", tool, args, err, text)
	}
	return m
}

// at walks a decoded JSON value by a slash path ("error/details/field_errors/0/path").
func at(v any, path string) any {
	for _, seg := range strings.Split(path, "/") {
		switch x := v.(type) {
		case map[string]any:
			v = x[seg]
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}
