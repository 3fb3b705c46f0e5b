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

// TestDelegatedBigIntegersUntyped: a value of no declared type is read
// with float64 numbers for the handler (as encoding/json reads it), but
// its delegated keywords judge it as sent: at a property, under
// additionalProperties, as an anyOf's branch and inside a oneOf's object
// branch. The branch the value did not set is not judged by the value
// another branch read.
func TestDelegatedBigIntegersUntyped(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"put_n","description":"d","parameters":{"type":"object","properties":{
		"n":{"not":{"type":"integer","minimum":9007199254740993}},
		"m":{"type":"object","additionalProperties":{"not":{"minimum":9007199254740993}}},
		"u":{"anyOf":[{"type":"string"},{"not":{"minimum":9007199254740993}}]},
		"w":{"oneOf":[{"type":"object","properties":{"a":{"type":"integer"}},"required":["a"]},
			{"type":"object","properties":{"b":{"not":{"minimum":9007199254740993}}},"required":["b"]}]}}}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "bigint_test.go", []byte(`package generated

import "testing"

func TestBig(t *testing.T) {
	for _, bad := range []string{`+"`"+`{"n":9007199254740993}`+"`"+`, `+"`"+`{"m":{"z":9007199254740993}}`+"`"+`,
		`+"`"+`{"u":9007199254740993}`+"`"+`, `+"`"+`{"w":{"b":9007199254740993}}`+"`"+`} {
		if _, err := DecodeArgs("put_n", []byte(bad)); err == nil {
			t.Errorf("%s passed not {minimum 9007199254740993}", bad)
		}
	}
	for _, ok := range []string{`+"`"+`{"n":9007199254740992}`+"`"+`, `+"`"+`{"n":-9223372036854775808}`+"`"+`, `+"`"+`{"n":[1,{"x":9007199254740993}]}`+"`"+`,
		`+"`"+`{"m":{"z":9007199254740992}}`+"`"+`, `+"`"+`{"u":"s"}`+"`"+`, `+"`"+`{"u":9007199254740992}`+"`"+`,
		`+"`"+`{"w":{"a":9007199254740993}}`+"`"+`, `+"`"+`{"w":{"b":9007199254740992}}`+"`"+`} {
		if _, err := DecodeArgs("put_n", []byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	// Validate on a value built in Go judges what it holds.
	if err := (&PutNParams{N: int64(9007199254740993)}).Validate(); err == nil {
		t.Error("Validate passed int64 9007199254740993")
	}
	if err := (&PutNParams{N: 9007199254740993.0}).Validate(); err != nil {
		t.Errorf("Validate refused float64 9007199254740992: %v", err)
	}
}
`))
}
