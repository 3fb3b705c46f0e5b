package generator

import (
	"bytes"
	"fmt"
	"go/format"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

// textGen is a generator of package p with the runtime's packages, for
// tests that write text (srcFile) without a family.
func textGen() *gen {
	return &gen{opt: Options{Package: "p"}, runtimePkg: DefaultRuntimeModule + "/runtime",
		wirePkg: DefaultRuntimeModule + "/runtime/wire", checkPkg: DefaultRuntimeModule + "/runtime/check"}
}

// TestLitLayout writes data literals as text (litVar) and requires what
// go/format makes of the file to be the same bytes: the forms the tables
// use, then random trees of every form litdata.go writes (keys of every
// length, values on one line or many, nesting). Before the tables were
// text, they were jennifer code formatted by go/format; the text is the
// same bytes (compared on ACEBench and the synthetic catalogues).
func TestLitLayout(t *testing.T) {
	g := textGen()
	sp := g.shapePkg()
	rule := g.rule("minLength", "must be \"at least\"\n1 */ long", "at least 1 character")
	bounds := &litList{typ: litType{slice: true, path: sp, name: "Bound"}, elems: []litNode{
		&litDict{pairs: []litPair{{"Op", litQual(sp, "Less")}, {"I", litInt(-3)}, {"Rule", rule}}},
		&litDict{pairs: []litPair{{"Op", litQual(sp, "Greater")}, {"F", litFloat(1e21)}, {"Rule", rule}}},
	}}
	check := func(pairs ...litPair) *litDict {
		return &litDict{typ: litType{addr: true, path: sp, name: "Check"}, pairs: pairs}
	}
	cases := map[string]litNode{
		"empty":        &litDict{typ: litType{path: sp, name: "Check"}},
		"one pair":     &litDict{typ: litType{path: sp, name: "Const"}, pairs: []litPair{{"S", litStr("x\ty")}}},
		"numbers":      &litDict{typ: litType{path: sp, name: "Const"}, pairs: []litPair{{"F", litNum("1E5")}, {"I", litNum("-0")}, {"G", litFloat(2)}, {"H", litFloat(0.1)}}},
		"bounds alone": check(litPair{"Bounds", bounds}),
		"runs": check(litPair{"A", litTrue}, litPair{"Bounds", bounds}, litPair{"CC", litTrue},
			litPair{"DDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDDD", litInt(1)}, litPair{"E", bounds}, litPair{"F", bounds}),
		"table": &litDict{typ: litType{path: sp, name: "Table"}, pairs: []litPair{
			{"Fields", &litList{typ: litType{slice: true, path: sp, name: "Field"}, elems: []litNode{
				&litDict{pairs: []litPair{{"Offset", litOffsetof("T", "A")}, {"Kind", litQual(sp, "String")}, {"Check", check(litPair{"Bounds", bounds})}}},
				&litDict{pairs: []litPair{{"Kind", litQual(sp, "Object")}, {"Object", litAddr("tableU")}, {"ItemCheck", check(litPair{"Unique", litTrue})}}},
			}}},
			{"Names", &litList{typ: litType{slice: true, name: "string"}, elems: []litNode{litStr("a"), litStr("b\u2028")}}},
			{"Type", litTypedNil("T")},
			{"Empty", &litList{typ: litType{slice: true, path: sp, name: "Field"}}},
		}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 1000 {
		cases[fmt.Sprintf("random %d", i)] = randomLit(r, sp, 0, litType{path: sp, name: "Table"})
	}
	for name, node := range cases {
		s := g.newSrcFile()
		s.litVar("v is "+name+".", "v", node)
		text, err := s.render()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		formatted, err := format.Source(text)
		if err != nil {
			t.Fatalf("%s: %v\n%s", name, err, text)
		}
		if !bytes.Equal(text, formatted) {
			t.Errorf("%s: not as gofmt lays it out:\n%s", name, diff.Diff("text", text, "gofmt", formatted))
		}
	}
	// The layout itself, for the reader: a field list, aligned runs, and
	// a one-key literal holding a multi-line one.
	s := g.newSrcFile()
	s.litVar("v is a table.", "v", cases["table"])
	text, _ := s.render()
	want := `var v = shape.Table{
	Empty: []shape.Field{},
	Fields: []shape.Field{{
		Check: &shape.Check{Bounds: []shape.Bound{{
			I:    -3,
			Op:   shape.Less,
			Rule: shape.Rule{"minLength", "must be \"at least\"\n1 */ long", "at least 1 character"},
		}, {
			F:    1e+21,
			Op:   shape.Greater,
			Rule: shape.Rule{"minLength", "must be \"at least\"\n1 */ long", "at least 1 character"},
		}}},
		Kind:   shape.String,
		Offset: unsafe.Offsetof(T{}.A),
	}, {
		ItemCheck: &shape.Check{Unique: true},
		Kind:      shape.Object,
		Object:    &tableU,
	}},
	Names: []string{"a", "b\u2028"},
	Type:  (*T)(nil),
}
`
	if !bytes.HasSuffix(text, []byte(want)) {
		t.Errorf("table:\n%s", diff.Diff("got", text, "want", []byte(want)))
	}
}

// randomLit is a random data literal of type typ at depth.
func randomLit(r *rand.Rand, sp string, depth int, typ litType) litNode {
	keys := []string{"A", "Bb", "Ccc", "Offset", "Required", "ItemCheck", "MinLenRule", "K",
		strings.Repeat("L", 41), strings.Repeat("M", 45), strings.Repeat("N", 120), strings.Repeat("O", 16), "P"}
	r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
	leaf := func() litNode {
		switch r.IntN(5) {
		case 0:
			return litInt(r.IntN(2000) - 1000)
		case 1:
			return litStr(strings.Repeat("w ", r.IntN(4)))
		case 2:
			return litQual(sp, "Always")
		case 3:
			return litFloat(r.NormFloat64() * 1e3)
		}
		if r.IntN(2) == 0 {
			one := &litDict{pairs: []litPair{{"K", litInt(1)}}}
			return &litList{typ: litType{slice: true, path: sp, name: "Const"}, elems: []litNode{one, one}[:r.IntN(3)]}
		}
		return &litList{typ: litType{slice: true, name: "string"}, elems: []litNode{litStr("x"), litStr("y")}[:r.IntN(3)]}
	}
	d := &litDict{typ: typ}
	for _, k := range keys[:r.IntN(len(keys))+1] {
		if r.IntN(3) == 0 {
			continue
		}
		switch n := r.IntN(6); {
		case depth < 3 && n == 0:
			var elems []litNode
			for range r.IntN(3) + 1 {
				e := randomLit(r, sp, depth+1, litType{}).(*litDict)
				for len(e.pairs) < 2 {
					e.add(fmt.Sprintf("Z%d", len(e.pairs)), leaf())
				}
				elems = append(elems, e)
			}
			d.add(k, &litList{typ: litType{slice: true, path: sp, name: "Field"}, elems: elems})
		case depth < 3 && n == 1:
			d.add(k, randomLit(r, sp, depth+1, litType{addr: true, path: sp, name: "Check"}))
		default:
			d.add(k, leaf())
		}
	}
	return d
}
