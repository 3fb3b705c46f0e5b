package generator

import (
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
)

// messageTools have unions decoded by trial whose errors a model reads
// to fix its call: mcp2.json's lookup-user (an object with either
// member, and no other), Notion's page parent (a oneOf of two
// definitions and an inline object, all open), a oneOf a value may
// match two branches of, and an anyOf of 40 object branches.
const messageTools = `[
{"type":"function","function":{"name":"lookup_user","description":"Look up a user by email or id.","parameters":{"anyOf":[
	{"type":"object","properties":{"email":{"type":"string"}},"required":["email"],"additionalProperties":false},
	{"type":"object","properties":{"user_id":{"type":"integer"}},"required":["user_id"],"additionalProperties":false}]}}},
{"type":"function","function":{"name":"create_page","description":"Create a page.","parameters":{
	"type":"object","properties":{"parent":{"$ref":"#/$defs/parentRequest"}},"required":["parent"],
	"$defs":{
		"pageIdParentRequest":{"type":"object","properties":{"page_id":{"type":"string"}},"required":["page_id"],"additionalProperties":true},
		"dataSourceIdParentRequest":{"type":"object","properties":{"type":{"type":"string","const":"database_id"},"database_id":{"type":"string"}},"required":["database_id"],"additionalProperties":true},
		"parentRequest":{"oneOf":[{"$ref":"#/$defs/pageIdParentRequest"},{"$ref":"#/$defs/dataSourceIdParentRequest"},
			{"type":"object","properties":{"type":{"const":"workspace"}},"required":["type"],"additionalProperties":true}]}}}}},
{"type":"function","function":{"name":"pick","description":"Pick one.","parameters":{
	"type":"object","properties":{"p":{"oneOf":[{"$ref":"#/$defs/A"},{"$ref":"#/$defs/B"},{"$ref":"#/$defs/AC"}]}},"required":["p"],
	"$defs":{
		"A":{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false},
		"B":{"type":"object","properties":{"b":{"type":"integer"}},"additionalProperties":false},
		"AC":{"type":"object","properties":{"a":{"type":"integer"},"c":{"type":"integer"}},"additionalProperties":false}}}}},
{"type":"function","function":{"name":"many","description":"One of many.","parameters":{
	"type":"object","properties":{"m":{"anyOf":[{"type":"object","properties":{"f0":{"type":"integer"}},"required":["f0"],"additionalProperties":false},{"type":"object","properties":{"f1":{"type":"integer"}},"required":["f1"],"additionalProperties":false},{"type":"object","properties":{"f2":{"type":"integer"}},"required":["f2"],"additionalProperties":false},{"type":"object","properties":{"f3":{"type":"integer"}},"required":["f3"],"additionalProperties":false},{"type":"object","properties":{"f4":{"type":"integer"}},"required":["f4"],"additionalProperties":false},{"type":"object","properties":{"f5":{"type":"integer"}},"required":["f5"],"additionalProperties":false},{"type":"object","properties":{"f6":{"type":"integer"}},"required":["f6"],"additionalProperties":false},{"type":"object","properties":{"f7":{"type":"integer"}},"required":["f7"],"additionalProperties":false},{"type":"object","properties":{"f8":{"type":"integer"}},"required":["f8"],"additionalProperties":false},{"type":"object","properties":{"f9":{"type":"integer"}},"required":["f9"],"additionalProperties":false},{"type":"object","properties":{"f10":{"type":"integer"}},"required":["f10"],"additionalProperties":false},{"type":"object","properties":{"f11":{"type":"integer"}},"required":["f11"],"additionalProperties":false},{"type":"object","properties":{"f12":{"type":"integer"}},"required":["f12"],"additionalProperties":false},{"type":"object","properties":{"f13":{"type":"integer"}},"required":["f13"],"additionalProperties":false},{"type":"object","properties":{"f14":{"type":"integer"}},"required":["f14"],"additionalProperties":false},{"type":"object","properties":{"f15":{"type":"integer"}},"required":["f15"],"additionalProperties":false},{"type":"object","properties":{"f16":{"type":"integer"}},"required":["f16"],"additionalProperties":false},{"type":"object","properties":{"f17":{"type":"integer"}},"required":["f17"],"additionalProperties":false},{"type":"object","properties":{"f18":{"type":"integer"}},"required":["f18"],"additionalProperties":false},{"type":"object","properties":{"f19":{"type":"integer"}},"required":["f19"],"additionalProperties":false},{"type":"object","properties":{"f20":{"type":"integer"}},"required":["f20"],"additionalProperties":false},{"type":"object","properties":{"f21":{"type":"integer"}},"required":["f21"],"additionalProperties":false},{"type":"object","properties":{"f22":{"type":"integer"}},"required":["f22"],"additionalProperties":false},{"type":"object","properties":{"f23":{"type":"integer"}},"required":["f23"],"additionalProperties":false},{"type":"object","properties":{"f24":{"type":"integer"}},"required":["f24"],"additionalProperties":false},{"type":"object","properties":{"f25":{"type":"integer"}},"required":["f25"],"additionalProperties":false},{"type":"object","properties":{"f26":{"type":"integer"}},"required":["f26"],"additionalProperties":false},{"type":"object","properties":{"f27":{"type":"integer"}},"required":["f27"],"additionalProperties":false},{"type":"object","properties":{"f28":{"type":"integer"}},"required":["f28"],"additionalProperties":false},{"type":"object","properties":{"f29":{"type":"integer"}},"required":["f29"],"additionalProperties":false},{"type":"object","properties":{"f30":{"type":"integer"}},"required":["f30"],"additionalProperties":false},{"type":"object","properties":{"f31":{"type":"integer"}},"required":["f31"],"additionalProperties":false},{"type":"object","properties":{"f32":{"type":"integer"}},"required":["f32"],"additionalProperties":false},{"type":"object","properties":{"f33":{"type":"integer"}},"required":["f33"],"additionalProperties":false},{"type":"object","properties":{"f34":{"type":"integer"}},"required":["f34"],"additionalProperties":false},{"type":"object","properties":{"f35":{"type":"integer"}},"required":["f35"],"additionalProperties":false},{"type":"object","properties":{"f36":{"type":"integer"}},"required":["f36"],"additionalProperties":false},{"type":"object","properties":{"f37":{"type":"integer"}},"required":["f37"],"additionalProperties":false},{"type":"object","properties":{"f38":{"type":"integer"}},"required":["f38"],"additionalProperties":false},{"type":"object","properties":{"f39":{"type":"integer"}},"required":["f39"],"additionalProperties":false}]}},"required":["m"]}}}
]`

// TestUnionMessages: a value a union decoded by trial refuses is told
// what the union's branches are as the model read them in the schema (a
// definition's name, "object with \"email\"", as runtime/check says),
// not by the Go type names the generator gave them
// (LookupUserOption1); a value one member away from a branch is told
// which branch and what is wrong against it; a value that matches
// several branches of a oneOf is told those; and a union of 40
// branches names 6 of them.
func TestUnionMessages(t *testing.T) {
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: messageTools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "messages_test.go", []byte(messageBehaviour))
}

const messageBehaviour = `package generated

import (
	"errors"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestMessages(t *testing.T) {
	const lookup = ` + "`" + `matches none of: object with "email" or object with "user_id"` + "`" + `
	const parent = ` + "`" + `matches none of: pageIdParentRequest or dataSourceIdParentRequest or object with "type"` + "`" + `
	for _, tc := range []struct {
		tool, args                      string
		path, code, message, suggestion string
	}{
		// A misspelt member: the branch it was meant for, and the name.
		{"lookup_user", ` + "`" + `{"emial":"a@b.co"}` + "`" + `, "", "anyOf", lookup + ` + "`" + `; nearest is object with "email": unknown property "emial"` + "`" + `, "email"},
		// A member too many.
		{"lookup_user", ` + "`" + `{"user_id":1,"name":"x"}` + "`" + `, "", "anyOf", lookup + ` + "`" + `; nearest is object with "user_id": unknown property "name"` + "`" + `, ""},
		// The names fit a branch: its member's value is wrong.
		{"lookup_user", ` + "`" + `{"user_id":"x"}` + "`" + `, "", "anyOf", lookup, ""},
		// Equally near both branches.
		{"lookup_user", ` + "`" + `{"user_id":1,"email":"a@b.co"}` + "`" + `, "", "anyOf", lookup, ""},
		{"lookup_user", ` + "`" + `{}` + "`" + `, "", "anyOf", lookup, ""},
		// Definitions by the names the schema gives them.
		{"create_page", ` + "`" + `{"parent":{"database":"d"}}` + "`" + `, "/parent", "oneOf", parent + ` + "`" + `; nearest is dataSourceIdParentRequest: unknown property "database"` + "`" + `, "database_id"},
		{"create_page", ` + "`" + `{"parent":{"workspace":true}}` + "`" + `, "/parent", "oneOf", parent, ""},
		// Several branches of a oneOf: those the value matches.
		{"create_page", ` + "`" + `{"parent":{"type":"workspace","page_id":"p"}}` + "`" + `, "/parent", "oneOf", ` + "`" + `matches more than one of: pageIdParentRequest and object with "type"` + "`" + `, ""},
		{"pick", ` + "`" + `{"p":{"a":1}}` + "`" + `, "/p", "oneOf", "matches more than one of: A and AC", ""},
		{"pick", ` + "`" + `{"p":{"a":1,"b":2}}` + "`" + `, "/p", "oneOf", "matches none of: A or B or AC", ""},
		// Forty branches: six are named.
		{"many", ` + "`" + `{"m":{"x":1,"y":2}}` + "`" + `, "/m", "anyOf", ` + "`" + `matches none of: object with "f0" or object with "f1" or object with "f2" or object with "f3" or object with "f4" or object with "f5" or 34 more` + "`" + `, ""},
		{"many", ` + "`" + `{"m":{"f17":1,"zz":2}}` + "`" + `, "/m", "anyOf", ` + "`" + `matches none of: object with "f0" or object with "f1" or object with "f2" or object with "f3" or object with "f4" or object with "f5" or 34 more; nearest is object with "f17": unknown property "zz"` + "`" + `, ""},
	} {
		_, err := DecodeArgs(tc.tool, []byte(tc.args))
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) || len(ve.Fields) != 1 {
			t.Errorf("%s %s: want one error, got %v", tc.tool, tc.args, err)
			continue
		}
		if f := ve.Fields[0]; f.Path != tc.path || f.Code != tc.code || f.Message != tc.message || f.Suggestion != tc.suggestion {
			t.Errorf("%s %s:\n got %s %s %q (suggestion %q)\nwant %s %s %q (suggestion %q)", tc.tool, tc.args, f.Path, f.Code, f.Message, f.Suggestion, tc.path, tc.code, tc.message, tc.suggestion)
		}
	}
}
`

// TestBranchAlt: a union branch is described as runtime/check describes
// its subschema, by the names the schema gives (a definition's, cut as a
// received value is), never by a Go type name.
func TestBranchAlt(t *testing.T) {
	def := func(name string) ir.Pos {
		return ir.Pos{File: "tools.json", Pointer: "/0/function/parameters/$defs/" + name}
	}
	field := func(name string, required bool) *ir.Field {
		return &ir.Field{JSONName: name, Required: required, Type: &ir.Type{Kind: ir.KindString}}
	}
	long := strings.Repeat("D", 200)
	for _, tc := range []struct {
		t    *ir.Type
		want check.Alt
	}{
		{&ir.Type{Kind: ir.KindObject, GoName: "LookupUserOption1", AdditionalFalse: true, Fields: []*ir.Field{field("email", true)}},
			check.Alt{Desc: `object with "email"`, Object: true, Closed: true, Required: []string{"email"}, Known: []string{"email"}}},
		{&ir.Type{Kind: ir.KindObject, GoName: "Big", Fields: []*ir.Field{field("d", true), field("c", true), field("b", false), field("a", true), field("e", true)}},
			check.Alt{Desc: `object with "d", "c", "a", …`, Object: true, Required: []string{"d", "c", "a", "e"}, Known: []string{"a", "b", "c", "d", "e"}}},
		{&ir.Type{Kind: ir.KindObject, GoName: "PageIDParentRequest", Pos: def("pageIdParentRequest"), Fields: []*ir.Field{field("page_id", true)}},
			check.Alt{Desc: "pageIdParentRequest", Object: true, Required: []string{"page_id"}, Known: []string{"page_id"}}},
		{&ir.Type{Kind: ir.KindObject, GoName: "X", Pos: def("a~1b~0c")}, check.Alt{Desc: "a/b~c", Object: true}},
		{&ir.Type{Kind: ir.KindObject, GoName: "X", Pos: def(long)}, check.Alt{Desc: strings.Repeat("D", 79) + "…", Object: true}},
		// Members a pattern or an additionalProperties schema takes are
		// not unknown.
		{&ir.Type{Kind: ir.KindObject, AdditionalFalse: true, PatternProperties: []ir.PatternProperty{{Pattern: "^x"}}}, check.Alt{Desc: "object", Object: true}},
		{&ir.Type{Kind: ir.KindObject, AdditionalFalse: true, Extra: true}, check.Alt{Desc: "object", Object: true}},
		{&ir.Type{Kind: ir.KindString, GoName: "When", Format: "date", Repr: ir.ReprTime}, check.Alt{Desc: "date"}},
		{&ir.Type{Kind: ir.KindEnum, GoName: "State", Pos: def("State")}, check.Alt{Desc: "State"}},
		{&ir.Type{Kind: ir.KindEnum, GoName: "State"}, check.Alt{Desc: "string"}},
		{&ir.Type{Kind: ir.KindConst, Const: raw(`"none"`)}, check.Alt{Desc: `"none"`}},
		{&ir.Type{Kind: ir.KindInteger, Nullable: true}, check.Alt{Desc: "integer or null"}},
		{&ir.Type{Kind: ir.KindTuple, GoName: "Range"}, check.Alt{Desc: "array"}},
		{&ir.Type{Kind: ir.KindMap}, check.Alt{Desc: "object"}},
		{&ir.Type{Kind: ir.KindUnion, GoName: "Inner"}, check.Alt{Desc: "value"}},
	} {
		if got := branchAlt(tc.t); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.t.GoName, got, tc.want)
		}
	}
}
