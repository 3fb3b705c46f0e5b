package generator

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// emitTypes writes types_gen.go: the runtime version guard, one params
// struct and result type per tool, and every named type.
func emitTypes(g *gen, s *srcFile) error {
	s.text("// This check fails to compile when the package was generated for an incompatible runtime.\n")
	s.text("const _ = ")
	s.qual(g.runtimePkg, "SupportPackageIsVersion1")
	s.text("\n")
	for _, t := range g.fam.Tools {
		if t.Result == nil {
			// // ListIssuesResult is the result of list_issues (raw JSON).
			// type ListIssuesResult = json.RawMessage
			s.decl()
			s.comment("", fmt.Sprintf("%s is the result of %s (free-form JSON).", resultName(t), t.Name))
			s.text("type ")
			s.ident(resultName(t))
			s.text(" = ")
			s.qual(jsonPkg, "RawMessage")
			s.text("\n")
		}
	}
	for _, t := range g.fam.Types {
		if g.typeDeclText(s, t) {
			continue
		}
		f := s.jen()
		f.Line()
		g.emitTypeDecl(f, t)
	}
	return nil
}

// typeDeclText writes the declaration of t (and its UnmarshalJSON
// method) as text, laid out as gofmt lays it out, and reports true, or
// reports false for the types emitTypeDecl writes as code: tuples,
// objects with their own MarshalJSON and unions with a branch that
// MarshalJSON converts (containsDate).
func (g *gen) typeDeclText(s *srcFile, t *ir.Type) bool {
	if c := g.alias[t]; c != nil {
		s.decl()
		g.aliasDecl(s, t, c)
		g.enumConstsText(s, t)
		return true
	}
	if t.Kind == ir.KindUnion && len(t.Branches) > 0 && !slices.ContainsFunc(t.Branches, containsDate) {
		g.unionText(s, t)
		return true
	}
	if t.Kind == ir.KindUnion || t.Kind == ir.KindTuple || t.Kind == ir.KindObject && (needsCustomMarshal(t) || g.hasNullFlags(t)) {
		return false
	}
	s.decl()
	s.comment("", typeDoc(t))
	s.text("type ")
	s.ident(t.GoName)
	switch {
	case t.Kind == ir.KindObject:
		g.structText(s, t)
		g.unmarshalText(s, t)
	case !hasMethods(t):
		s.text(" = any\n")
	default:
		s.text(" ")
		g.underlyingOf(t).write(s)
		s.text("\n")
		g.enumConstsText(s, t)
	}
	return true
}

// structText writes the struct type of object t, which has no
// MarshalJSON of its own: every field with its doc comment (so gofmt
// aligns no two of them) and JSON tag.
func (g *gen) structText(s *srcFile, t *ir.Type) {
	if len(t.Fields) == 0 {
		s.text(" struct{}\n")
		return
	}
	s.text(" struct {\n")
	for _, fl := range t.Fields {
		s.comment("\t", fieldDoc(fl))
		s.text("\t")
		s.ident(fl.GoName)
		s.text(" ")
		g.fieldTypeOf(fl).write(s)
		s.text(" ")
		s.tag("json", jsonTag(fl, false))
		s.text("\n")
	}
	s.text("}\n")
}

// unionText writes emitUnion's declaration of union t as text, for a union
// with branches none of which MarshalJSON converts (containsDate).
func (g *gen) unionText(s *srcFile, t *ir.Type) {
	names := branchNames(t)
	several := severalMatch(t)
	s.decl()
	s.comment("", typeDoc(t))
	s.text("type ")
	s.ident(t.GoName)
	s.text(" struct {\n")
	for i, b := range t.Branches {
		s.comment("\t", branchDoc(b, i, names[i], several))
		s.text("\t")
		s.ident(names[i])
		s.text(" ")
		g.unionFieldTypeOf(b).write(s)
		s.text("\n")
	}
	s.text("}\n\n")
	if several {
		g.anyOfMarshalText(s, t, names)
		g.unmarshalText(s, t)
		return
	}
	s.comment("", unionMarshalDoc)
	s.text("func (x ")
	s.ident(t.GoName)
	s.text(") MarshalJSON() ([]byte, error) {\n\tswitch {\n")
	for _, n := range names {
		s.text("\tcase x.")
		s.ident(n)
		s.text(" != nil:\n\t\treturn ")
		s.qual(jsonPkg, "Marshal")
		s.text("(x.")
		s.ident(n)
		s.text(")\n")
	}
	s.text("\t}\n\treturn []byte(\"null\"), nil\n}\n")
	g.unmarshalText(s, t)
}

// branchDoc is the doc comment of the field of a union's branch b, the
// i-th (from 0), named name; several is whether a value may set several
// of the union's branches (severalMatch). Branches are counted from 1, as
// the names count them (Option1, Value2).
func branchDoc(b *ir.Type, i int, name string, several bool) string {
	if b.Doc != "" && b.GoName == "" {
		return name + ": " + b.Doc
	}
	if several {
		return fmt.Sprintf("%s is set when the value matches branch %d; with anyOf several may be set.", name, i+1)
	}
	return fmt.Sprintf("%s is set when the value matches branch %d.", name, i+1)
}

// unionMarshalDoc is the doc comment of a union's MarshalJSON, and
// anyOfMarshalDoc that of a union whose value may set several branches
// (severalMatch).
const (
	unionMarshalDoc = "MarshalJSON encodes the branch that is set (null when none is)."
	anyOfMarshalDoc = "MarshalJSON encodes the branches that are set (null when none is):\n" +
		"when every one is an object, their members merged, the first branch's\n" +
		"on a repeated key; else the first that is set."
)

// anyOfMarshalText writes the MarshalJSON of a union whose value may set
// several branches (severalMatch), as text:
//
//	func (x T) MarshalJSON() ([]byte, error) {
//		var vs [2]any
//		if x.A != nil {
//			vs[0] = x.A
//		}
//		...
//		return wire.MarshalAnyOf(json.Marshal, vs[:])
//	}
func (g *gen) anyOfMarshalText(s *srcFile, t *ir.Type, names []string) {
	s.comment("", anyOfMarshalDoc)
	s.text("func (x ")
	s.ident(t.GoName)
	s.text(") MarshalJSON() ([]byte, error) {\n\tvar vs [")
	s.int(len(names))
	s.text("]any\n")
	for i, n := range names {
		s.text("\tif x.")
		s.ident(n)
		s.text(" != nil {\n\t\tvs[")
		s.int(i)
		s.text("] = x.")
		s.ident(n)
		s.text("\n\t}\n")
	}
	s.text("\treturn ")
	s.qual(g.wirePkg, "MarshalAnyOf")
	s.text("(")
	s.qual(jsonPkg, "Marshal")
	s.text(", vs[:])\n}\n")
}

// unmarshalText writes emitUnmarshal's method as text, or as code when
// it reads null itself (decodesNull).
func (g *gen) unmarshalText(s *srcFile, t *ir.Type) {
	if decodesNull(t) {
		g.emitUnmarshal(s.jen(), t)
		return
	}
	s.text("\n")
	s.comment("", unmarshalDoc)
	s.text("func (x *")
	s.ident(t.GoName)
	s.text(") UnmarshalJSON(data []byte) error {\n")
	if g.tabled(t) {
		if t.Kind == ir.KindUnion {
			// A union holds one value (resetValue).
			s.text("\t*x = ")
			s.ident(t.GoName)
			s.text("{}\n")
		}
		s.text("\treturn ")
		s.qual(g.shapePkg(), "Unmarshal")
		s.text("(&")
		s.ident(tableName(g.canonical(t)))
		s.text(", data, ")
		s.qual("unsafe", "Pointer")
		s.text("(x))\n}\n")
		return
	}
	s.text("\td := ")
	s.qual(g.wirePkg, "NewDecoder")
	s.text("(data)\n\tx.decodeWire(d)\n\tif err := d.Close(); err != nil {\n\t\treturn err\n\t}\n\treturn d.Report(\"\", nil)\n}\n")
}

// enumConstsText writes emitEnumConsts's declaration as text: the names
// aligned one space past the longest (gofmt's column, counted in runes).
func (g *gen) enumConstsText(s *srcFile, t *ir.Type) {
	if t.Kind != ir.KindEnum {
		return
	}
	type def struct{ name, value string }
	var defs []def
	width := 0
	for _, v := range t.Enum {
		var str string
		if json.Unmarshal(v.JSON, &str) != nil || v.GoName == "" {
			continue
		}
		defs = append(defs, def{v.GoName, str})
		width = max(width, utf8.RuneCountInString(v.GoName))
	}
	if len(defs) == 0 {
		return
	}
	s.text("\n")
	s.comment("", fmt.Sprintf("The values of %s.", t.GoName))
	s.text("const (\n")
	for _, d := range defs {
		s.text("\t")
		s.ident(d.name)
		spaces(s, width-utf8.RuneCountInString(d.name)+1)
		s.ident(t.GoName)
		s.text(" = ")
		s.lit(d.value)
		s.text("\n")
	}
	s.text(")\n")
}

// aliasDecl writes the declaration of t as an alias of c, the earlier
// type of its shape:
//
//	// ListBillingIssueParams has the shape of ListGithubIssueParams, whose code it shares.
//	type ListBillingIssueParams = ListGithubIssueParams
func (g *gen) aliasDecl(s *srcFile, t, c *ir.Type) {
	if t.Doc == "" {
		s.comment("", fmt.Sprintf("%s has the shape of %s, whose code it shares.", t.GoName, c.GoName))
	} else {
		s.comment("", typeDoc(t))
		s.comment("", fmt.Sprintf("It has the shape of %s, whose code it shares.", c.GoName))
	}
	s.text("type ")
	s.ident(t.GoName)
	s.text(" = ")
	s.ident(c.GoName)
	s.text("\n")
}

// hasMethods reports whether a named type gets decode and validate methods
// (interface types cannot: named any types are aliases).
func hasMethods(t *ir.Type) bool {
	return t != nil && t.GoName != "" && !isInterface(t)
}

// isInterface reports whether t is represented by the Go type any (any,
// never, and consts of arrays, objects or null).
func isInterface(t *ir.Type) bool {
	return t.Kind == ir.KindAny || t.Kind == ir.KindNever || (t.Kind == ir.KindConst && constKind(t.Const) == "any")
}

// nilable reports whether the Go representation of t has nil for "absent"
// (slices, maps, interfaces).
func nilable(t *ir.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind {
	case ir.KindArray, ir.KindMap, ir.KindAny, ir.KindNever:
		return true
	}
	return isInterface(t)
}

// goType is the Go type expression of t (named types by name).
func (g *gen) goType(t *ir.Type) *jen.Statement { return g.typeOf(t).code() }

// elemType is the Go type of an array item, map value or union branch:
// nullable items are pointers (nil is null) unless nil already is.
func (g *gen) elemType(t *ir.Type) *jen.Statement { return g.elemOf(t).code() }

// typeExpr is a Go type expression, written as jennifer code (code) or
// as text (write): a type name (path.name, or name in this package or
// the universe) with an optional type argument, or a pointer, slice or
// map[string] of elem.
type typeExpr struct {
	// prefix is "*", "[]" or "map[string]" before elem, or "".
	prefix     string
	elem       *typeExpr
	path, name string
	arg        *typeExpr
}

func namedType(name string) *typeExpr { return &typeExpr{name: name} }

func (x *typeExpr) code() *jen.Statement {
	switch x.prefix {
	case "*":
		return jen.Op("*").Add(x.elem.code())
	case "[]":
		return jen.Index().Add(x.elem.code())
	case "map[string]":
		return jen.Map(jen.String()).Add(x.elem.code())
	}
	c := jen.Id(x.name)
	if x.path != "" {
		c = jen.Qual(x.path, x.name)
	}
	if x.arg != nil {
		c = c.Types(x.arg.code())
	}
	return c
}

func (x *typeExpr) write(s *srcFile) {
	switch x.prefix {
	case "*":
		s.text("*")
	case "[]":
		s.text("[]")
	case "map[string]":
		s.text("map[string]")
	}
	if x.prefix != "" {
		x.elem.write(s)
		return
	}
	if x.path != "" {
		s.qual(x.path, x.name)
	} else {
		s.ident(x.name)
	}
	if x.arg != nil {
		s.text("[")
		x.arg.write(s)
		s.text("]")
	}
}

// typeOf is goType's expression.
func (g *gen) typeOf(t *ir.Type) *typeExpr {
	if t == nil {
		return namedType("any")
	}
	if t.GoName != "" {
		return namedType(t.GoName)
	}
	return g.underlyingOf(t)
}

// underlyingOf is the Go type expression of t ignoring its name.
func (g *gen) underlyingOf(t *ir.Type) *typeExpr {
	switch t.Kind {
	case ir.KindBool:
		return namedType("bool")
	case ir.KindInteger:
		return namedType("int64")
	case ir.KindNumber:
		return namedType("float64")
	case ir.KindString, ir.KindEnum:
		if isTime(t) {
			return &typeExpr{path: timePkg, name: "Time"}
		}
		return namedType("string")
	case ir.KindConst:
		return namedType(constGoType(t.Const))
	case ir.KindArray:
		return &typeExpr{prefix: "[]", elem: g.elemOf(t.Elem)}
	case ir.KindMap:
		return &typeExpr{prefix: "map[string]", elem: g.elemOf(t.Elem)}
	}
	return namedType("any")
}

// elemOf is elemType's expression.
func (g *gen) elemOf(t *ir.Type) *typeExpr {
	if t != nil && t.Nullable && !nilable(t) {
		return &typeExpr{prefix: "*", elem: g.typeOf(t)}
	}
	return g.typeOf(t)
}

// constKind is the JSON kind of a const literal: "string", "bool",
// "integer", "number" or "any".
func constKind(lit json.RawMessage) string {
	s := strings.TrimSpace(string(lit))
	switch {
	case strings.HasPrefix(s, `"`):
		return "string"
	case s == "true" || s == "false":
		return "bool"
	case s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9'):
		if strings.ContainsAny(s, ".eE") {
			return "number"
		}
		return "integer"
	}
	return "any"
}

// constGoType is the Go type of a const literal.
func constGoType(lit json.RawMessage) string {
	switch k := constKind(lit); k {
	case "string", "bool":
		return k
	case "integer":
		return "int64"
	case "number":
		return "float64"
	}
	return "any"
}

// presence is fl's representation (ir.Field.Presence), except that a
// field whose type contains the field's own struct by value (a recursive
// type) is held through a pointer: *T instead of T, and
// runtime.Nullable[*T] instead of runtime.Nullable[T].
func (g *gen) presence(fl *ir.Field) ir.Presence {
	p := fl.Presence()
	if p == ir.PresenceValue && g.indirect[fl] {
		return ir.PresencePointer
	}
	return p
}

// nullableElem is the type argument of a PresenceNullable field.
func (g *gen) nullableElem(fl *ir.Field) *jen.Statement { return g.nullableElemOf(fl).code() }

func (g *gen) nullableElemOf(fl *ir.Field) *typeExpr {
	if g.indirect[fl] {
		return &typeExpr{prefix: "*", elem: g.typeOf(fl.Type)}
	}
	return g.typeOf(fl.Type)
}

// findIndirect marks the fields that make a struct contain itself by
// value (Go rejects such types): fields on a cycle of by-value fields.
func (g *gen) findIndirect() {
	g.indirect = map[*ir.Field]bool{}
	byValue := func(fl *ir.Field) *ir.Type {
		t := fl.Type
		if t == nil || t.GoName == "" || (t.Kind != ir.KindObject && t.Kind != ir.KindTuple) {
			return nil
		}
		if p := fl.Presence(); p == ir.PresenceValue || p == ir.PresenceNullable {
			return t
		}
		return nil
	}
	// Types are compared by name: an alias ($ref through anyOf with null)
	// is a copy of its target.
	var reaches func(from, to *ir.Type, seen map[string]bool) bool
	reaches = func(from, to *ir.Type, seen map[string]bool) bool {
		if from.GoName == to.GoName {
			return true
		}
		if seen[from.GoName] {
			return false
		}
		seen[from.GoName] = true
		for _, fl := range from.Fields {
			if next := byValue(fl); next != nil && !g.indirect[fl] && reaches(next, to, seen) {
				return true
			}
		}
		for i, p := range from.Prefix {
			// Held by value: required non-null positions and nullable
			// optional ones (runtime.Nullable[T]).
			s := tupleSlotOf(from, i)
			byValue := s == slotValue && !p.Nullable || s == slotNullable
			if p.GoName != "" && byValue && (p.Kind == ir.KindObject || p.Kind == ir.KindTuple) && reaches(p, to, seen) {
				return true
			}
		}
		return false
	}
	for _, t := range g.fam.Types {
		for _, fl := range t.Fields {
			if next := byValue(fl); next != nil && reaches(next, t, map[string]bool{}) {
				g.indirect[fl] = true
			}
		}
	}
}

// fieldType is the Go type of a struct field per its presence.
func (g *gen) fieldType(fl *ir.Field) *jen.Statement { return g.fieldTypeOf(fl).code() }

func (g *gen) fieldTypeOf(fl *ir.Field) *typeExpr {
	switch g.presence(fl) {
	case ir.PresencePointer:
		if nilable(fl.Type) {
			return g.typeOf(fl.Type)
		}
		return &typeExpr{prefix: "*", elem: g.typeOf(fl.Type)}
	case ir.PresenceNullable:
		return &typeExpr{path: g.runtimePkg, name: "Nullable", arg: g.nullableElemOf(fl)}
	}
	return g.typeOf(fl.Type)
}

// validTagName reports whether encoding/json accepts name in a struct tag.
func validTagName(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
		case c > 0x7f && (c != 0xfffd):
			// Letters and digits of any script; encoding/json checks
			// unicode.IsLetter/IsDigit, which the names module ensures for
			// names it keeps verbatim.
			if !unicode.IsLetter(c) && !unicode.IsDigit(c) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// needsCustomMarshal reports whether an object cannot be encoded by struct
// tags alone (typed additional properties, names tags cannot spell, or
// dates held as time.Time).
func needsCustomMarshal(t *ir.Type) bool {
	if t.Extra {
		return true
	}
	for _, fl := range t.Fields {
		if !validTagName(fl.JSONName) || containsDate(fl.Type) {
			return true
		}
	}
	return false
}

// typeDoc is the doc comment text of a named type.
func typeDoc(t *ir.Type) string {
	switch {
	case t.Doc == "":
		return t.GoName + " is a generated type."
	case !strings.HasPrefix(t.Doc, t.GoName+" "):
		return t.GoName + ": " + t.Doc
	}
	return t.Doc
}

// unmarshalDoc is the doc comment of a generated UnmarshalJSON, and
// nullUnmarshalDoc that of one that reads null itself (decodesNull).
const (
	unmarshalDoc     = "UnmarshalJSON decodes with the generated decoder (defaults applied, type errors aggregated)."
	nullUnmarshalDoc = unmarshalDoc + "\nnull, which the schema allows, decodes as the zero value."
)

// decodesNull reports whether the UnmarshalJSON of named type t reads a
// null itself: t admits null, and its Go value has no nil for it. Where t
// is held (a field, an item, a branch) its holder reads null, as nil; a
// document of its own, such as a tool's result, has no holder.
func decodesNull(t *ir.Type) bool {
	return t.Nullable && !nilable(t)
}

// emitTypeDecl declares, as code, a named type typeDeclText does not
// write as text: a union, a tuple or an object with its own MarshalJSON,
// with its JSON encoding.
func (g *gen) emitTypeDecl(f *jen.File, t *ir.Type) {
	f.Add(topDoc(typeDoc(t)))
	switch t.Kind {
	case ir.KindUnion:
		g.emitUnion(f, t)
	case ir.KindTuple:
		g.emitTuple(f, t)
	default:
		g.emitStruct(f, t)
	}
}

// emitStruct declares an object type: a field per property with its doc
// and JSON tag; golden/github/types_gen.go shows the output.
func (g *gen) emitStruct(f *jen.File, t *ir.Type) {
	var fields []jen.Code
	custom := needsCustomMarshal(t) || g.hasNullFlags(t)
	for _, fl := range t.Fields {
		fields = append(fields, docComment(fieldDoc(fl)))
		fields = append(fields, jen.Id(fl.GoName).Add(g.fieldType(fl)).Tag(map[string]string{"json": jsonTag(fl, custom)}))
	}
	for _, fl := range t.Fields {
		if g.nullFlag(t, fl) {
			fields = append(fields, comment(nullFlagName(fl)+" records that "+fl.GoName+" was present and null (it is nil then)."))
			fields = append(fields, jen.Id(nullFlagName(fl)).Bool())
		}
	}
	if t.Extra {
		fields = append(fields, comment(t.ExtraGoName+" holds the additional properties."))
		fields = append(fields, jen.Id(t.ExtraGoName).Map(jen.String()).Add(g.elemType(t.Elem)).Tag(map[string]string{"json": "-"}))
	}
	f.Type().Id(t.GoName).Struct(fields...)
	if custom {
		g.emitObjectMarshal(f, t)
	}
	g.emitUnmarshal(f, t)
}

// jsonTag is the json struct tag of field fl: "-" (skipped) when its
// object encodes itself (custom), else its JSON name with omitzero when
// it is optional without a default. A tag of "-" alone tells
// encoding/json to skip the field, so a member named "-" is tagged "-,".
func jsonTag(fl *ir.Field, custom bool) string {
	if custom {
		return "-"
	}
	if !fl.Required && fl.Default == nil {
		return fl.JSONName + ",omitzero"
	}
	if fl.JSONName == "-" {
		return "-,"
	}
	return fl.JSONName
}

// fieldDoc is a field's doc comment: its description, with the JSON name
// stated whenever it is not spelled like the Go name (userId → UserID).
func fieldDoc(fl *ir.Field) string {
	var b strings.Builder
	b.WriteString(fl.GoName)
	if fl.GoName != fl.JSONName {
		fmt.Fprintf(&b, " (JSON %q)", fl.JSONName)
	}
	doc := strings.TrimSpace(fl.Doc)
	switch {
	case doc == "" && fl.Required:
		b.WriteString(" is required.")
	case doc == "":
		b.WriteString(" is optional.")
	default:
		b.WriteString(": ")
		b.WriteString(doc)
	}
	if fl.Default != nil {
		fmt.Fprintf(&b, "\nDefault: %s.", fl.Default)
	}
	return b.String()
}

// nullFlag reports whether field fl of object t gets an unexported flag
// recording a present null: fl is optional and of an interface type (nil
// both when absent and when null), and t has keywords that count or look
// up its members (minProperties, maxProperties, dependentRequired, or
// delegated ones, which see t's JSON encoding).
func (g *gen) nullFlag(t *ir.Type, fl *ir.Field) bool {
	if t == nil || t.Kind != ir.KindObject || fl.Type == nil || !isInterface(fl.Type) || g.presence(fl) != ir.PresencePointer {
		return false
	}
	cs := t.ConstraintsValue()
	return cs.MinProperties != nil || cs.MaxProperties != nil || len(cs.DependentRequired) > 0 || t.Delegated != nil || g.encoded[t]
}

// findEncoded marks the types whose values are checked through their JSON
// encoding (wire.Generic): everything reachable from a type with
// delegated keywords, a const or enum, contains, or uniqueItems over
// items Go cannot compare with ==. Their objects must encode a present
// null (nullFlag).
func (g *gen) findEncoded() {
	g.encoded = map[*ir.Type]bool{}
	var mark func(t *ir.Type)
	mark = func(t *ir.Type) {
		if t == nil || g.encoded[t] {
			return
		}
		g.encoded[t] = true
		for v := range t.Values() {
			mark(v)
		}
	}
	seen := map[*ir.Type]bool{}
	var walk func(t *ir.Type)
	walk = func(t *ir.Type) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		cs := t.ConstraintsValue()
		if t.Delegated != nil || t.Const != nil || len(t.Enum) > 0 || cs.Contains != nil || cs.UniqueItems && !comparableElem(t.Elem) {
			mark(t)
		}
		for v := range t.Values() {
			walk(v)
		}
	}
	for _, t := range g.fam.Types {
		walk(t)
	}
	for _, tool := range g.fam.Tools {
		walk(tool.Params)
	}
}

// hasNullFlags reports whether a field of t has a null flag (its JSON
// encoding then writes the flagged nulls: MarshalJSON).
func (g *gen) hasNullFlags(t *ir.Type) bool {
	for _, fl := range t.Fields {
		if g.nullFlag(t, fl) {
			return true
		}
	}
	return false
}

// nullFlagName is the unexported flag of field fl (nullFlag).
func nullFlagName(fl *ir.Field) string { return "null" + fl.GoName }

// presentExpr is the Go condition under which field fl of x (an object
// of type t) is present.
func (g *gen) presentExpr(x jen.Code, t *ir.Type, fl *ir.Field) *jen.Statement {
	sel := jen.Add(x).Dot(fl.GoName)
	switch g.presence(fl) {
	case ir.PresencePointer:
		if g.nullFlag(t, fl) {
			return jen.Parens(sel.Op("!=").Nil().Op("||").Add(x).Dot(nullFlagName(fl)))
		}
		return sel.Op("!=").Nil()
	case ir.PresenceNullable:
		return sel.Dot("IsSet").Call()
	}
	return nil
}

// emitObjectMarshal writes MarshalJSON for objects struct tags cannot
// encode, through a map of the present members (encoded in sorted key
// order):
//
//	func (x X) MarshalJSON() ([]byte, error) {
//		m := make(map[string]any, 2+len(x.Extra))
//		for k, v := range x.Extra { m[k] = v }
//		m["a,b"] = x.AB
//		if x.C != nil { m["c"] = x.C }
//		return json.Marshal(m)
//	}
func (g *gen) emitObjectMarshal(f *jen.File, t *ir.Type) {
	x := jen.Id("x")
	size := jen.Lit(len(t.Fields))
	var body []jen.Code
	if t.Extra {
		size = jen.Lit(len(t.Fields)).Op("+").Len(jen.Id("x").Dot(t.ExtraGoName))
	}
	body = append(body, jen.Id("m").Op(":=").Make(jen.Map(jen.String()).Any(), size))
	ms := &marshaler{g: g}
	if t.Extra {
		body = append(body, jen.For(jen.List(jen.Id("k"), jen.Id("v")).Op(":=").Range().Id("x").Dot(t.ExtraGoName)).Block(
			ms.assign(jen.Id("m").Index(jen.Id("k")), jen.Id("v"), t.Elem, true)...,
		))
	}
	for _, fl := range t.Fields {
		slot := jen.Id("m").Index(strLit(fl.JSONName))
		field := jen.Id("x").Dot(fl.GoName)
		if containsDate(fl.Type) {
			body = append(body, g.marshalDateField(ms, slot, field, fl)...)
			continue
		}
		set := jen.Add(slot).Op("=").Add(field)
		// A required field is always written (a nil one as null).
		if cond := g.presentExpr(x, t, fl); cond != nil && !fl.Required {
			body = append(body, jen.If(cond).Block(set))
		} else {
			body = append(body, set)
		}
	}
	body = append(body, jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Id("m"))))
	f.Line()
	f.Add(comment("MarshalJSON encodes the present members and the additional properties."))
	f.Func().Params(jen.Id("x").Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// marshalDateField emits the member of a field holding dates per its
// presence: absent fields are left out, null ones written as null.
func (g *gen) marshalDateField(ms *marshaler, slot, field jen.Code, fl *ir.Field) []jen.Code {
	switch g.presence(fl) {
	case ir.PresencePointer:
		// if x.F != nil { m["f"] = (the JSON form of *x.F, or of x.F for slices and maps) }
		conv := ms.fill(slot, field, fl.Type)
		if !nilable(fl.Type) {
			conv = ms.assign(slot, jen.Op("*").Add(field), fl.Type, false)
		}
		st := jen.If(jen.Add(field).Op("!=").Nil()).Block(conv...)
		if fl.Required {
			st = st.Else().Block(jen.Add(slot).Op("=").Nil())
		}
		return []jen.Code{st}
	case ir.PresenceNullable:
		// if v, ok := x.F.Get(); ok { ... } else if x.F.IsSet() { m["f"] = nil }
		return []jen.Code{jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(field).Dot("Get").Call(), jen.Id("ok")).Block(
			ms.assign(slot, jen.Id("v"), fl.Type, false)...,
		).Else().If(jen.Add(field).Dot("IsSet").Call()).Block(jen.Add(slot).Op("=").Nil())}
	}
	return ms.assign(slot, field, fl.Type, false)
}

// emitUnmarshal writes UnmarshalJSON through the generated decoder, so
// encoding/json applies defaults and union rules too;
// golden/github/types_gen.go shows the output.
func (g *gen) emitUnmarshal(f *jen.File, t *ir.Type) {
	f.Line()
	if decodesNull(t) {
		f.Add(comment(nullUnmarshalDoc))
		f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(g.unmarshalNull(t)...)
		return
	}
	f.Add(comment(unmarshalDoc))
	if composite(t) && g.tabled(t) {
		// func (x *T) UnmarshalJSON(data []byte) error { return shape.Unmarshal(&tableT, data, unsafe.Pointer(x)) }
		var body []jen.Code
		if t.Kind == ir.KindUnion {
			body = append(body, resetValue(t)) // a union holds one value
		}
		body = append(body, jen.Return(jen.Qual(g.shapePkg(), "Unmarshal").Call(jen.Op("&").Id(tableName(g.canonical(t))), jen.Id("data"),
			unsafePointer(jen.Id("x"), true))))
		f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(body...)
		return
	}
	f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id("UnmarshalJSON").Params(jen.Id("data").Index().Byte()).Error().Block(
		jen.Id("d").Op(":=").Qual(g.wirePkg, "NewDecoder").Call(jen.Id("data")),
		jen.Id("x").Dot("decodeWire").Call(jen.Id("d")),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Close").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("d").Dot("Report").Call(jen.Lit(""), jen.Nil())),
	)
}

// unmarshalNull is the body of the UnmarshalJSON of t when it reads null
// itself (decodesNull): a null is the zero value, checked by the keywords
// the embedded validator applies to null too (nullChecks; a type with a
// table has none); anything else is t's own decoding, by its table or its
// decodeWire.
//
//	d := wire.NewDecoder(data)
//	if d.Null() {
//		*x = T{}
//		return d.Close()
//	}
//	return shape.Unmarshal(&tableT, data, unsafe.Pointer(x))
//
// or, without a table,
//
//	d := wire.NewDecoder(data)
//	if d.Null() {
//		*x = T{}
//	} else {
//		x.decodeWire(d)
//	}
//	if err := d.Close(); err != nil {
//		return err
//	}
//	return d.Report("", nil)
func (g *gen) unmarshalNull(t *ir.Type) []jen.Code {
	body := []jen.Code{jen.Id("d").Op(":=").Qual(g.wirePkg, "NewDecoder").Call(jen.Id("data"))}
	if composite(t) && g.tabled(t) {
		return append(body,
			jen.If(jen.Id("d").Dot("Null").Call()).Block(resetValue(t), jen.Return(jen.Id("d").Dot("Close").Call())),
			jen.Return(jen.Qual(g.shapePkg(), "Unmarshal").Call(jen.Op("&").Id(tableName(g.canonical(t))), jen.Id("data"), unsafePointer(jen.Id("x"), true))),
		)
	}
	e := &emitter{g: g}
	null := append([]jen.Code{resetValue(t)}, e.nullChecks(dec{name: "d"}, t)...)
	return append(body,
		jen.If(jen.Id("d").Dot("Null").Call()).Block(null...).Else().Block(jen.Id("x").Dot("decodeWire").Call(jen.Id("d"))),
		jen.If(jen.Err().Op(":=").Id("d").Dot("Close").Call(), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Err())),
		jen.Return(jen.Id("d").Dot("Report").Call(jen.Lit(""), jen.Nil())),
	)
}

// branchNames are the Go field names of a union's branches: the branch
// type's name, else its kind, made unique by position counted from 1 (the
// second of two strings is String2, as the second untitled branch type is
// Option2). The methods a union declares are taken: a branch type named
// Validate or MarshalJSON (a $defs key) gets its position as a suffix
// (Validate1), as a field of that name would not compile beside the
// method.
func branchNames(t *ir.Type) []string {
	names := make([]string, len(t.Branches))
	used := map[string]bool{"Validate": true, "MarshalJSON": true, "UnmarshalJSON": true}
	for i, b := range t.Branches {
		n := b.GoName
		if n == "" {
			n = kindName(b)
		}
		for k, base := i+1, n; used[n]; k++ {
			n = base + strconv.Itoa(k)
		}
		used[n] = true
		names[i] = n
	}
	return names
}

func kindName(t *ir.Type) string {
	switch t.Kind {
	case ir.KindBool:
		return "Bool"
	case ir.KindInteger:
		return "Integer"
	case ir.KindNumber:
		return "Number"
	case ir.KindString, ir.KindEnum:
		if isTime(t) && t.Format == "date" {
			return "Date"
		} else if isTime(t) {
			return "DateTime"
		}
		return "String"
	case ir.KindConst:
		return "Const"
	case ir.KindArray, ir.KindTuple:
		return "Array"
	case ir.KindObject, ir.KindMap:
		return "Object"
	case ir.KindNever:
		return "Never"
	}
	return "Value"
}

// unionFieldType is the Go type of a union's branch field: a pointer
// unless nil already means unset.
func (g *gen) unionFieldType(b *ir.Type) *jen.Statement { return g.unionFieldTypeOf(b).code() }

// unionFieldTypeOf is unionFieldType's expression.
func (g *gen) unionFieldTypeOf(b *ir.Type) *typeExpr {
	if nilable(b) {
		return g.typeOf(b)
	}
	return &typeExpr{prefix: "*", elem: g.typeOf(b)}
}

// emitUnion declares a union as a struct with one field per branch, of
// which exactly one is set after decoding:
//
//	type Target struct {
//		Issue *IssueRef
//		String *string
//	}
func (g *gen) emitUnion(f *jen.File, t *ir.Type) {
	var fields []jen.Code
	names := branchNames(t)
	several := severalMatch(t)
	for i, b := range t.Branches {
		fields = append(fields, docComment(branchDoc(b, i, names[i], several)))
		fields = append(fields, jen.Id(names[i]).Add(g.unionFieldType(b)))
	}
	f.Type().Id(t.GoName).Struct(fields...)
	// func (x X) MarshalJSON() ([]byte, error) {
	//	switch {
	//	case x.A != nil:
	//		return json.Marshal(x.A)
	//	}
	//	return []byte("null"), nil
	// }
	if several {
		g.emitAnyOfMarshal(f, t, names)
		g.emitUnmarshal(f, t)
		return
	}
	var cases []jen.Code
	ms := &marshaler{g: g}
	for i, b := range t.Branches {
		if containsDate(b) {
			// var o any; (o = the JSON form of the branch); return json.Marshal(o)
			v := jen.Id("x").Dot(names[i])
			if !nilable(b) {
				v = jen.Op("*").Add(v)
			}
			cases = append(cases, jen.Case(jen.Id("x").Dot(names[i]).Op("!=").Nil()).Block(append(append(
				[]jen.Code{jen.Var().Id("o").Any()}, ms.assign(jen.Id("o"), v, b, false)...),
				jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Id("o"))))...,
			))
			continue
		}
		cases = append(cases, jen.Case(jen.Id("x").Dot(names[i]).Op("!=").Nil()).Block(
			jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Id("x").Dot(names[i]))),
		))
	}
	f.Line()
	f.Add(comment(unionMarshalDoc))
	f.Func().Params(jen.Id("x").Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(
		jen.Switch().Block(cases...),
		jen.Return(jen.Index().Byte().Call(jen.Lit("null")), jen.Nil()),
	)
	g.emitUnmarshal(f, t)
}

// emitAnyOfMarshal is anyOfMarshalText's method as code, for a union
// with a branch MarshalJSON converts (containsDate): that branch's value
// is its JSON form.
func (g *gen) emitAnyOfMarshal(f *jen.File, t *ir.Type, names []string) {
	body := []jen.Code{jen.Var().Id("vs").Index(jen.Lit(len(names))).Any()}
	ms := &marshaler{g: g}
	for i, b := range t.Branches {
		slot := jen.Id("vs").Index(jen.Lit(i))
		set := []jen.Code{jen.Add(slot).Op("=").Id("x").Dot(names[i])}
		if containsDate(b) {
			v := jen.Id("x").Dot(names[i])
			if !nilable(b) {
				v = jen.Op("*").Add(v)
			}
			set = append(append([]jen.Code{jen.Var().Id("o").Any()}, ms.assign(jen.Id("o"), v, b, false)...),
				jen.Add(slot).Op("=").Id("o"))
		}
		body = append(body, jen.If(jen.Id("x").Dot(names[i]).Op("!=").Nil()).Block(set...))
	}
	body = append(body, jen.Return(jen.Qual(g.wirePkg, "MarshalAnyOf").Call(jen.Qual(jsonPkg, "Marshal"), jen.Id("vs").Index(jen.Empty(), jen.Empty()))))
	f.Line()
	f.Add(comment(anyOfMarshalDoc))
	f.Func().Params(jen.Id("x").Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
}

// tupleSlot is how a tuple holds the item at one position.
type tupleSlot int

const (
	// slotValue: the item's type as an array item (T; *T, nil for null,
	// when nullable). Positions below minItems, always present.
	slotValue tupleSlot = iota
	// slotPointer: *T, nil when absent. Interface types too (*any: nil
	// when absent, a nil any for null), as absent and null are different
	// items here.
	slotPointer
	// slotNilable: a slice or map, nil when absent.
	slotNilable
	// slotNullable: runtime.Nullable[T], telling absent, null and value
	// apart.
	slotNullable
)

// tupleRequired is how many leading items every value of tuple t has:
// minItems, at most the number of positions.
func tupleRequired(t *ir.Type) int {
	if m := t.ConstraintsValue().MinItems; m != nil {
		return int(min(*m, int64(len(t.Prefix))))
	}
	return 0
}

// tupleSlotOf is the representation of position i of tuple t, following
// ir.Field.Presence with "required" meaning i < minItems: required
// positions are values, the others optional (pointers; slices and maps
// nil; runtime.Nullable when nullable). Interface types, which Presence
// lets be nil when absent, are *any: an absent position is not a null one.
func tupleSlotOf(t *ir.Type, i int) tupleSlot {
	p := t.Prefix[i]
	switch {
	case i < tupleRequired(t):
		return slotValue
	case isInterface(p):
		return slotPointer
	case p.Nullable:
		return slotNullable
	case nilable(p):
		return slotNilable
	}
	return slotPointer
}

// tupleItemType is the Go type of the field holding position i of t.
func (g *gen) tupleItemType(t *ir.Type, i int) *jen.Statement {
	p := t.Prefix[i]
	switch tupleSlotOf(t, i) {
	case slotPointer:
		return jen.Op("*").Add(g.goType(p))
	case slotNullable:
		return jen.Qual(g.runtimePkg, "Nullable").Types(g.goType(p))
	case slotNilable:
		return g.goType(p)
	}
	return g.elemType(p)
}

// tuplePresent is the condition under which position i of x is present
// (nil for required positions).
func tuplePresent(t *ir.Type, i int) *jen.Statement {
	item := jen.Id("x").Dot(fmt.Sprintf("Item%d", i))
	switch tupleSlotOf(t, i) {
	case slotPointer, slotNilable:
		return item.Op("!=").Nil()
	case slotNullable:
		return item.Dot("IsSet").Call()
	}
	return nil
}

// emitTuple declares a tuple as a struct with one field per position and
// the rest items. Positions below minItems are values; the others may be
// absent and are held like optional fields (see tupleSlotOf): *T, nil when
// absent; slices and maps nil; runtime.Nullable[T] when nullable; *any for
// interface types. For prefixItems [number, number, string|null],
// minItems 1 and items integer:
//
//	type Point struct {
//		Item0 float64
//		Item1 *float64
//		Item2 runtime.Nullable[string]
//		Rest []int64
//	}
//
// Decoding sets the positions present in the array; MarshalJSON writes
// them in order, then Rest, and fails when a position is set after an
// absent one (or Rest after an absent position): the array would have a
// hole, and writing null there would change its meaning.
func (g *gen) emitTuple(f *jen.File, t *ir.Type) {
	var fields []jen.Code
	for i, p := range t.Prefix {
		absent := ""
		if tupleSlotOf(t, i) != slotValue {
			absent = " (absent when the array is shorter)"
		}
		if p.Doc != "" && p.GoName == "" {
			fields = append(fields, docComment(fmt.Sprintf("Item%d%s: %s", i, absent, p.Doc)))
		} else {
			fields = append(fields, commentf("Item%d is the item at position %d%s.", i, i, absent))
		}
		fields = append(fields, jen.Id(fmt.Sprintf("Item%d", i)).Add(g.tupleItemType(t, i)))
	}
	if !t.RestForbidden {
		fields = append(fields, comment("Rest holds the items after the positional ones."))
		fields = append(fields, jen.Id("Rest").Index().Add(g.elemType(t.Elem)))
	}
	f.Type().Id(t.GoName).Struct(fields...)
	// func (x X) MarshalJSON() ([]byte, error) {
	//	items := []any{x.Item0}
	//	if x.Item1 != nil {
	//		items = append(items, *x.Item1)
	//	}
	//	if x.Item2.IsSet() {
	//		if len(items) != 2 {
	//			return nil, errors.New("X.Item2 is set after an absent item")
	//		}
	//		items = append(items, x.Item2)
	//	}
	//	if len(x.Rest) > 0 && len(items) != 3 {
	//		return nil, errors.New("X.Rest is set after an absent item")
	//	}
	//	for _, v := range x.Rest {
	//		items = append(items, v)
	//	}
	//	return json.Marshal(items)
	// }
	req := tupleRequired(t)
	var items []jen.Code
	for i := range req {
		items = append(items, jen.Id("x").Dot(fmt.Sprintf("Item%d", i)))
	}
	ms := &marshaler{g: g}
	body := []jen.Code{jen.Id("items").Op(":=").Index().Any().Values(items...)}
	for i, p := range t.Prefix[:req] {
		if containsDate(p) {
			body = append(body, ms.assign(jen.Id("items").Index(jen.Lit(i)), jen.Id("x").Dot(fmt.Sprintf("Item%d", i)), p, true)...)
		}
	}
	hole := func(name string, i int) jen.Code {
		return jen.If(jen.Len(jen.Id("items")).Op("!=").Lit(i)).Block(
			jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(strLit(fmt.Sprintf("%s.%s is set after an absent item", t.GoName, name)))),
		)
	}
	for i := req; i < len(t.Prefix); i++ {
		name := fmt.Sprintf("Item%d", i)
		var stmts []jen.Code
		if i > req {
			stmts = append(stmts, hole(name, i))
		}
		stmts = append(stmts, g.appendTupleItem(ms, t, i)...)
		body = append(body, jen.If(tuplePresent(t, i)).Block(stmts...))
	}
	if !t.RestForbidden {
		if req < len(t.Prefix) {
			body = append(body, jen.If(jen.Len(jen.Id("x").Dot("Rest")).Op(">").Lit(0).Op("&&").Len(jen.Id("items")).Op("!=").Lit(len(t.Prefix))).Block(
				jen.Return(jen.Nil(), jen.Qual("errors", "New").Call(strLit(t.GoName+".Rest is set after an absent item"))),
			))
		}
		add := []jen.Code{jen.Id("items").Op("=").Append(jen.Id("items"), jen.Id("v"))}
		if containsDate(t.Elem) {
			add = append(append([]jen.Code{jen.Var().Id("o").Any()}, ms.assign(jen.Id("o"), jen.Id("v"), t.Elem, true)...),
				jen.Id("items").Op("=").Append(jen.Id("items"), jen.Id("o")))
		}
		body = append(body, jen.For(jen.List(jen.Id("_"), jen.Id("v")).Op(":=").Range().Id("x").Dot("Rest")).Block(add...))
	}
	body = append(body, jen.Return(jen.Qual(jsonPkg, "Marshal").Call(jen.Id("items"))))
	f.Line()
	if req < len(t.Prefix) {
		f.Add(comment("MarshalJSON encodes the tuple as a JSON array of the present items; it fails"))
		f.Add(comment("when an item is set after an absent one."))
	} else {
		f.Add(comment("MarshalJSON encodes the tuple as a JSON array."))
	}
	f.Func().Params(jen.Id("x").Id(t.GoName)).Id("MarshalJSON").Params().Params(jen.Index().Byte(), jen.Error()).Block(body...)
	g.emitUnmarshal(f, t)
}

// appendTupleItem emits the appending of present optional position i of
// x to items, in its JSON form.
func (g *gen) appendTupleItem(ms *marshaler, t *ir.Type, i int) []jen.Code {
	p, item := t.Prefix[i], jen.Id("x").Dot(fmt.Sprintf("Item%d", i))
	add := func(v jen.Code) jen.Code { return jen.Id("items").Op("=").Append(jen.Id("items"), v) }
	slot := tupleSlotOf(t, i)
	if !containsDate(p) {
		if slot == slotPointer {
			return []jen.Code{add(jen.Op("*").Add(item))}
		}
		return []jen.Code{add(item)}
	}
	if slot == slotPointer && isTime(p) {
		return []jen.Code{add(g.timeText(jen.Op("*").Add(item), p))}
	}
	// var o any; (o = the JSON form of the item); items = append(items, o)
	var conv []jen.Code
	switch slot {
	case slotPointer:
		conv = ms.assign(jen.Id("o"), jen.Op("*").Add(item), p, false)
	case slotNilable:
		conv = ms.fill(jen.Id("o"), item, p)
	case slotNullable:
		// if v, ok := x.I.Get(); ok { o = ... } (o stays nil for null)
		conv = []jen.Code{jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(item).Dot("Get").Call(), jen.Id("ok")).Block(
			ms.assign(jen.Id("o"), jen.Id("v"), p, false)...)}
	}
	return append(append([]jen.Code{jen.Var().Id("o").Any()}, conv...), add(jen.Id("o")))
}
