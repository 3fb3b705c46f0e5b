package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
)

func TestBatchOrderAndKinds(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	play(t, h, []step{
		{tool: BatchTool, args: `{"items":[
			{"tool":"help","path":"onto.task.update"},
			{"tool":"exec","op":"onto.task.get","args":{"task_id":"t1"}},
			{"tool":"exec","op":"onto.task.update","args":{"task_id":"t1","state_key":"done"}},
			{"tool":"exec","op":"onto.task.get","args":{"task_id":"t1"}},
			{"tool":"search","query":"web page"},
			{"tool":"exec","op":"nope"},
			{"tool":"dance"}]}`,
			want: map[string]any{
				"ok": false, "op": "tool_batch",
				"result/results/0/result/op":                         "onto.task.update",
				"result/results/1/result/state_key":                  "todo",
				"result/results/2/result/state_key":                  "done",
				"result/results/3/result/state_key":                  "done",
				"result/results/4/result/hits/0/op":                  "util.web.visit",
				"result/results/5/error/code":                        "NOT_FOUND",
				"result/results/6/error/code":                        "VALIDATION_ERROR",
				"result/results/6/error/details/field_errors/0/path": "/tool",
			}},
		{tool: BatchTool, args: `[{"op":"onto.task.get","args":{"task_id":"t2"}}]`,
			want: map[string]any{"ok": true, "result/results/0/result/id": "t2"}},
		{tool: BatchTool, args: `{}`, want: map[string]any{"error/code": "VALIDATION_ERROR"}},
	})
}

// TestBatchWrongArgument: help and search items refuse arguments their
// tool does not take, as tool_help and tool_search do (the item's "tool"
// is not one of them), and exec items warn as tool_exec does.
func TestBatchWrongArgument(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: BatchTool, args: `{"items":[
			{"tool":"search","query":"web page","group":"util"},
			{"tool":"help","op":"onto.task.get"},
			{"tool":"search","query":"web page","limit":2},
			{"tool":"help","path":"onto.task.get"},
			{"tool":"exec","op":"onto.task.get","task_id":"t1"}]}`,
			want: map[string]any{
				"result/results/0/error/details/field_errors/0/path": "/group",
				"result/results/1/error/details/example/path":        "onto.task.get",
				"result/results/2/result/hits/0/op":                  "util.web.visit",
				"result/results/3/result/op":                         "onto.task.get",
				"result/results/4/result/id":                         "t1",
			},
			// An exec item warns as tool_exec does.
			contains: []string{"put them inside"}},
		// tool_batch's own members are named exactly; another is refused
		// by name: a dry_run next to items would otherwise be ignored and
		// the writes in them run.
		{tool: BatchTool, args: `{"items":[{"tool":"help"}],"dry_run":true}`,
			want:     map[string]any{"ok": false, "error/details/field_errors/0/path": "/dry_run"},
			contains: []string{`tool_batch has no argument \"dry_run\"`}},
		{tool: BatchTool, args: `{"items":[{"tool":"help"}],"Items":[{"tool":"search","query":"x"}]}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/Items", "error/details/field_errors/0/suggestion": "items"}},
		{tool: BatchTool, args: `{"items":5}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/items"}, contains: []string{"items must be an array"}},
		// an object for items is a type error, not a missing member
		{tool: BatchTool, args: `{"items":{}}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/code": "type", "error/details/field_errors/0/received": "{}"}},
	})
}

func TestBatchLimit(t *testing.T) {
	h := newHarness(t, WithBatchLimit(2))
	m := h.obj(BatchTool, `{"items":[{"tool":"help"},{"tool":"help"},{"tool":"help"}]}`)
	if at(m, "error/code") != "VALIDATION_ERROR" || !strings.Contains(at(m, "error/message").(string), "at most 2") {
		t.Fatalf("over-limit batch: %v", m)
	}
	if !strings.Contains(h.tools[BatchTool].Description, "up to 2 ") {
		t.Fatalf("batch description does not state the limit: %s", h.tools[BatchTool].Description)
	}
}

// TestBatchConcurrent runs batches of reads and writes from several
// goroutines; with -race it checks the gateway's shared state.
func TestBatchConcurrent(t *testing.T) {
	h := newHarness(t, WithWrites(true), WithBatchConcurrency(3), WithBatchLimit(20))
	var wg sync.WaitGroup
	for w := 0; w < 4; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			var items []string
			for i := 0; i < 8; i++ {
				items = append(items, `{"tool":"exec","op":"onto.task.list","args":{"project_id":"p1"}}`)
				if i%3 == 0 {
					items = append(items, fmt.Sprintf(`{"tool":"exec","op":"onto.task.create","args":{"project_id":"p1","title":"w%d-%d"},"idempotency_key":"k%d-%d"}`, w, i, w, i))
				}
			}
			args := `{"items":[` + strings.Join(items, ",") + `]}`
			var got struct {
				OK     bool `json:"ok"`
				Result struct {
					Results []Envelope `json:"results"`
				} `json:"result"`
			}
			text := h.call(BatchTool, args)
			if err := json.Unmarshal([]byte(text), &got); err != nil || !got.OK || len(got.Result.Results) != len(items) {
				t.Errorf("worker %d: %v %s", w, err, text)
			}
		}(w)
	}
	wg.Wait()
	if n := len(h.s.tasks); n != 2+4*3 {
		t.Fatalf("%d tasks after the batches, want %d", n, 2+4*3)
	}
}

// Failing help and search items count as repetitions of themselves only:
// each was counted as the same call, so a third different mistake was
// told it had "failed 2 times".
func TestBatchItemRepetitions(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: BatchTool, args: `{"items":[{"tool":"help","pth":"onto"}]}`, absent: []string{"same call"}},
		{tool: BatchTool, args: `{"items":[{"tool":"search","qury":"task"}]}`, absent: []string{"same call"}},
		{tool: BatchTool, args: `{"items":[{"tool":"help","fmt":"full"},{"tool":"tool_help","args":{}}]}`, absent: []string{"same call"}},
		{tool: BatchTool, args: `{"items":[{"tool":"help","pth":"onto"}]}`,
			want: map[string]any{"result/results/0/error/details/repeated": float64(2)}, contains: []string{"this same call has now failed 2 times"}},
	})
}

// A member of a gateway tool's arguments or of a batch item sent twice is
// refused, nothing runs:
// the decoder kept the last op while a log or an approval prompt reading
// the call's text may show the first.
func TestRepeatedMembersRefused(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: ExecTool, args: `{"op":"onto.task.get","op":"onto.task.create","args":{"title":"x"}}`,
			want:     map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/op", "error/details/field_errors/0/code": "duplicate"},
			contains: []string{`tool_exec got \"op\" twice`}},
		{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.get","args":{"task_id":"t1"},"args":{"task_id":"t2"}}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/path": "/args"}},
		{tool: BatchTool, args: `{"items":[{"tool":"help"}],"items":[{"tool":"exec","op":"onto.task.create","args":{"title":"x"}}]}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/items"}, contains: []string{`tool_batch got \"items\" twice`}},
		// an item's tool named twice runs neither
		{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.create","args":{"title":"x"},"tool":"help"}]}`,
			want:     map[string]any{"result/results/0/error/details/field_errors/0/path": "/tool", "result/results/0/error/details/field_errors/0/code": "duplicate"},
			contains: []string{`the item got \"tool\" twice`}},
		{tool: HelpTool, args: `{"path":"onto","path":"onto.task"}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/path"}, contains: []string{`tool_help got \"path\" twice`}},
		{tool: SearchTool, args: `{"query":"task","query":"goal"}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/query"}, contains: []string{`tool_search got \"query\" twice`}},
	})
	if n := h.s.calls.Load(); n != 0 {
		t.Errorf("%d handler calls, want none", n)
	}
}

// TestMembersReadInPlace: tool_batch, its items, tool_help and tool_search
// read their members in place (no map of them): names are decoded as
// encoding/json decodes them, the unknown one reported is the first by
// name, and the count of items over the limit is exact.
func TestMembersReadInPlace(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: BatchTool, args: `{"\u0069tems":[{"tool":"help","\u0070ath":"onto.task"}]}`,
			want: map[string]any{"ok": true, "result/results/0/result/path": "onto.task"}},
		{tool: BatchTool, args: `{"items":[],"zz":1,"\u0062b":2}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/bb"}},
		{tool: BatchTool, args: `{"items":[],"zz":1,"":2}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/"}, contains: []string{`tool_batch has no argument \"\"`}},
		{tool: BatchTool, args: `{"items":[1,2,3,4,5,6,7,8,9,10,11,12]}`,
			contains: []string{"at most 10 items, got 12"}},
		{tool: BatchTool, args: `{"items":null}`, contains: []string{"items must be an array"}},
		{tool: BatchTool, args: `5`, contains: []string{"tool_batch arguments are not valid"}},
		{tool: BatchTool, args: `{"items":[{"tool":"help","zeta":1,"\u0061lpha":"onto.task"},{"tool":"exec","op":"a","op":"b"}]}`,
			want:     map[string]any{"result/results/0/error/details/field_errors/0/path": "/alpha"},
			contains: []string{`tool_exec got \"op\" twice`}},
		{tool: HelpTool, args: `{"zz":1,"\u0061a":2}`, want: map[string]any{"error/details/field_errors/0/path": "/aa"}},
		{tool: SearchTool, args: `{"query":"web","\u0071":1}`, want: map[string]any{"error/details/field_errors/0/path": "/q"}},
		// a bare string that is no JSON string is an error, not an empty query
		{tool: SearchTool, args: `"web search`, want: map[string]any{"ok": false}, contains: []string{"tool_search arguments are not valid"},
			absent: []string{"empty"}},
		{tool: SearchTool, args: `"web"`, want: map[string]any{"ok": true}},
	})
}

// TestBatchItemTypeError: an item member of the wrong type is named by
// its JSON name, with the field error tool_exec, tool_help and
// tool_search give; decoding the item whole into Go structs named it by
// the struct that held it ("searchRequest.limit") and gave no field
// error. The first in the order sent is the one reported, and the op
// named beside it is the answer's.
func TestBatchItemTypeError(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: BatchTool, args: `{"items":[{"tool":"search","query":"web","limit":2.5}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/path": "/limit",
				"result/results/0/error/details/field_errors/0/expected": "integer",
				"result/results/0/error/details/field_errors/0/received": "2.5"},
			contains: []string{"tool_search arguments are not valid: limit must be an integer, got number 2.5;"},
			absent:   []string{"searchRequest"}},
		{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.get","dry_run":"yes","idempotency_key":5}]}`,
			want: map[string]any{"result/results/0/op": "onto.task.get",
				"result/results/0/error/details/field_errors/0/path": "/dry_run"},
			// an exec item's own members answer as tool_exec does
			contains: []string{"tool_exec arguments are not valid: dry_run must be a boolean, got string;"},
			absent:   []string{"execRequest"}},
		// a member another tool takes is an argument sent next to op, as
		// in tool_exec, not a type error of the item
		{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.get","task_id":"t1","query":{"a":1}}]}`,
			absent: []string{"query must be a string", `\"tool\" next to op`}},
		// the member of the wrong type is the one named, not the last
		// matching up to case
		{tool: HelpTool, args: `{"Path":5,"path":"onto"}`,
			want: map[string]any{"error/details/field_errors/0/path": "/Path", "error/details/field_errors/0/received": "5"}},
		// an array that is not valid JSON is not read as an object
		{tool: BatchTool, args: `[] ,"x":1`, absent: []string{"has no argument"}},
		// encoding/json matched the member up to case: the one sent is
		// the field error's.
		{tool: BatchTool, args: `{"items":[{"tool":"help","INCLUDE_SCHEMAS":"yes"}]}`,
			want:     map[string]any{"result/results/0/error/details/field_errors/0/path": "/INCLUDE_SCHEMAS"},
			contains: []string{"tool_help arguments are not valid: include_schemas must be a boolean, got string;"},
			absent:   []string{"helpRequest"}},
		{tool: BatchTool, args: `{"items":[{"tool":5,"op":"onto.task.get"}]}`,
			want: map[string]any{"result/results/0/op": "onto.task.get",
				"result/results/0/error/details/field_errors/0/path": "/tool"},
			contains: []string{"item is not valid: tool must be a string, got number;"}},
	})
}

// TestBatchItemFields: an item's members are read in place as
// encoding/json read them into the item: a member named as a field up to
// case (as encoding/json folds it: U+212A is k, U+017F is s) sets it and
// is then refused by the tool it chose, escaped names are decoded, and
// null leaves a field unset.
func TestBatchItemFields(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: BatchTool, args: `{"items":[{"t\u006fol":"search","\u0071uery":"web page"}]}`,
			want: map[string]any{"ok": true, "result/results/0/result/hits/0/op": "util.web.visit"}},
		{tool: BatchTool, args: `{"items":[{"Tool":"search","query":"web"}]}`,
			want: map[string]any{"result/results/0/op": "tool_search", "result/results/0/error/details/field_errors/0/path": "/Tool"}},
		{tool: BatchTool, args: `{"items":[{"QUERY":"web"}]}`,
			want: map[string]any{"result/results/0/op": "tool_search", "result/results/0/error/details/field_errors/0/path": "/QUERY"}},
		{tool: BatchTool, args: `{"items":[{"Op":"onto.task.get","args":{"task_id":"t1"}}]}`,
			want: map[string]any{"result/results/0/op": "", "result/results/0/error/details/field_errors/0/suggestion": "op"}},
		{tool: BatchTool, args: `{"items":[{"tool":"exec","op":"onto.task.get","idempotency_\u212aey":"k","args":{"task_id":"t1"}}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/suggestion": "idempotency_key"}},
		{tool: BatchTool, args: `{"items":[{"tool":"help","include_\u017fchemas":true}]}`,
			want: map[string]any{"result/results/0/error/details/field_errors/0/suggestion": "include_schemas"}},
		{tool: BatchTool, args: `{"items":[{"tool":null,"query":"web page","limit":null}]}`,
			want: map[string]any{"ok": true, "result/results/0/result/hits/0/op": "util.web.visit"}},
	})
}

// TestBatchItemAnswersAsDirectCall: an item is answered as the direct
// call of its tool answers the same members, byte for byte but for the
// trace id (and only when that call fails again, both say so): a help or
// search item that does not parse was answered in the item's words, with
// an exec-shaped hint ("items look like {"tool":"exec",...}"), and an exec
// item that does not parse without the meta tool_exec gives. An item that
// names no tool it can run is answered in the item's words, with meta, as
// every item result but help and search documents.
func TestBatchItemAnswersAsDirectCall(t *testing.T) {
	cases := []struct{ tool, args string }{
		// help: types, case variants, repeated and unknown members
		{HelpTool, `{"include_schemas":"yes"}`},
		{HelpTool, `{"INCLUDE_SCHEMAS":"yes","path":"onto"}`},
		{HelpTool, `{"path":5}`},
		{HelpTool, `{"Path":5,"path":"onto"}`},
		{HelpTool, `{"include_examples":1,"format":[]}`},
		{HelpTool, `{"path":"onto","path":"onto.task"}`},
		{HelpTool, `{"pth":"onto"}`},
		{HelpTool, `{"path":"onto.task.get"}`},
		// search
		{SearchTool, `{"query":"web","limit":2.5}`},
		{SearchTool, `{"query":5}`},
		{SearchTool, `{"query":"web","LIMIT":"3"}`},
		{SearchTool, `{"query":"a","query":"b"}`},
		{SearchTool, `{"q":"web page"}`},
		{SearchTool, `{"query":"visit a web page","limit":1}`},
		// exec: types, repeated members, args that are no object (a
		// string of invalid JSON), case variants, conflicts, success
		{ExecTool, `{"op":"onto.task.get","dry_run":"yes","args":{"task_id":"t1"}}`},
		{ExecTool, `{"op":"onto.task.get","op":"onto.task.create","args":{"task_id":"t1"}}`},
		{ExecTool, `{"op":"onto.task.get","args":"{\"task_id\":"}`},
		{ExecTool, `{"op":"onto.task.get","args":5}`},
		{ExecTool, `{"op":5,"args":{}}`},
		{ExecTool, `{"op":"onto.task.get","Dry_Run":true,"args":{"task_id":"t1"}}`},
		{ExecTool, `{"Op":"onto.task.get","args":{"task_id":"t1"}}`},
		{ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1"},"task_id":"t2"}`},
		{ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1"}}`},
		{ExecTool, `{"op":"onto.task.get","task_id":"t1"}`},
	}
	short := map[string]string{HelpTool: "help", SearchTool: "search", ExecTool: "exec"}
	for _, c := range cases {
		item := `{"tool":"` + short[c.tool] + `",` + c.args[1:]
		direct, batched := newHarness(t), newHarness(t)
		for round := 1; round <= 2; round++ {
			want := withoutTrace(t, []byte(direct.call(c.tool, c.args)))
			var doc struct {
				Result struct {
					Results []json.RawMessage `json:"results"`
				} `json:"result"`
			}
			answer := batched.call(BatchTool, `{"items":[`+item+`]}`)
			if err := json.Unmarshal([]byte(answer), &doc); err != nil || len(doc.Result.Results) != 1 {
				t.Fatalf("%s: %v\n%s", item, err, answer)
			}
			if got := withoutTrace(t, doc.Result.Results[0]); got != want {
				t.Errorf("item %s, call %d:\n%s\nwant, as %s(%s):\n%s", item, round, got, c.tool, c.args, want)
			}
		}
	}
	// Items that name no tool they can run.
	h := newHarness(t)
	for _, item := range []string{`5`, `"help"`, `null`, `[{"tool":"help"}]`, `{"tool":5,"op":"onto.task.get"}`,
		`{"tool":"dance"}`, `{"tool":"exec","op":"onto.task.get","tool":"help"}`, `{"tool":"help","path":"a","tool":"search"}`} {
		m := h.obj(BatchTool, `{"items":[`+item+`]}`)
		if at(m, "result/results/0/ok") != false || at(m, "result/results/0/meta/trace_id") == nil ||
			at(m, "result/results/0/meta/warnings") == nil || at(m, "result/results/0/error/code") != "VALIDATION_ERROR" {
			t.Errorf("item %s: %v", item, at(m, "result/results/0"))
		}
		if msg, _ := at(m, "result/results/0/error/message").(string); !strings.Contains(msg, "item") {
			t.Errorf("item %s: message %q is not the item's", item, msg)
		}
	}
}

// withoutTrace is the envelope env with its trace id and latency blanked.
func withoutTrace(t *testing.T, env []byte) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(env, &m); err != nil {
		t.Fatalf("%v: %s", err, env)
	}
	if meta, ok := m["meta"].(map[string]any); ok {
		meta["trace_id"], meta["latency_ms"] = "", 0
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
