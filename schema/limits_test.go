package schema_test

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/load"
)

// Inputs that crashed, hung or blew up the generator (issue 8). Each must
// end in success or a located error, quickly; the inputs are built here.

// oneTool wraps a parameters schema into a one-tool Anthropic-shape list.
func oneTool(params string) string {
	return `[{"name":"get_x","description":"d","input_schema":` + params + `}]`
}

// objectWith is an object schema with one property x of schema s.
func objectWith(s string) string {
	return `{"type":"object","properties":{"x":` + s + `}}`
}

// nest wraps inner n times with wrap (which holds one %s).
func nest(inner, wrap string, n int) string {
	var b strings.Builder
	for range n {
		before, _, _ := strings.Cut(wrap, "%s")
		b.WriteString(before)
	}
	b.WriteString(inner)
	for range n {
		_, after, _ := strings.Cut(wrap, "%s")
		b.WriteString(after)
	}
	return b.String()
}

// refLevels is n levels of $defs, each a kw of two $refs to the next
// level (distinct when distinct is set: each level has an a and a b def).
func refLevels(kw string, n int, distinct bool) string {
	var defs []string
	for i := range n {
		next := fmt.Sprintf("#/$defs/d%d", i+1)
		if distinct {
			defs = append(defs, fmt.Sprintf(`"d%d":{%q:[{"$ref":"#/$defs/d%da"},{"$ref":"#/$defs/d%db"}]}`, i, kw, i+1, i+1))
			defs = append(defs, fmt.Sprintf(`"d%da":{"$ref":%q},"d%db":{"$ref":%q}`, i+1, next, i+1, next))
		} else {
			defs = append(defs, fmt.Sprintf(`"d%d":{%q:[{"$ref":%q},{"$ref":%q}]}`, i, kw, next, next))
		}
	}
	defs = append(defs, fmt.Sprintf(`"d%d":{"type":"object","properties":{"a":{"type":"string"}}}`, n))
	return `{"type":"object","properties":{"x":{"$ref":"#/$defs/d0"}},"$defs":{` + strings.Join(defs, ",") + `}}`
}

func intList(n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, i)
	}
	b.WriteByte(']')
	return b.String()
}

// nameList is a JSON array of n names prefix0, prefix1, ...
func nameList(prefix string, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q", prefix+strconv.Itoa(i))
	}
	b.WriteByte(']')
	return b.String()
}

func manyProps(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string"}`, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

// patterns is an object schema with n string properties, each with a
// distinct pattern made of body and the property's number.
func patterns(n int, body string) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"p%d":{"type":"string","pattern":"%s%d"}`, i, body, i)
	}
	b.WriteString(`}}`)
	return b.String()
}

// patternKeys is n patternProperties members, each a distinct pattern.
func patternKeys(n int) string {
	keys := make([]string, n)
	for i := range keys {
		keys[i] = fmt.Sprintf(`"^p%d$":{"type":"string"}`, i)
	}
	return strings.Join(keys, ",")
}

// unknownKeywords is an object schema with n keywords JSON Schema does
// not define beside its properties.
func unknownKeywords(n int) string {
	var b strings.Builder
	b.WriteString(`{"type":"object","properties":{"x":{"type":"string"}}`)
	for i := range n {
		fmt.Fprintf(&b, `,"k%d":%d`, i, i)
	}
	b.WriteString(`}`)
	return b.String()
}

// pipeline runs load, compile, taxonomy and generation.
func pipeline(data string, lim limits.Limits) ([]generator.File, error) {
	fam, err := schema.BuildFamily([]load.Input{{Name: "t.json", Data: data}},
		schema.BuildOptions{Package: "x", Options: load.Options{Limits: lim}}, nil)
	if err != nil {
		return nil, err
	}
	return generator.Generate(fam, generator.Options{Package: "x"})
}

var located = regexp.MustCompile(`^t\.json:\d+:\d+: /\S*: `)

func TestLimitCases(t *testing.T) {
	cases := []struct {
		name   string
		params string
		limits limits.Limits
		// want is a substring of the only error; "" means success.
		want string
	}{
		{"recursive anyOf", `{"type":"object","properties":{"x":{"$ref":"#/$defs/u"}},"$defs":{"u":{"anyOf":[{"$ref":"#/$defs/u"},{"type":"string"}]}}}`, limits.Limits{},
			`/0/input_schema/$defs/u/anyOf/0/$ref: circular schema: this applies /0/input_schema/$defs/u to the same value again`},
		{"recursive oneOf via not", `{"type":"object","properties":{"x":{"$ref":"#/$defs/u"}},"$defs":{"u":{"oneOf":[{"not":{"$ref":"#/$defs/u"}},{"type":"string"}]}}}`, limits.Limits{},
			`circular schema`},
		{"recursion through a property is fine", `{"type":"object","properties":{"x":{"$ref":"#/$defs/n"}},"$defs":{"n":{"anyOf":[{"type":"object","properties":{"next":{"$ref":"#/$defs/n"}}},{"type":"null"}]}}}`, limits.Limits{}, ""},
		{"9000 nested items", objectWith(nest(`{"type":"string"}`, `{"type":"array","items":%s}`, 9000)), limits.Limits{},
			`nesting deeper than 512 levels (8 × limits.max_depth; raise max_depth in the manifest)`},
		{"1000 nested arrays", objectWith(nest(`{"type":"string"}`, `{"type":"array","items":%s}`, 1000)), limits.Limits{},
			`nesting deeper than 512 levels`},
		{"70 nested arrays", objectWith(nest(`{"type":"string"}`, `{"type":"array","items":%s}`, 70)), limits.Limits{},
			`schema nested more than 64 levels deep (limit 64; raise limits.max_depth in the manifest)`},
		{"70 nested arrays, raised", objectWith(nest(`{"type":"string"}`, `{"type":"array","items":%s}`, 70)), limits.Limits{Depth: 80}, ""},
		{"3000 nested anyOf", objectWith(nest(`{"type":"string"}`, `{"anyOf":[%s,{"type":"integer"}]}`, 3000)), limits.Limits{},
			`nesting deeper than 512 levels`},
		{"100 nested anyOf", objectWith(nest(`{"type":"string"}`, `{"anyOf":[%s,{"type":"integer"}]}`, 100)), limits.Limits{Depth: 150, IdentifierLength: 40}, ""},
		{"30 levels of oneOf", refLevels("oneOf", 30, false), limits.Limits{}, ""},
		{"30 levels of allOf", refLevels("allOf", 30, false), limits.Limits{}, ""},
		{"30 levels of anyOf", refLevels("anyOf", 30, false), limits.Limits{}, ""},
		{"30 levels of distinct oneOf", refLevels("oneOf", 30, true), limits.Limits{}, ""},
		{"30 levels of distinct allOf", refLevels("allOf", 30, true), limits.Limits{}, ""},
		{"expansion budget", refLevels("allOf", 30, true), limits.Limits{RefExpansions: 20},
			`schema expansion budget spent: $refs, allOf, union branches and the properties merged into each branch expand to more than 20 schemas (limit 20; raise limits.max_ref_expansions in the manifest)`},
		// A union's shared properties are copied into every branch, each
		// compiled into its own struct: 30,000 branches over 999 shared
		// properties (2 MB) took 20 s and 2 GB.
		{"30000 branches over 999 shared properties", sharedUnion(30000, 999), limits.Limits{},
			`/0/input_schema/anyOf/199: schema expansion budget spent: $refs, allOf, union branches and the properties merged into each branch expand to more than 200000 schemas`},
		{"20 branches over 999 shared properties", sharedUnion(20, 999), limits.Limits{}, ""},
		// Shared required names and enum values are checked by every
		// branch's own code too: 3,000 branches over 999 required names
		// (200 KB) took 130 s and 25 GB to generate; 4,000 over 999 enum
		// values (270 KB), 8.6 s to compile.
		{"100 branches over 100 shared required names", objectWith(sharedListUnion("required", 100, 100)), limits.Limits{RefExpansions: 5000},
			`schema expansion budget spent: $refs, allOf, union branches and the properties merged into each branch expand to more than 5000 schemas`},
		{"100 branches over 30 shared required names", objectWith(sharedListUnion("required", 100, 30)), limits.Limits{RefExpansions: 5000}, ""},
		{"100 branches over 100 shared enum values", objectWith(sharedListUnion("enum", 100, 100)), limits.Limits{RefExpansions: 5000},
			`schema expansion budget spent: $refs, allOf, union branches and the properties merged into each branch expand to more than 5000 schemas`},
		{"100 branches over 30 shared enum values", objectWith(sharedListUnion("enum", 100, 30)), limits.Limits{RefExpansions: 5000}, ""},
		{"100000 enum values", objectWith(`{"type":"integer","enum":` + intList(100000) + `}`), limits.Limits{},
			`/0/input_schema/properties/x/enum: enum lists 100000 values, more than the limit (limit 5000; raise limits.max_enum in the manifest)`},
		{"20000 enum values, raised", objectWith(`{"type":"integer","enum":` + intList(20000) + `}`), limits.Limits{Enum: 20000}, ""},
		{"5000 properties", manyProps(5000), limits.Limits{},
			`/0/input_schema/properties: object declares 5000 properties, more than the limit (limit 1000; raise limits.max_properties in the manifest)`},
		{"1500 properties, raised", manyProps(1500), limits.Limits{Properties: 1500}, ""},
		{"2000 patternProperties", `{"type":"object","patternProperties":{` + patternKeys(2000) + `}}`, limits.Limits{},
			`/0/input_schema/patternProperties: patternProperties declares 2000 patterns, more than the limit (limit 1000; raise limits.max_properties in the manifest)`},
		{"1500 patternProperties, raised", `{"type":"object","patternProperties":{` + patternKeys(1500) + `}}`, limits.Limits{Properties: 1500}, ""},
		// Required names without a property are fields too.
		{"5000 required names", `{"type":"object","properties":{"o":{"type":"object","properties":{"x":{}},"required":` + nameList("r", 5000) + `}}}`, limits.Limits{},
			`/0/input_schema/properties/o/required: object has 5001 fields (properties and required names without one), more than the limit (limit 1000; raise limits.max_properties in the manifest)`},
		{"999 required names and a property", `{"type":"object","properties":{"o":{"type":"object","properties":{"r0":{}},"required":` + nameList("r", 999) + `}}}`, limits.Limits{}, ""},
		// Unknown keywords are kept in the schema's view: 100,000 of them
		// took about 30 s when the view found keywords only by a scan.
		{"100000 unknown keywords", unknownKeywords(100000), limits.Limits{}, ""},
		// Generated code compiles every pattern when it starts; RE2 spells
		// out counted repetitions, so a few bytes of pattern can hold a
		// program of ~100,000 instructions (several MB), and a match takes
		// up to the program's size in steps per input byte.
		{"patterns past their size limit", patterns(300, `[a-z]{1000}`), limits.Limits{},
			`/0/input_schema/properties/p199/pattern: pattern expands to about 1005 RE2 instructions, which brings the input's patterns past the limit on their total size (limit 200000; raise limits.max_pattern_size in the manifest)`},
		{"a pattern past its size limit", patterns(1, `(?:[a-z]{10}x){100}`), limits.Limits{PatternSize: 1000},
			`/0/input_schema/properties/p0/pattern: pattern expands to about 1103 RE2 instructions, more than the limit on patterns' size (limit 1000; raise limits.max_pattern_size in the manifest)`},
		{"a patternProperties key past the size limit", `{"type":"object","patternProperties":{"^[a-z]{1000}$":{"type":"string"}}}`, limits.Limits{PatternSize: 500},
			`/0/input_schema/patternProperties/^[a-z]{1000}$: pattern expands to about 1004 RE2 instructions`},
		{"patterns within their raised limit", patterns(300, `[a-z]{1000}`), limits.Limits{PatternSize: 400000}, ""},
		// Delegated schemas' patterns are compiled at start too (by the
		// embedded validator): they count.
		{"a delegated pattern past the size limit", objectWith(`{"type":"string","not":{"pattern":"(?:[a-z]{10}x){100}"}}`), limits.Limits{PatternSize: 1000},
			`/0/input_schema/properties/x/not/pattern: pattern expands to about 1102 RE2 instructions, more than the limit on patterns' size`},
		{"a delegated patternProperties key past the size limit", objectWith(`{"type":"object","not":{"patternProperties":{"^[a-z]{1000}$":{}}}}`), limits.Limits{PatternSize: 500},
			`/0/input_schema/properties/x/not/patternProperties/^[a-z]{1000}$: pattern expands to about 1004 RE2 instructions`},
		// A pattern longer than the limit is refused unparsed: RE2's parser
		// takes time growing faster than the length (a 2 MB pattern took
		// 16.7 s and 572 MB, 37 s and 1.4 GB inside not).
		{"a 2 MB pattern", objectWith(`{"type":"string","pattern":"` + strings.Repeat("a.", 1<<20) + `"}`), limits.Limits{},
			`/0/input_schema/properties/x/pattern: pattern is 2097152 bytes long, more than the limit on patterns' size allows one pattern (limit 200000; raise limits.max_pattern_size in the manifest)`},
		{"a 2 MB delegated pattern", objectWith(`{"type":"string","not":{"pattern":"` + strings.Repeat("a.", 1<<20) + `"}}`), limits.Limits{},
			`/0/input_schema/properties/x/not/pattern: pattern is 2097152 bytes long`},
		{"a repeated pattern counts once", objectWith(`{"type":"array","items":{"type":"string","pattern":"[a-z]{1000}"},"maxItems":3}`), limits.Limits{PatternSize: 1100}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files, err := pipeline(oneTool(tc.params), tc.limits)
			if tc.want == "" {
				if err != nil {
					t.Fatalf("want success, got %v", err)
				}
				if len(files) == 0 {
					t.Fatal("no files")
				}
				return
			}
			if err == nil {
				t.Fatalf("generated; want an error containing %q", tc.want)
			}
			var list jsonpos.ErrorList
			if !errorsAs(err, &list) || len(list) != 1 {
				t.Fatalf("want one located error, got %v", err)
			}
			msg := list[0].Error()
			if !located.MatchString(msg) || !strings.Contains(msg, tc.want) {
				t.Errorf("error %q\nwant it located and containing %q", msg, tc.want)
			}
		})
	}
}

// Names derived from the input never exceed the identifier limit (plus
// room for a uniqueness suffix), and shortening is deterministic.
func TestIdentifierLimit(t *testing.T) {
	long := strings.Repeat("very_long_name_", 700)
	params := `{"type":"object","properties":{"` + long + `":{"type":"object","properties":{"` + long + `x":{"type":"string","enum":["` + long + `"]}}}}}`
	var first string
	for range 2 {
		files, err := pipeline(oneTool(params), limits.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		var src strings.Builder
		for _, f := range files {
			src.Write(f.Bytes)
			af, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Bytes, 0)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(af, func(n ast.Node) bool {
				if id, ok := n.(*ast.Ident); ok && len(id.Name) > limits.Default.IdentifierLength {
					t.Fatalf("%s: identifier of %d bytes: %.60s...", f.Path, len(id.Name), id.Name)
				}
				return true
			})
		}
		if first != "" && first != src.String() {
			t.Fatal("output differs between runs")
		}
		first = src.String()
	}
}

func errorsAs(err error, list *jsonpos.ErrorList) bool {
	l, ok := err.(jsonpos.ErrorList)
	*list = l
	return ok
}

// Definitions no call can satisfy generate, with a located warning each.
func TestUnsatisfiableWarnings(t *testing.T) {
	cases := []struct{ params, want string }{
		{objectWith(`{"enum":[]}`), `t.json:1:94: /0/input_schema/properties/x/enum: enum is empty: no value can satisfy this schema`},
		{objectWith(`{"type":"string","enum":[1,2]}`), `/0/input_schema/properties/x/enum: no enum value has a type the schema allows`},
		{`{"type":"object","properties":{"x":false},"required":["x"]}`, `t.json:1:86: /0/input_schema/properties/x: property "x" is required but its schema is false: no call can satisfy this object`},
		{objectWith(`{"type":"integer","minimum":5,"maximum":3}`), `/0/input_schema/properties/x/minimum: minimum 5 is greater than maximum 3: no value can satisfy this schema`},
		// Past the float64s, compared exactly (their stand-ins are equal).
		{objectWith(`{"type":"number","minimum":2e999999,"maximum":1e999999}`), `/0/input_schema/properties/x/minimum: minimum 2e999999 is greater than maximum 1e999999`},
		{objectWith(`{"type":"number","exclusiveMinimum":1e-999999,"maximum":1e-1000000}`), `exclusiveMinimum 1e-999999 is greater than maximum 1e-1000000`},
		{objectWith(`{"type":"number","exclusiveMinimum":2,"exclusiveMaximum":2}`), `/0/input_schema/properties/x/exclusiveMinimum: exclusiveMinimum 2 is equal to exclusiveMaximum 2`},
		{objectWith(`{"type":"number","minimum":2,"exclusiveMaximum":2}`), `/0/input_schema/properties/x/minimum: minimum 2 is equal to exclusiveMaximum 2`},
		{objectWith(`{"type":"string","minLength":4,"maxLength":1}`), `/0/input_schema/properties/x/minLength: minLength 4 is greater than maxLength 1`},
		{objectWith(`{"type":"array","minItems":3,"maxItems":2}`), `/0/input_schema/properties/x/minItems: minItems 3 is greater than maxItems 2`},
		{objectWith(`{"type":"object","properties":{"a":{"type":"string"}},"minProperties":3,"maxProperties":2}`), `minProperties 3 is greater than maxProperties 2`},
		{objectWith(`{"type":"array","contains":{"type":"string"},"minContains":3,"maxContains":2}`), `minContains 3 is greater than maxContains 2`},
		{`{"type":"object","properties":{"x":{"oneOf":[{"$ref":"#/$defs/a"},{"$ref":"#/$defs/a"},{"type":"integer"}]}},"$defs":{"a":{"type":"string"}}}`, `/0/input_schema/properties/x/oneOf: oneOf lists the same schema as branches 0 and 1: a value that matches it matches both, so it never passes`},
	}
	for _, tc := range cases {
		fam, err := schema.BuildFamily([]load.Input{{Name: "t.json", Data: oneTool(tc.params)}}, schema.BuildOptions{Package: "x"}, nil)
		if err != nil {
			t.Errorf("%s: %v", tc.params, err)
			continue
		}
		found := false
		for _, w := range fam.Warnings {
			e := jsonpos.Error{Pos: w.Pos, Message: w.Message}
			if w.Code == "unsatisfiable" && located.MatchString(e.Error()) && strings.Contains(e.Error(), tc.want) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no warning %q in %+v", tc.params, tc.want, fam.Warnings)
		}
		if _, err := generator.Generate(fam, generator.Options{Package: "x"}); err != nil {
			t.Errorf("%s: generate: %v", tc.params, err)
		}
	}
}

// Go field names of colliding properties depend on the set of names, not
// their order: every permutation reads the same JSON key into the same
// field.
// TestDefaultOverSharedUnions: a default is judged once against each
// type, however many paths of unions lead to it. Judged again on every
// path, a default under 20 levels of two-branch unions over one $ref
// took 12 s (each level doubling it); under 30, hours.
func TestDefaultOverSharedUnions(t *testing.T) {
	for _, kw := range []string{"anyOf", "oneOf"} {
		params := strings.Replace(refLevels(kw, 30, true), `"x":{"$ref":"#/$defs/d0"}`, `"x":{"$ref":"#/$defs/d0","default":{"a":5}}`, 1)
		fam, err := schema.BuildFamily([]load.Input{{Name: "t.json", Data: oneTool(params)}}, schema.BuildOptions{Package: "x"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", kw, err)
		}
		found := false
		for _, w := range fam.Warnings {
			found = found || w.Code == "default-mismatch" && strings.Contains(w.Message, "matches no branch")
		}
		if !found {
			t.Errorf("%s: no default-mismatch warning in %+v", kw, fam.Warnings)
		}
	}
}

func TestFieldNamesIndependentOfOrder(t *testing.T) {
	keys := []string{"a_b", "aB", "AB", "a-b"}
	var want map[string]string
	for _, perm := range permute(keys) {
		var props []string
		for _, k := range perm {
			props = append(props, fmt.Sprintf("%q:{\"type\":\"string\"}", k))
		}
		fam, err := schema.Build([]load.Input{{Name: "t.json", Data: oneTool(`{"type":"object","properties":{` + strings.Join(props, ",") + `}}`)}}, schema.BuildOptions{Package: "x"})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, f := range fam.Tools[0].Params.Fields {
			got[f.JSONName] = f.GoName
		}
		if want == nil {
			want = got
			if got["AB"] != "AB" {
				t.Errorf("AB is %q, want AB", got["AB"])
			}
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("order %v: %v, want %v", perm, got, want)
		}
	}
}

// Go constant names of colliding enum values depend on the set of
// values, not their order: every permutation gives each value the same
// constant, and the value first by its JSON text the bare name.
func TestEnumConstNamesIndependentOfOrder(t *testing.T) {
	values := []string{"a_b", "a-b", "A B", "a.b"}
	var want map[string]string
	for _, perm := range permute(values) {
		quoted := make([]string, len(perm))
		for i, v := range perm {
			quoted[i] = strconv.Quote(v)
		}
		fam, err := schema.Build([]load.Input{{Name: "t.json", Data: oneTool(`{"type":"object","properties":{"e":{"enum":[` + strings.Join(quoted, ",") + `]}}}`)}}, schema.BuildOptions{Package: "x"})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, v := range fam.Tools[0].Params.Fields[0].Type.Enum {
			got[string(v.JSON)] = v.GoName
		}
		if want == nil {
			want = got
			if got[`"A B"`] != "GetXEAB" || got[`"a_b"`] != "GetXEAB4" {
				t.Errorf("order %v: %v, want \"A B\" GetXEAB (first by JSON text) … \"a_b\" GetXEAB4", perm, got)
			}
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("order %v: %v, want %v", perm, got, want)
		}
	}
}

func permute(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{append([]string(nil), xs...)}
	}
	var out [][]string
	for i := range xs {
		rest := append(append([]string(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permute(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

// FuzzPipeline runs hostile parameter schemas through load, compile,
// taxonomy and generation under small limits: never a panic or a hang, and
// every error located.
func FuzzPipeline(f *testing.F) {
	for _, s := range []string{
		`{"type":"object","properties":{"x":{"$ref":"#/$defs/u"}},"$defs":{"u":{"anyOf":[{"$ref":"#/$defs/u"},{"type":"string"}]}}}`,
		`{"type":"object","properties":{"x":{"$ref":"#/$defs/u"}},"$defs":{"u":{"if":{"$ref":"#/$defs/u"},"then":{"type":"string"}}}}`,
		objectWith(nest(`{"type":"string"}`, `{"type":"array","items":%s}`, 40)),
		objectWith(nest(`{"type":"string"}`, `{"anyOf":[%s,{"type":"integer"}]}`, 40)),
		refLevels("oneOf", 12, false),
		refLevels("allOf", 12, true),
		objectWith(`{"type":"integer","enum":` + intList(300) + `}`),
		manyProps(300),
		`{"type":"object","properties":{"a_b":{"type":"string"},"aB":{"type":"string"},"AB":{"enum":[]}},"required":["AB"]}`,
		`{"type":"object","properties":{"x":{"type":"number","minimum":3,"maximum":1,"enum":[1,1.0,1e0,2]}}}`,
	} {
		f.Add([]byte(s))
	}
	lim := limits.Limits{Depth: 24, Properties: 200, Enum: 200, RefExpansions: 20000, IdentifierLength: 48, OutputBytes: 8 << 20}
	f.Fuzz(func(t *testing.T, params []byte) {
		data := `[{"name":"get_x","input_schema":` + string(params) + "}]"
		_, err := pipeline(data, lim)
		if err == nil {
			return
		}
		var list jsonpos.ErrorList
		if !errorsAs(err, &list) {
			t.Fatalf("unlocated error %T: %v", err, err)
		}
		for _, e := range list {
			if !strings.HasPrefix(e.Error(), "t.json") {
				t.Fatalf("unlocated error %q", e.Error())
			}
		}
	})
}

// sharedUnion is an object of props properties and an anyOf of branches
// branches, each requiring a property of its own.
func sharedUnion(branches, props int) string {
	return unionOver(`"properties":{`+members("a", props, `{"type":"string"}`)+`}`, branches)
}

// sharedListUnion is an object whose list keyword key ("required" or
// "enum") has items items, and an anyOf of branches branches, each with a
// property of its own.
func sharedListUnion(key string, branches, items int) string {
	list := make([]string, items)
	for i := range list {
		if key == "enum" {
			list[i] = fmt.Sprintf(`{"b0":%d}`, i)
		} else {
			list[i] = fmt.Sprintf(`"a%d"`, i)
		}
	}
	return unionOver(fmt.Sprintf(`%q:[%s]`, key, strings.Join(list, ",")), branches)
}

// unionOver is an object with the members shared and an anyOf of branches
// branches, each requiring a property of its own.
func unionOver(shared string, branches int) string {
	bs := make([]string, branches)
	for i := range bs {
		bs[i] = fmt.Sprintf(`{"properties":{"b%d":{"type":"integer"}},"required":["b%d"]}`, i, i)
	}
	return `{"type":"object",` + shared + `,"anyOf":[` + strings.Join(bs, ",") + `]}`
}
