package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// A manifest result_schema becomes the tool's typed result, and an error
// in it is located in the manifest.
func TestBuildFamilyManifestResults(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: `[{"type":"function","function":{"name":"get_item","description":"Get an item.","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}]`}}
	m, err := manifest.Load("toolgen.yaml", []byte("ops:\n  item.get:\n    result_schema: {type: object, properties: {name: {type: string}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	fam, err := BuildFamily(tools, BuildOptions{Package: "p"}, m)
	if err != nil {
		t.Fatal(err)
	}
	res := fam.Tools[0].Result
	if res == nil || res.GoName != "GetItemResult" || len(res.Fields) != 1 || res.Fields[0].JSONName != "name" {
		t.Fatalf("result type: %+v", res)
	}

	bad, err := manifest.Load("toolgen.yaml", []byte("ops:\n  item.get:\n    result_schema: {type: object, properties: {name: {type: strin}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = BuildFamily(tools, BuildOptions{Package: "p"}, bad)
	if err == nil || !strings.Contains(err.Error(), "toolgen.yaml:3:") || !strings.Contains(err.Error(), "/result_schema/properties/name/type") {
		t.Fatalf("error = %v, want one located in the manifest", err)
	}
}

// One run reports every error of a manifest op: a tool it names that does
// not exist and its result_schema's own errors; a type error of the result
// is reported once, and the object-schema check names result_schema.
func TestBuildFamilyManifestResultErrors(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: `[{"type":"function","function":{"name":"get_item","description":"Get an item.","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}]`}}
	for _, c := range []struct {
		manifest string
		want     []string
	}{
		{"ops:\n  item.get:\n    tool: get_itme\n    result_schema: {type: objekt}\n", []string{
			`toolgen.yaml:3:11: /ops/item.get/tool: unknown tool "get_itme"; did you mean "get_item"?`,
			`toolgen.yaml:4:27: /ops/item.get/result_schema/type: unknown type "objekt"`,
		}},
		{"ops:\n  item.get:\n    tool: get_item\n    result_schema: {type: objekt}\n", []string{
			`toolgen.yaml:4:27: /ops/item.get/result_schema/type: unknown type "objekt"`,
		}},
		{"ops:\n  item.get:\n    tool: get_item\n    result_schema: {type: string}\n", []string{
			`toolgen.yaml:4:20: /ops/item.get/result_schema: result_schema must be an object schema`,
		}},
		{"ops:\n  item.get:\n    tool: get_itme\n    result_schema: {type: string}\n", []string{
			`toolgen.yaml:3:11: /ops/item.get/tool: unknown tool "get_itme"; did you mean "get_item"?`,
			`toolgen.yaml:4:20: /ops/item.get/result_schema: result_schema must be an object schema`,
		}},
		// An open object branch does not make a union of other values one.
		{"ops:\n  item.get:\n    result_schema: {anyOf: [{type: object}, {type: string}]}\n", []string{
			`toolgen.yaml:3:20: /ops/item.get/result_schema: result_schema must be an object schema`,
		}},
		{"ops:\n  item.get:\n    result_schema: {type: [object, string]}\n", []string{
			`toolgen.yaml:3:20: /ops/item.get/result_schema: result_schema must be an object schema`,
		}},
		{"ops:\n  item.get:\n    result_schema: {oneOf: [{anyOf: [{type: object}, {type: integer}]}, {type: object, properties: {a: {type: string}}}]}\n", []string{
			`toolgen.yaml:3:20: /ops/item.get/result_schema: result_schema must be an object schema`,
		}},
		// A branch that loops back to the union is the circular schema it
		// is, and no other error; a branch of another kind still is one.
		{"ops:\n  item.get:\n    result_schema: {anyOf: [{type: object, properties: {a: {type: string}}}, {$ref: '#'}]}\n", []string{
			`toolgen.yaml:3:85: /ops/item.get/result_schema/anyOf/1/$ref: circular schema: this applies /ops/item.get/result_schema to the same value again (through anyOf, oneOf, not, if/then/else or dependentSchemas) and can never be decided`,
		}},
		{"ops:\n  item.get:\n    result_schema: {anyOf: [{type: string}, {$ref: '#'}]}\n", []string{
			`toolgen.yaml:3:20: /ops/item.get/result_schema: result_schema must be an object schema`,
			`toolgen.yaml:3:52: /ops/item.get/result_schema/anyOf/1/$ref: circular schema: this applies /ops/item.get/result_schema to the same value again (through anyOf, oneOf, not, if/then/else or dependentSchemas) and can never be decided`,
		}},
	} {
		m, err := manifest.Load("toolgen.yaml", []byte(c.manifest))
		if err != nil {
			t.Fatal(err)
		}
		_, err = BuildFamily(tools, BuildOptions{Package: "p"}, m)
		if got, want := strings.Split(strings.TrimSpace(errString(err)), "\n"), c.want; !reflect.DeepEqual(got, want) {
			t.Errorf("manifest %q:\n got %q\nwant %q", c.manifest, got, want)
		}
	}
	// an MCP tool's own outputSchema is named so
	mcp := []load.Input{{Name: "mcp.json", Data: `{"tools":[{"name":"get_item","inputSchema":{"type":"object"},"outputSchema":{"type":"string"}}]}`}}
	if _, err := BuildFamily(mcp, BuildOptions{Package: "p"}, nil); err == nil || !strings.Contains(err.Error(), "/outputSchema: outputSchema must be an object schema") {
		t.Errorf("outputSchema: %v", err)
	}
	// and a union looping through $ref in an outputSchema with $defs is
	// only circular
	loop := []load.Input{{Name: "mcp.json", Data: `{"tools":[{"name":"get_item","inputSchema":{"type":"object"},"outputSchema":` +
		`{"$defs":{"id":{"type":"string"}},"anyOf":[{"type":"object","properties":{"id":{"$ref":"#/$defs/id"}}},{"$ref":"#"}]}}]}`}}
	_, err := BuildFamily(loop, BuildOptions{Package: "p"}, nil)
	if got := strings.TrimSpace(errString(err)); !strings.HasPrefix(got, "mcp.json:1:") || strings.Count(got, "\n") != 0 ||
		!strings.Contains(got, "/outputSchema/anyOf/1/$ref: circular schema: this applies /tools/0/outputSchema to the same value again") {
		t.Errorf("outputSchema looping through $ref: %v", err)
	}
}

// A result schema is an object schema when every value it admits, null
// aside, is an object: a union may have an open object branch ({"type":
// "object"} without properties, compiled as a map as it is below the root,
// its values typed by additionalProperties), and a branch may be a union or
// a $ref of objects, however deep; a whole {"type": "object"} stays the
// root's struct. From an MCP outputSchema as from a manifest result_schema.
func TestBuildFamilyOpenObjectResults(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: `[{"type":"function","function":{"name":"get_item","description":"Get an item.","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}]`}}
	cases := []struct {
		name, result, want string
	}{
		{"open object or null", `{"anyOf":[{"type":"object"},{"type":"null"}]}`, `
GetItemResult: object{...Extra:any}?`},
		{"open object", `{"type":"object"}`, `
GetItemResult: object{...Extra:any}`},
		{"open object, nullable", `{"type":["object","null"]}`, `
GetItemResult: object{...Extra:any}?`},
		{"additionalProperties true", `{"type":"object","additionalProperties":true}`, `
GetItemResult: object{...Extra:any}`},
		{"additionalProperties {}", `{"type":"object","additionalProperties":{}}`, `
GetItemResult: object{...Extra:any}`},
		{"no properties", `{"type":"object","properties":{}}`, `
GetItemResult: object{...Extra:any}`},
		{"true by $ref", `{"$ref":"#/$defs/t","$defs":{"t":true}}`, `
GetItemResult: object{...Extra:any}`},
		{"properties and additionalProperties true", `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}`, `
GetItemResult: object{a:string, ...Extra:any}`},
		{"properties alone: a record", `{"type":"object","properties":{"a":{"type":"string"}}}`, `
GetItemResult: object{a:string}`},
		{"required without properties", `{"type":"object","required":["id"]}`, `
GetItemResult: object{id(ID):any req, ...Extra:any}`},
		{"patternProperties among the open members", `{"type":"object","patternProperties":{"^n":{"type":"integer"}}}`, `
GetItemResult: object{...Extra:any} delegated{"patternProperties":{"^n":{"type":"integer"}}}`},
		{"open object below the root: a map, or a record that keeps its other members", `{"type":"object","properties":{"o":{"type":"object"},"p":{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":true}}}`, `
GetItemResult: object{o:map<any>, p:GetItemResultP}
GetItemResultP: object{a:string, ...Extra:any}`},
		{"oneOf with an open branch", `{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object"}]}`, `
GetItemResult: oneOf<order>(GetItemResultOption1 | map<any>)
GetItemResultOption1: object{a:string}`},
		{"anyOf with a typed open branch", `{"anyOf":[{"type":"object","properties":{"a":{"type":"string"}}},{"type":"object","additionalProperties":{"type":"integer"}}]}`, `
GetItemResult: anyOf<order>(GetItemResultOption1 | map<int>)
GetItemResultOption1: object{a:string}`},
		{"open branch by $ref", `{"anyOf":[{"$ref":"#/$defs/Open"},{"type":"object","properties":{"a":{"type":"string"}}}],"$defs":{"Open":{"type":"object"}}}`, `
GetItemResult: anyOf<order>(map<any> | GetItemResultOption2)
GetItemResultOption2: object{a:string}`},
		{"nested union of a $ref", `{"anyOf":[{"anyOf":[{"$ref":"#/$defs/B"}]},{"type":"object"}],"$defs":{"B":{"type":"object","properties":{"b":{"type":"string"}}}}}`, `
GetItemResult: anyOf<order>(B | map<any>)
B: object{b:string}`},
		{"open object in a property", `{"type":"object","properties":{"o":{"oneOf":[{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},{"type":"object"}]}}}`, `
GetItemResult: object{o:GetItemResultO}
GetItemResultO: oneOf<order>(GetItemResultOOption1 | map<any>)
GetItemResultOOption1: object{a:string req}`},
	}
	results := func(fam *ir.Family) string {
		var b strings.Builder
		for _, t := range fam.Types {
			if t != fam.Tools[0].Params {
				fmt.Fprintf(&b, "%s: %s\n", t.GoName, dumpType(t, true))
			}
		}
		return b.String()
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := manifest.Load("toolgen.yaml", []byte("ops:\n  item.get:\n    result_schema: "+c.result+"\n"))
			if err != nil {
				t.Fatal(err)
			}
			fam, err := BuildFamily(tools, BuildOptions{Package: "p"}, m)
			if err != nil {
				t.Fatalf("result_schema: %v", err)
			}
			if got := results(fam); strings.TrimSpace(got) != strings.TrimSpace(c.want) {
				t.Errorf("result_schema:\n%s\nwant:\n%s", got, c.want)
			}
			mcp := []load.Input{{Name: "mcp.json", Data: `{"tools":[{"name":"get_item","inputSchema":{"type":"object"},"outputSchema":` + c.result + `}]}`}}
			if fam, err = BuildFamily(mcp, BuildOptions{Package: "p"}, nil); err != nil {
				t.Fatalf("outputSchema: %v", err)
			}
			if got := results(fam); strings.TrimSpace(got) != strings.TrimSpace(c.want) {
				t.Errorf("outputSchema:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

// The result schemas of a run with other errors are compiled with the
// inputs, as in a run without: each error of theirs once (also in a union's
// branch), none for a $ref into an input's $defs, also for an op no tool
// maps to. (The manifest's errors come after the inputs' here; the CLI
// puts them first.)
func TestBuildFamilyResultErrorsWithOthers(t *testing.T) {
	chat := `[{"type":"function","function":{"name":"get_x","description":"Get x","parameters":{"type":"object","properties":{"a":{"type":"string","minLength":-1}}}}}]`
	defs := `{"tools":[],"$defs":{"R":{"type":"object","properties":{"v":{"type":"string"}}}}}`
	const minLength = `tools.json:1:147: /0/function/parameters/properties/a/minLength: minLength must be a non-negative integer`
	cases := []struct {
		name, manifest string
		want           []string
	}{
		{"a $ref into an input", "ops:\n  x.get:\n    result_schema: {$ref: \"defs.json#/$defs/R\"}\n", []string{minLength}},
		{"a union branch of an unknown type", "ops:\n  x.get:\n    result_schema: {anyOf: [{type: objekt}, {type: object, properties: {a: {type: string}}}]}\n", []string{
			minLength, `toolgen.yaml:3:36: /ops/x.get/result_schema/anyOf/0/type: unknown type "objekt"`}},
		{"no tool maps to the op", "ops:\n  y.get:\n    result_schema: {type: object, properties: {n: {type: strin}}}\n", []string{minLength,
			`toolgen.yaml:2:3: /ops/y.get: no tool maps to op "y.get"; did you mean "x.get"?`,
			`toolgen.yaml:3:58: /ops/y.get/result_schema/properties/n/type: unknown type "strin"`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := manifest.Load("toolgen.yaml", []byte(c.manifest))
			if err != nil {
				t.Fatal(err)
			}
			_, err = BuildFamily([]load.Input{{Name: "tools.json", Data: chat}, {Name: "defs.json", Data: defs}}, BuildOptions{Package: "p"}, m)
			if got := strings.Split(errString(err), "\n"); !reflect.DeepEqual(got, c.want) {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// The compile hands the taxonomy the schemas it parsed instead of having
// them parsed again from JSON: the ops, their summaries and the registry
// version are what Derive makes from the JSON alone.
func TestBuildFamilyParsedSchemas(t *testing.T) {
	var inputs []load.Input
	files, _ := filepath.Glob("../examples/*/tools/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, load.Input{Name: f, Data: string(data)})
	}
	inputs = append(inputs, load.Input{Name: "odd.json", Data: `[{"type":"function","function":{"name":"send_odd","description":"Send \u00e9 \"quoted\" text.","parameters":{"type":"object","required":["n","s"],"properties":{"n":{"type":"number","default":1.50e+3,"maximum":1e400},"s":{"type":"string","description":"A \u2028 line; then more.","enum":["a\u0000b","\ud83d\ude00"]},"o":{"type":"object","required":["x"],"properties":{"x":{"type":"integer","default":-0}}},"bad":{"type":"integer","default":"ten"}}}}}]`})
	if len(inputs) < 2 {
		t.Skip("no example tools")
	}
	fam, err := BuildFamily(inputs, BuildOptions{Package: "p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Path, Usage, Args string
		Arguments         []ir.Arg
		Examples          []ir.Example
	}
	summaries := func() []summary {
		var out []summary
		for _, op := range fam.Ops {
			out = append(out, summary{op.Path, op.Usage, op.Args, op.Arguments, op.Examples})
		}
		return out
	}
	got, version := summaries(), fam.RegistryVersion
	if err := taxonomy.Derive(fam, nil); err != nil {
		t.Fatal(err)
	}
	if want := summaries(); !reflect.DeepEqual(got, want) {
		t.Errorf("ops from the parsed schemas differ from those parsed from JSON:\n got %+v\nwant %+v", got, want)
	}
	if version != fam.RegistryVersion {
		t.Errorf("registry version %s, from JSON %s", version, fam.RegistryVersion)
	}
}

// TestUsageAppliedDefaults: the usage line and argument summaries show
// only the defaults the compile applies; one it refused ("not applied")
// is not advertised, whether the taxonomy ran alongside the compile
// (BuildFamily) or after it (Derive), and the registry version is the
// same both ways.
func TestUsageAppliedDefaults(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: `[{"type":"function","function":{"name":"list_items","parameters":{"type":"object","properties":{
		"limit":{"type":"integer","default":"ten","minimum":1},
		"size":{"type":"integer","default":0,"minimum":1},
		"mode":{"type":"string","enum":["a","b"],"default":"c"},
		"page":{"type":"integer","default":2,"minimum":1},
		"ref":{"$ref":"#/$defs/s"}
	},"$defs":{"s":{"type":"string","enum":["x|y","z)"]}}}}}]`}}
	fam, err := BuildFamily(tools, BuildOptions{Package: "p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `item.list [limit:integer] [size:integer] [mode:enum(a|b)] [page:integer=2] [ref:enum("x|y"|"z)")]`
	if got := fam.Ops[0].Usage; got != want {
		t.Errorf("usage\n got %s\nwant %s", got, want)
	}
	for _, a := range fam.Ops[0].Arguments {
		if a.Default != "" && a.Name != "page" {
			t.Errorf("argument %s advertises default %s, which is not applied", a.Name, a.Default)
		}
	}
	if got := taxonomy.OpArgs(fam.Tools[0]); got[0].Default != "" || got[3].Default != "2" {
		t.Errorf("OpArgs: %+v", got)
	}
	version := fam.RegistryVersion
	if err := taxonomy.Derive(fam, nil); err != nil {
		t.Fatal(err)
	}
	if got := fam.Ops[0].Usage; got != want || fam.RegistryVersion != version {
		t.Errorf("Derive after the build: usage %s, version %s (BuildFamily: %s)", got, fam.RegistryVersion, version)
	}
}

// Warnings come in the order of their places, whatever phase found them:
// the taxonomy's (line 1) before the compile's (line 3), though the
// compile's are made first.
func TestBuildFamilyWarningsInOrder(t *testing.T) {
	src := `[{"type":"function","function":{"name":"setup_alerts","description":"Set up alerts.","parameters":{"type":"object"}}},
{"type":"function","function":{"name":"setupAlerts","description":"Set up alerts.","parameters":{"type":"object"}}},
{"type":"function","function":{"name":"get_count","description":"Get a count.","parameters":{"type":"object","properties":{"n":{"type":"integer","minimum":1e30}}}}}]`
	fam, err := BuildFamily([]load.Input{{Name: "tools.json", Data: src}}, BuildOptions{Package: "p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, w := range fam.Warnings {
		if w.Pos.File != "" {
			lines = append(lines, w.Pos.Line)
		}
	}
	if !reflect.DeepEqual(lines, []int{1, 3}) {
		t.Errorf("warnings at lines %v, want [1 3]: %v", lines, fam.Warnings)
	}
}
