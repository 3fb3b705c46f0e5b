package compat_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/compat"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// family builds a one-tool family whose params are the given properties
// (a JSON object body) and required list; manifest may be "".
func family(t testing.TB, props, required, manifestText string) *ir.Family {
	t.Helper()
	src := fmt.Sprintf(`[{"type":"function","function":{"name":"get_item","description":"Get.","parameters":{"type":"object","properties":{%s},"required":[%s]}}}]`, props, required)
	var m *manifest.Manifest
	if manifestText != "" {
		var err error
		if m, err = manifest.Load("toolgen.yaml", []byte(manifestText)); err != nil {
			t.Fatal(err)
		}
	}
	return build(t, src, m)
}

// build compiles the definitions src and derives their taxonomy with m.
func build(t testing.TB, src string, m *manifest.Manifest) *ir.Family {
	t.Helper()
	f, err := schema.Build([]load.Input{{Name: "tools.json", Data: src}}, schema.BuildOptions{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	if err := taxonomy.Derive(f, m); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestCompare(t *testing.T) {
	tests := []struct {
		name                 string
		oldProps, newProps   string
		oldReq, newReq       string
		oldManifest, newMani string
		want                 string // "class kind path", one per change
	}{
		{name: "same", oldProps: `"a":{"type":"string"}`, newProps: `"a":{"type":"string"}`},
		{name: "op renamed", oldProps: `"a":{"type":"string"}`, newProps: `"a":{"type":"string"}`,
			newMani: "overrides:\n  get_item: store.item.fetch\n", want: "breaking op_renamed "},
		{name: "null dropped", oldProps: `"a":{"type":["string","null"]}`, newProps: `"a":{"type":"string"}`,
			want: "breaking type_narrowed /a"},
		{name: "null allowed", oldProps: `"a":{"type":"string"}`, newProps: `"a":{"type":["string","null"]}`,
			want: "compatible type_widened /a"},
		{name: "string to integer", oldProps: `"a":{"type":"string"}`, newProps: `"a":{"type":"integer"}`,
			want: "breaking type_changed /a"},
		{name: "minimum raised", oldProps: `"a":{"type":"number","minimum":0.5}`, newProps: `"a":{"type":"number","minimum":0.75}`,
			want: "breaking constraint_tightened /a"},
		{name: "minimum lowered", oldProps: `"a":{"type":"number","minimum":0.5}`, newProps: `"a":{"type":"number","minimum":0.25}`,
			want: "compatible constraint_loosened /a"},
		// Numbers past the float64s are compared exactly: their stand-ins
		// (ir.Number.Rat) compared as equal, and no change was reported.
		{name: "huge maximum raised", oldProps: `"a":{"type":"number","maximum":1e999999}`, newProps: `"a":{"type":"number","maximum":2e999999}`,
			want: "compatible constraint_loosened /a"},
		{name: "huge maximum lowered", oldProps: `"a":{"type":"number","maximum":2e999999}`, newProps: `"a":{"type":"number","maximum":1e999999}`,
			want: "breaking constraint_tightened /a"},
		{name: "tiny minimum raised", oldProps: `"a":{"type":"number","exclusiveMinimum":1e-999999}`, newProps: `"a":{"type":"number","exclusiveMinimum":2e-999999}`,
			want: "breaking constraint_tightened /a"},
		{name: "maximum spelled anew", oldProps: `"a":{"type":"number","maximum":100}`, newProps: `"a":{"type":"number","maximum":1e2}`},
		{name: "nested property removed", oldProps: `"o":{"type":"object","properties":{"x":{"type":"string"}}}`,
			newProps: `"o":{"type":"object","properties":{"y":{"type":"string"}}}`, want: "breaking argument_removed /o/x\ncompatible argument_added /o/y"},
		{name: "array items narrowed", oldProps: `"xs":{"type":"array","items":{"type":"number"}}`,
			newProps: `"xs":{"type":"array","items":{"type":"integer"}}`, want: "breaking type_narrowed /xs/items"},
		{name: "unknown properties refused", oldProps: `"o":{"type":"object","properties":{"x":{"type":"string"}}}`,
			newProps: `"o":{"type":"object","properties":{"x":{"type":"string"}},"additionalProperties":false}`,
			want:     "breaking constraint_tightened /o"},
		{name: "object member count bounded", oldProps: `"o":{"type":"object","properties":{"x":{"type":"string"}}}`,
			newProps: `"o":{"type":"object","properties":{"x":{"type":"string"}},"minProperties":1}`,
			want:     "breaking constraint_tightened /o"},
		{name: "pattern changed", oldProps: `"a":{"type":"string","pattern":"^a"}`, newProps: `"a":{"type":"string","pattern":"^b"}`,
			want: "breaking constraint_tightened /a"},
		{name: "required dropped", oldProps: `"a":{"type":"string"}`, oldReq: `"a"`, newProps: `"a":{"type":"string"}`,
			want: "compatible required_removed /a"},
		{name: "recursive", oldProps: `"n":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"string"}}}`,
			newProps: `"n":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"next":{"$ref":"#/$defs/node"},"v":{"type":"integer"}}}`,
			want:     "breaking type_changed /n/v"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compat.Compare(family(t, tt.oldProps, tt.oldReq, tt.oldManifest), family(t, tt.newProps, tt.newReq, tt.newMani))
			var got []string
			for _, c := range r.Changes {
				got = append(got, fmt.Sprintf("%s %s %s", c.Class, c.Kind, c.Path))
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// resultFamily builds a one-tool MCP family whose result (outputSchema)
// has the given properties and required list ("" for no outputSchema).
func resultFamily(t *testing.T, props, required string) *ir.Family {
	t.Helper()
	out := ""
	if props != "" {
		out = fmt.Sprintf(`,"outputSchema":{"type":"object","properties":{%s},"required":[%s]}`, props, required)
	}
	return build(t, `{"tools":[{"name":"get_user","description":"Get.","inputSchema":{"type":"object","properties":{}}`+out+`}]}`, nil)
}

// A result is read by its consumers: a change is breaking when the result
// may now hold what it did not promise, or lacks a field it had (diff
// compared only the params before: an email turned integer and optional
// was "0 breaking").
func TestCompareResult(t *testing.T) {
	tests := []struct {
		name, oldProps, oldReq, newProps, newReq string
		want                                     string
	}{
		{"email retyped and optional", `"email":{"type":"string"}`, `"email"`, `"email":{"type":"integer"}`, ``,
			"breaking required_removed result /email\nbreaking type_changed result /email"},
		{"field removed", `"a":{"type":"string"},"b":{"type":"string"}`, ``, `"a":{"type":"string"}`, ``, "breaking argument_removed result /b"},
		{"field added", `"a":{"type":"string"}`, ``, `"a":{"type":"string"},"b":{"type":"string"}`, ``, "compatible argument_added result /b"},
		{"field now always present", `"a":{"type":"string"}`, ``, `"a":{"type":"string"}`, `"a"`, "compatible required_added result /a"},
		{"enum value added", `"s":{"enum":["a","b"]}`, ``, `"s":{"enum":["a","b","c"]}`, ``, "breaking enum_value_added result /s"},
		{"enum value removed", `"s":{"enum":["a","b"]}`, ``, `"s":{"enum":["a"]}`, ``, "compatible enum_value_removed result /s"},
		{"type widened", `"n":{"type":"integer"}`, ``, `"n":{"type":"number"}`, ``, "breaking type_widened result /n"},
		{"maximum lowered", `"n":{"type":"integer","maximum":10}`, ``, `"n":{"type":"integer","maximum":5}`, ``, "compatible constraint_tightened result /n"},
		{"result type removed", `"a":{"type":"string"}`, ``, ``, ``, "breaking result_removed result "},
		{"result type added", ``, ``, `"a":{"type":"string"}`, ``, "compatible result_added result "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compat.Compare(resultFamily(t, tt.oldProps, tt.oldReq), resultFamily(t, tt.newProps, tt.newReq))
			if got := resultChanges(r); strings.Join(got, "\n") != tt.want {
				t.Errorf("changes:\n%s\nwant:\n%s", strings.Join(got, "\n"), tt.want)
			}
		})
	}
}

// TestArgumentRemovedSays: a removed argument is breaking either way, and
// the line says what becomes of a call that still sends it.
func TestArgumentRemovedSays(t *testing.T) {
	old := `"o":{"type":"object","properties":{"x":{"type":"string"},"y":{"type":"string"}}}`
	for _, c := range []struct{ closed, want string }{
		{``, "argument removed: calls that send it are still accepted, and it no longer reaches the handler"},
		{`,"additionalProperties":false`, "argument removed: calls that send it are now refused (additionalProperties: false)"},
		{`,"additionalProperties":{"type":"integer"}`, "argument removed: calls that send it are accepted only when it fits additionalProperties, and it then reaches the handler among the additional properties"},
		{`,"unevaluatedProperties":false`, "argument removed: calls that send it are now judged by the object's other keywords (patternProperties, unevaluatedProperties, ...) and may be refused"},
		{`,"patternProperties":{"^x":{"type":"integer"}}`, "argument removed: calls that send it are now judged by the object's other keywords (patternProperties, unevaluatedProperties, ...) and may be refused"},
	} {
		r := compat.Compare(family(t, old, "", ""), family(t, `"o":{"type":"object","properties":{"y":{"type":"string"}}`+c.closed+`}`, "", ""))
		var got []string
		for _, ch := range r.Changes {
			if ch.Kind == "argument_removed" {
				got = append(got, fmt.Sprintf("%s %s", ch.Class, ch.Message))
			}
		}
		if want := "breaking " + c.want; len(got) != 1 || got[0] != want {
			t.Errorf("new schema %q: %q, want [%q]", c.closed, got, want)
		}
	}
}

// TestBoundMessage: a changed bound is shown as written (0.5, not 1/2).
func TestBoundMessage(t *testing.T) {
	r := compat.Compare(family(t, `"a":{"type":"number","minimum":0.5}`, "", ""), family(t, `"a":{"type":"number","minimum":0.75}`, "", ""))
	if len(r.Changes) != 1 || r.Changes[0].Message != "minimum tightened from 0.5 to 0.75" {
		t.Fatalf("changes = %+v", r.Changes)
	}
}

// Union alternatives are paired by what they hold, not by their place,
// and a oneOf refuses a value two of its alternatives match: diff
// compared alternatives by index (a boolean inserted at the front of an
// anyOf was 2 breaking changes) and never saw anyOf turned oneOf.
func TestCompareUnion(t *testing.T) {
	const (
		str5    = `{"type":"string","maxLength":5}`
		tagA    = `{"type":"object","properties":{"kind":{"const":"a"},"x":{"type":"string"}},"required":["kind"]}`
		tagB    = `{"type":"object","properties":{"kind":{"const":"b"},"y":{"type":"string"}},"required":["kind"]}`
		tagC    = `{"type":"object","properties":{"kind":{"const":"c"}},"required":["kind"]}`
		tagAInt = `{"type":"object","properties":{"kind":{"const":"a"},"x":{"type":"integer"}},"required":["kind"]}`
		closedS = `{"type":"object","properties":{"status":{"enum":["open","closed"]}},"required":["status"],"additionalProperties":false}`
		closedI = `{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false}`
		openS   = `{"type":"object","properties":{"status":{"type":"string"}},"required":["status"]}`
	)
	u := func(kw string, bs ...string) string { return `"v":{"` + kw + `":[` + strings.Join(bs, ",") + `]}` }
	tests := []changeCase{
		{"anyOf alternative inserted in front", u("anyOf", str5, `{"type":"integer"}`), u("anyOf", `{"type":"boolean"}`, str5, `{"type":"integer"}`),
			"compatible type_widened /v/anyOf/0"},
		{"anyOf reordered", u("anyOf", str5, `{"type":"integer"}`), u("anyOf", `{"type":"integer"}`, str5), ""},
		{"anyOf alternative removed", u("anyOf", `{"type":"string"}`, `{"type":"integer"}`, `{"type":"boolean"}`), u("anyOf", `{"type":"string"}`, `{"type":"boolean"}`),
			"breaking type_narrowed /v/anyOf/1"},
		{"anyOf alternative changed after an insertion", u("anyOf", str5, `{"type":"integer"}`), u("anyOf", `{"type":"boolean"}`, `{"type":"string","maxLength":3}`, `{"type":"integer"}`),
			"breaking constraint_tightened /v/anyOf/1\ncompatible type_widened /v/anyOf/0"},
		{"anyOf alternative loosened, best of two", u("anyOf", str5, `{"type":"integer"}`), u("anyOf", `{"type":"string","maxLength":3}`, `{"type":"integer"}`, `{"type":"string"}`),
			"compatible constraint_loosened /v/anyOf/2\ncompatible type_widened /v/anyOf/0"},
		{"anyOf alternative merged into a wider one", u("anyOf", str5, `{"type":"string","maxLength":10}`, `{"type":"integer"}`), u("anyOf", `{"type":"string","maxLength":10}`, `{"type":"integer"}`),
			"compatible type_widened /v/anyOf/0"},
		{"anyOf integer made number", u("anyOf", `{"type":"string"}`, `{"type":"integer"}`), u("anyOf", `{"type":"number"}`, `{"type":"string"}`),
			"compatible type_widened /v/anyOf/0"},
		{"type list made a wider anyOf", `"v":{"type":["string","integer"]}`, u("anyOf", `{"type":"boolean"}`, `{"type":"integer"}`, `{"type":"string"}`), "compatible type_widened /v/anyOf/0"},
		{"anyOf to oneOf, alternatives overlap", u("anyOf", `{"type":"number"}`, `{"type":"integer"}`), u("oneOf", `{"type":"number"}`, `{"type":"integer"}`),
			"breaking type_narrowed /v"},
		{"oneOf to anyOf, alternatives overlap", u("oneOf", `{"type":"number"}`, `{"type":"integer"}`), u("anyOf", `{"type":"number"}`, `{"type":"integer"}`),
			"compatible type_widened /v"},
		{"oneOf alternative added, disjoint by type", u("oneOf", `{"type":"string"}`, `{"type":"integer"}`), u("oneOf", `{"type":"string"}`, `{"type":"integer"}`, `{"type":"boolean"}`),
			"compatible type_widened /v/oneOf/2"},
		{"oneOf alternative added, overlapping", u("oneOf", `{"type":"string"}`, `{"type":"integer"}`), u("oneOf", `{"type":"string"}`, `{"type":"integer"}`, `{"type":"number"}`),
			"breaking type_widened /v/oneOf/2"},
		{"oneOf alternative added, another tag", u("oneOf", tagA, tagB), u("oneOf", tagC, tagA, tagB),
			"compatible type_widened /v/oneOf/0"},
		{"oneOf alternative added, open beside closed", u("oneOf", closedS, closedI), u("oneOf", closedS, closedI, openS),
			"breaking type_widened /v/oneOf/2"},
		{"oneOf alternatives overlap, one widened", u("oneOf", str5, `{"type":"string","minLength":6}`), u("oneOf", `{"type":"string"}`, `{"type":"string","minLength":6}`),
			"compatible constraint_loosened /v/oneOf/0\nbreaking type_narrowed /v/oneOf/0"},
		{"oneOf alternative tightened", u("oneOf", `{"type":"string"}`, `{"type":"integer","maximum":5}`), u("oneOf", `{"type":"string"}`, `{"type":"integer","maximum":3}`),
			"breaking constraint_tightened /v/oneOf/1"},
		{"oneOf tagged alternatives reordered, one changed", u("oneOf", tagA, tagB), u("oneOf", tagB, tagAInt),
			"breaking type_changed /v/oneOf/1/x"},
		{"anyOf objects reordered, one changed deep", u("anyOf", `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"string"}}}}}`, `{"type":"object","properties":{"x":{"type":"string"}}}`),
			u("anyOf", `{"type":"object","properties":{"x":{"type":"integer"}}}`, `{"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"integer"}}}}}`),
			"breaking type_changed /v/anyOf/1/a/b\nbreaking type_changed /v/anyOf/0/x"},
		{"type made a union holding it", `"v":{"type":"string"}`, u("anyOf", `{"type":"string"}`, `{"type":"integer"}`),
			"compatible type_widened /v/anyOf/1"},
		{"union made one of its alternatives", u("anyOf", `{"type":"string"}`, `{"type":"integer"}`), `"v":{"type":"string"}`,
			"breaking type_narrowed /v/anyOf/1"},
		{"additionalProperties path", `"m":{"type":"object","additionalProperties":{"type":"string"}}`, `"m":{"type":"object","additionalProperties":{"type":"integer"}}`,
			"breaking type_changed /m/additionalProperties"},
	}
	// What was reported right before stays so (these passed before).
	tests = append(tests, []changeCase{
		{"anyOf to oneOf, disjoint by type", u("anyOf", `{"type":"string"}`, `{"type":"number"}`), u("oneOf", `{"type":"string"}`, `{"type":"number"}`), ""},
		{"union made another type", u("anyOf", `{"type":"string"}`, `{"type":"integer"}`), `"v":{"type":"boolean"}`, "breaking type_changed /v"},
		{"type list reordered", `"v":{"type":["string","integer"]}`, `"v":{"type":["integer","string"]}`, ""},
	}...)
	checkChanges(t, tests)
}

// A result's union is read by its consumers: an alternative added is
// breaking, unless an old one held its values; one removed is not.
func TestCompareResultUnion(t *testing.T) {
	tests := []struct{ name, oldProps, newProps, want string }{
		{"alternative added", `"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `"v":{"anyOf":[{"type":"boolean"},{"type":"string"},{"type":"integer"}]}`,
			"breaking type_widened result /v/anyOf/0"},
		{"alternative added, held before", `"v":{"anyOf":[{"type":"string"},{"type":"number"}]}`, `"v":{"anyOf":[{"type":"string"},{"type":"number"},{"type":"integer","minimum":0}]}`,
			"compatible type_widened result /v/anyOf/2"},
		{"alternative removed", `"v":{"anyOf":[{"type":"string"},{"type":"integer"},{"type":"boolean"}]}`, `"v":{"anyOf":[{"type":"string"},{"type":"boolean"}]}`,
			"compatible type_narrowed result /v/anyOf/1"},
		{"oneOf alternative added, overlapping", `"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}`, `"v":{"oneOf":[{"type":"string"},{"type":"integer"},{"type":"number"}]}`,
			"breaking type_widened result /v/oneOf/2"},
		{"anyOf made oneOf", `"v":{"anyOf":[{"type":"number"},{"type":"integer"}]}`, `"v":{"oneOf":[{"type":"number"},{"type":"integer"}]}`,
			"compatible type_narrowed result /v"},
		{"oneOf made anyOf", `"v":{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `"v":{"anyOf":[{"type":"number"},{"type":"integer"}]}`,
			"breaking type_widened result /v"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compat.Compare(resultFamily(t, tt.oldProps, ""), resultFamily(t, tt.newProps, ""))
			if got := resultChanges(r); strings.Join(got, "\n") != tt.want {
				t.Errorf("changes:\n%s\nwant:\n%s\n(%+v)", strings.Join(got, "\n"), tt.want, r.Changes)
			}
		})
	}
}

// What an object says of the properties it does not declare, and a
// tuple of the items past its prefix, are compared (they were not: a
// typed additionalProperties beside properties retyped, or items: false
// added, was "0 breaking"); a map is an object that declares no property
// (a property declared in it was "type changed from map to object").
func TestCompareObjectsAndTuples(t *testing.T) {
	const (
		objAP  = `"o":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"%s"}}`
		tuple  = `"t":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"string"}}`
		closed = `"t":{"type":"array","prefixItems":[{"type":"string"}],"items":false}`
	)
	tests := []changeCase{
		{"additionalProperties beside properties retyped", fmt.Sprintf(objAP, "string"), fmt.Sprintf(objAP, "integer"),
			"breaking type_changed /o/additionalProperties"},
		{"additionalProperties added beside properties", `"o":{"type":"object","properties":{"a":{"type":"string"}}}`, fmt.Sprintf(objAP, "integer"),
			"breaking constraint_tightened /o"},
		{"tuple item added, the others refused", tuple, `"t":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false}`,
			"breaking type_changed /t/1\nbreaking constraint_tightened /t"},
		{"tuple items past the prefix accepted", closed, `"t":{"type":"array","prefixItems":[{"type":"string"}]}`,
			"compatible constraint_loosened /t"},
		{"tuple rest retyped", tuple, `"t":{"type":"array","prefixItems":[{"type":"string"}],"items":{"type":"integer"}}`,
			"breaking type_changed /t/items"},
		{"free-form object given a typed property", `"f":{"type":"object"}`, `"f":{"type":"object","properties":{"a":{"type":"string"}}}`,
			"compatible argument_added /f/a\nbreaking type_narrowed /f/a"},
		{"map given a property of its values' type", `"g":{"type":"object","additionalProperties":{"type":"string"}}`, `"g":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":{"type":"string"}}`,
			"compatible argument_added /g/a"},
	}
	checkChanges(t, tests)
}

// TestCompareNilAlternative: a union alternative the IR leaves nil (the
// compiler makes none) is read as any value, not dereferenced.
func TestCompareNilAlternative(t *testing.T) {
	o := family(t, `"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, "", "")
	n := family(t, `"v":{"anyOf":[{"type":"string"},{"type":"integer"}]}`, "", "")
	n.Tools[0].Params.Fields[0].Type.Branches[1] = nil
	r := compat.Compare(o, n)
	if r.Breaking != 0 {
		t.Errorf("changes = %+v", r.Changes)
	}
}

// BenchmarkCompareUnion compares two anyOf of 2,000 object alternatives,
// each retyped, the new one in reverse order.
func BenchmarkCompareUnion(b *testing.B) {
	var olds, news []string
	for i := range 2000 {
		olds = append(olds, fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":"string"}},"required":["p%d"]}`, i, i))
		news = append([]string{fmt.Sprintf(`{"type":"object","properties":{"p%d":{"type":"integer"}},"required":["p%d"]}`, i, i)}, news...)
	}
	o := family(b, `"v":{"anyOf":[`+strings.Join(olds, ",")+`]}`, "", "")
	n := family(b, `"v":{"anyOf":[`+strings.Join(news, ",")+`]}`, "", "")
	b.ResetTimer()
	for range b.N {
		if r := compat.Compare(o, n); r.Breaking != 2000 {
			b.Fatalf("%d breaking", r.Breaking)
		}
	}
}

// changeCase is a change of one tool's properties and the changes
// compat.Compare finds in it ("class kind path" lines).
type changeCase struct{ name, oldProps, newProps, want string }

// checkChanges compares each case's old and new properties.
func checkChanges(t *testing.T, tests []changeCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := compat.Compare(family(t, tt.oldProps, "", ""), family(t, tt.newProps, "", ""))
			var got []string
			for _, c := range r.Changes {
				got = append(got, fmt.Sprintf("%s %s %s", c.Class, c.Kind, c.Path))
			}
			if strings.Join(got, "\n") != tt.want {
				t.Errorf("changes:\n%s\nwant:\n%s\n(%+v)", strings.Join(got, "\n"), tt.want, r.Changes)
			}
		})
	}
}

// resultChanges are r's changes as "class kind path" lines, a result's
// path after "result ".
func resultChanges(r *compat.Report) []string {
	var got []string
	for _, c := range r.Changes {
		where := ""
		if c.Result {
			where = "result "
		}
		got = append(got, fmt.Sprintf("%s %s %s%s", c.Class, c.Kind, where, c.Path))
	}
	return got
}
