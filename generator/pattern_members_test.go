package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// patternMembersTools declare properties beside patternProperties: with
// additionalProperties false, with a typed additionalProperties, and
// without it; at the root and below.
const patternMembersTools = `[
	{"name":"closed","description":"d","input_schema":{"type":"object","properties":{"a":{"type":"string"}},
		"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":false}},
	{"name":"typed","description":"d","input_schema":{"type":"object","properties":{"a":{"type":"string"}},
		"patternProperties":{"^x-":{"type":"string"}},"additionalProperties":{"type":"integer"}}},
	{"name":"nested","description":"d","input_schema":{"type":"object","properties":{
		"o":{"type":"object","properties":{"a":{"type":"string"}},"patternProperties":{"^x-":{"type":"string"}}}}}}
]`

// TestPatternMembersKept runs real JSON through the package of
// patternMembersTools: the members a pattern matches reach the params
// (and encode back), and the schema's verdicts hold. They had been
// checked and dropped: {"a":"1","x-k":"v"} reached the handler as
// {"a":"1"}.
func TestPatternMembersKept(t *testing.T) {
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: patternMembersTools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "pattern_members_test.go", []byte(`package generated

import (
	"encoding/json"
	"testing"
)

func TestPatternMembers(t *testing.T) {
	for _, c := range []struct {
		tool, args string
		ok         bool
	}{
		{"closed", `+"`"+`{"a":"1","x-k":"v"}`+"`"+`, true},
		{"closed", `+"`"+`{"a":"1","y":"v"}`+"`"+`, false},
		{"closed", `+"`"+`{"x-k":1}`+"`"+`, false},
		{"typed", `+"`"+`{"a":"1","x-k":"v","y":2}`+"`"+`, true},
		{"typed", `+"`"+`{"y":"s"}`+"`"+`, false},
		{"typed", `+"`"+`{"x-k":2}`+"`"+`, false},
		{"nested", `+"`"+`{"o":{"a":"1","x-k":"v"}}`+"`"+`, true},
		{"nested", `+"`"+`{"o":{"x-k":1}}`+"`"+`, false},
	} {
		p, err := DecodeArgs(c.tool, []byte(c.args))
		if (err == nil) != c.ok {
			t.Errorf("%s %s: error %v, want ok %v", c.tool, c.args, err, c.ok)
			continue
		}
		if err != nil {
			continue
		}
		var got, want any
		out, _ := json.Marshal(p)
		_ = json.Unmarshal(out, &got)
		_ = json.Unmarshal([]byte(c.args), &want)
		if gs, ws := mustJSON(got), mustJSON(want); gs != ws {
			t.Errorf("%s %s: params encode as %s", c.tool, c.args, out)
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
`))
}
