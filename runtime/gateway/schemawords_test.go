package gateway

import (
	"slices"
	"testing"
)

type wordLog struct{ names, enums, descs []string }

func (l *wordLog) argName(s []byte)   { l.names = append(l.names, string(s)) }
func (l *wordLog) enumValue(s []byte) { l.enums = append(l.enums, string(s)) }
func (l *wordLog) argDesc(s []byte)   { l.descs = append(l.descs, string(s)) }

func TestSchemaWords(t *testing.T) {
	for _, c := range []struct {
		in                  string
		names, enums, descs []string
	}{
		{`{"type":"object","description":"top","properties":{"city":{"type":"string","description":"City \"name\"\u00e9"},"unit":{"enum":["celsius",1,null,{"x":1},"fahrenheit"]}}}`,
			[]string{"city", "unit"}, []string{"celsius", "fahrenheit"}, []string{`City "name"é`}},
		{`{"properties":{"items":{"type":"array","items":{"properties":{"sku":{"const":"A1","description":"the sku"}}}}}}`,
			[]string{"items", "sku"}, []string{"A1"}, []string{"the sku"}},
		{`{"anyOf":[{"properties":{"a":{}}},{"properties":{"b":{"description":7}}}],"oneOf":{"properties":{"no":{}}}}`,
			[]string{"a", "b"}, nil, nil},
		{` { "properties" : { "x" : { "description" : "d" } , "y" : true } } `,
			[]string{"x", "y"}, nil, []string{"d"}},
		// malformed: the words before the error stay
		{`{"properties":{"ok":{"description":"fine"},"bad":{"description":"unterminated`,
			[]string{"ok", "bad"}, nil, []string{"fine"}},
		{`{"properties":[1,2`, nil, nil, nil},
		{`"just a string"`, nil, nil, nil},
		{``, nil, nil, nil},
		{`{"properties":{"e":{"enum":["` + string(make([]byte, 65)) + `"]}}}`, []string{"e"}, nil, nil},
	} {
		var l wordLog
		schemaWords([]byte(c.in), &l)
		if !slices.Equal(l.names, c.names) || !slices.Equal(l.enums, c.enums) || !slices.Equal(l.descs, c.descs) {
			t.Errorf("schemaWords(%.60q) = %q %q %q, want %q %q %q", c.in, l.names, l.enums, l.descs, c.names, c.enums, c.descs)
		}
	}
}

// TestSchemaWordsDepth: nesting past maxSchemaDepth is skipped, not
// followed, and deep arrays do not exhaust the stack.
func TestSchemaWordsDepth(t *testing.T) {
	s := ""
	for range 20 {
		s += `{"properties":{"p":`
	}
	s += `{}`
	for range 20 {
		s += `}}`
	}
	var l wordLog
	schemaWords([]byte(s), &l)
	if len(l.names) != maxSchemaDepth+1 {
		t.Errorf("%d names, want %d", len(l.names), maxSchemaDepth+1)
	}
	deep := `{"x":` + string(slices.Repeat([]byte("["), 100000)) + `}`
	schemaWords([]byte(deep), &l)
}
