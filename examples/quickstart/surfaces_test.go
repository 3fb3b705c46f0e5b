package quickstart_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/gateway/gatewaytest"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// run plays the script against an agent built with opts over the real
// handlers, checks that the whole script ran, and returns the outcome and
// the handler calls it made.
func run(t *testing.T, m *agenttest.Model, opts ...agent.Option) (*agent.Outcome, *agenttest.Recorder) {
	t.Helper()
	rec := agenttest.NewRecorder()
	return agenttest.Run(t, m, "track my todos", append(opts, rec.Option())...), rec
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
	listOpen   = agenttest.Handled("list_todos", &quickstart.ListTodosParams{State: quickstart.ListTodosStateOpen, Limit: 20})
	listAdmin  = agenttest.Handled("list_todos", &quickstart.ListTodosParams{State: quickstart.ListTodosStateOpen, Tag: ptr("admin"), Limit: 20})
	createTodo = agenttest.Handled("create_todo", &quickstart.CreateTodoParams{Title: "Renew passport", Due: ptr("2026-12-01"), Tags: []string{"admin"}})
)

const createArgs = `{"title":"Renew passport","due":"2026-12-01","tags":["admin"]}`

func TestSurfaceFlat(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("list_todos", `{}`)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Calls(agenttest.Call("list_todos", `{"tag":"admin"}`)).Expect(flatTools...),
		agenttest.Say("You have 1 open todo: Renew passport.").Expect(flatTools...),
	)
	out, rec := run(t, m, agent.WithTools(quickstart.Tools(&quickstart.Store{})...))

	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], "list_todos", "0 open items")
	agenttest.Contains(t, msgs[1], "create_todo", "created td_1", `"id":"td_1"`)
	agenttest.Contains(t, msgs[2], "list_todos", "1 open item", `[{"id":"td_1","title":"Renew passport"`)
	rec.Expect(t, listOpen, createTodo, listAdmin)
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
	out, rec := run(t, m, agent.WithTools(quickstart.Gateway(&quickstart.Store{}, gateway.WithWrites(true))...))

	msgs := agenttest.ExpectToolMessages(t, out, 6)
	gatewaytest.ExpectOK(t, msgs[0].Content, gateway.SearchTool, `"hits":[{"op":"todo.create","kind":"write","args":"title:string `)
	gatewaytest.ExpectOK(t, msgs[1].Content, gateway.HelpTool, `"op":"todo.create"`, `{"name":"title","type":"string","required":true,`,
		`"policy":{"dont":["Do NOT create items for work you can finish now"]}`)
	if res := gatewaytest.ExpectOK(t, msgs[2].Content, "todo.list").Result; string(res) != `{"items":[]}` {
		t.Errorf("list of an empty store: %s", res)
	}
	e := gatewaytest.ExpectFail(t, msgs[3].Content, "todo.create", runtime.CodeValidation)
	if !reflect.DeepEqual(e.Details.Required, []string{"title"}) || !strings.Contains(e.Message, "needs title") ||
		!strings.Contains(string(e.Details.Example), `"args":{"title":"<title>"}`) {
		t.Errorf("empty args error must name the required args with an example: %+v", e)
	}
	gatewaytest.ExpectOK(t, msgs[4].Content, "todo.create", `"id":"td_1"`, `"title":"Renew passport"`)
	gatewaytest.ExpectOK(t, msgs[5].Content, gateway.BatchTool, `"op":"todo.list","ok":true`, `"id":"td_1"`)
	rec.Expect(t, listOpen, createTodo, listAdmin)
}

func TestSurfaceGatewayWritesRefused(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.SearchTool, `{"query":"add a todo"}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.create","args":`+createArgs+`}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"todo.list","args":{"tag":"admin"}}`)).Expect(gatewayTools...),
		agenttest.Say("I may not create todos here; you have none tagged admin.").Expect(gatewayTools...),
	)
	out, rec := run(t, m, agent.WithTools(quickstart.Gateway(&quickstart.Store{})...))

	msgs := agenttest.ExpectToolMessages(t, out, 3)
	gatewaytest.ExpectOK(t, msgs[0].Content, gateway.SearchTool, `"op":"todo.create"`)
	e := gatewaytest.ExpectFail(t, msgs[1].Content, "todo.create", runtime.CodePermissionDenied)
	if !strings.Contains(e.Message, "write") {
		t.Errorf("refusal must say why: %q", e.Message)
	}
	gatewaytest.ExpectOK(t, msgs[2].Content, "todo.list")
	// The refused write never reached the handlers.
	rec.Expect(t, listAdmin)
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
	out, rec := run(t, m, agent.WithTools(quickstart.Facades(&quickstart.Store{})...))

	msgs := agenttest.ExpectToolMessages(t, out, 4)
	// The answer lists the unfolded tools by op usage line; it does not
	// name the tools now offered (list_todos, ...): reported as a bug.
	agenttest.Contains(t, msgs[0], "todo", "todo unfolded into 5 tools", "list_todos [state:", "create_todo title:string")
	agenttest.Contains(t, msgs[1], "list_todos", "0 open items")
	agenttest.Contains(t, msgs[2], "create_todo", "created td_1")
	agenttest.Contains(t, msgs[3], "list_todos", `"id":"td_1"`)
	if !reflect.DeepEqual(out.Tools, flatTools) {
		t.Errorf("toolbox at the end: %v", out.Tools)
	}
	rec.Expect(t, listOpen, createTodo, listAdmin)
}

func TestSurfaceFacadesCategory(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("todo", `{"category":"todo"}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("create_todo", createArgs)).Expect(flatTools...),
		agenttest.Say("Created td_1.").Expect(flatTools...),
	)
	_, rec := run(t, m, agent.WithTools(quickstart.Facades(&quickstart.Store{})...))
	rec.Expect(t, createTodo)
}

func TestSurfaceFacadesShortcut(t *testing.T) {
	// A client that never re-lists tools runs inner tools through the facade.
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("todo", `{"tool":"list_todos","args":{}}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("todo", `{"tool":"create_todo","args":`+createArgs+`}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("todo", `{"tool":"list_todos","args":{"tag":"admin"}}`)).Expect(facadeTools...),
		agenttest.Say("Created td_1.").Expect(facadeTools...),
	)
	out, rec := run(t, m, agent.WithTools(quickstart.Facades(&quickstart.Store{})...))

	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], "todo", "0 open items")
	agenttest.Contains(t, msgs[1], "todo", "created td_1", `"id":"td_1"`)
	agenttest.Contains(t, msgs[2], "todo", `"id":"td_1"`)
	if !reflect.DeepEqual(out.Tools, facadeTools) {
		t.Errorf("shortcut calls must not unfold; toolbox at the end: %v", out.Tools)
	}
	rec.Expect(t, listOpen, createTodo, listAdmin)
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
	out, rec := run(t, m, agent.WithPrompt(sectionsPrompt(t, &quickstart.Store{}), task{Objective: "Track renewing my passport."}))

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
	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], "list_todos", "0 open items")
	agenttest.Contains(t, msgs[1], "create_todo", "created td_1")
	agenttest.Contains(t, msgs[2], "list_todos", `"id":"td_1"`)
	rec.Expect(t, listOpen, createTodo, listAdmin)
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
	out, rec := run(t, m, agent.WithPrompt(sectionsPrompt(t, &quickstart.Store{}), task{Objective: "Track renewing my passport."}))
	msgs := agenttest.ExpectToolMessages(t, out, 2)
	agenttest.Contains(t, msgs[0], prompt.OpenSectionsName, "todos", `"todo"`)
	rec.Expect(t, createTodo)
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
