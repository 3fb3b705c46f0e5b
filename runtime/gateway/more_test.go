package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestIdempotencyTTL(t *testing.T) {
	now := epoch
	h := newHarness(t, WithWrites(true), WithIdempotencyTTL(time.Minute), WithClock(func() time.Time { return now }))
	call := `{"op":"onto.task.create","args":{"project_id":"p9","title":"A"},"idempotency_key":"k"}`
	h.call(ExecTool, call)
	h.call(ExecTool, call)
	if n := h.s.calls.Load(); n != 1 {
		t.Fatalf("within the TTL the handler ran %d times, want 1", n)
	}
	now = now.Add(2 * time.Minute)
	other := `{"op":"onto.task.create","args":{"project_id":"p9","title":"B"},"idempotency_key":"k"}`
	if m := h.obj(ExecTool, other); at(m, "ok") != true {
		t.Fatalf("expired key still conflicts: %v", m)
	}
}

type propagating struct{}

func (propagating) Error() string             { return "expand" }
func (propagating) PropagateThroughDispatch() {}

func TestPropagatorPassesThrough(t *testing.T) {
	tool := runtime.Tool{Name: "t", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{}, propagating{}
	}}
	g, err := New(Registry{Ops: []Op{{Path: "a.b", Tool: "t"}}}, []runtime.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	for _, gt := range []runtime.Tool{g.Tools()[2], g.Tools()[3]} {
		args := `{"op":"a.b","args":{}}`
		if gt.Name == BatchTool {
			args = `{"items":[` + args + `]}`
		}
		_, err := runtime.Dispatch(context.Background(), gt, runtime.ToolContext{}, json.RawMessage(args))
		if !errors.As(err, new(propagating)) {
			t.Errorf("%s: error %v did not propagate", gt.Name, err)
		}
	}
}

func TestInnerToolInvokedEvent(t *testing.T) {
	h := newHarness(t)
	var bus runtime.EventBus
	var names []string
	bus.Subscribe(func(e runtime.Event) { names = append(names, e.(runtime.ToolInvoked).Tool) })
	tc := runtime.NewToolContext(runtime.ContextParts{Bus: &bus})
	res, _ := runtime.Dispatch(context.Background(), h.tools[ExecTool], tc, json.RawMessage(`{"op":"onto.task.get","args":{"task_id":"t1"}}`))
	if !res.Success || strings.Join(names, ",") != "get_onto_task_details,tool_exec" {
		t.Fatalf("events %v, result %+v", names, res)
	}
}

// A handler's note on a successful result reaches the model as
// meta.message, not as a warning.
func TestExecMessageIsNotAWarning(t *testing.T) {
	tool := runtime.Tool{Name: "count_notes", Description: "Count notes.", Parameters: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Message: "3 notes", Value: map[string]int{"count": 3}}, nil
		}}
	reg := Registry{Version: "v1", Ops: []Op{{Path: "notes.count", Tool: "count_notes", Kind: runtime.OpRead, Group: "notes"}}}
	tools, err := Tools(reg, []runtime.Tool{tool})
	if err != nil {
		t.Fatal(err)
	}
	res, err := runtime.Dispatch(context.Background(), tools[2], runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(`{"op":"notes.count","args":{}}`))
	if err != nil {
		t.Fatal(err)
	}
	text := runtime.RenderResult(res)
	if !strings.Contains(text, `"warnings":[]`) || !strings.Contains(text, `"message":"3 notes"`) || !strings.Contains(text, `"result":{"count":3}`) {
		t.Fatalf("envelope: %s", text)
	}
}

// TestArgumentsOfTheWrongKind: arguments that are not an object get a
// message in JSON terms (no Go type names), and a batch item that is not
// an object is refused rather than read as the root help.
func TestArgumentsOfTheWrongKind(t *testing.T) {
	h := newHarness(t)
	for _, args := range []string{`[]`, `"onto"`, `7`} {
		m := checkEnvelope(t, HelpTool, h.call(HelpTool, args))
		msg, _ := at(m, "error/message").(string)
		if !strings.Contains(msg, "the arguments must be an object") || strings.Contains(msg, "gateway.") {
			t.Errorf("tool_help %s: %v", args, m)
		}
	}
	m := checkEnvelope(t, BatchTool, h.call(BatchTool, `{"items":[null,{"tool":"help"}]}`))
	first, _ := at(m, "result/results/0/error/message").(string)
	if !strings.Contains(first, "item must be an object") || at(m, "result/results/1/ok") != true {
		t.Errorf("batch with a null item: %v", m)
	}
}
