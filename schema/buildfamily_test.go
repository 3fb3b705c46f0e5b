package schema

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/load"

	"github.com/toolgen-go/toolgen/schema/manifest"
)

// A manifest result_schema becomes the tool's typed result, and an error
// in it is located in the manifest.
func TestBuildFamilyManifestResults(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: []byte(`[{"type":"function","function":{"name":"get_item","description":"Get an item.","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}]`)}}
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
