package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// unionDupFamily has one tool whose params hold unions decoded by trial
// (anyOf and oneOf of two objects, an anyOf of two arrays whose items are
// a oneOf, a oneOf whose object branch holds an anyOf, an array of anyOf
// items) and a discriminated oneOf, for the errors a repeated member
// inside their values gets.
func unionDupFamily() *ir.Family {
	integer := func() *ir.Type { return &ir.Type{Kind: ir.KindInteger} }
	str := func() *ir.Type { return &ir.Type{Kind: ir.KindString} }
	inner := &ir.Type{ID: "inner", GoName: "Inner", Kind: ir.KindObject, AdditionalFalse: true,
		Fields: []*ir.Field{{JSONName: "x", GoName: "X", Required: true, Type: integer()}}}
	branchA := &ir.Type{ID: "a", GoName: "BranchA", Kind: ir.KindObject, AdditionalFalse: true, Fields: []*ir.Field{
		{JSONName: "a", GoName: "A", Required: true, Type: integer()},
		{JSONName: "inner", GoName: "Inner", Type: inner}}}
	branchB := &ir.Type{ID: "b", GoName: "BranchB", Kind: ir.KindObject, AdditionalFalse: true, Fields: []*ir.Field{
		{JSONName: "b", GoName: "B", Required: true, Type: str()}}}
	anyAB := &ir.Type{ID: "any_ab", GoName: "AnyAB", Kind: ir.KindUnion, Branches: []*ir.Type{branchA, branchB}}
	oneAB := &ir.Type{ID: "one_ab", GoName: "OneAB", Kind: ir.KindUnion, OneOf: true, Branches: []*ir.Type{branchA, branchB}}
	arrays := &ir.Type{ID: "arrays", GoName: "Arrays", Kind: ir.KindUnion, Branches: []*ir.Type{
		{Kind: ir.KindArray, Elem: oneAB}, {Kind: ir.KindArray, Elem: integer()}}}
	wrap := &ir.Type{ID: "wrap", GoName: "Wrap", Kind: ir.KindObject, AdditionalFalse: true,
		Fields: []*ir.Field{{JSONName: "u", GoName: "U", Required: true, Type: anyAB}}}
	plain := &ir.Type{ID: "plain", GoName: "Plain", Kind: ir.KindObject, AdditionalFalse: true,
		Fields: []*ir.Field{{JSONName: "p", GoName: "P", Required: true, Type: integer()}}}
	nest := &ir.Type{ID: "nest", GoName: "Nest", Kind: ir.KindUnion, OneOf: true, Branches: []*ir.Type{wrap, plain}}
	userT, teamT := targetBranches()
	tagged := &ir.Type{ID: "tagged", GoName: "Tagged", Kind: ir.KindUnion, OneOf: true, Branches: []*ir.Type{userT, teamT},
		Discriminator: &ir.Discriminator{Property: "kind", Values: []ir.DiscriminatorValue{{Value: "user", Branch: 0}, {Value: "team", Branch: 1}}}}
	params := &ir.Type{ID: "dups", GoName: "DupsParams", Kind: ir.KindObject, AdditionalFalse: true, Fields: []*ir.Field{
		{JSONName: "any", GoName: "Any", Type: anyAB},
		{JSONName: "one", GoName: "One", Type: oneAB},
		{JSONName: "list", GoName: "List", Type: &ir.Type{Kind: ir.KindArray, Elem: anyAB}},
		{JSONName: "arrays", GoName: "Arrays", Type: arrays},
		{JSONName: "nest", GoName: "Nest", Type: nest},
		{JSONName: "tagged", GoName: "Tagged", Type: tagged},
	}}
	return &ir.Family{
		Package: "dups",
		Sources: []string{"tools.json"},
		Tools: []*ir.Tool{{Name: "dups", GoName: "Dups", Description: "Dups.", Pos: pos("/0"), Params: params,
			ParamsSchema: raw(`{"type":"object"}`)}},
		Types: []*ir.Type{params, inner, branchA, branchB, anyAB, oneAB, arrays, wrap, plain, nest, userT, teamT, tagged},
	}
}

// TestUnionDuplicateBehave compiles the package of unionDupFamily with a
// behaviour test: a member repeated inside a value decoded by a union
// trial is reported as sent twice at its own pointer, as it is outside a
// union, not as a value that "matches none" of the branches.
func TestUnionDuplicateBehave(t *testing.T) {
	testGenerated(t, unionDupFamily(), "dups_test.go", []byte(unionDupBehaviour))
}

const unionDupBehaviour = `package dups

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// problems decodes and validates args as the flat surface does; problems
// are "path code" strings.
func problems(t *testing.T, args string) ([]string, []runtime.FieldError) {
	t.Helper()
	_, err := DecodeArgs("dups", []byte(args))
	if err == nil {
		return nil, nil
	}
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("%s: %v", args, err)
	}
	var got []string
	for _, f := range ve.Fields {
		got = append(got, f.Path+" "+f.Code)
	}
	return got, ve.Fields
}

func TestRepeatedInUnion(t *testing.T) {
	for _, c := range []struct{ args, want string }{
		// anyOf and oneOf of objects, tried branch by branch
		{` + "`" + `{"any":{"a":1,"a":2}}` + "`" + `, "/any/a duplicate"},
		{` + "`" + `{"any":{"b":"x","b":"y"}}` + "`" + `, "/any/b duplicate"},
		{` + "`" + `{"one":{"a":1,"a":2}}` + "`" + `, "/one/a duplicate"},
		{` + "`" + `{"one":{"b":"x","b":"x"}}` + "`" + `, "/one/b duplicate"},
		{` + "`" + `{"any":{"a":1,"b":"x","a":2,"a":3}}` + "`" + `, "/any/a duplicate, /any/a duplicate"},
		// nested in an object branch
		{` + "`" + `{"any":{"a":1,"inner":{"x":1,"x":2}}}` + "`" + `, "/any/inner/x duplicate"},
		{` + "`" + `{"one":{"a":1,"inner":{"x":1,"x":2}}}` + "`" + `, "/one/inner/x duplicate"},
		// in the item of an array of unions
		{` + "`" + `{"list":[{"a":1},{"b":"x","b":"y"}]}` + "`" + `, "/list/1/b duplicate"},
		{` + "`" + `{"list":[{"a":1,"inner":{"x":1,"x":1}}]}` + "`" + `, "/list/0/inner/x duplicate"},
		// in the item of a union of arrays, itself a union
		{` + "`" + `{"arrays":[{"a":1},{"a":1,"a":1}]}` + "`" + `, "/arrays/1/a duplicate"},
		{` + "`" + `{"arrays":[{"a":1,"inner":{"x":1,"x":2}}]}` + "`" + `, "/arrays/0/inner/x duplicate"},
		// a union in a union's object branch
		{` + "`" + `{"nest":{"u":{"a":1,"a":2}}}` + "`" + `, "/nest/u/a duplicate"},
		{` + "`" + `{"nest":{"u":{"a":1,"inner":{"x":1,"x":2}}}}` + "`" + `, "/nest/u/inner/x duplicate"},
		{` + "`" + `{"nest":{"p":1,"p":2}}` + "`" + `, "/nest/p duplicate"},
		// a discriminated union decodes its branch directly
		{` + "`" + `{"tagged":{"kind":"user","login":"x","login":"y"}}` + "`" + `, "/tagged/login duplicate"},
		{` + "`" + `{"tagged":{"kind":"team","kind":"team","slug":"s"}}` + "`" + `, "/tagged/kind duplicate"},
		{` + "`" + `{"tagged":{"kind":"user","login":"x","kind":"team"}}` + "`" + `, "/tagged/kind duplicate"},
		// a repetition outside the union is reported where it is
		{` + "`" + `{"any":{"a":1},"any":{"b":"x"}}` + "`" + `, "/any duplicate"},
		// values that match no branch still say so
		{` + "`" + `{"any":{"c":1}}` + "`" + `, "/any anyOf"},
		{` + "`" + `{"one":{"a":"x"}}` + "`" + `, "/one oneOf"},
		{` + "`" + `{"list":[{"a":1},{"c":1}]}` + "`" + `, "/list/1 anyOf"},
		{` + "`" + `{"arrays":[{"a":1},{"c":1}]}` + "`" + `, "/arrays anyOf"},
		{` + "`" + `{"nest":{"u":{"c":1}}}` + "`" + `, "/nest oneOf"},
		// and values that match are taken
		{` + "`" + `{"any":{"a":1},"one":{"b":"x"},"list":[{"a":1,"inner":{"x":1}}],"arrays":[1,2],"nest":{"u":{"b":"y"}}}` + "`" + `, ""},
		{` + "`" + `{"arrays":[{"a":1},{"b":"x"}],"tagged":{"kind":"user","login":"x"}}` + "`" + `, ""},
	} {
		got, _ := problems(t, c.args)
		if s := strings.Join(got, ", "); s != c.want {
			t.Errorf("%s: %q, want %q", c.args, s, c.want)
		}
	}
}

// The message names the repeated property, as outside a union, and says
// nothing of the branches.
func TestRepeatedInUnionMessage(t *testing.T) {
	for _, args := range []string{
		` + "`" + `{"any":{"a":1,"a":2}}` + "`" + `,
		` + "`" + `{"one":{"a":1,"inner":{"x":1,"a":2,"a":3}}}` + "`" + `,
		` + "`" + `{"list":[{"a":1,"a":2}]}` + "`" + `,
		` + "`" + `{"nest":{"u":{"a":1,"a":2}}}` + "`" + `,
	} {
		_, fields := problems(t, args)
		if len(fields) != 1 || fields[0].Message != ` + "`" + `property "a" sent twice; send each property once` + "`" + ` {
			t.Errorf("%s: %+v", args, fields)
		}
		_, err := DecodeArgs("dups", []byte(args))
		if err == nil || strings.Contains(err.Error(), "matches none") {
			t.Errorf("%s: %v", args, err)
		}
	}
}
`
