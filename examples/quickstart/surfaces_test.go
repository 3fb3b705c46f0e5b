package quickstart_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// handlerCall is one call that reached the handlers: the tool and the
// params the generated code decoded for it.
type handlerCall struct {
	Tool   string
	Params any
}

func (c handlerCall) String() string {
	b, _ := json.Marshal(c.Params)
	return c.Tool + string(b)
}

// recorder wraps a quickstart.Store and records every handler call with its
// decoded params, in order.
type recorder struct {
	store quickstart.Store
	mu    sync.Mutex
	calls []handlerCall
}

var _ quickstart.Handlers = (*recorder)(nil)

func (r *recorder) record(tool string, p any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, handlerCall{tool, p})
}

func (r *recorder) ListTodos(ctx context.Context, tc runtime.ToolContext, p *quickstart.ListTodosParams) (runtime.ToolResult[quickstart.ListTodosResult], error) {
	r.record("list_todos", p)
	return r.store.ListTodos(ctx, tc, p)
}

func (r *recorder) GetTodo(ctx context.Context, tc runtime.ToolContext, p *quickstart.GetTodoParams) (runtime.ToolResult[quickstart.GetTodoResult], error) {
	r.record("get_todo", p)
	return r.store.GetTodo(ctx, tc, p)
}

func (r *recorder) CreateTodo(ctx context.Context, tc runtime.ToolContext, p *quickstart.CreateTodoParams) (runtime.ToolResult[quickstart.CreateTodoResult], error) {
	r.record("create_todo", p)
	return r.store.CreateTodo(ctx, tc, p)
}

func (r *recorder) UpdateTodo(ctx context.Context, tc runtime.ToolContext, p *quickstart.UpdateTodoParams) (runtime.ToolResult[quickstart.UpdateTodoResult], error) {
	r.record("update_todo", p)
	return r.store.UpdateTodo(ctx, tc, p)
}

func (r *recorder) DeleteTodo(ctx context.Context, tc runtime.ToolContext, p *quickstart.DeleteTodoParams) (runtime.ToolResult[quickstart.DeleteTodoResult], error) {
	r.record("delete_todo", p)
	return r.store.DeleteTodo(ctx, tc, p)
}

// expectCalls fails unless exactly want reached the handlers, in order.
func (r *recorder) expectCalls(t *testing.T, want ...handlerCall) {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !reflect.DeepEqual(r.calls, want) {
		t.Errorf("handler calls:\n got  %v\n want %v", r.calls, want)
	}
}

// run plays the script against an agent built with opts and checks that the
// whole script ran.
func run(t *testing.T, m *agenttest.Model, opts ...agent.Option) *agent.Outcome {
	t.Helper()
	out, err := agent.New(m, opts...).Run(context.Background(), agent.User("track my todos"))
	if err != nil {
		t.Fatalf("run: %v\noffered: %v", err, m.Offered())
	}
	if n := m.Remaining(); n != 0 {
		t.Fatalf("%d scripted turns left over", n)
	}
	if testing.Verbose() {
		for i, msg := range out.Messages {
			t.Logf("%d %s %s: %s", i, msg.Role, msg.ToolName, msg.Content)
		}
	}
	return out
}

// toolMessages returns the contents of the run's tool messages, in order.
func toolMessages(out *agent.Outcome) []agent.Message {
	var msgs []agent.Message
	for _, m := range out.Messages {
		if m.Role == agent.RoleTool {
			msgs = append(msgs, m)
		}
	}
	return msgs
}

// The tool names each surface offers.
var (
	flatTools    = []string{"list_todos", "get_todo", "create_todo", "update_todo", "delete_todo"}
	gatewayTools = []string{gateway.HelpTool, gateway.SearchTool, gateway.ExecTool, gateway.BatchTool}
	facadeTools  = []string{"todo"}
)

func ptr[T any](v T) *T { return &v }

// The handler calls of the read and write tasks every story completes.
var (
	listOpen   = handlerCall{"list_todos", &quickstart.ListTodosParams{State: quickstart.ListTodosStateOpen, Limit: 20}}
	listAdmin  = handlerCall{"list_todos", &quickstart.ListTodosParams{State: quickstart.ListTodosStateOpen, Tag: ptr("admin"), Limit: 20}}
	createTodo = handlerCall{"create_todo", &quickstart.CreateTodoParams{Title: "Renew passport", Due: ptr("2026-12-01"), Tags: []string{"admin"}}}
)

const createArgs = `{"title":"Renew passport","due":"2026-12-01","tags":["admin"]}`

// contains fails unless msg, the answer to tool, holds every want.
func contains(t *testing.T, msg agent.Message, tool string, want ...string) {
	t.Helper()
	if msg.ToolName != tool {
		t.Errorf("tool message for %s, want %s: %s", msg.ToolName, tool, msg.Content)
	}
	for _, w := range want {
		if !strings.Contains(msg.Content, w) {
			t.Errorf("%s answer lacks %q:\n%s", tool, w, msg.Content)
		}
	}
}

// envelope decodes a gateway tool message.
func envelope(t *testing.T, msg agent.Message) gateway.Envelope {
	t.Helper()
	var env gateway.Envelope
	if err := json.Unmarshal([]byte(msg.Content), &env); err != nil {
		t.Fatalf("%s answer is not an envelope: %v\n%s", msg.ToolName, err, msg.Content)
	}
	return env
}

// expectOK fails unless env is a success of op whose result holds every want.
func expectOK(t *testing.T, env gateway.Envelope, op string, want ...string) {
	t.Helper()
	if !env.OK || env.Op != op || env.Error != nil {
		t.Errorf("want ok envelope of %s, got ok=%v op=%s error=%+v", op, env.OK, env.Op, env.Error)
	}
	for _, w := range want {
		if !strings.Contains(string(env.Result), w) {
			t.Errorf("%s result lacks %q: %s", op, w, env.Result)
		}
	}
}

// expectFail fails unless env is a failure of op with code, pointing to op's
// help.
func expectFail(t *testing.T, env gateway.Envelope, op string, code runtime.Code) *gateway.EnvelopeError {
	t.Helper()
	if env.OK || env.Op != op || env.Error == nil {
		t.Fatalf("want failed envelope of %s, got ok=%v op=%s error=%+v", op, env.OK, env.Op, env.Error)
	}
	if env.Error.Code != code || env.Error.HelpPath != op {
		t.Errorf("%s: code %s help_path %q, want %s and %q", op, env.Error.Code, env.Error.HelpPath, code, op)
	}
	return env.Error
}

func TestSurfaceFlat(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("list_todos", `{}`)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("list_todos", `{"tag":"admin"}`)).Expect(flatTools...),
		agenttest.Say("You have 1 open todo: Renew passport.").Expect(flatTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithTools(quickstart.Tools(r)...))

	msgs := toolMessages(out)
	if len(msgs) != 3 {
		t.Fatalf("%d tool messages, want 3", len(msgs))
	}
	contains(t, msgs[0], "list_todos", "0 open items")
	contains(t, msgs[1], "create_todo", "created td_1", `"id":"td_1"`)
	contains(t, msgs[2], "list_todos", "1 open items", `[{"id":"td_1","title":"Renew passport"`)
	r.expectCalls(t, listOpen, createTodo, listAdmin)
}

func TestSurfaceGateway(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.SearchTool, `{"query":"add a todo"}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.HelpTool, `{"path":"todo.create"}`)).Expect(gatewayTools...),
		// Read before write.
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.list","args":{}}`)).Expect(gatewayTools...),
		// Empty args: the error names the required args, the model corrects.
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.create","args":{}}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.create","args":`+createArgs+`}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.BatchTool, `{"items":[{"tool":"exec","op":"todo.list","args":{"tag":"admin"}}]}`)).Expect(gatewayTools...),
		agenttest.Say("Created td_1.").Expect(gatewayTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithTools(quickstart.Gateway(r, gateway.WithWrites(true))...))

	msgs := toolMessages(out)
	if len(msgs) != 6 {
		t.Fatalf("%d tool messages, want 6", len(msgs))
	}
	expectOK(t, envelope(t, msgs[0]), gateway.SearchTool, `"hits":[{"op":"todo.create","tool":"create_todo","kind":"write"`)
	expectOK(t, envelope(t, msgs[1]), gateway.HelpTool, `"op":"todo.create"`, `"required":["title"]`,
		`"policy":{"dont":["Do NOT create items for work you can finish now"]}`)
	expectOK(t, envelope(t, msgs[2]), "todo.list")
	if res := envelope(t, msgs[2]).Result; string(res) != "[]" && string(res) != "null" {
		t.Errorf("list of an empty store: %s", res)
	}
	e := expectFail(t, envelope(t, msgs[3]), "todo.create", runtime.CodeValidation)
	if !reflect.DeepEqual(e.Details.Required, []string{"title"}) || !strings.Contains(e.Message, "needs title") ||
		!strings.Contains(string(e.Details.Example), `"args":{"title":"<title>"}`) {
		t.Errorf("empty args error must name the required args with an example: %+v", e)
	}
	expectOK(t, envelope(t, msgs[4]), "todo.create", `"id":"td_1"`, `"title":"Renew passport"`)
	expectOK(t, envelope(t, msgs[5]), gateway.BatchTool, `"op":"todo.list","ok":true`, `"id":"td_1"`)
	r.expectCalls(t, listOpen, createTodo, listAdmin)
}

func TestSurfaceGatewayWritesRefused(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.SearchTool, `{"query":"add a todo"}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.create","args":`+createArgs+`}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.list","args":{"tag":"admin"}}`)).Expect(gatewayTools...),
		agenttest.Say("I may not create todos here; you have none tagged admin.").Expect(gatewayTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithTools(quickstart.Gateway(r)...))

	msgs := toolMessages(out)
	if len(msgs) != 3 {
		t.Fatalf("%d tool messages, want 3", len(msgs))
	}
	expectOK(t, envelope(t, msgs[0]), gateway.SearchTool, `"op":"todo.create"`)
	e := expectFail(t, envelope(t, msgs[1]), "todo.create", runtime.CodePermissionDenied)
	if !strings.Contains(e.Message, "write") {
		t.Errorf("refusal must say why: %q", e.Message)
	}
	expectOK(t, envelope(t, msgs[2]), "todo.list")
	// The refused write never reached the handlers.
	r.expectCalls(t, listAdmin)
}

func TestSurfaceFacades(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("todo", `{}`)).Expect(facadeTools...),
		// The facade unfolded into its tools and left.
		agenttest.Calls(agenttest.Call("list_todos", `{}`)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("list_todos", `{"tag":"admin"}`)).Expect(flatTools...),
		agenttest.Say("Created td_1.").Expect(flatTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithTools(quickstart.Facades(r)...))

	msgs := toolMessages(out)
	if len(msgs) != 4 {
		t.Fatalf("%d tool messages, want 4", len(msgs))
	}
	// The answer lists the unfolded tools by op usage line; it does not
	// name the tools now offered (list_todos, ...): reported as a bug.
	contains(t, msgs[0], "todo", "todo unfolded into 5 tools", "list_todos [state:", "create_todo title:string")
	contains(t, msgs[1], "list_todos", "0 open items")
	contains(t, msgs[2], "create_todo", "created td_1")
	contains(t, msgs[3], "list_todos", `"id":"td_1"`)
	if !reflect.DeepEqual(out.Tools, flatTools) {
		t.Errorf("toolbox at the end: %v", out.Tools)
	}
	r.expectCalls(t, listOpen, createTodo, listAdmin)
}

func TestSurfaceFacadesCategory(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("todo", `{"category":"todo"}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Say("Created td_1.").Expect(flatTools...),
	)
	r := &recorder{}
	run(t, m, agent.WithTools(quickstart.Facades(r)...))
	r.expectCalls(t, createTodo)
}

func TestSurfaceFacadesShortcut(t *testing.T) {
	// A client that never re-lists tools runs inner tools through the facade.
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("todo", `{"tool":"list_todos","args":{}}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("todo", `{"tool":"create_todo","args":`+createArgs+`}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("todo", `{"tool":"list_todos","args":{"tag":"admin"}}`)).Expect(facadeTools...),
		agenttest.Say("Created td_1.").Expect(facadeTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithTools(quickstart.Facades(r)...))

	msgs := toolMessages(out)
	if len(msgs) != 3 {
		t.Fatalf("%d tool messages, want 3", len(msgs))
	}
	contains(t, msgs[0], "todo", "0 open items")
	contains(t, msgs[1], "todo", "created td_1", `"id":"td_1"`)
	contains(t, msgs[2], "todo", `"id":"td_1"`)
	if !reflect.DeepEqual(out.Tools, facadeTools) {
		t.Errorf("shortcut calls must not unfold; toolbox at the end: %v", out.Tools)
	}
	r.expectCalls(t, listOpen, createTodo, listAdmin)
}

// task is the params of the task section stacked on the generated ones.
type task struct {
	Objective string `json:"objective"`
}

// sectionsPrompt puts a task section on top of the sections surface.
func sectionsPrompt(t *testing.T, h quickstart.Handlers) *prompt.Prompt {
	t.Helper()
	sections := append([]prompt.Section{{
		Key:      "task",
		Title:    "Task",
		Template: "Complete the following: ${objective}",
		Params:   reflect.TypeFor[task](),
	}}, quickstart.Sections(h)...)
	p, err := prompt.New("examples/quickstart", "todos", "", sections...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const (
	summarySuffix = "[This section is summarized. To view full content, call `open_sections` with key \"todo\".]"
	fullOp        = "`create_todo title:string [due:string] [priority:enum(1|2|3)] [tags:array<string>]` (write)"
)

func TestSurfaceSections(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(prompt.OpenSectionsName, `{"section_keys":["todo"],"reason":"I need the todo tools"}`)).Expect(prompt.OpenSectionsName),
		// The turn is retried with the section open: its tools, no open_sections.
		agenttest.Calls(agenttest.Call("list_todos", `{}`)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("list_todos", `{"tag":"admin"}`)).Expect(flatTools...),
		agenttest.Say("Created td_1.").Expect(flatTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithPrompt(sectionsPrompt(t, r), task{Objective: "Track renewing my passport."}))

	reqs := m.Requests()
	before, after := reqs[0].Messages[0].Content, reqs[1].Messages[0].Content
	for _, want := range []string{"Complete the following: Track renewing my passport.", "Track todo items. 5 tools (todo).", summarySuffix} {
		if !strings.Contains(before, want) {
			t.Errorf("first rendering lacks %q:\n%s", want, before)
		}
	}
	if strings.Contains(before, fullOp) {
		t.Errorf("first rendering shows the full section:\n%s", before)
	}
	for _, want := range []string{"Complete the following: Track renewing my passport.", fullOp} {
		if !strings.Contains(after, want) {
			t.Errorf("second rendering lacks %q:\n%s", want, after)
		}
	}
	if strings.Contains(after, summarySuffix) {
		t.Errorf("second rendering still summarized:\n%s", after)
	}
	if out.Retries != 1 || !reflect.DeepEqual(out.Requested, prompt.Overrides{"todo": prompt.VisibilityFull}) {
		t.Errorf("retries %d, requested %v", out.Retries, out.Requested)
	}
	if out.Messages[0].Content != after {
		t.Errorf("outcome keeps the first rendering")
	}
	// The halted turn left no messages: the first tool message is list_todos.
	msgs := toolMessages(out)
	if len(msgs) != 3 {
		t.Fatalf("%d tool messages, want 3", len(msgs))
	}
	contains(t, msgs[0], "list_todos", "0 open items")
	contains(t, msgs[1], "create_todo", "created td_1")
	contains(t, msgs[2], "list_todos", `"id":"td_1"`)
	r.expectCalls(t, listOpen, createTodo, listAdmin)
}

func TestSurfaceSectionsBadKey(t *testing.T) {
	// A key that is not a summarized section fails; the model reads the
	// error and uses the key the summary shows.
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(prompt.OpenSectionsName, `{"section_keys":["todos"],"reason":"need tools"}`)).Expect(prompt.OpenSectionsName),
		agenttest.Calls(agenttest.Call(prompt.OpenSectionsName, `{"section_keys":["todo"],"reason":"need tools"}`)).Expect(prompt.OpenSectionsName),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Say("Created td_1.").Expect(flatTools...),
	)
	r := &recorder{}
	out := run(t, m, agent.WithPrompt(sectionsPrompt(t, r), task{Objective: "Track renewing my passport."}))
	msgs := toolMessages(out)
	if len(msgs) != 2 {
		t.Fatalf("%d tool messages, want 2", len(msgs))
	}
	contains(t, msgs[0], prompt.OpenSectionsName, "todos", `"todo"`)
	r.expectCalls(t, createTodo)
}

// definitionBytes is the size of tools as a provider receives them: a JSON
// array of OpenAI chat tool definitions.
func definitionBytes(tools []runtime.Tool) int {
	type function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	}
	type definition struct {
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	defs := make([]definition, len(tools))
	for i, t := range tools {
		defs[i] = definition{"function", function{t.Name, t.Description, t.Parameters}}
	}
	b, err := json.Marshal(defs)
	if err != nil {
		panic(err)
	}
	return len(b)
}

// TestSurfaceBootCost logs what each surface costs before the model did
// anything: the offered tool definitions, and for sections the prompt text.
func TestSurfaceBootCost(t *testing.T) {
	var h quickstart.UnimplementedHandlers
	p := sectionsPrompt(t, h)
	rendered, err := p.Render(nil, task{Objective: "x"})
	if err != nil {
		t.Fatal(err)
	}
	opened, err := p.Render(prompt.Overrides{"todo": prompt.VisibilityFull}, task{Objective: "x"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []struct {
		name  string
		tools []runtime.Tool
		text  string
	}{
		{"flat", quickstart.Tools(h), ""},
		{"gateway", quickstart.Gateway(h), ""},
		{"facades", quickstart.Facades(h), ""},
		{"sections (boot)", rendered.Tools(), rendered.Text()},
		{"sections (opened)", opened.Tools(), opened.Text()},
	} {
		t.Logf("%-18s %d tools, %5d bytes of definitions, %4d bytes of prompt", s.name, len(s.tools), definitionBytes(s.tools), len(s.text))
	}
}
