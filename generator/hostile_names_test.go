package generator

import (
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// hostileNamesTools are definitions whose names reach generated
// identifiers and struct tags in ways a definition author controls: union
// branches whose $defs are named like the methods every union declares,
// and a property named "-" (the struct tag json:"-" means "skip this
// field" to encoding/json) required or with a default, in params and in
// a result.
const hostileNamesTools = `{"tools":[
	{"name":"pick","description":"d","inputSchema":{"type":"object","properties":{
		"one":{"oneOf":[{"$ref":"#/$defs/Validate"},{"$ref":"#/$defs/MarshalJSON"},{"$ref":"#/$defs/UnmarshalJSON"},{"type":"integer"}]},
		"any":{"anyOf":[{"$ref":"#/$defs/Validate"},{"$ref":"#/$defs/MarshalJSON"},{"type":"string"}]}
	},"$defs":{
		"Validate":{"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false},
		"MarshalJSON":{"type":"object","properties":{"b":{"type":"string"}},"required":["b"],"additionalProperties":false},
		"UnmarshalJSON":{"type":"object","properties":{"c":{"type":"string"}},"required":["c"],"additionalProperties":false}
	}}},
	{"name":"dash","description":"d","inputSchema":{"type":"object","properties":{
		"-":{"type":"string"},"o":{"type":"object","properties":{"-":{"type":"integer","default":7}}}
	},"required":["-"]},
	"outputSchema":{"type":"object","properties":{"-":{"type":"string"}},"required":["-"]}}
]}`

// TestHostileNames compiles the package of hostileNamesTools (go vet) and
// runs real JSON through it: every union branch decodes into its field
// and encodes back, and a member named "-" survives json.Marshal of the
// params and of the result.
func TestHostileNames(t *testing.T) {
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: hostileNamesTools}}, schema.BuildOptions{Package: "generated"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	testGenerated(t, fam, "names_test.go", []byte(`package generated

import (
	"encoding/json"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	for _, c := range []struct{ tool, args string }{
		{"pick", `+"`"+`{"one":{"a":"x"}}`+"`"+`},
		{"pick", `+"`"+`{"one":{"b":"x"}}`+"`"+`},
		{"pick", `+"`"+`{"one":{"c":"x"}}`+"`"+`},
		{"pick", `+"`"+`{"one":1}`+"`"+`},
		{"pick", `+"`"+`{"any":{"a":"x"}}`+"`"+`},
		{"pick", `+"`"+`{"any":{"b":"x"}}`+"`"+`},
		{"pick", `+"`"+`{"any":"s"}`+"`"+`},
		{"dash", `+"`"+`{"-":"x","o":{"-":3}}`+"`"+`},
	} {
		p, err := DecodeArgs(c.tool, []byte(c.args))
		if err != nil {
			t.Errorf("%s %s: %v", c.tool, c.args, err)
			continue
		}
		out, err := json.Marshal(p)
		if err != nil || string(out) != c.args {
			t.Errorf("%s %s: encodes as %s, %v", c.tool, c.args, out, err)
		}
	}
	if _, err := DecodeArgs("pick", []byte(`+"`"+`{"one":{"a":"x","b":"y"}}`+"`"+`)); err == nil {
		t.Error("a value of no branch passed")
	}
	// The default of "-" is applied and encoded.
	p, err := DecodeArgs("dash", []byte(`+"`"+`{"-":"x","o":{}}`+"`"+`))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := json.Marshal(p); string(out) != `+"`"+`{"-":"x","o":{"-":7}}`+"`"+` {
		t.Errorf("defaulted: %s", out)
	}
	if out, _ := json.Marshal(DashResult{X: "r"}); string(out) != `+"`"+`{"-":"r"}`+"`"+` {
		t.Errorf("result: %s", out)
	}
}
`))
}

// TestTypeScriptTypeNames: a Go identifier may hold a letter no
// ECMAScript identifier takes (U+2E2F VERTICAL TILDE is a letter and
// Pattern_Syntax): the TypeScript names of the types a property named so
// begets spell it out, distinct from the names already taken, and every
// declared and referenced type name is an identifier tsc accepts.
func TestTypeScriptTypeNames(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"get_x","description":"d","parameters":{"type":"object","properties":{
		"\u2e2f":{"type":"object","properties":{"a":{"type":"string"}}},
		"u2e2f":{"type":"object","properties":{"b":{"type":"string"}}},
		"a\u2e2f":{"type":"string","enum":["p","q"]},
		"当前":{"type":"object","properties":{"c":{"type":"string"}}}}}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts := TypeScript(fam)
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(`(?m)^\s*(?:interface|type) (\S+)`).FindAllStringSubmatch(ts, -1) {
		seen[m[1]] = true
		for _, r := range m[1] {
			if unicode.Is(unicode.Pattern_Syntax, r) {
				t.Errorf("type name %q holds %U, no ECMAScript identifier character", m[1], r)
			}
		}
	}
	for _, want := range []string{"GetXX当前", "GetXXU2E2F", "GetXU2e2f"} {
		if !seen[want] {
			t.Errorf("no type %s in\n%s", want, ts)
		}
	}
	for _, m := range regexp.MustCompile(`\bx\.(\w+|\S+?);`).FindAllStringSubmatch(ts, -1) {
		if !seen[m[1]] {
			t.Errorf("reference to undeclared type %q", m[1])
		}
	}
}

// TestTypeScriptTinyLiteral: an enum member nearer zero than any float64
// is no literal type 0 (a value the schema does not allow) but number;
// zeros keep their literal.
func TestTypeScriptTinyLiteral(t *testing.T) {
	for in, want := range map[string]string{"1e-400": "number", "-2.5E-999": "number", "0": "0", "-0": "-0", "0.0e5": "0", "0e-999": "0", "1e-300": "1e-300"} {
		if got, ok := literalType([]byte(in)); !ok || got != want {
			t.Errorf("literalType(%s) = %q, %v; want %q", in, got, ok, want)
		}
	}
}

// tsDirectiveComment matches the text of a comment, from after its "/*",
// whose last line TypeScript reads as a directive on the line after it.
var tsDirectiveComment = regexp.MustCompile(`(?:^|\n)(?:/|\*)*[\s\x{a0}\p{Zs}]*@(?:ts-expect-error|ts-ignore)[^\n]*$`)

// TestTypeScriptCommentDirectives: a description, a summary or a default
// whose one line reads @ts-expect-error (an "unused directive" error: the
// declarations no longer type-check) or @ts-ignore (errors on the next
// line hidden), after white space JavaScript's \s takes (U+00A0), is no
// TypeScript directive in the declarations.
func TestTypeScriptCommentDirectives(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"get_x","description":"@ts-expect-error","parameters":{"type":"object","properties":{
		"a":{"type":"string","description":" * @ts-ignore"},
		"b":{"type":"string","description":"\u00a0@ts-expect-error because"},
		"c":{"type":"object","description":"@ts-expect-error","properties":{"d":{"type":"string","description":"x\n@ts-ignore"}}},
		"e":{"type":"string","enum":["p"],"description":"*/@ts-ignore"}}}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	fam.Groups[0].Summary = "@ts-expect-error"
	ts := TypeScript(fam)
	n := 0
	for rest := ts; ; {
		i := strings.Index(rest, "/*")
		if i < 0 {
			break
		}
		j := strings.Index(rest[i:], "*/")
		if j < 0 {
			t.Fatalf("unclosed comment in\n%s", ts)
		}
		text := rest[i+2 : i+j]
		if strings.Contains(text, "@ts-") {
			n++
		}
		if tsDirectiveComment.MatchString(text) {
			t.Errorf("comment /*%s*/ is a TypeScript directive", text)
		}
		rest = rest[i+j+2:]
	}
	if n < 7 {
		t.Errorf("%d comments hold @ts-, want at least 7:\n%s", n, ts)
	}
}
