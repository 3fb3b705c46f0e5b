package generator

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// tuplesFamily has one tool whose params hold three tuples:
//
//	mixed: [integer, integer ≤ 9, string|null, integer[], any] minItems 1,
//	       rest integers ≥ 0, maxItems 6
//	pair:  [integer, integer] minItems 2, items false
//	short: [integer] minItems 3, rest integers
func tuplesFamily() *ir.Family {
	integer := func() *ir.Type { return &ir.Type{Kind: ir.KindInteger} }
	mixed := &ir.Type{ID: "mixed", GoName: "Mixed", Kind: ir.KindTuple,
		Prefix: []*ir.Type{
			integer(),
			{Kind: ir.KindInteger, Constraints: &ir.Constraints{Maximum: num("9")}},
			{Kind: ir.KindString, Nullable: true},
			{Kind: ir.KindArray, Elem: integer()},
			{Kind: ir.KindAny},
		},
		Elem:        &ir.Type{Kind: ir.KindInteger, Constraints: &ir.Constraints{Minimum: num("0")}},
		Constraints: &ir.Constraints{MinItems: i64(1), MaxItems: i64(6)}}
	pair := &ir.Type{ID: "pair", GoName: "Pair", Kind: ir.KindTuple, RestForbidden: true,
		Prefix: []*ir.Type{integer(), integer()}, Constraints: &ir.Constraints{MinItems: i64(2)}}
	short := &ir.Type{ID: "short", GoName: "Short", Kind: ir.KindTuple,
		Prefix: []*ir.Type{integer()}, Elem: integer(), Constraints: &ir.Constraints{MinItems: i64(3)}}
	params := &ir.Type{ID: "tuples", GoName: "TuplesParams", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "mixed", GoName: "Mixed", Type: mixed},
		{JSONName: "pair", GoName: "Pair", Type: pair},
		{JSONName: "short", GoName: "Short", Type: short},
	}}
	return &ir.Family{
		Package: "tuples",
		Sources: []string{"tools.json"},
		Tools: []*ir.Tool{{Name: "tuples", GoName: "Tuples", Description: "Tuples.", Pos: pos("/0"), Params: params,
			ParamsSchema: raw(`{"type":"object"}`)}},
		Types: []*ir.Type{params, mixed, pair, short},
	}
}

func TestTupleShape(t *testing.T) {
	src := string(generateFiles(t, tuplesFamily())["types_gen.go"])
	wantInFile(t, "types_gen.go", src,
		"\tItem0 int64\n",
		"\tItem1 *int64\n",
		"\tItem2 runtime.Nullable[string]\n",
		"\tItem3 []int64\n",
		"\tItem4 *any\n",
		"\tRest []int64\n",
		"type Pair struct {\n\t// Item0 is the item at position 0.\n\tItem0 int64\n\t// Item1 is the item at position 1.\n\tItem1 int64\n}",
	)
	if strings.Contains(src, "\tN int") {
		t.Error("tuples still have an N field")
	}
}

// TestTupleBehave compiles the tuples package with a behaviour test:
// absent, null and present positions, round trips of short arrays,
// MarshalJSON refusing holes, and the minItems/maxItems counts.
func TestTupleBehave(t *testing.T) {
	testGenerated(t, tuplesFamily(), "tuples_test.go", []byte(tuplesBehaviour))
}

const tuplesBehaviour = `package tuples

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// decode decodes and validates params as the flat surface does; problems
// are "path code" strings.
func decode(t *testing.T, s string) (*TuplesParams, []string) {
	t.Helper()
	v, err := DecodeArgs("tuples", []byte(s))
	if err != nil {
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%s: %v", s, err)
		}
		var got []string
		for _, f := range ve.Fields {
			got = append(got, f.Path+" "+f.Code)
		}
		return nil, got
	}
	return v.(*TuplesParams), nil
}

func roundTrip(t *testing.T, s string) *TuplesParams {
	t.Helper()
	p, errs := decode(t, s)
	if errs != nil {
		t.Fatalf("%s: %v", s, errs)
	}
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatalf("%s: marshal: %v", s, err)
	}
	if string(b) != s {
		t.Fatalf("%s encodes as %s", s, b)
	}
	q, errs := decode(t, string(b))
	if errs != nil || !reflect.DeepEqual(p, q) {
		t.Fatalf("%s: %#v, again %#v %v", s, p, q, errs)
	}
	return p
}

func TestPositions(t *testing.T) {
	m := roundTrip(t, ` + "`" + `{"mixed":[1]}` + "`" + `).Mixed
	if m.Item0 != 1 || m.Item1 != nil || m.Item2.IsSet() || m.Item3 != nil || m.Item4 != nil || m.Rest != nil {
		t.Fatalf("[1]: %#v", m)
	}
	m = roundTrip(t, ` + "`" + `{"mixed":[1,2,null,[],null,5]}` + "`" + `).Mixed
	if *m.Item1 != 2 || !m.Item2.IsNull() || m.Item3 == nil || len(m.Item3) != 0 || m.Item4 == nil || *m.Item4 != nil || len(m.Rest) != 1 {
		t.Fatalf("[1,2,null,[],null,5]: %#v", m)
	}
	m = roundTrip(t, ` + "`" + `{"mixed":[1,2,"x",[3],{"k":true}]}` + "`" + `).Mixed
	if v, ok := m.Item2.Get(); !ok || v != "x" || (*m.Item4).(map[string]any)["k"] != true {
		t.Fatalf("[1,2,\"x\",[3],{}]: %#v", m)
	}
	roundTrip(t, ` + "`" + `{"pair":[1,2],"short":[1,2,3]}` + "`" + `)
}

func TestCounts(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		// Required positions missing: reported by the decoder, once.
		{` + "`" + `{"mixed":[]}` + "`" + `, "/mixed minItems"},
		{` + "`" + `{"pair":[1]}` + "`" + `, "/pair minItems"},
		// minItems beyond the positions: validate counts Rest.
		{` + "`" + `{"short":[1,2]}` + "`" + `, "/short minItems"},
		{` + "`" + `{"short":[1]}` + "`" + `, "/short minItems"},
		{` + "`" + `{"mixed":[1,2,null,[],null,5,6]}` + "`" + `, "/mixed maxItems"},
		// Per-position checks apply to present positions only.
		{` + "`" + `{"mixed":[1,10]}` + "`" + `, "/mixed/1 maximum"},
		{` + "`" + `{"mixed":[1,2,null,null,0,-1]}` + "`" + `, "/mixed/3 type, /mixed/5 minimum"},
		{` + "`" + `{"pair":[1,2,3]}` + "`" + `, "/pair/2 items"},
	} {
		_, errs := decode(t, c.args)
		if got := strings.Join(errs, ", "); got != c.want {
			t.Errorf("%s: %q, want %q", c.args, got, c.want)
		}
	}
}

func TestValidateBuilt(t *testing.T) {
	one := int64(1)
	if err := (&Mixed{Item0: 1, Item1: &one, Rest: []int64{0}}).Validate(); err != nil {
		t.Error(err)
	}
	ten := int64(10)
	err := (&Mixed{Item1: &ten, Item2: runtime.Null[string](), Item3: []int64{}, Item4: new(any), Rest: []int64{1, 2}}).Validate()
	if err == nil || !strings.Contains(err.Error(), "at most 6 items") || !strings.Contains(err.Error(), "/1: must be <= 9") {
		t.Errorf("7 items, Item1 10: %v", err)
	}
}

func TestMarshalHoles(t *testing.T) {
	for _, c := range []struct {
		v    Mixed
		want string
	}{
		{Mixed{}, "[0]"},
		{Mixed{Item0: 1, Item1: new(int64), Item2: runtime.Null[string]()}, "[1,0,null]"},
		{Mixed{Item0: 1, Item2: runtime.Value("x")}, "Mixed.Item2 is set after an absent item"},
		{Mixed{Item0: 1, Item1: new(int64), Item4: new(any)}, "Mixed.Item4 is set after an absent item"},
		{Mixed{Item0: 1, Rest: []int64{1}}, "Mixed.Rest is set after an absent item"},
	} {
		b, err := json.Marshal(c.v)
		got := string(b)
		if err != nil {
			got = err.Error()
		}
		if !strings.Contains(got, c.want) {
			t.Errorf("%#v: %s, want %s", c.v, got, c.want)
		}
	}
	if b, err := json.Marshal(Pair{}); err != nil || string(b) != "[0,0]" {
		t.Errorf("Pair{}: %s %v", b, err)
	}
}
`
