package gateway

import (
	"encoding/json"
	"slices"
	"testing"
)

// FuzzExec feeds untrusted tool_exec arguments: every answer must be a
// JSON envelope, never a panic or a propagated error.
func FuzzExec(f *testing.F) {
	for _, s := range []string{`{}`, `null`, `[]`, `"x"`, `{"op":"onto.task.get"}`, `{"op":"onto.task.get","args":"{\"task_id\":\"t1\"}"}`,
		`{"op":"onto.task.get","task_id":"t1"}`, `{"op":"onto.task.list","args":{"limit":"x"}}`, `{"op":1}`, `{"op":"util.web.visit","args":{"url":null}}`,
		`{"op":"onto.task.create","args":{"project_id":"p1","title":"t"},"idempotency_key":"k","dry_run":true}`} {
		f.Add(s)
	}
	h := newHarness(f, WithWrites(true))
	f.Fuzz(func(t *testing.T, args string) {
		h.t = t
		text := h.call(ExecTool, args)
		var env Envelope
		if err := json.Unmarshal([]byte(text), &env); err != nil {
			t.Fatalf("answer is not an envelope: %v\n%s", err, text)
		}
		if !env.OK && env.Error == nil {
			t.Fatalf("failed envelope without error: %s", text)
		}
	})
}

// FuzzBatch feeds untrusted tool_batch arguments.
func FuzzBatch(f *testing.F) {
	for _, s := range []string{`{"items":[]}`, `[{"tool":"help"}]`, `{"items":[{"tool":"exec","op":"onto.task.get","args":{"task_id":"t1"}},{"tool":"search","query":"task"}]}`,
		`{"items":[1,"a",null]}`, `{"items":{"a":1}}`, `{"items":[{"tool":"help","path":{"x":1}}]}`, `{"items":[{"tool":"exec","op":"onto.task.update","args":{"task_id":"t1","state_key":"done"}}]}`} {
		f.Add(s)
	}
	h := newHarness(f, WithWrites(true))
	f.Fuzz(func(t *testing.T, args string) {
		h.t = t
		text := h.call(BatchTool, args)
		if !json.Valid([]byte(text)) {
			t.Fatalf("answer is not JSON: %s", text)
		}
	})
}

// FuzzHelpSearch feeds untrusted tool_help and tool_search arguments.
func FuzzHelpSearch(f *testing.F) {
	for _, s := range []string{`{"path":"onto.task"}`, `{"path":"...."}`, `{"query":"ＴＡＳＫＳ listing"}`, `{"path":"onto.task.read","format":"full"}`, `"x"`} {
		f.Add(s)
	}
	h := newHarness(f)
	f.Fuzz(func(t *testing.T, args string) {
		h.t = t
		for _, tool := range []string{HelpTool, SearchTool} {
			if text := h.call(tool, args); !json.Valid([]byte(text)) {
				t.Fatalf("%s answer is not JSON: %s", tool, text)
			}
		}
	})
}

// FuzzIndex builds an index over an op whose name, description and schema
// are untrusted, and searches it with an untrusted query: no panic, and
// the word splitter's ASCII path agrees with its Unicode path.
func FuzzIndex(f *testing.F) {
	f.Add("getUserID", "Find the airfare.", `{"type":"object","properties":{"a":{"enum":["x y",1,null]},"b":{"items":{"properties":{"c":{}}}}}}`, "cheapest air fare")
	f.Add("HTMLParser_v2", "", `{"properties":{"x":{"anyOf":[{"const":"é"}]}}}`, "ＴＡＳＫＳ")
	f.Fuzz(func(t *testing.T, name, desc, params, query string) {
		ops := []Op{{Op: "a.b", Tool: name, Description: desc, Parameters: json.RawMessage(params)}, {Op: "c.d", Tool: "list_airfares"}}
		ix := NewIndex(ops)
		for _, h := range ix.Search(query, 5) {
			if h.Op != "a.b" && h.Op != "c.d" {
				t.Fatalf("hit %q", h.Op)
			}
		}
		if isASCII(name) {
			if a, b := appendWords(nil, name), appendWordsRunes(nil, name); !slices.Equal(a, b) {
				t.Fatalf("splitWords(%q): ascii %q, runes %q", name, a, b)
			}
		}
	})
}
