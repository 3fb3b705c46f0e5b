package quickstart_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
)

// call dispatches one tool call with raw JSON arguments, as an orchestrator
// does for a model's tool call, and returns the result and the event.
func call(t *testing.T, h quickstart.Handlers, tool, args string) (runtime.Result, runtime.ToolInvoked) {
	t.Helper()
	var bus runtime.EventBus
	var ev runtime.ToolInvoked
	bus.Subscribe(func(e runtime.Event) { ev = e.(runtime.ToolInvoked) })
	for _, tl := range quickstart.Tools(h) {
		if tl.Name != tool {
			continue
		}
		tc := runtime.NewToolContext(runtime.ContextParts{Bus: &bus, Call: runtime.ToolCall{ID: "call_1", Name: tool, Args: json.RawMessage(args)}})
		res, err := runtime.Dispatch(context.Background(), tl, tc, json.RawMessage(args))
		if err != nil {
			t.Fatalf("%s: dispatch propagated %v", tool, err)
		}
		return res, ev
	}
	t.Fatalf("no tool %s", tool)
	return runtime.Result{}, ev
}

func TestToolsKeepDefinitions(t *testing.T) {
	tools := quickstart.Tools(&quickstart.Store{})
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Name)
		if err := tl.Check(false); err != nil {
			t.Error(err)
		}
	}
	if got := strings.Join(names, ","); got != "list_todos,get_todo,create_todo,update_todo,delete_todo" {
		t.Fatalf("tools in declaration order: got %s", got)
	}
	if !json.Valid(tools[0].Parameters) {
		t.Fatalf("parameters schema is not JSON: %s", tools[0].Parameters)
	}
}

func TestCreateListGetUpdate(t *testing.T) {
	s := &quickstart.Store{}
	res, ev := call(t, s, "create_todo", `{"title": "Renew passport", "due": "2026-12-01", "priority": 1, "tags": ["admin"]}`)
	if !res.Success || res.Message != "created td_1" {
		t.Fatalf("create: %+v", res)
	}
	if ev.Tool != "create_todo" || ev.CallID != "call_1" || !strings.Contains(ev.Rendered, `"id":"td_1"`) {
		t.Fatalf("ToolInvoked event: %+v", ev)
	}
	if p, ok := ev.Params.(*quickstart.CreateTodoParams); !ok || p.Title != "Renew passport" || *p.Priority != 1 {
		t.Fatalf("event params: %#v", ev.Params)
	}
	call(t, s, "create_todo", `{"title": "Water plants"}`)

	// Defaults apply: state open, limit 20; newest first.
	res, _ = call(t, s, "list_todos", `{}`)
	if !res.Success || !strings.HasPrefix(runtime.RenderValue(res.Value), `{"items":[{"id":"td_2"`) {
		t.Fatalf("list: %+v %s", res, runtime.RenderValue(res.Value))
	}
	res, _ = call(t, s, "list_todos", `{"tag": "admin", "limit": 1}`)
	if got := runtime.RenderValue(res.Value); !strings.Contains(got, "td_1") || strings.Contains(got, "td_2") {
		t.Fatalf("filtered list: %s", got)
	}

	// Absent fields stay, a null due date clears.
	res, _ = call(t, s, "update_todo", `{"todo_id": "td_1", "done": true}`)
	if got := runtime.RenderValue(res.Value); !strings.Contains(got, `"due":"2026-12-01"`) || !strings.Contains(got, `"done":true`) {
		t.Fatalf("update keeping due: %s", got)
	}
	res, _ = call(t, s, "update_todo", `{"todo_id": "td_1", "due": null}`)
	if got := runtime.RenderValue(res.Value); strings.Contains(got, "due") {
		t.Fatalf("update clearing due: %s", got)
	}
	res, _ = call(t, s, "get_todo", `{"todo_id": "td_1"}`)
	if !res.Success {
		t.Fatalf("get: %+v", res)
	}
}

func TestHandlerErrorIsAFailedResult(t *testing.T) {
	res, ev := call(t, &quickstart.Store{}, "get_todo", `{"todo_id": "td_9"}`)
	if res.Success || res.Value != nil {
		t.Fatalf("want a failed result without value, got %+v", res)
	}
	if !strings.Contains(res.Message, "no todo item td_9") || runtime.CodeOf(res.Err) != runtime.CodeNotFound {
		t.Fatalf("message %q code %s", res.Message, runtime.CodeOf(res.Err))
	}
	if ev.Result.Success || ev.Rendered != res.Message {
		t.Fatalf("event for the failure: %+v", ev)
	}
	if p, ok := ev.Params.(*quickstart.GetTodoParams); !ok || p.TodoID != "td_9" {
		t.Fatalf("event params for the failure: %#v", ev.Params)
	}
}

// panicky panics in one handler; the rest are not implemented.
type panicky struct {
	quickstart.UnimplementedHandlers
}

func (panicky) GetTodo(context.Context, runtime.ToolContext, *quickstart.GetTodoParams) (runtime.ToolResult[quickstart.GetTodoResult], error) {
	panic("store corrupted")
}

func TestHandlerPanicIsAFailedResult(t *testing.T) {
	res, _ := call(t, panicky{}, "get_todo", `{"todo_id": "td_1"}`)
	var pe *runtime.PanicError
	if res.Success || !errors.As(res.Err, &pe) || !strings.Contains(res.Message, "get_todo") {
		t.Fatalf("want a failed result from the panic, got %+v", res)
	}
	res, _ = call(t, panicky{}, "list_todos", `{}`)
	if res.Success || !strings.Contains(res.Message, "not implemented") {
		t.Fatalf("unimplemented handler: %+v", res)
	}
}

func TestBadArgumentsAreReportedTogether(t *testing.T) {
	res, _ := call(t, &quickstart.Store{}, "create_todo", `{"title": "", "priority": 5, "tags": ["a", "a"], "due": "2026-13-45", "titel": "x"}`)
	var ve *runtime.ValidationError
	if res.Success || !errors.As(res.Err, &ve) {
		t.Fatalf("want a validation failure, got %+v", res)
	}
	codes := map[string]string{}
	for _, f := range ve.Fields {
		codes[f.Path] = f.Code
	}
	want := map[string]string{"/title": "minLength", "/priority": "enum", "/tags": "uniqueItems", "/due": "format", "/titel": "additionalProperties"}
	for path, code := range want {
		if codes[path] != code {
			t.Errorf("%s: want code %s, got %q (all: %v)", path, code, codes[path], ve.Fields)
		}
	}
	for _, f := range ve.Fields {
		if f.Path == "/titel" && f.Suggestion != "title" {
			t.Errorf("unknown argument titel: want suggestion title, got %q", f.Suggestion)
		}
	}

	res, _ = call(t, &quickstart.Store{}, "get_todo", `{"todo_id": 7}`)
	if res.Success || !strings.Contains(res.Message, "/todo_id") {
		t.Fatalf("wrong type: %+v", res)
	}
	res, _ = call(t, &quickstart.Store{}, "get_todo", `{}`)
	if res.Success || !strings.Contains(res.Message, "todo_id") {
		t.Fatalf("missing required: %+v", res)
	}
}

func TestMalformedJSON(t *testing.T) {
	for _, args := range []string{`{"title": "x"`, `not json`, ``, `[1,2]`, `{"title": "x",}`} {
		res, _ := call(t, &quickstart.Store{}, "create_todo", args)
		if res.Success || res.Message == "" {
			t.Errorf("args %q: want a failed result with a message, got %+v", args, res)
		}
	}
}

func TestDecodeArgs(t *testing.T) {
	v, err := quickstart.DecodeArgs("list_todos", []byte(`{"state": "done"}`))
	if err != nil {
		t.Fatal(err)
	}
	p := v.(*quickstart.ListTodosParams)
	if p.State != quickstart.ListTodosStateDone || p.Limit != 20 {
		t.Fatalf("decoded %+v", p)
	}
	if _, err := quickstart.DecodeArgs("list_todos", []byte(`{"state": "opn"}`)); err == nil || !strings.Contains(err.Error(), `"open"`) {
		t.Fatalf("enum mistake should suggest open: %v", err)
	}
	if _, err := quickstart.DecodeArgs("no_such_tool", []byte(`{}`)); err == nil {
		t.Fatal("unknown tool: want an error")
	}
}
