package ontology_test

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// Ids of the demo project, spelled out so the JSON arguments read as a
// model would send them.
const (
	project   = ontology.DemoProjectID
	goal      = ontology.DemoGoalID
	plan      = ontology.DemoPlanID
	task      = ontology.DemoTaskID
	milestone = ontology.DemoMilestoneID
	risk      = ontology.DemoRiskID
	reqmt     = ontology.DemoRequirementID
	edge      = ontology.DemoEdgeID
	apiSpec   = ontology.APISpecID
	eng       = ontology.EngineeringFolderID
	design    = ontology.DesignFolderID
	unknown   = "99999999-9999-4999-8999-999999999999"
)

// ids replaces the names of demo ids in args ($project, $task, …) so the
// table below stays readable.
var ids = strings.NewReplacer(
	"$project", project, "$goal", goal, "$plan", plan, "$task", task, "$milestone", milestone,
	"$risk", risk, "$reqmt", reqmt, "$edge", edge, "$apiSpec", apiSpec, "$eng", eng, "$design", design, "$unknown", unknown,
)

// invoke runs one tool of tools with raw JSON args, as an orchestrator does
// for a model's tool call.
func invoke(t *testing.T, tools []runtime.Tool, name, args string) runtime.Result {
	t.Helper()
	i := slices.IndexFunc(tools, func(tl runtime.Tool) bool { return tl.Name == name })
	if i < 0 {
		t.Fatalf("no tool %s", name)
	}
	res, err := runtime.Dispatch(context.Background(), tools[i], runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(ids.Replace(args)))
	if err != nil {
		t.Fatalf("%s: dispatch propagated %v", name, err)
	}
	return res
}

// toolCase is one flat tool call against a fresh demo store.
type toolCase struct {
	tool, args string
	code       runtime.Code // "" for success
	want       []string     // substrings of the rendered result (or of the message on failure)
	absent     []string     // substrings the rendered result must not contain
}

// successes dispatch every tool once with realistic arguments.
var successes = []toolCase{
	{tool: "list_onto_tasks", args: `{"project_id": "$project", "state_key": "todo"}`, want: []string{"Write API documentation"}, absent: []string{"staging"}},
	{tool: "list_onto_goals", args: `{"project_id": "$project"}`, want: []string{"Ship public beta"}},
	{tool: "list_onto_documents", args: `{"type_key": "document.folder", "limit": 5}`, want: []string{"Engineering", "Design"}, absent: []string{"API Spec"}},
	{tool: "list_onto_milestones", args: `{}`, want: []string{"Beta launch"}},
	{tool: "list_onto_risks", args: `{"impact": "medium"}`, want: []string{"Staging costs exceed budget"}},
	{tool: "list_onto_requirements", args: `{"type_key": "requirement.non_functional"}`, want: []string{"under 200 ms"}},
	{tool: "list_onto_plans", args: `{"project_id": "$project"}`, want: []string{"Beta rollout"}},
	{tool: "list_onto_projects", args: `{"state_key": "active"}`, want: []string{"BuildOS Launch"}},
	{tool: "list_task_documents", args: `{"task_id": "$task"}`, want: []string{"API Spec", `"role":"reference"`}},
	{tool: "search_onto_tasks", args: `{"search": "STAGING", "project_id": "$project"}`, want: []string{"Set up staging environment"}, absent: []string{"Write API"}},
	{tool: "search_onto_projects", args: `{"search": "launch"}`, want: []string{"BuildOS Launch"}},
	{tool: "search_onto_documents", args: `{"search": "api spec", "limit": 10}`, want: []string{apiSpec}},
	{tool: "search_ontology", args: `{"query": "beta", "types": ["goal", "milestone"]}`, want: []string{"Ship public beta", "Beta launch"}, absent: []string{"Beta rollout"}},
	{tool: "get_onto_project_details", args: `{"project_id": "$project"}`, want: []string{`"counts":{`, `"task":3`}},
	{tool: "get_onto_project_graph", args: `{"project_id": "$project", "include_documents": true}`, want: []string{`"nodes":[`, edge, "API Spec"}},
	{tool: "get_onto_task_details", args: `{"task_id": "$task"}`, want: []string{"Write API documentation", edge}},
	{tool: "get_onto_goal_details", args: `{"goal_id": "$goal"}`, want: []string{`"children":[`, "Beta rollout"}},
	{tool: "get_onto_plan_details", args: `{"plan_id": "$plan"}`, want: []string{"Write API documentation", "Set up staging environment"}},
	{tool: "get_onto_document_details", args: `{"document_id": "$eng"}`, want: []string{"Architecture Overview", `"path":[`}},
	{tool: "get_onto_milestone_details", args: `{"milestone_id": "$milestone"}`, want: []string{"Beta launch"}},
	{tool: "get_onto_risk_details", args: `{"risk_id": "$risk"}`, want: []string{`"probability":0.3`}},
	{tool: "get_onto_requirement_details", args: `{"requirement_id": "$reqmt"}`, want: []string{`"moscow":"must"`}},
	{tool: "get_document_tree", args: `{"project_id": "$project"}`, want: []string{"Engineering", "Design"}, absent: []string{"API Spec", "Architecture"}},
	{tool: "get_document_path", args: `{"document_id": "$apiSpec"}`, want: []string{"API Spec"}},
	{tool: "get_entity_relationships", args: `{"entity_id": "$task", "entity_kind": "task", "direction": "in"}`, want: []string{edge, `"rel":"supports"`}},
	{tool: "get_linked_entities", args: `{"entity_id": "$task", "entity_kind": "task", "filter_kind": "document"}`, want: []string{"API Spec"}},
	{tool: "create_onto_task", args: `{"project_id": "$project", "title": "Call the venue", "due_at": "2026-07-01T10:00:00Z", "plan_id": "$plan", "goal_id": "$goal"}`, want: []string{"Call the venue", `"priority":3`, `"state_key":"todo"`}},
	{tool: "create_onto_goal", args: `{"project_id": "$project", "name": "Reach 1000 users", "target_date": "2026-12-31"}`, want: []string{"Reach 1000 users", "2026-12-31"}},
	{tool: "create_onto_plan", args: `{"project_id": "$project", "name": "Marketing push", "goal_id": "$goal"}`, want: []string{"Marketing push", goal}},
	{tool: "create_onto_document", args: `{"project_id": "$project", "title": "Runbook", "type_key": "document.spec", "parent_id": "$eng"}`, want: []string{"Runbook", eng}},
	{tool: "create_onto_project", args: `{"name": "Garden", "goals": ["Grow tomatoes", "Build a shed"]}`, want: []string{`"kind":"project"`, "Grow tomatoes", "Build a shed", `"state_key":"planning"`}},
	{tool: "create_task_document", args: `{"task_id": "$task", "title": "Endpoint notes", "content": "GET /tasks", "role": "research"}`, want: []string{"Endpoint notes", `"role":"research"`}},
	{tool: "update_onto_task", args: `{"task_id": "$task", "state_key": "done", "due_at": null}`, want: []string{`"state_key":"done"`, "Write API documentation"}, absent: []string{"due"}},
	{tool: "update_onto_project", args: `{"project_id": "$project", "state_key": "paused"}`, want: []string{`"state_key":"paused"`}},
	{tool: "update_onto_goal", args: `{"goal_id": "$goal", "target_date": "2026-10-01"}`, want: []string{"2026-10-01"}},
	{tool: "update_onto_plan", args: `{"plan_id": "$plan", "name": "Beta rollout v2"}`, want: []string{"Beta rollout v2"}},
	{tool: "update_onto_document", args: `{"document_id": "$apiSpec", "state_key": "review"}`, want: []string{`"state_key":"review"`, "Endpoints"}},
	{tool: "update_onto_milestone", args: `{"milestone_id": "$milestone", "state_key": "reached"}`, want: []string{`"state_key":"reached"`}},
	{tool: "update_onto_risk", args: `{"risk_id": "$risk", "probability": 0.6, "mitigation": "Scale staging down at night"}`, want: []string{`"probability":0.6`, "at night"}},
	{tool: "update_onto_requirement", args: `{"requirement_id": "$reqmt", "priority": "should"}`, want: []string{`"moscow":"should"`}},
	{tool: "delete_onto_task", args: `{"task_id": "$task"}`, want: []string{`"deleted":"` + task}},
	{tool: "delete_onto_document", args: `{"document_id": "$apiSpec"}`, want: []string{`"deleted":"` + apiSpec}},
	{tool: "delete_onto_goal", args: `{"goal_id": "$goal"}`, want: []string{`"kind":"goal"`}},
	{tool: "delete_onto_plan", args: `{"plan_id": "$plan"}`, want: []string{`"kind":"plan"`}},
	{tool: "link_onto_entities", args: `{"src_id": "$reqmt", "src_kind": "requirement", "dst_id": "$task", "dst_kind": "task", "rel": "references"}`, want: []string{`"rel":"references"`}},
	{tool: "unlink_onto_edge", args: `{"edge_id": "$edge"}`, want: []string{edge}},
	{tool: "reorganize_onto_project_graph", args: `{"project_id": "$project", "moves": [{"entity_id": "$apiSpec", "new_parent_id": "$eng"}]}`, want: []string{`"applied":true`, `"to_parent_id":"` + eng}},
	{tool: "move_document_in_tree", args: `{"project_id": "$project", "document_id": "$apiSpec", "new_parent_id": "$eng", "position": 0}`, want: []string{`"title":"Engineering"`, `"title":"API Spec"`}},
	{tool: "get_field_info", args: `{"entity_type": "task", "field": "state_key"}`, want: []string{"in_progress"}},
	{tool: "web_search", args: `{"query": "how to launch a public beta", "max_results": 2}`, want: []string{"https://news.example.com/beta-launch"}},
	{tool: "web_visit", args: `{"url": "https://docs.example.com/api-design"}`, want: []string{"error"}},
	{tool: "get_buildos_overview", args: `{}`, want: []string{"ontology"}},
	{tool: "get_buildos_usage_guide", args: `{"topic": "tasks"}`, want: []string{"future human action"}},
}

// failures are the refusals the handlers own: unknown ids, duplicates and
// moves that do not fit the tree.
var failures = []toolCase{
	{tool: "get_onto_task_details", args: `{"task_id": "$unknown"}`, code: runtime.CodeNotFound, want: []string{"no task"}},
	{tool: "get_onto_task_details", args: `{"task_id": "$apiSpec"}`, code: runtime.CodeNotFound},
	{tool: "list_onto_tasks", args: `{"project_id": "$unknown"}`, code: runtime.CodeNotFound, want: []string{"no project"}},
	{tool: "get_entity_relationships", args: `{"entity_id": "$task", "entity_kind": "document"}`, code: runtime.CodeNotFound},
	{tool: "update_onto_risk", args: `{"risk_id": "$unknown", "impact": "high"}`, code: runtime.CodeNotFound},
	{tool: "delete_onto_plan", args: `{"plan_id": "$unknown"}`, code: runtime.CodeNotFound},
	{tool: "unlink_onto_edge", args: `{"edge_id": "$unknown"}`, code: runtime.CodeNotFound},
	{tool: "create_onto_task", args: `{"project_id": "$project", "title": "write api documentation"}`, code: runtime.CodeConflict, want: []string{task}},
	{tool: "create_onto_task", args: `{"project_id": "$project", "title": "Call", "goal_id": "$unknown"}`, code: runtime.CodeNotFound},
	{tool: "create_onto_task", args: `{"project_id": "$unknown", "title": "Call"}`, code: runtime.CodeNotFound},
	{tool: "create_onto_document", args: `{"project_id": "$project", "title": "Child", "parent_id": "$apiSpec"}`, code: runtime.CodeValidation, want: []string{"not a folder"}},
	{tool: "create_task_document", args: `{"task_id": "$task", "document_id": "$apiSpec"}`, code: runtime.CodeConflict, want: []string{"already attached"}},
	{tool: "create_task_document", args: `{"task_id": "$task"}`, code: runtime.CodeValidation, want: []string{"title"}},
	{tool: "link_onto_entities", args: `{"src_id": "$apiSpec", "src_kind": "document", "dst_id": "$task", "dst_kind": "task", "rel": "supports"}`, code: runtime.CodeConflict},
	{tool: "delete_onto_document", args: `{"document_id": "$eng"}`, code: runtime.CodeConflict, want: []string{"still holds"}},
	{tool: "move_document_in_tree", args: `{"project_id": "$project", "document_id": "$eng", "new_parent_id": "$eng"}`, code: runtime.CodeConflict},
	{tool: "move_document_in_tree", args: `{"project_id": "$project", "document_id": "$unknown", "new_parent_id": null}`, code: runtime.CodeNotFound},
	{tool: "reorganize_onto_project_graph", args: `{"project_id": "$project", "moves": [{"entity_id": "$task", "new_parent_id": "$goal"}]}`, code: runtime.CodeNotFound, want: []string{"moves[0]", "no plan"}},
	{tool: "reorganize_onto_project_graph", args: `{"project_id": "$project", "moves": [{"entity_id": "$risk", "new_parent_id": "$goal"}]}`, code: runtime.CodeValidation, want: []string{"has no parent"}},
	{tool: "reorganize_onto_project_graph", args: `{"project_id": "$project", "moves": [{"entity_id": "$eng", "new_parent_id": "$design"}, {"entity_id": "$design", "new_parent_id": "$eng"}]}`, code: runtime.CodeConflict, want: []string{"moves[1]"}},
	{tool: "get_field_info", args: `{"entity_type": "task", "field": "colour"}`, code: runtime.CodeNotFound, want: []string{"priority, state_key"}},
	{tool: "web_visit", args: `{"url": "https://elsewhere.example.org/"}`, code: runtime.CodeNotFound, want: []string{"offline"}},
	{tool: "get_buildos_usage_guide", args: `{"topic": "billing"}`, code: runtime.CodeNotFound},
	{tool: "update_onto_task", args: `{"task_id": "$task", "priority": 9, "stat_key": "done"}`, code: runtime.CodeValidation, want: []string{"/priority", "/stat_key"}},
}

func TestEveryTool(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range append(successes, failures...) {
		if c.code == "" {
			covered[c.tool] = true
		}
		t.Run(c.tool, func(t *testing.T) {
			res := invoke(t, ontology.Tools(ontology.NewStore()), c.tool, c.args)
			got := res.Message
			if res.Success {
				got = runtime.RenderValue(res.Value)
			}
			if code := runtime.CodeOf(res.Err); res.Success != (c.code == "") || code != c.code {
				t.Fatalf("%s: success %v code %q, want code %q: %s", c.args, res.Success, code, c.code, got)
			}
			for _, w := range c.want {
				if !strings.Contains(got, w) {
					t.Errorf("%s: want %q in %s", c.args, w, got)
				}
			}
			for _, a := range c.absent {
				if strings.Contains(got, a) {
					t.Errorf("%s: want no %q in %s", c.args, a, got)
				}
			}
			checkResultSchema(t, c.tool, res)
		})
	}
	tools := ontology.Tools(ontology.NewStore())
	if len(tools) != 53 {
		t.Errorf("%d tools, want 53", len(tools))
	}
	for _, tl := range tools {
		if !covered[tl.Name] {
			t.Errorf("tool %s has no success case", tl.Name)
		}
	}
}

// TestStoreState checks that writes through the flat tools are visible to
// later reads: tree moves, positions, cascading deletes.
func TestStoreState(t *testing.T) {
	tools := ontology.Tools(ontology.NewStore())
	read := func(tool, args string) string {
		t.Helper()
		res := invoke(t, tools, tool, args)
		if !res.Success {
			t.Fatalf("%s %s: %s", tool, args, res.Message)
		}
		return runtime.RenderValue(res.Value)
	}
	if res := invoke(t, tools, "reorganize_onto_project_graph", `{"project_id": "$project", "moves": [{"entity_id": "$eng", "new_parent_id": "$design"}, {"entity_id": "$apiSpec", "new_parent_id": "$apiSpec"}]}`); res.Success {
		t.Fatal("a reorganisation with an invalid move succeeded")
	}
	if got := read("get_document_path", `{"document_id": "$eng"}`); strings.Contains(got, "Design") {
		t.Errorf("a failed reorganisation left its first move applied: %s", got)
	}
	read("move_document_in_tree", `{"project_id": "$project", "document_id": "$apiSpec", "new_parent_id": "$eng", "position": 0}`)
	tree := read("get_document_tree", `{"project_id": "$project", "include_documents": true}`)
	if i, j := strings.Index(tree, "API Spec"), strings.Index(tree, "Architecture Overview"); i < 0 || j < i {
		t.Errorf("API Spec should come first under Engineering: %s", tree)
	}
	if got := read("get_document_tree", `{"project_id": "$project", "include_documents": true, "max_depth": 1}`); strings.Contains(got, "API Spec") {
		t.Errorf("max_depth 1 shows only the root: %s", got)
	}
	read("move_document_in_tree", `{"project_id": "$project", "document_id": "$apiSpec", "new_parent_id": null}`)
	if got := read("get_document_path", `{"document_id": "$apiSpec"}`); strings.Contains(got, "Engineering") {
		t.Errorf("null parent moves to the root: %s", got)
	}

	read("delete_onto_document", `{"document_id": "$apiSpec"}`)
	if got := read("get_entity_relationships", `{"entity_id": "$task", "entity_kind": "task"}`); got != "[]" {
		t.Errorf("deleting a document removes its edges: %s", got)
	}
	if got := read("list_task_documents", `{"task_id": "$task"}`); got != "[]" {
		t.Errorf("deleting a document detaches it from tasks: %s", got)
	}
	if got := read("search_ontology", `{"query": "api spec"}`); got != "[]" {
		t.Errorf("deleted document still found: %s", got)
	}

	read("delete_onto_plan", `{"plan_id": "$plan"}`)
	if got := read("get_onto_task_details", `{"task_id": "$task"}`); strings.Contains(got, "parent_id") {
		t.Errorf("deleting a plan detaches its tasks: %s", got)
	}

	created := read("create_task_document", `{"task_id": "$task", "title": "Endpoint notes"}`)
	if !strings.Contains(read("list_task_documents", `{"task_id": "$task"}`), "Endpoint notes") || !strings.Contains(created, `"role":"draft"`) {
		t.Errorf("created task document not attached: %s", created)
	}
}

// gw calls one gateway tool and decodes its envelope.
func gw(t *testing.T, tools []runtime.Tool, name, args string) gateway.Envelope {
	t.Helper()
	res := invoke(t, tools, name, args)
	var env gateway.Envelope
	if err := json.Unmarshal([]byte(runtime.RenderValue(res.Value)), &env); err != nil {
		t.Fatalf("%s %s: not an envelope: %v (%+v)", name, args, err, res)
	}
	if (name == gateway.ExecTool || name == gateway.BatchTool) && (env.Meta == nil || env.Meta.TraceID == "") {
		t.Errorf("%s %s: envelope without meta.trace_id", name, args)
	}
	if !env.OK && (env.Error == nil || env.Error.HelpPath == "" && env.Op != "") {
		t.Errorf("%s %s: failed envelope without help_path: %+v", name, args, env.Error)
	}
	return env
}

// must fails the test unless env is ok, and decodes its result into v.
func must(t *testing.T, env gateway.Envelope, v any) {
	t.Helper()
	if !env.OK {
		t.Fatalf("%s failed: %+v", env.Op, env.Error)
	}
	if err := json.Unmarshal(env.Result, v); err != nil {
		t.Fatalf("%s result: %v: %s", env.Op, err, env.Result)
	}
}

// TestSpecScenario runs spec 004 §9 through the gateway: "Move the 'API
// Spec' doc under 'Engineering' folder".
func TestSpecScenario(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true))
	if len(tools) != 4 {
		t.Fatalf("gateway has %d tools, want 4", len(tools))
	}

	// 1. Find the document.
	env := gw(t, tools, "tool_exec", `{"op": "onto.document.search", "args": {"search": "API Spec", "limit": 10}}`)
	var found []struct {
		ID        string
		ProjectID string `json:"project_id"`
	}
	must(t, env, &found)
	if env.Op != "onto.document.search" || len(found) != 1 || found[0].ID != apiSpec {
		t.Fatalf("search: %s", env.Result)
	}
	doc := found[0]

	// 2. Learn the move op, 3. read the tree: one batch (§8.3).
	env = gw(t, tools, "tool_batch", `{"items": [
		{"tool": "help", "path": "onto.document.tree.move", "format": "short"},
		{"tool": "exec", "op": "onto.document.tree.get", "args": {"project_id": "`+doc.ProjectID+`", "include_documents": true}}]}`)
	var batch struct{ Results []gateway.Envelope }
	must(t, env, &batch)
	if len(batch.Results) != 2 {
		t.Fatalf("batch: %s", env.Result)
	}
	var help struct {
		Usage string
		Args  []struct {
			Name     string
			Required bool
		}
		Examples []struct {
			Args json.RawMessage
		}
	}
	must(t, batch.Results[0], &help)
	var required []string
	for _, a := range help.Args {
		if a.Required {
			required = append(required, a.Name)
		}
	}
	if !slices.Equal(required, []string{"project_id", "document_id", "new_parent_id"}) || len(help.Examples) == 0 ||
		!strings.HasPrefix(help.Usage, "onto.document.tree.move ") {
		t.Errorf("move help: %s", batch.Results[0].Result)
	}
	type node struct {
		ID, Title string
		Children  []node
	}
	var tree []node
	must(t, batch.Results[1], &tree)
	folder := ""
	for _, n := range tree {
		if n.Title == "Engineering" {
			folder = n.ID
		}
	}
	if folder != eng {
		t.Fatalf("no Engineering folder at the root of %s", batch.Results[1].Result)
	}

	// 4. Move it.
	env = gw(t, tools, "tool_exec", `{"op": "onto.document.tree.move", "args": {"project_id": "`+doc.ProjectID+`", "document_id": "`+doc.ID+`", "new_parent_id": "`+folder+`"}}`)
	var path []struct{ Title string }
	must(t, env, &path)
	if env.Meta.DryRun || len(path) != 2 || path[0].Title != "Engineering" || path[1].Title != "API Spec" {
		t.Fatalf("move: dry_run %v, %s", env.Meta.DryRun, env.Result)
	}
	env = gw(t, tools, "tool_exec", `{"op": "onto.document.path.get", "args": {"document_id": "`+doc.ID+`"}}`)
	if must(t, env, &path); len(path) != 2 {
		t.Errorf("path after the move: %s", env.Result)
	}
}

func TestGatewayRefusesWritesByDefault(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore())
	env := gw(t, tools, "tool_exec", `{"op": "onto.task.create", "args": {"project_id": "$project", "title": "Call the venue"}}`)
	if env.OK || env.Error.Code != runtime.CodePermissionDenied || env.Error.HelpPath != "onto.task.create" {
		t.Fatalf("write without WithWrites: %+v", env.Error)
	}
	env = gw(t, tools, "tool_exec", `{"op": "onto.task.search", "args": {"search": "venue"}}`)
	if !env.OK || string(env.Result) != "[]" {
		t.Fatalf("refused write left a trace, or reads refused: %+v %s", env.Error, env.Result)
	}
	// A dry run writes nothing: it runs when writes are disabled.
	env = gw(t, tools, "tool_exec", `{"op": "onto.project.graph.reorganize", "dry_run": true, "args": {"project_id": "$project", "moves": [{"entity_id": "$apiSpec", "new_parent_id": "$eng"}]}}`)
	if !env.OK || env.Meta == nil || !env.Meta.DryRun {
		t.Fatalf("a dry run with writes disabled: %+v %+v", env.Error, env.Meta)
	}
	env = gw(t, tools, "tool_exec", `{"op": "onto.project.graph.reorganize", "dry_run": false, "args": {"project_id": "$project", "moves": [{"entity_id": "$apiSpec", "new_parent_id": "$eng"}]}}`)
	if env.OK || env.Error.Code != runtime.CodePermissionDenied {
		t.Fatalf("a write op without dry run: %+v", env.Error)
	}
}

// TestReorganizeDryRunDefault: onto.project.graph.reorganize runs as a dry
// run unless the call says dry_run false (spec 004 §6.3), and the handler
// sees it.
func TestReorganizeDryRunDefault(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true))
	reorganize := `{"op": "onto.project.graph.reorganize", %s "args": {"project_id": "$project", "moves": [{"entity_id": "$apiSpec", "new_parent_id": "$eng"}]}}`
	parentOfSpec := func() string {
		var path []struct{ ID string }
		must(t, gw(t, tools, "tool_exec", `{"op": "onto.document.path.get", "args": {"document_id": "$apiSpec"}}`), &path)
		if len(path) < 2 {
			return ""
		}
		return path[len(path)-2].ID
	}

	var plan struct {
		Applied bool
		Moves   []struct {
			EntityID   string `json:"entity_id"`
			ToParentID string `json:"to_parent_id"`
		}
	}
	env := gw(t, tools, "tool_exec", strings.Replace(reorganize, "%s", "", 1))
	must(t, env, &plan)
	if !env.Meta.DryRun || plan.Applied || len(plan.Moves) != 1 || plan.Moves[0].ToParentID != eng {
		t.Fatalf("default: dry_run %v, %s", env.Meta.DryRun, env.Result)
	}
	if !slices.ContainsFunc(env.Meta.Warnings, func(w string) bool { return strings.Contains(w, "dry_run") }) {
		t.Errorf("no warning about the defaulted dry_run: %v", env.Meta.Warnings)
	}
	if p := parentOfSpec(); p != "" {
		t.Fatalf("dry run moved the document under %s", p)
	}

	env = gw(t, tools, "tool_exec", strings.Replace(reorganize, "%s", `"dry_run": false,`, 1))
	must(t, env, &plan)
	if env.Meta.DryRun || !plan.Applied || parentOfSpec() != eng {
		t.Fatalf("dry_run false: dry_run %v, %s", env.Meta.DryRun, env.Result)
	}
}

// TestDryRunWrites: every write handler honours an explicit dry_run.
func TestDryRunWrites(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true))
	for _, call := range []string{
		`{"op": "onto.task.delete", "dry_run": true, "args": {"task_id": "$task"}}`,
		`{"op": "onto.task.update", "dry_run": true, "args": {"task_id": "$task", "title": "Renamed"}}`,
		`{"op": "onto.task.create", "dry_run": true, "args": {"project_id": "$project", "title": "Renamed"}}`,
		`{"op": "onto.edge.unlink", "dry_run": true, "args": {"edge_id": "$edge"}}`,
		`{"op": "onto.document.tree.move", "dry_run": true, "args": {"project_id": "$project", "document_id": "$apiSpec", "new_parent_id": "$eng"}}`,
		`{"op": "onto.task.doc.create_or_attach", "dry_run": true, "args": {"task_id": "$task", "title": "Renamed"}}`,
	} {
		env := gw(t, tools, "tool_exec", call)
		if !env.OK || !env.Meta.DryRun || !strings.HasPrefix(env.Meta.Message, "dry run: would ") {
			t.Errorf("%s: %+v %+v", call, env.Error, env.Meta)
		}
	}
	var details struct {
		Title string
		Edges []struct{ ID string }
	}
	must(t, gw(t, tools, "tool_exec", `{"op": "onto.task.get", "args": {"task_id": "$task"}}`), &details)
	if details.Title != "Write API documentation" || len(details.Edges) != 1 {
		t.Errorf("dry runs changed the task: %+v", details)
	}
	env := gw(t, tools, "tool_exec", `{"op": "onto.search", "args": {"query": "renamed"}}`)
	if string(env.Result) != "[]" {
		t.Errorf("dry runs created entities: %s", env.Result)
	}
}

func TestHelp(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore())
	type policy struct {
		Do        []string
		Dont      []string
		EdgeCases []string `json:"edge_cases"`
	}
	var help struct {
		Op    string
		Kind  string
		Usage string
		Args  []struct {
			Name     string
			Required bool
		}
		Policy   *policy
		Examples []struct {
			Args map[string]any
		}
	}
	must(t, gw(t, tools, "tool_help", `{"path": "onto.task.create", "format": "short"}`), &help)
	var required []string
	for _, a := range help.Args {
		if a.Required {
			required = append(required, a.Name)
		}
	}
	if help.Op != "onto.task.create" || help.Kind != "write" || !slices.Equal(required, []string{"project_id", "title"}) {
		t.Errorf("onto.task.create help: %+v", help)
	}
	if p := help.Policy; p == nil || !slices.Contains(p.Do, "User explicitly asks to create a task") ||
		!slices.Contains(p.Dont, "Creating tasks to look helpful") || len(p.EdgeCases) == 0 {
		t.Errorf("onto.task.create policy: %+v", help.Policy)
	}
	if len(help.Examples) == 0 || help.Examples[0].Args["project_id"] == nil || help.Examples[0].Args["title"] == nil {
		t.Errorf("onto.task.create example: %+v", help.Examples)
	}

	help.Policy = nil
	must(t, gw(t, tools, "tool_help", `{"path": "onto.project.create"}`), &help)
	if help.Policy == nil || len(help.Policy.Do) == 0 || len(help.Policy.Dont) == 0 {
		t.Errorf("onto.project.create policy (extracted from the description): %+v", help.Policy)
	}

	// The onto directory names its entities in one call (§8.2).
	env := gw(t, tools, "tool_help", `{"path": "onto"}`)
	for _, entity := range []string{"task", "project", "document", "goal", "plan", "milestone", "risk", "requirement", "edge"} {
		if !strings.Contains(string(env.Result), `"`+entity+`"`) {
			t.Errorf("onto help does not list %s: %s", entity, env.Result)
		}
	}
}

// TestErrorsCarryHelpPath: validation and handler errors point at the op's
// help (spec 004 §2.2, §11).
func TestErrorsCarryHelpPath(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true))
	for _, c := range []struct {
		call, op string
		code     runtime.Code
		field    string
	}{
		{`{"op": "onto.task.update", "args": {"task_id": "$task", "priority": 0, "state_key": "finished"}}`, "onto.task.update", runtime.CodeValidation, "/priority"},
		{`{"op": "onto.task.create", "args": {"project_id": "not-a-uuid"}}`, "onto.task.create", runtime.CodeValidation, "/title"},
		{`{"op": "onto.document.tree.move", "args": {"project_id": "$project", "document_id": "$apiSpec"}}`, "onto.document.tree.move", runtime.CodeValidation, "/new_parent_id"},
		{`{"op": "onto.task.get", "args": {"task_id": "$unknown"}}`, "onto.task.get", runtime.CodeNotFound, ""},
		{`{"op": "onto.task.create", "args": {"project_id": "$project", "title": "Write API documentation"}}`, "onto.task.create", runtime.CodeConflict, ""},
	} {
		env := gw(t, tools, "tool_exec", c.call)
		if env.OK || env.Error.Code != c.code || env.Error.HelpPath != c.op {
			t.Errorf("%s: %+v", c.call, env.Error)
			continue
		}
		if c.field != "" && !slices.ContainsFunc(env.Error.Details.FieldErrors, func(f runtime.FieldError) bool { return f.Path == c.field }) {
			t.Errorf("%s: no field error at %s: %+v", c.call, c.field, env.Error.Details.FieldErrors)
		}
		if c.code == runtime.CodeValidation && len(env.Error.Details.Example) == 0 {
			t.Errorf("%s: validation error without a ready-to-run example", c.call)
		}
	}
}

// TestSearch: tool_search finds the ops of spec 004 §9 by words.
func TestSearch(t *testing.T) {
	tools := ontology.Gateway(ontology.NewStore())
	for query, op := range map[string]string{
		"move a document into another folder": "onto.document.tree.move",
		"find a document by name":             "onto.document.search",
	} {
		env := gw(t, tools, "tool_search", `{"query": "`+query+`"}`)
		if !strings.Contains(string(env.Result), `"`+op+`"`) {
			t.Errorf("search %q: want %s in %s", query, op, env.Result)
		}
	}
}

// checkResultSchema validates a successful result against the tool's
// result schema (manifest result_schema), when it has one.
func checkResultSchema(t *testing.T, tool string, res runtime.Result) {
	t.Helper()
	var def runtime.Tool
	for _, tl := range ontology.Tools(ontology.UnimplementedHandlers{}) {
		if tl.Name == tool {
			def = tl
		}
	}
	if !res.Success || def.ResultSchema == nil {
		return
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(def.ResultSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("result.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("result.json")
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(runtime.RenderValue(res.Value)))
	if err != nil {
		t.Fatalf("%s result is not JSON: %v", tool, err)
	}
	if err := sch.Validate(inst); err != nil {
		t.Errorf("%s result does not match its result schema: %v", tool, err)
	}
}
