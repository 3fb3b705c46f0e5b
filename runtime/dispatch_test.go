package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

type lookupResult struct {
	EntityID    string `json:"entity_id"`
	DocumentURL string `json:"document_url"`
}

// expand is a stand-in for prompt.VisibilityExpansionRequired.
type expand struct{ sections []string }

func (e *expand) Error() string             { return "expand " + strings.Join(e.sections, ",") }
func (e *expand) PropagateThroughDispatch() {}
func (e *expand) TelemetryMetadata() map[string]any {
	return map[string]any{"requested_sections": e.sections}
}

func typed[T any](f func(args json.RawMessage) (runtime.ToolResult[T], error)) runtime.Handler {
	return func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
		r, err := f(args)
		if err != nil {
			return runtime.Result{}, err
		}
		return r.Untyped(), nil
	}
}

func record(bus *runtime.EventBus) *[]runtime.ToolInvoked {
	var got []runtime.ToolInvoked
	bus.Subscribe(func(e runtime.Event) {
		if ti, ok := e.(runtime.ToolInvoked); ok {
			got = append(got, ti)
		}
	})
	return &got
}

func TestDispatch(t *testing.T) {
	propagated := &expand{sections: []string{"billing"}}
	tests := []struct {
		name        string
		handler     runtime.Handler
		wantSuccess bool
		wantMessage string
		wantValue   bool
		wantCode    runtime.Code
		wantErr     error
	}{
		{
			name: "success",
			handler: typed(func(args json.RawMessage) (runtime.ToolResult[lookupResult], error) {
				var p struct {
					EntityID string `json:"entity_id"`
				}
				if err := json.Unmarshal(args, &p); err != nil {
					return runtime.ToolResult[lookupResult]{}, err
				}
				return runtime.OK(lookupResult{EntityID: p.EntityID, DocumentURL: "https://example.com"}, "Fetched entity "+p.EntityID+"."), nil
			}),
			wantSuccess: true, wantValue: true,
			wantMessage: "Fetched entity e1.",
		},
		{
			name: "typed error",
			handler: typed(func(json.RawMessage) (runtime.ToolResult[lookupResult], error) {
				return runtime.ToolResult[lookupResult]{}, runtime.NotFound("entity %s not found", "e1")
			}),
			wantMessage: "entity e1 not found", wantCode: runtime.CodeNotFound,
		},
		{
			name: "plain error",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{}, errors.New("database is down")
			},
			wantMessage: "database is down", wantCode: runtime.CodeInternal,
		},
		{
			name: "validation error",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{}, &runtime.ValidationError{Tool: "lookup_entity", Fields: []runtime.FieldError{{Path: "/entity_id", Code: "required", Message: "missing required argument"}}}
			},
			wantMessage: "invalid arguments for lookup_entity: /entity_id: missing required argument",
			wantCode:    runtime.CodeValidation,
		},
		{
			name: "not implemented",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{}, runtime.NotImplemented("lookup_entity")
			},
			wantMessage: "tool lookup_entity is not implemented", wantCode: runtime.CodeInternal,
		},
		{
			name: "panic",
			handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
				var ids []string
				return runtime.Result{Message: ids[len(args)]}, nil
			},
			wantMessage: "tool lookup_entity failed unexpectedly: runtime error: index out of range [18] with length 0", wantCode: runtime.CodeInternal,
		},
		{
			name: "failed typed result drops its value",
			handler: typed(func(json.RawMessage) (runtime.ToolResult[lookupResult], error) {
				return runtime.ToolResult[lookupResult]{Message: "no access", Value: lookupResult{EntityID: "leak"}}, nil
			}),
			wantMessage: "no access",
		},
		{
			name: "propagator passes through",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{}, fmt.Errorf("wrapped: %w", propagated)
			},
			wantMessage: "wrapped: expand billing", wantErr: propagated,
		},
		{
			name: "panicking with a propagator propagates it",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				panic(propagated)
			},
			wantMessage: "expand billing", wantErr: propagated,
		},
		{
			name:        "no handler",
			handler:     nil,
			wantMessage: "tool lookup_entity has no handler", wantCode: runtime.CodeInternal,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var bus runtime.EventBus
			events := record(&bus)
			tool := runtime.Tool{Name: "lookup_entity", Handler: tc.handler}
			tc1 := runtime.NewToolContext(runtime.ContextParts{Bus: &bus, Call: runtime.ToolCall{ID: "call_1", Name: "lookup_entity"}})
			args := json.RawMessage(`{"entity_id":"e1"}`)

			res, err := runtime.Dispatch(context.Background(), tool, tc1, args)

			if tc.wantErr != nil {
				if !errors.Is(err, tc.wantErr) {
					t.Fatalf("err = %v, want %v untouched", err, tc.wantErr)
				}
			} else if err != nil {
				t.Fatalf("err = %v, want nil (failures are results)", err)
			}
			if res.Success != tc.wantSuccess || res.Message != tc.wantMessage {
				t.Errorf("result = {Success:%v Message:%q}, want {%v %q}", res.Success, res.Message, tc.wantSuccess, tc.wantMessage)
			}
			if (res.Value != nil) != tc.wantValue {
				t.Errorf("Value = %#v, want present=%v", res.Value, tc.wantValue)
			}
			if !res.Success && tc.wantErr == nil && runtime.CodeOf(res.Err) != tc.wantCode {
				t.Errorf("CodeOf(res.Err) = %q, want %q", runtime.CodeOf(res.Err), tc.wantCode)
			}
			if len(*events) != 1 {
				t.Fatalf("published %d ToolInvoked events, want 1", len(*events))
			}
			ev := (*events)[0]
			if ev.Tool != "lookup_entity" || ev.CallID != "call_1" || string(ev.Args) != string(args) {
				t.Errorf("event identifies %q/%q/%s", ev.Tool, ev.CallID, ev.Args)
			}
			if ev.Rendered != runtime.RenderResult(res) {
				t.Errorf("event Rendered = %q, want what the provider sees %q", ev.Rendered, runtime.RenderResult(res))
			}
			if ev.Result.Success != res.Success || ev.Result.Message != res.Message {
				t.Errorf("event result %+v differs from returned %+v", ev.Result, res)
			}
			if ev.Duration < 0 || ev.Started.IsZero() {
				t.Errorf("event timing %v from %v", ev.Duration, ev.Started)
			}
			if tc.wantErr != nil && ev.Metadata["requested_sections"] == nil {
				t.Errorf("propagated error's telemetry metadata missing: %v", ev.Metadata)
			}
		})
	}
}

// TestDispatchNilPropagator: a nil *expand, whose methods dereference it,
// panicked out of Dispatch when the handler panicked with it (its Error
// was read in the recovery) or returned an error wrapping it (its
// TelemetryMetadata was read for the event). The first is a failed
// result, the second propagates as before, without telemetry; each call
// publishes its event.
func TestDispatchNilPropagator(t *testing.T) {
	tests := []struct {
		name        string
		handler     runtime.Handler
		wantMessage string
		propagates  bool
	}{
		{
			name: "panic with a nil propagator",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				var e *expand
				panic(e)
			},
			wantMessage: "tool lookup_entity failed unexpectedly: ",
		},
		{
			name: "error wrapping a nil propagator",
			handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				var e *expand
				return runtime.Result{}, fmt.Errorf("opening: %w", e)
			},
			wantMessage: "opening: ",
			propagates:  true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var bus runtime.EventBus
			events := record(&bus)
			tool := runtime.Tool{Name: "lookup_entity", Handler: tt.handler}
			var (
				res runtime.Result
				err error
			)
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Fatalf("Dispatch panicked: %v", p)
					}
				}()
				res, err = runtime.Dispatch(context.Background(), tool, runtime.NewToolContext(runtime.ContextParts{Bus: &bus}), nil)
			}()
			if (err != nil) != tt.propagates || res.Success || !strings.HasPrefix(res.Message, tt.wantMessage) {
				t.Errorf("Dispatch = %+v, %v; want a failed result %q..., propagating: %v", res, err, tt.wantMessage, tt.propagates)
			}
			if len(*events) != 1 || (*events)[0].Metadata != nil {
				t.Errorf("events %+v, want one without metadata", *events)
			}
		})
	}
}

func TestDispatchPanicKeepsStack(t *testing.T) {
	tool := runtime.Tool{Name: "boom", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		panic("kaboom")
	}}
	res, err := runtime.Dispatch(context.Background(), tool, runtime.ToolContext{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var pe *runtime.PanicError
	if !errors.As(res.Err, &pe) || pe.Value != "kaboom" || !strings.Contains(string(pe.Stack), "dispatch_test.go") {
		t.Errorf("res.Err = %#v, want a *PanicError with the handler's stack", res.Err)
	}
}

func TestDispatchRenderPanicDoesNotAbort(t *testing.T) {
	tool := runtime.Tool{Name: "render", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Message: "ok", Value: panicky{}, Success: true}, nil
	}}
	var bus runtime.EventBus
	events := record(&bus)
	res, err := runtime.Dispatch(context.Background(), tool, runtime.NewToolContext(runtime.ContextParts{Bus: &bus}), nil)
	if err != nil || !res.Success {
		t.Fatalf("Dispatch = %+v, %v", res, err)
	}
	if got := (*events)[0].Rendered; got != "ok\n\n<unrenderable value: boom>" {
		t.Errorf("Rendered = %q", got)
	}
}

func TestDispatchPassesContext(t *testing.T) {
	type key struct{}
	ctx, cancel := context.WithTimeout(context.WithValue(context.Background(), key{}, "v"), time.Minute)
	defer cancel()
	var bus runtime.EventBus
	parts := runtime.ContextParts{Bus: &bus, Session: session("s1"), Adapter: adapter("openai"), Call: runtime.ToolCall{ID: "c9", Name: "t", Args: json.RawMessage(`{}`)}}
	tool := runtime.Tool{Name: "t", Handler: func(ctx context.Context, tc runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
		if ctx.Value(key{}) != "v" {
			t.Error("handler did not get the caller's context")
		}
		if tc.Session().ID() != "s1" || tc.Adapter().Name() != "openai" || tc.Bus() != &bus || tc.Call().ID != "c9" {
			t.Errorf("handler got context %+v", tc)
		}
		if tc.Prompt() != nil || tc.RenderedPrompt() != nil {
			t.Error("unset parts are not nil")
		}
		return runtime.Result{Success: true}, nil
	}}
	if _, err := runtime.Dispatch(ctx, tool, runtime.NewToolContext(parts), nil); err != nil {
		t.Fatal(err)
	}
}

type session string

func (s session) ID() string { return string(s) }

type adapter string

func (a adapter) Name() string { return string(a) }

func BenchmarkDispatch(b *testing.B) {
	tool := runtime.Tool{Name: "t", Handler: typed(func(json.RawMessage) (runtime.ToolResult[lookupResult], error) {
		return runtime.OK(lookupResult{EntityID: "e"}, "ok"), nil
	})}
	var bus runtime.EventBus
	bus.Subscribe(func(runtime.Event) {})
	tc := runtime.NewToolContext(runtime.ContextParts{Bus: &bus})
	b.ReportAllocs()
	for b.Loop() {
		_, _ = runtime.Dispatch(context.Background(), tool, tc, nil)
	}
}

// The decoded params a handler reports on its result reach the runtime.ToolInvoked
// event, so observers see what the handler ran with.
func TestDispatchEventCarriesParams(t *testing.T) {
	type params struct{ City string }
	tool := runtime.Tool{Name: "get_weather", Handler: func(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Message: "sunny", Success: true, Params: &params{City: "Paris"}}, nil
	}}
	var bus runtime.EventBus
	var got runtime.ToolInvoked
	bus.Subscribe(func(e runtime.Event) { got = e.(runtime.ToolInvoked) })
	if _, err := runtime.Dispatch(context.Background(), tool, runtime.NewToolContext(runtime.ContextParts{Bus: &bus}), json.RawMessage(`{"city":"Paris"}`)); err != nil {
		t.Fatal(err)
	}
	if p, ok := got.Params.(*params); !ok || p.City != "Paris" {
		t.Fatalf("event params: %#v", got.Params)
	}
}

// TestDispatchHostileHandler: a handler panicking with a slice that holds
// itself fails its call (fmt printing the value overflowed the stack,
// taking the process down), and one returning an error that wraps a nil
// *runtime.Error fails with code INTERNAL (CodeOf panicked).
func TestDispatchHostileHandler(t *testing.T) {
	self := []any{nil}
	self[0] = self
	tests := []struct {
		name    string
		handler runtime.Handler
		want    string
	}{
		{"cyclic panic", func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) { panic(self) },
			"tool t failed unexpectedly: []interface {} (not shown: a cyclic or too large value)"},
		{"wrapped nil *Error", func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			var notFound *runtime.Error
			return runtime.Result{}, fmt.Errorf("lookup: %w", notFound)
		}, "lookup: <nil>"},
	}
	for _, tc := range tests {
		res, err := runtime.Dispatch(context.Background(), runtime.Tool{Name: "t", Handler: tc.handler}, runtime.ToolContext{}, nil)
		if err != nil || res.Success || res.Message != tc.want || runtime.CodeOf(res.Err) != runtime.CodeInternal {
			t.Errorf("%s: %q, %v (code %s); want %q", tc.name, res.Message, err, runtime.CodeOf(res.Err), tc.want)
		}
	}
}

// boundedResult is a result type whose generated Validate refuses N > 5.
type boundedResult struct{ N int }

func (r *boundedResult) Validate() error {
	if r.N > 5 {
		return &runtime.ValidationError{Tool: "count", Fields: []runtime.FieldError{{Path: "/N", Code: "maximum", Message: "must be <= 5"}}}
	}
	return nil
}

// TestResultOutsideItsSchema: a handler's successful result that its own
// output schema refuses was sent as structured content, which MCP clients
// refuse with an exception; it is a failed call (code INTERNAL, not a
// validation error the caller could fix) naming the handler's bug. A
// result within the schema is unchanged.
func TestResultOutsideItsSchema(t *testing.T) {
	decode := func(string, []byte) (struct{}, error) { return struct{}{}, nil }
	for _, c := range []struct {
		n    int
		fail bool
	}{{3, false}, {7, true}} {
		tool := runtime.Bind(runtime.Tool{Name: "count"}, decode, func(context.Context, runtime.ToolContext, struct{}) (runtime.ToolResult[boundedResult], error) {
			return runtime.OK(boundedResult{N: c.n}, "counted"), nil
		})
		res, _ := runtime.Dispatch(context.Background(), tool, runtime.ToolContext{}, json.RawMessage(`{}`))
		var rse *runtime.ResultSchemaError
		switch {
		case !c.fail && !res.Success:
			t.Errorf("N=%d refused: %+v", c.n, res)
		case c.fail && (res.Success || !errors.As(res.Err, &rse) || !strings.Contains(res.Message, "does not match its output schema") || runtime.CodeOf(res.Err) != runtime.CodeInternal):
			t.Errorf("N=%d: %+v (code %s)", c.n, res, runtime.CodeOf(res.Err))
		}
	}
}
