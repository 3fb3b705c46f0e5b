package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/golden/github/githubtest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// handlers records every handler call as "name args".
type handlers struct {
	mu    sync.Mutex
	calls []string
}

func (h *handlers) tool(name string) runtime.Tool {
	return runtime.Tool{
		Name:        name,
		Description: "Runs " + name + ".",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`),
		Handler: func(_ context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			h.mu.Lock()
			h.calls = append(h.calls, name+" "+string(args))
			h.mu.Unlock()
			return runtime.Result{Success: true, Message: name + " ok", Value: map[string]string{"call": tc.Call().ID}}, nil
		},
	}
}

func (h *handlers) tools(names ...string) []runtime.Tool {
	out := make([]runtime.Tool, len(names))
	for i, n := range names {
		out[i] = h.tool(n)
	}
	return out
}

func (h *handlers) got() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls...)
}

// roles summarises a transcript as "role[:tool]" entries.
func roles(msgs []agent.Message) []string {
	out := make([]string, len(msgs))
	for i, m := range msgs {
		out[i] = string(m.Role)
		switch {
		case m.Role == agent.RoleTool:
			out[i] += ":" + m.ToolName
		case len(m.ToolCalls) > 0:
			names := make([]string, len(m.ToolCalls))
			for j, c := range m.ToolCalls {
				names[j] = c.Name
			}
			out[i] += ":" + strings.Join(names, ",")
		}
	}
	return out
}

func events(a *agent.Agent) *[]runtime.ToolInvoked {
	var evs []runtime.ToolInvoked
	a.Bus().Subscribe(func(e runtime.Event) { evs = append(evs, e.(runtime.ToolInvoked)) })
	return &evs
}

func TestPlainTools(t *testing.T) {
	var h handlers
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("get_weather", `{"id":"paris"}`)).Expect("get_weather", "get_time"),
		agenttest.Say("It is sunny.").Expect("get_weather", "get_time"),
	)
	a := agent.New(m, agent.WithTools(h.tools("get_weather", "get_time")...))
	evs := events(a)
	out, err := a.Run(t.Context(), agent.User("weather in paris?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "It is sunny." || out.Turns != 2 || m.Remaining() != 0 {
		t.Errorf("outcome = %q after %d turns, %d turns left", out.Text, out.Turns, m.Remaining())
	}
	if diff := cmp.Diff([]string{`get_weather {"id":"paris"}`}, h.got()); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
	want := []agent.Message{
		agent.User("weather in paris?"),
		{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "t1_c1", Name: "get_weather", Args: json.RawMessage(`{"id":"paris"}`)}}},
		{Role: agent.RoleTool, Content: "get_weather ok\n\n{\"call\":\"t1_c1\"}", ToolCallID: "t1_c1", ToolName: "get_weather"},
		{Role: agent.RoleAssistant, Content: "It is sunny."},
	}
	if diff := cmp.Diff(want, out.Messages); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	if len(*evs) != 1 || (*evs)[0].Tool != "get_weather" || (*evs)[0].CallID != "t1_c1" {
		t.Errorf("events = %+v", *evs)
	}
}

// A failed call's tool message is marked (IsError), for providers that
// say so on the wire; a successful one is not.
func TestFailedCallMarked(t *testing.T) {
	var h handlers
	broken := runtime.Tool{Name: "get_weather", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{}, runtime.NotFound("no city 9")
	}}
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("get_time", `{}`), agenttest.Call("get_weather", `{}`)).Expect("get_time", "get_weather"),
		agenttest.Say("done").Expect("get_time", "get_weather"),
	)
	out, err := agent.New(m, agent.WithTools(h.tool("get_time"), broken)).Run(t.Context(), agent.User("time?"))
	if err != nil {
		t.Fatal(err)
	}
	var marks []bool
	for _, msg := range out.Messages {
		if msg.Role == agent.RoleTool {
			marks = append(marks, msg.IsError)
		}
	}
	if diff := cmp.Diff([]bool{false, true}, marks); diff != "" {
		t.Errorf("IsError of the tool messages (-want +got):\n%s", diff)
	}
}

// A failed result without a message or value still says it failed (an
// empty error message read as if nothing happened).
func TestEmptyFailureSaysFailed(t *testing.T) {
	quiet := runtime.Tool{Name: "get_weather", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Success: false}, nil
	}}
	m := agenttest.New(agenttest.Calls(agenttest.Call("get_weather", `{}`)), agenttest.Say("done"))
	out, err := agent.New(m, agent.WithTools(quiet)).Run(t.Context(), agent.User("weather?"))
	if err != nil {
		t.Fatal(err)
	}
	for _, msg := range out.Messages {
		if msg.Role == agent.RoleTool && (msg.Content != "get_weather failed" || !msg.IsError) {
			t.Errorf("tool message %q, IsError %v", msg.Content, msg.IsError)
		}
	}
}

// A facade unfolds across turns: the model sees the facade, then its inner
// tools in its place, and calls one.
func TestFacadeUnfoldingAcrossTurns(t *testing.T) {
	var h handlers
	onto := matryoshka.Facade("onto", "Projects and tasks. Invoke to reveal the operations.",
		h.tools("list_onto_tasks", "create_onto_task", "list_onto_projects"),
		matryoshka.Category("task", "list_onto_tasks", "create_onto_task"),
		matryoshka.Category("project", "list_onto_projects"))
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("onto", `{"category":"task"}`)).Expect("onto", "ping"),
		agenttest.Calls(agenttest.Call("list_onto_tasks", `{"id":"p1"}`)).Expect("list_onto_tasks", "create_onto_task", "ping"),
		agenttest.Say("3 tasks").Expect("list_onto_tasks", "create_onto_task", "ping"),
	)
	out, err := agent.New(m, agent.WithTools(onto, h.tool("ping"))).Run(t.Context(), agent.User("list my tasks"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{`list_onto_tasks {"id":"p1"}`}, h.got()); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
	facadeAnswer := out.Messages[2].Content
	if !strings.HasPrefix(facadeAnswer, "onto unfolded into 2 \"task\" tools:\n- list_onto_tasks(id?: string) — Runs list_onto_tasks.\n") {
		t.Errorf("facade answer:\n%s", facadeAnswer)
	}
	if diff := cmp.Diff([]string{"list_onto_tasks", "create_onto_task", "ping"}, out.Tools); diff != "" {
		t.Errorf("final toolbox (-want +got):\n%s", diff)
	}
}

// With a refolding strategy the loop re-offers a folded facade.
func TestRefoldAcrossTurns(t *testing.T) {
	var h handlers
	a := matryoshka.Facade("alpha", "Alpha group.", h.tools("a1", "a2"))
	b := matryoshka.Facade("beta", "Beta group.", h.tools("b1"))
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("alpha", "")),
		agenttest.Calls(agenttest.Call("a1", "")),
		agenttest.Calls(agenttest.Call("beta", "")),
		agenttest.Calls(agenttest.Call("b1", "")),
		agenttest.Say("done"),
	)
	_, err := agent.New(m, agent.WithTools(a, b), agent.WithStrategy(matryoshka.Unfold{Refold: true})).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"alpha", "beta"}, {"a1", "a2", "beta"}, {"a1", "a2", "beta"}, {"alpha", "b1"}, {"alpha", "b1"}}
	if diff := cmp.Diff(want, m.Offered()); diff != "" {
		t.Errorf("offered per turn (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"a1 {}", "b1 {}"}, h.got()); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
}

type docParams struct {
	Project string `json:"project"`
}

func docsPrompt(t *testing.T, h *handlers) *prompt.Prompt {
	t.Helper()
	p, err := prompt.New("agents/test", "task", "task",
		prompt.Section{Key: "task", Title: "Task", Template: "Answer questions about ${project}.", Params: reflect.TypeFor[docParams]()},
		prompt.Section{Key: "context", Title: "Project Context", Template: "Full documentation of the API.",
			Summary: "Documentation is available.", Visibility: prompt.VisibilitySummary,
			Tools: []runtime.Tool{h.tool("lookup_doc")}},
		prompt.Section{Key: "history", Title: "History", Template: "Decisions made in 2019.",
			Summary: "History is available.", Visibility: prompt.VisibilitySummary},
	)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenSectionsRetry(t *testing.T) {
	var h handlers
	p := docsPrompt(t, &h)
	m := agenttest.New(
		agenttest.Calls(
			agenttest.Call("ping", ""),
			agenttest.Call("open_sections", `{"section_keys":["context"],"reason":"need the API"}`),
			agenttest.Call("ping", `{"id":"never"}`),
		).Expect("open_sections", "ping"),
		agenttest.Calls(agenttest.Call("lookup_doc", `{"id":"auth"}`)).Expect("lookup_doc", "open_sections", "ping"),
		agenttest.Say("Use tokens.").Expect("lookup_doc", "open_sections", "ping"),
	)
	a := agent.New(m, agent.WithPrompt(p, docParams{Project: "toolgen"}), agent.WithTools(h.tool("ping")))
	evs := events(a)
	out, err := a.Run(t.Context(), agent.User("how do I log in?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 || out.Turns != 3 {
		t.Errorf("retries = %d, turns = %d; want 1, 3", out.Retries, out.Turns)
	}
	if diff := cmp.Diff(prompt.Overrides{"context": prompt.VisibilityFull}, out.Requested); diff != "" {
		t.Errorf("requested overrides (-want +got):\n%s", diff)
	}
	// The halted turn left no messages; the ping before open_sections ran,
	// the one after it did not.
	if diff := cmp.Diff([]string{"system", "user", "assistant:lookup_doc", "tool:lookup_doc", "assistant"}, roles(out.Messages)); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"ping {}", `lookup_doc {"id":"auth"}`}, h.got()); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
	reqs := m.Requests()
	first, retried := reqs[0].Messages[0].Content, reqs[1].Messages[0].Content
	if !strings.Contains(first, "Documentation is available.") || !strings.Contains(first, `call `+"`open_sections`"+` with key "context"`) {
		t.Errorf("first system message:\n%s", first)
	}
	if !strings.Contains(retried, "Full documentation of the API.") || !strings.Contains(retried, "Answer questions about toolgen.") {
		t.Errorf("retried system message:\n%s", retried)
	}
	if len(reqs[1].Messages) != 2 {
		t.Errorf("retried turn got %d messages, want system and user", len(reqs[1].Messages))
	}
	var opened *runtime.ToolInvoked
	for i := range *evs {
		if (*evs)[i].Tool == "open_sections" {
			opened = &(*evs)[i]
		}
	}
	if opened == nil || opened.Metadata["reason"] != "need the API" {
		t.Errorf("open_sections event = %+v", opened)
	}
}

// Caller overrides win over the declared visibility: nothing to open.
func TestCallerOverrides(t *testing.T) {
	var h handlers
	m := agenttest.New(agenttest.Say("ok").Expect("lookup_doc"))
	out, err := agent.New(m,
		agent.WithPrompt(docsPrompt(t, &h), docParams{Project: "x"}),
		agent.WithOverrides(prompt.Overrides{"context": prompt.VisibilityFull, "history": prompt.VisibilityFull}),
	).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.Messages[0].Content, "Decisions made in 2019.") {
		t.Errorf("system message:\n%s", out.Messages[0].Content)
	}
}

func TestExpansionLimits(t *testing.T) {
	open := func(key string) agenttest.Turn {
		return agenttest.Calls(agenttest.Call("open_sections", fmt.Sprintf(`{"section_keys":[%q],"reason":"r"}`, key)))
	}
	tests := []struct {
		name    string
		opts    []agent.Option
		turns   []agenttest.Turn
		is      error
		message string
	}{
		{"no retries allowed", []agent.Option{agent.MaxRetries(0)}, []agenttest.Turn{open("context")}, agent.ErrRetryLimit,
			"agent: open_sections requested retry 1, limit is 0: expansion retry limit reached: Visibility expansion required for sections: context. Reason: r"},
		{"retry limit", []agent.Option{agent.MaxRetries(1)}, []agenttest.Turn{open("context"), open("history")}, agent.ErrRetryLimit,
			"agent: open_sections requested retry 2, limit is 1: expansion retry limit reached: Visibility expansion required for sections: history. Reason: r"},
		{"budget", []agent.Option{agent.ExpansionBudget(1)}, []agenttest.Turn{open("context"), open("history")}, agent.ErrExpansionBudget,
			"agent: 2 sections requested, budget is 1: expansion budget exceeded: Visibility expansion required for sections: history. Reason: r"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h handlers
			m := agenttest.New(tt.turns...)
			opts := append([]agent.Option{agent.WithPrompt(docsPrompt(t, &h), docParams{})}, tt.opts...)
			_, err := agent.New(m, opts...).Run(t.Context())
			if !errors.Is(err, tt.is) {
				t.Fatalf("err = %v, want %v", err, tt.is)
			}
			var exp *prompt.VisibilityExpansionRequired
			if !errors.As(err, &exp) {
				t.Errorf("err does not carry the expansion request")
			}
			if err.Error() != tt.message {
				t.Errorf("message = %q\nwant      %q", err, tt.message)
			}
		})
	}
}

// Several calls in one turn run in call order against the tools offered at
// the start of the turn; results follow in call order.
func TestSeveralCallsInOneTurn(t *testing.T) {
	var h handlers
	f := matryoshka.Facade("grp", "A group.", h.tools("inner"))
	m := agenttest.New(
		agenttest.Calls(
			agenttest.Call("b", `{"id":"1"}`),
			agenttest.Call("grp", ""),
			agenttest.Call("inner", ""),
			agenttest.Call("a", `{"id":"2"}`),
		),
		agenttest.Say("done").Expect("a", "b", "inner"),
	)
	m.AllowUnoffered = true
	out, err := agent.New(m, agent.WithTools(append(h.tools("a", "b"), f)...)).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"assistant:b,grp,inner,a", "tool:b", "tool:grp", "tool:inner", "tool:a", "assistant"}, roles(out.Messages)); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{`b {"id":"1"}`, `a {"id":"2"}`}, h.got()); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
	if got := out.Messages[3].Content; got != `tool "inner" is not offered; offered tools: a, b, grp` {
		t.Errorf("message for a call of a tool unfolded in the same turn: %q", got)
	}
}

func TestHandlerPanicContinues(t *testing.T) {
	var h handlers
	boom := runtime.Tool{Name: "boom", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		panic("disk on fire")
	}}
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("boom", ""), agenttest.Call("ok", "")),
		agenttest.Say("recovered"),
	)
	out, err := agent.New(m, agent.WithTools(boom, h.tool("ok"))).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Messages[1].Content; got != "tool boom failed unexpectedly: disk on fire" {
		t.Errorf("panic message = %q", got)
	}
	if out.Text != "recovered" || len(h.got()) != 1 {
		t.Errorf("text = %q, calls = %v", out.Text, h.got())
	}
	if got := m.Requests()[1].Messages[1].Content; got != "tool boom failed unexpectedly: disk on fire" {
		t.Errorf("the model did not see the failure: %q", got)
	}
}

type session struct{}

func (session) ID() string { return "s1" }

type adapter struct{}

func (adapter) Name() string { return "scripted" }

func TestToolContext(t *testing.T) {
	var seen runtime.ToolContext
	spy := runtime.Tool{Name: "spy", Handler: func(_ context.Context, tc runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
		seen = tc
		return runtime.Result{Success: true}, nil
	}}
	var h handlers
	p := docsPrompt(t, &h)
	bus := &runtime.EventBus{}
	m := agenttest.New(agenttest.Calls(runtime.ToolCall{ID: "given", Name: "spy", Args: json.RawMessage(`{}`)}), agenttest.Say("ok"))
	a := agent.New(m, agent.WithPrompt(p, docParams{Project: "z"}), agent.WithTools(spy),
		agent.WithSession(session{}), agent.WithAdapter(adapter{}), agent.WithBus(bus))
	if _, err := a.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	if seen.Prompt().Key() != "task" || !strings.Contains(seen.RenderedPrompt().Text(), "about z") ||
		seen.Session().ID() != "s1" || seen.Adapter().Name() != "scripted" || seen.Bus() != bus || a.Bus() != bus ||
		seen.Call().ID != "given" {
		t.Errorf("tool context = %+v", seen)
	}
}

func TestRunErrors(t *testing.T) {
	var h handlers
	loop := agenttest.Calls(agenttest.Call("a", ""))
	tests := []struct {
		name  string
		model agent.Model
		opts  []agent.Option
		is    error
		msg   string
	}{
		{"turn limit", agenttest.New(loop, loop, loop), []agent.Option{agent.MaxTurns(2), agent.WithTools(h.tool("a"))}, agent.ErrMaxTurns,
			"agent: no final answer after 2 turns: turn limit reached"},
		{"model error", agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
			return agent.Response{}, errors.New("rate limited")
		}), nil, nil, "agent: model: rate limited"},
		{"no model", nil, nil, nil, "agent: no model"},
		{"script exhausted", agenttest.New(), nil, nil, "agent: model: agenttest: turn 1: script has only 0 turns"},
		{"tool offered twice", agenttest.New(), []agent.Option{agent.WithPrompt(docsPrompt(t, &h), docParams{}),
			agent.WithOverrides(prompt.Overrides{"context": prompt.VisibilityFull}), agent.WithTools(h.tool("lookup_doc"))}, nil,
			`agent: tool "lookup_doc" is offered by both the prompt and the toolbox`},
		{"duplicate toolbox tools", agenttest.New(), []agent.Option{agent.WithTools(h.tool("a"), h.tool("a"))}, nil,
			`agent: toolbox: tool "a" is given twice`},
		{"render error", agenttest.New(), []agent.Option{agent.WithPrompt(docsPrompt(t, &h), docParams{}),
			agent.WithOverrides(prompt.Overrides{"nope": prompt.VisibilityFull})}, nil,
			`agent: render: prompt agents/test/task: override for unknown section "nope"`},
		{"propagator other than open_sections", agenttest.New(agenttest.Calls(agenttest.Call("halt", ""))), []agent.Option{agent.WithTools(runtime.Tool{Name: "halt",
			Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{}, halt{}
			}})}, halt{},
			"agent: tool halt: halted"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := agent.New(tt.model, tt.opts...).Run(t.Context())
			if err == nil || err.Error() != tt.msg {
				t.Fatalf("err = %v\nwant %s", err, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("errors.Is(%v) = false", tt.is)
			}
		})
	}

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := agent.New(agenttest.New()).Run(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: err = %v", err)
	}
}

// A context cancelled while a call runs stops the turn there: the calls
// after it do not run, even for handlers that ignore their context.
func TestCancelledTurn(t *testing.T) {
	tests := []struct {
		name   string
		cancel string // the tool whose handler cancels the run's context
		calls  []runtime.ToolCall
		ran    []string
		err    string
	}{
		{"the first call cancels", "a", []runtime.ToolCall{agenttest.Call("a", ""), agenttest.Call("b", ""), agenttest.Call("a", "")},
			[]string{"a"}, "agent: turn 1: call 2 (b) and those after it were not run: context canceled"},
		{"the last call cancels", "b", []runtime.ToolCall{agenttest.Call("a", ""), agenttest.Call("b", "")},
			[]string{"a", "b"}, "agent: context canceled"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(t.Context())
			defer cancel()
			var ran []string
			tool := func(name string) runtime.Tool {
				return runtime.Tool{Name: name, Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
					ran = append(ran, name)
					if name == tt.cancel {
						cancel()
					}
					return runtime.Result{Success: true}, nil
				}}
			}
			m := agenttest.New(agenttest.Calls(tt.calls...), agenttest.Say("done"))
			_, err := agent.New(m, agent.WithTools(tool("a"), tool("b"))).Run(ctx, agent.User("go"))
			if !errors.Is(err, context.Canceled) || err.Error() != tt.err {
				t.Errorf("err = %v\nwant %s", err, tt.err)
			}
			if diff := cmp.Diff(tt.ran, ran); diff != "" {
				t.Errorf("calls run (-want +got):\n%s", diff)
			}
		})
	}
}

type halt struct{}

func (halt) Error() string             { return "halted" }
func (halt) PropagateThroughDispatch() {}

func BenchmarkRunFacadeStory(b *testing.B) {
	var h handlers
	onto := matryoshka.Facade("onto", "Projects and tasks.", h.tools("list_onto_tasks", "create_onto_task", "list_onto_projects"))
	b.ReportAllocs()
	for b.Loop() {
		h.calls = h.calls[:0]
		m := agenttest.New(
			agenttest.Calls(agenttest.Call("onto", "")),
			agenttest.Calls(agenttest.Call("list_onto_tasks", `{"id":"p1"}`), agenttest.Call("create_onto_task", `{"id":"p1"}`)),
			agenttest.Say("done"),
		)
		if _, err := agent.New(m, agent.WithTools(onto)).Run(b.Context()); err != nil {
			b.Fatal(err)
		}
	}
}

// A rejected open_sections call is an ordinary failed result: the model
// reads the error and corrects itself without a retry being spent.
func TestOpenSectionsInvalidKey(t *testing.T) {
	var h handlers
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("open_sections", `{"section_keys":["contxt"],"reason":"docs"}`)),
		agenttest.Calls(agenttest.Call("open_sections", `{"section_keys":["context"],"reason":"docs"}`)),
		agenttest.Say("ok").Expect("lookup_doc", "open_sections"),
	)
	out, err := agent.New(m, agent.WithPrompt(docsPrompt(t, &h), docParams{}), agent.MaxRetries(1)).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 {
		t.Errorf("retries = %d, want 1", out.Retries)
	}
	if diff := cmp.Diff([]string{"system", "assistant:open_sections", "tool:open_sections", "assistant"}, roles(out.Messages)); diff != "" {
		t.Errorf("transcript (-want +got):\n%s", diff)
	}
	if got := out.Messages[2].Content; !strings.Contains(got, `no summarized section has key "contxt"`) {
		t.Errorf("rejection message = %q", got)
	}
}

// One Agent runs several conversations at once; each has its own toolbox.
func TestConcurrentRuns(t *testing.T) {
	var h handlers
	onto := matryoshka.Facade("onto", "Projects and tasks.", h.tools("list_onto_tasks", "create_onto_task"))
	// The model decides from the conversation alone, so one value serves
	// every run.
	model := agent.ModelFunc(func(_ context.Context, req agent.Request) (agent.Response, error) {
		last := req.Messages[len(req.Messages)-1]
		switch {
		case last.Role == agent.RoleUser:
			return agent.Response{ToolCalls: []runtime.ToolCall{agenttest.Call("onto", "")}}, nil
		case last.ToolName == "onto":
			if len(req.Tools) != 2 || req.Tools[0].Name != "list_onto_tasks" {
				return agent.Response{}, fmt.Errorf("offered %d tools after unfolding", len(req.Tools))
			}
			args := fmt.Sprintf(`{"id":%q}`, req.Messages[0].Content)
			return agent.Response{ToolCalls: []runtime.ToolCall{agenttest.Call("list_onto_tasks", args)}}, nil
		}
		return agent.Response{Text: "done"}, nil
	})
	a := agent.New(model, agent.WithTools(onto))
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Go(func() {
			_, errs[i] = a.Run(t.Context(), agent.User(fmt.Sprint(i)))
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("run %d: %v", i, err)
		}
	}
	got := h.got()
	slices.Sort(got)
	want := []string{`list_onto_tasks {"id":"0"}`, `list_onto_tasks {"id":"1"}`, `list_onto_tasks {"id":"2"}`, `list_onto_tasks {"id":"3"}`}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("handler calls (-want +got):\n%s", diff)
	}
}

// A facade unfolded earlier in a turn that open_sections halts is folded
// again for the retried turn, which starts from the same toolbox.
func TestRetryRestoresToolbox(t *testing.T) {
	var h handlers
	grp := matryoshka.Facade("grp", "A group.", h.tools("inner"))
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("grp", ""), agenttest.Call("open_sections", `{"section_keys":["history"],"reason":"r"}`)).
			Expect("open_sections", "grp"),
		agenttest.Calls(agenttest.Call("grp", "")).Expect("open_sections", "grp"),
		agenttest.Say("ok").Expect("open_sections", "inner"),
	)
	out, err := agent.New(m, agent.WithPrompt(docsPrompt(t, &h), docParams{}), agent.WithTools(grp)).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 || !strings.Contains(out.Messages[0].Content, "Decisions made in 2019.") {
		t.Errorf("retries = %d, system:\n%s", out.Retries, out.Messages[0].Content)
	}
}

// TestIgnoredArgumentsNote: search_code's schema does not say
// additionalProperties, so its generated decoder accepts "per_pag" and
// drops it; the tool message the model reads ends with a note naming it
// and the nearest argument. A call without one reads as before.
func TestIgnoredArgumentsNote(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("search_code", `{"q":"x","per_pag":5}`), agenttest.Call("search_code", `{"q":"x","perPage":5}`)),
		agenttest.Say("done"),
	)
	out, err := agent.New(m, agent.WithTools(github.Tools(githubtest.Echo{})...)).Run(t.Context(), agent.User("find x"))
	if err != nil {
		t.Fatal(err)
	}
	msgs := agenttest.ExpectToolMessages(t, out, 2)
	want := `{"q":"x","order":"desc","page":1,"perPage":30}` + "\n\n" +
		`note: "per_pag" is not an argument of search_code and was ignored (did you mean "perPage"?)`
	if msgs[0].Content != want {
		t.Errorf("tool message\n%s\nwant\n%s", msgs[0].Content, want)
	}
	if msgs[1].Content != `{"q":"x","order":"desc","page":1,"perPage":5}` {
		t.Errorf("tool message without an ignored argument: %s", msgs[1].Content)
	}
}

// A final answer the model did not finish ends the run with ErrIncomplete
// and the reason; the partial text stays in the outcome and the
// conversation.
func TestIncompleteFinalAnswer(t *testing.T) {
	for _, stop := range []agent.Stop{agent.StopLength, agent.StopContextWindow, agent.StopRefusal, agent.StopFiltered, agent.StopPaused, "steered"} {
		t.Run(string(stop), func(t *testing.T) {
			m := agenttest.New(agenttest.Say("The answer is").Stopped(stop))
			out, err := agent.New(m).Run(t.Context(), agent.User("what is it?"))
			if !errors.Is(err, agent.ErrIncomplete) {
				t.Fatalf("err = %v, want ErrIncomplete", err)
			}
			if want := "agent: turn 1 stopped early (" + string(stop) + "): model turn incomplete"; err.Error() != want {
				t.Errorf("err = %q\nwant %q", err, want)
			}
			if out.Text != "The answer is" || out.Stop != stop {
				t.Errorf("outcome text %q, stop %q", out.Text, out.Stop)
			}
			if diff := cmp.Diff([]string{"user", "assistant"}, roles(out.Messages)); diff != "" || out.Messages[1].Content != "The answer is" {
				t.Errorf("transcript (-want +got):\n%s%+v", diff, out.Messages)
			}
		})
	}
}

// The calls of a turn the model did not finish do not run (their arguments
// may be cut off), and the turn stays out of the conversation, which needs
// a result for every call.
func TestIncompleteTurnRunsNoCall(t *testing.T) {
	var h handlers
	a := agent.New(agenttest.New(agenttest.Turn{Text: "Creating", Calls: []runtime.ToolCall{
		agenttest.Call("a", `{"id":"1"}`), agenttest.Call("a", `{"id":"`)}}.Stopped(agent.StopLength)), agent.WithTools(h.tool("a")))
	evs := events(a)
	out, err := a.Run(t.Context(), agent.User("go"))
	if !errors.Is(err, agent.ErrIncomplete) || err.Error() != "agent: turn 1 stopped early (length); none of its calls was run: model turn incomplete" {
		t.Fatalf("err = %v", err)
	}
	if len(h.got()) != 0 || len(*evs) != 0 {
		t.Errorf("calls ran: %v, events %v", h.got(), *evs)
	}
	if out.Text != "Creating" || out.Stop != agent.StopLength || len(out.Messages) != 1 {
		t.Errorf("outcome %+v", out)
	}
}

// A turn a model reports complete, or without a reason, is a final answer.
func TestCompleteStop(t *testing.T) {
	for _, stop := range []agent.Stop{agent.StopComplete, ""} {
		out, err := agent.New(agenttest.New(agenttest.Say("done").Stopped(stop))).Run(t.Context())
		if err != nil || out.Text != "done" || out.Stop != agent.StopComplete {
			t.Errorf("stop %q: outcome %q %q, err %v", stop, out.Text, out.Stop, err)
		}
	}
}

// Two calls of one turn sharing an id are refused before either runs.
func TestRepeatedCallIDs(t *testing.T) {
	var h handlers
	m := agenttest.New(agenttest.Calls(
		agenttest.Call("b", ""),
		runtime.ToolCall{ID: "dup", Name: "a", Args: json.RawMessage(`{"id":"1"}`)},
		runtime.ToolCall{ID: "dup", Name: "a", Args: json.RawMessage(`{"id":"2"}`)},
	))
	a := agent.New(m, agent.WithTools(h.tools("a", "b")...))
	evs := events(a)
	out, err := a.Run(t.Context(), agent.User("go"))
	if !errors.Is(err, agent.ErrRepeatedCallID) {
		t.Fatalf("err = %v, want ErrRepeatedCallID", err)
	}
	if want := `agent: turn 1: calls 2 (a) and 3 (a) share the id "dup"; none of the turn's calls was run: repeated tool call id`; err.Error() != want {
		t.Errorf("err = %q\nwant %q", err, want)
	}
	if len(h.got()) != 0 || len(*evs) != 0 || len(out.Messages) != 1 {
		t.Errorf("calls %v, events %v, messages %+v", h.got(), *evs, out.Messages)
	}
}

// notOfferedAnswer runs one call of name against tools and returns the
// tool message the model reads.
func notOfferedAnswer(t *testing.T, name string, tools []runtime.Tool) string {
	t.Helper()
	m := agenttest.New(agenttest.Calls(agenttest.Call(name, "")), agenttest.Say("ok"))
	m.AllowUnoffered = true
	out, err := agent.New(m, agent.WithTools(tools...)).Run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	msg := out.Messages[1]
	if msg.Role != agent.RoleTool || !msg.IsError {
		t.Fatalf("tool message %+v", msg)
	}
	return msg.Content
}

// A wrong name against a large surface gets a few nearest names, or the
// advice to search when a search tool is offered, never the catalogue;
// the name echoed back is cut short.
func TestNotOfferedBounded(t *testing.T) {
	var h handlers
	var many []runtime.Tool
	for _, verb := range []string{"list", "get", "create", "update", "delete"} {
		for i := range 400 {
			many = append(many, runtime.Tool{Name: fmt.Sprintf("%s_thing%03d", verb, i), Handler: h.tool("x").Handler})
		}
	}
	search := runtime.Tool{Name: deferred.SearchToolName, Handler: h.tool(deferred.SearchToolName).Handler}
	// A family with a tool named tool_search: the surface's search tool is
	// tool_search_2 (the family's tool, generated, accepts overrides).
	family := h.tool(deferred.SearchToolName)
	family.AcceptsOverrides = true
	renamed := runtime.Tool{Name: "tool_search_2", Handler: h.tool("tool_search_2").Handler}
	huge := strings.Repeat("x", 1<<20)
	tests := []struct {
		name  string
		call  string
		tools []runtime.Tool
		want  string
	}{
		{"deferred surface with its search tool", "make_widget", append(many, search),
			`tool "make_widget" is not offered; call tool_search with what you want to do to find the tool for it`},
		{"a near name and a search tool", "create_thing07", append(many, search),
			`tool "create_thing07" is not offered; nearest offered: create_thing007, create_thing017, create_thing027; call tool_search with what you want to do to find the tool for it`},
		{"the family's tool_search and the renamed search tool", "make_widget", append(append([]runtime.Tool{family}, many...), renamed),
			`tool "make_widget" is not offered; call tool_search_2 with what you want to do to find the tool for it`},
		{"a family tool named tool_search is no search tool", "c", append(h.tools("a", "b"), family),
			`tool "c" is not offered; offered tools: a, b, tool_search`},
		{"many tools, no search tool", "crate_thing123", many,
			`tool "crate_thing123" is not offered; nearest offered: create_thing123, create_thing023, create_thing103; 2000 tools are offered`},
		{"many tools, nothing near", "zzz", many,
			`tool "zzz" is not offered; 2000 tools are offered`},
		{"a huge name", huge, many,
			fmt.Sprintf(`tool %q is not offered; 2000 tools are offered`, strings.Repeat("x", 63)+"…")},
		{"a huge name, few tools", huge, h.tools("a", "b"),
			fmt.Sprintf(`tool %q is not offered; offered tools: a, b`, strings.Repeat("x", 63)+"…")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := notOfferedAnswer(t, tt.call, tt.tools); got != tt.want {
				t.Errorf("answer (%d bytes) = %.300q\nwant %q", len(got), got, tt.want)
			}
		})
	}
}

// The stand-in for a tool that was not offered carries the model's name cut
// short, as the answer echoes it, in the ToolInvoked event and the tool
// message, so that a huge name is not stored whole; the call id, by which
// providers pair a result with its call, stays intact.
func TestNotOfferedNameBounded(t *testing.T) {
	var h handlers
	huge := strings.Repeat("x", 1<<20)
	id := "toolu_" + strings.Repeat("7", 100)
	m := agenttest.New(agenttest.Calls(
		runtime.ToolCall{ID: id, Name: huge, Args: json.RawMessage(`{}`)},
		runtime.ToolCall{ID: "short", Name: "nope", Args: json.RawMessage(`{}`)},
	), agenttest.Say("ok"))
	m.AllowUnoffered = true
	a := agent.New(m, agent.WithTools(h.tools("a", "b")...))
	evs := events(a)
	out, err := a.Run(t.Context(), agent.User("go"))
	if err != nil {
		t.Fatal(err)
	}
	cut := strings.Repeat("x", 63) + "…"
	want := []struct{ name, id string }{{cut, id}, {"nope", "short"}}
	if len(*evs) != len(want) {
		t.Fatalf("%d events, want %d", len(*evs), len(want))
	}
	if len(out.Messages) != 5 {
		t.Fatalf("%d messages, want 5", len(out.Messages))
	}
	for i, w := range want {
		if ev := (*evs)[i]; ev.Tool != w.name || ev.CallID != w.id || ev.Result.Success {
			t.Errorf("event %d: tool (%d bytes) %.100q, call %q, success %v; want %q, %q, false", i, len(ev.Tool), ev.Tool, ev.CallID, ev.Result.Success, w.name, w.id)
		}
		msg := out.Messages[2+i]
		if msg.Role != agent.RoleTool || msg.ToolName != w.name || msg.ToolCallID != w.id || !msg.IsError {
			t.Errorf("message %d: role %s, tool (%d bytes) %.100q, call %q, error %v; want %q, %q, true", 2+i, msg.Role, len(msg.ToolName), msg.ToolName, msg.ToolCallID, msg.IsError, w.name, w.id)
		}
	}
	// The next turn's request answers each call by its id.
	reqs := m.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	last := reqs[1].Messages
	if n := len(last); n < 2 || last[n-2].ToolCallID != id || last[n-1].ToolCallID != "short" {
		t.Errorf("second request's tool messages do not answer the calls by id (%d messages)", n)
	}
}

// A call with the id of a call earlier in the conversation (an earlier
// turn's, or one of the input's) is refused before any call of its turn
// runs, as two calls of one turn sharing an id are; a call without an id
// gets one neither the conversation nor the turn's other calls hold yet.
func TestRepeatedCallIDsAcrossTurns(t *testing.T) {
	call := func(id, name string) runtime.ToolCall {
		return runtime.ToolCall{ID: id, Name: name, Args: json.RawMessage(`{}`)}
	}
	earlier := []agent.Message{
		agent.User("go"),
		{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{call("call_1_1", "a")}},
		{Role: agent.RoleTool, ToolCallID: "call_1_1", ToolName: "a", Content: "a ok"},
		{Role: agent.RoleAssistant, Content: "done"},
		agent.User("again"),
	}
	tests := []struct {
		name  string
		input []agent.Message
		turns [][]runtime.ToolCall
		ran   []string // the calls that ran, by id
		err   string
	}{
		{"an earlier turn's id", []agent.Message{agent.User("go")},
			[][]runtime.ToolCall{{call("c1", "a")}, {call("c2", "b"), call("c1", "a")}}, []string{"c1"},
			`agent: turn 2: call 2 (a) has the id "c1" of a call in message 2; none of the turn's calls was run: repeated tool call id`},
		{"an input call's id", earlier,
			[][]runtime.ToolCall{{call("call_1_1", "b")}}, nil,
			`agent: turn 1: call 1 (b) has the id "call_1_1" of a call in message 2; none of the turn's calls was run: repeated tool call id`},
		{"no id, continuing a conversation", earlier,
			[][]runtime.ToolCall{{call("", "b"), call("", "a")}, nil}, []string{"call_1_1_2", "call_1_2"}, ""},
		{"no id, beside a call with the id the loop would give", []agent.Message{agent.User("go")},
			[][]runtime.ToolCall{{call("", "a"), call("call_1_1", "b"), call("", "a")}, nil}, []string{"call_1_1_2", "call_1_1", "call_1_3"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h handlers
			turn := 0
			m := agent.ModelFunc(func(context.Context, agent.Request) (agent.Response, error) {
				if turn == len(tt.turns) {
					return agent.Response{}, errors.New("script ended")
				}
				turn++
				return agent.Response{ToolCalls: tt.turns[turn-1], Text: "ok"}, nil
			})
			a := agent.New(m, agent.WithTools(h.tools("a", "b")...))
			evs := events(a)
			_, err := a.Run(t.Context(), tt.input...)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.err != "" && (!errors.Is(err, agent.ErrRepeatedCallID) || err.Error() != tt.err):
				t.Fatalf("err = %v\nwant %s", err, tt.err)
			}
			var ran []string
			for _, e := range *evs {
				ran = append(ran, e.CallID)
			}
			if diff := cmp.Diff(tt.ran, ran); diff != "" {
				t.Errorf("calls run (-want +got):\n%s", diff)
			}
		})
	}
}

// A turn with more calls than MaxCalls ends the run before any of them
// runs; one at the limit runs them all.
func TestTooManyCalls(t *testing.T) {
	tests := []struct {
		name  string
		limit int // 0: the default
		calls int
		err   string
	}{
		{"at the limit", 3, 3, ""},
		{"past the limit", 3, 4, "agent: turn 1 holds 4 tool calls, more than the limit of 3 (MaxCalls); none of them was run: too many tool calls in one turn"},
		{"past the default", 0, agent.DefaultMaxCalls + 1, fmt.Sprintf("agent: turn 1 holds %d tool calls, more than the limit of %d (MaxCalls); none of them was run: too many tool calls in one turn", agent.DefaultMaxCalls+1, agent.DefaultMaxCalls)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var h handlers
			calls := make([]runtime.ToolCall, tt.calls)
			for i := range calls {
				calls[i] = agenttest.Call("a", "")
			}
			opts := []agent.Option{agent.WithTools(h.tools("a")...)}
			if tt.limit > 0 {
				opts = append(opts, agent.MaxCalls(tt.limit))
			}
			a := agent.New(agenttest.New(agenttest.Calls(calls...), agenttest.Say("done")), opts...)
			evs := events(a)
			_, err := a.Run(t.Context(), agent.User("go"))
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("err = %v", err)
			case tt.err != "" && (!errors.Is(err, agent.ErrTooManyCalls) || err.Error() != tt.err):
				t.Fatalf("err = %v\nwant %s", err, tt.err)
			}
			if ran, want := len(*evs), map[bool]int{true: tt.calls, false: 0}[tt.err == ""]; ran != want {
				t.Errorf("%d calls ran, want %d", ran, want)
			}
		})
	}
}

// Of the calls of one turn naming no offered tool, only the first
// maxSuggested get the nearest names: ranking them costs time in the
// number of tools offered.
func TestNotOfferedSuggestedPerTurn(t *testing.T) {
	var h handlers
	var many []runtime.Tool
	for i := range 100 {
		many = append(many, runtime.Tool{Name: fmt.Sprintf("get_thing%03d", i), Handler: h.tool("x").Handler})
	}
	calls := make([]runtime.ToolCall, 10)
	for i := range calls {
		calls[i] = runtime.ToolCall{ID: fmt.Sprintf("c%d", i), Name: fmt.Sprintf("get_thing%03d_", i), Args: json.RawMessage(`{}`)}
	}
	m := agenttest.New(agenttest.Calls(calls...), agenttest.Say("ok"))
	m.AllowUnoffered = true
	out, err := agent.New(m, agent.WithTools(many...)).Run(t.Context(), agent.User("go"))
	if err != nil {
		t.Fatal(err)
	}
	for i := range calls {
		msg := out.Messages[2+i].Content
		if got, want := strings.Contains(msg, "nearest offered: "+fmt.Sprintf("get_thing%03d", i)), i < 8; got != want {
			t.Errorf("call %d: %q; nearest named: %v, want %v", i, msg, got, want)
		}
	}
}
