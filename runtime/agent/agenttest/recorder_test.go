package agenttest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
)

// echoParams is the params struct of the echo tool, shaped like a generated
// one.
type echoParams struct {
	Text  string `json:"text"`
	Times int    `json:"times"`
}

// echoTool is a tool as toolgen generates it: decode, then call the handler
// and record the params with WithParams.
func echoTool() runtime.Tool {
	decode := func(args json.RawMessage) (*echoParams, error) {
		p := &echoParams{Times: 1}
		if err := json.Unmarshal(args, p); err != nil {
			return nil, &runtime.ValidationError{Tool: "echo", Fields: []runtime.FieldError{{Path: "", Code: "type", Message: err.Error()}}}
		}
		if p.Text == "" {
			return nil, &runtime.ValidationError{Tool: "echo", Fields: []runtime.FieldError{{Path: "/text", Code: "required", Message: "text is required"}}}
		}
		return p, nil
	}
	return runtime.Tool{
		Name:        "echo",
		Description: "Echo text.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"times":{"type":"integer"}},"required":["text"]}`),
		Decode:      func(args json.RawMessage) (any, error) { return decode(args) },
		Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			p, err := decode(args)
			if err != nil {
				return runtime.Result{}, err
			}
			return runtime.OK(strings.Repeat(p.Text, p.Times), "echoed").WithParams(p), nil
		},
	}
}

var echoRegistry = gateway.Registry{
	Groups: []gateway.Group{{Name: "t", Summary: "Test tools."}},
	Ops: []gateway.Op{{Path: "t.echo", Tool: "echo", Description: "Echo text.", Group: "t", Kind: runtime.OpRead,
		Parameters: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"},"times":{"type":"integer"}},"required":["text"]}`)}},
}

func TestRecorder(t *testing.T) {
	gw, err := gateway.Tools(echoRegistry, []runtime.Tool{echoTool()})
	if err != nil {
		t.Fatal(err)
	}
	facade := matryoshka.Facade("t", "Test tools.", []runtime.Tool{echoTool()})
	tools := append(gw, facade)
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("echo", `{"text":"a"}`)),
		// Decoding fails: the handler never runs, nothing is recorded.
		agenttest.Calls(agenttest.Call("echo", `{}`)),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"t.echo","args":{"text":"b","times":2}}`)),
		agenttest.Calls(agenttest.Call(gateway.BatchTool, `{"items":[{"tool":"exec","op":"t.echo","args":{"text":"c"}}]}`)),
		agenttest.Calls(agenttest.Call(gateway.HelpTool, `{"path":"t.echo"}`)),
		// A shortcut through the facade, then an unfold.
		agenttest.Calls(agenttest.Call("t", `{"tool":"echo","args":{"text":"d"}}`)),
		agenttest.Calls(agenttest.Call("t", `{}`)),
		agenttest.Say("done"),
	)
	m.AllowUnoffered = true // echo is offered only after the unfold
	rec := agenttest.NewRecorder()
	out := agenttest.Run(t, m, "echo", agent.WithTools(append(tools, echoTool())...), rec.Option())

	rec.Expect(t,
		agenttest.Handled("echo", &echoParams{Text: "a", Times: 1}),
		agenttest.Handled("echo", &echoParams{Text: "b", Times: 2}),
		agenttest.Handled("echo", &echoParams{Text: "c", Times: 1}),
		agenttest.Handled("echo", &echoParams{Text: "d", Times: 1}),
	)
	msgs := agenttest.ExpectToolMessages(t, out, 7)
	agenttest.Contains(t, msgs[0], "echo", "a")
	agenttest.Contains(t, msgs[2], gateway.ExecTool, `"result":"bb"`)
	agenttest.Contains(t, msgs[5], "t", "d")

	rec.Stop()
	agenttest.Run(t, agenttest.New(agenttest.Calls(agenttest.Call("echo", `{"text":"e"}`)), agenttest.Say("done")),
		"echo", agent.WithTools(echoTool()), rec.Option())
	if n := len(rec.Calls()); n != 4 {
		t.Errorf("a stopped recorder recorded: %d calls", n)
	}
}

func TestRecordAgentBus(t *testing.T) {
	a := agent.New(agenttest.New(agenttest.Calls(agenttest.Call("echo", `{"text":"x","times":3}`)), agenttest.Say("ok")),
		agent.WithTools(echoTool()))
	rec := agenttest.Record(a.Bus())
	if _, err := a.Run(t.Context(), agent.User("echo")); err != nil {
		t.Fatal(err)
	}
	rec.Expect(t, agenttest.Handled("echo", &echoParams{Text: "x", Times: 3}))
}

// fakeTB records failures instead of failing the test.
type fakeTB struct {
	testing.TB
	errs []string
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Errorf(format string, args ...any) {
	f.errs = append(f.errs, fmt.Sprintf(format, args...))
}

func TestRecorderExpectDiff(t *testing.T) {
	rec := agenttest.NewRecorder()
	for _, p := range []*echoParams{{Text: "a", Times: 1}, {Text: "b", Times: 2}} {
		rec.Bus().Publish(runtime.ToolInvoked{Tool: "echo", Params: p})
	}
	rec.Bus().Publish(runtime.ToolInvoked{Tool: "tool_help"}) // no params: not a handler call
	f := &fakeTB{}
	rec.Expect(f,
		agenttest.Handled("echo", &echoParams{Text: "a", Times: 1}),
		agenttest.Handled("echo", &echoParams{Text: "b", Times: 3}),
		agenttest.Handled("echo", echoParams{Text: "c"}),
	)
	want := `handler calls differ (- want, + got):
  0 echo{"text":"a","times":1}
- 1 echo{"text":"b","times":3}
+ 1 echo{"text":"b","times":2}
- 2 echo{"text":"c","times":0}
`
	if len(f.errs) != 1 || f.errs[0] != want {
		t.Errorf("Expect reported %q\nwant %q", f.errs, want)
	}

	// Calls that render alike show their Go types.
	got := agenttest.DiffCalls([]agenttest.HandlerCall{agenttest.Handled("echo", echoParams{Text: "a"})},
		[]agenttest.HandlerCall{agenttest.Handled("echo", &echoParams{Text: "a"})})
	if want := "- 0 echo agenttest_test.echoParams {Text:a Times:0}\n+ 0 echo *agenttest_test.echoParams {Text:a Times:0}\n"; got != want {
		t.Errorf("DiffCalls = %q\nwant %q", got, want)
	}

	f = &fakeTB{}
	rec.Expect(f, agenttest.Handled("echo", &echoParams{Text: "a", Times: 1}), agenttest.Handled("echo", &echoParams{Text: "b", Times: 2}))
	if len(f.errs) != 0 {
		t.Errorf("matching calls reported: %q", f.errs)
	}
}

func TestContains(t *testing.T) {
	msg := agent.Message{Role: agent.RoleTool, ToolName: "echo", Content: "hello world"}
	f := &fakeTB{}
	agenttest.Contains(f, msg, "echo", "hello", "world")
	if len(f.errs) != 0 {
		t.Errorf("Contains reported %q", f.errs)
	}
	agenttest.Contains(f, msg, "other", "bye")
	if want := []string{"tool message for echo, want other: hello world", "other answer lacks \"bye\":\nhello world"}; strings.Join(f.errs, "|") != strings.Join(want, "|") {
		t.Errorf("Contains reported %q\nwant %q", f.errs, want)
	}
}
