package gateway

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/wire"
)

// wireDuplicates are the field errors a generated decoder gives for the
// members of args sent twice (runtime/wire reads every object's members).
func wireDuplicates(args []byte) []runtime.FieldError {
	d := wire.NewDecoder(args)
	d.Any()
	var out []runtime.FieldError
	for _, e := range d.Errors() {
		if e.Code == "duplicate" {
			out = append(out, e)
		}
	}
	return out
}

// manyMembers is an object of n members k0…k(n-1), then extra.
func manyMembers(n int, extra string) string {
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	if extra != "" {
		b.WriteString("," + extra)
	}
	b.WriteString("}")
	return b.String()
}

// repeatedShapes are arguments with and without members sent twice, at
// every depth, under escapes, in objects compared member by member and in
// objects past dupLinear, with keys a pointer escapes or cuts.
func repeatedShapes() []string {
	long := strings.Repeat("é", 200) // 400 bytes: cut in a pointer
	return []string{
		`{}`, `{"a":1,"b":2}`, `{"a":1,"a":2}`, `{"a":1,"b":2,"a":3,"a":4}`,
		`{"a":1,"\u0061":2}`, `{"\u0061":1,"a":2}`, `{"é":1,"\u00e9":2}`, `{"a":1,"A":2,"a ":3}`,
		`[{"a":1},{"a":2}]`, `{"a":{"a":{"a":1}},"b":{"a":2}}`, `{"a":{"x":1,"x":2},"b":1}`,
		`{"a":{"x":1},"x":2,"a":3}`, `{"o":{"p":1,"q":2},"p":1,"q":2,"o":0}`,
		`{"a":[1,{"b":[{"c":1,"c":2}]},{"c":3}],"a":0}`, `[[{"x":1,"x":2}],[],{"y":[{"z":1,"z":2}]}]`,
		`{"x/y~z":{"a~b":1,"a~b":2}}`, `{"":1,"":2}`, `{"\"":1,"\\":2,"\"":3}`, `{"\ud83d\ude00":1,"😀":2}`,
		`{"` + long + `":{"` + long + `":1,"` + long + `":2}}`,
		`{"s":"a\":1,\"a","s2":"{\"a\":1,\"a\":2}"}`, ` { "a" : 1 , "a" : 2 } `, `"x"`, `5`, `null`, `[]`,
		manyMembers(dupLinear, ""), manyMembers(dupLinear, `"k0":0`), manyMembers(dupLinear+1, `"k3":0`),
		manyMembers(200, `"k199":0,"k0":0,"k\u0031":1`), manyMembers(200, `"x":{"k3":0},"k999":1`),
		`[` + manyMembers(100, "") + `,` + manyMembers(100, `"k5":1`) + `]`,
		`{"a":` + manyMembers(100, `"k0":{"k0":1,"k0":2}`) + `,"k0":1,"a":2}`,
		manyMembers(100, `"n":`+manyMembers(40, `"k1":1`)+`,"m":`+manyMembers(40, "")),
		`{"a":` + manyMembers(30, `"b":`+manyMembers(30, `"c":`+manyMembers(30, `"k29":1`))) + `}`,
	}
}

// TestRepeatedArgsAsWire: the gateway finds the members sent twice that
// a generated decoder refuses, at the same pointers, in the same words
// and order, and counts those past its limit.
func TestRepeatedArgsAsWire(t *testing.T) {
	for _, s := range repeatedShapes() {
		want := wireDuplicates([]byte(s))
		got, omitted := repeatedArgs([]byte(s), 100)
		if omitted != 0 || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%.120s:\n%v (%d omitted)\nwant\n%v", s, got, omitted, want)
		}
		if len(want) > 1 {
			got, omitted := repeatedArgs([]byte(s), 1)
			if len(got) != 1 || got[0] != want[0] || omitted != len(want)-1 {
				t.Errorf("%.120s, limit 1: %v, %d omitted", s, got, omitted)
			}
		}
	}
}

// FuzzRepeatedArgs: the gateway and the generated decoders agree on the
// members sent twice in any valid JSON.
func FuzzRepeatedArgs(f *testing.F) {
	for _, s := range repeatedShapes() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) || !utf8ValidJSONStrings(s) {
			return
		}
		want := wireDuplicates([]byte(s))
		if got, _ := repeatedArgs([]byte(s), 100); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%q:\n%v\nwant\n%v", s, got, want)
		}
	})
}

// utf8ValidJSONStrings reports whether the strings of s, valid JSON, are
// valid Unicode (the gateway refuses others before looking for members
// sent twice; the generated decoders do not compare such keys).
func utf8ValidJSONStrings(s string) bool {
	return scanJSON([]byte(s), Limits{Depth: 1 << 20, KeyBytes: 1 << 30, EchoBytes: 256}) == nil
}

// TestRepeatedArgsRefused: an op's argument sent twice, at any depth, is
// refused with the field error a generated decoder gives, for a tool
// without Decode (a plain handler and schema) and for one whose Decode
// keeps the last value as encoding/json does; the handler does not run.
// A decoder that refuses them itself is left to answer (the handler's
// decoder runs, and the error is reported once).
func TestRepeatedArgsRefused(t *testing.T) {
	cases := []struct {
		tool, args string
		path, msg  string
	}{
		{ExecTool, `{"op":"util.web.visit","args":{"url":"https://a.test","url":"https://b.test"}}`, "/url", `property "url" sent twice`},
		{ExecTool, `{"op":"util.web.visit","args":{"url":"https://a.test","\u0075rl":"https://b.test"}}`, "/url", `property "url" sent twice`},
		{ExecTool, `{"op":"util.web.visit","args":{"url":[{"h":1},{"h":1,"h":2}]}}`, "/url/1/h", `property "h" sent twice`},
		{ExecTool, `{"op":"util.web.visit","args":"{\"url\":\"a\",\"url\":\"b\"}"}`, "/url", `property "url" sent twice`},
		{ExecTool, `{"op":"util.web.visit","args":{"url":"a","url":"b"},"x":1}`, "/url", `property "url" sent twice`}, // and "x" is unknown
		{ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1","task_id":"t2"}}`, "/task_id", `property "task_id" sent twice`},
		{ExecTool, `{"op":"onto.task.create","dry_run":true,"args":{"project_id":"p1","title":"a","title":"b"}}`, "/title", `property "title" sent twice`},
		{BatchTool, `{"items":[{"tool":"exec","op":"util.web.visit","args":{"url":"a","url":"b"}}]}`, "/url", `property "url" sent twice`},
	}
	for _, c := range cases {
		h := newHarness(t, WithWrites(true))
		m := h.obj(c.tool, c.args)
		env := m
		if c.tool == BatchTool {
			env, _ = at(m, "result/results/0").(map[string]any)
		}
		found := false
		for i := range 3 {
			found = found || at(env, fmt.Sprintf("error/details/field_errors/%d/path", i)) == c.path &&
				at(env, fmt.Sprintf("error/details/field_errors/%d/code", i)) == "duplicate"
		}
		if msg, _ := at(env, "error/message").(string); at(env, "ok") != false || at(env, "error/code") != "VALIDATION_ERROR" ||
			!found || !strings.Contains(msg, c.msg) {
			t.Errorf("%s(%s): %v", c.tool, c.args, env)
		}
		if n := h.s.calls.Load(); n != 0 {
			t.Errorf("%s(%s): %d handler calls, want none", c.tool, c.args, n)
		}
	}
	// Arguments without a member sent twice run as before.
	h := newHarness(t)
	if m := h.obj(ExecTool, `{"op":"util.web.visit","args":{"url":[{"h":1},{"h":2}]}}`); at(m, "ok") != true {
		t.Errorf("no repeated member: %v", m)
	}
}

// TestRepeatedArgsDecoderOwn: a Decode that refuses members sent twice
// itself, as a generated one does, keeps its answer: its handler runs and
// the error is its own, reported once.
func TestRepeatedArgsDecoderOwn(t *testing.T) {
	calls := 0
	decode := func(args json.RawMessage) (any, error) {
		d := wire.NewArgsDecoder(args)
		v := d.Any()
		return v, d.Report("strict_tool", nil)
	}
	tool := runtime.Tool{Name: "strict_tool", Parameters: json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"}}}`), Decode: decode,
		Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			calls++
			if _, err := decode(args); err != nil {
				return runtime.Result{}, err
			}
			return runtime.Result{Message: "ok", Success: true}, nil
		}}
	g, err := New(Registry{Ops: []Op{{Path: "x.strict.run", Tool: "strict_tool"}}}, []runtime.Tool{tool}, WithTraceIDs(counter()))
	if err != nil {
		t.Fatal(err)
	}
	env, err := g.handleExec(context.Background(), runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(`{"op":"x.strict.run","args":{"a":1,"a":2}}`))
	if err != nil || env.OK || len(env.Error.Details.FieldErrors) != 1 || env.Error.Details.FieldErrors[0].Path != "/a" || calls != 1 {
		t.Errorf("%d calls: %s", calls, env.Render())
	}
}
