package schema

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestServedSchemasAreSelfContained: a tool's schema is sent to the model
// (and to clients) alone, so every $ref in it must resolve within it. A
// $ref to another file, to the file's top-level $defs, to a schema by $id
// or into another tool was served as written and reached nothing there.
// Each served schema is checked on its own: every $ref is a local pointer
// that resolves, and the embedded validator, given the schema alone (it
// loads nothing), judges the instances as the definitions mean them.
func TestServedSchemasAreSelfContained(t *testing.T) {
	shared := `{"tools":[],"$defs":{
		"Person":{"type":"object","properties":{"name":{"type":"string"},"boss":{"$ref":"#/$defs/Person"},"tags":{"$ref":"#/definitions/Tags"}},"required":["name"]},
		"Money":{"$id":"https://example.com/money","type":"object","properties":{"cur":{"$ref":"#/$defs/cur"},"n":{"type":"integer"}},"required":["cur"],"$defs":{"cur":{"enum":["EUR","USD"]}}},
		"X":{"type":"integer","minimum":10},
		"D":{"$dynamicAnchor":"n","type":"integer"},
		"D7":{"$id":"https://example.com/d7","$schema":"http://json-schema.org/draft-07/schema#","definitions":{"I":{"type":"integer"}},"type":"object",
			"properties":{"r":{"$ref":"#/definitions/I","type":"string"},"t":{"type":"array","items":[{"type":"integer"}],"additionalItems":false},"d":{"dependencies":{"a":["b"],"c":{"required":["e"]}}}}},
		"R20":{"$ref":"#/$defs/X","maximum":20},
		"P20":{"type":"array","prefixItems":[{"type":"integer"}],"items":false},
		"DR":{"dependentRequired":{"a":["b"]},"dependentSchemas":{"c":{"required":["e"]}}}},
		"definitions":{"Tags":{"type":"array","items":{"type":"string","maxLength":3}}}}`
	for _, c := range []struct {
		name, tools string
		tool        int // which tool's schema is checked
		output      bool
		valid       []string
		invalid     []string
		contains    string // in the served schema
	}{
		{
			name:    "another file, recursive, via its definitions",
			tools:   `[{"name":"t","inputSchema":{"type":"object","properties":{"p":{"$ref":"shared.json#/$defs/Person"}}}}]`,
			valid:   []string{`{"p":{"name":"a","boss":{"name":"b","tags":["x"]}}}`, `{}`},
			invalid: []string{`{"p":{"boss":{"name":"b"}}}`, `{"p":{"name":"a","boss":{"name":"b","tags":["long"]}}}`},
		},
		{
			name:    "a schema by $id, whose own $refs are relative to it",
			tools:   `[{"name":"t","inputSchema":{"type":"object","properties":{"m":{"$ref":"https://example.com/money"}}}}]`,
			valid:   []string{`{"m":{"cur":"EUR","n":3}}`},
			invalid: []string{`{"m":{"cur":"GBP"}}`, `{"m":{"n":3}}`},
		},
		{
			name:     "the file's own top-level $defs, by the file's name",
			tools:    `{"$defs":{"Y":{"type":"string","pattern":"^y"}},"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"y":{"$ref":"tools.json#/$defs/Y"}}}}]}`,
			valid:    []string{`{"y":"yes"}`},
			invalid:  []string{`{"y":"no"}`},
			contains: `"y":{"$ref":"#/$defs/Y"}`,
		},
		{
			name:    "into another tool's schema",
			tools:   `[{"name":"a","inputSchema":{"type":"object","properties":{"q":{"type":"string","minLength":2}}}},{"name":"b","inputSchema":{"type":"object","properties":{"q":{"$ref":"tools.json#/0/inputSchema/properties/q"}}}}]`,
			tool:    1,
			valid:   []string{`{"q":"ab"}`},
			invalid: []string{`{"q":"a"}`},
		},
		{
			name:     "a key the schema's own $defs has already",
			tools:    `[{"name":"t","inputSchema":{"type":"object","$defs":{"X":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/X"},"b":{"$ref":"shared.json#/$defs/X"}}}}]`,
			valid:    []string{`{"a":"s","b":12}`},
			invalid:  []string{`{"a":1}`, `{"b":"s"}`, `{"b":9}`},
			contains: `"a":{"$ref":"#/$defs/X"},"b":{"$ref":"#/$defs/X_2"}`,
		},
		{
			name:     "a draft-07 schema keeps its copies under definitions",
			tools:    `[{"name":"t","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"b":{"$ref":"shared.json#/$defs/X"}}}}]`,
			valid:    []string{`{"b":12}`},
			invalid:  []string{`{"b":1}`},
			contains: `"definitions":{"X":`,
		},
		{
			// Copied as written, a draft-07 schema was read as 2020-12:
			// the siblings of its $ref applied, its items array and
			// dependencies were ignored.
			name:    "a draft-07 schema into a 2020-12 one",
			tools:   `[{"name":"t","inputSchema":{"type":"object","properties":{"x":{"$ref":"https://example.com/d7"}}}}]`,
			valid:   []string{`{"x":{"r":1,"t":[1],"d":{"a":1,"b":2,"c":1,"e":1}}}`},
			invalid: []string{`{"x":{"r":"s"}}`, `{"x":{"t":[1,2]}}`, `{"x":{"t":["s"]}}`, `{"x":{"d":{"a":1}}}`, `{"x":{"d":{"c":1}}}`},
		},
		{
			// And the other way: a $ref beside other keywords was read
			// alone, prefixItems and dependentRequired were ignored.
			name:    "2020-12 schemas into a draft-07 one",
			tools:   `[{"name":"t","inputSchema":{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"r":{"$ref":"shared.json#/$defs/R20"},"p":{"$ref":"shared.json#/$defs/P20"},"d":{"$ref":"shared.json#/$defs/DR"}}}}]`,
			valid:   []string{`{"r":15,"p":[1],"d":{"a":1,"b":1,"c":1,"e":1}}`},
			invalid: []string{`{"r":25}`, `{"r":5}`, `{"p":[1,2]}`, `{"p":["s"]}`, `{"d":{"a":1}}`, `{"d":{"c":1}}`},
		},
		{
			name:     "an output schema",
			tools:    `[{"name":"t","inputSchema":{"type":"object"},"outputSchema":{"type":"object","properties":{"m":{"$ref":"shared.json#/$defs/Money"}}}}]`,
			output:   true,
			valid:    []string{`{"m":{"cur":"USD"}}`},
			invalid:  []string{`{"m":{"cur":"GBP"}}`},
			contains: `"$defs":{"Money":`,
		},
		{
			// The copy joins the served schema's resource, which
			// declares the anchor already: declared twice, the served
			// schema did not compile.
			name:    "a copy's $dynamicAnchor the schema declares already",
			tools:   `[{"name":"t","inputSchema":{"type":"object","$dynamicAnchor":"n","properties":{"d":{"$ref":"shared.json#/$defs/D"}}}}]`,
			valid:   []string{`{"d":1}`},
			invalid: []string{`{"d":"s"}`},
		},
		{
			// Served as written, it reached nothing.
			name:     "a $dynamicRef to another file",
			tools:    `[{"name":"t","inputSchema":{"type":"object","properties":{"d":{"$dynamicRef":"shared.json#/$defs/X"}}}}]`,
			valid:    []string{`{"d":12}`},
			invalid:  []string{`{"d":1}`},
			contains: `"d":{"$dynamicRef":"#/$defs/X"}`,
		},
		{
			name:     "local references are served as written",
			tools:    `[{"name":"t","inputSchema":{"type":"object","$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}},"properties":{"n":{"$ref":"#/$defs/N"},"self":{"$ref":"#"}}}}]`,
			valid:    []string{`{"n":{"next":{}},"self":{"self":{}}}`},
			invalid:  []string{`{"n":{"next":1}}`},
			contains: `{"type":"object","$defs":{"N":{"type":"object","properties":{"next":{"$ref":"#/$defs/N"}}}},"properties":{"n":{"$ref":"#/$defs/N"},"self":{"$ref":"#"}}}`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := load.Tools([]load.Input{{Name: "dir/tools.json", Data: c.tools}, {Name: "dir/shared.json", Data: shared}}, load.Options{})
			if err != nil {
				t.Fatal(err)
			}
			fam, err := Compile(doc, CompileOptions{Package: "p"})
			if err != nil {
				t.Fatal(err)
			}
			served := string(fam.Tools[c.tool].ParamsSchema)
			if c.output {
				served = string(fam.Tools[c.tool].ResultSchema)
			}
			if c.contains != "" && !strings.Contains(served, c.contains) {
				t.Errorf("served %s\nwant it to hold %s", served, c.contains)
			}
			root, perr := jsonpos.Parse("served.json", []byte(served))
			if perr != nil {
				t.Fatal(perr)
			}
			eachRef(root, func(ref string) {
				if !strings.HasPrefix(ref, "#") || root.Pointer(strings.TrimPrefix(ref, "#")) == nil {
					t.Errorf("served $ref %q does not resolve within %s", ref, served)
				}
			})
			s, cerr := check.CompileSchema(served)
			if cerr != nil {
				t.Fatalf("the served schema does not compile alone: %v\n%s", cerr, served)
			}
			for _, v := range c.valid {
				if errs := s.Validate(instance(t, v), ""); len(errs) > 0 {
					t.Errorf("%s refused: %v\n(served %s)", v, errs, served)
				}
			}
			for _, v := range c.invalid {
				if errs := s.Validate(instance(t, v), ""); len(errs) == 0 {
					t.Errorf("%s accepted\n(served %s)", v, served)
				}
			}
		})
	}
}

// TestServedCopiesAreBounded: what $refs reach outside a tool's schema is
// copied into each tool, so a large shared schema that many tools reach
// multiplies; past the output limit it is a located error, before any
// copy is written.
func TestServedCopiesAreBounded(t *testing.T) {
	big := `{"tools":[],"$defs":{"Big":{"type":"object","description":"` + strings.Repeat("x", 4000) + `"}}}`
	var tools []string
	for range 20 {
		tools = append(tools, `{"name":"t`+string(rune('a'+len(tools)))+`","inputSchema":{"type":"object","properties":{"b":{"$ref":"shared.json#/$defs/Big"}}}}`)
	}
	doc, err := load.Tools([]load.Input{{Name: "tools.json", Data: "[" + strings.Join(tools, ",") + "]"}, {Name: "shared.json", Data: big}}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(doc, CompileOptions{Package: "p", Limits: limits.Limits{OutputBytes: 40000}})
	if err == nil || !strings.Contains(err.Error(), "max_output_bytes") || !strings.Contains(err.Error(), "tools.json:1:") {
		t.Fatalf("err = %v, want the output limit located at a $ref", err)
	}
	if _, err := Compile(doc, CompileOptions{Package: "p", Limits: limits.Limits{OutputBytes: 200000}}); err != nil {
		t.Fatalf("within the limit: %v", err)
	}
}

// TestServedRefGrowthIsBounded: a $ref is rewritten to a pointer, which
// may be far longer than the $ref written (an anchor naming a schema under
// a long property name), in each of many copies: 160 KB of definitions
// served 200 MB. The growth is charged against the output limit.
func TestServedRefGrowthIsBounded(t *testing.T) {
	key := strings.Repeat("k", 10000)
	tools := `[{"name":"t","inputSchema":{"$id":"https://e.com/t","type":"object","properties":{"a":{"$ref":"file:///shared.json#/$defs/S"},"` + key + `":{"$anchor":"deep","type":"integer"}}}}]`
	refs := strings.Repeat(`{"$ref":"https://e.com/t#deep"},`, 100)
	shared := `{"tools":[],"$defs":{"S":{"allOf":[` + refs + `true]}}}`
	doc, err := load.Tools([]load.Input{{Name: "tools.json", Data: tools}, {Name: "shared.json", Data: shared}}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(doc, CompileOptions{Package: "p", Limits: limits.Limits{OutputBytes: 200000}})
	if err == nil || !strings.Contains(err.Error(), "max_output_bytes") || !strings.Contains(err.Error(), "shared.json:1:") {
		t.Fatalf("err = %v, want the output limit located at a $ref", err)
	}
	fam, err := Compile(doc, CompileOptions{Package: "p", Limits: limits.Limits{OutputBytes: 2000000}})
	if err != nil {
		t.Fatalf("within the limit: %v", err)
	}
	if n := len(fam.Tools[0].ParamsSchema); n < 1000000 {
		t.Fatalf("served %d bytes, want the pointers in full", n)
	}
}

// TestFileDefsHint: "#/$defs/X" in a tool's schema is that schema's own
// $defs; when the file's top level has X instead, the error says how to
// reach it.
func TestFileDefsHint(t *testing.T) {
	doc, err := load.Tools([]load.Input{{Name: "dir/tools.json", Data: `{"$defs":{"X":{"type":"string"}},"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"x":{"$ref":"#/$defs/X"}}}}]}`}}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compile(doc, CompileOptions{Package: "p"})
	if err == nil || !strings.Contains(err.Error(), `write "tools.json#/$defs/X"`) || !strings.Contains(err.Error(), "dir/tools.json:1:") {
		t.Fatalf("err = %v", err)
	}
}

// eachRef calls f with every $ref of a parsed document.
func eachRef(n *jsonpos.Node, f func(string)) {
	switch n.Kind {
	case jsonpos.ObjectNode:
		for _, m := range n.Members {
			if m.Key == "$ref" && m.Value.Kind == jsonpos.StringNode {
				f(m.Value.Str)
			}
			eachRef(m.Value, f)
		}
	case jsonpos.ArrayNode:
		for _, it := range n.Items {
			eachRef(it, f)
		}
	}
}

func instance(t *testing.T, s string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// BenchmarkServedKeysAlike: 2,000 $refs to schemas of one name (the last
// pointer token, X) each take a key X_n; each new key tried every suffix
// from 2 again (20,000 of them took 2.5 minutes).
func BenchmarkServedKeysAlike(b *testing.B) {
	var defs, props []string
	for i := range 2000 {
		defs = append(defs, fmt.Sprintf(`"d%d":{"properties":{"X":{"minimum":%d}}}`, i, i))
		props = append(props, fmt.Sprintf(`"p%d":{"$ref":"shared.json#/$defs/d%d/properties/X"}`, i, i))
	}
	tools := `[{"name":"t","inputSchema":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}]`
	shared := `{"tools":[],"$defs":{` + strings.Join(defs, ",") + `}}`
	doc, err := load.Tools([]load.Input{{Name: "tools.json", Data: tools}, {Name: "shared.json", Data: shared}}, load.Options{})
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		c := newCompiler()
		for i, root := range doc.Roots {
			c.addFile(doc.Sources[i], root)
		}
		p := doc.Tools[0].Params
		c.index(p, refFileURI(p.Pos.File), 2020)
		c.bundle(p)
	}
}
