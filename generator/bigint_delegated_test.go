package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestDelegatedBigIntegers: keywords handed to the embedded validator
// (not, if/then) judge an integer beyond 2^53 as sent, not as the nearest
// float64: not {minimum 9007199254740993} refuses 9007199254740993 and
// accepts 9007199254740992, which float64 cannot tell apart.
func TestDelegatedBigIntegers(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"put_n","description":"d","parameters":{"type":"object","properties":{
		"n":{"type":"integer","not":{"minimum":9007199254740993}}}}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "bigint_test.go", []byte(`package generated

import "testing"

func TestBig(t *testing.T) {
	if _, err := DecodeArgs("put_n", []byte(`+"`"+`{"n":9007199254740993}`+"`"+`)); err == nil {
		t.Error("9007199254740993 passed not {minimum 9007199254740993}")
	}
	for _, ok := range []string{`+"`"+`{"n":9007199254740992}`+"`"+`, `+"`"+`{"n":-9223372036854775808}`+"`"+`, `+"`"+`{"n":3}`+"`"+`} {
		if _, err := DecodeArgs("put_n", []byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}
`))
}
