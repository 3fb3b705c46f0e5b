package gateway

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	goruntime "runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// allocated returns the bytes the heap handed out while f ran (f runs
// alone: the test is not parallel).
func allocated(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.GC()
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A megabyte of members spread next to op costs a few times its size:
// the envelope's members are read in place and copied once, into the
// merged arguments, and the gateway's own argument check (a tool without
// Decode) keeps the names of the unknown ones, not an error each. A map of
// them, their sorted keys, a second map, a re-encoding and an error per
// member cost 70 to 140 times the input.
func TestStrayMembersCost(t *testing.T) {
	h := newHarness(t, WithWrites(true))
	cases := []struct{ name, args string }{
		{"unknown_op", strayMembers(`{"op":"x.y"`, `"zz%d":1`, 1<<20)},
		{"escaped_names", strayMembers(`{"op":"x.y"`, `"\u007a%d":1`, 1<<20)},
		{"unknown_args", strayMembers(`{"op":"util.web.visit","url":"https://x.test"`, `"zz%d":1`, 1<<20)},
		{"beside_args", strayMembers(`{"op":"util.web.visit","args":{"url":"https://x.test"}`, `"zz%d":1`, 1<<20)},
		{"idempotent", strayMembers(`{"op":"util.web.visit","idempotency_key":"k1","url":"https://x.test"`, `"zz%d":1`, 1<<20)},
		{"huge_name", `{"op":"x.y","` + strings.Repeat("k", 1<<20-32) + `":1}`},
	}
	const most = 6 // times the input
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "huge_name" {
				h = newHarness(t, WithWrites(true), WithLimits(Limits{KeyBytes: 1 << 30}))
			}
			raw := json.RawMessage(c.args)
			tc := runtime.NewToolContext(runtime.ContextParts{Session: session("s1")})
			var answer string
			n := allocated(func() {
				res, err := runtime.Dispatch(context.Background(), h.tools[ExecTool], tc, raw)
				if err != nil {
					t.Fatal(err)
				}
				answer = runtime.RenderResult(res)
			})
			ratio := float64(n) / float64(len(raw))
			t.Logf("%d bytes of arguments: %d bytes allocated, %.1f times", len(raw), n, ratio)
			if ratio > most {
				t.Errorf("%d bytes of arguments: %d bytes allocated, %.1f times; want at most %d times", len(raw), n, ratio, most)
			}
			if len(answer) > 8<<10 || !strings.Contains(answer, `"ok":false`) {
				t.Errorf("answer (%d bytes): %.600s", len(answer), answer)
			}
		})
	}
}

// The answer to thousands of unknown arguments next to op names the first
// ones by name, with the nearest known name for a misspelled one, and
// counts the rest: its text is pinned here (Limits.FieldErrors 3).
func TestStrayMembersBoundedError(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"op":"util.web.visit","urll":"https://x.test"`)
	for i := range 5000 {
		b.WriteString(`,"zz` + strconv.Itoa(4999-i) + `":1`) // sent last to first
	}
	b.WriteString(`}`)
	h := newHarness(t, WithWrites(true), WithLimits(Limits{FieldErrors: 3}))
	got := h.call(ExecTool, b.String())
	want := `{"op":"util.web.visit","ok":false,"error":{"code":"VALIDATION_ERROR",` +
		`"message":"invalid args for util.web.visit: /url: url is required; /urll: unknown argument \"urll\" (did you mean \"url\"?); /zz0: unknown argument \"zz0\". Required: url; and 4999 more field errors",` +
		`"details":{"field_errors":[{"path":"/url","code":"required","message":"url is required"},` +
		`{"path":"/urll","code":"additionalProperties","message":"unknown argument \"urll\"","suggestion":"url"},` +
		`{"path":"/zz0","code":"additionalProperties","message":"unknown argument \"zz0\""}],` +
		`"required":["url"],"example":{"op":"util.web.visit","args":{"url":"https://example.com"}},"more_field_errors":4999},"help_path":"util.web.visit"},` +
		`"meta":{"trace_id":"tr_1","latency_ms":0,"warnings":["arguments were sent next to op; put them inside \"args\""]}}`
	if got != want {
		t.Errorf("answer:\n%s\nwant:\n%s", got, want)
	}
	// With the default limits, the first twenty by name.
	h = newHarness(t, WithWrites(true))
	got = h.call(ExecTool, b.String())
	var env struct {
		Error struct {
			Message string
			Details struct {
				FieldErrors []runtime.FieldError `json:"field_errors"`
				More        int                  `json:"more_field_errors"`
			}
		}
	}
	if err := json.Unmarshal([]byte(got), &env); err != nil {
		t.Fatal(err)
	}
	fe := env.Error.Details.FieldErrors
	if len(fe) != 20 || env.Error.Details.More != 5002-20 || fe[2].Path != "/zz0" || fe[3].Path != "/zz1" || fe[4].Path != "/zz10" ||
		!strings.HasSuffix(env.Error.Message, "; and 4982 more field errors") {
		t.Errorf("answer: %s", got)
	}
}

// Arguments next to op join those inside args: args' members first, as
// sent, then the others in the order they were sent; a name sent both
// ways is one argument when its values are the same JSON, a conflict
// otherwise, names compared decoded.
func TestStrayMembersMerge(t *testing.T) {
	for _, c := range []struct{ args, env, want, conflict string }{
		{`{}`, `{"op":"x","b":1,"a":[1, 2]}`, `{"b":1,"a":[1, 2]}`, ""},
		{`{ "b" : 1 }`, `{"op":"x","c":2,"args":{"b":1},"a":3,"b":1}`, `{"b" : 1,"c":2,"a":3}`, ""},
		{`{"b":{"x":[1,2]}}`, `{"op":"x","b":{ "x" : [ 1 , 2 ] }}`, `{"b":{"x":[1,2]}}`, ""},
		{`{"task_id":"t1"}`, `{"op":"x","task\u005fid":"t2"}`, "", "/args/task_id"},
		{`{"a":1,"a":2}`, `{"op":"x","a":2}`, `{"a":1,"a":2}`, ""}, // the last value is compared, as encoding/json keeps it
		{`{"\u0061":1}`, `{"op":"x","a":1,"\u0062":2}`, `{"\u0061":1,"\u0062":2}`, ""},
		{`{}`, `{"op":"x","dry_run":true,"tool":"exec","idempotency_key":"k","z":null}`, `{"z":null}`, ""},
	} {
		got, fail := mergeStray(json.RawMessage(c.args), json.RawMessage(c.env))
		switch {
		case c.conflict != "":
			if fail == nil || len(fail.Details.FieldErrors) != 1 || fail.Details.FieldErrors[0].Path != c.conflict {
				t.Errorf("mergeStray(%s, %s) = %s, %+v; want a conflict at %s", c.args, c.env, got, fail, c.conflict)
			}
		case fail != nil || string(got) != c.want:
			t.Errorf("mergeStray(%s, %s) = %s, %+v; want %s", c.args, c.env, got, fail, c.want)
		}
	}
	// Through tool_exec: an escaped name of tool_exec's own is that
	// member, and the spread arguments reach the op.
	h := newHarness(t, WithWrites(true))
	play(t, h, []step{
		{tool: ExecTool, args: `{"\u006fp":"onto.task.get","task\u005fid":"t1"}`,
			want: map[string]any{"ok": true, "result/id": "t1"}},
		{tool: ExecTool, args: `{"op":"onto.task.update","args":{"task_id":"t1"},"state_key":"done","title":"Spec"}`,
			want: map[string]any{"ok": true, "result/state_key": "done", "result/title": "Spec"}},
		{tool: ExecTool, args: `{"op":"onto.task.get","task_id":"t1","Dry_Run":true,"OP":"x"}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/path": "/Dry_Run"}},
		{tool: ExecTool, args: `{"op":"onto.task.get","task_id":"t1","op":"onto.task.list"}`,
			want: map[string]any{"ok": false, "error/details/field_errors/0/code": "duplicate"}},
	})
}

// The argument check of a tool without Decode reports the first unknown
// arguments by name and counts the others, each name once, and then the
// members sent twice.
func TestStrayCheckArgs(t *testing.T) {
	h := newHarness(t)
	b := h.g.ops["util.web.visit"]
	fe, omitted := b.checkArgs(json.RawMessage(`{"zz":1,"b":2,"url":"u","a":3,"zz":4,"c":5}`), 2)
	var paths []string
	for _, f := range fe {
		paths = append(paths, f.Path+" "+f.Code)
	}
	if strings.Join(paths, ", ") != "/a additionalProperties, /b additionalProperties, /zz duplicate" || omitted != 2 {
		t.Errorf("checkArgs: %v, %d omitted; want /a, /b, /zz sent twice, 2 omitted", paths, omitted)
	}
	fe, omitted = b.checkArgs(json.RawMessage(`{"x~y/z":1}`), 20)
	if len(fe) != 2 || fe[0].Path != "/url" || fe[1].Path != "/x~0y~1z" || omitted != 0 {
		t.Errorf("checkArgs: %+v, %d omitted", fe, omitted)
	}
}

// oldCanonical is the canonical form fingerprints hashed before
// appendCanonical: json.Marshal of the value a json.Decoder with
// UseNumber reads. Stored idempotency records hold fingerprints of it.
func oldCanonical(args []byte) ([]byte, bool) {
	dec := json.NewDecoder(strings.NewReader(string(args)))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return nil, false
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

var canonicalSeeds = []string{
	`{"\u0062":1,"\u0061":2,"a":3}`, `{"\ud800":1,"\udc00":2}`,
	`{}`, `{"b":1,"a":2}`, `{"a":1,"a":2}`, `{"\u0061":1,"a":2,"b":[3,{"z":1,"y":[]}]}`,
	`{ "x" : [ 1.50 , -0 , 1e3 , 10000000000000001 , true , false , null ] }`,
	`{"s":"<a href=\"x\">&amp;</a>","t":"\u2028\u2029","u":"\ud83d\ude00\ud83d","v":"\/\b\f\n\r\t\u0001"}`,
	"{\"bad\":\"\xff\xfe\",\"caf\xc3\xa9\":\"\\u00e9\"}",
	`{"<k>":{"&":{"b":1,"a":{"d":1,"c":2,"d":3}}},"":0}`,
	`[{"b":1,"a":2},[],{}]`, `"x"`, `12`, `{"a":[{"b":[{"c":{"e":1,"d":2}}]}]}`,
}

// The canonical form of arguments, which idempotency fingerprints hash,
// is what it was, byte for byte (records stored before stay valid),
// however its members are spread.
func TestStrayCanonicalUnchanged(t *testing.T) {
	var many strings.Builder
	many.WriteString(`{"op":"x"`)
	for i := range 3000 {
		many.WriteString(`,"k` + strconv.Itoa((i*7919)%3000) + `":{"v":` + strconv.Itoa(i) + `,"a":"<` + strconv.Itoa(i) + `>"}`)
	}
	many.WriteString(`,"k17":"last"}`)
	for _, s := range append(canonicalSeeds, many.String()) {
		want, ok := oldCanonical([]byte(s))
		if !ok {
			t.Fatalf("%s: not JSON", s)
		}
		var c canonicalizer
		got, ok := c.append(nil, []byte(s))
		if !ok || string(got) != string(want) {
			t.Errorf("canonical form of %.200s:\n%.300s (%v)\nwant\n%.300s", s, got, ok, want)
		}
		// Hashed as it goes, a buffer at a time.
		h := fingerprintHash("a.b", false)
		h.Write(want)
		if got, want := fingerprint("a.b", false, json.RawMessage(s)), hex.EncodeToString(h.Sum(nil)[:16]); got != want {
			t.Errorf("fingerprint of %.200s: %s, want %s", s, got, want)
		}
	}
}

// TestCanonicalEscapedNames: the canonical form of objects whose names
// have escapes, decoded once each before the sort, is what it was, byte
// for byte: names equal once decoded ("a", "\u0061"; two unpaired
// surrogates, both U+FFFD) are one name and the last sent is kept,
// whatever the order and the size of the object (sorted in place up to
// a few members, merged past them).
func TestCanonicalEscapedNames(t *testing.T) {
	shapes := []string{
		`{"\u0061":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"\u0062":1,"\u0061":2,"a":3,"\u0062":4}`,
		`{"\ud800":1,"\udc00":2}`, `{"\ud83d\ude00":1,"😀":2,"\u00e9":3,"é":4}`, `{"\"":1,"\\":2,"\/":3,"/":4}`,
		`{"\u003c":1,"<":2,"\u0026":3,"\u2028":4}`, `{"\u0000":1,"":2,"\u0000\u0000":3}`,
		`{"\u00e9\u00e9":{"\u0062":1,"\u0061":[{"\u0064":1,"\u0063":2}],"b":0},"\u00e9":1}`,
		`[{"\u0062":1,"\u0061":2},{"a":1,"\u0061":2}]`,
		shuffledMembers(`"\u00e9%d":1`, 8<<10), shuffledMembers(`"%d\u00e9":{"\u0062":1,"a":2}`, 8<<10),
		shuffledMembers(`"`+strings.Repeat(`\u00e9`, 20)+`%d":[%[1]d]`, 16<<10),
	}
	// Each name sent twice, escaped and not, in both orders.
	var b strings.Builder
	b.WriteString("{")
	for i := range 500 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"k\u00e9%d":%d,"ké%d":-%d`, (i*31)%500, i, (i*17)%500, i)
	}
	b.WriteString("}")
	shapes = append(shapes, b.String())
	for _, s := range shapes {
		want, ok := oldCanonical([]byte(s))
		if !ok {
			t.Fatalf("%.100s: not JSON", s)
		}
		var c canonicalizer
		if got, ok := c.append(nil, []byte(s)); !ok || string(got) != string(want) {
			t.Errorf("canonical form of %.200s:\n%.300s (%v)\nwant\n%.300s", s, got, ok, want)
		}
	}
}

// TestCanonicalNamesDecodedOnce: the sort of an object's members reads
// each name where readMembers put it, decoded once: comparing two names
// decodes and allocates nothing (decoding both names at each comparison
// cost some 200 ns a byte of names sent out of order).
func TestCanonicalNamesDecodedOnce(t *testing.T) {
	v := []byte(`{"\u00e9b":1, "plain":2,"\u00e9a":3}`)
	var c canonicalizer
	if !c.readMembers(v) || len(c.members) != 3 {
		t.Fatalf("readMembers: %v", c.members)
	}
	want := []string{"éb", "plain", "éa"}
	for i, m := range c.members {
		if got := string(c.name(v, m)); got != want[i] {
			t.Errorf("member %d: name %q, want %q", i, got, want[i])
		}
	}
	if n := testing.AllocsPerRun(100, func() { c.name(v, c.members[0]); c.name(v, c.members[1]) }); n != 0 {
		t.Errorf("reading a name allocates %v times", n)
	}
	if c.members[0].name == plainName || c.members[1].name != plainName {
		t.Errorf("escaped names are not decoded once, or plain ones are: %v", c.members)
	}
}

func FuzzStrayCanonical(f *testing.F) {
	for _, s := range canonicalSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !json.Valid([]byte(s)) || text.JSONNesting(s) > 64 {
			return
		}
		want, ok := oldCanonical([]byte(s))
		if !ok {
			return
		}
		var c canonicalizer
		got, ok := c.append(nil, bytes.TrimSpace([]byte(s)))
		if !ok || string(got) != string(want) {
			t.Errorf("canonical form of %q: %q (%v), want %q", s, got, ok, want)
		}
	})
}

// BenchmarkFingerprint measures the fingerprint of idempotent calls'
// args: ordinary ones, and a megabyte of members sent out of order whose
// names have escapes (decoded once each, not at every comparison of the
// sort: some 200 ns a byte before), are plain, or hold nested objects.
func BenchmarkFingerprint(b *testing.B) {
	cases := []struct{ name, args string }{
		{"ordinary", `{"project_id":"p1","title":"Write the launch post","state_key":"todo","tags":["a","b"],"due":{"day":3,"month":4}}`},
		{"escaped_names_1MB", shuffledMembers(`"\u00e9%d":1`, 1<<20)},
		{"long_escaped_names_1MB", shuffledMembers(`"`+strings.Repeat(`\u00e9`, 40)+`%d":1`, 1<<20)},
		{"plain_names_1MB", shuffledMembers(`"zz%d":1`, 1<<20)},
		{"nested_1MB", shuffledMembers(`"\u006b%d":{"\u0062":1,"\u0061":[{"d":1,"c":2}]}`, 1<<20)},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			args := json.RawMessage(c.args)
			b.SetBytes(int64(len(args)))
			b.ReportAllocs()
			for b.Loop() {
				fingerprint("a.b", false, args)
			}
		})
	}
}

// shuffledMembers is the JSON object of the members made from format
// (with %d) that fit in about size bytes, numbered out of order.
func shuffledMembers(format string, size int) string {
	n := size / (len(fmt.Sprintf(format, 100000)) + 1)
	var b strings.Builder
	b.WriteString("{")
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, format, (i*7919)%n)
	}
	b.WriteString("}")
	return b.String()
}
