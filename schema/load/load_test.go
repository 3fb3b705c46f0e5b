package load

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
)

func boolp(b bool) *bool { return &b }

// toolSummary is the part of a ToolDef the shape tests compare.
type toolSummary struct {
	Name, Title, Description string
	Pos                      ir.Pos
	Format                   ir.InputFormat
	Params, Output           string
	Annotations              ir.Annotations
}

func summarize(t *ToolDef) toolSummary {
	s := toolSummary{
		Name: t.Name, Title: t.Title, Description: t.Description,
		Pos: t.Pos, Format: t.Format, Params: string(t.Params.JSON()),
		Annotations: t.Annotations,
	}
	if t.Output != nil {
		s.Output = string(t.Output.JSON())
	}
	return s
}

func TestLoadShapes(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []toolSummary
	}{
		{
			name: "openai chat array",
			in: `[{"type":"function","function":{"name":"get_weather","description":"Weather.",
"parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}]`,
			want: []toolSummary{{
				Name: "get_weather", Description: "Weather.",
				Pos:    ir.Pos{File: "in.json", Line: 1, Col: 40, Pointer: "/0/function/name"},
				Format: ir.FormatOpenAIChat,
				Params: `{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`,
			}},
		},
		{
			name: "openai chat without type and without parameters",
			in:   `{"tools":[{"function":{"name":"ping"}}]}`,
			want: []toolSummary{{
				Name:   "ping",
				Pos:    ir.Pos{File: "in.json", Line: 1, Col: 31, Pointer: "/tools/0/function/name"},
				Format: ir.FormatOpenAIChat,
				Params: `{"type":"object","properties":{}}`,
			}},
		},
		{
			name: "openai responses",
			in:   `[{"type":"function","name":"search","description":"Find.","parameters":{"type":"object","properties":{"q":{"type":"string"}}},"strict":true}]`,
			want: []toolSummary{{
				Name: "search", Description: "Find.",
				Pos:    ir.Pos{File: "in.json", Line: 1, Col: 28, Pointer: "/0/name"},
				Format: ir.FormatOpenAIResponses,
				Params: `{"type":"object","properties":{"q":{"type":"string"}}}`,
			}},
		},
		{
			name: "anthropic",
			in:   `{"tools":[{"name":"get_stock","description":"Price.","input_schema":{"type":"object","properties":{"ticker":{"type":"string"}}}}]}`,
			want: []toolSummary{{
				Name: "get_stock", Description: "Price.",
				Pos:    ir.Pos{File: "in.json", Line: 1, Col: 19, Pointer: "/tools/0/name"},
				Format: ir.FormatAnthropic,
				Params: `{"type":"object","properties":{"ticker":{"type":"string"}}}`,
			}},
		},
		{
			name: "mcp with output schema and annotations",
			in: `{"tools":[{"name":"read_file","title":"Read file","description":"Reads.",
"inputSchema":{"type":"object","properties":{"path":{"type":"string"}}},
"outputSchema":{"type":"object","properties":{"content":{"type":"string"}}},
"annotations":{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":false}}]}`,
			want: []toolSummary{{
				Name: "read_file", Title: "Read file", Description: "Reads.",
				Pos:         ir.Pos{File: "in.json", Line: 1, Col: 19, Pointer: "/tools/0/name"},
				Format:      ir.FormatMCP,
				Params:      `{"type":"object","properties":{"path":{"type":"string"}}}`,
				Output:      `{"type":"object","properties":{"content":{"type":"string"}}}`,
				Annotations: ir.Annotations{ReadOnly: boolp(true), Destructive: boolp(false), OpenWorld: boolp(false)},
			}},
		},
		{
			name: "mcp tools/list response with annotation title",
			in:   `{"result":{"tools":[{"name":"echo","inputSchema":{"type":"object"},"annotations":{"title":"Echo","idempotentHint":true}}]}}`,
			want: []toolSummary{{
				Name: "echo", Title: "Echo",
				Pos:         ir.Pos{File: "in.json", Line: 1, Col: 29, Pointer: "/result/tools/0/name"},
				Format:      ir.FormatMCP,
				Params:      `{"type":"object"}`,
				Annotations: ir.Annotations{Idempotent: boolp(true)},
			}},
		},
		{
			name: "mixed shapes keep order",
			in: `[{"name":"b","input_schema":{"type":"object"}},
{"type":"function","function":{"name":"a"}},
{"name":"c","inputSchema":{"type":"object"}}]`,
			want: []toolSummary{
				{Name: "b", Pos: ir.Pos{File: "in.json", Line: 1, Col: 10, Pointer: "/0/name"}, Format: ir.FormatAnthropic, Params: `{"type":"object"}`},
				{Name: "a", Pos: ir.Pos{File: "in.json", Line: 2, Col: 39, Pointer: "/1/function/name"}, Format: ir.FormatOpenAIChat, Params: `{"type":"object","properties":{}}`},
				{Name: "c", Pos: ir.Pos{File: "in.json", Line: 3, Col: 9, Pointer: "/2/name"}, Format: ir.FormatMCP, Params: `{"type":"object"}`},
			},
		},
		{
			name: "empty list",
			in:   `[]`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Tools([]Input{{Name: "in.json", Data: tt.in}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []toolSummary
			for _, td := range doc.Tools {
				got = append(got, summarize(td))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadMissingParamsPosition(t *testing.T) {
	doc, err := Tools([]Input{{Name: "in.json", Data: "[\n {\"type\":\"function\",\"function\":{\"name\":\"ping\"}}]"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Roots) != 1 || doc.Roots[0].Kind != jsonpos.ArrayNode || doc.Sources[0] != "in.json" {
		t.Errorf("roots = %v, sources = %v", doc.Roots, doc.Sources)
	}
	p := doc.Tools[0].Params
	want := ir.Pos{File: "in.json", Line: 2, Col: 32, Pointer: "/0/function/parameters"}
	if p.Pos != want {
		t.Errorf("params pos = %+v, want %+v", p.Pos, want)
	}
	if got := p.Get("properties").Pos.Pointer; got != "/0/function/parameters/properties" {
		t.Errorf("properties pointer = %q", got)
	}
}

func TestLoadErrors(t *testing.T) {
	tests := []struct {
		name   string
		inputs []Input
		want   []string
	}{
		{
			name:   "syntax error",
			inputs: []Input{{"a.json", `[{"name":"x",}]`}},
			want:   []string{`a.json:1:13: /0: trailing comma before '}'`},
		},
		{
			name:   "misspelt schema key",
			inputs: []Input{{"a.json", `[{"type":"function","function":{"name":"get_x","paramters":{"type":"object"}}},{"name":"y","input_schema":{"type":"object"},"parameters":{}}]`}},
			// The second tool has its schema: "parameters" is no misspelling
			// of "input_schema", but a second shape's schema beside it.
			want: []string{
				`a.json:1:60: /0/function/paramters: unknown member "paramters"; did you mean "parameters"? (without it the tool takes no arguments)`,
				`a.json:1:125: /1/parameters: tool has both "input_schema" and "parameters"; keep one (each belongs to a different tool shape, and one would be ignored)`,
			},
		},
		{
			// Each shape key decides the format and where the schema is;
			// toolShape would take the first and drop the other's schema.
			name: "conflicting shape keys",
			inputs: []Input{{"a.json", `[{"type":"function","function":{"name":"a_one","parameters":{"type":"object"}},"input_schema":{"type":"object"}},
{"name":"b_two","input_schema":{"type":"object"},"inputSchema":{"type":"object"}},
{"type":"function","name":"c_three","parameters":{"type":"object"},"function":{"name":"other"}},
{"name":"d_four","function":{"name":"d_four"}},
{"name":"e_five","inputSchema":{"type":"object"},"parameters":{"type":"object"}},
{"type":"function","function":{"name":"f_six","parameters":{"type":"object"}}},
{"name":"g_seven","input_schema":{"type":"object"}}]`}},
			want: []string{
				`a.json:1:80: /0/input_schema: tool has both "function" and "input_schema"; keep one (each belongs to a different tool shape, and one would be ignored)`,
				`a.json:2:50: /1/inputSchema: tool has both "input_schema" and "inputSchema"; keep one (each belongs to a different tool shape, and one would be ignored)`,
				`a.json:3:68: /2/function: tool has both "parameters" and "function"; keep one (each belongs to a different tool shape, and one would be ignored)`,
				`a.json:4:18: /3/function: tool has both "name" and "function"; keep one (each belongs to a different tool shape, and one would be ignored)`,
				`a.json:5:50: /4/parameters: tool has both "inputSchema" and "parameters"; keep one (each belongs to a different tool shape, and one would be ignored)`,
			},
		},
		{
			name:   "not a tool list",
			inputs: []Input{{"a.json", `{"other":[]}`}, {"b.json", `"x"`}},
			want: []string{
				`a.json:1:1: /: expected an array of tools or an object with a "tools" array`,
				`b.json:1:1: /: expected an array of tools, found a string`,
			},
		},
		{
			name: "a JSON-RPC error reply",
			inputs: []Input{
				{"a.json", `{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}`},
				{"b.json", `{"jsonrpc":"2.0","id":1,"error":{"message":"bad\u001b[31m` + strings.Repeat("é", 150) + `"}}`},
			},
			want: []string{
				`a.json:1:33: /error: a JSON-RPC error reply, not a tool list (code -32601, "Method not found"): the server refused the request; save the result of a tools/list call that succeeds`,
				`b.json:1:33: /error: a JSON-RPC error reply, not a tool list (no code, "bad\x1b[31m` + strings.Repeat("é", 96) + `…"): the server refused the request; save the result of a tools/list call that succeeds`,
			},
		},
		{
			name: "a JSON-RPC result of another method",
			inputs: []Input{
				{"a.json", `{"jsonrpc":"2.0","id":1,"result":{"content":[]}}`},
			},
			want: []string{
				`a.json:1:34: /result: a JSON-RPC result without a "tools" array: the reply of another method than tools/list? Its result holds the tools ({"result": {"tools": [...]}})`,
			},
		},
		{
			name: "duplicate names within and across files",
			inputs: []Input{
				{"a.json", `[{"name":"x","input_schema":{}},` + "\n" + `{"name":"x","input_schema":{}}]`},
				{"b.json", `[{"type":"function","function":{"name":"x"}}]`},
			},
			want: []string{
				`a.json:2:9: /1/name: duplicate tool name "x" (first defined at a.json:1:10)`,
				`b.json:1:40: /0/function/name: duplicate tool name "x" (first defined at a.json:1:10)`,
			},
		},
		{
			name:   "names providers reject",
			inputs: []Input{{"a.json", `[{"name":"a.b c","input_schema":{}},{"name":"","input_schema":{}},{"name":"` + strings.Repeat("n", 65) + `","input_schema":{}}]`}},
			want: []string{
				`a.json:1:10: /0/name: tool name "a.b c" is rejected by model providers: only ASCII letters, digits, '_' and '-' are allowed; rename the tool in its definition, or generate with --lenient to serve it as "a_b_c"`,
				`a.json:1:45: /1/name: tool name is empty`,
				`a.json:1:75: /2/name: tool name "` + strings.Repeat("n", 65) + `" is rejected by model providers: 65 bytes long, at most 64 are allowed`,
			},
		},
		{
			name:   "malformed elements",
			inputs: []Input{{"a.json", `[1,{"type":"retrieval"},{"description":"d"},{"type":"function","function":"f"},{"function":{"description":"no name"}},{"name":7,"input_schema":{}},{"name":"p","input_schema":[]}]`}},
			want: []string{
				`a.json:1:2: /0: expected a tool definition object, found a number`,
				`a.json:1:12: /1/type: unsupported tool type "retrieval"; expected "function", an Anthropic or an MCP tool (a provider's server or hosted tool, such as web_search, has no schema to generate from: remove it)`,
				`a.json:1:25: /2: cannot tell the tool format: expected "function", "input_schema" or "inputSchema"`,
				`a.json:1:75: /3/function: "function" must be an object, found a string`,
				`a.json:1:92: /4/function: tool has no "name"`,
				`a.json:1:127: /5/name: "name" must be a string, found a number`,
				`a.json:1:175: /6/input_schema: "input_schema" must be a JSON Schema object, found an array`,
			},
		},
		{
			name:   "wrong field types",
			inputs: []Input{{"a.json", `[{"type":"tool","function":{"name":"f","description":3}},{"name":"m","inputSchema":{},"outputSchema":true,"annotations":{"readOnlyHint":"yes"}}]`}},
			want: []string{
				`a.json:1:10: /0/type: "type" must be "function"`,
				`a.json:1:54: /0/function/description: "description" must be a string, found a number`,
				`a.json:1:102: /1/outputSchema: "outputSchema" must be a JSON Schema object, found a boolean`,
				`a.json:1:137: /1/annotations/readOnlyHint: "readOnlyHint" must be a boolean, found a string`,
			},
		},
		{
			name: "non-standard type names",
			inputs: []Input{{"a.json", `[{"type":"function","function":{"name":"f","parameters":{"type":"dict","properties":{
"x":{"type":"float","enum":[{"type":"dict"}],"default":{"type":"int"}},
"y":{"type":["String","null"]},
"z":{"type":"any"},
"w":{"type":"foo"},
"v":{"type":3}}}}}]`}},
			want: []string{
				`a.json:1:65: /0/function/parameters/type: "dict" is not a JSON Schema type; use "object"`,
				`a.json:2:13: /0/function/parameters/properties/x/type: "float" is not a JSON Schema type; use "number"`,
				`a.json:3:14: /0/function/parameters/properties/y/type/0: "String" is not a JSON Schema type; use "string"`,
				`a.json:4:13: /0/function/parameters/properties/z/type: "any" is not a JSON Schema type; omit "type" to allow any value`,
				`a.json:5:13: /0/function/parameters/properties/w/type: "foo" is not a JSON Schema type`,
				`a.json:6:13: /0/function/parameters/properties/v/type: "type" must be a string or an array of strings, found a number`,
			},
		},
		{
			name:   "tools and legacy functions",
			inputs: []Input{{"a.json", `{"tools":[{"name":"a","input_schema":{}}],"functions":[{"name":"b","parameters":{}}]}`}},
			want: []string{
				`a.json:1:55: /functions: a second tool list: the file has "tools" and the legacy "functions"; keep one (its entries may go into "tools" as they are)`,
			},
		},
		{
			// Neither list may be dropped without a word.
			name:   "two tool lists",
			inputs: []Input{{"a.json", `{"tools":[{"name":"a","input_schema":{}}],"result":{"tools":[{"name":"b","inputSchema":{}}]}}`}},
			want: []string{
				`a.json:1:61: /result/tools: a second tool list: the file has a top-level "tools" and a "tools" in "result" (an MCP tools/list response); keep one`,
			},
		},
		{
			name:   "draft 3 required",
			inputs: []Input{{"a.json", `[{"name":"t","input_schema":{"properties":{"a":{"required":true},"b":{"required":["x"]}}}}]`}},
			want: []string{
				`a.json:1:60: /0/input_schema/properties/a/required: a boolean "required" on a property is draft 3 syntax; list "a" in the object's "required" array`,
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			doc, err := Tools(tt.inputs, Options{})
			if err == nil {
				t.Fatalf("no error; loaded %d tools", len(doc.Tools))
			}
			var list jsonpos.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %T is not an ErrorList", err)
			}
			var got []string
			for _, e := range list {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s\ngot:\n%s", diff, strings.Join(got, "\n"))
			}
		})
	}
}

// TestLoadTypeWalk checks that every subschema position is visited and that
// enum, const, default and examples values are not.
func TestLoadTypeWalk(t *testing.T) {
	keywords := []struct{ kw, schema, ptr string }{
		{"properties", `{"properties":{"a":{"type":"int"}}}`, "/properties/a/type"},
		{"patternProperties", `{"patternProperties":{"^a":{"type":"int"}}}`, "/patternProperties/^a/type"},
		{"additionalProperties", `{"additionalProperties":{"type":"int"}}`, "/additionalProperties/type"},
		{"unevaluatedProperties", `{"unevaluatedProperties":{"type":"int"}}`, "/unevaluatedProperties/type"},
		{"propertyNames", `{"propertyNames":{"type":"str"}}`, "/propertyNames/type"},
		{"items", `{"items":{"type":"int"}}`, "/items/type"},
		{"items array", `{"items":[{"type":"int"}]}`, "/items/0/type"},
		{"prefixItems", `{"prefixItems":[{"type":"int"}]}`, "/prefixItems/0/type"},
		{"additionalItems", `{"additionalItems":{"type":"int"}}`, "/additionalItems/type"},
		{"unevaluatedItems", `{"unevaluatedItems":{"type":"int"}}`, "/unevaluatedItems/type"},
		{"contains", `{"contains":{"type":"int"}}`, "/contains/type"},
		{"$defs", `{"$defs":{"d":{"type":"int"}}}`, "/$defs/d/type"},
		{"definitions", `{"definitions":{"d":{"type":"int"}}}`, "/definitions/d/type"},
		{"dependentSchemas", `{"dependentSchemas":{"d":{"type":"int"}}}`, "/dependentSchemas/d/type"},
		{"dependencies", `{"dependencies":{"d":{"type":"int"},"e":["d"]}}`, "/dependencies/d/type"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"int"}]}`, "/anyOf/1/type"},
		{"oneOf", `{"oneOf":[{"type":"int"}]}`, "/oneOf/0/type"},
		{"allOf", `{"allOf":[{"type":"int"}]}`, "/allOf/0/type"},
		{"not", `{"not":{"type":"int"}}`, "/not/type"},
		{"if", `{"if":{"type":"int"}}`, "/if/type"},
		{"then", `{"then":{"type":"int"}}`, "/then/type"},
		{"else", `{"else":{"type":"int"}}`, "/else/type"},
		{"contentSchema", `{"contentSchema":{"type":"int"}}`, "/contentSchema/type"},
		{"deep", `{"properties":{"a":{"items":{"anyOf":[{"$defs":{"x":{"type":"int"}}}]}}}}`, "/properties/a/items/anyOf/0/$defs/x/type"},
	}
	for _, k := range keywords {
		in := `[{"name":"t","input_schema":` + k.schema + `}]`
		_, err := Tools([]Input{{"a.json", in}}, Options{})
		var list jsonpos.ErrorList
		if !errors.As(err, &list) || len(list) != 1 {
			t.Errorf("%s: err = %v, want one error", k.kw, err)
			continue
		}
		if got, want := list[0].Pos.Pointer, "/0/input_schema"+k.ptr; got != want {
			t.Errorf("%s: error at %s, want %s", k.kw, got, want)
		}
	}
	values := `{"type":"object","enum":[{"type":"dict"}],"const":{"type":"dict"},"default":{"type":"dict"},
"examples":[{"type":"dict"}],"properties":{"type":{"type":"string","default":{"type":"int"}}}}`
	if _, err := Tools([]Input{{"a.json", `[{"name":"t","input_schema":` + values + `}]`}}, Options{}); err != nil {
		t.Errorf("values were checked as schemas: %v", err)
	}
}

func TestLoadLenient(t *testing.T) {
	in := `[{"type":"function","function":{"name":"f","parameters":{"type":"dict","properties":{
"a":{"type":"dict","properties":{"b":{"type":"int"},"c":{"type":"int"}}},
"d":{"type":["str","null"]},
"e":{"type":"any","description":"anything"},
"g":{"type":"dict"},
"h":{"type":"HashMap","additionalProperties":{"type":"long"}}}}}}]`
	doc, err := Tools([]Input{{"a.json", in}}, Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	wantSchema := `{"type":"object","properties":{` +
		`"a":{"type":"object","properties":{"b":{"type":"integer"},"c":{"type":"integer"}}},` +
		`"d":{"type":["string","null"]},` +
		`"e":{"description":"anything"},` +
		`"g":{"type":"object"},` +
		`"h":{"type":"object","additionalProperties":{"type":"integer"}}}}`
	if got := string(doc.Tools[0].Params.JSON()); got != wantSchema {
		t.Errorf("rewritten schema:\n got %s\nwant %s", got, wantSchema)
	}
	var got []string
	for _, w := range doc.Warnings {
		got = append(got, w.Message)
		if w.Code != "lenient-type" || w.Pos.File != "a.json" || w.Pos.Line == 0 {
			t.Errorf("warning %q: code %q, pos %+v", w.Message, w.Code, w.Pos)
		}
	}
	want := []string{
		`rewrote type "dict" to "object" 3 times`,
		`rewrote type "int" to "integer" 2 times`,
		`rewrote type "str" to "string" 1 time`,
		`removed type "any" (any value) 1 time`,
		`rewrote type "HashMap" to "object" 1 time`,
		`rewrote type "long" to "integer" 1 time`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
	if w := doc.Warnings[0].Pos.Pointer; w != "/0/function/parameters/type" {
		t.Errorf("first dict rewrite at %s", w)
	}

	// Draft-3 booleans move into the object's required array.
	in = `[{"name":"t","input_schema":{"type":"object","properties":{
"a":{"type":"string","required":true},
"b":{"type":"object","required":false,"properties":{"c":{"required":true}}},
"d":{"type":"object","required":["e"],"properties":{"e":{}}}}}}]`
	doc, err = Tools([]Input{{"a.json", in}}, Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	wantSchema = `{"type":"object","properties":{` +
		`"a":{"type":"string"},` +
		`"b":{"type":"object","properties":{"c":{}},"required":["c"]},` +
		`"d":{"type":"object","required":["e"],"properties":{"e":{}}}},"required":["a"]}`
	if got := string(doc.Tools[0].Params.JSON()); got != wantSchema {
		t.Errorf("rewritten schema:\n got %s\nwant %s", got, wantSchema)
	}
	if got := doc.Tools[0].Params.Get("required").Items[0].Pos.Pointer; got != "/0/input_schema/required/0" {
		t.Errorf("moved required pointer = %s", got)
	}
	wantWarn := []ir.Diagnostic{{
		Pos:     ir.Pos{File: "a.json", Line: 2, Col: 33, Pointer: "/0/input_schema/properties/a/required"},
		Code:    "lenient-required",
		Message: `moved a boolean "required" from a property into its object's "required" array 3 times`,
	}}
	if diff := cmp.Diff(wantWarn, doc.Warnings); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}

	// A property the object's required array lists already is not
	// listed twice.
	in = `[{"name":"t","input_schema":{"type":"object","required":["a"],"properties":{"a":{"required":true}}}}]`
	doc, err = Tools([]Input{{"a.json", in}}, Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(doc.Tools[0].Params.JSON()), `{"type":"object","required":["a"],"properties":{"a":{}}}`; got != want {
		t.Errorf("rewritten schema:\n got %s\nwant %s", got, want)
	}

	// Lenient mode still rejects names it cannot map.
	_, err = Tools([]Input{{"a.json", `[{"name":"t","input_schema":{"type":"foo"}}]`}}, Options{Lenient: true})
	if err == nil || !strings.Contains(err.Error(), `"foo" is not a JSON Schema type`) {
		t.Errorf("lenient unknown type: err = %v", err)
	}
}

// TestLoadLenientDeep: lenient rewrites reach as deep as the family's
// limits let schemas nest, not only the default's depth.
func TestLoadLenientDeep(t *testing.T) {
	const levels = 600
	in := `[{"name":"t","input_schema":` + strings.Repeat(`{"type":"array","items":`, levels) + `{"type":"int"}` + strings.Repeat(`}`, levels) + `}]`
	doc, err := Tools([]Input{{"a.json", in}}, Options{Lenient: true, Limits: limits.Limits{Depth: 100}})
	if err != nil {
		t.Fatal(err)
	}
	n := doc.Tools[0].Params
	for range levels {
		n = n.Get("items")
	}
	if got := string(n.JSON()); got != `{"type":"integer"}` {
		t.Errorf("innermost schema %s, want it rewritten", got)
	}
}

// TestLoadCorpus loads every corpus tool file (each file is one family).
func TestLoadCorpus(t *testing.T) {
	dir := corpus.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "tools", "*", "*.tools.json"))
	if len(files) == 0 {
		t.Skip("no corpus tool files")
	}
	total := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, f)
		doc, err := Tools([]Input{{Name: rel, Data: string(data)}}, Options{})
		if err != nil {
			t.Errorf("%s:\n%v", rel, err)
			continue
		}
		if len(doc.Tools) == 0 {
			t.Errorf("%s: no tools", rel)
		}
		for _, td := range doc.Tools {
			if td.Params == nil || td.Params.Kind != jsonpos.ObjectNode || td.Pos.Line == 0 {
				t.Errorf("%s: tool %s: params %v at %+v", rel, td.Name, td.Params, td.Pos)
			}
		}
		t.Logf("%s: %d tools", rel, len(doc.Tools))
		total += len(doc.Tools)
	}
	t.Logf("%d files, %d tools", len(files), total)
}

func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		`[{"type":"function","function":{"name":"f","parameters":{"type":"dict","properties":{"a":{"type":["int","null"]}}}}}]`,
		`{"tools":[{"name":"m","inputSchema":{"type":"object"},"annotations":{"readOnlyHint":true}}]}`,
		`[{"name":"a","input_schema":{"anyOf":[{"type":"any"}],"items":[{"type":"str"}]}}]`,
		`[{"type":"function","function":{"name":"f","descripton":"\ud800","input_schema":{"properties":{"\udc00":{"default":"\ud83d"}}}},"strict":true}]`,
		`{"$defs":{"a":{"enum":["\ud800\ud800\udc00"]}},"tools":[{"name":"m","inputSchema":{},"_meta":{},"annotations":{"readonlyHint":1}}]}`,
	} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, lenient bool) {
		doc, err := Tools([]Input{{Name: "fuzz.json", Data: string(data)}}, Options{Lenient: lenient})
		if err != nil {
			var list jsonpos.ErrorList
			if !errors.As(err, &list) || len(list) == 0 {
				t.Fatalf("error %T is not a non-empty ErrorList", err)
			}
			for _, e := range list {
				// Every error is located: its file, line and column.
				if e.Pos.File != "fuzz.json" || e.Pos.Line < 1 || e.Pos.Col < 1 {
					t.Fatalf("unlocated error: %v", e)
				}
			}
			return
		}
		for _, td := range doc.Tools {
			if td.Params == nil || td.Node == nil {
				t.Fatalf("tool %q without params or node", td.Name)
			}
		}
	})
}

func BenchmarkLoad(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpus.Dir(b), "tools", "mcp_npm", "ALL.tools.json"))
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Tools([]Input{{Name: "ALL.tools.json", Data: string(data)}}, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestReadFile reads inputs straight into their strings: a file (empty,
// small, and larger than the reads io.Copy makes), a reader, and a
// missing file, whose error still says it does not exist (toolgen then
// tries REV:PATH as a git revision).
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, text := range []string{"", `[{"name":"x"}]`, strings.Repeat(`{"name":"long"},`, 10000)} {
		name := filepath.Join(dir, "tools.json")
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := ReadFile(name)
		if err != nil || in.Name != name || in.Data != text {
			t.Errorf("ReadFile of %d bytes: %q, %d bytes, %v", len(text), in.Name, len(in.Data), err)
		}
		in, err = ReadInput("<stdin>", strings.NewReader(text))
		if err != nil || in.Name != "<stdin>" || in.Data != text {
			t.Errorf("ReadInput of %d bytes: %q, %d bytes, %v", len(text), in.Name, len(in.Data), err)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("ReadFile of a missing file: %v, want an error that it does not exist", err)
	}
}

// TestIgnoredResultSchema: a result schema under a member the tool's format
// does not have is named in a warning rather than dropped without a word;
// MCP's outputSchema is read, not warned about.
func TestIgnoredResultSchema(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string // pointers warned about
	}{
		{"chat function", `[{"type":"function","function":{"name":"f","parameters":{},"result_schema":{}}}]`,
			[]string{"/0/function/result_schema"}},
		{"chat outer", `[{"type":"function","outputSchema":{},"function":{"name":"f","parameters":{}}}]`,
			[]string{"/0/outputSchema"}},
		{"anthropic", `[{"name":"f","input_schema":{},"output_schema":{},"returns":{}}]`,
			[]string{"/0/output_schema", "/0/returns"}},
		{"responses", `[{"type":"function","name":"f","parameters":{},"responseSchema":{}}]`,
			[]string{"/0/responseSchema"}},
		{"mcp", `[{"name":"f","inputSchema":{},"outputSchema":{"type":"object"}}]`, nil},
		{"none", `[{"name":"f","input_schema":{}}]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := warnedPointers(t, c.in, func(w ir.Diagnostic) bool {
				return w.Code == "ignored-result-schema" && strings.Contains(w.Message, "ops.<op>.result_schema")
			})
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("warned pointers (-want +got):\n%s", diff)
			}
		})
	}
}

// TestProviderTools: a tool the model provider runs itself (Anthropic's
// server tools, OpenAI's hosted tools) has no schema to generate from: it
// is skipped with a located warning, and the function tools beside it are
// read; a "parameters" schema makes it a tool to generate, and an unknown
// type stays an error.
func TestProviderTools(t *testing.T) {
	doc, err := Tools([]Input{{"a.json", `[{"type":"web_search_20250305","name":"web_search","max_uses":5},{"type":"web_search_preview"},
{"type":"code_interpreter","container":{"type":"auto"}},{"name":"get_x","description":"d","input_schema":{"type":"object"}},
{"type":"function","name":"get_y","parameters":{"type":"object"}}]`}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names, warned []string
	for _, tl := range doc.Tools {
		names = append(names, tl.Name)
	}
	for _, w := range doc.Warnings {
		if w.Code != "provider-tool" || !strings.Contains(w.Message, "run by the model provider") {
			t.Errorf("warning %+v", w)
		}
		warned = append(warned, w.Pos.Pointer)
	}
	if diff := cmp.Diff([]string{"get_x", "get_y"}, names); diff != "" {
		t.Errorf("tools read (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"/0/type", "/1/type", "/2/type"}, warned); diff != "" {
		t.Errorf("warned pointers (-want +got):\n%s", diff)
	}
	if _, err := Tools([]Input{{"a.json", `[{"type":"web_searcher"}]`}}, Options{}); err == nil || !strings.Contains(err.Error(), "unsupported tool type") {
		t.Errorf("an unknown type: %v", err)
	}
}

// TestMorePages: an MCP tools/list page with a non-empty nextCursor (bare
// or inside a JSON-RPC response) gets a warning located at the cursor that
// only this page's tools are read; the last page (no cursor, an empty or a
// null one) gets none.
func TestMorePages(t *testing.T) {
	tool := `{"name":"f","inputSchema":{"type":"object"}}`
	cases := []struct {
		name, in string
		want     []string // pointers warned about
	}{
		{"page", `{"tools":[` + tool + `],"nextCursor":"abc"}`, []string{"/nextCursor"}},
		{"json-rpc", `{"jsonrpc":"2.0","id":1,"result":{"tools":[` + tool + `],"nextCursor":"abc"}}`, []string{"/result/nextCursor"}},
		{"last page", `{"tools":[` + tool + `]}`, nil},
		{"empty cursor", `{"tools":[` + tool + `],"nextCursor":""}`, nil},
		{"null cursor", `{"result":{"tools":[` + tool + `],"nextCursor":null}}`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, got := warnedPointers(t, c.in, func(w ir.Diagnostic) bool {
				return w.Code == "more-pages" && strings.Contains(w.Message, "only its tools are read")
			})
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("warned pointers (-want +got):\n%s", diff)
			}
			if len(doc.Tools) != 1 {
				t.Errorf("%d tools read, want 1", len(doc.Tools))
			}
		})
	}
}

// TestOtherFormatSchemaKey: a parameters schema under another format's
// schema key (or a framework's) is a located error naming the key the
// tool's format reads, not a tool that silently takes no arguments; with
// the format's own key present too, a second format's schema is an
// error as well. A value that is no schema (null, a string) is left to
// the unknown-member warnings.
func TestOtherFormatSchemaKey(t *testing.T) {
	const schema = `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`
	cases := []struct {
		name, in string
		want     []string
	}{
		{"chat input_schema", `[{"type":"function","function":{"name":"get_x","input_schema":` + schema + `}}]`, []string{
			`a.json:1:63: /0/function/input_schema: "input_schema" is not read as the tool's schema: an OpenAI chat tool takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"chat inputSchema", `[{"type":"function","function":{"name":"get_x","inputSchema":` + schema + `}}]`, []string{
			`a.json:1:62: /0/function/inputSchema: "inputSchema" is not read as the tool's schema: an OpenAI chat tool takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"functions entry schema", `[{"name":"get_x","schema":` + schema + `}]`, []string{
			`a.json:1:27: /0/schema: "schema" is not read as the tool's schema: an OpenAI function definition (a "functions" entry) takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"responses parametersJsonSchema", `[{"type":"function","name":"get_x","parametersJsonSchema":` + schema + `}]`, []string{
			`a.json:1:59: /0/parametersJsonSchema: "parametersJsonSchema" is not read as the tool's schema: an OpenAI responses tool takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"chat schema beside function", `[{"type":"function","schema":` + schema + `,"function":{"name":"get_x"}}]`, []string{
			`a.json:1:30: /0/schema: "schema" is not read as the tool's schema: an OpenAI chat tool takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"chat both", `[{"type":"function","function":{"name":"get_x","parameters":{"type":"object"},"inputSchema":` + schema + `}}]`, []string{
			`a.json:1:93: /0/function/inputSchema: "inputSchema" is not read: an OpenAI chat tool takes its parameters schema from "parameters", which it has too; keep one`,
		}},
		{"misspelt and other", `[{"type":"function","function":{"name":"get_x","paramters":{},"params":{}}}]`, []string{
			`a.json:1:60: /0/function/paramters: unknown member "paramters"; did you mean "parameters"? (without it the tool takes no arguments)`,
			`a.json:1:72: /0/function/params: "params" is not read as the tool's schema: an OpenAI chat tool takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"boolean schema", `[{"type":"function","function":{"name":"get_x","input_schema":true}}]`, []string{
			`a.json:1:63: /0/function/input_schema: "input_schema" is not read as the tool's schema: an OpenAI chat tool takes its parameters schema from "parameters"; rename it (without it the tool takes no arguments)`,
		}},
		{"no schema", `[{"type":"function","function":{"name":"get_x","input_schema":null,"schema":"v2"}}]`, nil},
		{"own keys only", `[{"name":"a","input_schema":{}},{"name":"b","inputSchema":{}},{"type":"function","name":"c","parameters":{}}]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, errs := Decode([]Input{{"a.json", c.in}}, Options{})
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnreadMembers: members of a tool element, of its "function" object
// and of MCP annotations that are not read are warned about, located,
// each name once however many tools have it: unknown ones (a misspelling
// gets a did-you-mean), ones beside "function" that belong inside it,
// another format's, and provider members the generated package does not
// carry (unless off, as it serves them). What is read is not warned about.
func TestUnreadMembers(t *testing.T) {
	type warning struct{ Pointer, Code, Message string }
	cases := []struct {
		name, in string
		want     []warning
	}{
		{"chat", `[{"type":"function","function":{"name":"get_x","strict":true,"descripton":"Get x.","parameters":{}}}]`, []warning{
			{"/0/function/strict", "member-not-carried", `"strict" (OpenAI's and Anthropic's) is not carried: the generated package serves its tools without it`},
			{"/0/function/descripton", "unknown-member", `unknown tool member "descripton" is ignored; did you mean "description"?`},
		}},
		{"chat beside function", `[{"type":"function","description":"d","strict":false,"function":{"name":"f","title":"F","annotations":{}}}]`, []warning{
			{"/0/description", "unknown-member", `"description" beside "function" is ignored: an OpenAI chat tool has it inside "function"`},
			{"/0/function/annotations", "member-not-carried", `"annotations" are read from MCP tools (with "inputSchema") only; in an OpenAI chat tool they are ignored`},
		}},
		{"summarised per name", `[{"name":"a","input_schema":{},"cache_control":{"type":"ephemeral"},"x-team":"core"},
{"name":"b","input_schema":{},"cache_control":{"type":"ephemeral"},"x-team":"core","type":"custom"},
{"name":"c","input_schema":{},"cache_control":{"type":"ephemeral"},"type":"bash_20250124"}]`, []warning{
			{"/0/cache_control", "member-not-carried", `"cache_control" (Anthropic's) is not carried: the generated package serves its tools without it (in 3 tools; this is the first)`},
			{"/0/x-team", "unknown-member", `unknown tool member "x-team" is ignored (in 2 tools; this is the first)`},
			{"/2/type", "ignored-tool-type", `"type" "bash_20250124" is ignored: a tool with "input_schema" is read as a client tool that the generated package serves`},
		}},
		{"mcp", `{"tools":[{"name":"m","title":"M","inputSchema":{},"outputSchema":{},"_meta":{"k":1},"icons":[],"output_schema":{},
"annotations":{"title":"M","readonlyHint":true,"idempotentHint":true,"x":1}}]}`, []warning{
			{"/tools/0/_meta", "member-not-carried", `"_meta" (MCP's) is not carried: the generated package serves its tools without it`},
			{"/tools/0/icons", "member-not-carried", `"icons" (MCP's) is not carried: the generated package serves its tools without it`},
			{"/tools/0/output_schema", "unknown-member", `unknown tool member "output_schema" is ignored; did you mean "outputSchema"?`},
			{"/tools/0/annotations/readonlyHint", "unknown-member", `unknown annotation "readonlyHint" is ignored; did you mean "readOnlyHint"?`},
			{"/tools/0/annotations/x", "unknown-member", `unknown annotation "x" is ignored`},
		}},
		{"responses", `[{"type":"function","name":"r","description":"R","parameters":{},"strict":true,"defer_loading":false}]`, []warning{
			{"/0/strict", "member-not-carried", `"strict" (OpenAI's and Anthropic's) is not carried: the generated package serves its tools without it`},
		}},
		{"chat body type", `[{"type":"function","function":{"type":"object","name":"f"}}]`, []warning{
			{"/0/function/type", "unknown-member", `unknown tool member "type" is ignored`},
		}},
		{"all read", `[{"type":"function","function":{"name":"a","title":"A","description":"d","parameters":{}}},
{"name":"b","description":"d","parameters":{}},{"type":"function","name":"c","description":"d","parameters":{}},
{"type":"custom","name":"d","description":"d","input_schema":{}},{"type":"function","name":"e","inputSchema":{}}]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Tools([]Input{{"a.json", c.in}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []warning
			for _, w := range doc.Warnings {
				if w.Pos.File != "a.json" || w.Pos.Line == 0 {
					t.Errorf("warning %+v is not located", w)
				}
				got = append(got, warning{w.Pos.Pointer, w.Code, w.Message})
			}
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestUnpairedSurrogateErrors: an unpaired surrogate escape, which the
// parser reads as U+FFFD, is a located error at the escape wherever it
// is (a description, an enum value, a property name, a file's $defs, the
// envelope), as invalid UTF-8 is; a surrogate pair, a literal U+FFFD and
// an escaped backslash are not. A schema's default is left to the
// compiler, which warns and does not apply it; a "default" property or a
// default inside an enum value is no schema default.
func TestUnpairedSurrogateErrors(t *testing.T) {
	in := `{"id":"\udfff","tools":[{"type":"function","function":{"name":"f","description":"Get \ud800 x.",
"parameters":{"type":"object","properties":{"s":{"type":"string","enum":["ok","\udc00"],"default":"\ud800"},
"k\ud83dy":{"type":"string","description":"\ud83d\ude00 \\ud800 ` + "\uFFFD" + `"},
"default":{"type":"string","const":{"default":"\ud801"}}},
"$defs":{"D":{"items":[{"default":["\ud802"]}]}}}}}],
"$defs":{"Shared":{"properties":{"p":{"title":"\ud803","default":"\ud804"}}}}}`
	_, errs := Decode([]Input{{"a.json", in}}, Options{})
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	const msg = ": no UTF-8 text holds it (it would be read as U+FFFD); write the character itself, or a high and low surrogate pair"
	want := []string{
		`a.json:1:8: /id: unpaired surrogate escape \udfff in string` + msg,
		`a.json:1:86: /tools/0/function/description: unpaired surrogate escape \ud800 in string` + msg,
		`a.json:2:80: /tools/0/function/parameters/properties/s/enum/1: unpaired surrogate escape \udc00 in string` + msg,
		`a.json:3:3: /tools/0/function/parameters/properties/k�y: unpaired surrogate escape \ud83d in object key` + msg,
		`a.json:4:48: /tools/0/function/parameters/properties/default/const/default: unpaired surrogate escape \ud801 in string` + msg,
		`a.json:6:48: /$defs/Shared/properties/p/title: unpaired surrogate escape \ud803 in string` + msg,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("errors (-want +got):\n%s\ngot:\n%s", diff, strings.Join(got, "\n"))
	}

	// Without surrogate escapes, nothing is reported.
	if _, errs := Decode([]Input{{"a.json", `[{"name":"f","input_schema":{"description":"\ud83d\ude00 \\ud800 ` + "\uFFFD" + `"}}]`}}, Options{}); len(errs) != 0 {
		t.Errorf("errors without unpaired surrogates: %v", errs)
	}
}

// TestDescriptionLength: a description longer than the 1024 characters
// OpenAI Chat Completions has accepted gets one warning, located at the
// description, in each input format; characters are counted, not bytes.
func TestDescriptionLength(t *testing.T) {
	long, wide := strings.Repeat("a", 1025), strings.Repeat("é", 1024)
	cases := []struct {
		name, in string
		want     []string // pointers warned about
	}{
		{"chat", `[{"type":"function","function":{"name":"f","description":"` + long + `","parameters":{"type":"object"}}}]`, []string{"/0/function/description"}},
		{"responses", `[{"type":"function","name":"f","description":"` + long + `","parameters":{"type":"object"}}]`, []string{"/0/description"}},
		{"anthropic", `[{"name":"f","description":"` + long + `","input_schema":{"type":"object"}}]`, []string{"/0/description"}},
		{"mcp", `{"tools":[{"name":"f","description":"` + long + `","inputSchema":{"type":"object"}}]}`, []string{"/tools/0/description"}},
		{"1024 characters in 2048 bytes", `[{"name":"f","description":"` + wide + `","input_schema":{"type":"object"}}]`, nil},
		{"escaped", `[{"name":"f","description":"` + strings.Repeat(`\u00e9`, 1025) + `","input_schema":{"type":"object"}}]`, []string{"/0/description"}},
		{"short", `[{"name":"f","description":"Does f.","input_schema":{"type":"object"}}]`, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, got := warnedPointers(t, c.in, func(w ir.Diagnostic) bool {
				return w.Code == codeDescriptionLength && strings.Contains(w.Message, "1025 characters long") &&
					strings.Contains(w.Message, "over 1024 characters") && w.Pos.Line == 1 && w.Pos.Col != 0
			})
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("warned pointers (-want +got):\n%s", diff)
			}
		})
	}
}

// warnedPointers reads in as the file a.json and returns the document
// and the JSON pointers of its warnings, failing t for each warning ok
// refuses.
func warnedPointers(t *testing.T, in string, ok func(ir.Diagnostic) bool) (*Document, []string) {
	t.Helper()
	doc, err := Tools([]Input{{"a.json", in}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range doc.Warnings {
		if !ok(w) {
			t.Errorf("warning %+v", w)
		}
		got = append(got, w.Pos.Pointer)
	}
	return doc, got
}

// TestLenientRenamesTools: with Lenient, a name providers reject for its
// characters ("geo.distance", as BFCL and some MCP servers write them) is
// served with each replaced by '_', with a located warning; a name that
// then collides with another tool's is the duplicate error, and one too
// long stays an error.
func TestLenientRenamesTools(t *testing.T) {
	doc, errs := Decode([]Input{{"a.json", `[{"name":"geo.distance","input_schema":{}},{"name":"geo_area","input_schema":{}},{"name":"geo.area","input_schema":{}},{"name":"` + strings.Repeat("n", 65) + `","input_schema":{}}]`}}, Options{Lenient: true})
	var got []string
	for _, e := range errs {
		got = append(got, e.Error())
	}
	want := []string{
		`a.json:1:90: /2/name: tool "geo.area" served as "geo_area" (--lenient) has the name of another tool (defined at a.json:1:52); rename one of them in its definition`,
		`a.json:1:128: /3/name: tool name "` + strings.Repeat("n", 65) + `" is rejected by model providers: 65 bytes long, at most 64 are allowed`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if doc.Tools[0].Name != "geo_distance" {
		t.Errorf("served name %q", doc.Tools[0].Name)
	}
	var warned []string
	for _, w := range doc.Warnings {
		if w.Code == "renamed-tool" {
			warned = append(warned, w.Message)
		}
	}
	if len(warned) != 2 || !strings.Contains(warned[0], `served as "geo_distance" (--lenient)`) {
		t.Errorf("warnings %q", warned)
	}
}
