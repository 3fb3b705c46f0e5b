package cli

import (
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestRootKeywords (here, beside the adapters it checks the warning
// against, so that the schema package's tests need no provider SDK): a
// parameters root with a keyword a provider refuses there that the
// adapters cannot loosen into a schema it accepts (rootschema.Flatten)
// gets one warning per tool, located at what cannot be loosened, naming
// the providers that refuse it and why; one the adapters loosen (allOf
// merged, a union as the union of its properties, not and enum left out
// for OpenAI) gets none.
func TestRootKeywords(t *testing.T) {
	const props = `"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}`
	for _, tc := range []struct {
		name, params string
		warning      string // "" for none
	}{
		{"allOf of a $ref elsewhere", `{` + props + `,"$defs":{"o":{"$defs":{"p":{"type":"object","properties":{"c":{"type":"string"}}}}}},"allOf":[{"$ref":"#/$defs/o/$defs/p"}]}`,
			`tools.json:1:262: /0/function/parameters/allOf/0/$ref: warning: OpenAI and Anthropic refuse "allOf" at the root of a tool's parameters, and it cannot be loosened into a schema they accept (a schema holding the reference "#/$defs/o/$defs/p" cannot be merged into the root: the adapters only resolve "#/$defs/<name>" and "#/definitions/<name>"), so runtime/openai and runtime/anthropic refuse this tool instead of sending it; the generated validation still applies it`},
		{"allOf of a $ref to $defs", `{` + props + `,"$defs":{"B":{"properties":{"c":{"type":"string"}}}},"allOf":[{"$ref":"#/$defs/B"}]}`, ""},
		{"anyOf nested too deep", `{` + props + `,"anyOf":[` + strings.Repeat(`{"anyOf":[`, 20) + `{"required":["a"]},{}` + strings.Repeat(`]}`, 20) + `]}`,
			`tools.json:1:329: /0/function/parameters` + strings.Repeat(`/anyOf/0`, 17) + `: warning: OpenAI and Anthropic refuse "anyOf" at the root of a tool's parameters, and it cannot be loosened into a schema they accept (allOf, anyOf and oneOf nest more than 16 deep), so`},
		{"a reference into not, OpenAI only", `{"type":"object","properties":{"a":{"$ref":"#/not/properties/a"}},"not":{"properties":{"a":{"const":"x"}}}}`,
			`tools.json:1:127: /0/function/parameters/properties/a/$ref: warning: OpenAI refuses "not" at the root of a tool's parameters, and it cannot be loosened into a schema it accepts (the reference "#/not/properties/a" would no longer point where it does once the root is rewritten to leave out what the provider refuses there), so runtime/openai refuses this tool instead of sending it; the generated validation still applies it`},
		{"allOf", `{` + props + `,"allOf":[{"required":["a"]},{"properties":{"c":{"type":"integer"}}}]}`, ""},
		{"anyOf with properties", `{` + props + `,"anyOf":[{"properties":{"a":{"minLength":2}}},{"required":["b"]}]}`, ""},
		{"oneOf of an undeclared property", `{` + props + `,"oneOf":[{"required":["a"]},{"required":["c"]}]}`, ""},
		{"not", `{` + props + `,"not":{"properties":{"a":{"const":"x"}}}}`, ""},
		{"not and allOf", `{` + props + `,"not":{"required":["a"],"minProperties":1},"allOf":[{"required":["a"]}]}`, ""},
		{"oneOf of required only", `{` + props + `,"oneOf":[{"required":["a"]},{"required":["b"]}]}`, ""},
		{"anyOf of required only", `{` + props + `,"anyOf":[{"required":["a"]},{"required":["b"],"type":"object"}]}`, ""},
		{"not of required only", `{` + props + `,"not":{"required":["a","b"]}}`, ""},
		{"nested keywords", `{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"integer"}]}}}`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			def := `[{"type":"function","function":{"name":"do_it","description":"Do it.","parameters":` + tc.params + `}}]`
			fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: def}}, schema.BuildOptions{Package: "p"}, nil)
			if err != nil {
				t.Fatalf("%s: %v", tc.params, err)
			}
			var warnings []string
			for _, w := range fam.Warnings {
				if w.Code == "root-keyword" {
					warnings = append(warnings, fmt.Sprintf("%s:%d:%d: %s: warning: %s", w.Pos.File, w.Pos.Line, w.Pos.Col, w.Pos.Pointer, w.Message))
				}
			}
			switch {
			case tc.warning == "" && len(warnings) > 0:
				t.Errorf("warnings %q", warnings)
			case tc.warning != "" && (len(warnings) != 1 || !strings.HasPrefix(warnings[0], tc.warning)):
				t.Errorf("warnings %q, want one starting %q", warnings, tc.warning)
			}
			// The warning names exactly the adapters that refuse the tool
			// as it is served.
			tool := runtime.Tool{Name: "do_it", Description: "Do it.", Parameters: fam.Tools[0].ParamsSchema}
			_, oerr := openai.ChatTool(tool)
			_, aerr := anthropic.Tool(tool)
			warned := strings.Join(warnings, "")
			if (oerr != nil) != strings.Contains(warned, "runtime/openai") || (aerr != nil) != strings.Contains(warned, "runtime/anthropic") {
				t.Errorf("runtime/openai: %v; runtime/anthropic: %v; warnings %q", oerr, aerr, warnings)
			}
		})
	}
}
