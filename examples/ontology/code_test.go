package ontology_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/tiktoken-go/tokenizer"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/codemode"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/gateway/gatewaytest"
)

// stagingTaskID is the id NewStore gives the "Set up staging environment"
// task.
const stagingTaskID = ontology.DemoStagingTaskID

var codeTools = []string{codemode.CodeTool, codemode.HelpTool}

// The handler calls of the three-op task: search, read, update.
var (
	searchStaging = agenttest.Handled("search_onto_tasks", &ontology.SearchOntoTasksParams{Search: "staging", ProjectID: ptr(projectID), Limit: 10})
	getStaging    = agenttest.Handled("get_onto_task_details", &ontology.GetOntoTaskDetailsParams{TaskID: stagingTaskID})
	doneStaging   = agenttest.Handled("update_onto_task", &ontology.UpdateOntoTaskParams{TaskID: stagingTaskID, StateKey: ptr(ontology.UpdateOntoTaskStateKeyDone)})
)

// threeOps is the script of the three-op task (testdata/three_ops.ts; the
// golden TypeScript test type-checks it against the declarations).
func threeOps(t testing.TB) string {
	t.Helper()
	b, err := os.ReadFile("testdata/three_ops.ts")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func scriptCall(t testing.TB, script string) runtime.ToolCall {
	t.Helper()
	b, err := json.Marshal(map[string]string{"script": script})
	if err != nil {
		t.Fatal(err)
	}
	return agenttest.Call(codemode.CodeTool, string(b))
}

// decodeOutcome reads a tool_code answer.
func decodeOutcome(t testing.TB, content string) codemode.Outcome {
	t.Helper()
	var o codemode.Outcome
	if err := json.Unmarshal([]byte(content), &o); err != nil {
		t.Fatalf("tool_code answer is not an outcome: %v\n%s", err, content)
	}
	return o
}

// TestSurfaceCode: the model reads the task declarations, then one script
// searches, reads and updates; the handlers see exactly those three calls.
func TestSurfaceCode(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(codemode.HelpTool, `{"path":"onto.task"}`)).Expect(codeTools...),
		agenttest.Calls(scriptCall(t, threeOps(t))).Expect(codeTools...),
		agenttest.Say("The staging task is done.").Expect(codeTools...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Code(ontology.NewStore(), codemode.WithWrites(true))...))
	msgs := agenttest.ExpectToolMessages(t, out, 2)
	agenttest.Contains(t, msgs[0], codemode.HelpTool, "declare const onto: {", "search(args: onto.SearchOntoTasksParams): Promise<unknown>;",
		"update(args: onto.UpdateOntoTaskParams, options?: CallOptions): Promise<onto.UpdateOntoTaskResult>;", `state_key?: onto.UpdateOntoTaskStateKey;`,
		`type UpdateOntoTaskStateKey = "todo" | "in_progress" | "blocked" | "done";`)
	if strings.Contains(msgs[0].Content, "goal:") || strings.Contains(msgs[0].Content, "interface ListOntoGoalsParams") {
		t.Errorf("help for onto.task shows other entities:\n%s", msgs[0].Content)
	}
	o := decodeOutcome(t, msgs[1].Content)
	if !o.OK || o.OpCalls != 3 || string(o.Result) != `{"id":"`+stagingTaskID+`","state_key":"done"}` ||
		o.Console != "Set up staging environment: in_progress -> done\n" {
		t.Errorf("outcome = %s", msgs[1].Content)
	}
	rec.Expect(t, searchStaging, getStaging, doneStaging)
}

// TestSurfaceCodeBoot: tool_code's description names the groups; help
// with no path lists them; an unknown path is NOT_FOUND with paths.
func TestSurfaceCodeBoot(t *testing.T) {
	tools := ontology.Code(ontology.NewStore())
	desc := tools[0].Description
	for _, w := range []string{"onto (48 ops", "util (5 ops", codemode.HelpTool} {
		if !strings.Contains(desc, w) {
			t.Errorf("tool_code description lacks %q: %s", w, desc)
		}
	}
	m := agenttest.New(
		agenttest.Calls(agenttest.Call(codemode.HelpTool, `{}`), agenttest.Call(codemode.HelpTool, `{"path":"onto.tsk"}`),
			agenttest.Call(codemode.HelpTool, `{"path":"util.web.search"}`)),
		agenttest.Say("ok"),
	)
	out, rec := run(t, m, agent.WithTools(tools...))
	msgs := agenttest.ExpectToolMessages(t, out, 3)
	agenttest.Contains(t, msgs[0], codemode.HelpTool, "- onto: 48 ops", "onto.task", "- util: 5 ops")
	agenttest.Contains(t, msgs[1], codemode.HelpTool, "NOT_FOUND", "onto.task")
	agenttest.Contains(t, msgs[2], codemode.HelpTool, "declare const util: {", "web: {", "search(args: util.WebSearchParams)")
	if strings.Contains(msgs[2].Content, "visit(") {
		t.Errorf("op help shows a sibling op:\n%s", msgs[2].Content)
	}
	rec.Expect(t)
}

// TestSurfaceCodeWritesRefused: without writes the update is refused by
// the gateway's write gate; the reads ran, the write never reached its
// handler, and the script's uncaught error carries the envelope.
func TestSurfaceCodeWritesRefused(t *testing.T) {
	m := agenttest.New(
		agenttest.Calls(scriptCall(t, threeOps(t))).Expect(codeTools...),
		agenttest.Say("I may not change tasks in this session.").Expect(codeTools...),
	)
	out, rec := run(t, m, agent.WithTools(ontology.Code(ontology.NewStore())...))
	o := decodeOutcome(t, agenttest.ExpectToolMessages(t, out, 1)[0].Content)
	if o.OK || o.Error == nil || o.Error.Code != string(runtime.CodePermissionDenied) || o.Error.Op != "onto.task.update" ||
		o.Error.OpError == nil || o.Error.OpError.HelpPath != "onto.task.update" || o.OpCalls != 3 || o.Error.Line != 6 {
		t.Errorf("outcome = %+v, error %+v", o, o.Error)
	}
	rec.Expect(t, searchStaging, getStaging)
}

// TestSurfaceCodeDryRunAndIdempotency: a write op's second argument sets
// dry_run and idempotency_key exactly as tool_exec's fields do.
func TestSurfaceCodeDryRunAndIdempotency(t *testing.T) {
	store := ontology.NewStore()
	tools := ontology.Code(store, codemode.WithWrites(true))
	script := `
const a = await onto.task.update({task_id: "` + stagingTaskID + `", state_key: "done"}, {dry_run: true});
const before = (await onto.task.get({task_id: "` + stagingTaskID + `"}) as any).state_key;
const k1 = await onto.task.update({task_id: "` + stagingTaskID + `", title: "Staging"}, {idempotency_key: "k1"});
const k2 = await onto.task.update({task_id: "` + stagingTaskID + `", title: "Staging"}, {idempotency_key: "k1"});
let conflict = "";
try { await onto.task.update({task_id: "` + stagingTaskID + `", title: "Other"}, {idempotency_key: "k1"}); }
catch (e: any) { conflict = e.code; }
return {before, conflict, same: JSON.stringify(k1) === JSON.stringify(k2)};`
	m := agenttest.New(agenttest.Calls(scriptCall(t, script)), agenttest.Say("ok"))
	out, rec := run(t, m, agent.WithTools(tools...))
	o := decodeOutcome(t, agenttest.ExpectToolMessages(t, out, 1)[0].Content)
	if !o.OK || string(o.Result) != `{"before":"in_progress","conflict":"CONFLICT","same":true}` {
		t.Errorf("outcome = %+v %+v", o, o.Error)
	}
	if len(o.Notes) != 1 || o.Notes[0] != "onto.task.update ran as a dry run: its handler was asked to change nothing" {
		t.Errorf("notes = %q", o.Notes)
	}
	// The dry run and the first keyed update reached the handler; the
	// replay and the conflicting reuse did not.
	if got := len(rec.Calls()); got != 3 {
		t.Errorf("%d handler calls, want 3 (dry run, get, first keyed update): %v", got, rec.Calls())
	}
}

// TestSurfaceCodeDryRunDefault: an op that defaults to a dry run says so
// in the outcome's notes, as tool_exec says it in its warnings.
func TestSurfaceCodeDryRunDefault(t *testing.T) {
	m := agenttest.New(agenttest.Calls(scriptCall(t, `return await onto.project.graph.reorganize({project_id: "`+projectID+`", moves: [{entity_id: "`+ontology.DemoTaskID+`", new_parent_id: "`+ontology.DemoPlanID+`"}]})`)), agenttest.Say("ok"))
	out, _ := run(t, m, agent.WithTools(ontology.Code(ontology.NewStore(), codemode.WithWrites(true))...))
	o := decodeOutcome(t, agenttest.ExpectToolMessages(t, out, 1)[0].Content)
	joined := strings.Join(o.Notes, "\n")
	if !strings.Contains(joined, "dry_run defaulted to true") || !strings.Contains(joined, "ran as a dry run") {
		t.Errorf("outcome = %+v %+v", o, o.Error)
	}
}

// TestCodeTokensVersusGateway compares what the model reads back for the
// three-op task: one tool_code answer against three tool_exec envelopes.
func TestCodeTokensVersusGateway(t *testing.T) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	count := func(msgs []agent.Message) int {
		n := 0
		for _, m := range msgs {
			c, _ := codec.Count(m.Content)
			n += c
		}
		return n
	}
	code := agenttest.New(agenttest.Calls(scriptCall(t, threeOps(t))), agenttest.Say("done"))
	codeOut, codeRec := run(t, code, agent.WithTools(ontology.Code(ontology.NewStore(), codemode.WithWrites(true))...))
	gw := agenttest.New(
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.search","args":{"search":"staging","project_id":"`+projectID+`"}}`)),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.get","args":{"task_id":"`+stagingTaskID+`"}}`)),
		agenttest.Calls(agenttest.Call(gateway.ExecTool, `{"op":"onto.task.update","args":{"task_id":"`+stagingTaskID+`","state_key":"done"}}`)),
		agenttest.Say("done"),
	)
	gwOut, gwRec := run(t, gw, agent.WithTools(ontology.Gateway(ontology.NewStore(), gateway.WithWrites(true))...))
	gwMsgs := agenttest.ExpectToolMessages(t, gwOut, 3)
	for i, m := range gwMsgs {
		gatewaytest.ExpectOK(t, m.Content, []string{"onto.task.search", "onto.task.get", "onto.task.update"}[i])
	}
	codeRec.Expect(t, searchStaging, getStaging, doneStaging)
	gwRec.Expect(t, searchStaging, getStaging, doneStaging)

	codeTok, gwTok := count(agenttest.ExpectToolMessages(t, codeOut, 1)), count(gwMsgs)
	// The script's own call costs tokens the model writes; count them too.
	scriptTok, _ := codec.Count(threeOps(t))
	var gwArgs int
	for _, m := range gwOut.Messages {
		for _, c := range m.ToolCalls {
			n, _ := codec.Count(string(c.Args))
			gwArgs += n
		}
	}
	bootCode, _ := codec.Count(string(ontology.CodeDefinitions()))
	bootGW, _ := codec.Count(string(ontology.GatewayDefinitions()))
	t.Logf("results read back: code %d tokens in 1 answer, gateway %d tokens in 3 answers", codeTok, gwTok)
	t.Logf("calls written: code %d tokens (script), gateway %d tokens (3 exec args)", scriptTok, gwArgs)
	t.Logf("boot definitions: code %d tokens (2 tools), gateway %d tokens (4 tools)", bootCode, bootGW)
	if codeTok >= gwTok {
		t.Errorf("the script's answer (%d tokens) should cost less than three exec answers (%d)", codeTok, gwTok)
	}
}
