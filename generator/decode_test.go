package generator

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// shapesFamily has one tool whose params exercise the allocation shapes
// of generated decoders: optional scalars (held in one backing struct),
// a required nullable scalar, an optional nullable one, and arrays of
// small items (stack buffer), nullable items, arrays and large items.
func shapesFamily() *ir.Family {
	str := func() *ir.Type { return &ir.Type{Kind: ir.KindString} }
	color := &ir.Type{ID: "color", GoName: "Color", Kind: ir.KindEnum,
		Enum: []ir.EnumValue{{JSON: raw(`"red"`), GoName: "ColorRed"}, {JSON: raw(`"blue"`), GoName: "ColorBlue"}}}
	var wideFields []*ir.Field
	for _, n := range []string{"A", "B", "C", "D", "E", "F", "G", "H", "I"} {
		wideFields = append(wideFields, &ir.Field{JSONName: strings.ToLower(n), GoName: n, Type: str(), Required: true})
	}
	wide := &ir.Type{ID: "wide", GoName: "Wide", Kind: ir.KindObject, Fields: wideFields}
	params := &ir.Type{ID: "shapes", GoName: "ShapesParams", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "name", GoName: "Name", Type: str()},
		{JSONName: "count", GoName: "Count", Type: &ir.Type{Kind: ir.KindInteger}},
		{JSONName: "color", GoName: "Color", Type: color},
		{JSONName: "ok", GoName: "OK", Type: &ir.Type{Kind: ir.KindBool}},
		{JSONName: "ratio", GoName: "Ratio", Required: true, Type: &ir.Type{Kind: ir.KindNumber, Nullable: true}},
		{JSONName: "note", GoName: "Note", Type: &ir.Type{Kind: ir.KindString, Nullable: true}},
		{JSONName: "tags", GoName: "Tags", Type: &ir.Type{Kind: ir.KindArray, Elem: str()}},
		{JSONName: "maybe", GoName: "Maybe", Type: &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindInteger, Nullable: true}}},
		{JSONName: "grid", GoName: "Grid", Type: &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindInteger}}}},
		{JSONName: "wide", GoName: "Wide", Type: &ir.Type{Kind: ir.KindArray, Elem: wide}},
	}}
	return &ir.Family{
		Package: "shapes",
		Sources: []string{"tools.json"},
		Tools: []*ir.Tool{{Name: "shapes", GoName: "Shapes", Description: "Shapes.", Pos: pos("/0"), Params: params,
			ParamsSchema: raw(`{"type":"object"}`)}},
		Types: []*ir.Type{params, color, wide},
	}
}

func TestDecodeShapes(t *testing.T) {
	src := string(generateFiles(t, shapesFamily())["decode_gen.go"])
	wantInFile(t, "decode_gen.go", src,
		"type optionalShapesParams struct {\n\tName  string\n\tCount int64\n\tColor Color\n\tOK    bool\n\tRatio float64\n}",
		"\t\t\tif opt == nil {\n\t\t\t\topt = new(optionalShapesParams)\n\t\t\t}\n\t\t\topt.Color = Color(d.String())\n\t\t\tx.Color = &opt.Color\n",
		"\t\t\tif d.Null() {\n\t\t\t\tx.Ratio = nil\n\t\t\t} else {\n\t\t\t\tif opt == nil {",
		"var buf [8]string\n",
		"x.Tags = append(make([]string, 0, len(items)), items...)",
		"var buf [8]*int64\n",
		"var buf [8][]int64\n",
		"var buf2 [8]int64\n",
		"v5 = append(make([]int64, 0, len(items2)), items2...)",
		// Items of 18 words do not fit twice in the buffer budget.
		"x.Wide = []Wide{}",
	)
	// A single optional scalar gets no backing struct.
	if strings.Contains(src, "optionalWide") {
		t.Error("backing struct for an object without optional scalars")
	}
	// Enums decode inline, without a method of their own.
	if strings.Contains(src, "func (x *Color) decodeWire") {
		t.Error("decodeWire method for an enum")
	}
}

// TestDecodeShapesBehave compiles the shapes package with a behaviour
// test: absent, null and present optional scalars, duplicate keys, the
// independence of values sharing a backing struct, arrays copied out of
// their buffers, and the allocations both save.
func TestDecodeShapesBehave(t *testing.T) {
	testGenerated(t, shapesFamily(), "shapes_test.go", []byte(shapesBehaviour))
}

const shapesBehaviour = `package shapes

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/wire"
)

func decode(t *testing.T, s string) *ShapesParams {
	t.Helper()
	p, d := decodeText(t, s)
	if err := d.Report("", nil); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return p
}

// decodeText decodes s, which must be JSON, and returns the decoder with
// what it recorded.
func decodeText(t *testing.T, s string) (*ShapesParams, *wire.Decoder) {
	t.Helper()
	var p ShapesParams
	d := wire.NewDecoder([]byte(s))
	p.decodeWire(d)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	return &p, d
}

// decodeRepeated decodes s, which repeats members: the values read are the
// last ones, and every error is a repetition.
func decodeRepeated(t *testing.T, s string) *ShapesParams {
	t.Helper()
	p, d := decodeText(t, s)
	errs := d.Errors()
	for _, e := range errs {
		if e.Code != "duplicate" {
			t.Fatalf("%s: %v", s, errs)
		}
	}
	if len(errs) == 0 {
		t.Fatalf("%s: repeated members not reported", s)
	}
	return p
}

func TestOptionalScalars(t *testing.T) {
	p := decode(t, ` + "`" + `{"ratio":null}` + "`" + `)
	if p.Name != nil || p.Count != nil || p.Color != nil || p.OK != nil || p.Ratio != nil || p.Note.IsSet() {
		t.Fatalf("absent or null fields set: %+v", p)
	}
	p = decodeRepeated(t, ` + "`" + `{"name":"a","count":1,"name":"b","ratio":0.5,"color":"red","ok":false,"color":"blue","note":null}` + "`" + `)
	if *p.Name != "b" || *p.Count != 1 || *p.Color != ColorBlue || *p.OK || *p.Ratio != 0.5 || !p.Note.IsNull() {
		t.Fatalf("got %+v", p)
	}
	*p.Name = "c"
	if *p.Name != "c" || *p.Count != 1 || *p.Color != ColorBlue || *p.Ratio != 0.5 {
		t.Fatalf("fields share a value: %+v", p)
	}
	q := decode(t, ` + "`" + `{"count":2,"ratio":1}` + "`" + `)
	if q.Count == p.Count || *q.Count != 2 || *p.Count != 1 || q.Name != nil {
		t.Fatal("two decodes share their optionals")
	}
	p = decodeRepeated(t, ` + "`" + `{"ratio":2,"ratio":null,"note":"n"}` + "`" + `)
	if note, ok := p.Note.Get(); p.Ratio != nil || !ok || note != "n" {
		t.Fatalf("null after a value: %+v", p)
	}
}

func TestArrays(t *testing.T) {
	var many []string
	for i := range 20 {
		many = append(many, fmt.Sprintf("%q", fmt.Sprint(i)))
	}
	p := decode(t, ` + "`" + `{"ratio":1,"tags":[` + "`" + `+strings.Join(many, ",")+` + "`" + `],"maybe":[1,null,3],"grid":[[1,2],[],[3]],"wide":[{"a":"x","b":"","c":"","d":"","e":"","f":"","g":"","h":"","i":""}]}` + "`" + `)
	if len(p.Tags) != 20 || p.Tags[0] != "0" || p.Tags[19] != "19" {
		t.Fatalf("tags = %q", p.Tags)
	}
	if len(p.Maybe) != 3 || *p.Maybe[0] != 1 || p.Maybe[1] != nil || *p.Maybe[2] != 3 || cap(p.Maybe) != 3 {
		t.Fatalf("maybe = %v", p.Maybe)
	}
	if !reflect.DeepEqual(p.Grid, [][]int64{{1, 2}, {}, {3}}) || p.Grid[1] == nil {
		t.Fatalf("grid = %#v", p.Grid)
	}
	if len(p.Wide) != 1 || p.Wide[0].A != "x" {
		t.Fatalf("wide = %+v", p.Wide)
	}
	p = decode(t, ` + "`" + `{"ratio":1,"tags":[],"grid":[]}` + "`" + `)
	if p.Tags == nil || len(p.Tags) != 0 || p.Grid == nil || p.Maybe != nil {
		t.Fatalf("empty arrays: %#v", p)
	}
	a, b := decode(t, ` + "`" + `{"ratio":1,"tags":["a"]}` + "`" + `), decode(t, ` + "`" + `{"ratio":1,"tags":["b"]}` + "`" + `)
	if a.Tags[0] != "a" || b.Tags[0] != "b" {
		t.Fatal("two decodes share an array")
	}
}

// allocs counts the allocations of decoding s.
func allocs(s string) float64 {
	data := []byte(s)
	return testing.AllocsPerRun(100, func() {
		var p ShapesParams
		d := wire.NewDecoder(data)
		p.decodeWire(d)
	})
}

func TestAllocations(t *testing.T) {
	if one, all := allocs(` + "`" + `{"name":"a","ratio":1}` + "`" + `), allocs(` + "`" + `{"name":"a","count":1,"color":"red","ok":true,"ratio":1}` + "`" + `); all != one {
		t.Errorf("five optional scalars: %v allocations, one: %v", all, one)
	}
	if one, many := allocs(` + "`" + `{"tags":["a"]}` + "`" + `), allocs(` + "`" + `{"tags":["a","b","c","d","e","f","g","h"]}` + "`" + `); many != one {
		t.Errorf("eight items: %v allocations, one: %v", many, one)
	}
}
`
