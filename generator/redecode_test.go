package generator

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
)

// redecodeTools are Anthropic tool definitions for the behaviour of
// TestRedecodeBehave: defaults of null on nullable properties (nulls), a
// required property named "" (blank), unions and tuples decoded again,
// in place too (values), and the counts of model-facing messages.
const redecodeTools = `[
{"name":"nulls","description":"Defaults of null.","input_schema":{"type":"object","properties":{
	"en":{"enum":["x",null],"default":null},
	"s":{"type":["string","null"],"default":null},
	"i":{"type":["integer","null"],"default":null},
	"a":{"type":["array","null"],"items":{"type":"string"},"default":null},
	"o":{"type":["object","null"],"properties":{"k":{"type":"string"}},"required":["k"],"default":null},
	"ds":{"type":["string","null"],"default":"q"}}}},
{"name":"blank","description":"A property named by the empty string.","input_schema":{"type":"object",
	"properties":{"":{"type":"string"}},"required":[""]}},
{"name":"values","description":"Unions and tuples.","input_schema":{"type":"object","properties":{
	"u":{"anyOf":[{"type":"string"},{"type":"integer"}]},
	"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false},
	"w":{"type":"object","properties":{
		"ru":{"anyOf":[{"type":"string"},{"type":"integer"}]},
		"rt":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}},"required":["ru","rt"]},
	"one":{"type":"array","prefixItems":[{"type":"string"}],"items":false},
	"has":{"type":"array","contains":{"type":"string"}},
	"objs":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},
		{"type":"object","properties":{"b":{"type":"string"}},"required":["b"]}]},
	"arrs":{"anyOf":[{"type":"array","items":{"type":"string"}},{"type":"array","items":{"type":"integer"}}]}}}}
]`

func redecodeFamily(t *testing.T) *ir.Family {
	t.Helper()
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: redecodeTools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return fam
}

// TestRedecodeBehave compiles the package of redecodeTools with a
// behaviour test: real JSON arguments through DecodeArgs and
// json.Unmarshal.
func TestRedecodeBehave(t *testing.T) {
	testGenerated(t, redecodeFamily(t), "redecode_test.go", []byte(redecodeBehaviour))
}

// Union fields count branches from 1 in their docs, as in their names;
// an anyOf whose value may match several branches says so, a union
// matched by kind does not.
func TestBranchDocsCountFromOne(t *testing.T) {
	src := string(generateFiles(t, redecodeFamily(t))["types_gen.go"])
	wantInFile(t, "types_gen.go", src,
		"\t// ValuesObjsOption1 is set when the value matches branch 1; with anyOf several may be set.\n\tValuesObjsOption1 *ValuesObjsOption1\n",
		"\t// ValuesObjsOption2 is set when the value matches branch 2; with anyOf several may be set.\n\tValuesObjsOption2 *ValuesObjsOption2\n",
		"\t// Array is set when the value matches branch 1; with anyOf several may be set.\n\tArray []string\n",
		"\t// Array2 is set when the value matches branch 2; with anyOf several may be set.\n\tArray2 []int64\n",
		"\t// String is set when the value matches branch 1.\n\tString *string\n",
		"\t// Integer is set when the value matches branch 2.\n\tInteger *int64\n",
	)
}

// Generated imports are grouped as goimports groups them, the standard
// library's first, and name no package by the name it has anyway.
func TestImportsGrouped(t *testing.T) {
	files := generateFiles(t, redecodeFamily(t))
	wantInFile(t, "tools_gen.go", string(files["tools_gen.go"]),
		"import (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"sync\"\n\n\t\"github.com/toolgen-go/toolgen/runtime\"\n\t\"github.com/toolgen-go/toolgen/runtime/check\"\n\t\"github.com/toolgen-go/toolgen/runtime/wire\"\n)\n")
	wantInFile(t, "registry_gen.go", string(files["registry_gen.go"]),
		"import (\n\t\"encoding/json\"\n\n\t\"github.com/toolgen-go/toolgen/runtime\"\n\t\"github.com/toolgen-go/toolgen/runtime/gateway\"\n)\n")
	for name, src := range files {
		if strings.Contains(string(src), `gateway "`) || strings.Contains(string(src), `prompt "`) {
			t.Errorf("%s names an import by its own name:\n%s", name, src)
		}
	}
	stubs, err := Stubs(redecodeFamily(t), StubOptions{Package: "generated"})
	if err != nil {
		t.Fatal(err)
	}
	wantInFile(t, "handlers.go", string(stubs), "import (\n\t\"context\"\n\n\t\"github.com/toolgen-go/toolgen/runtime\"\n)\n")
}

const redecodeBehaviour = `package generated

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// decode decodes and validates args for tool; problems are "path code:
// message" strings.
func decode(t *testing.T, tool, args string) (any, []string) {
	t.Helper()
	v, err := DecodeArgs(tool, []byte(args))
	if err != nil {
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) {
			t.Fatalf("%s: %v", args, err)
		}
		var got []string
		for _, f := range ve.Fields {
			got = append(got, f.Path+" "+f.Code+": "+f.Message)
		}
		return nil, got
	}
	return v, nil
}

func marshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// An absent property whose default is null is null, not its type's zero
// value: it passes the enum, and an object missing its required
// properties is not made up.
func TestNullDefaults(t *testing.T) {
	v, errs := decode(t, "nulls", ` + "`{}`" + `)
	if errs != nil {
		t.Fatalf("{}: %v", errs)
	}
	p := v.(*NullsParams)
	if !p.En.IsNull() || !p.S.IsNull() || !p.I.IsNull() || !p.A.IsNull() || !p.O.IsNull() {
		t.Errorf("{}: %#v", p)
	}
	if got, want := marshal(t, p), ` + "`" + `{"en":null,"s":null,"i":null,"a":null,"o":null,"ds":"q"}` + "`" + `; got != want {
		t.Errorf("{} decodes as %s, want %s", got, want)
	}
	const all = ` + "`" + `{"en":"x","s":"v","i":1,"a":["z"],"o":{"k":"k"},"ds":null}` + "`" + `
	if v, errs = decode(t, "nulls", all); errs != nil || marshal(t, v) != all {
		t.Errorf("%s: %v %v", all, v, errs)
	}
}

// A missing required property named "" is at "/", as a type error on it
// is, not at its object's path.
func TestBlankProperty(t *testing.T) {
	for args, want := range map[string]string{
		` + "`{}`" + `:       ` + "`" + `/ required: missing required property ""` + "`" + `,
		` + "`" + `{"":1}` + "`" + `: "/ type",
	} {
		_, errs := decode(t, "blank", args)
		if len(errs) != 1 || !strings.HasPrefix(errs[0], want) {
			t.Errorf("%s: %q, want %q", args, errs, want)
		}
	}
}

func unmarshal(t *testing.T, v any, args ...string) {
	t.Helper()
	for _, a := range args {
		if err := json.Unmarshal([]byte(a), v); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
}

// A union or tuple holds one JSON value: decoding again replaces it, the
// branch or items the new value lacks included, also in place in a
// parent decoded again.
func TestDecodeAgain(t *testing.T) {
	var u ValuesU
	unmarshal(t, &u, ` + "`" + `"s"` + "`" + `, "1")
	if u.String != nil || u.Integer == nil || marshal(t, u) != "1" {
		t.Errorf(` + "`" + `"s" then 1: %#v, %s` + "`" + `, u, marshal(t, u))
	}
	var tp ValuesT
	unmarshal(t, &tp, ` + "`" + `["a",1]` + "`" + `, ` + "`" + `["b"]` + "`" + `)
	if got := marshal(t, tp); got != ` + "`" + `["b"]` + "`" + ` {
		t.Errorf(` + "`" + `["a",1] then ["b"]: %s` + "`" + `, got)
	}
	var w ValuesW
	unmarshal(t, &w, ` + "`" + `{"ru":"s","rt":["a",1]}` + "`" + `, ` + "`" + `{"ru":2,"rt":["b"]}` + "`" + `)
	if got, want := marshal(t, w), ` + "`" + `{"ru":2,"rt":["b"]}` + "`" + `; got != want {
		t.Errorf("in place: %s, want %s", got, want)
	}
}

// Counts in messages are singular for one.
func TestOneItem(t *testing.T) {
	for args, want := range map[string]string{
		` + "`" + `{"one":["a","b"]}` + "`" + `: "/one/1 items: at most 1 item is allowed",
		` + "`" + `{"has":[1]}` + "`" + `:       "/has contains: must contain at least 1 matching item",
	} {
		_, errs := decode(t, "values", args)
		if len(errs) != 1 || errs[0] != want {
			t.Errorf("%s: %q, want %q", args, errs, want)
		}
	}
}
`
