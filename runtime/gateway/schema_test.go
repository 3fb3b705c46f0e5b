package gateway

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
)

// parametersCases are parameters schemas for readParameters: each member
// it reads in each shape, blanks and escapes where they may be, members it
// skips holding what would end a careless scan, and text that is not JSON.
var parametersCases = []string{
	`{}`, `null`, ` { } `, `[]`, `"x"`, `{`, ``, `{"properties":{}}`,
	`{"type":"object","properties":{"a":{"type":"string","description":"The a."},"b":true,"c":false},"required":["a"]}`,
	` { "properties" : { "a" : { "description" : "x\ny \"q\" \u00e9" } } , "required" : [ "a" , "b" ] } `,
	`{"properties":{"a":{"description":1}},"additionalProperties":false}`,
	`{"properties":{"a":{"description":"one","description":"two"}},"additionalProperties":{"type":"string"}}`,
	`{"properties":{"a":{"description":"one","description":null}}}`,
	`{"properties":{"a":{}},"properties":{"b":{}}}`,
	`{"properties":null,"required":null,"patternProperties":null}`,
	`{"properties":{"a\u0062":{"items":{"description":"not a's"}},"x":[1,"]}"],"y":"}"}}`,
	`{"skip":{"properties":{"not":{}},"required":["no"]},"required":["yes"],"patternProperties":{"^x":{}}}`,
	`{"properties":"x"}`, `{"required":"a"}`, `{"required":["a",1]}`, `{"required":[]}`,
	"{\"properties\":{\"a\xff\":{\"description\":\"b\xfe\"}}}",
	`{"Properties":{"a":{}},"REQUIRED":["a"]}`,
	`{"properties":{"a":{"description":"a"}}} x`,
	`{"prop\u0065rties":"x"}`, `{"prop\u0065rties":{"a\"b":{"d\u0065scription":"\u00e9"}},"r\u0065quired":["a\"b"]}`,
	"{\"properties\":{\"a\":{}},\"properties\xff\":1,\"\xffrequired\":[1]}",
}

// TestReadParameters holds readParameters to a reading of the same schema
// with encoding/json (refParameters).
func TestReadParameters(t *testing.T) {
	for _, s := range parametersCases {
		checkParameters(t, []byte(s))
	}
	deep := `{"properties":{"a":` + strings.Repeat(`{"items":`, 5000) + `{}` + strings.Repeat(`}`, 5000) + `}}`
	checkParameters(t, []byte(deep))
}

func FuzzReadParameters(f *testing.F) {
	for _, s := range parametersCases {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkParameters(t, b)
	})
}

func checkParameters(t *testing.T, schema []byte) {
	t.Helper()
	got, err := readParameters(schema)
	want, ok := refParameters(schema)
	if (err == nil) != ok {
		t.Fatalf("readParameters(%.200q): error %v; encoding/json reads it: %v", schema, err, ok)
	}
	if !ok {
		return
	}
	if !maps.Equal(got.Properties, want.Properties) || (got.Properties == nil) != (want.Properties == nil) ||
		!slices.Equal(got.Required, want.Required) ||
		string(got.AdditionalProperties) != string(want.AdditionalProperties) ||
		string(got.PatternProperties) != string(want.PatternProperties) {
		t.Fatalf("readParameters(%.200q) =\n%+v\nencoding/json:\n%+v", schema, got, want)
	}
}

// refParameters reads what readParameters reads with encoding/json; false
// when readParameters should refuse the schema.
func refParameters(schema []byte) (parameters, bool) {
	var s parameters
	var top map[string]json.RawMessage
	if err := json.Unmarshal(schema, &top); err != nil {
		return s, false
	}
	if raw, ok := top["properties"]; ok && string(raw) != "null" {
		var props map[string]json.RawMessage
		if json.Unmarshal(raw, &props) != nil {
			return s, false
		}
		s.Properties = map[string]property{}
		for name, p := range props {
			var m map[string]json.RawMessage
			var prop property
			if p[0] == '{' && json.Unmarshal(p, &m) == nil {
				_ = json.Unmarshal(m["description"], &prop.Description)
			}
			s.Properties[name] = prop
		}
	}
	if raw, ok := top["required"]; ok && json.Unmarshal(raw, &s.Required) != nil {
		return s, false
	}
	s.AdditionalProperties = top["additionalProperties"]
	s.PatternProperties = top["patternProperties"]
	return s, true
}
