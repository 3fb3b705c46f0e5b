package rootschema_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/rootschema"
)

// gen draws schemas from a small grammar of object schemas over the
// names a, b and c, with the root keywords Flatten rewrites.
type gen struct{ r *rand.Rand }

func (g gen) pick(xs ...string) string { return xs[g.r.IntN(len(xs))] }

func (g gen) value() string {
	return g.pick(`{"type":"string"}`, `{"type":"integer"}`, `{"const":1}`, `{}`, `false`, `{"enum":["s",1]}`, `{"not":{"type":"string"}}`, `{"$ref":"#/$defs/d"}`, `{"$ref":"#"}`, `{"not":{"$ref":"#"}}`, `{"type":["string","integer"]}`)
}

func (g gen) names() []string {
	var out []string
	for _, n := range []string{"a", "b", "c"} {
		if g.r.IntN(2) == 0 {
			out = append(out, n)
		}
	}
	return out
}

func (g gen) object(depth int, root bool) string {
	if !root && g.r.IntN(8) == 0 {
		return g.pick("true", "false", `{}`, `{"type":"string"}`, `{"$ref":"#/$defs/d"}`, `{"$ref":"#/$defs/o"}`)
	}
	var m []string
	add := func(k, v string) { m = append(m, fmt.Sprintf("%q:%s", k, v)) }
	if g.r.IntN(2) == 0 {
		var ps []string
		for _, n := range g.names() {
			ps = append(ps, fmt.Sprintf("%q:%s", n, g.value()))
		}
		add("properties", "{"+strings.Join(ps, ",")+"}")
	}
	if g.r.IntN(3) == 0 {
		r, _ := json.Marshal(g.names())
		add("required", string(r))
	}
	if g.r.IntN(3) == 0 {
		add("additionalProperties", g.pick("false", "true", `{"type":"integer"}`, `{"type":"string"}`))
	}
	if g.r.IntN(6) == 0 {
		add("patternProperties", g.pick(`{"^a":{"type":"string"}}`, `{"^[bc]":{}}`, `{"^c":false}`))
	}
	if g.r.IntN(8) == 0 {
		add(g.pick("minProperties", "maxProperties"), g.pick("1", "2"))
	}
	if g.r.IntN(8) == 0 {
		add(g.pick("if", "then", "else"), g.pick(`{"required":["a"]}`, `{"required":["b"]}`, `{"properties":{"c":{"type":"string"}}}`))
	}
	if g.r.IntN(8) == 0 {
		add("not", g.pick(`{"required":["a","b"]}`, `{"properties":{"a":{"const":1}},"required":["a"]}`))
	}
	if g.r.IntN(10) == 0 {
		add("enum", g.pick(`[{"a":1},{"b":"s"},{}]`, `[{"a":"s"}]`))
	}
	if g.r.IntN(10) == 0 {
		add("dependentRequired", g.pick(`{"a":["b"]}`, `{"b":["c"]}`))
	}
	if g.r.IntN(10) == 0 {
		add("propertyNames", g.pick(`{"maxLength":1}`, `{"enum":["a","b"]}`))
	}
	if g.r.IntN(10) == 0 {
		add("unevaluatedProperties", g.pick("false", `{"type":"integer"}`))
	}
	if g.r.IntN(10) == 0 {
		add("$ref", g.pick(`"#/$defs/o"`, `"#/$defs/d"`))
	}
	if g.r.IntN(10) == 0 {
		add("type", g.pick(`"object"`, `["object","null"]`, `"string"`))
	}
	if depth > 0 {
		for _, k := range []string{"allOf", "anyOf", "oneOf"} {
			if g.r.IntN(3) == 0 {
				var bs []string
				for range 1 + g.r.IntN(3) {
					bs = append(bs, g.object(depth-1, false))
				}
				add(k, "["+strings.Join(bs, ",")+"]")
			}
		}
	}
	if root {
		add("$defs", `{"d":{"type":"integer"},"o":{"properties":{"b":{"type":"integer"}},"required":["b"]}}`)
	}
	return "{" + strings.Join(m, ",") + "}"
}

// TestFlattenDifferential: for schemas drawn from a small grammar, every
// arguments object valid for the schema is valid for what is sent.
func TestFlattenDifferential(t *testing.T) {
	g := gen{rand.New(rand.NewPCG(1, 2))}
	values := []any{"s", float64(1), true, map[string]any{}, nil}
	names := []string{"a", "b", "c", "d"}
	fails := 0
	for range 500 {
		schema := g.object(2, true)
		orig, err := check.CompileSchema(schema)
		if err != nil {
			continue
		}
		for _, p := range []rootschema.Provider{rootschema.OpenAI, rootschema.Anthropic} {
			got, err := rootschema.Flatten(json.RawMessage(schema), p)
			if err != nil {
				continue
			}
			sent, err := check.CompileSchema(string(got))
			if err != nil {
				t.Fatalf("%s sent %s: %v", schema, got, err)
			}
			// Objects of the names, with values of values, at random.
			for range 60 {
				obj := map[string]any{}
				for _, n := range names {
					if i := g.r.IntN(len(values) + 2); i < len(values) {
						obj[n] = values[i]
					}
				}
				if orig.Validate(obj, "") == nil && sent.Validate(obj, "") != nil {
					b, _ := json.Marshal(obj)
					t.Errorf("%v: %s is valid for\n%s\nbut not for the schema sent\n%s", p, b, schema, got)
					if fails++; fails > 10 {
						t.FailNow()
					}
					break
				}
			}
		}
	}
}
