package rootschema_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/rootschema"
)

const both = rootschema.OpenAI | rootschema.Anthropic

// TestFlatten: a parameters root as each provider is sent it, or why it
// cannot be; and every arguments object (of the properties the schema
// names, with a few values each) valid for the root stays valid for what
// is sent.
func TestFlatten(t *testing.T) {
	for _, tt := range []struct {
		name, in string
		p        rootschema.Provider
		want     string // the schema sent; "" when unchanged
		err      string
	}{
		{"nothing refused", `{"type":"object","properties":{"a":{}},"not":{"required":["a"]},"enum":[{}]}`, rootschema.Anthropic, ``, ``},
		{"required-only union left out, and said", `{"type":"object","properties":{"a":{},"b":{}},"oneOf":[{"required":["a"]},{"required":["b"]}],"additionalProperties":false}`, both,
			`{"type":"object","properties":{"a":{},"b":{}},"additionalProperties":false,"description":"The arguments must match one of these alternatives, by required properties: [a] | [b]."}`, ``},
		{"required-only union keeps unevaluatedProperties", `{"properties":{"a":{},"b":{}},"anyOf":[{"required":["a"]},{"required":["b"]}],"unevaluatedProperties":false}`, both,
			`{"properties":{"a":{},"b":{}},"unevaluatedProperties":false,"description":"The arguments must match one of these alternatives, by required properties: [a] | [b]."}`, ``},
		{"not and enum left out for OpenAI", `{"type":"object","properties":{"a":{"type":"string"}},"not":{"properties":{"a":{"const":"x"}}},"enum":[{"a":"add"}]}`, rootschema.OpenAI,
			`{"type":"object","properties":{"a":{"type":"string"}}}`, ``},
		{"allOf of a base and extra properties", `{"type":"object","description":"Do it.","allOf":[{"type":"object","title":"Base","properties":{"id":{"type":"string"}},"required":["id"]},{"properties":{"n":{"type":"integer"}},"required":["n","id"]}]}`, both,
			`{"type":"object","description":"Do it.","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id","n"]}`, ``},
		{"allOf with the root's properties and one declared twice", `{"properties":{"a":{"type":"string"}},"required":["a"],"allOf":[{"properties":{"a":{"maxLength":3},"b":{"type":"boolean"}}},{"properties":{"a":{"maxLength":3}}}]}`, both,
			`{"properties":{"a":{"allOf":[{"type":"string"},{"maxLength":3}]},"b":{"type":"boolean"}},"required":["a"]}`, ``},
		// additionalProperties only applies to names no merged schema
		// declares: a branch's false does not refuse another's
		// properties (looser than the allOf, which refuses b).
		{"allOf with additionalProperties", `{"type":"object","allOf":[{"properties":{"a":{"type":"string"}},"additionalProperties":false},{"properties":{"b":{"type":"string"}},"additionalProperties":{"type":"integer"}}]}`, both,
			`{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"}},"additionalProperties":false}`, ``},
		{"allOf of additionalProperties schemas", `{"type":"object","additionalProperties":{"type":"integer"},"allOf":[{"additionalProperties":{"minimum":0}},{"additionalProperties":true}],"patternProperties":{"^x":{"type":"string"}}}`, both,
			`{"type":"object","additionalProperties":{"allOf":[{"type":"integer"},{"minimum":0}]},"patternProperties":{"^x":{"type":"string"}}}`, ``},
		{"allOf clashes left out", `{"type":"object","minProperties":1,"allOf":[{"minProperties":2,"maxProperties":3,"properties":{"a":{}}},{"maxProperties":3,"description":"ignored","type":"object"}]}`, both,
			`{"type":"object","maxProperties":3,"properties":{"a":{}}}`, ``},
		// unevaluatedProperties sees what the schemas merged evaluate,
		// which the clashing if and then left out did: left out.
		{"allOf with unevaluatedProperties", `{"unevaluatedProperties":false,"allOf":[{"properties":{"a":{}}},{"if":{"required":["b"]},"then":{"properties":{"b":{}}}},{"if":{"required":["c"]},"then":{"properties":{"c":{}}}}]}`, both,
			`{"properties":{"a":{}}}`, ``},
		{"allOf keeps not for Anthropic", `{"type":"object","not":{"required":["a","b"]},"allOf":[{"properties":{"a":{},"b":{}},"not":{"required":["b","c"]}}]}`, rootschema.Anthropic,
			`{"type":"object","not":{"anyOf":[{"required":["a","b"]},{"required":["b","c"]}]},"properties":{"a":{},"b":{}}}`, ``},
		{"allOf drops not for OpenAI", `{"type":"object","not":{"required":["a","b"]},"allOf":[{"properties":{"a":{},"b":{}},"not":{"required":["b","c"]}}]}`, rootschema.OpenAI,
			`{"type":"object","properties":{"a":{},"b":{}}}`, ``},
		{"nested allOf", `{"allOf":[{"allOf":[{"properties":{"a":{}}},true]},{"required":["a"]},{}]}`, both,
			`{"properties":{"a":{}},"required":["a"]}`, ``},
		// A union of closed objects (zod's discriminated unions): the
		// union of their properties, the names all require, closed.
		{"union of closed objects", `{"type":"object","description":"Act.","oneOf":[{"type":"object","properties":{"kind":{"const":"add"},"x":{"type":"number"}},"required":["kind","x"],"additionalProperties":false},{"type":"object","properties":{"kind":{"const":"del"},"id":{"type":"string"}},"required":["kind","id"],"additionalProperties":false}],"$defs":{"u":{}}}`, both,
			`{"type":"object","description":"Act.\n\nThe arguments must match one of these alternatives, by required properties: [kind, x] | [kind, id].","properties":{"kind":{"anyOf":[{"const":"add"},{"const":"del"}]},"x":{"type":"number"},"id":{"type":"string"}},"required":["kind"],"additionalProperties":false,"$defs":{"u":{}}}`, ``},
		// A branch that does not declare a property lets it take any
		// value: the union's property takes any (its description kept).
		{"union of open objects", `{"type":"object","properties":{"mode":{"enum":["a","b"]}},"anyOf":[{"properties":{"path":{"type":"string","description":"Where."}},"required":["path"]},{"properties":{"url":{"type":"string","format":"uri","description":"Or there."}},"required":["url"],"additionalProperties":false},{"type":"string"}]}`, both,
			`{"type":"object","properties":{"mode":{"enum":["a","b"]},"path":{"type":"string","description":"Where."},"url":{"description":"Or there."}},"description":"The arguments must match one of these alternatives, by required properties: [path] | [url]."}`, ``},
		{"union with additionalProperties schemas", `{"type":"object","anyOf":[{"properties":{"a":{"type":"string"}},"additionalProperties":{"type":"integer"}},{"properties":{"a":{"type":"number"}},"additionalProperties":{"type":"boolean"}},false,{"additionalProperties":false}]}`, both,
			`{"type":"object","properties":{"a":{"anyOf":[{"type":"string"},{"type":"number"}]}},"additionalProperties":{"anyOf":[{"type":"integer"},{"type":"boolean"}]},"description":"The arguments must match one of these alternatives, by required properties: [] | [] | []."}`, ``},
		{"union in an allOf", `{"allOf":[{"properties":{"q":{"type":"string"}},"required":["q"]},{"anyOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]}]}`, both,
			`{"properties":{"q":{"type":"string"},"a":{},"b":{}},"required":["q"],"description":"The arguments must match one of these alternatives, by required properties: [a] | [b]."}`, ``},
		{"two unions, one sentence", `{"description":"Go. ","anyOf":[{"required":["a"],"properties":{"a":{}}},{"required":["b"],"properties":{"b":{}}}],"oneOf":[{"required":["c"],"properties":{"c":{}}},{"required":["d"],"properties":{"d":{}}}]}`, both,
			`{"description":"Go.\n\nThe arguments must match one of these alternatives, by required properties: [a] | [b]; and one of: [c] | [d].","properties":{"a":{},"b":{},"c":{},"d":{}}}`, ``},
		{"allOf in a union", `{"anyOf":[{"allOf":[{"properties":{"a":{}},"required":["a"]},{"properties":{"b":{}},"required":["b"]}]},{"properties":{"a":{}},"required":["a"]}]}`, both,
			`{"properties":{"a":{},"b":{}},"required":["a"],"description":"The arguments must match one of these alternatives, by required properties: [a, b] | [a]."}`, ``},
		{"references into $defs kept", `{"$defs":{"s":{"type":"string"}},"allOf":[{"properties":{"a":{"$ref":"#/$defs/s"},"r":{"$ref":"#"}}}]}`, both,
			`{"$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/$defs/s"},"r":{"$ref":"#"}}}`, ``},

		// A branch's $ref to the root's definitions is merged with it,
		// once per schema built; a cycle merges nothing more (looser).
		{"$ref branches", `{"$defs":{"B":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},"a/b":{"properties":{"c":{"$ref":"#/$defs/a~1b"}}}},"allOf":[{"$ref":"#/$defs/B","properties":{"b":{}}},{"$ref":"#/$defs/B"},{"$ref":"#/$defs/a~1b"}]}`, both,
			`{"$defs":{"B":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]},"a/b":{"properties":{"c":{"$ref":"#/$defs/a~1b"}}}},"properties":{"a":{"type":"string"},"b":{},"c":{"$ref":"#/$defs/a~1b"}},"required":["a"]}`, ``},
		{"a $ref cycle", `{"$defs":{"A":{"$ref":"#/$defs/A","properties":{"c":{}}}},"allOf":[{"$ref":"#/$defs/A"}]}`, both,
			`{"$defs":{"A":{"$ref":"#/$defs/A","properties":{"c":{}}}},"properties":{"c":{}}}`, ``},
		{"a union of $ref branches", `{"type":"object","anyOf":[{"$ref":"#/definitions/Add"},{"$ref":"#/definitions/Del"}],"definitions":{"Add":{"properties":{"op":{"const":"add"},"x":{"type":"number"}},"required":["op","x"],"additionalProperties":false},"Del":{"properties":{"op":{"const":"del"}},"required":["op"],"additionalProperties":false}}}`, both,
			`{"type":"object","properties":{"op":{"anyOf":[{"const":"add"},{"const":"del"}]},"x":{"type":"number"}},"required":["op"],"additionalProperties":false,"definitions":{"Add":{"properties":{"op":{"const":"add"},"x":{"type":"number"}},"required":["op","x"],"additionalProperties":false},"Del":{"properties":{"op":{"const":"del"}},"required":["op"],"additionalProperties":false}},"description":"The arguments must match one of these alternatives, by required properties: [op, x] | [op]."}`, ``},
		{"a $ref cycle through a union", `{"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"properties":{"x":{"type":"string"}},"required":["x"]}]}},"anyOf":[{"$ref":"#/$defs/A"},{"properties":{"y":{}},"required":["y"]}]}`, both,
			`{"$defs":{"A":{"anyOf":[{"$ref":"#/$defs/A"},{"properties":{"x":{"type":"string"}},"required":["x"]}]}},"properties":{"x":{},"y":{}},"description":"The arguments must match one of these alternatives, by required properties: [] | [y]."}`, ``},
		{"a $ref elsewhere", `{"properties":{"a":{}},"allOf":[{"$ref":"#/properties/a"}]}`, both, ``,
			`/allOf/0/$ref: a schema holding the reference "#/properties/a" cannot be merged into the root: the adapters only resolve "#/$defs/<name>" and "#/definitions/<name>"`},
		{"a $ref to another document", `{"allOf":[{"$ref":"other.json#/$defs/a"}]}`, both, ``,
			`/allOf/0/$ref: a schema holding the reference "other.json#/$defs/a" cannot be merged into the root`},
		{"a $ref to no definition", `{"$defs":{"a":{}},"allOf":[{"$ref":"#/$defs/b"}]}`, both, ``,
			`/allOf/0/$ref: the reference "#/$defs/b" names no definition of the root's $defs`},
		{"an error in a definition a second union names", `{"$defs":{"a":{"required":"x"}},"oneOf":[{"required":["b"]}],"properties":{"b":{}},"anyOf":[{"$ref":"#/$defs/a"}]}`, both, ``,
			`/$defs/a/required: want an array of strings, got "x"`},
		{"an error in a definition", `{"$defs":{"a":{"required":"x"}},"allOf":[{"$ref":"#/$defs/a"}]}`, both, ``,
			`/$defs/a/required: want an array of strings, got "x"`},
		{"one large definition named many times", `{"$defs":{"big":{"properties":{` + strings.Repeat(`"p":{"description":"`+strings.Repeat("x", 100)+`"},`, 20) + `"q":{}}}},"anyOf":[` + strings.Repeat(`{"$ref":"#/$defs/big"},`, 2000) + `{}]}`, both, ``,
			`/anyOf/104/$ref: merging the definitions the references name would take more than four times the schema's size`},
		{"a $defs in a union branch", `{"anyOf":[{"properties":{"b":{}}},{"$defs":{}}]}`, both, ``,
			`/anyOf/1/$defs: a schema holding $defs cannot be merged into the root`},
		{"a reference into a merged branch", `{"properties":{"a":{"$ref":"#/allOf/0/properties/b"}},"allOf":[{"properties":{"b":{}}}]}`, both, ``,
			`/properties/a/$ref: the reference "#/allOf/0/properties/b" would no longer point where it does once the root is rewritten to leave out what the provider refuses there`},
		{"a reference into a merged property", `{"properties":{"a":{"type":"string"},"b":{"$ref":"#/properties/a"}},"allOf":[{"properties":{"a":{"maxLength":2}}}]}`, both, ``,
			`/properties/b/$ref: the reference "#/properties/a" would no longer point where it does`},
		{"a reference into not", `{"properties":{"a":{"$ref":"#/not/properties/a"}},"not":{"properties":{"a":{"const":1}}}}`, rootschema.OpenAI, ``,
			`/properties/a/$ref: the reference "#/not/properties/a" would no longer point where it does`},
		{"an anchor in not", `{"properties":{"a":{"$ref":"#x"}},"not":{"properties":{"a":{"$anchor":"x"}}}}`, rootschema.OpenAI, ``,
			`/properties/a/$ref: the reference "#x" would no longer point where it does`},
		// then and else mean nothing without the if beside them: a
		// schema's three are merged as one, and two schemas' are left
		// out.
		{"a root else beside a merged if", `{"else":{"required":["b"]},"properties":{"a":{},"b":{}},"allOf":[{"if":{"required":["a"]}}]}`, both,
			`{"properties":{"a":{},"b":{}},"if":{"required":["a"]}}`, ``},
		{"a root if beside a merged else", `{"if":{"properties":{"c":{"type":"string"}}},"allOf":[{"properties":{"c":{}},"else":{"required":["b"]}}]}`, both,
			`{"if":{"properties":{"c":{"type":"string"}}},"properties":{"c":{}}}`, ``},
		{"two ifs left out", `{"allOf":[{"if":{"required":["a"]},"then":{"required":["b"]}},{"if":{"required":["b"]},"then":{"required":["c"]}}],"properties":{"a":{},"b":{},"c":{}}}`, both,
			`{"properties":{"a":{},"b":{},"c":{}}}`, ``},
		{"one if merged", `{"if":{"required":["a"]},"then":{"required":["b"]},"allOf":[{"if":{"required":["a"]},"then":{"required":["b"]},"properties":{"a":{},"b":{}}}]}`, both,
			`{"if":{"required":["a"]},"then":{"required":["b"]},"properties":{"a":{},"b":{}}}`, ``},
		// What is sent is looser than the root: a reference back to it
		// where a looser schema refuses more would refuse more.
		{"a reference to the root under not", `{"properties":{"a":{"not":{"$ref":"#"}}},"anyOf":[{"properties":{"b":{}},"required":["b"]},{"properties":{"c":{}},"required":["c"]}]}`, both, ``,
			`/properties/a/not/$ref: a reference that may lead back to the root cannot stand under not`},
		{"a reference to the root under not, enum left out", `{"properties":{"b":{"not":{"$ref":"#"}}},"enum":[{"b":1},{}]}`, rootschema.OpenAI, ``,
			`/properties/b/not/$ref: a reference that may lead back to the root`},
		{"a definition under oneOf", `{"$defs":{"t":{"properties":{"c":{"$ref":"#"}}}},"properties":{"b":{"oneOf":[{"$ref":"#/$defs/t"},{"type":"object"}]}},"allOf":[{"required":["b"]}]}`, both, ``,
			`/properties/b/oneOf/0/$ref: a reference that may lead back to the root`},
		{"a reference to the root in a union's branch", `{"anyOf":[{"properties":{"next":{"$ref":"#"}},"required":["next"]},{"properties":{"end":{"const":true}},"required":["end"]}]}`, both,
			`{"properties":{"next":{},"end":{}},"description":"The arguments must match one of these alternatives, by required properties: [next] | [end]."}`, ``},
		// Draft-03 to draft-07 ignore the keywords beside a $ref.
		{"draft-07: beside a $ref ignored", `{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"A":{"properties":{"a":{}}}},"allOf":[{"$ref":"#/definitions/A","required":["zzz"]}]}`, both,
			`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"A":{"properties":{"a":{}}}},"properties":{"a":{}}}`, ``},
		{"draft-04: a type beside a $ref ignored", `{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"A":{"properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"anyOf":[{"$ref":"#/definitions/A","type":"string"},{"properties":{"b":{}},"required":["b"],"additionalProperties":false}]}`, both,
			`{"$schema":"http://json-schema.org/draft-04/schema#","definitions":{"A":{"properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false}},"properties":{"a":{"type":"string"},"b":{}},"additionalProperties":false,"description":"The arguments must match one of these alternatives, by required properties: [a] | [b]."}`, ``},
		{"draft-04: an id in a branch", `{"$schema":"http://json-schema.org/draft-04/schema#","allOf":[{"id":"x.json","properties":{"a":{}}}]}`, both, ``,
			`/allOf/0/id: a schema holding id cannot be merged into the root`},
		// The first bad reference in the order of names, every time.
		{"bad references reported in order", `{"properties":{"a":{"$ref":"#/allOf/0"},"b":{"$ref":"#/allOf/0"},"c":{"$ref":"#/allOf/0"},"d":{"$ref":"#/allOf/0"},"e":{"$ref":"#/allOf/0"},"f":{"$ref":"#/allOf/0"}},"allOf":[{}]}`, both, ``,
			`/properties/a/$ref: the reference "#/allOf/0" would no longer point`},
		// A definition merged stays in $defs: an $id or anchor in it
		// would be in the schema twice, which makes it invalid.
		{"a definition holding an $id", `{"$defs":{"A":{"properties":{"x":{"$id":"http://e/x.json","type":"string"}}}},"allOf":[{"$ref":"#/$defs/A"}]}`, both, ``,
			`/$defs/A: a definition holding $id cannot be merged into the root: it would then be in the schema twice`},
		// additionalProperties true evaluates the names
		// unevaluatedProperties then leaves alone.
		{"additionalProperties true kept", `{"additionalProperties":true,"not":{"required":["a","b"]},"unevaluatedProperties":{"type":"integer"}}`, rootschema.OpenAI,
			`{"additionalProperties":true,"unevaluatedProperties":{"type":"integer"}}`, ``},
		{"additionalProperties {} merged", `{"allOf":[{"additionalProperties":{}},{"additionalProperties":true}],"properties":{"a":{}}}`, both,
			`{"additionalProperties":{},"properties":{"a":{}}}`, ``},
		{"an empty anyOf", `{"anyOf":[]}`, both, ``, `/anyOf: want a non-empty array of schemas, got []`},
		{"allOf of a string", `{"allOf":[{},"x"]}`, both, ``, `/allOf/1: want a JSON Schema object, got "x"`},
		{"properties not an object", `{"allOf":[{"properties":[]}]}`, both, ``, `/allOf/0/properties: want an object, got []`},
		{"required not strings", `{"allOf":[{}],"required":[1]}`, both, ``, `/required: want an array of strings, got [1]`},
		{"nested too deep", `{"allOf":[` + strings.Repeat(`{"anyOf":[`, 20) + `{}` + strings.Repeat(`]}`, 20) + `]}`, both, ``,
			`/allOf/0` + strings.Repeat(`/anyOf/0`, 16) + `: allOf, anyOf and oneOf nest more than 16 deep`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var sent []string
			for _, p := range []rootschema.Provider{rootschema.OpenAI, rootschema.Anthropic} {
				if tt.p&p == 0 {
					continue
				}
				got, err := rootschema.Flatten(json.RawMessage(tt.in), p)
				if tt.err != "" {
					var e *rootschema.Error
					if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
						t.Errorf("%v: err = %v, want %s", p, err, tt.err)
					} else if !asError(err, &e) || rootschema.RefusedBy(e.Keyword)&p == 0 {
						t.Errorf("%v: error %#v names no keyword %v refuses", p, err, p)
					}
					continue
				}
				if err != nil {
					t.Fatalf("%v: %v", p, err)
				}
				want := tt.want
				if want == "" {
					want = tt.in
				}
				if string(got) != want {
					t.Errorf("%v:\ngot  %s\nwant %s", p, got, want)
				}
				var members map[string]json.RawMessage
				if err := json.Unmarshal(got, &members); err != nil {
					t.Fatalf("%v: sent %s: %v", p, got, err)
				}
				for _, k := range rootschema.Keywords() {
					if _, ok := members[k]; ok && rootschema.RefusedBy(k)&p != 0 {
						t.Errorf("%v: sent %s holds %s", p, got, k)
					}
				}
				if !slices.Contains(sent, string(got)) {
					sent = append(sent, string(got))
				}
			}
			if len(sent) > 0 && !strings.Contains(tt.name, "cycle") { // a cycle no validator ends
				looser(t, tt.in, sent...)
			}
		})
	}
}

// An error is named after the root keyword whose merging led to it.
func TestFlattenErrorKeyword(t *testing.T) {
	for _, tt := range []struct{ in, keyword string }{
		{`{"$defs":{"a":{"required":"x"}},"oneOf":[{"required":["b"]}],"properties":{"b":{}},"anyOf":[{"$ref":"#/$defs/a"}]}`, "anyOf"},
		{`{"$defs":{"a":{"required":"x"}},"oneOf":[{"$ref":"#/$defs/a"}],"anyOf":[{}]}`, "oneOf"},
		{`{"allOf":[{}],"required":[1]}`, "allOf"},
	} {
		for _, p := range []rootschema.Provider{rootschema.OpenAI, rootschema.Anthropic} {
			_, err := rootschema.Flatten(json.RawMessage(tt.in), p)
			var e *rootschema.Error
			if !asError(err, &e) || e.Keyword != tt.keyword {
				t.Errorf("%v: %s: err %#v, want one naming %s", p, tt.in, err, tt.keyword)
			}
		}
	}
}

func asError(err error, e **rootschema.Error) bool {
	x, ok := err.(*rootschema.Error)
	*e = x
	return ok
}

// looser checks that every arguments object, of the names in schema
// (three at most, and one it does not name) with a few values each, that
// is valid for schema is valid for each schema sent.
func looser(t *testing.T, schema string, sent ...string) {
	t.Helper()
	orig, err := check.CompileSchema(schema)
	if err != nil {
		t.Fatalf("%s: %v", schema, err)
	}
	var loose []*check.Schema
	for _, s := range sent {
		l, err := check.CompileSchema(s)
		if err != nil {
			t.Fatalf("sent %s: %v", s, err)
		}
		loose = append(loose, l)
	}
	var doc any
	_ = json.Unmarshal([]byte(schema), &doc)
	names := propertyNames(doc, nil)
	if len(names) > 3 {
		names = names[:3]
	}
	names = append(names, "zz_other")
	values := []any{"add", "x", float64(1), true, nil, map[string]any{"k": float64(1)}}
	valid := 0
	var try func(i int, obj map[string]any)
	try = func(i int, obj map[string]any) {
		if i == len(names) {
			if orig.Validate(obj, "") != nil {
				return
			}
			valid++
			for j, l := range loose {
				if errs := l.Validate(obj, ""); errs != nil {
					b, _ := json.Marshal(obj)
					t.Errorf("%s is valid for %s but not for the schema sent %s: %v", b, schema, sent[j], errs)
				}
			}
			return
		}
		try(i+1, obj)
		for _, v := range values {
			next := make(map[string]any, len(obj)+1)
			for k, x := range obj {
				next[k] = x
			}
			next[names[i]] = v
			try(i+1, next)
		}
	}
	try(0, map[string]any{})
	if valid == 0 {
		t.Errorf("no arguments object tried is valid for %s", schema)
	}
}

// propertyNames are the names under "properties" and "required" in doc.
func propertyNames(doc any, names []string) []string {
	switch v := doc.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			switch x := v[k].(type) {
			case map[string]any:
				if k == "properties" {
					for n := range x {
						if !slices.Contains(names, n) {
							names = append(names, n)
						}
					}
					slices.Sort(names)
				}
			case []any:
				if k == "required" {
					for _, n := range x {
						if s, ok := n.(string); ok && !slices.Contains(names, s) {
							names = append(names, s)
						}
					}
				}
			}
			names = propertyNames(v[k], names)
		}
	case []any:
		for _, x := range v {
			names = propertyNames(x, names)
		}
	}
	return names
}

// unionOf is a root oneOf of n closed objects, each with its own
// property.
func unionOf(n int) json.RawMessage {
	var b strings.Builder
	b.WriteString(`{"type":"object","oneOf":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"properties":{"p%d":{"type":"string"}},"required":["p%d"],"additionalProperties":false}`, i, i)
	}
	b.WriteString(`]}`)
	return json.RawMessage(b.String())
}

// A hostile union of many branches is sent as one object no larger,
// whose description stays short (BenchmarkFlattenUnion: time per branch
// stays flat up to 100,000 branches).
func TestFlattenHugeUnion(t *testing.T) {
	const n = 10000
	in := unionOf(n)
	got, err := rootschema.Flatten(in, rootschema.OpenAI)
	if err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Description string
		Properties  map[string]json.RawMessage
		Required    []string
	}
	if err := json.Unmarshal(got, &sent); err != nil {
		t.Fatal(err)
	}
	if len(sent.Properties) != n || sent.Required != nil || len(got) > len(in) {
		t.Errorf("%d properties, required %q, %d bytes sent of %d", len(sent.Properties), sent.Required, len(got), len(in))
	}
	const want = "The arguments must match one of these alternatives, by required properties: [p0] | [p1] | [p2] | [p3] | [p4] | [p5] | [p6] | [p7] | … (9992 more)."
	if sent.Description != want {
		t.Errorf("description %q", sent.Description)
	}
}

func BenchmarkFlattenUnion(b *testing.B) {
	for _, n := range []int{1000, 10000, 100000} {
		in := unionOf(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				if _, err := rootschema.Flatten(in, rootschema.Anthropic); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/branch")
		})
	}
}

// Hostile schemas never panic; what Flatten sends is a JSON object
// without a root keyword the provider refuses.
func FuzzFlatten(f *testing.F) {
	for _, seed := range []string{`{}`, `{"allOf":[{"properties":{"a":{}}},{"$ref":"#/$defs/a"}],"$defs":{"a":{"required":["a"]}}}`,
		`{"anyOf":[{"properties":{"a":{"type":"string"}},"additionalProperties":false},{"patternProperties":{"x":{}}},true,false],"not":{"enum":[1]}}`,
		`{"oneOf":[{"allOf":[{"oneOf":[{}]}]}],"properties":{"a":{"$ref":"#/oneOf/0"}}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		for _, p := range []rootschema.Provider{rootschema.OpenAI, rootschema.Anthropic} {
			got, err := rootschema.Flatten(json.RawMessage(schema), p)
			if err != nil {
				if _, ok := err.(*rootschema.Error); !ok {
					t.Fatalf("%T %v", err, err)
				}
				continue
			}
			var members map[string]json.RawMessage
			if err := json.Unmarshal(got, &members); err != nil {
				t.Fatalf("%s sent %s: %v", schema, got, err)
			}
			for _, k := range rootschema.Keywords() {
				if _, ok := members[k]; ok && rootschema.RefusedBy(k)&p != 0 && string(got) != schema {
					t.Fatalf("%s sent %s", schema, got)
				}
			}
		}
	})
}
