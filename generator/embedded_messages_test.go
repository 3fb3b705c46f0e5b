package generator

import (
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// embeddedMessageTools delegate keywords to the embedded validator
// (runtime/check.Schema): patternProperties beside additionalProperties
// false, not, a oneOf of required lists, unevaluatedProperties.
const embeddedMessageTools = `[
{"name":"get","description":"d","input_schema":{"type":"object","properties":{
	"pp":{"type":"object","patternProperties":{"^x":{"type":"integer"}},"additionalProperties":false},
	"nt":{"not":{"type":"string"}},
	"ex":{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"oneOf":[{"required":["a"]},{"required":["b"]}]},
	"ue":{"type":"object","properties":{"inner":{"type":"object"}},"unevaluatedProperties":false}}}}
]`

// TestEmbeddedMessagesBehave: what the embedded validator finds reads as
// what the decoder and the generated validators say of the same
// violation, at the offending member, through DecodeArgs.
func TestEmbeddedMessagesBehave(t *testing.T) {
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: embeddedMessageTools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "embedded_test.go", []byte(embeddedMessageBehaviour))
}

const embeddedMessageBehaviour = `package generated

import (
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestEmbeddedMessages(t *testing.T) {
	tests := []struct{ args, want string }{
		{` + "`" + `{"pp":{"xa":"t","y":1}}` + "`" + `,
			` + "`" + `/pp/xa type expected integer, received string "t" [integer] "t"
/pp/y additionalProperties unknown property "y" [] ` + "`" + `},
		{` + "`" + `{"nt":"s"}` + "`" + `,
			` + "`" + `/nt not must not match the schema {"type":"string"} [not {"type":"string"}] "s"` + "`" + `},
		{` + "`" + `{"ex":{"a":1,"b":2}}` + "`" + `,
			` + "`" + `/ex oneOf matches more than one of: object with "a" and object with "b" [exactly one of: object with "a" or object with "b"] {"a":1,"b":2}` + "`" + `},
		{` + "`" + `{"ex":{}}` + "`" + `,
			` + "`" + `/ex oneOf matches none of: object with "a" or object with "b" [object with "a" or object with "b"] {}` + "`" + `},
		{` + "`" + `{"ue":{"innr":{}}}` + "`" + `,
			` + "`" + `/ue/innr unevaluatedProperties unknown property "innr" [] ` + "`" + `},
	}
	for _, tc := range tests {
		_, err := DecodeArgs("get", []byte(tc.args))
		var ve *runtime.ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: err = %v, want a *runtime.ValidationError", tc.args, err)
			continue
		}
		var got []string
		for _, f := range ve.Fields {
			got = append(got, f.Path+" "+f.Code+" "+f.Message+" ["+f.Expected+"] "+f.Received)
		}
		if g := strings.Join(got, "\n"); g != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.args, g, tc.want)
		}
		if tc.args == ` + "`" + `{"ue":{"innr":{}}}` + "`" + ` && ve.Fields[0].Suggestion != "inner" {
			t.Errorf("%s: suggestion %q, want \"inner\"", tc.args, ve.Fields[0].Suggestion)
		}
	}
}
`
