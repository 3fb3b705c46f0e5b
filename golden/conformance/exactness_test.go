package conformance

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// exactCase is a schema the compiler once read wrong, and arguments the
// reference validator judges: generated decode+validate must agree.
type exactCase struct {
	name, schema string
	args         []string
}

// inV puts a schema at property v of the parameters.
func inV(s string) string { return `{"type":"object","properties":{"v":` + s + `}}` }

var exactCases = []exactCase{
	// const beside a type list with null: the type still applies.
	{"const_beside_nullable_type", inV(`{"type":["string","null"],"const":5}`), []string{`{"v":5}`, `{"v":null}`, `{"v":"5"}`}},
	{"const_beside_null_type", inV(`{"type":"null","const":5}`), []string{`{"v":5}`, `{"v":null}`}},
	// minContains and maxContains count their own conjunct's contains.
	{"allOf_two_contains_counts", inV(`{"type":"array","allOf":[{"contains":{"const":1},"minContains":2},{"contains":{"const":2},"minContains":3}]}`), []string{`{"v":[1,1,2,2,2]}`, `{"v":[1,2,2,2]}`, `{"v":[1,1,2,2]}`}},
	{"allOf_minContains_without_contains", inV(`{"type":"array","allOf":[{"contains":{"const":1}},{"minContains":3}]}`), []string{`{"v":[1]}`, `{"v":[2]}`}},
	{"allOf_same_contains_min0", inV(`{"type":"array","allOf":[{"contains":{"const":1},"minContains":0},{"contains":{"const":1}}]}`), []string{`{"v":[]}`, `{"v":[1]}`}},
	{"allOf_maxContains", inV(`{"type":"array","allOf":[{"contains":{"const":1},"maxContains":1},{"contains":{"const":2}}]}`), []string{`{"v":[1,2,2]}`, `{"v":[1,1,2]}`, `{"v":[1]}`}},
	// Two formats are two assertions.
	{"allOf_two_formats", inV(`{"type":"string","allOf":[{"format":"email"},{"format":"ipv4"}]}`), []string{`{"v":"a@b.c"}`, `{"v":"1.2.3.4"}`}},
	// A required name no property declares answers to every pattern it
	// matches.
	{"required_name_two_patterns", inV(`{"type":"object","properties":{"z":{}},"patternProperties":{"^x":{"type":"string"},"a$":{"minLength":5}},"required":["xa"]}`), []string{`{"v":{"xa":"abc"}}`, `{"v":{"xa":"abcdef"}}`, `{"v":{"xa":123456}}`}},
	// dependentRequired of two conjuncts naming the same property.
	{"allOf_dependentRequired_same_key", inV(`{"type":"object","allOf":[{"dependentRequired":{"a":["b"]}},{"dependentRequired":{"a":["c"]}}]}`), []string{`{"v":{"a":1,"c":1}}`, `{"v":{"a":1,"b":1}}`, `{"v":{"a":1,"b":1,"c":1}}`}},
	{"allOf_dependentRequired_declared", inV(`{"type":"object","properties":{"a":{},"b":{},"c":{}},"allOf":[{"dependentRequired":{"a":["b"]}},{"dependentRequired":{"a":["c"]}}]}`), []string{`{"v":{"a":1,"c":1}}`, `{"v":{"a":1,"b":1,"c":1}}`}},
	// oneOf refuses null when more than one branch takes it.
	{"oneOf_two_null_branches", inV(`{"oneOf":[{"type":"null"},{"enum":[null]},{"type":"string"}]}`), []string{`{"v":null}`, `{"v":"s"}`}},
	{"oneOf_null_and_nullable", inV(`{"oneOf":[{"type":"null"},{"type":["string","null"]}]}`), []string{`{"v":null}`, `{"v":"s"}`}},
	{"oneOf_only_null_branches", inV(`{"oneOf":[{"type":"null"},{"const":null}]}`), []string{`{"v":null}`, `{"v":1}`}},
	{"oneOf_null_and_untyped", inV(`{"oneOf":[{"type":"null"},{"minLength":1}]}`), []string{`{"v":null}`, `{"v":"s"}`, `{"v":""}`, `{"v":1}`}},
	{"oneOf_null_untyped_integer", inV(`{"oneOf":[{"type":"null"},{"minLength":1},{"type":"integer"}]}`), []string{`{"v":null}`, `{"v":"s"}`, `{"v":1}`}},
	{"oneOf_null_nullable_integer", inV(`{"oneOf":[{"type":"null"},{"type":["string","null"]},{"type":"integer"}]}`), []string{`{"v":null}`, `{"v":"s"}`, `{"v":1}`}},
	{"oneOf_one_null_branch", inV(`{"oneOf":[{"type":"null"},{"type":"string"}]}`), []string{`{"v":null}`, `{"v":"s"}`, `{"v":1}`}},
	{"anyOf_null_and_nullable", inV(`{"anyOf":[{"type":"null"},{"type":["string","null"]}]}`), []string{`{"v":null}`, `{"v":"s"}`}},
}

// TestCompilerExactness runs exactCases through one generated package
// and compares every verdict with the reference validator's.
func TestCompilerExactness(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package")
	}
	rc := referenceCompiler()
	want := map[string]bool{}
	var tools []matrixTool
	for i, c := range exactCases {
		url := fmt.Sprintf("mem:///exact/%d.json", i)
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		if err := rc.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		for _, in := range c.args {
			want[c.name+"\x00"+in] = referenceValid(t, rc, url, c.schema, in)
		}
		tools = append(tools, matrixTool{name: c.name, params: c.schema, instances: c.args, labels: c.args})
	}
	mod := tempModule(t)
	work := filepath.Join(mod, "exact")
	pkgs := generateBatch(t, work, "exact", tools, func(tool, in string) bool { return want[tool+"\x00"+in] })
	outs := driverOutcomes(t, work, pkgs)
	ran := len(outs)
	for _, o := range outs {
		if o.Got != o.Want {
			t.Errorf("%s with %s: generated valid=%v, reference valid=%v %s", o.Case, o.Test, o.Got, o.Want, o.Err)
		}
	}
	if total := len(want); ran != total {
		t.Errorf("driver ran %d cases, want %d", ran, total)
	}
}
