package schema

import (
	"os"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/load"
)

// FuzzCompileSchema feeds arbitrary JSON to CompileSchema and Compile: they
// may reject it with located errors but must never panic or loop.
func FuzzCompileSchema(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"type":"null"}]}}}`,
		`{"allOf":[{"$ref":"#"},{"type":"string"}]}`,
		`{"oneOf":[{"required":["a"]},{"required":["b"]}],"properties":{"a":{},"b":{}}}`,
		`{"items":[{"type":"string"}],"additionalItems":{"$ref":"#/items/0"}}`,
		`{"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"$ref":"#/$defs/a"}},"$ref":"#/$defs/a"}`,
		`{"type":["integer","string","null"],"enum":[1,"a",null],"default":2}`,
		`{"not":{"$ref":"#"},"unevaluatedProperties":false,"dependencies":{"a":["b"],"c":{"$ref":"#"}}}`,
		`{"patternProperties":{"^a":{"type":"integer"}},"properties":{"ab":{"minimum":1}},"required":["x"]}`,
		`{"$id":"http://a/b","$defs":{"c":{"$id":"c","$anchor":"x"}},"$ref":"c#x"}`,
		`{"$dynamicRef":"#meta","$dynamicAnchor":"meta","prefixItems":[true,false],"items":false}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		root, err := jsonpos.Parse("f.json", data)
		if err != nil {
			return
		}
		_, _, _ = CompileSchema("f.json", root, SchemaOptions{})
		if root.Kind == jsonpos.ObjectNode {
			doc := &load.Document{Sources: []string{"f.json"}, Roots: []*jsonpos.Node{root},
				Tools: []*load.ToolDef{{Name: "t", Params: root}, {Name: "u", Params: root, Output: root}}}
			_, _ = Compile(doc, CompileOptions{Package: "p"})
		}
	})
}

func BenchmarkCompileCorpus(b *testing.B) {
	dir := corpus.Dir(b)
	data, err := os.ReadFile(dir + "/tools/mcp_npm/ALL.tools.json")
	if err != nil {
		b.Skip(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		doc, err := load.Tools([]load.Input{{Name: "ALL.tools.json", Data: string(data)}}, load.Options{Lenient: true})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Compile(doc, CompileOptions{Package: "p"}); err != nil {
			b.Fatal(err)
		}
	}
}
