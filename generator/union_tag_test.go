package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestUnionTagNotRequired: branches whose tag property is a distinct
// const tell a union apart only when every branch requires it. When one
// does not, a value without the tag is one of its values (it was refused
// as "missing required property kind"): the branches are tried in order.
func TestUnionTagNotRequired(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"put_u","description":"d","parameters":{"type":"object","properties":{
		"u":{"anyOf":[
			{"type":"object","properties":{"kind":{"const":"a"},"a":{"type":"string"}},"required":["kind","a"]},
			{"type":"object","properties":{"kind":{"const":"b"},"x":{"type":"integer"}},"required":["x"]}]}},
		"required":["u"]}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "tag_test.go", []byte(`package generated

import "testing"

func TestTag(t *testing.T) {
	for _, ok := range []string{`+"`"+`{"u":{"x":1}}`+"`"+`, `+"`"+`{"u":{"kind":"b","x":1}}`+"`"+`, `+"`"+`{"u":{"kind":"a","a":"s"}}`+"`"+`} {
		if _, err := DecodeArgs("put_u", []byte(ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{`+"`"+`{"u":{"kind":"c","x":1}}`+"`"+`, `+"`"+`{"u":{"kind":"a"}}`+"`"+`, `+"`"+`{"u":{}}`+"`"+`} {
		if _, err := DecodeArgs("put_u", []byte(bad)); err == nil {
			t.Errorf("%s passed", bad)
		}
	}
}
`))
}
