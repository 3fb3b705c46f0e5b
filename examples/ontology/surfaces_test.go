package ontology_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/gateway/gatewaytest"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// The project the stories work in and the task they create.
const (
	projectID  = ontology.DemoProjectID
	listArgs   = `{"project_id":"` + projectID + `"}`
	searchArgs = `{"search":"invoice","project_id":"` + projectID + `"}`
	createArgs = `{"project_id":"` + projectID + `","title":"Send the invoice to ACME","due_at":"2026-07-03T17:00:00Z"}`
)

func ptr[T any](v T) *T { return &v }

// The handler calls of the read task (list the project's tasks) and of the
// write task (search first, as the create policy asks, then create).
var (
	listTasks  = agenttest.Handled("list_onto_tasks", &ontology.ListOntoTasksParams{ProjectID: ptr(projectID), Limit: 20})
	searchDup  = agenttest.Handled("search_onto_tasks", &ontology.SearchOntoTasksParams{Search: "invoice", ProjectID: ptr(projectID), Limit: 10})
	createTask = agenttest.Handled("create_onto_task", &ontology.CreateOntoTaskParams{ProjectID: projectID, Title: "Send the invoice to ACME",
		Priority: 3, StateKey: ontology.CreateOntoTaskStateKeyTodo, DueAt: ptr("2026-07-03T17:00:00Z")})
)

// The tool names each surface offers.
var (
	gatewayTools = []string{gateway.HelpTool, gateway.SearchTool, gateway.ExecTool, gateway.BatchTool}
	facadeTools  = []string{"onto", "util"}
	// taskTools are the tools of the onto facade's task category.
	taskTools = []string{"list_onto_tasks", "list_task_documents", "search_onto_tasks", "get_onto_task_details",
		"create_onto_task", "create_task_document", "update_onto_task", "delete_onto_task"}
)

// opTools lists the tools serving the registry's ops, in registry order,
// keeping those of group ("" for all).
func opTools(group string) []string {
	var names []string
	for _, op := range ontology.Registry.Ops {
		if group == "" || op.Group == group {
			names = append(names, op.Tool)
		}
	}
	return names
}

// run plays the script against an agent built with opts over the real
// handlers, checks that the whole script ran, and returns the outcome and
// the handler calls it made.
func run(t *testing.T, m *agenttest.Model, opts ...agent.Option) (*agent.Outcome, *agenttest.Recorder) {
	t.Helper()
	rec := agenttest.NewRecorder()
	return agenttest.Run(t, m, "Add a task to send the invoice to ACME by Friday.", append(opts, rec.Option())...), rec
}

func TestSurfaceFlat(t *testing.T) {
	all := opTools("")
	if len(all) != 53 {
		t.Fatalf("%d ops, want 53", len(all))
	}
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("list_onto_tasks", listArgs)).Expect(all...),
		agenttest.Calls(agenttest.Call("search_onto_tasks", searchArgs)).Expect(all...),
		agenttest.Calls(agenttest.Call("create_onto_task", createArgs)).Expect(all...),
		agenttest.Say("Added the task.").Expect(all...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Tools(ontology.NewStore())...))
	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], "list_onto_tasks", projectID, "Write API documentation")
	agenttest.Contains(t, msgs[1], "search_onto_tasks")
	agenttest.Contains(t, msgs[2], "create_onto_task", "Send the invoice to ACME")
	rec.Expect(t, listTasks, searchDup, createTask)
}

func TestSurfaceGateway(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.SearchTool, `{"query":"add a task to a project"}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.HelpTool, `{"path":"onto.task.create"}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.list","args":`+listArgs+`}`)).Expect(gatewayTools...),
		// The policy: search before creating.
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.search","args":`+searchArgs+`}`)).Expect(gatewayTools...),
		// Empty args: the error names the required args, the model corrects.
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.create","args":{}}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.create","args":`+createArgs+`}`)).Expect(gatewayTools...),
		agenttest.Say("Added the task.").Expect(gatewayTools...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true))...))
	msgs := agenttest.ExpectToolMessages(t, out, 6)
	gatewaytest.ExpectOK(t, msgs[0].Content, gateway.SearchTool, `"hits":[{"op":"onto.task.create","kind":"write","args":"project_id:string title:string `)
	gatewaytest.ExpectOK(t, msgs[1].Content, gateway.HelpTool, `"op":"onto.task.create"`, `{"name":"project_id","type":"string","required":true,`, `{"name":"title","type":"string","required":true,`,
		`"do":["User explicitly asks to create a task"`, `"dont":["Research/analysis requests you can do now"`)
	gatewaytest.ExpectOK(t, msgs[2].Content, "onto.task.list", projectID, "Write API documentation")
	gatewaytest.ExpectOK(t, msgs[3].Content, "onto.task.search")
	e := gatewaytest.ExpectFail(t, msgs[4].Content, "onto.task.create", runtime.CodeValidation)
	if !reflect.DeepEqual(e.Details.Required, []string{"project_id", "title"}) || !strings.Contains(e.Message, "project_id") ||
		!strings.Contains(string(e.Details.Example), `"op":"onto.task.create"`) {
		t.Errorf("empty args error must name the required args with an example: %+v", e)
	}
	gatewaytest.ExpectOK(t, msgs[5].Content, "onto.task.create", `"title":"Send the invoice to ACME"`)
	rec.Expect(t, listTasks, searchDup, createTask)
}

func TestSurfaceGatewayWritesRefused(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.list","args":`+listArgs+`}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.create","args":`+createArgs+`}`)).Expect(gatewayTools...),
		agenttest.Say("I may not create tasks in this session.").Expect(gatewayTools...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Gateway(ontology.NewStore())...))
	msgs := agenttest.ExpectToolMessages(t, out, 2)
	gatewaytest.ExpectOK(t, msgs[0].Content, "onto.task.list", projectID)
	e := gatewaytest.ExpectFail(t, msgs[1].Content, "onto.task.create", runtime.CodePermissionDenied)
	if !strings.Contains(e.Message, "write") {
		t.Errorf("refusal must say why: %q", e.Message)
	}
	// The refused write never reached the handlers.
	rec.Expect(t, listTasks)
}

func TestSurfaceFacades(t *testing.T) {
	// The task category of onto takes the facade's place; util stays.
	unfolded := append(append([]string{}, taskTools...), "util")
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("onto", `{"category":"task"}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("list_onto_tasks", listArgs)).Expect(unfolded...),
		agenttest.Calls(agenttest.Call("search_onto_tasks", searchArgs)).Expect(unfolded...),
		agenttest.Calls(agenttest.Call("create_onto_task", createArgs)).Expect(unfolded...),
		agenttest.Say("Added the task.").Expect(unfolded...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Facades(ontology.NewStore())...))
	msgs := agenttest.ExpectToolMessages(t, out, 4)
	agenttest.Contains(t, msgs[0], "onto", `unfolded into 8 "task" tools`, "list_onto_tasks [project_id:string]", "create_onto_task project_id:string title:string")
	agenttest.Contains(t, msgs[1], "list_onto_tasks", projectID)
	agenttest.Contains(t, msgs[3], "create_onto_task", "Send the invoice to ACME")
	rec.Expect(t, listTasks, searchDup, createTask)
}

func TestSurfaceFacadesUnfoldAll(t *testing.T) {
	unfolded := append(opTools("onto"), "util")
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("onto", `{}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("list_onto_tasks", listArgs)).Expect(unfolded...),
		agenttest.Say("One task.").Expect(unfolded...),
	)
	_, rec := run(t, m, agent.WithTools(ontology.Facades(ontology.NewStore())...))
	rec.Expect(t, listTasks)
}

func TestSurfaceFacadesShortcut(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("onto", `{"tool":"list_onto_tasks","args":`+listArgs+`}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("onto", `{"tool":"search_onto_tasks","args":`+searchArgs+`}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("onto", `{"tool":"create_onto_task","args":`+createArgs+`}`)).Expect(facadeTools...),
		agenttest.Say("Added the task.").Expect(facadeTools...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Facades(ontology.NewStore())...))
	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], "onto", projectID)
	agenttest.Contains(t, msgs[2], "onto", "Send the invoice to ACME")
	if !reflect.DeepEqual(out.Tools, facadeTools) {
		t.Errorf("shortcut calls must not unfold; toolbox at the end: %v", out.Tools)
	}
	rec.Expect(t, listTasks, searchDup, createTask)
}

// taskParams is the params of the task section stacked on the generated ones.
type taskParams struct {
	Objective string `json:"objective"`
}

// sectionsPrompt puts a task section on top of the sections surface.
func sectionsPrompt(t *testing.T, h ontology.Handlers) *prompt.Prompt {
	t.Helper()
	sections := append([]prompt.Section{{
		Key:      "task",
		Title:    "Task",
		Template: "Complete the following: ${objective}",
		Params:   reflect.TypeFor[taskParams](),
	}}, ontology.Sections(h)...)
	p, err := prompt.New("examples/ontology", "assistant", "", sections...)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSurfaceSections(t *testing.T) {
	// Opening onto offers its tools; util stays summarized, so open_sections
	// stays offered.
	opened := append(opTools("onto"), prompt.OpenSectionsName)
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(prompt.OpenSectionsName, `{"section_keys":["onto"],"reason":"I need the task tools"}`)).Expect(prompt.OpenSectionsName),
		agenttest.Calls(agenttest.Call("list_onto_tasks", listArgs)).Expect(opened...),
		agenttest.Calls(agenttest.Call("search_onto_tasks", searchArgs)).Expect(opened...),
		agenttest.Calls(agenttest.Call("create_onto_task", createArgs)).Expect(opened...),
		agenttest.Say("Added the task.").Expect(opened...),
	)
	out, rec := run(t, m, agent.WithPrompt(sectionsPrompt(t, ontology.NewStore()), taskParams{Objective: "Add a task to send the invoice to ACME by Friday."}))

	reqs := m.Requests()
	before, after := reqs[0].Messages[0].Content, reqs[1].Messages[0].Content
	suffix := func(key string) string {
		return "[This section is summarized. To view full content, call `open_sections` with key \"" + key + "\".]"
	}
	const fullOp = "`create_onto_task project_id:string title:string"
	for _, want := range []string{"Complete the following: Add a task", suffix("onto"), suffix("util")} {
		if !strings.Contains(before, want) {
			t.Errorf("first rendering lacks %q:\n%s", want, before)
		}
	}
	if strings.Contains(before, fullOp) {
		t.Errorf("first rendering shows the full onto section:\n%s", before)
	}
	for _, want := range []string{"Complete the following: Add a task", fullOp, suffix("util")} {
		if !strings.Contains(after, want) {
			t.Errorf("second rendering lacks %q:\n%s", want, after)
		}
	}
	if strings.Contains(after, suffix("onto")) {
		t.Errorf("second rendering still summarizes onto:\n%s", after)
	}
	if out.Retries != 1 || !reflect.DeepEqual(out.Requested, prompt.Overrides{"onto": prompt.VisibilityFull}) {
		t.Errorf("retries %d, requested %v", out.Retries, out.Requested)
	}
	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], "list_onto_tasks", projectID, "Write API documentation")
	agenttest.Contains(t, msgs[2], "create_onto_task", "Send the invoice to ACME")
	rec.Expect(t, listTasks, searchDup, createTask)
}
