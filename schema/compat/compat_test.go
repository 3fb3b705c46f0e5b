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
func family(t *testing.T, props, required, manifestText string) *ir.Family {
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
func build(t *testing.T, src string, m *manifest.Manifest) *ir.Family {
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
			var got []string
			for _, c := range r.Changes {
				where := ""
				if c.Result {
					where = "result "
				}
				got = append(got, fmt.Sprintf("%s %s %s%s", c.Class, c.Kind, where, c.Path))
			}
			if strings.Join(got, "\n") != tt.want {
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
