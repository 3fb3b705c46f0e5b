package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestNullResults compiles results whose root admits null (type [object,
// null], a union with a null branch) beside ones that do not (an object,
// a oneOf two of whose branches admit null, null refused by a keyword
// beside), then decodes real JSON with the generated UnmarshalJSON, with
// generated decoders and through runtime/shape tables
// (testdata/null_result_test.go.txt): a tool's result has no holder to
// read its null, so the type's own method does.
func TestNullResults(t *testing.T) {
	const tools = `{"tools":[
	{"name":"get_maybe","inputSchema":{"type":"object"},"outputSchema":{"type":["object","null"],"properties":{"a":{"type":"string","minLength":2}}}},
	{"name":"get_either","inputSchema":{"type":"object"},"outputSchema":{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"null"}]}},
	{"name":"get_union","inputSchema":{"type":"object"},"outputSchema":{"anyOf":[
		{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},
		{"type":"object","properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false},{"type":"null"}]}},
	{"name":"get_two_nulls","inputSchema":{"type":"object"},"outputSchema":{"oneOf":[
		{"type":["object","null"],"properties":{"a":{"type":"string"}},"required":["a"]},
		{"type":["object","null"],"properties":{"b":{"type":"string"}},"required":["b"]}]}},
	{"name":"get_not_null","inputSchema":{"type":"object"},"outputSchema":{"type":["object","null"],"properties":{"a":{"type":"string"}},"not":{"type":"null"}}},
	{"name":"get_plain","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"a":{"type":"string"}}}}]}`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	behaviour, err := os.ReadFile(filepath.Join("testdata", "null_result_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range []TableMode{TablesNever, TablesAlways} {
		opts := Options{Package: fam.Package, Sources: fam.Sources, Tables: mode}
		files, err := Generate(fam, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if f.Path != "types_gen.go" {
				continue
			}
			want := "\tif d.Null() {\n\t\t*x = GetMaybeResult{}\n\t} else {\n\t\tx.decodeWire(d)\n\t}\n"
			if mode == TablesAlways {
				want = "\tif d.Null() {\n\t\t*x = GetMaybeResult{}\n\t\treturn d.Close()\n\t}\n\treturn shape.Unmarshal(&tableGetMaybeResult, data, unsafe.Pointer(x))\n"
			}
			wantInFile(t, f.Path, string(f.Bytes), want)
		}
		testGeneratedWith(t, fam, opts, "null_result_test.go", behaviour)
	}
}
