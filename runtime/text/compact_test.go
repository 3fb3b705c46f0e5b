package text

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compactCases are JSON texts, valid and not, that tell a scanner's
// states apart: every kind of value, blanks in every place, each escape,
// numbers at each boundary of their grammar, and the bytes the HTML
// escaping rewrites.
var compactCases = []string{
	``, ` `, `{}`, `[]`, ` { } `, "\t[\n]\r", `{"a":1}`, ` { "a" : [ 1 , 2 ] , "b" : { } } `,
	`"x"`, `"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\uD83D\uDE42"`, `"\u12"`, `"\u12G4"`, `"\x"`, `"a` + "\x01" + `"`,
	`"<a href='x'>&amp;</a>"`, "\"\u2028\u2029\"", "\"\xe2\x80\"", "\"\xe2\x80\xa8\"", "\"\xff\xfe\"",
	`0`, `-0`, `01`, `-`, `1.`, `1.5`, `.5`, `1e5`, `1E+5`, `1e-5`, `1e`, `1e+`, `-1.25e-10`, `2.`, `-a`,
	`true`, `false`, `null`, `tru`, `nulll`, `True`, `truefalse`,
	`{"a"}`, `{"a":}`, `{a:1}`, `{"a":1,}`, `[1,]`, `[,1]`, `{"a":1 "b":2}`, `[1 2]`, `{"a":1]`, `[1}`,
	`[[[]]]`, `[[[]]`, `{"a":{"b":{"c":[true,false,null]}}}`, `1 2`, `{} {}`, `{}x`, "\x00", `[1e999]`,
}

// TestCompactJSON holds ValidJSON to json.Valid and AppendCompactJSON to
// json.Compact (without HTML escaping) and to json.Marshal of a
// json.RawMessage (with it).
func TestCompactJSON(t *testing.T) {
	for _, s := range compactCases {
		checkCompact(t, []byte(s))
	}
}

// TestCompactJSONDepth: arrays and objects nest maxJSONDepth deep, and no
// deeper, as in encoding/json; empty containers count.
func TestCompactJSONDepth(t *testing.T) {
	for _, depth := range []int{maxJSONDepth - 1, maxJSONDepth, maxJSONDepth + 1} {
		for _, pair := range []string{"[]", `{"k":}`} {
			open, close := pair[:len(pair)-1], pair[len(pair)-1:]
			var b strings.Builder
			b.WriteString(strings.Repeat(open, depth-1))
			b.WriteString(pair[:1] + close) // the innermost container is empty
			for range depth - 1 {
				b.WriteString(close)
			}
			if got, want := ValidJSON([]byte(b.String())), depth <= maxJSONDepth; got != want {
				t.Errorf("depth %d of %s: ValidJSON = %v, want %v", depth, pair, got, want)
			}
			checkCompact(t, []byte(b.String()))
		}
	}
}

// TestCompactJSONCorpora compares on every JSON file of the shared corpus
// (tool definitions, the JSON Schema Test Suite), as they are and with
// their blanks.
func TestCompactJSONCorpora(t *testing.T) {
	root := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(root); err != nil {
		t.Skip("../shared/corpus is absent")
	}
	n := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		n++
		checkCompact(t, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files", n)
}

func FuzzCompactJSON(f *testing.F) {
	for _, s := range compactCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkCompact(t, b)
	})
}

func checkCompact(t *testing.T, src []byte) {
	t.Helper()
	valid := json.Valid(src)
	if got := ValidJSON(src); got != valid {
		t.Fatalf("ValidJSON(%.80q) = %v, json.Valid %v", src, got, valid)
	}
	prefix := []byte("prefix")
	var want bytes.Buffer
	want.Write(prefix)
	if err := json.Compact(&want, src); (err == nil) != valid {
		t.Fatalf("json.Compact(%.80q): %v, json.Valid %v", src, err, valid)
	}
	got, ok := AppendCompactJSON(bytes.Clone(prefix), src, false)
	if ok != valid || !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("AppendCompactJSON(%.80q, false) = %.80q, %v; json.Compact %.80q, %v", src, got, ok, want.Bytes(), valid)
	}
	wantHTML, err := json.Marshal(json.RawMessage(src))
	if valid && err != nil {
		t.Fatalf("json.Marshal(%.80q): %v", src, err)
	}
	got, ok = AppendCompactJSON(bytes.Clone(prefix), src, true)
	if !valid {
		wantHTML = nil
	}
	if ok != valid || !bytes.Equal(got, append(bytes.Clone(prefix), wantHTML...)) {
		t.Fatalf("AppendCompactJSON(%.80q, true) = %.80q, %v; json.Marshal %.80q, %v", src, got, ok, wantHTML, valid)
	}
}
