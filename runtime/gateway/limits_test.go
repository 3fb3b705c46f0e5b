package gateway

import (
	"encoding/json"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// checkEnvelope fails unless text is a well-formed spec 004 envelope: a
// JSON object with op and ok, a result when ok, else an error with code,
// message, details.field_errors and help_path; meta, when present, with
// trace_id, latency_ms and warnings. It returns the decoded object.
func checkEnvelope(t testing.TB, tool, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		t.Fatalf("%s answer is not a JSON object: %v\n%.300s", tool, err, text)
	}
	if _, ok := m["op"].(string); !ok {
		t.Fatalf("%s answer without op: %.300s", tool, text)
	}
	ok, isBool := m["ok"].(bool)
	if !isBool {
		t.Fatalf("%s answer without ok: %.300s", tool, text)
	}
	if tool == BatchTool && m["result"] != nil {
		// A batch that ran: ok when every item is, one envelope per item.
		items, _ := at(m, "result/results").([]any)
		all := true
		for _, it := range items {
			b, _ := json.Marshal(it)
			e := checkEnvelope(t, ExecTool, string(b))
			all = all && e["ok"] == true
		}
		if all != ok {
			t.Fatalf("batch ok is %v, items ok %v: %.300s", ok, all, text)
		}
	} else if ok {
		if _, has := m["result"]; !has {
			t.Fatalf("%s success without result: %.300s", tool, text)
		}
	} else {
		e, _ := m["error"].(map[string]any)
		if e == nil {
			t.Fatalf("%s failure without error: %.300s", tool, text)
		}
		for _, k := range []string{"code", "message", "help_path"} {
			if _, ok := e[k].(string); !ok {
				t.Fatalf("%s error without %s: %.300s", tool, k, text)
			}
		}
		d, _ := e["details"].(map[string]any)
		if _, ok := d["field_errors"].([]any); !ok {
			t.Fatalf("%s error without details.field_errors: %.300s", tool, text)
		}
	}
	if meta, has := m["meta"]; has && (tool == ExecTool || tool == BatchTool) {
		mm, _ := meta.(map[string]any)
		if _, ok := mm["trace_id"].(string); !ok {
			t.Fatalf("%s meta without trace_id: %.300s", tool, text)
		}
		if _, ok := mm["warnings"].([]any); !ok {
			t.Fatalf("%s meta without warnings: %.300s", tool, text)
		}
	}
	return m
}

// maxAnswer is what any bounded error envelope of the test family fits
// in: 20 field errors of a few hundred bytes each, a 4 KiB message.
const maxAnswer = 32 << 10

// TestHostileSizes holds issue 8's worst cases (a huge unknown op, help
// path, query, argument name, idempotency key; deep nesting) at sizes past
// each limit: each gets a small VALIDATION_ERROR naming the limit and
// where it was hit; no handler runs. BenchmarkHostile measures them at
// 100 KB and 50 MB.
func TestHostileSizes(t *testing.T) {
	big := strings.Repeat("a", 300)
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	cases := []struct {
		name, tool, args string
		path, code       string
	}{
		{"op", ExecTool, `{"op":"` + strings.Repeat("x.", 50<<10) + `","args":{}}`, "/op", "maxLength"},
		{"args_bytes", ExecTool, `{"op":"onto.task.get","args":{"task_id":"` + strings.Repeat("t", 2<<20) + `"}}`, "", "maxBytes"},
		{"key", ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1","` + big + `":1}}`, truncBytes("/args/"+big, 256), "maxKeyLength"},
		{"depth", ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1","x":` + deep + `}}`, "/args/x" + strings.Repeat("/0", 62), "maxDepth"},
		{"idempotency_key", ExecTool, `{"op":"onto.task.create","args":{"project_id":"p1","title":"x"},"idempotency_key":"` + big + `"}`, "/idempotency_key", "maxLength"},
		{"help_path", HelpTool, `{"path":"` + strings.Repeat("onto.", 20<<10) + `"}`, "/path", "maxLength"},
		{"query", SearchTool, `{"query":"` + strings.Repeat("find tasks ", 1<<16) + `"}`, "/query", "maxLength"},
		{"batch_bytes", BatchTool, `{"items":[{"tool":"search","query":"` + strings.Repeat("q", 2<<20) + `"}]}`, "", "maxBytes"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, WithWrites(true))
			text := h.call(c.tool, c.args)
			if len(text) > maxAnswer {
				t.Fatalf("answer is %d bytes", len(text))
			}
			m := checkEnvelope(t, c.tool, text)
			if at(m, "error/code") != "VALIDATION_ERROR" || at(m, "error/details/field_errors/0/code") != c.code || at(m, "error/details/field_errors/0/path") != c.path {
				t.Fatalf("got %.600s\nwant VALIDATION_ERROR %s at %q", text, c.code, c.path)
			}
			if n := h.s.calls.Load(); n != 0 {
				t.Errorf("a handler ran %d times", n)
			}
		})
	}
}

// TestHostileLifted lifts the size limits: the same inputs then reach the
// suggestion and validation paths, which must answer with a bounded
// envelope by themselves (a 50 MB key once made a 200 MB envelope).
func TestHostileLifted(t *testing.T) {
	lifted := WithLimits(Limits{ArgsBytes: 1 << 30, OpBytes: 1 << 30, PathBytes: 1 << 30, KeyBytes: 1 << 30, QueryBytes: 1 << 30})
	huge := strings.Repeat("a", 4<<20)
	cases := []struct{ name, tool, args, code string }{
		{"op", ExecTool, `{"op":"` + huge + `","args":{}}`, "NOT_FOUND"},
		{"dotted_op", ExecTool, `{"op":"onto.task.` + huge + `","args":{}}`, "NOT_FOUND"},
		{"key", ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1","` + huge + `":1}}`, "VALIDATION_ERROR"},
		{"help_path", HelpTool, `{"path":"onto.` + huge + `"}`, "NOT_FOUND"},
		{"batch", BatchTool, `{"items":[{"tool":"exec","op":"` + huge + `"},{"tool":"help","path":"` + huge + `"}]}`, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, WithWrites(true), lifted)
			text := h.call(c.tool, c.args)
			if len(text) > maxAnswer {
				t.Fatalf("answer is %d bytes: %.300s", len(text), text)
			}
			m := checkEnvelope(t, c.tool, text)
			if c.code != "" && at(m, "error/code") != c.code {
				t.Fatalf("got %.600s, want %s", text, c.code)
			}
		})
	}
}

// TestFieldErrorsCapped: many violations are reported as the first
// Limits.FieldErrors and a count.
func TestFieldErrorsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"op":"onto.task.get","args":{"task_id":"t1"`)
	for i := range 500 {
		fmt.Fprintf(&b, `,"x%03d":1`, i)
	}
	b.WriteString("}}")
	h := newHarness(t)
	text := h.call(ExecTool, b.String())
	m := checkEnvelope(t, ExecTool, text)
	fe, _ := at(m, "error/details/field_errors").([]any)
	if len(fe) != 20 || at(m, "error/details/more_field_errors") != float64(480) {
		t.Fatalf("%d field errors, more_field_errors %v; want 20 and 480", len(fe), at(m, "error/details/more_field_errors"))
	}
	if msg, _ := at(m, "error/message").(string); !strings.HasSuffix(msg, "and 480 more field errors") {
		t.Errorf("message %q does not end with the count", msg)
	}
	// Configurable.
	h = newHarness(t, WithLimits(Limits{FieldErrors: 3}))
	m = checkEnvelope(t, ExecTool, h.call(ExecTool, b.String()))
	if fe, _ := at(m, "error/details/field_errors").([]any); len(fe) != 3 {
		t.Errorf("WithLimits(FieldErrors: 3): %d field errors", len(fe))
	}
}

// TestInvalidUnicodeRejected: invalid UTF-8 or an unpaired surrogate
// escape anywhere in the arguments is a VALIDATION_ERROR located by JSON
// pointer, and the handler does not run (it used to run on text with
// U+FFFD in place of what was sent).
func TestInvalidUnicodeRejected(t *testing.T) {
	cases := []struct{ name, args, path string }{
		{"utf8_value", "{\"op\":\"onto.task.create\",\"args\":{\"project_id\":\"p1\",\"title\":\"a\xffb\"}}", "/args/title"},
		{"utf8_key", "{\"op\":\"onto.task.create\",\"args\":{\"project_id\":\"p1\",\"title\":\"x\",\"t\xc3\":1}}", "/args/t\ufffd"},
		{"utf8_op", "{\"op\":\"onto.task.\xfe\",\"args\":{}}", "/op"},
		{"lone_surrogate", `{"op":"onto.task.create","args":{"project_id":"p1","title":"a\ud800b"}}`, "/args/title"},
		{"reversed_pair", `{"op":"onto.task.create","args":{"project_id":"p1","title":"\udc00\ud800"}}`, "/args/title"},
		{"in_array", "{\"op\":\"onto.task.create\",\"args\":{\"project_id\":\"p1\",\"title\":\"x\",\"tags\":[\"ok\",\"\xc0\xaf\"]}}", "/args/tags/1"},
		{"args_string", `{"op":"onto.task.create","args":"{\"project_id\":\"p1\",\"title\":\"\\ud800\"}"}`, "/args/title"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, WithWrites(true))
			text := h.call(ExecTool, c.args)
			m := checkEnvelope(t, ExecTool, text)
			if at(m, "error/code") != "VALIDATION_ERROR" || at(m, "error/details/field_errors/0/code") != "encoding" || at(m, "error/details/field_errors/0/path") != c.path {
				t.Fatalf("got %s\nwant an encoding error at %q", text, c.path)
			}
			if n := h.s.calls.Load(); n != 0 {
				t.Errorf("the handler ran %d times", n)
			}
		})
	}
	// Valid pairs, escaped U+FFFD and plain non-ASCII text pass.
	h := newHarness(t, WithWrites(true))
	m := checkEnvelope(t, ExecTool, h.call(ExecTool, `{"op":"onto.task.create","args":{"project_id":"p1","title":"\ud83d\ude00 é \ufffd 日本"}}`))
	if at(m, "ok") != true || at(m, "result/title") != "😀 é \ufffd 日本" {
		t.Fatalf("valid Unicode refused: %v", m)
	}
	for _, tool := range []string{HelpTool, SearchTool, BatchTool} {
		args := map[string]string{HelpTool: "{\"path\":\"onto\xff\"}", SearchTool: "{\"query\":\"task\xff\"}", BatchTool: "{\"items\":[{\"tool\":\"search\",\"query\":\"x\xff\"}]}"}[tool]
		m := checkEnvelope(t, tool, h.call(tool, args))
		if at(m, "error/details/field_errors/0/code") != "encoding" {
			t.Errorf("%s(%q): %v, want an encoding error", tool, args, m)
		}
	}
}

// TestDryRunThenRealCall: a dry run does not record its answer under the
// idempotency key, so the real call with the same key runs and writes
// (it used to replay the dry run: the write never happened).
func TestDryRunThenRealCall(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	create := `{"op":"onto.task.create","args":{"project_id":"p1","title":"Ship"},"idempotency_key":"k1"`
	dry := checkEnvelope(t, ExecTool, h.call(ExecTool, create+`,"dry_run":true}`))
	if at(dry, "result/would_create") != "Ship" || at(dry, "meta/dry_run") != true {
		t.Fatalf("dry run: %v", dry)
	}
	real := checkEnvelope(t, ExecTool, h.call(ExecTool, create+`}`))
	if at(real, "ok") != true || at(real, "result/id") != "t3" || at(real, "meta/dry_run") != nil {
		t.Fatalf("real call after the dry run: %v", real)
	}
	if _, ok := h.s.tasks["t3"]; !ok {
		t.Fatal("the write never happened")
	}
	// A dry run after the real call runs (as a dry run) instead of
	// replaying or conflicting; the real call still replays.
	again := checkEnvelope(t, ExecTool, h.call(ExecTool, create+`,"dry_run":true}`))
	if at(again, "meta/dry_run") != true || at(again, "result/would_create") != "Ship" {
		t.Fatalf("dry run after the real call: %v", again)
	}
	replay := checkEnvelope(t, ExecTool, h.call(ExecTool, create+`}`))
	if at(replay, "result/id") != "t3" || at(replay, "meta/trace_id") != at(real, "meta/trace_id") {
		t.Fatalf("repeat of the real call is not a replay: %v", replay)
	}
	if n := h.s.calls.Load(); n != 3 {
		t.Errorf("handler ran %d times, want 3 (dry, real, dry)", n)
	}
	// An op whose dry run is the default: the same holds when dry_run is
	// left out and then sent as false.
	reorg := `{"op":"onto.project.graph.reorganize","args":{"project_id":"p1"},"idempotency_key":"k2"`
	checkEnvelope(t, ExecTool, h.call(ExecTool, reorg+`}`))
	m := checkEnvelope(t, ExecTool, h.call(ExecTool, reorg+`,"dry_run":false}`))
	if at(m, "result/applied") != true {
		t.Fatalf("real reorganize after a default dry run: %v", m)
	}
}

// TestIdempotencyPerSession: one session's key never replays another
// session's answer.
func TestIdempotencyPerSession(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	call := `{"op":"onto.task.create","args":{"project_id":"p1","title":"Ship"},"idempotency_key":"k1"}`
	first := checkEnvelope(t, ExecTool, h.call(ExecTool, call))
	h.sess = "s2"
	second := checkEnvelope(t, ExecTool, h.call(ExecTool, call))
	if at(first, "ok") != true || at(second, "error/code") != "CONFLICT" || h.s.calls.Load() != 2 {
		t.Fatalf("session s2 got s1's answer: %v", second)
	}
}

// TestIdempotencyWithoutSessionID: a session without an ID (a stateless
// HTTP transport gives every client that) cannot keep keys per client, so
// a key is ignored with a warning: another client's call with the same key
// neither replays this one's answer nor is refused as a conflict.
func TestIdempotencyWithoutSessionID(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	h.sess = ""
	first := checkEnvelope(t, ExecTool, h.call(ExecTool, `{"op":"onto.task.create","args":{"project_id":"p1","title":"A's"},"idempotency_key":"k1"}`))
	second := checkEnvelope(t, ExecTool, h.call(ExecTool, `{"op":"onto.task.create","args":{"project_id":"p1","title":"B's"},"idempotency_key":"k1"}`))
	if at(first, "ok") != true || at(second, "ok") != true || h.s.calls.Load() != 2 {
		t.Fatalf("first %v\nsecond %v", first, second)
	}
	if w, _ := at(second, "meta/warnings/0").(string); !strings.Contains(w, "idempotency_key ignored") {
		t.Errorf("no warning: %v", second)
	}
}

// TestFingerprint: what decides an outcome changes the fingerprint;
// formatting and member order do not.
func TestFingerprint(t *testing.T) {
	base := fingerprint("a.b", false, json.RawMessage(`{"x":1,"y":"z"}`))
	same := []string{`{"y":"z","x":1}`, ` { "x" : 1 , "y" : "z" } `}
	for _, s := range same {
		if fingerprint("a.b", false, json.RawMessage(s)) != base {
			t.Errorf("%s: fingerprint differs", s)
		}
	}
	other := map[string]string{
		"op":         fingerprint("a.c", false, json.RawMessage(`{"x":1,"y":"z"}`)),
		"dry run":    fingerprint("a.b", true, json.RawMessage(`{"x":1,"y":"z"}`)),
		"value":      fingerprint("a.b", false, json.RawMessage(`{"x":2,"y":"z"}`)),
		"big number": fingerprint("a.b", false, json.RawMessage(`{"x":10000000000000001,"y":"z"}`)),
	}
	for what, fp := range other {
		if fp == base {
			t.Errorf("another %s, same fingerprint", what)
		}
	}
	if fingerprint("a.b", false, json.RawMessage(`{"x":10000000000000001}`)) == fingerprint("a.b", false, json.RawMessage(`{"x":10000000000000000}`)) {
		t.Error("numbers beyond float64 precision share a fingerprint")
	}
}

// TestLimitsDefaults documents the defaults and that zero fields keep them.
func TestLimitsDefaults(t *testing.T) {
	g, err := New(testRegistry(), newStore().tools(), WithLimits(Limits{OpBytes: 64}))
	if err != nil {
		t.Fatal(err)
	}
	want := DefaultLimits
	want.OpBytes = 64
	if got := g.Limits(); got != want {
		t.Errorf("Limits() = %+v, want %+v", got, want)
	}
}

// TestAnonymousSessionsNotReused: a session without an ID keeps one caller
// key while it lives, and a session the allocator places where a collected
// one was gets a key of its own (the key was the address before, so the
// new client inherited the old one's idempotency answers).
func TestAnonymousSessionsNotReused(t *testing.T) {
	type session struct{ pad [48]byte }
	live := new(session)
	if a, b := anonymousSession(unsafe.Pointer(live)), anonymousSession(unsafe.Pointer(live)); a != b {
		t.Fatalf("one session, two keys: %q %q", a, b)
	}
	old := map[uintptr]string{}
	for range 2000 {
		s := new(session)
		old[uintptr(unsafe.Pointer(s))] = anonymousSession(unsafe.Pointer(s))
	}
	runtime.GC()
	runtime.GC()
	var keep []*session
	reused := 0
	for range 2000 {
		s := new(session)
		keep = append(keep, s)
		if key, ok := old[uintptr(unsafe.Pointer(s))]; ok {
			reused++
			if anonymousSession(unsafe.Pointer(s)) == key {
				t.Fatalf("a new session at a collected one's address got its key %q", key)
			}
		}
	}
	if reused == 0 {
		t.Skip("the allocator reused no address")
	}
	t.Logf("%d addresses reused, each with a new key", reused)
	if anonymousSession(unsafe.Pointer(live)) == anonymousSession(unsafe.Pointer(keep[0])) {
		t.Error("two live sessions share a key")
	}
}

// TestBatchLimitPointers holds where Limits says limit errors are located
// in tool_batch: a limit of the raw arguments fails the whole call, at a
// pointer into its arguments (/items/N/…); a limit of an item's member
// fails that item, at a pointer into the item, as the direct call of its
// tool gives it; the item's result is at its index.
func TestBatchLimitPointers(t *testing.T) {
	big := strings.Repeat("a", 300)
	deep := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	ok := `{"tool":"help","path":"onto"}`
	cases := []struct {
		name, args string
		at         string // the envelope holding the error: "" for the call's, else results/N
		path, code string
	}{
		{"key", `{"items":[` + ok + `,` + ok + `,{"tool":"exec","op":"onto.task.get","args":{"` + big + `":1}}]}`, "", truncBytes("/items/2/args/"+big, 256), "maxKeyLength"},
		{"depth", `{"items":[` + ok + `,{"tool":"exec","op":"onto.task.get","args":{"x":` + deep + `}}]}`, "", "/items/1/args/x" + strings.Repeat("/0", 60), "maxDepth"},
		{"op", `{"items":[` + ok + `,{"tool":"exec","op":"` + big + `"}]}`, "result/results/1/", "/op", "maxLength"},
		{"path", `{"items":[{"tool":"help","path":"` + big + `"},` + ok + `]}`, "result/results/0/", "/path", "maxLength"},
		{"query", `{"items":[` + ok + `,` + ok + `,{"tool":"search","query":"` + strings.Repeat("q ", 600) + `"}]}`, "result/results/2/", "/query", "maxLength"},
		{"idempotency_key", `{"items":[{"tool":"exec","op":"onto.task.create","args":{"project_id":"p1","title":"x"},"idempotency_key":"` + big + `"}]}`, "result/results/0/", "/idempotency_key", "maxLength"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t, WithWrites(true))
			m := h.obj(BatchTool, c.args)
			if at(m, c.at+"error/details/field_errors/0/code") != c.code || at(m, c.at+"error/details/field_errors/0/path") != c.path {
				t.Errorf("%s: %v\nwant %s at %q", c.at, m, c.code, c.path)
			}
		})
	}
}
