package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestNamesTakenByTools: a tool's params and result type names are taken
// before any nested type's or enum constant's, whether or not the tool has
// an output schema: a property named result, an enum value that spells
// another tool's result type, and a property named params all give a
// package that compiles and decodes.
func TestNamesTakenByTools(t *testing.T) {
	const tools = `[
	{"type":"function","function":{"name":"get_x","description":"d","parameters":{"type":"object","properties":{
		"result":{"type":"string","enum":["pass","fail"]},"params":{"type":"object","properties":{"x":{"type":"string"}}}}}}},
	{"type":"function","function":{"name":"get_todo","description":"d","parameters":{"type":"object","properties":{"v":{"enum":["result"]}}}}},
	{"type":"function","function":{"name":"get_todo_v","description":"d","parameters":{"type":"object","properties":{}}}},
	{"type":"function","function":{"name":"get_x_params","description":"d","parameters":{"type":"object","properties":{}}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "names_test.go", []byte(`package generated

import "testing"

func TestDecode(t *testing.T) {
	p, err := DecodeArgs("get_x", []byte(`+"`"+`{"result":"pass","params":{"x":"a"}}`+"`"+`))
	if err != nil {
		t.Fatal(err)
	}
	if got := *p.(*GetXParams).Result; got != GetXResult2Pass {
		t.Errorf("result %q", got)
	}
	var _ GetXResult = []byte("{}") // the json.RawMessage alias keeps its name
	if _, err := DecodeArgs("get_x", []byte(`+"`"+`{"result":"maybe"}`+"`"+`)); err == nil {
		t.Error("an enum violation passed")
	}
}
`))
}
