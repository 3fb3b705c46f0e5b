package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema/ir"
)

func TestParsePositions(t *testing.T) {
	src := "{\n  \"a\": [1, true,\n    null],\n\t\"b/c~d\": {\"x\": \"é\", \"y\": -0.5e+3}\n}"
	n, err := Parse("f.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	type want struct {
		node *Node
		pos  ir.Pos
	}
	a := n.Get("a")
	bc := n.Get("b/c~d")
	for _, w := range []want{
		{n, ir.Pos{File: "f.json", Line: 1, Col: 1, Pointer: ""}},
		{a, ir.Pos{File: "f.json", Line: 2, Col: 8, Pointer: "/a"}},
		{a.Items[0], ir.Pos{File: "f.json", Line: 2, Col: 9, Pointer: "/a/0"}},
		{a.Items[1], ir.Pos{File: "f.json", Line: 2, Col: 12, Pointer: "/a/1"}},
		{a.Items[2], ir.Pos{File: "f.json", Line: 3, Col: 5, Pointer: "/a/2"}},
		{bc, ir.Pos{File: "f.json", Line: 4, Col: 11, Pointer: "/b~1c~0d"}},
		{bc.Get("x"), ir.Pos{File: "f.json", Line: 4, Col: 17, Pointer: "/b~1c~0d/x"}},
		// "é" is two bytes, so the column after it moves by two.
		{bc.Get("y"), ir.Pos{File: "f.json", Line: 4, Col: 28, Pointer: "/b~1c~0d/y"}},
	} {
		if w.node.Pos != w.pos {
			t.Errorf("node %s: pos = %+v, want %+v", w.pos.Pointer, w.node.Pos, w.pos)
		}
	}
	if got := n.Members[1].KeyPos(); got != (ir.Pos{File: "f.json", Line: 4, Col: 2, Pointer: "/b~1c~0d"}) {
		t.Errorf("key pos = %+v", got)
	}
	if got := bc.Get("y").Num; got != "-0.5e+3" {
		t.Errorf("number literal = %q", got)
	}
	if got := bc.Get("x").Str; got != "é" {
		t.Errorf("string = %q", got)
	}
}

func TestParseValues(t *testing.T) {
	tests := []struct {
		in   string
		want string // compact re-encoding
	}{
		{`null`, `null`},
		{` true `, `true`},
		{`false`, `false`},
		{`0`, `0`},
		{`-0`, `-0`},
		{`1.50`, `1.50`},
		{`1E400`, `1E400`},
		{`123456789012345678901234567890`, `123456789012345678901234567890`},
		{`"a\"\\\/\b\f\n\r\t"`, `"a\"\\/\b\f\n\r\t"`},
		{`"\u00e9\u4e2d"`, `"é中"`},
		{`"\ud83d\ude00"`, `"😀"`},
		{`"\ud83d"`, `"�"`},
		{`"\ud83dx"`, `"�x"`},
		{`"中文 text"`, `"中文 text"`},
		{`[]`, `[]`},
		{`{}`, `{}`},
		{`{"z":1,"a":2,"m":3}`, `{"z":1,"a":2,"m":3}`},
		{"\uFEFF{\"a\":[1,[2,{}]]}", `{"a":[1,[2,{}]]}`},
		{`{"":1}`, `{"":1}`},
	}
	for _, tt := range tests {
		n, err := Parse("t.json", []byte(tt.in))
		if err != nil {
			t.Errorf("Parse(%q): %v", tt.in, err)
			continue
		}
		if got := string(n.JSON()); got != tt.want {
			t.Errorf("Parse(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{``, `t.json:1:1: /: unexpected end of input`},
		{`   `, `t.json:1:4: /: unexpected end of input`},
		{`{"a":1 "b":2}`, `t.json:1:8: /: expected ',' or '}' after object member, found character '"'`},
		{`[1 2]`, `t.json:1:4: /: expected ',' or ']' after array element, found character '2'`},
		{`{"a" 1}`, `t.json:1:6: /a: expected ':' after object key, found character '1'`},
		{`{a:1}`, `t.json:1:2: /: expected '"' to begin object key, found character 'a'`},
		{"{\n  \"a\": \"x\\qy\"}", `t.json:2:10: /a: invalid escape "\\q" in string`},
		{`"\u12G4"`, `t.json:1:2: /: invalid \u escape: expected four hex digits`},
		{"{\"a\": [1,\n  {\"b\": tru}]}", `t.json:2:12: /a/1/b: unexpected character '}' in literal true`},
		{`{"a":1,"b":2,"a":3}`, `t.json:1:14: /a: duplicate key "a" (first at 1:2)`},
		{`{"a\ud800":1,"a\udc00":2}`, `t.json:1:14: /a` + "\ufffd" + `: duplicate key "a` + "\ufffd" + `" (first at 1:2); an unpaired surrogate escape (\ud800 to \udfff) is not text and reads as U+FFFD`},
		{`{"a":1,}`, `t.json:1:7: /: trailing comma before '}'`},
		{"[1,\n]", `t.json:1:3: /: trailing comma before ']'`},
		{`[1,2`, `t.json:1:5: /: unexpected end of input`},
		{`{"a":`, `t.json:1:6: /a: unexpected end of input`},
		{`"abc`, `t.json:1:5: /: unexpected end of input in string`},
		{"\"a\tb\"", `t.json:1:3: /: invalid control character U+0009 in string`},
		{"\"a\xffb\"", `t.json:1:3: /: invalid UTF-8 in string`},
		{`01`, `t.json:1:2: /: invalid number: leading zero`},
		{`-`, `t.json:1:2: /: unexpected end of input in number`},
		{`-a`, `t.json:1:2: /: invalid number: expected digit after '-', found character 'a'`},
		{`1.`, `t.json:1:3: /: invalid number: expected digit after '.', found end of input`},
		{`1e+`, `t.json:1:4: /: invalid number: expected digit in exponent, found end of input`},
		{`12a`, `t.json:1:3: /: invalid number: unexpected character 'a'`},
		{`{} x`, `t.json:1:4: /: unexpected character 'x' after top-level value`},
		{`[nulll]`, `t.json:1:6: /0: unexpected character 'l' after literal null`},
		{`[+1]`, `t.json:1:2: /0: unexpected character '+', expected a JSON value`},
		{`{"a":'x'}`, `t.json:1:6: /a: unexpected character '\'', expected a JSON value`},
		{"[\xff]", `t.json:1:2: /0: unexpected invalid UTF-8 byte, expected a JSON value`},
		{`{"minimum":1.` + strings.Repeat("0", 4095) + `1}`, `t.json:1:12: /minimum: number of 4098 characters: numbers are read up to 4096 characters (every int64 and float64 is written in far fewer)`},
	}
	for _, tt := range tests {
		_, err := Parse("t.json", []byte(tt.in))
		if err == nil {
			t.Errorf("Parse(%q): no error, want %s", tt.in, tt.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("Parse(%q): error %T is not *Error", tt.in, err)
		}
		if got := err.Error(); got != tt.want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestParseDepth(t *testing.T) {
	ok := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	if _, err := Parse("d.json", []byte(ok)); err != nil {
		t.Fatalf("depth %d: %v", MaxDepth, err)
	}
	deep := strings.Repeat(`{"a":`, MaxDepth+1)
	_, err := Parse("d.json", []byte(deep))
	if err == nil || !strings.Contains(err.Error(), "nesting deeper than 512 levels") {
		t.Fatalf("depth %d: err = %v", MaxDepth+1, err)
	}
	// A million open brackets must fail cleanly, not overflow the stack.
	if _, err := Parse("d.json", bytes.Repeat([]byte("["), 1_000_000)); err == nil {
		t.Fatal("no error for a million open brackets")
	}
}

// TestParseCorpus checks that every corpus file parses and re-encodes
// to the same value encoding/json sees.
func TestParseCorpus(t *testing.T) {
	corpus := corpus.Dir(t)
	files, _ := filepath.Glob(filepath.Join(corpus, "tools", "*", "*.json"))
	if len(files) == 0 {
		t.Skip("no corpus tool files")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		n, err := Parse(f, data)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if !sameJSON(t, data, n.JSON()) {
			t.Errorf("%s: re-encoding differs from the input", f)
		}
	}
}

func sameJSON(t testing.TB, a, b []byte) bool {
	t.Helper()
	decode := func(data []byte) any {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if err := d.Decode(&v); err != nil {
			t.Fatalf("decode %q: %v", data, err)
		}
		return v
	}
	return reflect.DeepEqual(decode(a), decode(b))
}

// FuzzParse checks Parse against encoding/json: it accepts only
// valid JSON, rejects valid JSON only for duplicate keys, invalid UTF-8 or
// depth, and its re-encoding means the same value.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"a":[1,2.5e3,"x\u00e9"],"b":{"c":null,"d":true}}`,
		`[{"type":"function","function":{"name":"f","parameters":{}}}]`,
		`"\ud83d\ude00"`, `{"a":1,"a":2}`, `[1,]`, "\uFEFF[]", `-0.0E-0`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse("fuzz.json", data)
		valid := json.Valid(bytes.TrimPrefix(data, []byte("\uFEFF")))
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not *Error", err)
			}
			if valid && !strings.Contains(e.Message, "duplicate key") &&
				!strings.Contains(e.Message, "invalid UTF-8") &&
				!strings.Contains(e.Message, "nesting deeper") &&
				!strings.Contains(e.Message, "long keys are nested too deep") {
				t.Fatalf("rejected valid JSON %q: %v", data, err)
			}
			return
		}
		if !valid {
			t.Fatalf("accepted invalid JSON %q", data)
		}
		if !sameJSON(t, bytes.TrimPrefix(data, []byte("\uFEFF")), n.JSON()) {
			t.Fatalf("re-encoding of %q differs: %s", data, n.JSON())
		}
	})
}

func BenchmarkParse(b *testing.B) {
	corpus := corpus.Dir(b)
	data, err := os.ReadFile(filepath.Join(corpus, "tools", "mcp_npm", "ALL.tools.json"))
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse("ALL.tools.json", data); err != nil {
			b.Fatal(err)
		}
	}
}

// Long keys nested deep would make node pointers quadratic in the input:
// the pointer budget stops them with a located error, quickly.
func TestParsePointerBudget(t *testing.T) {
	key := `"` + strings.Repeat("k", 5000) + `":`
	deep := strings.Repeat("{"+key, 500) + "1" + strings.Repeat("}", 500)
	_, err := Parse("p.json", []byte(deep))
	if err == nil || !strings.Contains(err.Error(), "long keys are nested too deep") || !strings.HasPrefix(err.Error(), "p.json:1:") {
		t.Fatalf("err = %v", err)
	}
}

// An unpaired surrogate escape is read as U+FFFD and marked (Replaced),
// on the string that had it only: a key's does not mark its value.
func TestReplacedSurrogate(t *testing.T) {
	n, err := Parse("f.json", []byte(`{"a":"\ud800","\udc00":"x","b":"\ud83d\ude00","c":["\udfff"]}`))
	if err != nil {
		t.Fatal(err)
	}
	got := []bool{n.Get("a").Replaced, n.Members[1].Value.Replaced, n.Get("b").Replaced, n.Get("c").Items[0].Replaced}
	if want := []bool{true, false, false, true}; !slices.Equal(got, want) {
		t.Errorf("Replaced = %v, want %v", got, want)
	}
	if n.Get("a").Str != "\uFFFD" || n.Get("b").Str != "😀" {
		t.Errorf("strings %q %q", n.Get("a").Str, n.Get("b").Str)
	}
}

// TestParseLongestNumber: a number of MaxNumberLen characters is read (the
// exact decimal of the least float64 has 1,076).
func TestParseLongestNumber(t *testing.T) {
	lit := "0." + strings.Repeat("0", MaxNumberLen-3) + "5"
	n, err := Parse("t.json", []byte(lit))
	if err != nil || n.Num != lit {
		t.Fatalf("Parse(%d characters): %v", len(lit), err)
	}
}
