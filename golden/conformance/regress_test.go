package conformance

import (
	"path/filepath"
	"strings"
	"testing"
)

// regression is one example of issue 8 ("Validation that rejects valid
// calls or accepts invalid ones"): a tool's params, arguments and the
// verdict; when the call must fail, errHas is a part of the message.
type regression struct {
	name   string
	params string
	args   string
	valid  bool
	errHas string
}

// slowKey makes the ECMAScript engine backtrack past its time limit on
// the pattern below (lookahead keeps it off RE2).
var slowKey = strings.Repeat("a", 40) + "!"

const slowPattern = `^(?=a)(a+)+b`

var regressions = []regression{
	// Absent is not zero: constraints of optional properties apply only
	// when they are present.
	{name: "optional_minProperties_absent", params: `{"type":"object","properties":{"bag":{"type":"object","minProperties":1}}}`, args: `{}`, valid: true},
	{name: "optional_minProperties_present", params: `{"type":"object","properties":{"bag":{"type":"object","minProperties":1}}}`, args: `{"bag":{}}`, errHas: "/bag: must have at least 1 property"},
	{name: "optional_const_object_absent", params: `{"type":"object","properties":{"k":{"const":{"a":[1,2]}}}}`, args: `{}`, valid: true},
	{name: "optional_const_object_null", params: `{"type":"object","properties":{"k":{"const":{"a":[1,2]}}}}`, args: `{"k":null}`, errHas: "/k: must be"},
	{name: "optional_const_object_present", params: `{"type":"object","properties":{"k":{"const":{"a":[1,2]}}}}`, args: `{"k":{"a":[1,2]}}`, valid: true},
	{name: "optional_contains_absent", params: `{"type":"object","properties":{"xs":{"type":"array","contains":{"const":"admin"}}}}`, args: `{}`, valid: true},
	{name: "optional_contains_present", params: `{"type":"object","properties":{"xs":{"type":"array","contains":{"const":"admin"}}}}`, args: `{"xs":["user"]}`, errHas: "/xs: must contain"},
	// A present null of an untyped optional property counts as present
	// for the keywords of its object.
	{name: "parent_minProperties_any_null", params: `{"type":"object","properties":{"k":{}},"minProperties":1}`, args: `{"k":null}`, valid: true},
	{name: "parent_minProperties_any_absent", params: `{"type":"object","properties":{"k":{}},"minProperties":1}`, args: `{}`, errHas: "must have at least 1 property"},
	{name: "parent_maxProperties_any_null", params: `{"type":"object","properties":{"k":{},"j":{}},"maxProperties":1}`, args: `{"k":null,"j":null}`, errHas: "must have at most 1 property"},
	{name: "parent_dependentRequired_any_null", params: `{"type":"object","properties":{"k":{},"w":{"type":"string"}},"dependentRequired":{"k":["w"]}}`, args: `{"k":null}`, errHas: "/w: property \"w\" is required"},
	{name: "parent_dependentSchemas_any_null", params: `{"type":"object","properties":{"k":{}},"dependentSchemas":{"k":{"required":["w"]}}}`, args: `{"k":null}`, errHas: "w"},
	{name: "nested_minProperties_any_null", params: `{"type":"object","properties":{"o":{"type":"object","properties":{"k":{"enum":[null,1]}},"minProperties":1}}}`, args: `{"o":{"k":null}}`, valid: true},
	{name: "items_unique_any_null", params: `{"type":"object","properties":{"a":{"type":"array","uniqueItems":true,"items":{"type":"object","properties":{"k":{}}}}}}`, args: `{"a":[{"k":null},{}]}`, valid: true},
	{name: "const_object_any_null", params: `{"type":"object","properties":{"o":{"const":{"k":null},"type":"object","properties":{"k":{}}}}}`, args: `{"o":{"k":null}}`, valid: true},
	// Nested objects with patternProperties and/or
	// additionalProperties:false and no properties are enforced.
	{name: "nested_patternProperties_invalid", params: `{"type":"object","properties":{"o":{"type":"object","patternProperties":{"^n_":{"type":"integer"}}}}}`, args: `{"o":{"n_a":"x"}}`, errHas: "/o/n_a"},
	{name: "nested_patternProperties_valid", params: `{"type":"object","properties":{"o":{"type":"object","patternProperties":{"^n_":{"type":"integer"}}}}}`, args: `{"o":{"n_a":1,"other":"x"}}`, valid: true},
	{name: "nested_patternProperties_closed_invalid", params: `{"type":"object","properties":{"o":{"type":"object","patternProperties":{"^n_":{"type":"integer"}},"additionalProperties":false}}}`, args: `{"o":{"x":1}}`, errHas: "/o"},
	{name: "nested_additionalProperties_false_invalid", params: `{"type":"object","properties":{"o":{"type":"object","additionalProperties":false}}}`, args: `{"o":{"x":1}}`, errHas: "/o/x: unknown property"},
	{name: "nested_additionalProperties_false_valid", params: `{"type":"object","properties":{"o":{"type":"object","additionalProperties":false}}}`, args: `{"o":{}}`, valid: true},
	// Bounds outside float64 are compared exactly, never dropped.
	{name: "minimum_1e400", params: `{"type":"object","properties":{"n":{"type":"number","minimum":1e400}}}`, args: `{"n":1e308}`, errHas: "/n: must be >= 1e400"},
	{name: "minimum_1e400_absent", params: `{"type":"object","properties":{"n":{"type":"number","minimum":1e400}}}`, args: `{}`, valid: true},
	{name: "maximum_1e400", params: `{"type":"object","properties":{"n":{"type":"number","maximum":1e400}}}`, args: `{"n":1e308}`, valid: true},
	{name: "integer_minimum_1e30", params: `{"type":"object","properties":{"n":{"type":"integer","minimum":1e30}}}`, args: `{"n":9007199254740993}`, errHas: "/n: must be >= 1e30"},
	{name: "exclusiveMinimum_tiny", params: `{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":1e-400}}}`, args: `{"n":0}`, errHas: "/n: must be > 1e-400"},
	{name: "multipleOf_tiny", params: `{"type":"object","properties":{"n":{"type":"number","multipleOf":1e-400}}}`, args: `{"n":0.5}`, valid: true},
	{name: "multipleOf_huge", params: `{"type":"object","properties":{"n":{"type":"number","multipleOf":1e400}}}`, args: `{"n":5}`, errHas: "/n: must be a multiple of 1e400"},
	{name: "const_beyond_int64", params: `{"type":"object","properties":{"n":{"type":"integer","const":123456789012345678901234567890}}}`, args: `{"n":1}`, errHas: "/n: must be 123456789012345678901234567890"},
	// Defaults beyond the Go type are not applied (a located warning),
	// and the package compiles.
	{name: "integer_default_beyond_int64", params: `{"type":"object","properties":{"n":{"type":"integer","default":123456789012345678901234567890}}}`, args: `{}`, valid: true},
	{name: "number_default_beyond_float64", params: `{"type":"object","properties":{"n":{"type":"number","default":1e400}}}`, args: `{"n":2}`, valid: true},
	// Regex matches on the ECMAScript engine that time out fail closed.
	{name: "patternProperties_timeout_top", params: `{"type":"object","patternProperties":{"` + slowPattern + `":{"type":"integer"}}}`, args: `{"` + slowKey + `":"not an integer"}`, errHas: "took longer than the 100ms limit"},
	{name: "patternProperties_timeout_nested", params: `{"type":"object","properties":{"o":{"type":"object","patternProperties":{"` + slowPattern + `":{"type":"integer"}}}}}`, args: `{"o":{"` + slowKey + `":"not an integer"}}`, errHas: "took longer than the 100ms limit"},
	{name: "pattern_timeout", params: `{"type":"object","properties":{"s":{"type":"string","pattern":"` + slowPattern + `"}}}`, args: `{"s":"` + slowKey + `"}`, errHas: "took longer than the 100ms limit"},
	{name: "patternProperties_ecma_extra_valid", params: `{"type":"object","properties":{"x":{"type":"string"}},"patternProperties":{"^(?=a)a":{"type":"integer"}},"additionalProperties":{"type":"string"}}`, args: `{"x":"s","ab":1,"z":"s"}`, valid: true},
	{name: "patternProperties_ecma_extra_invalid", params: `{"type":"object","properties":{"x":{"type":"string"}},"patternProperties":{"^(?=a)a":{"type":"integer"}},"additionalProperties":{"type":"string"}}`, args: `{"ab":"s"}`, errHas: "/ab"},
	{name: "propertyNames_ecma_timeout", params: `{"type":"object","properties":{"o":{"type":"object","propertyNames":{"pattern":"` + slowPattern + `"}}}}`, args: `{"o":{"` + slowKey + `":1}}`, errHas: "took longer than the 100ms limit"},
	{name: "pattern_ecma_ok", params: `{"type":"object","properties":{"s":{"type":"string","pattern":"` + slowPattern + `"}}}`, args: `{"s":"aab"}`, valid: true},
}

// TestIssue8Regressions runs every example of issue 8's validation
// section through generated decode+validate (one generated package).
func TestIssue8Regressions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated package")
	}
	mod := tempModule(t)
	work := filepath.Join(mod, "regress")
	var tools []matrixTool
	byName := map[string]regression{}
	for _, r := range regressions {
		tools = append(tools, matrixTool{name: r.name, params: r.params, instances: []string{r.args}, labels: []string{r.name}})
		byName[r.name] = r
	}
	pkgs := generateBatch(t, work, "regress", tools, func(tool, _ string) bool { return byName[tool].valid })
	outs := driverOutcomes(t, work, pkgs)
	ran := len(outs)
	for _, o := range outs {
		r := byName[o.Case]
		t.Logf("%s: valid=%v %s", r.name, o.Got, o.Err)
		if o.Got != o.Want {
			t.Errorf("%s: %s with %s: valid=%v, want %v (%s)", r.name, r.params, r.args, o.Got, o.Want, o.Err)
			continue
		}
		if r.errHas != "" && !strings.Contains(o.Err, r.errHas) {
			t.Errorf("%s: error %q lacks %q", r.name, o.Err, r.errHas)
		}
	}
	if ran != len(regressions) {
		t.Errorf("driver ran %d cases, want %d", ran, len(regressions))
	}
}
