package taxonomy

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// TestCanonicalJSON holds canonicalJSON to what it hashed before it read
// Nodes: encoding/json's Marshal of the value decoded with UseNumber.
func TestCanonicalJSON(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"b":{"type":"integer","maximum":1e3},"a":{"enum":["<x>","&",null,true,-0.50]}},"required":["b"]}`,
		`{"z":{"y":{"x":[1,{"d":"\u2028","c":"tab\t"}]}},"é":"日本","A":"\u00e9\\"}`,
		`[]`, `"s"`, `12.50e+3`, `null`, `false`, ``, `{bad`, `{"a":1}{"b":2}`,
	} {
		want := json.RawMessage("null")
		dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
		dec.UseNumber()
		var v any
		if raw != "" && dec.Decode(&v) == nil && !dec.More() {
			if b, err := json.Marshal(v); err == nil {
				want = b
			}
		}
		if got := canonicalJSON(json.RawMessage(raw)); !bytes.Equal(got, want) {
			t.Errorf("canonicalJSON(%s)\n got %s\nwant %s", raw, got, want)
		}
	}
}

// TestSynthesizeArgsRequiredUndeclared: a property required but not
// declared is in the example too (of additionalProperties' schema when it
// has one): a call without it is refused.
func TestSynthesizeArgsRequiredUndeclared(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["y","a","y"],"additionalProperties":{"type":"integer"}}`, `{"a":"<a>","y":1}`},
		{`{"type":"object","required":["q"]}`, `{"q":"<q>"}`},
		{`{"type":"object","properties":{"a":{"type":"boolean"}},"required":["a"]}`, `{"a":true}`},
		{`{"type":"object","properties":{"a":{"type":"boolean"}}}`, `{}`},
	} {
		if got := SynthesizeArgs(json.RawMessage(c.schema), 0); got != c.want {
			t.Errorf("%s: %s, want %s", c.schema, got, c.want)
		}
	}
}

// TestSynthesizeArgsFollowsRefs: an example's value for a property whose
// schema is a $ref is of the schema the $ref reaches (the enum's first
// value, the object's required members), not {}: {"x":{}} was refused by
// the tool it was an example of. A cycle of $refs ends.
func TestSynthesizeArgsFollowsRefs(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"object","$defs":{"X":{"enum":["a","b"]}},"properties":{"x":{"$ref":"#/$defs/X"}},"required":["x"]}`, `{"x":"a"}`},
		{`{"type":"object","$defs":{"P":{"type":"object","properties":{"n":{"$ref":"#/$defs/N"}},"required":["n"]},"N":{"type":"integer"}},"properties":{"p":{"$ref":"#/$defs/P"},"l":{"type":"array","items":{"$ref":"#/$defs/N"}}},"required":["p","l"]}`, `{"p":{"n":1},"l":[1]}`},
		{`{"type":"object","$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}},"properties":{"a":{"$ref":"#/$defs/A"}},"required":["a"]}`, `{"a":"<a>"}`},
		{`{"type":"object","properties":{"a":{"$ref":"other.json#/$defs/A"}},"required":["a"]}`, `{"a":"<a>"}`},
	} {
		if got := SynthesizeArgs(json.RawMessage(c.schema), 0); got != c.want {
			t.Errorf("%s: %s, want %s", c.schema, got, c.want)
		}
	}
}

// TestSynthesizeArgsBounded: arrays of minItems 8 nested six deep made
// 262,144 placeholders for one example; past maxExampleValues the rest
// are left empty.
func TestSynthesizeArgsBounded(t *testing.T) {
	s := `{"type":"string"}`
	for range 6 {
		s = `{"type":"array","minItems":8,"items":` + s + `}`
	}
	got := SynthesizeArgs(json.RawMessage(`{"type":"object","properties":{"a":`+s+`},"required":["a"]}`), 0)
	if n := strings.Count(got, `"<`); n > maxExampleValues || n == 0 {
		t.Errorf("%d placeholders (%d bytes), want 1 to %d", n, len(got), maxExampleValues)
	}
}

// TestSynthesizeArgsPatterns: a string that must match a pattern is made
// from it when "<name>" does not match: repetitions at their least count
// (more to reach minLength), the first alternative, a letter or digit of a
// class; ECMA-262's \u escapes are read.
func TestSynthesizeArgsPatterns(t *testing.T) {
	for _, c := range []struct{ schema, want string }{
		{`{"type":"string","pattern":"^\\d{4}-\\d{2}-\\d{2}$"}`, `"0000-00-00"`},
		{`{"type":"string","pattern":"^[a-zA-Z\\s]+$","minLength":5}`, `"aaaaa"`},
		{`{"type":"string","pattern":"^[\\u4e00-\\u9fa5]{2,10}$"}`, `"一一"`},
		{`{"type":"string","pattern":"^([01]\\d|2[0-3]):([0-5]\\d)$"}`, `"00:00"`},
		{`{"type":"string","pattern":"^<"}`, `"<s>"`},
	} {
		got := SynthesizeArgs(json.RawMessage(`{"type":"object","properties":{"s":`+c.schema+`},"required":["s"]}`), 0)
		if want := `{"s":` + c.want + `}`; got != want {
			t.Errorf("%s: %s, want %s", c.schema, got, want)
		}
	}
}

// TestSlowPatternNoExample: a required string whose pattern only the
// backtracking engine runs (a lookahead) gets no example: matching and
// validating one took 0.4 s per tool at generate time.
func TestSlowPatternNoExample(t *testing.T) {
	root := summaryNode(json.RawMessage(`{"type":"object","properties":{"s":{"type":"string","pattern":"^(?=a)((a?){30}){30}$"}},"required":["s"]}`))
	if _, ok := synthesizeExample("x.y", root); ok {
		t.Error("an example for a backtracking pattern")
	}
}
