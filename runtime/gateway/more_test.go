package gateway

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
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

// TestIdempotencyKeyCannotNameAnotherScope: the store key of a session's
// idempotency key is "<session>\x00<key>", and a caller without a session
// stores its key as it is: a key holding NUL is refused, so that such a
// caller cannot send "s1\x00k1" and replay session s1's answer to its
// key k1, or store first under it an answer that s1's own call with k1
// would get instead of running.
func TestIdempotencyKeyCannotNameAnotherScope(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	call := func(tc runtime.ToolContext, key string) map[string]any {
		args := `{"op":"onto.task.create","args":{"project_id":"p1","title":"Ship"},"idempotency_key":` + jsonQuote(key) + `}`
		res, err := runtime.Dispatch(context.Background(), h.tools[ExecTool], tc, json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return checkEnvelope(t, ExecTool, runtime.RenderResult(res))
	}
	s1 := runtime.NewToolContext(runtime.ContextParts{Session: session("s1")})
	none := runtime.NewToolContext(runtime.ContextParts{})
	// Stored first by the caller without a session, under s1's scope.
	forged := call(none, "s1\x00k1")
	if at(forged, "error/code") != "VALIDATION_ERROR" || at(forged, "error/details/field_errors/0/path") != "/idempotency_key" {
		t.Errorf("a key holding NUL: %v", forged)
	}
	own := call(s1, "k1")
	if at(own, "ok") != true || at(own, "meta/trace_id") == at(forged, "meta/trace_id") {
		t.Fatalf("s1's call with k1 did not run, it got the answer stored under its key: %v", own)
	}
	// Replayed to the caller without a session.
	if again := call(none, "s1\x00k1"); at(again, "ok") == true || h.s.calls.Load() != 1 {
		t.Errorf("a caller without a session got s1's answer (%d calls): %v", h.s.calls.Load(), again)
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

// TestBatchHaltsAtPropagator: an item whose handler returns an error
// that must propagate (prompt.VisibilityExpansionRequired) halts the
// batch, as it halts an agent turn: tool_batch returns that error and no
// answer, so no item after it may run, least of all a write whose
// result the model would never see (it would send it again after the
// expansion).
func TestBatchHaltsAtPropagator(t *testing.T) {
	var writes atomic.Int32
	expand := func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{}, propagating{}
	}
	tools := []runtime.Tool{
		{Name: "expand", Handler: expand},
		{Name: "expand_w", Handler: expand},
		{Name: "write", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			writes.Add(1)
			return runtime.Result{Success: true, Message: "written"}, nil
		}},
	}
	g, err := New(Registry{Ops: []Op{
		{Path: "a.expand", Tool: "expand"},
		{Path: "a.expandw", Tool: "expand_w", Kind: runtime.OpWrite},
		{Path: "a.write", Tool: "write", Kind: runtime.OpWrite},
	}}, tools, WithWrites(true))
	if err != nil {
		t.Fatal(err)
	}
	for _, items := range []string{
		`[{"op":"a.expand","args":{}},{"op":"a.write","args":{}}]`,
		`[{"op":"a.expandw","args":{}},{"op":"a.write","args":{}}]`,
		`[{"op":"a.expand","args":{}},{"tool":"help"},{"op":"a.write","args":{}},{"op":"a.write","args":{}}]`,
	} {
		writes.Store(0)
		_, err := runtime.Dispatch(context.Background(), g.Tools()[3], runtime.ToolContext{}, json.RawMessage(items))
		if !errors.As(err, new(propagating)) {
			t.Errorf("%s: error %v did not propagate", items, err)
		}
		if n := writes.Load(); n != 0 {
			t.Errorf("%s: %d writes ran after the item that halted the batch", items, n)
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

// A handler that panics with a value holding itself, or fails with a
// wrapped nil *runtime.ValidationError, gets an INTERNAL answer: fmt
// followed the cycle until the stack overflowed (a fatal error no recover
// stops), and the nil was read through.
func TestHostileHandlerFailures(t *testing.T) {
	handlers := map[string]runtime.Handler{
		"cycle": func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			s := []any{nil}
			s[0] = s
			panic(s)
		},
		"nilvalidation": func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Failure(fmt.Errorf("x: %w", (*runtime.ValidationError)(nil))), nil
		},
	}
	for name, h := range handlers {
		g, err := New(Registry{Ops: []Op{{Path: "a.read", Tool: name, Kind: runtime.OpRead}}}, []runtime.Tool{{Name: name, Handler: h}})
		if err != nil {
			t.Fatal(err)
		}
		res, err := runtime.Dispatch(context.Background(), g.Tools()[2], runtime.ToolContext{}, json.RawMessage(`{"op":"a.read","args":{}}`))
		if err != nil {
			t.Fatal(err)
		}
		env := checkEnvelope(t, ExecTool, runtime.RenderResult(res))
		if at(env, "ok") != false || at(env, "error/code") != "INTERNAL" {
			t.Errorf("%s: %v", name, env)
		}
	}
}

// A batch whose call is cancelled starts no item after that: the first
// write's handler cancels, and the second write, and the reads after it,
// do not run (they did, writes included).
func TestBatchStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ran []string
	tool := func(name string, then func()) runtime.Tool {
		return runtime.Tool{Name: name, Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			ran = append(ran, name)
			then()
			return runtime.Result{Success: true, Message: "ok"}, nil
		}}
	}
	g, err := New(Registry{Ops: []Op{
		{Path: "a.first", Tool: "first", Kind: runtime.OpWrite},
		{Path: "a.second", Tool: "second", Kind: runtime.OpWrite},
		{Path: "a.look", Tool: "look", Kind: runtime.OpRead},
	}}, []runtime.Tool{tool("first", cancel), tool("second", func() {}), tool("look", func() {})}, WithWrites(true))
	if err != nil {
		t.Fatal(err)
	}
	args := `{"items":[{"op":"a.first","args":{}},{"op":"a.second","args":{}},{"op":"a.look","args":{}}]}`
	res, err := runtime.Dispatch(ctx, g.Tools()[3], runtime.ToolContext{}, json.RawMessage(args))
	if err != nil {
		t.Fatal(err)
	}
	if len(ran) != 1 || ran[0] != "first" {
		t.Errorf("ran %v after the call was cancelled; want [first]", ran)
	}
	out := runtime.RenderResult(res)
	if !strings.Contains(out, "not run: the call was cancelled before this item started (context canceled)") {
		t.Errorf("answer: %s", out)
	}
}

// TestHandlerKeyIsTheCalls: the key IdempotencyKey gives a handler stands
// for the idempotency_key and the call: the same call gets the same key
// (a gateway restarted, as a client repeating its call after a crash
// meets it, finds the write done), another call under the same
// idempotency_key gets another (it got the same, and a handler recording
// writes by it answered one client's call with another client's write).
func TestHandlerKeyIsTheCalls(t *testing.T) {
	var keys []string
	tool := runtime.Tool{Name: "create_t", Parameters: json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"}}}`),
		Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
			keys = append(keys, IdempotencyKey(ctx))
			return runtime.Result{Success: true, Message: "made"}, nil
		}}
	for _, args := range []string{
		`{"op":"t.create","args":{"title":"A"},"idempotency_key":"k1"}`,
		`{"op":"t.create","args":{"title":"B"},"idempotency_key":"k1"}`,
		`{"op":"t.create","args":{"title":"A"},"idempotency_key":"k1"}`,
		`{"op":"t.create","args":{"title":"A"}}`,
		`{"op":"t.create","args":{"title":"A"},"idempotency_key":"k1","dry_run":true}`,
	} {
		// A gateway of its own for each call: nothing replays.
		g, err := New(Registry{Ops: []Op{{Path: "t.create", Tool: "create_t", Kind: runtime.OpWrite}}}, []runtime.Tool{tool}, WithWrites(true))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.Tools()[2].Handler(context.Background(), runtime.ToolContext{}, json.RawMessage(args)); err != nil {
			t.Fatal(err)
		}
	}
	if len(keys) != 5 || keys[0] == "" || keys[0] == keys[1] || keys[0] != keys[2] || keys[0] == "k1" || keys[3] != "" || keys[4] != "" {
		t.Errorf("keys %q", keys)
	}
}
