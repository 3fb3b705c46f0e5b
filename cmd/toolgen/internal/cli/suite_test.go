package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/rootschema"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestSurfacesOverSuiteSchemas: every schema of the JSON Schema Test Suite
// whose root is an object, offered as one tool's parameters, that toolgen
// compiles, builds every surface (gateway, facades, sections, code,
// deferred) and gets its boot tokens counted, is served by an MCP server
// and converted to the Anthropic and OpenAI SDKs' tool types; and the
// gateway's help for the tool's op answers. Valid schemas of any shape, boolean subschemas
// included, must not stop a surface a generated package serves.
func TestSurfacesOverSuiteSchemas(t *testing.T) {
	root := corpus.Dir(t, "jsonschema-test-suite", "tests")
	files, err := filepath.Glob(filepath.Join(root, "*", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	built := 0
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		var groups []struct {
			Description string          `json:"description"`
			Schema      json.RawMessage `json:"schema"`
			Tests       []struct {
				Data json.RawMessage `json:"data"`
			} `json:"tests"`
		}
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for i, g := range groups {
			if len(g.Schema) == 0 || g.Schema[0] != '{' {
				continue
			}
			name := fmt.Sprintf("%s#%d", filepath.Base(file), i)
			def := fmt.Sprintf(`[{"type":"function","function":{"name":"get_case","description":%q,"parameters":%s}}]`, g.Description, g.Schema)
			f, err := schema.BuildFamily([]load.Input{{Name: name, Data: def}}, schema.BuildOptions{Package: "suite", Options: load.Options{Lenient: true}}, nil)
			if err != nil {
				continue // a located compile error is the compiler's to test
			}
			built++
			if _, err := countTokens(f); err != nil {
				t.Errorf("%s (%s): boot surfaces: %v\nschema: %s", name, g.Description, err, g.Schema)
				continue
			}
			tools, err := gateway.Tools(generator.RegistryOf(f), familyTools(f))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			flat := familyTools(f)
			if _, err := mcpserver.NewServer("suite", "1", flat); err != nil {
				t.Errorf("%s (%s): MCP server: %v\nparameters: %s", name, g.Description, err, f.Tools[0].ParamsSchema)
			}
			// The providers refuse some keywords at the root of a tool's
			// parameters (OpenAI oneOf, anyOf, allOf, enum and not;
			// Anthropic oneOf, anyOf and allOf): the adapters send an
			// equivalent or looser schema (rootschema.Flatten), or refuse
			// the tool, naming the keyword, when they cannot.
			var root map[string]json.RawMessage
			_ = json.Unmarshal(f.Tools[0].ParamsSchema, &root)
			refused := func(err error, keywords ...string) bool {
				for _, k := range keywords {
					if _, ok := root[k]; ok && strings.Contains(err.Error(), " refuses "+k+" at the root") {
						return true
					}
				}
				return false
			}
			// What they send is looser: the suite's arguments objects valid
			// for the tool's schema are valid for it.
			if orig, err := check.CompileSchema(string(f.Tools[0].ParamsSchema)); err == nil {
				for _, p := range []rootschema.Provider{rootschema.OpenAI, rootschema.Anthropic} {
					sent, err := rootschema.Flatten(f.Tools[0].ParamsSchema, p)
					if err != nil {
						continue
					}
					loose, err := check.CompileSchema(string(sent))
					if err != nil {
						t.Errorf("%s (%s): %v sent %s: %v", name, g.Description, p, sent, err)
						continue
					}
					for _, tc := range g.Tests {
						var v any
						if json.Unmarshal(tc.Data, &v) != nil || orig.Validate(v, "") != nil {
							continue
						}
						if _, ok := v.(map[string]any); ok && loose.Validate(v, "") != nil {
							t.Errorf("%s (%s): %s is valid for %s but not for the schema sent to %v: %s", name, g.Description, tc.Data, f.Tools[0].ParamsSchema, p, sent)
						}
					}
				}
			}
			if _, err := anthropic.Tools(flat); err != nil && !refused(err, "oneOf", "anyOf", "allOf") {
				t.Errorf("%s (%s): Anthropic tools: %v", name, g.Description, err)
			}
			if _, err := openai.ChatTools(flat); err != nil && !refused(err, "oneOf", "anyOf", "allOf", "enum", "not") {
				t.Errorf("%s (%s): OpenAI chat tools: %v", name, g.Description, err)
			}
			if _, err := openai.ResponseTools(flat); err != nil && !refused(err, "oneOf", "anyOf", "allOf", "enum", "not") {
				t.Errorf("%s (%s): OpenAI responses tools: %v", name, g.Description, err)
			}
			help := callTool(t, tools, gateway.HelpTool, fmt.Sprintf(`{"path":%q}`, f.Ops[0].Path))
			if !strings.Contains(help, f.Ops[0].Path) || strings.Contains(help, `"ok":false`) {
				t.Errorf("%s (%s): help for %s: %s", name, g.Description, f.Ops[0].Path, help)
			}
		}
	}
	if built < 300 {
		t.Errorf("only %d suite schemas built; expected most of the 636 object schemas", built)
	}
	t.Logf("%d suite schemas built and served", built)
}

// callTool calls the named tool of tools with args and returns its
// rendered answer.
func callTool(t *testing.T, tools []runtime.Tool, name, args string) string {
	t.Helper()
	for _, tl := range tools {
		if tl.Name == name {
			tc := runtime.NewToolContext(runtime.ContextParts{Call: runtime.ToolCall{Name: name, Args: json.RawMessage(args)}})
			res, err := tl.Handler(context.Background(), tc, json.RawMessage(args))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			return runtime.RenderValue(res.Value)
		}
	}
	t.Fatalf("no tool %s", name)
	return ""
}
