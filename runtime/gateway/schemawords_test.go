package gateway

import (
	"slices"
	"testing"
)

type wordLog struct {
	names, enums, descs, reqs []string
	props                     int
}

func (l *wordLog) argName(s []byte)   { l.names = append(l.names, string(s)) }
func (l *wordLog) enumValue(s []byte) { l.enums = append(l.enums, string(s)) }
func (l *wordLog) argDesc(s []byte)   { l.descs = append(l.descs, string(s)) }
func (l *wordLog) required(s []byte)  { l.reqs = append(l.reqs, string(s)) }
func (l *wordLog) declared()          { l.props++ }

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
	// required: the top-level schema's names only, strings only
	var l wordLog
	schemaWords([]byte(`{"required":["a",1,"b"],"properties":{"a":{},"b":{"type":"object","required":["c"],"properties":{"c":{}}}},"items":{"required":["d"]}}`), &l)
	if !slices.Equal(l.reqs, []string{"a", "b"}) || l.props != 2 {
		t.Errorf("required %q, %d top-level properties; want [a b], 2", l.reqs, l.props)
	}
	l = wordLog{}
	schemaWords([]byte(`{"required":true,"properties":{"x":{}}}`), &l)
	if len(l.reqs) != 0 || !slices.Equal(l.names, []string{"x"}) {
		t.Errorf("required true: reqs %q names %q", l.reqs, l.names)
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
