package gateway

import (
	"encoding/json"
	"strings"
	"testing"
)

// step is one tool call of a scripted conversation and what the model must
// read back: values at slash paths of the decoded answer, and substrings.
type step struct {
	tool, args string
	want       map[string]any
	contains   []string
	absent     []string
}

func play(t *testing.T, h *harness, steps []step) {
	t.Helper()
	for i, s := range steps {
		text := h.call(s.tool, s.args)
		var got any
		if err := json.Unmarshal([]byte(text), &got); err != nil {
			t.Fatalf("step %d %s(%s): answer is not JSON: %v\n%s", i, s.tool, s.args, err, text)
		}
		for path, want := range s.want {
			if v := at(got, path); v != want {
				t.Errorf("step %d %s(%s): %s = %#v, want %#v\n%s", i, s.tool, s.args, path, v, want, text)
			}
		}
		for _, c := range s.contains {
			if !strings.Contains(text, c) {
				t.Errorf("step %d %s(%s): answer lacks %q\n%s", i, s.tool, s.args, c, text)
			}
		}
		for _, c := range s.absent {
			if strings.Contains(text, c) {
				t.Errorf("step %d %s(%s): answer has %q\n%s", i, s.tool, s.args, c, text)
			}
		}
	}
}

func TestConversationRead(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: SearchTool, args: `{"query":"show me the tasks of a project"}`,
			want: map[string]any{"ok": true, "result/hits/0/op": "onto.task.list",
				"result/hits/0/args": "[limit:integer=20] [project_id:string] [state_key:todo|in_progress|done]"}, absent: []string{`"score"`, `"query"`, `"tool"`}},
		{tool: HelpTool, args: `{"path":"onto.task.list"}`,
			want:     map[string]any{"ok": true, "result/op": "onto.task.list", "result/args/0/name": "limit", "result/args/0/default": "20"},
			contains: []string{`"examples":[{"args":{}}]`}},
		{tool: ExecTool, args: `{"op":"onto.task.list","args":{"project_id":"p1","state_key":"todo"}}`,
			want: map[string]any{"op": "onto.task.list", "ok": true, "result/tasks/0/id": "t1", "meta/trace_id": "tr_1", "meta/latency_ms": 0.0}},
	})
}

func TestConversationFailures(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		// tool_exec({}): no op at all.
		{tool: ExecTool, args: `{}`,
			want: map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/op"}},
		// Empty args for an op with a required *_id: named, with an example.
		{tool: ExecTool, args: `{"op":"onto.task.get"}`,
			want: map[string]any{"error/code": "VALIDATION_ERROR", "error/details/required/0": "task_id",
				"error/details/example/args/task_id": "<task_id>", "error/help_path": "onto.task.get"},
			contains: []string{"needs task_id"}},
		// The same call again: the advice changes.
		{tool: ExecTool, args: `{"op":"onto.task.get","args":{}}`,
			want:     map[string]any{"error/code": "VALIDATION_ERROR", "error/details/repeated": 2.0},
			contains: []string{"failed 2 times", `tool_help({\"path\":\"onto.task.get\"})`, "tool_search"}},
		// Unknown op: nearest ops.
		{tool: ExecTool, args: `{"op":"onto.tasks.get","args":{"task_id":"t1"}}`,
			want: map[string]any{"error/code": "NOT_FOUND", "error/details/did_you_mean/0": "onto.task.get"}},
		// Unknown arg: the nearest valid name.
		{tool: ExecTool, args: `{"op":"onto.task.get","args":{"taskId":"t1"}}`,
			want: map[string]any{"error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/taskId",
				"error/details/field_errors/0/suggestion": "task_id", "error/details/field_errors/1/code": "required"}},
		// Writes are refused by default.
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"x"}}`,
			want: map[string]any{"error/code": "PERMISSION_DENIED", "error/help_path": "onto.task.create"}},
		// Handler NOT_FOUND.
		{tool: ExecTool, args: `{"op":"onto.task.get","args":{"task_id":"t99"}}`,
			want: map[string]any{"error/code": "NOT_FOUND", "error/message": "task t99 does not exist"}},
		// Handler panic becomes INTERNAL.
		{tool: ExecTool, args: `{"op":"util.web.search","args":{"query":"boom"}}`,
			want:     map[string]any{"ok": false, "error/code": "INTERNAL", "error/help_path": "util.web.search"},
			contains: []string{"index out of range", "not caused by your args"}},
		// A tool without Decode: the gateway's own check.
		{tool: ExecTool, args: `{"op":"util.web.visit","args":{"uri":"https://x"}}`,
			want: map[string]any{"error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/url",
				"error/details/field_errors/1/path": "/uri", "error/details/field_errors/1/suggestion": "url"}},
		// Non-object args.
		{tool: ExecTool, args: `{"op":"onto.task.get","args":[1]}`,
			want: map[string]any{"error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/args"}},
		// Not even an object.
		{tool: ExecTool, args: `"onto.task.get"`, want: map[string]any{"error/code": "VALIDATION_ERROR"}},
	})
	if n := h.s.calls.Load(); n != 2 {
		t.Errorf("handlers ran %d times, want 2 (the NOT_FOUND and the panic)", n)
	}
}

func TestConversationWrite(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	play(t, h, []step{
		{tool: SearchTool, args: `{"query":"add a new todo"}`, want: map[string]any{"result/hits/0/op": "onto.task.create", "result/hits/0/kind": "write"}},
		{tool: HelpTool, args: `{"path":"onto.task.create"}`,
			want:     map[string]any{"result/policy/do/0": "User explicitly asks to create a task", "result/examples/0/description": "a todo in project p1"},
			contains: []string{`"args":[{"name":"project_id","type":"string","required":true},{"name":"title","type":"string","required":true}`}, absent: []string{"writes are disabled", `"required":[`, `"required":false`}},
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"Ship"},"idempotency_key":"k1"}`,
			want: map[string]any{"ok": true, "result/id": "t3", "result/title": "Ship"}},
		// Same key, same args (reordered): the first envelope, no second call.
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"title":"Ship","project_id":"p1"},"idempotency_key":"k1"}`,
			want: map[string]any{"ok": true, "result/id": "t3", "meta/trace_id": "tr_1"}},
		// Same key, other args: CONFLICT.
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"Other"},"idempotency_key":"k1"}`,
			want: map[string]any{"ok": false, "error/code": "CONFLICT"}},
		// Handler CONFLICT (duplicate title).
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"Ship"}}`,
			want: map[string]any{"error/code": "CONFLICT"}},
		// Validation with field errors from the (generated) validator.
		{tool: ExecTool, args: `{"op":"onto.task.update","args":{"task_id":"t1","state_key":"doing"}}`,
			want: map[string]any{"error/code": "VALIDATION_ERROR", "error/details/field_errors/0/code": "enum",
				"error/details/field_errors/0/suggestion": "in_progress", "error/details/example/op": "onto.task.update"}},
		{tool: ExecTool, args: `{"op":"onto.task.update","args":{"task_id":"t1","state_key":"done"}}`,
			want: map[string]any{"ok": true, "result/state_key": "done"}},
		// Arguments spread next to op, and a tool name instead of the op.
		{tool: ExecTool, args: `{"op":"get_onto_task_details","task_id":"t1"}`,
			want:     map[string]any{"ok": true, "op": "onto.task.get", "result/state_key": "done"},
			contains: []string{"put them inside", "is a tool name"}, absent: []string{"read as tool_exec's own"}},
		// Spread next to tool_exec's own fields: those stay tool_exec's, and
		// the answer says so (an op argument of that name is not silently
		// taken away).
		{tool: ExecTool, args: `{"op":"onto.task.get","task_id":"t1","idempotency_key":"k9","tool":"x"}`,
			want:     map[string]any{"ok": true, "result/state_key": "done"},
			contains: []string{`\"idempotency_key\", \"tool\" next to op were read as tool_exec's own; an argument of the op with that name goes inside \"args\"`}},
		// Some arguments inside args, others next to op: none is dropped.
		{tool: ExecTool, args: `{"op":"onto.task.update","args":{"task_id":"t1"},"state_key":"todo"}`,
			want:     map[string]any{"ok": true, "result/state_key": "todo"},
			contains: []string{"put them inside"}},
		// The same argument both ways with two values: refused, not chosen.
		{tool: ExecTool, args: `{"op":"onto.task.get","args":{"task_id":"t1"},"task_id":"t2"}`,
			want:     map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/args/task_id"},
			contains: []string{`sent both inside args and next to op, with different values`}},
		// Both ways with the same value: one argument.
		{tool: ExecTool, args: `{"op":"onto.task.get","args":{"task_id":"t1"},"task_id":"t1"}`,
			want: map[string]any{"ok": true, "result/state_key": "todo"}},
	})
	if n := h.s.calls.Load(); n != 7 {
		t.Errorf("handlers ran %d times, want 7 (idempotent replay must not call)", n)
	}
}

// TestExecMemberNames: tool_exec's members are named exactly, as the
// generated decoders' are. A member that is one of them only up to case is
// refused, not read as that field and passed on as an argument too: "OP"
// once chose the op over "op", and "Dry_Run" made a dry run whose answer
// also called it an unknown argument.
func TestExecMemberNames(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	play(t, h, []step{
		{tool: ExecTool, args: `{"op":"onto.task.get","OP":"onto.task.list","args":{"task_id":"t1"}}`,
			want: map[string]any{"ok": false, "op": "onto.task.get", "error/code": "VALIDATION_ERROR",
				"error/details/field_errors/0/path": "/OP", "error/details/field_errors/0/suggestion": "op"}},
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"Try"},"Dry_Run":true}`,
			want:     map[string]any{"ok": false, "error/details/field_errors/0/path": "/Dry_Run", "error/details/field_errors/0/suggestion": "dry_run"},
			contains: []string{`send \"dry_run\" (an argument of the op named \"Dry_Run\" goes inside \"args\")`}},
		{tool: ExecTool, args: `{"Op":"onto.task.get","args":{"task_id":"t1"}}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/Op"}},
		// A type error still names the op it was sent with.
		{tool: ExecTool, args: `{"op":"onto.task.get","dry_run":"yes"}`,
			want: map[string]any{"ok": false, "op": "onto.task.get", "error/details/field_errors/0/path": "/dry_run",
				"error/details/field_errors/0/expected": "boolean", "error/details/field_errors/0/received": `"yes"`},
			contains: []string{"dry_run must be a boolean, got string"}},
		{tool: SearchTool, args: `{"query":"task","limit":2.5}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/limit", "error/details/field_errors/0/expected": "integer", "error/details/field_errors/0/received": "2.5"}},
		{tool: HelpTool, args: `{"path":["onto"]}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/path", "error/details/field_errors/0/expected": "string"}},
		// the member sent is named, as sent; a repetition is one first
		{tool: SearchTool, args: `{"query":"task","Limit":"5"}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/Limit", "error/details/field_errors/0/received": `"5"`}},
		{tool: SearchTool, args: `{"query":"task","limit":true,"limit":2}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/code": "duplicate"}},
		{tool: ExecTool, args: `{"op":123}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/op", "error/details/field_errors/0/code": "type"}},
		{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.get","Args":{"task_id":"t1"}}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/path": "/Args"}},
		// Exact names still work, and an argument spread next to op with a
		// name no field shares is still the op's.
		{tool: ExecTool, args: `{"op":"onto.task.get","task_id":"t1","dry_run":false}`,
			want: map[string]any{"ok": true, "result/id": "t1"}},
	})
	if n := h.s.calls.Load(); n != 1 {
		t.Errorf("handlers ran %d times, want 1 (refused calls must not run)", n)
	}
}

// TestMisspeltDryRun: a dry run misspelt (dryRun, dry-run, dryrun,
// DryRun) or sent inside args was read as an argument, ignored with a
// warning, and the write ran for real; it is refused, the call not run,
// in tool_exec and in a tool_batch item. An op that declares such an
// argument itself still gets it.
func TestMisspeltDryRun(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	create := `"op":"onto.task.create","args":{"project_id":"p1","title":"Try"}`
	var steps []step
	for _, k := range []string{"dryRun", "dry-run", "dryrun", "DryRun", "DRY_RUN", "idempotencyKey"} {
		steps = append(steps, step{tool: ExecTool, args: `{` + create + `,"` + k + `":true}`,
			want: map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/" + k}})
	}
	for _, k := range []string{"dry_run", "dryRun", "idempotency_key"} {
		steps = append(steps, step{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"Try","` + k + `":true}}`,
			want:     map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/args/" + k},
			contains: []string{"goes next to args", "the call did not run"}})
	}
	steps = append(steps,
		step{tool: BatchTool, args: `{"items":[{"tool":"exec",` + create + `,"dryRun":true}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/path": "/dryRun"}},
		step{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.create","args":{"project_id":"p1","title":"Try","dry_run":true}}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/path": "/args/dry_run"}},
		// The real dry run still runs as one.
		step{tool: ExecTool, args: `{` + create + `,"dry_run":true}`, want: map[string]any{"ok": true}},
	)
	play(t, h, steps)
	if n := len(h.s.tasks); n != 2 {
		t.Errorf("%d tasks, want the 2 there were: a write ran", n)
	}
}

// TestRefusedNotIgnored: search_onto_tasks's schema does not say
// additionalProperties, but its decoder (hand-written here) refuses an
// argument it does not take: the error names it, and no warning calls it
// ignored. (The generated decoders accept and drop such an argument, and
// the warning says so: TestGatewayIgnoredArguments in golden/github.)
func TestRefusedNotIgnored(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: ExecTool, args: `{"op":"onto.task.search","args":{"query":"spec","limt":2}}`,
			want:   map[string]any{"ok": false, "error/details/field_errors/0/path": "/limt"},
			absent: []string{"was ignored"}},
	})
}

func TestDryRun(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	play(t, h, []step{
		{tool: ExecTool, args: `{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"}}`,
			want: map[string]any{"ok": true, "result/applied": false, "meta/dry_run": true}, contains: []string{"dry_run defaulted to true"}},
		{tool: ExecTool, args: `{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"},"dry_run":false}`,
			want: map[string]any{"ok": true, "result/applied": true}, absent: []string{"dry_run"}},
		{tool: ExecTool, args: `{"op":"onto.task.create","args":{"project_id":"p1","title":"Try"},"dry_run":true}`,
			want: map[string]any{"ok": true, "result/would_create": "Try"}},
	})
	if got := h.s.dryRuns; len(got) != 2 || !got[0] || got[1] {
		t.Errorf("handler saw dry runs %v, want [true false]", got)
	}
}

func TestRepetitionIsPerSession(t *testing.T) {
	h := newHarness(t)
	args := `{"op":"onto.task.get","args":{}}`
	if strings.Contains(h.call(ExecTool, args), "failed") {
		t.Fatal("first failure already counted as repeated")
	}
	h.sess = "s2"
	if strings.Contains(h.call(ExecTool, args), "failed 2 times") {
		t.Fatal("repetition counted across sessions")
	}
	h.sess = "s1"
	if !strings.Contains(h.call(ExecTool, args), "failed 2 times") {
		t.Fatal("repetition not detected in the same session")
	}
}

func TestWriteRefusedRepeatedAdvice(t *testing.T) {
	h := newHarness(t)
	args := `{"op":"onto.task.update","args":{"task_id":"t1","title":"x"}}`
	h.call(ExecTool, args)
	m := h.obj(ExecTool, args)
	if at(m, "error/code") != "PERMISSION_DENIED" || !strings.Contains(at(m, "error/details/next/0").(string), "writes are disabled") {
		t.Fatalf("repeated write refusal: %v", m)
	}
}

// TestDryRunWithWritesDisabled: a dry run writes nothing, so it runs when
// writes are disabled, twice without being counted as a repeated failure,
// while the same call without dry_run is refused.
func TestDryRunWithWritesDisabled(t *testing.T) {
	h := newHarness(t)
	dry := `{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"},"dry_run":true}`
	play(t, h, []step{
		{tool: ExecTool, args: dry, want: map[string]any{"ok": true, "result/applied": false, "meta/dry_run": true}},
		{tool: ExecTool, args: dry, want: map[string]any{"ok": true, "result/applied": false}, absent: []string{"failed", "times"}},
		// the op's default is a dry run too
		{tool: ExecTool, args: `{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"}}`, want: map[string]any{"ok": true, "meta/dry_run": true}},
		{tool: ExecTool, args: `{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"},"dry_run":false}`,
			want: map[string]any{"ok": false, "error/code": "PERMISSION_DENIED"}, contains: []string{`dry_run\":true shows`}},
	})
	if got := h.s.dryRuns; len(got) != 3 || !got[0] || !got[1] || !got[2] {
		t.Errorf("handler saw dry runs %v, want [true true true]", got)
	}
}
