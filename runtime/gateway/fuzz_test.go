package gateway

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// hostileSeeds are the inputs of issue 8 at sizes the seed corpus can run
// in every `go test`: long unknown ops, paths, queries and keys, invalid
// Unicode, deep nesting, a dry run followed by the real call.
func hostileSeeds() []string {
	long := strings.Repeat("a", 100<<10)
	deep := strings.Repeat("[", 200) + strings.Repeat("]", 200)
	return []string{
		`{"op":"` + long + `","args":{}}`,
		`{"op":"onto.task.` + long + `","args":{}}`,
		`{"op":"onto.task.get","args":{"task_id":"t1","` + long + `":1}}`,
		`{"op":"onto.task.get","args":{"task_id":"t1","x":` + deep + `}}`,
		`{"op":"onto.task.create","args":{"project_id":"p1","title":"t"},"idempotency_key":"` + long + `"}`,
		"{\"op\":\"onto.task.create\",\"args\":{\"project_id\":\"p1\",\"title\":\"a\xffb\"}}",
		`{"op":"onto.task.create","args":{"project_id":"p1","title":"\ud800"}}`,
		`{"op":"onto.task.create","args":"{\"project_id\":\"p1\",\"title\":\"\\udc00\"}"}`,
		`{"op":"onto.task.create","args":{"project_id":"p1","title":"t"},"idempotency_key":"k","dry_run":true}`,
		`{"op":"onto.task.create","args":{"project_id":"p1","title":"t"},"idempotency_key":"k"}`,
		`{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"},"idempotency_key":"k2","dry_run":false}`,
		`{"path":"` + long + `"}`,
		`{"path":"onto.` + long + `"}`,
		`{"query":"` + strings.Repeat("tasks ", 20<<10) + `"}`,
		"{\"query\":\"task\xff\"}",
	}
}

// fuzzCall runs one call and checks the answer: a well-formed spec 004
// envelope, and no handler saw what the gateway promises it never sees
// (see assertHandlerArgs and typedTool).
func fuzzCall(t *testing.T, h *harness, tool, args string) {
	h.t = t
	takeViolations()
	checkEnvelope(t, tool, h.call(tool, args))
	if v := takeViolations(); len(v) > 0 {
		t.Fatalf("%s(%.200q): %s", tool, args, strings.Join(v, "; "))
	}
}

// FuzzExec feeds untrusted tool_exec arguments: every answer must be a
// JSON envelope, never a panic or a propagated error.
func FuzzExec(f *testing.F) {
	for _, s := range append([]string{`{}`, `null`, `[]`, `"x"`, `{"op":"onto.task.get"}`, `{"op":"onto.task.get","args":"{\"task_id\":\"t1\"}"}`,
		`{"op":"onto.task.get","task_id":"t1"}`, `{"op":"onto.task.list","args":{"limit":"x"}}`, `{"op":1}`, `{"op":"util.web.visit","args":{"url":null}}`,
		`{"op":"onto.task.update","args":{"task_id":"t1","state_key":"doing"}}`}, hostileSeeds()...) {
		f.Add(s)
	}
	h := newHarness(f, WithWrites(true))
	f.Fuzz(func(t *testing.T, args string) {
		fuzzCall(t, h, ExecTool, args)
	})
}

// FuzzBatch feeds untrusted tool_batch arguments.
func FuzzBatch(f *testing.F) {
	for _, s := range []string{`{"items":[]}`, `[{"tool":"help"}]`, `{"items":[{"tool":"exec","op":"onto.task.get","args":{"task_id":"t1"}},{"tool":"search","query":"task"}]}`,
		`{"items":[1,"a",null]}`, `{"items":{"a":1}}`, `{"items":[{"tool":"help","path":{"x":1}}]}`, `{"items":[{"tool":"exec","op":"onto.task.update","args":{"task_id":"t1","state_key":"done"}}]}`,
		`{"items":[{"tool":"exec","op":"onto.task.create","args":{"project_id":"p1","title":"b"},"idempotency_key":"k","dry_run":true},{"tool":"exec","op":"onto.task.create","args":{"project_id":"p1","title":"b"},"idempotency_key":"k"}]}`} {
		f.Add(s)
	}
	for _, s := range hostileSeeds() {
		f.Add(`{"items":[` + strings.Replace(s, "{", `{"tool":"exec",`, 1) + `]}`)
	}
	h := newHarness(f, WithWrites(true))
	f.Fuzz(func(t *testing.T, args string) {
		fuzzCall(t, h, BatchTool, args)
	})
}

// FuzzHelp feeds untrusted tool_help arguments.
func FuzzHelp(f *testing.F) {
	for _, s := range append([]string{`{"path":"onto.task"}`, `{"path":"...."}`, `{"path":"onto.task.read","format":"full"}`, `"x"`, `{"path":"ONTO.Task"}`, `{"path":"onto.task.get","include_schemas":true}`}, hostileSeeds()...) {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, args string) {
		fuzzCall(t, h, HelpTool, args)
	})
}

// FuzzSearch feeds untrusted tool_search arguments.
func FuzzSearch(f *testing.F) {
	for _, s := range append([]string{`{"query":"ＴＡＳＫＳ listing"}`, `"update a task"`, `{"query":"notes.txt","limit":1000}`, `{"query":""}`, `{"query":"x","limit":-1}`}, hostileSeeds()...) {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, args string) {
		fuzzCall(t, h, SearchTool, args)
	})
}

// FuzzIndex builds an index over an op whose name, description and schema
// are untrusted, and searches it with an untrusted query: no panic, and
// the word splitter's ASCII path agrees with its Unicode path, and a
// stem is never longer than its word.
func FuzzIndex(f *testing.F) {
	f.Add("getUserID", "Find the airfare.", `{"type":"object","properties":{"a":{"enum":["x y",1,null]},"b":{"items":{"properties":{"c":{}}}}}}`, "cheapest air fare")
	f.Add("HTMLParser_v2", "", `{"properties":{"x":{"anyOf":[{"const":"é"}]}}}`, "ＴＡＳＫＳ")
	f.Add("get_weather", "Weather on a date.", `{"properties":{"date":{},"time_zone":{}}}`, "weather on 2023-04-1 at 7pm GMT+ $5 a@b. www. 1/2/ 12:3 march 8th")
	f.Fuzz(func(t *testing.T, name, desc, params, query string) {
		ops := []Op{{Path: "a.b", Tool: name, Description: desc, Parameters: json.RawMessage(params)}, {Path: "c.d", Tool: "list_airfares"}}
		ix := NewIndex(ops)
		for _, h := range ix.Search(query, 5) {
			if h.Op != "a.b" && h.Op != "c.d" {
				t.Fatalf("hit %q", h.Op)
			}
		}
		for _, w := range splitWords(name + " " + query) {
			if st := stem(w); len(st) > len(w) || st == "" {
				t.Fatalf("stem(%q) = %q: longer or empty", w, st)
			}
		}
		if isASCII(name) {
			var a, b []string
			forWords(name, func(w string) { a = append(a, w) })
			forWordsRunes(name, func(w string) { b = append(b, w) })
			if !slices.Equal(a, b) {
				t.Fatalf("splitWords(%q): ascii %q, runes %q", name, a, b)
			}
		}
	})
}
