package generator

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestOpenObjectResults compiles results whose union has an open object
// branch ({"type": "object"} without properties, a map like any open
// object below the root; typed by additionalProperties), in a result's
// root and in a property, and params of the same shape, then decodes and
// validates real JSON with the generated code: a value the branch admits
// keeps its members, one no branch admits is refused, and a oneOf refuses
// an object both branches admit.
func TestOpenObjectResults(t *testing.T) {
	const tools = `{"tools":[
	{"name":"get_open","inputSchema":{"type":"object"},"outputSchema":{"oneOf":[
		{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},{"type":"object"}]}},
	{"name":"get_counts","inputSchema":{"type":"object"},"outputSchema":{"anyOf":[
		{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object","additionalProperties":{"type":"integer"}}]}},
	{"name":"get_nested","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"o":{"oneOf":[
		{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object"}]}}}},
	{"name":"set_labels","inputSchema":{"type":"object","oneOf":[
		{"properties":{"id":{"type":"string"}},"required":["id"]},{"additionalProperties":{"type":"string"}}]}}]}`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := generateFiles(t, fam)
	wantInFile(t, "types_gen.go", string(files["types_gen.go"]),
		"\tObject map[string]any\n", "\tObject map[string]int64\n", "\tObject map[string]string\n")
	testGenerated(t, fam, "open_test.go", []byte(`package generated

import (
	"encoding/json"
	"testing"
)

// result decodes and validates in as a T, and encodes it again.
func result[T any, P interface {
	*T
	Validate() error
}](in string) (string, error) {
	var v T
	err := json.Unmarshal([]byte(in), &v)
	if err == nil {
		err = P(&v).Validate()
	}
	out, _ := json.Marshal(v)
	return string(out), err
}

func TestOpenObjects(t *testing.T) {
	for _, c := range []struct {
		name, in, out string
		ok            bool
		run           func(string) (string, error)
	}{
		{"open", `+"`"+`{"b":1,"c":[true]}`+"`"+`, `+"`"+`{"b":1,"c":[true]}`+"`"+`, true, result[GetOpenResult]},
		{"open", `+"`"+`{"a":"x"}`+"`"+`, "", false, result[GetOpenResult]},
		{"open", `+"`"+`{"a":"x","b":1}`+"`"+`, `+"`"+`{"a":"x","b":1}`+"`"+`, true, result[GetOpenResult]},
		{"open", `+"`"+`[1]`+"`"+`, "", false, result[GetOpenResult]},
		{"counts", `+"`"+`{"n":1,"m":2}`+"`"+`, `+"`"+`{"m":2,"n":1}`+"`"+`, true, result[GetCountsResult]},
		{"counts", `+"`"+`{"a":"x"}`+"`"+`, `+"`"+`{"a":"x"}`+"`"+`, true, result[GetCountsResult]},
		{"counts", `+"`"+`{"a":1,"n":"s"}`+"`"+`, "", false, result[GetCountsResult]},
		{"counts", `+"`"+`"s"`+"`"+`, "", false, result[GetCountsResult]},
		{"nested", `+"`"+`{"o":{"b":[1]}}`+"`"+`, `+"`"+`{"o":{"b":[1]}}`+"`"+`, true, result[GetNestedResult]},
		{"nested", `+"`"+`{"o":{"a":"x"}}`+"`"+`, "", false, result[GetNestedResult]},
		{"nested", `+"`"+`{"o":3}`+"`"+`, "", false, result[GetNestedResult]},
		{"params", `+"`"+`{"x":"y"}`+"`"+`, `+"`"+`{"x":"y"}`+"`"+`, true, result[SetLabelsParams]},
		{"params", `+"`"+`{"x":1}`+"`"+`, "", false, result[SetLabelsParams]},
		{"params", `+"`"+`{"id":"i"}`+"`"+`, "", false, result[SetLabelsParams]},
		{"params", `+"`"+`{"id":"i","n":1}`+"`"+`, `+"`"+`{"id":"i"}`+"`"+`, true, result[SetLabelsParams]},
	} {
		out, err := c.run(c.in)
		if (err == nil) != c.ok {
			t.Errorf("%s %s: %v, want ok %v", c.name, c.in, err, c.ok)
		} else if c.ok && out != c.out {
			t.Errorf("%s %s: encoded %s, want %s", c.name, c.in, out, c.out)
		}
	}
	if _, err := DecodeArgs("set_labels", []byte(`+"`"+`{"x":1}`+"`"+`)); err == nil {
		t.Error("set_labels {\"x\":1}: decoded; want a type error")
	}
}
`))
}

// TestOpenRootResults compiles tools whose result root is an open object
// ({"type": "object"}, additionalProperties true or {}, or null besides)
// and whose params say additionalProperties true, then decodes, validates
// and encodes real JSON with the generated code, and dispatches handlers
// that return an open result's members and read free-form arguments
// (testdata/open_root_test.go.txt).
func TestOpenRootResults(t *testing.T) {
	const tools = `{"tools":[
	{"name":"get_stats","inputSchema":{"type":"object"},"outputSchema":{"type":"object"}},
	{"name":"get_true","inputSchema":{"type":"object"},"outputSchema":{"type":"object","additionalProperties":true}},
	{"name":"get_empty","inputSchema":{"type":"object"},"outputSchema":{"type":"object","additionalProperties":{}}},
	{"name":"get_maybe","inputSchema":{"type":"object"},"outputSchema":{"anyOf":[{"type":"object"},{"type":"null"}]}},
	{"name":"get_count","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}},"additionalProperties":true}},
	{"name":"get_record","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"n":{"type":"integer"}}}},
	{"name":"get_pattern","inputSchema":{"type":"object"},"outputSchema":{"type":"object","patternProperties":{"^n":{"type":"integer"}}}},
	{"name":"set_free","inputSchema":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":true}},
	{"name":"ping","inputSchema":{"type":"object"}}]}`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	files := generateFiles(t, fam)
	wantInFile(t, "types_gen.go", string(files["types_gen.go"]),
		"type GetStatsResult struct {\n\t// Extra holds the additional properties.\n\tExtra map[string]any `json:\"-\"`\n}\n",
		"type SetFreeParams struct {\n", "type GetStatsParams struct{}\n")
	behaviour, err := os.ReadFile(filepath.Join("testdata", "open_root_test.go.txt"))
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "open_root_test.go", behaviour)
}
