package schema

import (
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/load"
)

// dumpFamily renders every named type of a family, one per line, as
// "Name: body", followed by the family warnings.
func dumpFamily(fam *ir.Family) string {
	var b strings.Builder
	for _, t := range fam.Types {
		fmt.Fprintf(&b, "%s: %s\n", t.GoName, dumpType(t, true))
	}
	for _, w := range fam.Warnings {
		fmt.Fprintf(&b, "warning %s:%d:%d: %s: %s\n", w.Pos.File, w.Pos.Line, w.Pos.Col, w.Pos.Pointer, w.Message)
	}
	return b.String()
}

// dumpType renders a type compactly; named types other than the top one
// appear by name.
func dumpType(t *ir.Type, top bool) string {
	if t == nil {
		return "<nil>"
	}
	null := ""
	if t.Nullable {
		null = "?"
	}
	if t.GoName != "" && !top {
		return t.GoName + null
	}
	var s string
	switch t.Kind {
	case ir.KindAny:
		s = "any"
	case ir.KindNever:
		s = "never"
	case ir.KindBool:
		s = "bool"
	case ir.KindInteger:
		s = "int"
	case ir.KindNumber:
		s = "number"
	case ir.KindString:
		s = "string"
	case ir.KindEnum:
		var vs []string
		for _, e := range t.Enum {
			vs = append(vs, string(e.JSON)+"="+e.GoName)
		}
		s = "enum(" + strings.Join(vs, " ") + ")"
	case ir.KindConst:
		s = "const(" + string(t.Const) + ")"
	case ir.KindArray:
		s = "[]" + dumpType(t.Elem, false)
	case ir.KindMap:
		s = "map<" + dumpType(t.Elem, false) + ">"
		if t.AdditionalFalse {
			s += " closed"
		}
	case ir.KindTuple:
		var ps []string
		for _, p := range t.Prefix {
			ps = append(ps, dumpType(p, false))
		}
		rest := "closed"
		if !t.RestForbidden {
			rest = "..." + dumpType(t.Elem, false)
		}
		s = "tuple(" + strings.Join(append(ps, rest), ", ") + ")"
	case ir.KindObject:
		var fs []string
		for _, f := range t.Fields {
			x := f.JSONName + ":" + dumpType(f.Type, false)
			if f.GoName != goNameGuess(f.JSONName) {
				x = f.JSONName + "(" + f.GoName + "):" + dumpType(f.Type, false)
			}
			if f.Required {
				x += " req"
			}
			if f.Default != nil {
				x += " =" + string(f.Default)
			}
			fs = append(fs, x)
		}
		if t.Extra {
			fs = append(fs, "..."+t.ExtraGoName+":"+dumpType(t.Elem, false))
		}
		if t.AdditionalFalse {
			fs = append(fs, "closed")
		}
		s = "object{" + strings.Join(fs, ", ") + "}"
	case ir.KindUnion:
		var bs []string
		for _, br := range t.Branches {
			bs = append(bs, dumpType(br, false))
		}
		how := map[ir.UnionMatch]string{ir.MatchInOrder: "order", ir.MatchKind: "kind", ir.MatchDiscriminator: "disc"}[t.Match]
		if t.Discriminator != nil {
			how += ":" + t.Discriminator.Property
		}
		op := "anyOf"
		if t.OneOf {
			op = "oneOf"
		}
		s = op + "<" + how + ">(" + strings.Join(bs, " | ") + ")"
	}
	if len(t.Enum) > 0 && t.Kind != ir.KindEnum {
		var vs []string
		for _, e := range t.Enum {
			vs = append(vs, string(e.JSON))
		}
		s += " in(" + strings.Join(vs, ",") + ")"
	}
	for _, p := range t.PatternProperties {
		s += " /" + p.Pattern + "/:" + dumpType(p.Type, false)
	}
	if cs := dumpConstraints(t); cs != "" {
		s += " " + cs
	}
	if t.Format != "" {
		s += " fmt=" + t.Format
	}
	if t.Default != nil {
		s += " =" + string(t.Default)
	}
	if t.Delegated != nil {
		s += " delegated" + string(t.Delegated)
	}
	return s + null
}

func goNameGuess(s string) string {
	if s == "" {
		return ""
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func dumpConstraints(t *ir.Type) string {
	c := t.ConstraintsValue()
	var out []string
	i := func(k string, p *int64) {
		if p != nil {
			out = append(out, fmt.Sprintf("%s=%d", k, *p))
		}
	}
	n := func(k string, p *ir.Number) {
		if p != nil {
			out = append(out, fmt.Sprintf("%s=%s", k, *p))
		}
	}
	i("minLength", c.MinLength)
	i("maxLength", c.MaxLength)
	if c.Pattern != "" {
		out = append(out, "pattern="+c.Pattern)
	}
	n("min", c.Minimum)
	n("max", c.Maximum)
	n("xmin", c.ExclusiveMinimum)
	n("xmax", c.ExclusiveMaximum)
	n("multipleOf", c.MultipleOf)
	i("minItems", c.MinItems)
	i("maxItems", c.MaxItems)
	if c.UniqueItems {
		out = append(out, "unique")
	}
	if c.Contains != nil {
		out = append(out, "contains="+dumpType(c.Contains, false))
	}
	i("minContains", c.MinContains)
	i("maxContains", c.MaxContains)
	i("minProps", c.MinProperties)
	i("maxProps", c.MaxProperties)
	for _, d := range c.DependentRequired {
		out = append(out, "dep:"+d.Property+"->"+strings.Join(d.Requires, "+"))
	}
	if c.PropertyNames != nil {
		out = append(out, "names="+dumpType(c.PropertyNames, false))
	}
	if len(out) == 0 {
		return ""
	}
	return "[" + strings.Join(out, " ") + "]"
}

// compileTools compiles a tool list given as JSON text.
func compileTools(t *testing.T, src string) (*ir.Family, error) {
	t.Helper()
	doc, err := load.Tools([]load.Input{{Name: "tools.json", Data: src}}, load.Options{})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return Compile(doc, CompileOptions{Package: "p"})
}

// TestNumCmp: numCmp agrees with exact rational comparison on every pair
// of JSON numbers (the text of number nodes), and refuses other text.
func TestNumCmp(t *testing.T) {
	nums := []string{"0", "-0", "7", "-7", "10", "9", "999999999999999999", "-999999999999999999",
		"1000000000000000000", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
		"1.5", "1e2", "100", "1E2", "-1e-2", "0.0", "2.0000000000000000001", "x"}
	node := func(s string) *jsonpos.Node { return &jsonpos.Node{Kind: jsonpos.NumberNode, Num: s} }
	for _, a := range nums {
		for _, b := range nums {
			d, ok := numCmp(node(a), node(b))
			x, ok1 := new(big.Rat).SetString(a)
			y, ok2 := new(big.Rat).SetString(b)
			if ok != (ok1 && ok2) || ok && d != x.Cmp(y) {
				t.Errorf("numCmp(%s, %s) = %d, %v; want the rational comparison", a, b, d, ok)
			}
		}
		if v, ok := plainInt(node(a)); ok {
			if r, _ := new(big.Rat).SetString(a); !r.IsInt() || r.Num().Int64() != v {
				t.Errorf("plainInt(%s) = %d", a, v)
			}
		}
	}
	if _, ok := numCmp(node("1"), &jsonpos.Node{Kind: jsonpos.StringNode, Str: "1"}); ok {
		t.Error("numCmp compared a string")
	}
}

// TestConstraintsNil: a type's Constraints are nil exactly when its schema
// sets no constraint, whatever keywords it writes that set none (a false
// uniqueItems, an empty pattern). The generator's shape sums tell a nil
// Constraints from an empty one, so two schemas that differ only so must
// both leave it nil to share a Go type.
func TestConstraintsNil(t *testing.T) {
	props := map[string]string{
		"plain":       `{"type":"string"}`,
		"emptyPat":    `{"type":"string","pattern":""}`,
		"arr":         `{"type":"array","items":{"type":"string"}}`,
		"notUnique":   `{"type":"array","items":{"type":"string"},"uniqueItems":false}`,
		"noDeps":      `{"type":"object","dependentRequired":{}}`,
		"num":         `{"type":"number"}`,
		"minLen":      `{"type":"string","minLength":1}`,
		"unique":      `{"type":"array","items":{"type":"string"},"uniqueItems":true}`,
		"max":         `{"type":"integer","maximum":3}`,
		"minProps":    `{"type":"object","minProperties":1}`,
		"names":       `{"type":"object","propertyNames":{"maxLength":3}}`,
		"contains":    `{"type":"array","contains":{"type":"string"}}`,
		"multipleOf":  `{"type":"number","multipleOf":2}`,
		"dependentRq": `{"type":"object","dependentRequired":{"a":["b"]}}`,
	}
	// dependentRequired is delegated (checked on the object as sent).
	wantNil := map[string]bool{"plain": true, "emptyPat": true, "arr": true, "notUnique": true, "noDeps": true, "num": true, "dependentRq": true}
	var ps []string
	for name, s := range props {
		ps = append(ps, fmt.Sprintf("%q:%s", name, s))
	}
	fam, err := compileTools(t, `[{"name":"t","input_schema":{"type":"object","properties":{`+strings.Join(ps, ",")+`}}}]`)
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, f := range fam.Tools[0].Params.Fields {
		seen++
		if got := f.Type.Constraints == nil; got != wantNil[f.JSONName] {
			t.Errorf("%s %s: Constraints nil is %v, want %v (%+v)", f.JSONName, props[f.JSONName], got, wantNil[f.JSONName], f.Type.Constraints)
		}
	}
	if seen != len(props) {
		t.Errorf("%d fields, want %d", seen, len(props))
	}
}

// TestUnknownKeywordWarnings: a key that looks like a misspelt keyword,
// OpenAPI's nullable and a misspelt format are ignored with a warning
// naming them; an extension key, an unrelated one or an unknown format
// unlike any known passes silently.
func TestUnknownKeywordWarnings(t *testing.T) {
	fam, err := compileTools(t, `[{"name":"t","input_schema":{"type":"object","properties":{
		"a":{"type":"string","minLenght":3},
		"b":{"type":"string","nullable":true},
		"c":{"type":"string","x-minLength":1,"widget":"textarea"},
		"d":{"type":"string","format":"emial"},
		"e":{"type":"string","format":"phone"}},"require":["a"]}}]`)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range fam.Warnings {
		if w.Code == "unknown-keyword" || w.Code == "unknown-format" {
			got = append(got, w.Pos.Pointer+": "+w.Message)
		}
	}
	want := []string{
		`/0/input_schema/require: unknown keyword "require" is ignored; did you mean "required"?`,
		`/0/input_schema/properties/a/minLenght: unknown keyword "minLenght" is ignored; did you mean "minLength"?`,
		`/0/input_schema/properties/d/format: unknown format "emial" is not checked; did you mean "email"?`,
		`/0/input_schema/properties/b/nullable: "nullable" is OpenAPI, not JSON Schema, and is ignored: null is refused here; allow it with a type list ("type": ["string", "null"])`,
	}
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
