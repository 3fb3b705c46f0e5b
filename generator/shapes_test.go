package generator

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// shapeFamily has three tools: two whose params (and nested filter and
// enum) have one shape under different names and docs, and a third whose
// params differ from theirs only in one bound.
func shapeFamily() *ir.Family {
	params := func(prefix string, max int64) *ir.Type {
		state := &ir.Type{GoName: prefix + "State", Kind: ir.KindEnum, Doc: prefix + " state.",
			Enum: []ir.EnumValue{{JSON: raw(`"open"`), GoName: prefix + "StateOpen"}, {JSON: raw(`"closed"`), GoName: prefix + "StateClosed"}}}
		filter := &ir.Type{GoName: prefix + "Filter", Kind: ir.KindObject, Fields: []*ir.Field{
			{JSONName: "state", GoName: "State", Required: true, Type: state},
		}}
		return &ir.Type{GoName: prefix + "Params", Kind: ir.KindObject, Doc: prefix + "Params are the arguments.", Fields: []*ir.Field{
			{JSONName: "owner", GoName: "Owner", Doc: "Owner login.", Required: true, Type: &ir.Type{Kind: ir.KindString, Constraints: &ir.Constraints{MaxLength: i64(max)}}},
			{JSONName: "filter", GoName: "Filter", Type: filter},
		}}
	}
	fam := &ir.Family{Package: "shapes", Sources: []string{"tools.json"}}
	for _, tl := range []struct {
		name, goName string
		max          int64
	}{{"list_a", "ListA", 39}, {"list_b", "ListB", 39}, {"list_c", "ListC", 40}} {
		p := params(tl.goName, tl.max)
		fam.Tools = append(fam.Tools, &ir.Tool{Name: tl.name, GoName: tl.goName, Params: p, ParamsSchema: raw(`{"type":"object"}`)})
		fam.Types = append(fam.Types, p, p.Fields[1].Type, p.Fields[1].Type.Fields[0].Type)
	}
	return fam
}

func TestSameShapeSharesCode(t *testing.T) {
	files := generateFiles(t, shapeFamily())
	types, decode := string(files["types_gen.go"]), string(files["decode_gen.go"])
	for _, want := range []string{
		"type ListBParams = ListAParams",
		"type ListBFilter = ListAFilter",
		"type ListBState = ListAState",
		// The alias keeps its own constants and doc.
		`ListBStateOpen   ListBState = "open"`,
		"// ListBParams are the arguments.",
		// One bound apart: a type of its own, whose nested filter is
		// still shared.
		"type ListCParams struct",
		"type ListCFilter = ListAFilter",
	} {
		if !strings.Contains(types, want) {
			t.Errorf("types_gen.go lacks %q:\n%s", want, types)
		}
	}
	for _, absent := range []string{"func (x *ListBParams) decodeWire", "func (x *ListBFilter) decodeWire"} {
		if strings.Contains(decode, absent) {
			t.Errorf("decode_gen.go has %q: aliases share their shape's decoder", absent)
		}
	}
	if !strings.Contains(decode, "func (x *ListCParams) decodeWire") {
		t.Error("decode_gen.go lacks the decoder of ListCParams")
	}
}

// A type on a reference cycle keeps its own code: its shape would need
// its own sum.
func TestRecursiveShapesKeepTheirCode(t *testing.T) {
	node := func(name string) *ir.Type {
		n := &ir.Type{GoName: name, Kind: ir.KindObject}
		n.Fields = []*ir.Field{{JSONName: "next", GoName: "Next", Type: n}}
		return n
	}
	a, b := node("NodeA"), node("NodeB")
	fam := &ir.Family{Package: "shapes", Types: []*ir.Type{a, b}, Tools: []*ir.Tool{
		{Name: "a", GoName: "A", Params: a}, {Name: "b", GoName: "B", Params: b},
	}}
	g := &gen{fam: fam}
	g.findIndirect()
	g.findShapes()
	if len(g.alias) != 0 {
		t.Errorf("recursive types merged: %v", g.alias)
	}
}

// Two params types that differ only in their docs share code in a large
// family (more than TableObjects object shapes) and not in a small one,
// where every type keeps its own field docs.
func TestRewordedShapes(t *testing.T) {
	reworded := func(n int) (*gen, *ir.Type, *ir.Type) {
		fam := &ir.Family{Package: "shapes"}
		object := func(name, doc, field string) *ir.Type {
			o := &ir.Type{GoName: name, Kind: ir.KindObject, Doc: doc, Fields: []*ir.Field{
				{JSONName: field, GoName: "F", Doc: doc, Type: &ir.Type{Kind: ir.KindString, Doc: doc}},
			}}
			fam.Types = append(fam.Types, o)
			return o
		}
		a, b := object("AParams", "Owner login.", "owner"), object("BParams", "译 Owner login.", "owner")
		for i := range n {
			object(fmt.Sprintf("P%dParams", i), "", fmt.Sprintf("f%d", i))
		}
		g := &gen{fam: fam}
		g.findIndirect()
		g.findShapes()
		return g, a, b
	}
	if g, a, b := reworded(TableObjects); !g.large || g.alias[b] != a {
		t.Errorf("large family: large %v, %s aliases %v; want BParams sharing AParams", g.large, b.GoName, g.alias[b])
	}
	if g, _, b := reworded(10); g.large || g.alias[b] != nil {
		t.Errorf("small family: large %v, BParams aliases %v; want its own type", g.large, g.alias[b])
	}
}

// wideFamily has one tool whose params object has n required integer
// properties with a minimum: more seen flags and field checks than one
// function holds.
func wideFamily(n int) *ir.Family {
	params := &ir.Type{GoName: "PutWideParams", Kind: ir.KindObject}
	for i := range n {
		params.Fields = append(params.Fields, &ir.Field{
			JSONName: fmt.Sprintf("f%d", i), GoName: fmt.Sprintf("F%d", i), Required: true,
			Type: &ir.Type{Kind: ir.KindInteger, Constraints: &ir.Constraints{Minimum: num("0")}},
		})
	}
	return &ir.Family{Package: "wide", Sources: []string{"tools.json"}, Types: []*ir.Type{params},
		Tools: []*ir.Tool{{Name: "put_wide", GoName: "PutWide", Params: params, ParamsSchema: raw(`{"type":"object"}`)}}}
}

func TestLongObjectsSplit(t *testing.T) {
	if d := string(generateFiles(t, wideFamily(200))["decode_gen.go"]); !strings.Contains(d, "var tablePutWideParams = shape.Table{") {
		t.Errorf("200 fields are not in a table:\n%s", d)
	}
	fam := wideFamily(200)
	out, err := Generate(fam, Options{Package: fam.Package, Sources: fam.Sources, Tables: TablesNever})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range out {
		files[f.Path] = f.Bytes
	}
	if v := string(files["validate_gen.go"]); !strings.Contains(v, "func (x *PutWideParams) validatePart4(") || strings.Contains(v, "validatePart5") {
		t.Errorf("200 field checks are not in 4 parts:\n%s", v)
	}
	if d := string(files["decode_gen.go"]); !strings.Contains(d, "var seen [200]bool") {
		t.Errorf("200 seen flags are not one array:\n%s", d)
	}
	behaviour := []byte(`package wide

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestWide(t *testing.T) {
	var b strings.Builder
	for i := range 199 {
		v := 1
		if i == 150 {
			v = -1
		}
		fmt.Fprintf(&b, ",%q:%d", fmt.Sprintf("f%d", i), v)
	}
	_, err := DecodeArgs("put_wide", []byte("{"+b.String()[1:]+"}"))
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("got %v, want a validation error", err)
	}
	got := map[string]string{}
	for _, f := range ve.Fields {
		got[f.Path] = f.Code
	}
	if len(got) != 2 || got["/f199"] == "" || got["/f150"] != "minimum" {
		t.Errorf("errors %+v, want f199 missing and f150 below its minimum", ve.Fields)
	}
}
`)
	testGenerated(t, wideFamily(200), "wide_test.go", behaviour)
}

// TestShapeSumsParallel: shape sums are the same however the types are
// split between goroutines, types on or reaching a reference cycle
// included (they have none).
func TestShapeSumsParallel(t *testing.T) {
	fam := &ir.Family{Package: "shapes"}
	for range 40 {
		fam.Types = append(fam.Types, shapeFamily().Types...)
	}
	a := &ir.Type{GoName: "CycleA", Kind: ir.KindObject}
	b := &ir.Type{GoName: "CycleB", Kind: ir.KindObject, Fields: []*ir.Field{{JSONName: "a", GoName: "A", Type: a}}}
	a.Fields = []*ir.Field{{JSONName: "b", GoName: "B", Type: b}}
	reaches := &ir.Type{GoName: "Reaches", Kind: ir.KindObject, Fields: []*ir.Field{{JSONName: "a", GoName: "A", Type: a}}}
	fam.Types = append(fam.Types, a, reaches, b)
	fam.Types = append(fam.Types, shapeFamily().Types...)
	g := &gen{fam: fam}
	for _, docs := range []bool{false, true} {
		sums, ok := g.shapeSums(fam.Types, docs, 1)
		if ok[len(ok)-12] || ok[len(ok)-11] || ok[len(ok)-10] || !ok[0] {
			t.Fatalf("docs=%v: ok = %v: want no sum for the cycle and what reaches it only", docs, ok[len(ok)-12:len(ok)-9])
		}
		for _, workers := range []int{2, 3, 7} {
			psums, pok := g.shapeSums(fam.Types, docs, workers)
			for i := range sums {
				if psums[i] != sums[i] || pok[i] != ok[i] {
					t.Errorf("docs=%v, %d workers: type %d (%s) has sum %x/%v, one worker %x/%v", docs, workers, i, fam.Types[i].GoName, psums[i][:4], pok[i], sums[i][:4], ok[i])
				}
			}
		}
	}
}
