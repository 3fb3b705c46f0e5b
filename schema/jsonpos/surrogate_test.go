package jsonpos

import (
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// TestUnpairedSurrogate finds the escape the parser replaced with U+FFFD,
// in values and keys, at its own line and column, pairing surrogates as
// the parser does; a string without one (a pair, an escaped backslash, a
// literal U+FFFD) has none.
func TestUnpairedSurrogate(t *testing.T) {
	doc := "\uFEFF{\"a\":\"x\\ud800y\",\n \"\\udc00k\":\"\\ud83d\\ude00\",\n" +
		" \"b\":\"\\\\ud800 \\u00e9 \uFFFD\", \"c\":\"\\ud83d\\ud83d\\ude00\", \"d\":[\"\\t\\uDFFF\"],\n" +
		" \"e\":\"\\ud83d\"}"
	root, err := Parse("f.json", []byte(doc))
	if err != nil {
		t.Fatal(err)
	}
	src := NewSource(doc)
	if !MayHoldSurrogates(doc) || MayHoldSurrogates(`{"a":"\u00e9"}`) {
		t.Errorf("MayHoldSurrogates")
	}
	cases := []struct {
		name string
		at   ir.Pos
		want string // "line:col esc", or "" for none
	}{
		{"value", root.Get("a").Pos, "1:8 \\ud800"},
		{"key", root.Members[1].KeyPos(), "2:3 \\udc00"},
		{"pair", root.Members[1].Value.Pos, ""},
		{"escaped backslash, literal U+FFFD", root.Get("b").Pos, ""},
		{"high before a pair", root.Get("c").Pos, "3:33 \\ud83d"},
		{"upper case, in an array", root.Get("d").Items[0].Pos, "3:62 \\uDFFF"},
		{"at the end", root.Get("e").Pos, "4:7 \\ud83d"},
		{"not a string", root.Get("d").Pos, ""},
		{"off the text", ir.Pos{Line: 9, Col: 1}, ""},
	}
	for _, c := range cases {
		pos, esc, ok := src.UnpairedSurrogate(c.at)
		got := ""
		if ok {
			got = fmt.Sprintf("%d:%d %s", pos.Line, pos.Col, esc)
			if pos.File != c.at.File || pos.Pointer != c.at.Pointer {
				t.Errorf("%s: position %+v lost the file or pointer of %+v", c.name, pos, c.at)
			}
		}
		if got != c.want {
			t.Errorf("%s: got %q, want %q", c.name, got, c.want)
		}
	}
	// Each string the parser marked has an escape found.
	for _, n := range []*Node{root.Get("a"), root.Get("c"), root.Get("d").Items[0], root.Get("e")} {
		if !n.Replaced {
			t.Errorf("%s not marked Replaced", n.Pos.Pointer)
		}
	}
}
