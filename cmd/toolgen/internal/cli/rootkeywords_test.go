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
// against, so that the schema package's tests need no provider SDK): a parameters root with a keyword a provider refuses
// there and the adapters cannot leave out (runtime/rootschema) gets one
// warning per tool, located at the first such keyword, naming the
// providers that refuse each; a oneOf, anyOf or not that only says which
// declared properties are required, which the adapters leave out, gets
// none.
func TestRootKeywords(t *testing.T) {
	const props = `"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}}`
	for _, tc := range []struct {
		name, params string
		warning      string // "" for none
	}{
		{"allOf", `{` + props + `,"allOf":[{"required":["a"]}]}`,
			`tools.json:1:168: /0/function/parameters/allOf: warning: OpenAI and Anthropic refuse "allOf" at the root of a tool's parameters, so runtime/openai and runtime/anthropic refuse this tool instead of sending it; the generated validation still applies it`},
		{"anyOf with properties", `{` + props + `,"anyOf":[{"properties":{"a":{"minLength":2}}},{"required":["b"]}]}`,
			`tools.json:1:168: /0/function/parameters/anyOf: warning: OpenAI and Anthropic refuse "anyOf" at the root`},
		{"oneOf of an undeclared property", `{` + props + `,"oneOf":[{"required":["a"]},{"required":["c"]}]}`,
			`tools.json:1:168: /0/function/parameters/oneOf: warning: OpenAI and Anthropic refuse "oneOf" at the root`},
		{"not, OpenAI only", `{` + props + `,"not":{"properties":{"a":{"const":"x"}}}}`,
			`tools.json:1:166: /0/function/parameters/not: warning: OpenAI refuses "not" at the root of a tool's parameters, so runtime/openai refuses this tool instead of sending it`},
		{"two keywords, one warning", `{` + props + `,"not":{"required":["a"],"minProperties":1},"allOf":[{"required":["a"]}]}`,
			`tools.json:1:166: /0/function/parameters/not: warning: OpenAI refuses "not", and OpenAI and Anthropic refuse "allOf", at the root of a tool's parameters, so runtime/openai and runtime/anthropic refuse this tool instead of sending it; the generated validation still applies them`},
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
