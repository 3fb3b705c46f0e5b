package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestTinyNumberConstAndEnum: a const or enum member nonzero but nearer
// zero than every float64 (1e-400) parses as 0, and 0 must not pass it:
// no float64 stands for it, so an argument of 0 is refused; the other
// members still pass.
func TestTinyNumberConstAndEnum(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"set_eps","description":"d","parameters":{"type":"object","properties":{
		"c":{"type":"number","const":1e-400},
		"e":{"type":"number","enum":[1e-400,2]}}}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "tiny_test.go", []byte(`package generated

import "testing"

func TestTiny(t *testing.T) {
	for _, args := range []string{`+"`"+`{"c":0}`+"`"+`, `+"`"+`{"e":0}`+"`"+`, `+"`"+`{"e":-0.0}`+"`"+`} {
		if _, err := DecodeArgs("set_eps", []byte(args)); err == nil {
			t.Errorf("%s passed", args)
		}
	}
	if _, err := DecodeArgs("set_eps", []byte(`+"`"+`{"e":2}`+"`"+`)); err != nil {
		t.Errorf("{\"e\":2}: %v", err)
	}
}
`))
}
