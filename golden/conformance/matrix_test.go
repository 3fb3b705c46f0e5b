package conformance

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// keywordCase is one keyword of the matrix: a schema using it and two
// instances, one meant to satisfy it and one not (the verdicts come from
// the reference validator, not from these labels).
type keywordCase struct {
	name             string
	schema           string
	valid, invalid   string
	noNullableSuffix bool
}

// matrixKeywords are the keywords the generator emits checks for (or
// delegates), one or more schemas each.
var matrixKeywords = []keywordCase{
	{name: "type_string", schema: `{"type":"string"}`, valid: `"a"`, invalid: `1`},
	{name: "type_integer", schema: `{"type":"integer"}`, valid: `3`, invalid: `1.5`},
	{name: "type_number", schema: `{"type":"number"}`, valid: `1.5`, invalid: `"x"`},
	{name: "type_boolean", schema: `{"type":"boolean"}`, valid: `true`, invalid: `"x"`},
	{name: "type_array", schema: `{"type":"array"}`, valid: `[1]`, invalid: `{}`},
	{name: "type_object", schema: `{"type":"object"}`, valid: `{"a":1}`, invalid: `[1]`},
	{name: "enum", schema: `{"enum":["a","b"]}`, valid: `"a"`, invalid: `"c"`},
	{name: "enum_typed", schema: `{"type":"string","enum":["a","b"]}`, valid: `"b"`, invalid: `"c"`},
	{name: "enum_null", schema: `{"enum":["a",null]}`, valid: `"a"`, invalid: `"c"`},
	{name: "enum_int", schema: `{"type":"integer","enum":[1,2]}`, valid: `2`, invalid: `3`},
	{name: "enum_mixed", schema: `{"enum":["a",0,true]}`, valid: `true`, invalid: `"b"`},
	{name: "enum_mixed_null", schema: `{"enum":["a",0,null]}`, valid: `0`, invalid: `1`},
	{name: "type_list", schema: `{"type":["integer","string"]}`, valid: `1`, invalid: `true`},
	{name: "type_list_null", schema: `{"type":["integer","string","null"],"minimum":2,"minLength":2}`, valid: `"ab"`, invalid: `1`},
	{name: "type_list_enum_null", schema: `{"type":["integer","string","null"],"enum":[1,"a",null]}`, valid: `1`, invalid: `2`},
	{name: "type_list_enum_no_null", schema: `{"type":["integer","string","null"],"enum":[1,"a"]}`, valid: `"a"`, invalid: `"b"`},
	{name: "const_null", schema: `{"const":null}`, valid: `null`, invalid: `1`},
	{name: "anyOf_mixed_null", schema: `{"anyOf":[{"type":"integer"},{"type":"string"},{"type":"null"}]}`, valid: `"x"`, invalid: `true`},
	{name: "enum_containers_null", schema: `{"enum":[{"a":1},[1,2],null]}`, valid: `[1,2]`, invalid: `{"a":2}`},
	{name: "const_array_null", schema: `{"const":[null]}`, valid: `[null]`, invalid: `[]`},
	{name: "type_list_array_null", schema: `{"type":["array","null"],"items":{"type":"integer"}}`, valid: `[1]`, invalid: `["x"]`},
	{name: "type_list_object_string", schema: `{"type":["object","string"],"properties":{"x":{"type":"integer"}},"required":["x"]}`, valid: `"s"`, invalid: `{}`},
	{name: "oneOf_null", schema: `{"oneOf":[{"type":"null"},{"type":"integer","minimum":0}]}`, valid: `3`, invalid: `-1`},
	{name: "anyOf_enum_null", schema: `{"anyOf":[{"enum":["a","b"]},{"type":"null"}]}`, valid: `"a"`, invalid: `"c"`},
	{name: "number_enum_null", schema: `{"type":["number","null"],"enum":[1.5,null]}`, valid: `1.5`, invalid: `2`},
	{name: "boolean_enum_null", schema: `{"enum":[true,null]}`, valid: `true`, invalid: `false`},
	{name: "not_null", schema: `{"not":{"type":"null"}}`, valid: `1`, invalid: `null`},
	{name: "items_enum_mixed_null", schema: `{"type":"array","items":{"enum":["a",1,null]}}`, valid: `["a",null,1]`, invalid: `["b"]`},
	{name: "enum_empty_string_null", schema: `{"enum":["",null]}`, valid: `""`, invalid: `"x"`},
	{name: "const_false", schema: `{"const":false}`, valid: `false`, invalid: `0`},
	{name: "enum_int_float_null", schema: `{"enum":[1,2.5,null]}`, valid: `2.5`, invalid: `2`},
	{name: "nullable_object_required", schema: `{"type":["object","null"],"properties":{"a":{"type":"string"}},"required":["a"]}`, valid: `{"a":"x"}`, invalid: `{}`},
	{name: "if_null_else_integer", schema: `{"if":{"type":"null"},"then":true,"else":{"type":"integer"}}`, valid: `1`, invalid: `"x"`},
	{name: "allOf_nullable_minimum", schema: `{"allOf":[{"type":["integer","null"]},{"minimum":2}]}`, valid: `3`, invalid: `1`},
	{name: "const_string", schema: `{"const":"x"}`, valid: `"x"`, invalid: `"y"`},
	{name: "const_object", schema: `{"const":{"a":[1,2]}}`, valid: `{"a":[1,2]}`, invalid: `{"a":[1]}`},
	{name: "const_huge_int", schema: `{"type":"integer","const":123456789012345678901234567890}`, valid: `1`, invalid: `2`},
	{name: "minimum", schema: `{"type":"number","minimum":2}`, valid: `3`, invalid: `1`},
	{name: "minimum_int", schema: `{"type":"integer","minimum":1.5}`, valid: `2`, invalid: `1`},
	{name: "minimum_untyped", schema: `{"minimum":2}`, valid: `"x"`, invalid: `1`},
	{name: "maximum", schema: `{"type":"number","maximum":2}`, valid: `1`, invalid: `3`},
	{name: "exclusiveMinimum", schema: `{"type":"number","exclusiveMinimum":2}`, valid: `2.5`, invalid: `2`},
	{name: "exclusiveMaximum", schema: `{"type":"integer","exclusiveMaximum":2}`, valid: `1`, invalid: `2`},
	{name: "minimum_1e400", schema: `{"type":"number","minimum":1e400}`, valid: `1`, invalid: `2`},
	{name: "maximum_neg1e400", schema: `{"type":"integer","maximum":-1e400}`, valid: `1`, invalid: `2`},
	{name: "maximum_1e400", schema: `{"type":"number","maximum":1e400}`, valid: `1e300`, invalid: `"x"`},
	{name: "minimum_tiny", schema: `{"type":"number","exclusiveMinimum":1e-400}`, valid: `1e-300`, invalid: `0`},
	{name: "multipleOf", schema: `{"type":"number","multipleOf":0.5}`, valid: `1.5`, invalid: `1.2`},
	{name: "multipleOf_tiny", schema: `{"type":"number","multipleOf":1e-400}`, valid: `0.5`, invalid: `"x"`},
	{name: "multipleOf_int", schema: `{"type":"integer","multipleOf":3}`, valid: `9`, invalid: `10`},
	{name: "minLength", schema: `{"type":"string","minLength":2}`, valid: `"ab"`, invalid: `"a"`},
	{name: "maxLength", schema: `{"type":"string","maxLength":2}`, valid: `"ab"`, invalid: `"abc"`},
	{name: "pattern", schema: `{"type":"string","pattern":"^a+$"}`, valid: `"aa"`, invalid: `"ab"`},
	{name: "pattern_ecma", schema: `{"type":"string","pattern":"^(?=a)\\w+$"}`, valid: `"ab"`, invalid: `"ba"`},
	{name: "format_date", schema: `{"type":"string","format":"date"}`, valid: `"2024-02-29"`, invalid: `"2023-02-29"`},
	{name: "format_email", schema: `{"type":"string","format":"email"}`, valid: `"a@b.org"`, invalid: `"a"`},
	{name: "format_uuid", schema: `{"type":"string","format":"uuid"}`, valid: `"123e4567-e89b-12d3-a456-426614174000"`, invalid: `"x"`},
	{name: "minItems", schema: `{"type":"array","minItems":1}`, valid: `[1]`, invalid: `[]`},
	{name: "maxItems", schema: `{"type":"array","maxItems":1}`, valid: `[1]`, invalid: `[1,2]`},
	{name: "uniqueItems", schema: `{"type":"array","uniqueItems":true}`, valid: `[1,2]`, invalid: `[1,1]`},
	{name: "contains", schema: `{"type":"array","contains":{"const":"admin"}}`, valid: `["admin"]`, invalid: `["x"]`},
	{name: "minContains", schema: `{"type":"array","contains":{"type":"integer"},"minContains":2,"maxContains":3}`, valid: `[1,2,"a"]`, invalid: `[1,2,3,4]`},
	{name: "items", schema: `{"type":"array","items":{"type":"integer","minimum":0}}`, valid: `[1]`, invalid: `[-1]`},
	{name: "prefixItems", schema: `{"type":"array","prefixItems":[{"type":"integer"},{"type":"string"}]}`, valid: `[1,"a"]`, invalid: `["a",1]`},
	{name: "prefixItems_closed", schema: `{"type":"array","prefixItems":[{"type":"integer"}],"items":false}`, valid: `[1]`, invalid: `[1,2]`},
	// A union's branch checks apply when that branch matched (a string
	// was refused by the array branch's minItems), and a tuple's
	// contains and uniqueItems are checked (they were dropped) — found
	// by review.
	{name: "union_array_minItems", schema: `{"type":["string","array"],"items":{"type":"string"},"minItems":1}`, valid: `"x"`, invalid: `[]`},
	{name: "anyOf_string_array_minItems", schema: `{"anyOf":[{"type":"string"},{"type":"array","minItems":1}]}`, valid: `"x"`, invalid: `[]`},
	{name: "oneOf_integer_array_minItems", schema: `{"oneOf":[{"type":"integer"},{"type":"array","minItems":2}]}`, valid: `3`, invalid: `[1]`},
	{name: "union_array_object_minProperties", schema: `{"type":["array","object"],"minProperties":1}`, valid: `[]`, invalid: `{}`},
	{name: "union_contains", schema: `{"type":["string","array"],"contains":{"type":"integer"}}`, valid: `"s"`, invalid: `["a"]`},
	{name: "anyOf_two_arrays", schema: `{"anyOf":[{"type":"array","items":{"type":"string"},"minItems":1},{"type":"array","items":{"type":"integer"},"minItems":3}]}`, valid: `["a"]`, invalid: `[1]`},
	{name: "tuple_contains", schema: `{"type":"array","prefixItems":[{"type":"integer"}],"contains":{"type":"string"}}`, valid: `[1,"a"]`, invalid: `[1]`},
	{name: "tuple_uniqueItems", schema: `{"type":"array","prefixItems":[{"type":"integer"}],"uniqueItems":true}`, valid: `[1,2]`, invalid: `[1,1]`},
	{name: "tuple_closed_contains", schema: `{"type":"array","prefixItems":[{"type":"integer"},{"type":"integer"}],"items":false,"contains":{"const":2}}`, valid: `[1,2]`, invalid: `[1,1]`},
	// Keywords beside const apply too (they were dropped).
	{name: "const_minLength", schema: `{"const":"a","minLength":2}`, valid: `"a"`, invalid: `"b"`},
	{name: "const_maximum", schema: `{"type":"integer","const":5,"maximum":3}`, valid: `5`, invalid: `4`},
	{name: "const_enum", schema: `{"const":"a","enum":["b"]}`, valid: `"a"`, invalid: `"b"`},
	{name: "const_enum_agree", schema: `{"const":"a","enum":["a","b"]}`, valid: `"a"`, invalid: `"b"`},
	{name: "minProperties", schema: `{"type":"object","minProperties":1}`, valid: `{"a":1}`, invalid: `{}`},
	{name: "maxProperties", schema: `{"type":"object","maxProperties":1}`, valid: `{"a":1}`, invalid: `{"a":1,"b":2}`},
	{name: "required", schema: `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, valid: `{"a":"x"}`, invalid: `{}`},
	{name: "properties", schema: `{"type":"object","properties":{"a":{"type":"integer"}}}`, valid: `{"a":1}`, invalid: `{"a":"x"}`},
	{name: "patternProperties", schema: `{"type":"object","patternProperties":{"^a":{"type":"integer"}}}`, valid: `{"a1":1,"b":"x"}`, invalid: `{"a1":"x"}`},
	{name: "patternProperties_closed", schema: `{"type":"object","patternProperties":{"^a":{"type":"integer"}},"additionalProperties":false}`, valid: `{"a1":1}`, invalid: `{"b":1}`},
	{name: "additionalProperties_false", schema: `{"type":"object","additionalProperties":false}`, valid: `{}`, invalid: `{"x":1}`},
	{name: "additionalProperties_props", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"additionalProperties":false}`, valid: `{"a":1}`, invalid: `{"x":1}`},
	{name: "additionalProperties_schema", schema: `{"type":"object","additionalProperties":{"type":"integer"}}`, valid: `{"x":1}`, invalid: `{"x":"y"}`},
	{name: "propertyNames", schema: `{"type":"object","propertyNames":{"maxLength":2}}`, valid: `{"ab":1}`, invalid: `{"abc":1}`},
	{name: "dependentRequired", schema: `{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"dependentRequired":{"a":["b"]}}`, valid: `{"a":1,"b":2}`, invalid: `{"a":1}`},
	{name: "dependentSchemas", schema: `{"type":"object","dependentSchemas":{"a":{"required":["b"]}}}`, valid: `{"a":1,"b":2}`, invalid: `{"a":1}`},
	{name: "oneOf", schema: `{"oneOf":[{"type":"integer"},{"type":"string"}]}`, valid: `1`, invalid: `true`},
	{name: "oneOf_overlap", schema: `{"oneOf":[{"type":"integer"},{"type":"number","minimum":0}]}`, valid: `-1`, invalid: `1`},
	{name: "anyOf", schema: `{"anyOf":[{"type":"integer"},{"type":"string","minLength":2}]}`, valid: `"ab"`, invalid: `"a"`},
	{name: "allOf", schema: `{"allOf":[{"type":"integer"},{"minimum":2}]}`, valid: `3`, invalid: `1`},
	{name: "not", schema: `{"not":{"type":"string"}}`, valid: `1`, invalid: `"x"`},
	{name: "if_then_else", schema: `{"if":{"type":"integer"},"then":{"minimum":0},"else":{"type":"string"}}`, valid: `1`, invalid: `-1`},
	{name: "type_array_nullable", schema: `{"type":["string","null"],"minLength":2}`, valid: `"ab"`, invalid: `"a"`, noNullableSuffix: true},
	{name: "type_multi", schema: `{"type":["integer","string"]}`, valid: `"a"`, invalid: `true`},
	{name: "false_schema", schema: `false`, valid: `1`, invalid: `"x"`, noNullableSuffix: true},
	{name: "minLength_untyped", schema: `{"minLength":2}`, valid: `1`, invalid: `"a"`},
	{name: "format_untyped", schema: `{"format":"date-time"}`, valid: `"2020-01-01T00:00:00Z"`, invalid: `"x"`},
	{name: "uniqueItems_objects", schema: `{"type":"array","uniqueItems":true,"items":{"type":"object"}}`, valid: `[{"a":1},{"a":2}]`, invalid: `[{"a":1},{"a":1}]`},
	{name: "items_nullable_unique", schema: `{"type":"array","items":{"type":["integer","null"]},"uniqueItems":true}`, valid: `[1,null]`, invalid: `[null,null]`},
	{name: "const_array", schema: `{"const":[1,"a"]}`, valid: `[1,"a"]`, invalid: `[1,"b"]`},
	{name: "enum_mixed", schema: `{"enum":[{"a":1},[1],"s"]}`, valid: `{"a":1}`, invalid: `{"a":2}`},
	{name: "object_any_member_count", schema: `{"type":"object","properties":{"k":{"const":{"a":1}},"j":{}},"minProperties":1,"maxProperties":1}`, valid: `{"j":null}`, invalid: `{"k":null}`},
	{name: "oneOf_objects", schema: `{"oneOf":[{"type":"object","required":["a"]},{"type":"object","required":["b"]}]}`, valid: `{"a":1}`, invalid: `{"a":1,"b":2}`},
	{name: "propertyNames_pattern", schema: `{"type":"object","propertyNames":{"pattern":"^[a-z]+$"}}`, valid: `{"ab":1}`, invalid: `{"A":1}`},
	{name: "maxContains_only", schema: `{"type":"array","contains":{"const":1},"maxContains":1}`, valid: `[1,2]`, invalid: `[1,1]`},
	{name: "minContains_zero", schema: `{"type":"array","contains":{"const":1},"minContains":0}`, valid: `[]`, invalid: `{}`},
	{name: "integer_float_form", schema: `{"type":"integer","maximum":5}`, valid: `2.0`, invalid: `5.5`},
	{name: "const_number_forms", schema: `{"const":1}`, valid: `1.0`, invalid: `1.5`},
	{name: "enum_number_forms", schema: `{"enum":[1.0,"1"]}`, valid: `1`, invalid: `2`},
	{name: "uniqueItems_number_forms", schema: `{"type":"array","uniqueItems":true}`, valid: `[1,"1"]`, invalid: `[1,1.0]`},
	{name: "contains_object", schema: `{"type":"array","contains":{"type":"object","properties":{"a":{"const":1}}}}`, valid: `[{"a":1}]`, invalid: `[{"a":2}]`},
	{name: "contains_required", schema: `{"type":"array","contains":{"type":"object","required":["a"]}}`, valid: `[{"a":1}]`, invalid: `[{"b":1}]`},
	{name: "contains_union", schema: `{"type":"array","contains":{"anyOf":[{"type":"string"},{"type":"integer","minimum":5}]}}`, valid: `[6]`, invalid: `[1]`},
	{name: "contains_not", schema: `{"type":"array","contains":{"not":{}}}`, valid: `[]`, invalid: `[1]`},
	{name: "contains_untyped_bound", schema: `{"type":"array","items":{"type":"integer"},"contains":{"minimum":5}}`, valid: `[6]`, invalid: `[1]`},
	{name: "contains_string", schema: `{"type":"array","contains":{"type":"string"}}`, valid: `["x"]`, invalid: `[1]`},
	{name: "contains_nullable", schema: `{"type":"array","contains":{"type":["string","null"]}}`, valid: `[null]`, invalid: `[1]`},
	{name: "contains_false", schema: `{"type":"array","contains":false}`, valid: `{}`, invalid: `["a"]`},
	{name: "contains_arrays", schema: `{"type":"array","contains":{"type":"array","items":{"type":"string"}}}`, valid: `[["x"]]`, invalid: `[[1]]`},
	// Keywords over a whole object judge the members as sent: undeclared
	// ones count, and defaults filled in by the decoder do not.
	{name: "propertyNames_undeclared", schema: `{"type":"object","properties":{"path":{"type":"string"}},"propertyNames":{"enum":["path","recursive"]}}`, valid: `{"path":"x","recursive":true}`, invalid: `{"path":"x","recursve":true}`},
	{name: "not_required_undeclared", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"not":{"required":["admin"]}}`, valid: `{"a":1}`, invalid: `{"a":1,"admin":true}`},
	{name: "maxProperties_undeclared", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"maxProperties":1}`, valid: `{"a":1}`, invalid: `{"a":1,"b":2}`},
	{name: "minProperties_undeclared", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"minProperties":2}`, valid: `{"a":1,"b":2}`, invalid: `{"a":1}`},
	{name: "dependentRequired_undeclared", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"dependentRequired":{"b":["a"]}}`, valid: `{"b":2,"a":1}`, invalid: `{"b":2}`},
	{name: "dependentRequired_map", schema: `{"type":"object","dependentRequired":{"a":["b"]}}`, valid: `{"a":1,"b":2}`, invalid: `{"a":1}`},
	{name: "anyOf_required_undeclared", schema: `{"type":"object","properties":{"query":{"type":"string"}},"anyOf":[{"required":["query"]},{"required":["url"]}]}`, valid: `{"url":"x"}`, invalid: `{}`},
	{name: "oneOf_required_default", schema: `{"type":"object","properties":{"mode":{"type":"string","default":"fast"},"file":{"type":"string"}},"oneOf":[{"required":["mode"]},{"required":["file"]}]}`, valid: `{"file":"x"}`, invalid: `{}`},
	{name: "maxProperties_default", schema: `{"type":"object","properties":{"a":{"type":"integer","default":1}},"maxProperties":0}`, valid: `{}`, invalid: `{"a":1}`},
	{name: "propertyNames_false", schema: `{"type":"object","propertyNames":false}`, valid: `{}`, invalid: `{"a":1}`},
	{name: "propertyNames_integer", schema: `{"type":"object","propertyNames":{"type":"integer","minimum":1}}`, valid: `{}`, invalid: `{"a":1}`},
	{name: "const_object_undeclared", schema: `{"type":"object","properties":{"a":{"type":"integer"}},"const":{"a":1}}`, valid: `{"a":1}`, invalid: `{"a":1,"b":2}`},
	{name: "uniqueItems_struct_undeclared", schema: `{"type":"array","uniqueItems":true,"items":{"type":"object","properties":{"a":{"type":"integer"}}}}`, valid: `[{"a":1},{"a":1,"b":2}]`, invalid: `[{"a":1},{"a":1}]`},
	{name: "uniqueItems_struct_default", schema: `{"type":"array","uniqueItems":true,"items":{"type":"object","properties":{"a":{"type":"integer","default":1}}}}`, valid: `[{},{"a":1}]`, invalid: `[{"a":1},{"a":1}]`},
	{name: "anyOf_mixed_enum", schema: `{"anyOf":[{"enum":["all",0]},{"type":"integer","minimum":1}]}`, valid: `5`, invalid: `-1`},
	{name: "oneOf_mixed_enum", schema: `{"oneOf":[{"enum":[1,"a"]},{"type":"string","maxLength":0}]}`, valid: `""`, invalid: `"b"`},
	{name: "anyOf_nullable_branch", schema: `{"anyOf":[{"type":["string","null"]},{"type":"integer"}]}`, valid: `null`, invalid: `1.5`, noNullableSuffix: true},
	{name: "oneOf_two_null_branches", schema: `{"oneOf":[{"type":["string","null"]},{"type":["integer","null"]}]}`, valid: `1`, invalid: `null`, noNullableSuffix: true},
	{name: "exclusiveMinimum_decimal", schema: `{"type":"number","exclusiveMinimum":0.1}`, valid: `0.2`, invalid: `0.1`},
	{name: "exclusiveMaximum_decimal", schema: `{"type":"number","exclusiveMaximum":0.3}`, valid: `0.2`, invalid: `0.3`},
	{name: "minimum_decimal", schema: `{"type":"number","minimum":0.1}`, valid: `0.1`, invalid: `0.09`},
	{name: "tuple_any_position", schema: `{"type":"array","prefixItems":[{"const":{"a":1}},{"enum":[null,1]}]}`, valid: `[{"a":1},null]`, invalid: `[null]`},
}

// matrixVariants are how the keyword's property is declared.
var matrixVariants = []string{"required", "optional", "nullable", "default"}

// matrixPlacements are where the property sits in the params.
var matrixPlacements = []string{"top", "nested", "items"}

// matrixTool is one generated tool of the matrix and its instances.
type matrixTool struct {
	name      string
	params    string
	instances []string // argument JSON
	labels    []string // presence of each instance
}

// variantSchema is the property schema s declared per variant.
func variantSchema(k keywordCase, variant string) (string, bool) {
	required := variant == "required"
	switch variant {
	case "nullable":
		if k.noNullableSuffix {
			return k.schema, false
		}
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(k.schema), &m) == nil {
			var typ string
			if json.Unmarshal(m["type"], &typ) == nil {
				m["type"] = json.RawMessage(`["` + typ + `","null"]`)
				b, _ := json.Marshal(m)
				return string(b), false
			}
		}
		return `{"anyOf":[` + k.schema + `,{"type":"null"}]}`, false
	case "default":
		var m map[string]json.RawMessage
		if json.Unmarshal([]byte(k.schema), &m) != nil {
			return k.schema, false
		}
		m["default"] = json.RawMessage(k.valid)
		b, _ := json.Marshal(m)
		return string(b), false
	}
	return k.schema, required
}

// place wraps the property v (schema s, required or not) per placement,
// returning the params schema and a function placing v's value (or its
// absence, "") into arguments.
func place(s string, required bool, placement string) (string, func(v string) string) {
	req := ""
	if required {
		req = `,"required":["v"]`
	}
	obj := `{"type":"object","properties":{"v":` + s + `}` + req + `}`
	member := func(v string) string {
		if v == "" {
			return `{}`
		}
		return `{"v":` + v + `}`
	}
	switch placement {
	case "nested":
		return `{"type":"object","properties":{"o":` + obj + `},"required":["o"]}`, func(v string) string { return `{"o":` + member(v) + `}` }
	case "items":
		return `{"type":"object","properties":{"a":{"type":"array","items":` + obj + `}},"required":["a"]}`, func(v string) string { return `{"a":[` + member(v) + `]}` }
	}
	return obj, member
}

// buildMatrix lists every tool of the matrix.
func buildMatrix() []matrixTool {
	var tools []matrixTool
	for ki, k := range matrixKeywords {
		for _, variant := range matrixVariants {
			for _, placement := range matrixPlacements {
				s, required := variantSchema(k, variant)
				params, args := place(s, required, placement)
				mt := matrixTool{name: fmt.Sprintf("m%d_%s_%s", ki, variant, placement), params: params}
				for _, pr := range []struct{ label, v string }{{"absent", ""}, {"null", "null"}, {"valid", k.valid}, {"invalid", k.invalid}} {
					mt.instances = append(mt.instances, args(pr.v))
					mt.labels = append(mt.labels, k.name+" "+variant+" "+placement+" "+pr.label)
				}
				tools = append(tools, mt)
			}
		}
	}
	return tools
}

// referenceValid is the verdict of the reference validator
// (santhosh-tekuri/jsonschema, draft 2020-12, formats asserted).
func referenceValid(t *testing.T, c *jsonschema.Compiler, url, params, instance string) bool {
	t.Helper()
	sch, err := c.Compile(url)
	if err != nil {
		t.Fatalf("reference: %s: %v", params, err)
	}
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(instance))
	if err != nil {
		t.Fatalf("reference: instance %s: %v", instance, err)
	}
	return sch.Validate(v) == nil
}

// ecmaRegexp runs the reference validator's patterns with ECMA-262
// semantics (lookaround included), independently of runtime/check.
type ecmaRegexp struct{ re *regexp2.Regexp }

func (r ecmaRegexp) MatchString(s string) bool {
	ok, err := r.re.MatchString(s)
	return err == nil && ok
}

func (r ecmaRegexp) String() string { return r.re.String() }

// matrixBatches is how many generated packages the matrix is split into.
const matrixBatches = 4

// TestKeywordMatrix checks that generated decode+validate agrees with the
// reference validator on every keyword × presence (absent, null, valid,
// invalid) × declaration (required, optional, optional+nullable, with
// default) × placement (top level, nested object, array items). The
// tools are batched into a few generated packages built once in a
// temporary module, and one driver runs every instance.
func TestKeywordMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	tools := buildMatrix()
	// Reference verdicts.
	rc := referenceCompiler()
	want := map[string]bool{} // tool + "\x00" + instance
	for i, mt := range tools {
		url := fmt.Sprintf("mem:///matrix/%d.json", i)
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(mt.params))
		if err != nil {
			t.Fatal(err)
		}
		if err := rc.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		for _, in := range mt.instances {
			want[mt.name+"\x00"+in] = referenceValid(t, rc, url, mt.params, in)
		}
	}
	mod := tempModule(t)
	work := filepath.Join(mod, "matrix")
	var pkgs []pkgInfo
	for b := 0; b < matrixBatches; b++ {
		var batch []matrixTool
		for i := b; i < len(tools); i += matrixBatches {
			batch = append(batch, tools[i])
		}
		pkgs = append(pkgs, generateBatch(t, work, fmt.Sprintf("batch%d", b), batch, func(tool, instance string) bool { return want[tool+"\x00"+instance] })...)
	}
	out, broken, err := runDriverIn(work, "matrixwork/", pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for p, msg := range broken {
		t.Errorf("generated package %s does not build: %s", p, msg)
	}
	total, agree := 0, 0
	var fails []string
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var o outcome
		if json.Unmarshal([]byte(line), &o) != nil {
			continue
		}
		total++
		if o.Got == o.Want {
			agree++
			continue
		}
		fails = append(fails, fmt.Sprintf("%s: reference valid=%v, generated valid=%v %s", o.Test, o.Want, o.Got, o.Err))
	}
	sort.Strings(fails)
	for _, f := range fails {
		t.Error(f)
	}
	t.Logf("keyword matrix: %d keyword schemas × %d declarations × %d placements = %d tools, %d cases; %d agree with the reference validator",
		len(matrixKeywords), len(matrixVariants), len(matrixPlacements), len(tools), total, agree)
	if want := len(tools) * 4; total != want {
		t.Errorf("driver ran %d cases, want %d", total, want)
	}
}

// generateBatch generates one package holding tools (one tool per
// matrixTool, named by it) in work/pkg and returns the driver's cases:
// every instance of every tool, expected valid when valid says so.
func generateBatch(t *testing.T, work, pkg string, tools []matrixTool, valid func(tool, instance string) bool) []pkgInfo {
	t.Helper()
	var defs []string
	for _, mt := range tools {
		defs = append(defs, `{"type":"function","function":{"name":"`+mt.name+`","description":"matrix case","parameters":`+mt.params+`}}`)
	}
	file := pkg + ".json"
	fam, err := schema.Build([]load.Input{{Name: file, Data: "[" + strings.Join(defs, ",\n") + "]"}}, schema.BuildOptions{Package: pkg})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	files, err := generator.Generate(fam, generator.Options{Package: pkg, Sources: []string{file}, Tables: tableMode()})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	dir := filepath.Join(work, pkg)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Path), f.Bytes, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var pkgs []pkgInfo
	for _, mt := range tools {
		c := suiteCase{Description: mt.name}
		for j, in := range mt.instances {
			c.Tests = append(c.Tests, suiteTest{Description: mt.labels[j], Data: json.RawMessage(in), Valid: valid(mt.name, in)})
		}
		pkgs = append(pkgs, pkgInfo{name: pkg, file: file, c: c, tool: mt.name})
	}
	return pkgs
}

// moduleRoot is the folder of toolgen's go.mod.
func moduleRoot(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Dir(file)
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("go.mod not found")
		}
		dir = parent
	}
}

// tempModule makes a module "matrixwork" in t.TempDir() that uses this
// checkout of toolgen (a replace directive; toolgen's requirements and
// go.sum copied, so nothing is downloaded).
func tempModule(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	dir := t.TempDir()
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	// The go line and every requirement (block or single line) of toolgen.
	goLine, requires := "", ""
	inBlock := false
	for _, line := range strings.Split(string(gomod), "\n") {
		trimmed := strings.TrimSpace(line)
		switch {
		case inBlock && trimmed == ")":
			inBlock = false
		case inBlock:
			requires += "\t" + trimmed + "\n"
		case trimmed == "require (":
			inBlock = true
		case strings.HasPrefix(trimmed, "require "):
			requires += "\t" + strings.TrimPrefix(trimmed, "require ") + "\n"
		case strings.HasPrefix(trimmed, "go "):
			goLine = trimmed
		}
	}
	mod := "module matrixwork\n\n" + goLine + "\n\nrequire (\n\tgithub.com/toolgen-go/toolgen v0.0.0\n" + requires + ")\n\nreplace github.com/toolgen-go/toolgen => " + root + "\n"
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		t.Fatal(err)
	}
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.sum"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// driverOutcomes builds the generated packages pkgs under work, runs the
// driver over them and returns its outcomes; a package that does not
// build fails the test.
func driverOutcomes(t *testing.T, work string, pkgs []pkgInfo) []outcome {
	t.Helper()
	out, broken, err := runDriverIn(work, "matrixwork/", pkgs)
	if err != nil {
		t.Fatal(err)
	}
	for p, msg := range broken {
		t.Fatalf("generated package %s does not build: %s", p, msg)
	}
	var outs []outcome
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var o outcome
		if json.Unmarshal([]byte(line), &o) == nil {
			outs = append(outs, o)
		}
	}
	return outs
}
