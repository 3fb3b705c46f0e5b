package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestRequiredUndeclared: a property required but not declared is judged
// by additionalProperties: its schema when it has one, and false refuses
// it, so no call passes (the compile warns), as a JSON Schema validator
// judges it; without additionalProperties any value passes.
func TestRequiredUndeclared(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"closed","description":"d","parameters":{"type":"object",
		"properties":{"a":{"type":"object"}},"required":["a","zz"],"additionalProperties":false}}},
	{"type":"function","function":{"name":"typed","description":"d","parameters":{"type":"object",
		"required":["zz"],"additionalProperties":{"type":"integer"}}}},
	{"type":"function","function":{"name":"open","description":"d","parameters":{"type":"object","required":["zz"]}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, w := range fam.Warnings {
		warned = warned || w.Pos.Pointer == "/0/function/parameters/required/1"
	}
	if !warned {
		t.Errorf("no warning at the required name: %v", fam.Warnings)
	}
	testGenerated(t, fam, "undeclared_test.go", []byte(`package generated

import "testing"

func TestUndeclared(t *testing.T) {
	for _, c := range []struct {
		tool, args string
		ok         bool
	}{
		{"closed", `+"`"+`{"a":{},"zz":1}`+"`"+`, false},
		{"closed", `+"`"+`{"a":{}}`+"`"+`, false},
		{"typed", `+"`"+`{"zz":1}`+"`"+`, true},
		{"typed", `+"`"+`{"zz":"s"}`+"`"+`, false},
		{"open", `+"`"+`{"zz":"s"}`+"`"+`, true},
		{"open", `+"`"+`{}`+"`"+`, false},
	} {
		if _, err := DecodeArgs(c.tool, []byte(c.args)); (err == nil) != c.ok {
			t.Errorf("%s %s: %v, want ok %v", c.tool, c.args, err, c.ok)
		}
	}
}
`))
}
