package generator

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// TypeScript returns the code-mode declarations of f as one TypeScript
// declaration file (what a compiler checks and what tool_code_help answers
// for the root path).
func TypeScript(f *ir.Family) string {
	d := CodeDecls(f)
	return d.Render()
}

// CodeDecls computes the code-mode declarations of f from the IR: one
// namespace of named types and one constant of ops per group, JSDoc from
// descriptions, notes, policies and examples, parameter and result types
// from the compiled JSON Schema. Every string from a definition reaches the
// text through tsdecl.Comment (comments) or tsdecl.String (literals).
func CodeDecls(f *ir.Family) tsdecl.Decls {
	ts := &tsGen{fam: f, index: map[*ir.Type]int{}}
	ts.build()
	return ts.d
}

// CodeOutline is CodeDecls without types, docs or signatures: the groups,
// and each op's path, group and key. That is all Decls.CodeDescription
// reads, so the code tool's description costs a fraction of the whole
// declarations on a large family.
func CodeOutline(f *ir.Family) tsdecl.Decls {
	ts := &tsGen{fam: f}
	ts.groups()
	for _, ops := range surfGroupOps(f) {
		for _, op := range ops {
			ts.d.Ops = append(ts.d.Ops, tsdecl.Op{Path: op.Path, Group: ts.ident[op.Group], Key: opKey(op)})
		}
	}
	return ts.d
}

type tsGen struct {
	fam   *ir.Family
	d     tsdecl.Decls
	index map[*ir.Type]int // named type → index in d.Types
	ident map[string]string
}

// tsTypeNames gives each named type its TypeScript name: its Go name,
// unless that holds a character a Go identifier takes and an ECMAScript
// one does not (a letter that is also Pattern_Syntax, U+2E2F), which is
// spelled as its code point (GetXU2E2F), numbered when that is taken.
func tsTypeNames(types []*ir.Type) []string {
	out := make([]string, len(types))
	used := map[string]bool{}
	for _, t := range types {
		used[t.GoName] = true
	}
	for i, t := range types {
		if tsIdentOK(t.GoName) {
			out[i] = t.GoName
			continue
		}
		var b strings.Builder
		for _, r := range t.GoName {
			if tsIdentOK(string(r)) {
				b.WriteRune(r)
			} else {
				fmt.Fprintf(&b, "U%04X", r)
			}
		}
		n := b.String()
		for k := 2; used[n]; k++ {
			n = b.String() + strconv.Itoa(k)
		}
		used[n] = true
		out[i] = n
	}
	return out
}

// tsIdentOK reports whether a Go identifier is an ECMAScript identifier
// too: Go's letters are ID_Start but for the Pattern_Syntax ones.
func tsIdentOK(name string) bool {
	for _, r := range name {
		if unicode.Is(unicode.Pattern_Syntax, r) || unicode.Is(unicode.Pattern_White_Space, r) {
			return false
		}
	}
	return true
}

// groups declares the family's groups and their identifiers.
func (ts *tsGen) groups() {
	f := ts.fam
	names := make([]string, len(f.Groups))
	for i, g := range f.Groups {
		names[i] = g.Name
	}
	ids := tsdecl.Idents(names)
	ts.ident = map[string]string{}
	for i, g := range f.Groups {
		ts.ident[g.Name] = ids[i]
		ts.d.Groups = append(ts.d.Groups, tsdecl.Group{Name: g.Name, Ident: ids[i], Summary: g.Summary})
	}
}

func (ts *tsGen) build() {
	f := ts.fam
	ts.groups()
	// Each named type lives in the namespace of the first group (in group
	// order) whose ops reach it.
	var order []*ir.Type
	owner := map[*ir.Type]string{}
	var reach func(t *ir.Type, g string)
	reach = func(t *ir.Type, g string) {
		if t == nil {
			return
		}
		if t.GoName != "" {
			if _, ok := owner[t]; ok {
				return
			}
			owner[t] = g
			order = append(order, t)
		}
		for _, fl := range t.Fields {
			reach(fl.Type, g)
		}
		reach(t.Elem, g)
		for _, b := range t.Branches {
			reach(b, g)
		}
		for _, p := range t.Prefix {
			reach(p, g)
		}
	}
	for _, ops := range surfGroupOps(f) {
		for _, op := range ops {
			reach(op.Tool.Params, ts.ident[op.Group])
			reach(op.Tool.Result, ts.ident[op.Group])
		}
	}
	tsNames := tsTypeNames(order)
	for i, t := range order {
		ts.index[t] = len(ts.d.Types)
		ts.d.Types = append(ts.d.Types, tsdecl.Type{Group: owner[t], Name: tsNames[i]})
	}
	for i, t := range order {
		var uses []int
		ts.d.Types[i].Text = ts.typeDecl(t, ts.d.Types[i].Name, &uses)
		ts.d.Types[i].Uses = dedupInts(uses)
	}
	for _, ops := range surfGroupOps(f) {
		for _, op := range ops {
			ts.d.Ops = append(ts.d.Ops, ts.opDecl(op))
		}
	}
}

func dedupInts(in []int) []int {
	seen := map[int]bool{}
	var out []int
	for _, v := range in {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// opKey is the op's property path below its group constant.
func opKey(op *ir.Op) []string {
	if op.Path == op.Group {
		return nil
	}
	if rest, ok := strings.CutPrefix(op.Path, op.Group+"."); ok {
		return strings.Split(rest, ".")
	}
	return strings.Split(op.Path, ".")
}

// opDecl is an op's JSDoc and call signature.
func (ts *tsGen) opDecl(op *ir.Op) tsdecl.Op {
	var uses []int
	args := "args"
	if !hasRequired(op.Tool.Params) {
		args += "?"
	}
	sig := "(" + args + ": " + ts.ref(op.Tool.Params, &uses)
	if op.Kind == runtime.OpWrite {
		sig += ", options?: CallOptions"
	}
	res := "unknown"
	if op.Tool.Result != nil {
		res = ts.ref(op.Tool.Result, &uses)
	}
	sig += "): Promise<" + res + ">"

	var doc strings.Builder
	doc.WriteString(strings.TrimSpace(op.Tool.Description))
	kind := "read"
	if op.Kind == runtime.OpWrite {
		kind = "write; refused unless writes are allowed"
		if op.DryRunDefault {
			kind += "; runs as a dry run unless options.dry_run is false"
		}
	}
	fmt.Fprintf(&doc, "\n\nOp %s (%s), tool %s.", op.Path, kind, op.Tool.Name)
	for _, n := range op.Notes {
		doc.WriteString("\n" + strings.TrimSpace(n))
	}
	if p := op.Policy; p != nil {
		for _, s := range []struct {
			title string
			items []string
		}{{"Do", p.Do}, {"Don't", p.Dont}, {"Edge cases", p.EdgeCases}} {
			if len(s.items) == 0 {
				continue
			}
			doc.WriteString("\n" + s.title + ":")
			for _, it := range s.items {
				doc.WriteString("\n- " + strings.TrimSpace(it))
			}
		}
	}
	if len(op.Examples) > 0 && len(op.Examples[0].Args) > 0 {
		ex := op.Examples[0]
		doc.WriteString("\n@example")
		if d := strings.TrimSpace(ex.Description); d != "" {
			doc.WriteString(" " + d)
		}
		doc.WriteString("\nawait " + ts.ident[op.Group] + tsdecl.Access(opKey(op)) + "(" + jsonBreaks.Replace(string(ex.Args)) + ")")
	}
	return tsdecl.Op{Path: op.Path, Group: ts.ident[op.Group], Key: opKey(op), Doc: tsdecl.Comment(doc.String(), ""), Sig: sig, Uses: dedupInts(uses)}
}

// jsonBreaks shows escaped the characters of a JSON text that
// tsdecl.Comment takes for line breaks (JSON allows them raw in a string,
// and encoding/json leaves U+0085 so): escaped, each reads as itself, so an
// example or a default stays one comment line that a model can copy as
// the value it is.
var jsonBreaks = strings.NewReplacer("\u0085", `\u0085`, "\u2028", `\u2028`, "\u2029", `\u2029`)

func hasRequired(t *ir.Type) bool {
	if t == nil {
		return false
	}
	for _, f := range t.Fields {
		if f.Required {
			return true
		}
	}
	return t.Kind != ir.KindObject
}

// typeDecl is a named type's declaration under its TypeScript name: an
// interface for objects, an alias for everything else (the non-null
// shape; references add | null).
func (ts *tsGen) typeDecl(t *ir.Type, name string, uses *[]int) string {
	doc := tsdecl.Comment(t.Doc, "")
	if t.Kind == ir.KindObject {
		return doc + "interface " + name + " " + ts.objectBody(t, uses, "") + "\n"
	}
	return doc + "type " + name + " = " + ts.shape(t, uses, "") + ";\n"
}

// ref is a use of t: a named type by its qualified name, else its inline
// shape; | null when t is nullable.
func (ts *tsGen) ref(t *ir.Type, uses *[]int) string {
	return ts.refIn(t, uses, "")
}

func (ts *tsGen) refIn(t *ir.Type, uses *[]int, indent string) string {
	if t == nil {
		return "unknown"
	}
	var s string
	if i, ok := ts.index[t]; ok {
		*uses = append(*uses, i)
		s = ts.d.Types[i].Group + "." + ts.d.Types[i].Name
	} else {
		s = ts.shape(t, uses, indent)
	}
	if t.Nullable && s != "unknown" && s != "null" {
		s += " | null"
	}
	return s
}

// elemRef is ref for an array element: unions are parenthesised.
func (ts *tsGen) elemRef(t *ir.Type, uses *[]int, indent string) string {
	s := ts.refIn(t, uses, indent)
	if strings.Contains(s, " | ") {
		return "(" + s + ")"
	}
	return s
}

// shape is the TypeScript type of t's non-null values.
func (ts *tsGen) shape(t *ir.Type, uses *[]int, indent string) string {
	if lit, ok := literalUnion(t); ok {
		return lit
	}
	switch t.Kind {
	case ir.KindNever:
		return "never"
	case ir.KindBool:
		return "boolean"
	case ir.KindInteger, ir.KindNumber:
		return "number"
	case ir.KindString, ir.KindEnum:
		return "string"
	case ir.KindArray:
		return ts.elemRef(t.Elem, uses, indent) + "[]"
	case ir.KindTuple:
		min := 0
		if t.ConstraintsValue().MinItems != nil {
			min = int(*t.ConstraintsValue().MinItems)
		}
		var parts []string
		for i, p := range t.Prefix {
			s := ts.refIn(p, uses, indent)
			if i >= min {
				if strings.Contains(s, " | ") {
					s = "(" + s + ")"
				}
				s += "?"
			}
			parts = append(parts, s)
		}
		if !t.RestForbidden {
			parts = append(parts, "..."+ts.elemRef(t.Elem, uses, indent)+"[]")
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case ir.KindObject:
		return ts.objectBody(t, uses, indent)
	case ir.KindMap:
		return "{ [key: string]: " + ts.refIn(t.Elem, uses, indent) + " }"
	case ir.KindUnion:
		var parts []string
		for _, b := range t.Branches {
			parts = append(parts, ts.refIn(b, uses, indent))
		}
		if len(parts) == 0 {
			return "never"
		}
		return strings.Join(parts, " | ")
	}
	return "unknown"
}

// objectBody renders an object's members, one a line, at indent.
func (ts *tsGen) objectBody(t *ir.Type, uses *[]int, indent string) string {
	in := indent + "  "
	var b strings.Builder
	b.WriteString("{\n")
	for _, f := range t.Fields {
		doc := strings.TrimSpace(f.Doc)
		if f.Default != nil {
			if doc != "" {
				doc += "\n"
			}
			doc += "@default " + jsonBreaks.Replace(string(f.Default))
		}
		b.WriteString(tsdecl.Comment(doc, in))
		opt := ""
		if !f.Required {
			opt = "?"
		}
		b.WriteString(in + tsdecl.PropertyName(f.JSONName) + opt + ": " + ts.refIn(f.Type, uses, in) + ";\n")
	}
	if t.Extra || (!t.AdditionalFalse && len(t.Fields) == 0) {
		v := "unknown"
		if t.Extra && len(t.Fields) == 0 {
			v = ts.refIn(t.Elem, uses, in)
		}
		b.WriteString(in + "[key: string]: " + v + ";\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// literalUnion renders an enum or const of JSON scalars as a union of
// literal types; ok is false when a value is not a scalar.
func literalUnion(t *ir.Type) (string, bool) {
	var vals []json.RawMessage
	switch {
	case t.Kind == ir.KindConst && t.Const != nil:
		vals = []json.RawMessage{t.Const}
	case len(t.Enum) > 0:
		for _, e := range t.Enum {
			vals = append(vals, e.JSON)
		}
	default:
		return "", false
	}
	var parts []string
	for _, v := range vals {
		s, ok := literalType(v)
		if !ok {
			return "", false
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " | "), true
}

func literalType(v json.RawMessage) (string, bool) {
	var x any
	d := json.NewDecoder(strings.NewReader(string(v)))
	d.UseNumber()
	if err := d.Decode(&x); err != nil {
		return "", false
	}
	switch x := x.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(x), true
	case string:
		return tsdecl.String(x), true
	case json.Number:
		f, err := x.Float64()
		// A nonzero number nearer zero than any float64 reads as 0:
		// the literal 0 would be a value the schema does not allow.
		mantissa, _, _ := strings.Cut(strings.ToLower(x.String()), "e")
		if err != nil || f != f || f > 1e300 || f < -1e300 || f == 0 && strings.ContainsAny(mantissa, "123456789") {
			return "number", true
		}
		return strconv.FormatFloat(f, 'g', -1, 64), true
	}
	return "", false
}

// emitCode writes, into surfaces_gen.go, the code surface:
// CodeDeclarations (the TypeScript declarations as tsdecl.Decls) and Code,
// the codemode tools over Registry. examples/ontology/surfaces_gen.go
// shows the output.
func (g *gen) emitCode(f *jen.File, rt string, toolSlice *jen.Statement) {
	cm := g.runtimePkg + "/codemode"
	td := cm + "/tsdecl"
	d := CodeDecls(g.fam)
	ints := func(v []int) jen.Code {
		if len(v) == 0 {
			return jen.Nil()
		}
		var c []jen.Code
		for _, i := range v {
			c = append(c, jen.Lit(i))
		}
		return jen.Index().Int().Values(c...)
	}
	strs := func(v []string) jen.Code {
		if len(v) == 0 {
			return jen.Nil()
		}
		var c []jen.Code
		for _, s := range v {
			c = append(c, strLit(s))
		}
		return jen.Index().String().Values(c...)
	}
	var groups, types, ops []jen.Code
	for _, gr := range d.Groups {
		groups = append(groups, jen.Values(jen.Dict{jen.Id("Name"): strLit(gr.Name), jen.Id("Ident"): strLit(gr.Ident), jen.Id("Summary"): strLit(gr.Summary)}))
	}
	for _, t := range d.Types {
		types = append(types, jen.Values(jen.Dict{jen.Id("Group"): strLit(t.Group), jen.Id("Name"): strLit(t.Name), jen.Id("Text"): strLit(t.Text), jen.Id("Uses"): ints(t.Uses)}))
	}
	for _, o := range d.Ops {
		ops = append(ops, jen.Values(jen.Dict{jen.Id("Path"): strLit(o.Path), jen.Id("Group"): strLit(o.Group), jen.Id("Key"): strs(o.Key), jen.Id("Doc"): strLit(o.Doc), jen.Id("Sig"): strLit(o.Sig), jen.Id("Uses"): ints(o.Uses)}))
	}
	f.Add(comment("CodeDeclarations are the TypeScript declarations of the family's ops"))
	f.Add(comment("for code mode: per group a namespace of types and a constant of ops."))
	f.Add(comment("CodeDeclarations.Render() is the whole declaration file."))
	f.Var().Id("CodeDeclarations").Op("=").Qual(td, "Decls").Values(jen.Dict{
		jen.Id("Groups"): jen.Index().Qual(td, "Group").Values(regLines(groups)...),
		jen.Id("Types"):  jen.Index().Qual(td, "Type").Values(regLines(types)...),
		jen.Id("Ops"):    jen.Index().Qual(td, "Op").Values(regLines(ops)...),
	})
	f.Line()
	f.Add(comment("Code returns the code surface: tool_code runs a TypeScript script whose"))
	f.Add(comment("op calls go through tool_exec's path (decode, validate, write gating,"))
	f.Add(comment("dry run, idempotency, events), and tool_code_help returns the"))
	f.Add(comment("declarations of a group or op on demand. Ops are executed by h."))
	f.Func().Id("Code").Params(jen.Id("h").Id("Handlers"), jen.Id("opts").Op("...").Qual(cm, "Option")).Add(toolSlice).Block(
		jen.List(jen.Id("tools"), jen.Err()).Op(":=").Qual(cm, "Tools").Call(jen.Id("Registry"), jen.Id("Tools").Call(jen.Id("h")), jen.Op("&").Id("CodeDeclarations"), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			comment("Registry, Tools and CodeDeclarations are generated together; only a hand edit gets here."),
			jen.Panic(jen.Lit("toolgen: generated registry and tools disagree: ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Return(jen.Id("tools")),
	)
	f.Line()
	f.Add(comment("CodeDefinitions returns the provider-facing definitions of the code"))
	f.Add(comment("surface's tools, as a JSON array of OpenAI chat tool definitions."))
	f.Func().Id("CodeDefinitions").Params().Qual(jsonPkg, "RawMessage").Block(
		jen.Return(jen.Qual(rt, "Definitions").Call(jen.Id("Code").Call(jen.Id("UnimplementedHandlers").Values()))),
	)
	f.Line()
}
