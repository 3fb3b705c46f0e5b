package ontology_test

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"

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

// recorder wraps the example's handlers and records every call with its
// decoded params, in order.
type recorder struct {
	h     ontology.Handlers
	mu    sync.Mutex
	calls []handlerCall
}

var _ ontology.Handlers = (*recorder)(nil)

func (r *recorder) record(tool string, p any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls = append(r.calls, handlerCall{tool, p})
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

func (r *recorder) ListOntoTasks(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoTasksParams) (runtime.ToolResult[ontology.ListOntoTasksResult], error) {
	r.record("list_onto_tasks", p)
	return r.h.ListOntoTasks(ctx, tc, p)
}

func (r *recorder) ListOntoGoals(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoGoalsParams) (runtime.ToolResult[ontology.ListOntoGoalsResult], error) {
	r.record("list_onto_goals", p)
	return r.h.ListOntoGoals(ctx, tc, p)
}

func (r *recorder) ListOntoDocuments(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoDocumentsParams) (runtime.ToolResult[ontology.ListOntoDocumentsResult], error) {
	r.record("list_onto_documents", p)
	return r.h.ListOntoDocuments(ctx, tc, p)
}

func (r *recorder) ListOntoMilestones(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoMilestonesParams) (runtime.ToolResult[ontology.ListOntoMilestonesResult], error) {
	r.record("list_onto_milestones", p)
	return r.h.ListOntoMilestones(ctx, tc, p)
}

func (r *recorder) ListOntoRisks(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoRisksParams) (runtime.ToolResult[ontology.ListOntoRisksResult], error) {
	r.record("list_onto_risks", p)
	return r.h.ListOntoRisks(ctx, tc, p)
}

func (r *recorder) ListOntoRequirements(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoRequirementsParams) (runtime.ToolResult[ontology.ListOntoRequirementsResult], error) {
	r.record("list_onto_requirements", p)
	return r.h.ListOntoRequirements(ctx, tc, p)
}

func (r *recorder) ListOntoPlans(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoPlansParams) (runtime.ToolResult[ontology.ListOntoPlansResult], error) {
	r.record("list_onto_plans", p)
	return r.h.ListOntoPlans(ctx, tc, p)
}

func (r *recorder) ListOntoProjects(ctx context.Context, tc runtime.ToolContext, p *ontology.ListOntoProjectsParams) (runtime.ToolResult[ontology.ListOntoProjectsResult], error) {
	r.record("list_onto_projects", p)
	return r.h.ListOntoProjects(ctx, tc, p)
}

func (r *recorder) ListTaskDocuments(ctx context.Context, tc runtime.ToolContext, p *ontology.ListTaskDocumentsParams) (runtime.ToolResult[ontology.ListTaskDocumentsResult], error) {
	r.record("list_task_documents", p)
	return r.h.ListTaskDocuments(ctx, tc, p)
}

func (r *recorder) SearchOntoTasks(ctx context.Context, tc runtime.ToolContext, p *ontology.SearchOntoTasksParams) (runtime.ToolResult[ontology.SearchOntoTasksResult], error) {
	r.record("search_onto_tasks", p)
	return r.h.SearchOntoTasks(ctx, tc, p)
}

func (r *recorder) SearchOntoProjects(ctx context.Context, tc runtime.ToolContext, p *ontology.SearchOntoProjectsParams) (runtime.ToolResult[ontology.SearchOntoProjectsResult], error) {
	r.record("search_onto_projects", p)
	return r.h.SearchOntoProjects(ctx, tc, p)
}

func (r *recorder) SearchOntoDocuments(ctx context.Context, tc runtime.ToolContext, p *ontology.SearchOntoDocumentsParams) (runtime.ToolResult[ontology.SearchOntoDocumentsResult], error) {
	r.record("search_onto_documents", p)
	return r.h.SearchOntoDocuments(ctx, tc, p)
}

func (r *recorder) SearchOntology(ctx context.Context, tc runtime.ToolContext, p *ontology.SearchOntologyParams) (runtime.ToolResult[ontology.SearchOntologyResult], error) {
	r.record("search_ontology", p)
	return r.h.SearchOntology(ctx, tc, p)
}

func (r *recorder) GetOntoProjectDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoProjectDetailsParams) (runtime.ToolResult[ontology.GetOntoProjectDetailsResult], error) {
	r.record("get_onto_project_details", p)
	return r.h.GetOntoProjectDetails(ctx, tc, p)
}

func (r *recorder) GetOntoProjectGraph(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoProjectGraphParams) (runtime.ToolResult[ontology.GetOntoProjectGraphResult], error) {
	r.record("get_onto_project_graph", p)
	return r.h.GetOntoProjectGraph(ctx, tc, p)
}

func (r *recorder) GetOntoTaskDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoTaskDetailsParams) (runtime.ToolResult[ontology.GetOntoTaskDetailsResult], error) {
	r.record("get_onto_task_details", p)
	return r.h.GetOntoTaskDetails(ctx, tc, p)
}

func (r *recorder) GetOntoGoalDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoGoalDetailsParams) (runtime.ToolResult[ontology.GetOntoGoalDetailsResult], error) {
	r.record("get_onto_goal_details", p)
	return r.h.GetOntoGoalDetails(ctx, tc, p)
}

func (r *recorder) GetOntoPlanDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoPlanDetailsParams) (runtime.ToolResult[ontology.GetOntoPlanDetailsResult], error) {
	r.record("get_onto_plan_details", p)
	return r.h.GetOntoPlanDetails(ctx, tc, p)
}

func (r *recorder) GetOntoDocumentDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoDocumentDetailsParams) (runtime.ToolResult[ontology.GetOntoDocumentDetailsResult], error) {
	r.record("get_onto_document_details", p)
	return r.h.GetOntoDocumentDetails(ctx, tc, p)
}

func (r *recorder) GetOntoMilestoneDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoMilestoneDetailsParams) (runtime.ToolResult[ontology.GetOntoMilestoneDetailsResult], error) {
	r.record("get_onto_milestone_details", p)
	return r.h.GetOntoMilestoneDetails(ctx, tc, p)
}

func (r *recorder) GetOntoRiskDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoRiskDetailsParams) (runtime.ToolResult[ontology.GetOntoRiskDetailsResult], error) {
	r.record("get_onto_risk_details", p)
	return r.h.GetOntoRiskDetails(ctx, tc, p)
}

func (r *recorder) GetOntoRequirementDetails(ctx context.Context, tc runtime.ToolContext, p *ontology.GetOntoRequirementDetailsParams) (runtime.ToolResult[ontology.GetOntoRequirementDetailsResult], error) {
	r.record("get_onto_requirement_details", p)
	return r.h.GetOntoRequirementDetails(ctx, tc, p)
}

func (r *recorder) GetDocumentTree(ctx context.Context, tc runtime.ToolContext, p *ontology.GetDocumentTreeParams) (runtime.ToolResult[ontology.GetDocumentTreeResult], error) {
	r.record("get_document_tree", p)
	return r.h.GetDocumentTree(ctx, tc, p)
}

func (r *recorder) GetDocumentPath(ctx context.Context, tc runtime.ToolContext, p *ontology.GetDocumentPathParams) (runtime.ToolResult[ontology.GetDocumentPathResult], error) {
	r.record("get_document_path", p)
	return r.h.GetDocumentPath(ctx, tc, p)
}

func (r *recorder) GetEntityRelationships(ctx context.Context, tc runtime.ToolContext, p *ontology.GetEntityRelationshipsParams) (runtime.ToolResult[ontology.GetEntityRelationshipsResult], error) {
	r.record("get_entity_relationships", p)
	return r.h.GetEntityRelationships(ctx, tc, p)
}

func (r *recorder) GetLinkedEntities(ctx context.Context, tc runtime.ToolContext, p *ontology.GetLinkedEntitiesParams) (runtime.ToolResult[ontology.GetLinkedEntitiesResult], error) {
	r.record("get_linked_entities", p)
	return r.h.GetLinkedEntities(ctx, tc, p)
}

func (r *recorder) CreateOntoTask(ctx context.Context, tc runtime.ToolContext, p *ontology.CreateOntoTaskParams) (runtime.ToolResult[ontology.CreateOntoTaskResult], error) {
	r.record("create_onto_task", p)
	return r.h.CreateOntoTask(ctx, tc, p)
}

func (r *recorder) CreateOntoGoal(ctx context.Context, tc runtime.ToolContext, p *ontology.CreateOntoGoalParams) (runtime.ToolResult[ontology.CreateOntoGoalResult], error) {
	r.record("create_onto_goal", p)
	return r.h.CreateOntoGoal(ctx, tc, p)
}

func (r *recorder) CreateOntoPlan(ctx context.Context, tc runtime.ToolContext, p *ontology.CreateOntoPlanParams) (runtime.ToolResult[ontology.CreateOntoPlanResult], error) {
	r.record("create_onto_plan", p)
	return r.h.CreateOntoPlan(ctx, tc, p)
}

func (r *recorder) CreateOntoDocument(ctx context.Context, tc runtime.ToolContext, p *ontology.CreateOntoDocumentParams) (runtime.ToolResult[ontology.CreateOntoDocumentResult], error) {
	r.record("create_onto_document", p)
	return r.h.CreateOntoDocument(ctx, tc, p)
}

func (r *recorder) CreateOntoProject(ctx context.Context, tc runtime.ToolContext, p *ontology.CreateOntoProjectParams) (runtime.ToolResult[ontology.CreateOntoProjectResult], error) {
	r.record("create_onto_project", p)
	return r.h.CreateOntoProject(ctx, tc, p)
}

func (r *recorder) CreateTaskDocument(ctx context.Context, tc runtime.ToolContext, p *ontology.CreateTaskDocumentParams) (runtime.ToolResult[ontology.CreateTaskDocumentResult], error) {
	r.record("create_task_document", p)
	return r.h.CreateTaskDocument(ctx, tc, p)
}

func (r *recorder) UpdateOntoTask(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoTaskParams) (runtime.ToolResult[ontology.UpdateOntoTaskResult], error) {
	r.record("update_onto_task", p)
	return r.h.UpdateOntoTask(ctx, tc, p)
}

func (r *recorder) UpdateOntoProject(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoProjectParams) (runtime.ToolResult[ontology.UpdateOntoProjectResult], error) {
	r.record("update_onto_project", p)
	return r.h.UpdateOntoProject(ctx, tc, p)
}

func (r *recorder) UpdateOntoGoal(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoGoalParams) (runtime.ToolResult[ontology.UpdateOntoGoalResult], error) {
	r.record("update_onto_goal", p)
	return r.h.UpdateOntoGoal(ctx, tc, p)
}

func (r *recorder) UpdateOntoPlan(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoPlanParams) (runtime.ToolResult[ontology.UpdateOntoPlanResult], error) {
	r.record("update_onto_plan", p)
	return r.h.UpdateOntoPlan(ctx, tc, p)
}

func (r *recorder) UpdateOntoDocument(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoDocumentParams) (runtime.ToolResult[ontology.UpdateOntoDocumentResult], error) {
	r.record("update_onto_document", p)
	return r.h.UpdateOntoDocument(ctx, tc, p)
}

func (r *recorder) UpdateOntoMilestone(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoMilestoneParams) (runtime.ToolResult[ontology.UpdateOntoMilestoneResult], error) {
	r.record("update_onto_milestone", p)
	return r.h.UpdateOntoMilestone(ctx, tc, p)
}

func (r *recorder) UpdateOntoRisk(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoRiskParams) (runtime.ToolResult[ontology.UpdateOntoRiskResult], error) {
	r.record("update_onto_risk", p)
	return r.h.UpdateOntoRisk(ctx, tc, p)
}

func (r *recorder) UpdateOntoRequirement(ctx context.Context, tc runtime.ToolContext, p *ontology.UpdateOntoRequirementParams) (runtime.ToolResult[ontology.UpdateOntoRequirementResult], error) {
	r.record("update_onto_requirement", p)
	return r.h.UpdateOntoRequirement(ctx, tc, p)
}

func (r *recorder) DeleteOntoTask(ctx context.Context, tc runtime.ToolContext, p *ontology.DeleteOntoTaskParams) (runtime.ToolResult[ontology.DeleteOntoTaskResult], error) {
	r.record("delete_onto_task", p)
	return r.h.DeleteOntoTask(ctx, tc, p)
}

func (r *recorder) DeleteOntoDocument(ctx context.Context, tc runtime.ToolContext, p *ontology.DeleteOntoDocumentParams) (runtime.ToolResult[ontology.DeleteOntoDocumentResult], error) {
	r.record("delete_onto_document", p)
	return r.h.DeleteOntoDocument(ctx, tc, p)
}

func (r *recorder) DeleteOntoGoal(ctx context.Context, tc runtime.ToolContext, p *ontology.DeleteOntoGoalParams) (runtime.ToolResult[ontology.DeleteOntoGoalResult], error) {
	r.record("delete_onto_goal", p)
	return r.h.DeleteOntoGoal(ctx, tc, p)
}

func (r *recorder) DeleteOntoPlan(ctx context.Context, tc runtime.ToolContext, p *ontology.DeleteOntoPlanParams) (runtime.ToolResult[ontology.DeleteOntoPlanResult], error) {
	r.record("delete_onto_plan", p)
	return r.h.DeleteOntoPlan(ctx, tc, p)
}

func (r *recorder) LinkOntoEntities(ctx context.Context, tc runtime.ToolContext, p *ontology.LinkOntoEntitiesParams) (runtime.ToolResult[ontology.LinkOntoEntitiesResult], error) {
	r.record("link_onto_entities", p)
	return r.h.LinkOntoEntities(ctx, tc, p)
}

func (r *recorder) UnlinkOntoEdge(ctx context.Context, tc runtime.ToolContext, p *ontology.UnlinkOntoEdgeParams) (runtime.ToolResult[ontology.UnlinkOntoEdgeResult], error) {
	r.record("unlink_onto_edge", p)
	return r.h.UnlinkOntoEdge(ctx, tc, p)
}

func (r *recorder) ReorganizeOntoProjectGraph(ctx context.Context, tc runtime.ToolContext, p *ontology.ReorganizeOntoProjectGraphParams) (runtime.ToolResult[ontology.ReorganizeOntoProjectGraphResult], error) {
	r.record("reorganize_onto_project_graph", p)
	return r.h.ReorganizeOntoProjectGraph(ctx, tc, p)
}

func (r *recorder) MoveDocumentInTree(ctx context.Context, tc runtime.ToolContext, p *ontology.MoveDocumentInTreeParams) (runtime.ToolResult[ontology.MoveDocumentInTreeResult], error) {
	r.record("move_document_in_tree", p)
	return r.h.MoveDocumentInTree(ctx, tc, p)
}

func (r *recorder) GetFieldInfo(ctx context.Context, tc runtime.ToolContext, p *ontology.GetFieldInfoParams) (runtime.ToolResult[ontology.GetFieldInfoResult], error) {
	r.record("get_field_info", p)
	return r.h.GetFieldInfo(ctx, tc, p)
}

func (r *recorder) WebSearch(ctx context.Context, tc runtime.ToolContext, p *ontology.WebSearchParams) (runtime.ToolResult[ontology.WebSearchResult], error) {
	r.record("web_search", p)
	return r.h.WebSearch(ctx, tc, p)
}

func (r *recorder) WebVisit(ctx context.Context, tc runtime.ToolContext, p *ontology.WebVisitParams) (runtime.ToolResult[ontology.WebVisitResult], error) {
	r.record("web_visit", p)
	return r.h.WebVisit(ctx, tc, p)
}

func (r *recorder) GetBuildosOverview(ctx context.Context, tc runtime.ToolContext, p *ontology.GetBuildosOverviewParams) (runtime.ToolResult[ontology.GetBuildosOverviewResult], error) {
	r.record("get_buildos_overview", p)
	return r.h.GetBuildosOverview(ctx, tc, p)
}

func (r *recorder) GetBuildosUsageGuide(ctx context.Context, tc runtime.ToolContext, p *ontology.GetBuildosUsageGuideParams) (runtime.ToolResult[ontology.GetBuildosUsageGuideResult], error) {
	r.record("get_buildos_usage_guide", p)
	return r.h.GetBuildosUsageGuide(ctx, tc, p)
}

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
	listTasks  = handlerCall{"list_onto_tasks", &ontology.ListOntoTasksParams{ProjectID: ptr(projectID), Limit: 20}}
	searchDup  = handlerCall{"search_onto_tasks", &ontology.SearchOntoTasksParams{Search: "invoice", ProjectID: ptr(projectID), Limit: 10}}
	createTask = handlerCall{"create_onto_task", &ontology.CreateOntoTaskParams{ProjectID: projectID, Title: "Send the invoice to ACME",
		Priority: 3, StateKey: ontology.CreateOntoTaskStateKeyTodo, DueAt: ptr("2026-07-03T17:00:00Z")}}
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

// run plays the script against an agent built with opts and checks that the
// whole script ran.
func run(t *testing.T, m *agenttest.Model, opts ...agent.Option) *agent.Outcome {
	t.Helper()
	out, err := agent.New(m, opts...).Run(context.Background(), agent.User("Add a task to send the invoice to ACME by Friday."))
	if err != nil {
		t.Fatalf("run: %v\noffered: %v", err, m.Offered())
	}
	if n := m.Remaining(); n != 0 {
		t.Fatalf("%d scripted turns left over", n)
	}
	if testing.Verbose() {
		for i, msg := range out.Messages {
			t.Logf("%d %s %s: %.600s", i, msg.Role, msg.ToolName, msg.Content)
		}
	}
	return out
}

// toolMessages returns the run's tool messages, in order; it fails unless
// there are n.
func toolMessages(t *testing.T, out *agent.Outcome, n int) []agent.Message {
	t.Helper()
	var msgs []agent.Message
	for _, m := range out.Messages {
		if m.Role == agent.RoleTool {
			msgs = append(msgs, m)
		}
	}
	if len(msgs) != n {
		t.Fatalf("%d tool messages, want %d", len(msgs), n)
	}
	return msgs
}

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
	r := &recorder{h: ontology.NewStore()}
	out := run(t, m, agent.WithTools(ontology.Tools(r)...))
	msgs := toolMessages(t, out, 3)
	contains(t, msgs[0], "list_onto_tasks", projectID, "Write API documentation")
	contains(t, msgs[1], "search_onto_tasks")
	contains(t, msgs[2], "create_onto_task", "Send the invoice to ACME")
	r.expectCalls(t, listTasks, searchDup, createTask)
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
	r := &recorder{h: ontology.NewStore()}
	out := run(t, m, agent.WithTools(ontology.Gateway(r, gateway.WithWrites(true))...))
	msgs := toolMessages(t, out, 6)
	expectOK(t, envelope(t, msgs[0]), gateway.SearchTool, `"hits":[{"op":"onto.task.create","tool":"create_onto_task","kind":"write"`)
	expectOK(t, envelope(t, msgs[1]), gateway.HelpTool, `"op":"onto.task.create"`, `"required":["project_id","title"]`,
		`"do":["User explicitly asks to create a task"`, `"dont":["Research/analysis requests you can do now"`)
	expectOK(t, envelope(t, msgs[2]), "onto.task.list", projectID, "Write API documentation")
	expectOK(t, envelope(t, msgs[3]), "onto.task.search")
	e := expectFail(t, envelope(t, msgs[4]), "onto.task.create", runtime.CodeValidation)
	if !reflect.DeepEqual(e.Details.Required, []string{"project_id", "title"}) || !strings.Contains(e.Message, "project_id") ||
		!strings.Contains(string(e.Details.Example), `"op":"onto.task.create"`) {
		t.Errorf("empty args error must name the required args with an example: %+v", e)
	}
	expectOK(t, envelope(t, msgs[5]), "onto.task.create", `"title":"Send the invoice to ACME"`)
	r.expectCalls(t, listTasks, searchDup, createTask)
}

func TestSurfaceGatewayWritesRefused(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.list","args":`+listArgs+`}`)).Expect(gatewayTools...),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.create","args":`+createArgs+`}`)).Expect(gatewayTools...),
		agenttest.Say("I may not create tasks in this session.").Expect(gatewayTools...),
	)
	r := &recorder{h: ontology.NewStore()}
	out := run(t, m, agent.WithTools(ontology.Gateway(r)...))
	msgs := toolMessages(t, out, 2)
	expectOK(t, envelope(t, msgs[0]), "onto.task.list", projectID)
	e := expectFail(t, envelope(t, msgs[1]), "onto.task.create", runtime.CodePermissionDenied)
	if !strings.Contains(e.Message, "write") {
		t.Errorf("refusal must say why: %q", e.Message)
	}
	// The refused write never reached the handlers.
	r.expectCalls(t, listTasks)
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
	r := &recorder{h: ontology.NewStore()}
	out := run(t, m, agent.WithTools(ontology.Facades(r)...))
	msgs := toolMessages(t, out, 4)
	contains(t, msgs[0], "onto", `unfolded into 8 "task" tools`, "list_onto_tasks [project_id:string]", "create_onto_task project_id:string title:string")
	contains(t, msgs[1], "list_onto_tasks", projectID)
	contains(t, msgs[3], "create_onto_task", "Send the invoice to ACME")
	r.expectCalls(t, listTasks, searchDup, createTask)
}

func TestSurfaceFacadesUnfoldAll(t *testing.T) {
	unfolded := append(opTools("onto"), "util")
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("onto", `{}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("list_onto_tasks", listArgs)).Expect(unfolded...),
		agenttest.Say("One task.").Expect(unfolded...),
	)
	r := &recorder{h: ontology.NewStore()}
	run(t, m, agent.WithTools(ontology.Facades(r)...))
	r.expectCalls(t, listTasks)
}

func TestSurfaceFacadesShortcut(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call("onto", `{"tool":"list_onto_tasks","args":`+listArgs+`}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("onto", `{"tool":"search_onto_tasks","args":`+searchArgs+`}`)).Expect(facadeTools...),
		agenttest.Calls(agenttest.Call("onto", `{"tool":"create_onto_task","args":`+createArgs+`}`)).Expect(facadeTools...),
		agenttest.Say("Added the task.").Expect(facadeTools...),
	)
	r := &recorder{h: ontology.NewStore()}
	out := run(t, m, agent.WithTools(ontology.Facades(r)...))
	msgs := toolMessages(t, out, 3)
	contains(t, msgs[0], "onto", projectID)
	contains(t, msgs[2], "onto", "Send the invoice to ACME")
	if !reflect.DeepEqual(out.Tools, facadeTools) {
		t.Errorf("shortcut calls must not unfold; toolbox at the end: %v", out.Tools)
	}
	r.expectCalls(t, listTasks, searchDup, createTask)
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
	r := &recorder{h: ontology.NewStore()}
	out := run(t, m, agent.WithPrompt(sectionsPrompt(t, r), taskParams{Objective: "Add a task to send the invoice to ACME by Friday."}))

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
	msgs := toolMessages(t, out, 3)
	contains(t, msgs[0], "list_onto_tasks", projectID, "Write API documentation")
	contains(t, msgs[2], "create_onto_task", "Send the invoice to ACME")
	r.expectCalls(t, listTasks, searchDup, createTask)
}
