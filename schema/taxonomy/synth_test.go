package taxonomy

import (
	"strings"
	"testing"
)

// TestSynthesizedExamplesValidOrDropped: an example is kept unchecked
// only when the placeholders surely meet the schema; each of these was
// kept though the op's schema refuses it (or no call meets the schema).
// Kept, it must be valid.
func TestSynthesizedExamplesValidOrDropped(t *testing.T) {
	for _, c := range []struct{ name, prop string }{
		{"enum value other keywords refuse", `{"type":"string","enum":["a","bb"],"minLength":2}`},
		{"enum value of another type", `{"type":"string","enum":[1,"a"]}`},
		{"const of another type", `{"type":"string","const":5}`},
		{"anyOf branch bound the merge lost", `{"type":"integer","minimum":0,"anyOf":[{"minimum":5}]}`},
		{"anyOf branch type the merge lost", `{"type":["string","integer"],"anyOf":[{"type":"integer"}]}`},
		{"$ref siblings", `{"$ref":"#/$defs/S","maxLength":2}`},
		{"$ref siblings a hop away", `{"$ref":"#/$defs/S2"}`},
		{"$ref siblings in an anyOf branch", `{"anyOf":[{"$ref":"#/$defs/S","maxLength":2},{"type":"null"}]}`},
		{"integer minimum past 2^53", `{"type":"integer","minimum":9007199254740993}`},
		{"integer exclusiveMinimum 1e308", `{"type":"integer","exclusiveMinimum":1e308}`},
		{"number exclusiveMinimum 1e308", `{"type":"number","exclusiveMinimum":1e308}`},
		{"multipleOf near the largest float", `{"type":"number","minimum":1e308,"maximum":1.7976931348623157e308,"multipleOf":3}`},
		{"integer with a fractional multipleOf", `{"type":"integer","multipleOf":0.5,"minimum":1.2}`},
		{"decimal multipleOf", `{"type":"number","minimum":0.25,"maximum":0.35,"multipleOf":0.1}`},
		{"minLength past the padding", `{"type":"string","minLength":1000}`},
		{"minLength past 2^20", `{"type":"string","minLength":2000000}`},
		{"minItems past 2^20", `{"type":"array","minItems":2000000}`},
		{"format sample cut short", `{"type":"string","format":"email","maxLength":3}`},
		{"format sample padded", `{"type":"string","format":"date-time","minLength":24}`},
		{"format sample replaced by the pattern's", `{"type":"string","format":"ipv4","pattern":"^10\\."}`},
		{"pattern's string too long", `{"type":"string","pattern":"^(abcdefgh|a)$","maxLength":3}`},
		{"pattern's string too short", `{"type":"string","pattern":"^[a-z]$","minLength":2}`},
		{"lengths no string meets", `{"type":"string","minLength":5,"maxLength":4}`},
		{"minItems past eight", `{"type":"array","minItems":100000,"items":{"type":"integer"}}`},
		{"minItems past prefixItems", `{"type":"array","minItems":3,"prefixItems":[{"type":"integer"}],"items":false}`},
		{"minItems and maxItems 0", `{"type":"array","items":{"type":"integer"},"maxItems":0,"minItems":1}`},
		{"$ref cycle", `{"$ref":"#/$defs/A"}`},
		{"required members cut at the depth", `{"$ref":"#/$defs/R"}`},
		{"required member additionalProperties refuses", `{"type":"object","required":["x"],"additionalProperties":false}`},
		{"required member of the false schema", `{"type":"object","required":["x"],"properties":{"x":false}}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			params := summaryNode([]byte(`{"type":"object","properties":{"a":` + c.prop + `},"required":["a"],"$defs":{"S":{"type":"string"},"S2":{"$ref":"#/$defs/S","maxLength":2},"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"},"R":{"type":"object","properties":{"b":{"$ref":"#/$defs/R"}},"required":["b"]}}}`))
			ex, ok := synthesizeExample("x.y", params)
			if ok && !validExample(params, string(ex.Args)) {
				t.Errorf("kept %s, which the schema refuses", ex.Args)
			}
		})
	}
	// Draft 4's exclusiveMinimum is a boolean beside minimum.
	d4 := summaryNode([]byte(`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"type":"integer","minimum":1,"exclusiveMinimum":true}},"required":["a"]}`))
	if ex, ok := synthesizeExample("x.y", d4); ok && !validExample(d4, string(ex.Args)) {
		t.Errorf("draft 4: kept %s, which the schema refuses", ex.Args)
	}
	// What the synthesizer can meet it still meets, unchecked.
	for _, c := range []struct{ prop, want string }{
		{`{"type":"array","minItems":3,"prefixItems":[{"type":"integer"}]}`, `[1,"<a>","<a>"]`},
		{`{"type":"integer","multipleOf":0.5,"minimum":1.2}`, `2`},
		{`{"type":"string","enum":[1,"a"]}`, `"a"`},
		{`{"type":"string","pattern":"^[a-z]+$","minLength":2}`, `"aa"`},
	} {
		params := summaryNode([]byte(`{"type":"object","properties":{"a":` + c.prop + `},"required":["a"]}`))
		sy := &synth{root: params}
		if got := sy.args(params, 0); got != `{"a":`+c.want+`}` || sy.doubt {
			t.Errorf("%s: got %s (doubt %v), want {\"a\":%s}", c.prop, got, sy.doubt, c.want)
		}
	}
}

// BenchmarkSynthesizeMergedProperties: an allOf of 64 $refs to a schema of
// 20,000 properties, under arrays of eight items three deep. Merging
// looked each property up by a scan (15 s for one view), and merged the
// same items schema again for each placeholder (12 s).
func BenchmarkSynthesizeMergedProperties(b *testing.B) {
	var props []string
	for i := range 20000 {
		props = append(props, `"q`+string(rune('a'+i%26))+string(rune('a'+i/26%26))+string(rune('a'+i/676))+`":{"type":"string"}`)
	}
	refs := strings.Repeat(`{"$ref":"#/$defs/B"},`, 63) + `{"$ref":"#/$defs/B"}`
	arr := func(s string) string { return `{"type":"array","minItems":8,"items":` + s + `}` }
	params := summaryNode([]byte(`{"type":"object","properties":{"a":` + arr(arr(arr(`{"allOf":[`+refs+`]}`))) + `},"required":["a"],"$defs":{"B":{"type":"object","properties":{` + strings.Join(props, ",") + `}}}}`))
	for b.Loop() {
		(&synth{root: params}).args(params, 0)
	}
}
