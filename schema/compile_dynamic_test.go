package schema

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

const dynamicList = `{
	"$id": "https://x.test/strings",
	"type": "object",
	"properties": {"list": {"$ref": "list"}},
	"$defs": {
		"s": {"$dynamicAnchor": "item", "type": "string"},
		"list": {
			"$id": "list", "type": "array",
			"items": {"$dynamicRef": "#item"},
			"$defs": {"item": {"$dynamicAnchor": "item", "type": "integer"}}
		}
	}
}`

func TestCompileDynamicRef(t *testing.T) {
	root, err := jsonpos.Parse("s.json", []byte(dynamicList))
	if err != nil {
		t.Fatal(err)
	}
	ty, _, err := CompileSchema("s.json", root, SchemaOptions{Name: "Check"})
	if err != nil {
		t.Fatal(err)
	}
	// The items resolve by dynamic scope: not checked in Go, and the root
	// delegates to the document as written.
	if got := dumpType(ty, true); !strings.Contains(got, "list:[]any") {
		t.Errorf("type: %s", got)
	}
	if string(ty.Delegated) != `{"$ref":"https://x.test/strings#"}` {
		t.Errorf("Delegated = %s", ty.Delegated)
	}
	if len(ty.Resources) != 1 || string(ty.Resources["https://x.test/strings"]) != string(root.JSON()) {
		t.Errorf("Resources = %v", ty.Resources)
	}

	// Without a second anchor the reference is static.
	static := strings.Replace(dynamicList, `"s": {"$dynamicAnchor": "item", "type": "string"}`, `"s": {"type": "string"}`, 1)
	root, err = jsonpos.Parse("s.json", []byte(static))
	if err != nil {
		t.Fatal(err)
	}
	ty, _, err = CompileSchema("s.json", root, SchemaOptions{Name: "Check"})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpType(ty, true); !strings.Contains(got, "list:[]int") || ty.Resources != nil {
		t.Errorf("static: %s, Resources %v", got, ty.Resources)
	}
}

// TestCompileDynamicRefShared: a root that is also a reference target is
// copied, so the recursive occurrences are not checked from the root.
func TestCompileDynamicRefShared(t *testing.T) {
	src := `{
		"$id": "https://x.test/tree", "$dynamicAnchor": "node", "type": "object",
		"properties": {"kids": {"type": "array", "items": {"$ref": "#"}}, "ext": {"$ref": "ext"}},
		"$defs": {"ext": {"$id": "ext", "$dynamicAnchor": "node", "properties": {"x": {"$dynamicRef": "#node"}}}}
	}`
	root, err := jsonpos.Parse("t.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ty, fam, err := CompileSchema("t.json", root, SchemaOptions{Name: "Tree"})
	if err != nil {
		t.Fatal(err)
	}
	if ty.Resources == nil {
		t.Fatal("root does not delegate to its document")
	}
	var kids *ir.Type
	for _, f := range ty.Fields {
		if f.JSONName == "kids" {
			kids = f.Type.Elem
		}
	}
	if kids == nil || kids == ty || kids.Resources != nil || kids.GoName == ty.GoName {
		t.Errorf("kids items %+v share the root %s", kids, ty.GoName)
	}
	if len(fam.Types) < 2 {
		t.Errorf("types: %s", dumpFamily(fam))
	}
}

func TestCompileSchemaResources(t *testing.T) {
	remote, err := jsonpos.Parse("remote.json", []byte(`{"$defs":{"n":{"type":"integer","minimum":3}}}`))
	if err != nil {
		t.Fatal(err)
	}
	root, err := jsonpos.Parse("s.json", []byte(`{"$ref":"http://r.test/remote.json#/$defs/n"}`))
	if err != nil {
		t.Fatal(err)
	}
	ty, _, err := CompileSchema("s.json", root, SchemaOptions{Resources: map[string]*jsonpos.Node{"http://r.test/remote.json": remote}})
	if err != nil {
		t.Fatal(err)
	}
	if got := dumpType(ty, true); got != "int [min=3]" {
		t.Errorf("got %s", got)
	}
}
