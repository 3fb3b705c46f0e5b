package replaytest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// Family is a small two-group tool family owned by the tests, so that the
// recorded requests change only when the adapters do: todo (list_todos,
// create_todo, delete_todo) over a list holding td_1 "water the plants",
// and notes (search_notes).
type Family struct {
	mu    sync.Mutex
	todos []todo
	tools []runtime.Tool
	// Registry maps the ops todo.list, todo.create, todo.delete and
	// notes.search to the tools.
	Registry gateway.Registry
}

type todo struct {
	ID    string `json:"id"`
	Title string `json:"title"`
}

// NewFamily returns the family with its list seeded.
func NewFamily() *Family {
	f := &Family{todos: []todo{{"td_1", "water the plants"}}}
	type def struct {
		op, name, group              string
		kind                         runtime.OpKind
		entity, action, desc, params string
		run                          func(args json.RawMessage) (runtime.Result, error)
	}
	defs := []def{
		{"todo.list", "list_todos", "todo", runtime.OpRead, "todo", "list", "List todo items, newest first.",
			`{"type":"object","properties":{"state":{"type":"string","enum":["open","all"],"default":"open"}},"additionalProperties":false}`, f.list},
		{"todo.create", "create_todo", "todo", runtime.OpWrite, "todo", "create", "Create a todo item.",
			`{"type":"object","properties":{"title":{"type":"string","minLength":1}},"required":["title"],"additionalProperties":false}`, f.create},
		{"todo.delete", "delete_todo", "todo", runtime.OpWrite, "todo", "delete", "Delete a todo item permanently.",
			`{"type":"object","properties":{"todo_id":{"type":"string"}},"required":["todo_id"],"additionalProperties":false}`, f.delete},
		{"notes.search", "search_notes", "notes", runtime.OpRead, "note", "search", "Search the user's notes by words.",
			`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`, f.searchNotes},
	}
	f.Registry.Groups = []gateway.Group{{Name: "todo", Summary: "Track todo items."}, {Name: "notes", Summary: "Read the user's notes."}}
	for _, d := range defs {
		run := d.run
		f.tools = append(f.tools, runtime.Tool{Name: d.name, Description: d.desc, Parameters: json.RawMessage(d.params),
			Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
				return run(args)
			}})
		f.Registry.Ops = append(f.Registry.Ops, gateway.Op{Path: d.op, Tool: d.name, Group: d.group, Kind: d.kind, Entity: d.entity,
			Action: d.action, Description: d.desc, Parameters: json.RawMessage(d.params), Usage: d.op})
	}
	return f
}

func decode(args json.RawMessage, v any) error {
	if len(args) == 0 {
		return nil
	}
	if err := json.Unmarshal(args, v); err != nil {
		return runtime.Invalid("arguments: %v", err)
	}
	return nil
}

func (f *Family) list(json.RawMessage) (runtime.Result, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]todo, 0, len(f.todos))
	for i := len(f.todos) - 1; i >= 0; i-- {
		out = append(out, f.todos[i])
	}
	return runtime.Result{Success: true, Message: fmt.Sprintf("%d items", len(out)), Value: out}, nil
}

func (f *Family) create(args json.RawMessage) (runtime.Result, error) {
	var p struct{ Title string }
	if err := decode(args, &p); err != nil {
		return runtime.Result{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	t := todo{fmt.Sprintf("td_%d", len(f.todos)+1), p.Title}
	f.todos = append(f.todos, t)
	return runtime.Result{Success: true, Message: "created " + t.ID, Value: t}, nil
}

func (f *Family) delete(args json.RawMessage) (runtime.Result, error) {
	var p struct {
		TodoID string `json:"todo_id"`
	}
	if err := decode(args, &p); err != nil {
		return runtime.Result{}, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, t := range f.todos {
		if t.ID == p.TodoID {
			f.todos = append(f.todos[:i], f.todos[i+1:]...)
			return runtime.Result{Success: true, Message: "deleted " + t.ID}, nil
		}
	}
	return runtime.Result{}, runtime.NotFound("no todo %q", p.TodoID)
}

func (f *Family) searchNotes(json.RawMessage) (runtime.Result, error) {
	return runtime.Result{Success: true, Value: []string{"milk is in the fridge"}}, nil
}

// Tools is the flat surface.
func (f *Family) Tools() []runtime.Tool { return append([]runtime.Tool(nil), f.tools...) }

// Facades is the facades surface: one facade per group.
func (f *Family) Facades() []runtime.Tool {
	return []runtime.Tool{
		matryoshka.Facade("todo", "Track todo items. Unfolds into 3 tools.", f.tools[:3]),
		matryoshka.Facade("notes", "Read the user's notes. Unfolds into 1 tool.", f.tools[3:]),
	}
}

// Prompt is a role section and one summarized section per group carrying
// the group's tools.
func (f *Family) Prompt() *prompt.Prompt {
	p, err := prompt.New("agents/todo", "assistant", "",
		prompt.Section{Key: "role", Title: "Role", Template: "You keep the user's todo list."},
		prompt.Section{Key: "todo", Title: "todo", Summary: "Track todo items. 3 tools.", Visibility: prompt.VisibilitySummary,
			Template: "Track todo items: list_todos, create_todo, delete_todo.", Tools: f.tools[:3]},
		prompt.Section{Key: "notes", Title: "notes", Summary: "Read the user's notes. 1 tool.", Visibility: prompt.VisibilitySummary,
			Template: "Read the user's notes: search_notes.", Tools: f.tools[3:]},
	)
	if err != nil {
		panic(err)
	}
	return p
}

// Gateway is the gateway surface with writes allowed and fixed trace ids
// and clock.
func (f *Family) Gateway() []runtime.Tool {
	tools, err := gateway.Tools(f.Registry, f.tools, gateway.WithWrites(true),
		gateway.WithTraceIDs(func() string { return "tr_1" }), gateway.WithClock(func() time.Time { return time.Unix(0, 0) }))
	if err != nil {
		panic(err)
	}
	return tools
}

// Deferred is the deferred surface.
func (f *Family) Deferred() *deferred.Surface {
	s, err := deferred.New(f.Registry, f.tools)
	if err != nil {
		panic(err)
	}
	return s
}
