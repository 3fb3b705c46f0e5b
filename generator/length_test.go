package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// lengthsFamily has one tool whose string arguments carry length bounds
// the bytes of a string decide only in part: minLength 1, 3 and 4,
// maxLength 2 and 4, both.
func lengthsFamily() *ir.Family {
	bounded := func(minLen, maxLen *int64) *ir.Type {
		return &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{MinLength: minLen, MaxLength: maxLen}}
	}
	params := &ir.Type{ID: "lengths", GoName: "LengthsParams", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "a", GoName: "A", Required: true, Type: bounded(i64(1), nil)},
		{JSONName: "b", GoName: "B", Required: true, Type: bounded(i64(3), nil)},
		{JSONName: "c", GoName: "C", Required: true, Type: bounded(nil, i64(2))},
		{JSONName: "d", GoName: "D", Required: true, Type: bounded(i64(2), i64(5))},
		{JSONName: "e", GoName: "E", Required: true, Type: bounded(i64(4), i64(4))},
	}}
	return &ir.Family{
		Package: "lengths",
		Sources: []string{"tools.json"},
		Tools: []*ir.Tool{{Name: "lengths", GoName: "Lengths", Description: "Lengths.", Pos: pos("/0"), Params: params,
			ParamsSchema: raw(`{"type":"object"}`)}},
		Types: []*ir.Type{params},
	}
}

// TestLengthBehave: the generated length checks count runes only when
// the bytes leave a bound open, and agree with a plain count of runes on
// every string of up to seven runes of one to four bytes each.
func TestLengthBehave(t *testing.T) {
	testGenerated(t, lengthsFamily(), "lengths_test.go", []byte(lengthsBehaviour))
}

const lengthsBehaviour = `package lengths

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestLengths(t *testing.T) {
	bounds := map[string][2]int{"a": {1, -1}, "b": {3, -1}, "c": {-1, 2}, "d": {2, 5}, "e": {4, 4}}
	var strs []string
	var gen func(s string, n int)
	gen = func(s string, n int) {
		strs = append(strs, s)
		if n == 0 {
			return
		}
		for _, r := range []string{"a", "\u00e9", "\u20ac", "\U0001F600"} {
			gen(s+r, n-1)
		}
	}
	gen("", 6)
	for _, s := range strs {
		p := LengthsParams{A: s, B: s, C: s, D: s, E: s}
		err := p.Validate()
		msg := ""
		if err != nil {
			msg = err.Error()
		}
		n := utf8.RuneCountInString(s)
		for name, b := range bounds {
			want := b[0] >= 0 && n < b[0] || b[1] >= 0 && n > b[1]
			if got := strings.Contains(msg, "/"+name+":") || strings.Contains(msg, "/"+name+" "); got != want {
				t.Fatalf("%q (%d runes, %d bytes) at /%s: violation %v, want %v (%s)", s, n, len(s), name, got, want, msg)
			}
		}
	}
}
`
