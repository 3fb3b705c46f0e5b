package quickstart_test

import (
	"context"
	"encoding/json"
	"flag"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// hostileAnswer runs args through the generated flat tool get_todo and
// through the generated gateway's tool_exec, and returns both answers as
// the model reads them.
func hostileAnswers(tb testing.TB, args string, opts ...gateway.Option) (flat, exec string) {
	tb.Helper()
	ctx := context.Background()
	tc := runtime.NewToolContext(runtime.ContextParts{})
	store := &quickstart.Store{}
	for _, tl := range quickstart.Tools(store) {
		if tl.Name == "get_todo" {
			res, err := runtime.Dispatch(ctx, tl, tc, json.RawMessage(args))
			if err != nil {
				tb.Fatal(err)
			}
			flat = runtime.RenderResult(res)
		}
	}
	for _, tl := range quickstart.Gateway(store, opts...) {
		if tl.Name == gateway.ExecTool {
			call := `{"op":"todo.get","args":` + args + `}`
			res, err := runtime.Dispatch(ctx, tl, tc, json.RawMessage(call))
			if err != nil {
				tb.Fatal(err)
			}
			exec = runtime.RenderResult(res)
		}
	}
	return flat, exec
}

var lifted = gateway.WithLimits(gateway.Limits{ArgsBytes: 1 << 30, KeyBytes: 1 << 30})

// TestHostileGenerated holds issue 8's argument cases against generated
// code, flat and through the gateway with its size limits lifted: a huge
// unknown key and thousands of them get a small error, invalid Unicode and
// a repeated member are rejected with their pointer.
func TestHostileGenerated(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"todo_id":"td_1"`)
	for i := range 5000 {
		many.WriteString(`,"k` + strings.Repeat("x", i%50) + string(rune('a'+i%26)) + `":1`)
	}
	many.WriteString("}")
	cases := []struct{ name, args, want string }{
		{"huge_key", `{"todo_id":"td_1","` + strings.Repeat("k", 4<<20) + `":1}`, "unknown property"},
		{"many_keys", many.String(), "more"},
		{"invalid_utf8", "{\"todo_id\":\"td\xff1\"}", "not valid Unicode"},
		{"lone_surrogate", `{"todo_id":"\ud800"}`, "not valid Unicode"},
		// a log or an approval prompt may show the first, a decoder keeps the last
		{"repeated", `{"todo_id":"td_1","todo_id":"td_2"}`, "sent twice; send each property once"},
		{"repeated_escaped", `{"todo_id":"td_1","todo\u005fid":"td_2"}`, "sent twice"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			flat, exec := hostileAnswers(t, c.args, lifted)
			for what, text := range map[string]string{"flat": flat, "tool_exec": exec} {
				if len(text) > 32<<10 {
					t.Errorf("%s answer is %d bytes", what, len(text))
				}
				if !strings.Contains(text, c.want) {
					t.Errorf("%s answer lacks %q: %.400s", what, c.want, text)
				}
			}
		})
	}
}

var hostileHuge = flag.Bool("hostile.huge", false, "BenchmarkHostileGenerated: a 50 MB key instead of 5 MB")

// BenchmarkHostileGenerated measures a 5 MB (50 MB with -hostile.huge)
// unknown argument name through generated code, flat and through the
// gateway with its limits lifted (the default ArgsBytes refuses it before
// decoding). Run with -benchtime=1x.
func BenchmarkHostileGenerated(b *testing.B) {
	size := 5 << 20
	if *hostileHuge {
		size = 50 << 20
	}
	args := `{"todo_id":"td_1","` + strings.Repeat("k", size) + `":1}`
	b.ResetTimer()
	var n int
	for i := 0; i < b.N; i++ {
		flat, exec := hostileAnswers(b, args, lifted)
		n = len(flat) + len(exec)
	}
	b.ReportMetric(float64(n), "answer-bytes")
}

// TestDryRunChangesNothing: with writes disabled the gateway lets a dry
// run of a write op through, trusting its handler: the Store's handlers
// answer what the call would do and leave the items as they were.
func TestDryRunChangesNothing(t *testing.T) {
	ctx := context.Background()
	tc := runtime.NewToolContext(runtime.ContextParts{})
	store := &quickstart.Store{}
	call := func(tools []runtime.Tool, name, args string) string {
		t.Helper()
		for _, tl := range tools {
			if tl.Name == name {
				res, err := runtime.Dispatch(ctx, tl, tc, json.RawMessage(args))
				if err != nil {
					t.Fatal(err)
				}
				return runtime.RenderResult(res)
			}
		}
		t.Fatalf("no tool %s", name)
		return ""
	}
	call(quickstart.Tools(store), "create_todo", `{"title":"keep"}`)
	readOnly := quickstart.Gateway(store, gateway.WithWrites(false))
	if got := call(readOnly, gateway.ExecTool, `{"op":"todo.create","args":{"title":"pwned"}}`); !strings.Contains(got, "PERMISSION_DENIED") {
		t.Errorf("a write with writes disabled: %s", got)
	}
	for _, c := range []string{
		`{"op":"todo.create","args":{"title":"pwned"},"dry_run":true}`,
		`{"op":"todo.update","args":{"todo_id":"td_1","title":"changed"},"dry_run":true}`,
		`{"op":"todo.delete","args":{"todo_id":"td_1"},"dry_run":true}`,
	} {
		if got := call(readOnly, gateway.ExecTool, c); !strings.Contains(got, "dry run") {
			t.Errorf("%s: %s", c, got)
		}
	}
	if got := call(quickstart.Tools(store), "list_todos", `{"state":"all"}`); !strings.Contains(got, `"title":"keep"`) || strings.Contains(got, "pwned") || strings.Contains(got, "changed") {
		t.Errorf("after dry runs: %s", got)
	}
}
