package generator

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/shape"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// Table-driven objects. A large catalogue's package is mostly small
// decodeWire and validate methods, each a function the compiler builds
// through SSA. An object whose fields runtime/shape can interpret, or a
// union of such objects told apart by a discriminator, gets a
// static table instead (package-level data the compiler lays out without
// code): no decodeWire or validate method (its callers call the
// interpreter: decodeCall, validateCall), one-line UnmarshalJSON and
// Validate methods, and its type in the table ((*T)(nil)), which the
// runtime allocates values of: no allocator function either. Every other
// type keeps its generated methods. The errors are the same
// either way (TestTablesDifferential).

// TableMode chooses when objects go through runtime/shape tables.
type TableMode int

const (
	// TablesAuto tables the objects the interpreter covers when the family
	// has more than TableObjects object shapes (docs aside: g.large), and
	// otherwise only objects
	// of more than TableFields properties: generated methods are faster
	// (a small object's Validate 2–3 times), tables build faster.
	TablesAuto TableMode = iota
	// TablesNever keeps generated methods for every type.
	TablesNever
	// TablesAlways tables every object the interpreter covers (the
	// differential and conformance tests).
	TablesAlways
)

// TableObjects and TableFields are TablesAuto's thresholds: a family of
// more object shapes (a catalogue of hundreds of tools), an object of more
// properties.
const (
	TableObjects = 200
	TableFields  = 64
)

// shapePkg is the interpreter's import path.
func (g *gen) shapePkg() string {
	return strings.TrimSuffix(g.runtimePkg, "/runtime") + "/runtime/shape"
}

// tableName is the package variable holding the table of object t.
func tableName(t *ir.Type) string { return "table" + t.GoName }

// tabled reports whether object type t (a canonical type, not an alias)
// is decoded and validated through a table; memoised. Types on a cycle of
// tables are not (their initialisers would refer to each other).
func (g *gen) tabled(t *ir.Type) bool {
	if g.opt.Tables == TablesNever {
		return false
	}
	t = g.canonical(t)
	if v, ok := g.tables[t]; ok {
		return v == 1
	}
	if g.tables == nil {
		g.tables = map[*ir.Type]int{}
	}
	g.tables[t] = 2 // in progress: a cycle is not eligible
	ok := g.tablesWanted(t) && g.tableable(t) && g.tableDepth(t) <= shape.MaxDepth
	if ok {
		g.tables[t] = 1
	} else {
		g.tables[t] = 0
	}
	return ok
}

// tablesWanted applies the table mode to object t, which the
// interpreter covers.
func (g *gen) tablesWanted(t *ir.Type) bool {
	if g.opt.Tables == TablesAlways || len(t.Fields) > TableFields {
		return true
	}
	return g.large
}

// tableDepth is how many steps (properties, items) below tabled object
// or union t its deepest value lies: a violation's path is built from that
// many (a union's branches lie at its own path).
func (g *gen) tableDepth(t *ir.Type) int {
	depth := 0
	for _, b := range t.Branches {
		depth = max(depth, g.tableDepth(g.canonical(b)))
	}
	for _, fl := range t.Fields {
		d, ft := 1, fl.Type
		if ft.Kind == ir.KindArray {
			d, ft = 2, ft.Elem
		}
		if composite(ft) {
			d += g.tableDepth(g.canonical(ft))
		}
		depth = max(depth, d)
	}
	return depth
}

// composite reports whether t is an object or a union: a table of its
// own describes it.
func composite(t *ir.Type) bool { return t.Kind == ir.KindObject || t.Kind == ir.KindUnion }

// tableable reports whether the interpreter covers named type t: an
// object (tableObject) or a discriminated union of tabled objects
// (tableUnion).
func (g *gen) tableable(t *ir.Type) bool {
	if !hasMethods(t) || t.Delegated != nil || len(t.Enum) > 0 || t.Const != nil || g.encoded[t] {
		return false
	}
	// A nullable object's own methods are an object's (its holders
	// decode null: Field.Null); a nullable union's are not.
	if t.Nullable && t.Kind != ir.KindObject {
		return false
	}
	switch t.Kind {
	case ir.KindObject:
		return g.tableObject(t)
	case ir.KindUnion:
		return g.tableUnion(t)
	}
	return false
}

// tableUnion reports whether union t fits a shape.Union: two or more
// branches, all objects the interpreter covers, told apart by a
// discriminator property (the decoder's unionTagged).
func (g *gen) tableUnion(t *ir.Type) bool {
	disc := t.Discriminator
	if disc == nil || len(t.Branches) < 2 {
		return false
	}
	for _, b := range t.Branches {
		if b.Kind != ir.KindObject || nilable(b) || !g.tableValue(b, false) {
			return false
		}
	}
	for _, v := range disc.Values {
		if v.Branch < 0 || v.Branch >= len(t.Branches) {
			return false
		}
	}
	return true
}

// tableObject reports whether the fields of object t fit a shape.Table.
func (g *gen) tableObject(t *ir.Type) bool {
	cs := t.ConstraintsValue()
	if t.Extra || len(t.PatternProperties) > 0 ||
		cs.MinProperties != nil || cs.MaxProperties != nil || len(cs.DependentRequired) > 0 || cs.PropertyNames != nil {
		return false
	}
	for _, fl := range t.Fields {
		if g.indirect[fl] || fl.Type == nil || g.nullFlag(t, fl) {
			return false
		}
		pres := g.presence(fl)
		switch pres {
		case ir.PresenceValue:
			if fl.Default != nil && (scalarKind(fl.Type) == "" || g.literal(fl.Type, fl.Default) == nil) {
				return false
			}
		case ir.PresencePointer, ir.PresenceNullable:
			if fl.Default != nil {
				return false
			}
		default:
			return false
		}
		if ft := fl.Type; ft.Nullable {
			// A nullable scalar: *T, nil for null (required), or
			// runtime.Nullable[T] (optional); a nullable object only
			// as *T.
			pointer := pres == ir.PresencePointer
			object := ft.Kind == ir.KindObject && pointer && g.tabled(ft)
			array := ft.Kind == ir.KindArray && pointer && g.tableValue(nonNull(ft), true)
			if !object && !array && !g.nullableScalar(ft) {
				return false
			}
			continue
		}
		if !g.tableValue(fl.Type, true) {
			return false
		}
	}
	return true
}

// nullableScalar reports whether nullable t is a scalar a table field
// holds (Field.Null, Form Nullable): its values as tableValue takes them.
func (g *gen) nullableScalar(t *ir.Type) bool {
	return scalarKind(t) != "" && !nilable(t) && g.tableValue(nonNull(t), false)
}

// nonNull is a copy of nullable t without null.
func nonNull(t *ir.Type) *ir.Type {
	v := *t
	v.Nullable = false
	return &v
}

// tableValue reports whether a value of t fits a table field: a scalar
// with the checks Check describes, a tabled object, or (when arrays is
// set) an unnamed array of those.
func (g *gen) tableValue(t *ir.Type, arrays bool) bool {
	if t == nil || t.Nullable || t.Delegated != nil || isTime(t) {
		return false
	}
	if composite(t) {
		return g.tabled(t)
	}
	if t.Kind == ir.KindArray {
		cs := t.ConstraintsValue()
		if !arrays || t.GoName != "" || cs.Contains != nil || cs.UniqueItems && !comparableElem(t.Elem) ||
			t.Elem == nil || t.Elem.Kind == ir.KindArray || len(t.Enum) > 0 || t.Const != nil {
			return false
		}
		return g.tableValue(t.Elem, false)
	}
	return scalarKind(t) != "" && checkable(t)
}

// checkable reports whether a shape.Check holds scalar t's constraints:
// not a const of other than a string, nor an enum of other than strings.
func checkable(t *ir.Type) bool {
	if t.Const != nil && (t.Kind != ir.KindConst || constKind(t.Const) != "string") ||
		len(t.Enum) > 0 && t.Kind != ir.KindString && t.Kind != ir.KindEnum {
		return false
	}
	for _, e := range t.Enum {
		var s string
		if json.Unmarshal(e.JSON, &s) == nil {
			return true
		}
	}
	return len(t.Enum) == 0
}

// scalarKind is the runtime/shape kind of a scalar type, or "".
func scalarKind(t *ir.Type) string {
	switch t.Kind {
	case ir.KindString, ir.KindEnum:
		return "String"
	case ir.KindConst:
		if constKind(t.Const) == "string" {
			return "String"
		}
	case ir.KindInteger:
		return "Int"
	case ir.KindNumber:
		return "Float"
	case ir.KindBool:
		return "Bool"
	}
	return ""
}

// rule is a shape.Rule literal: keyword, message, expected text.
func (g *gen) rule(code, message, expected string) litNode {
	return &litList{typ: litType{path: g.shapePkg(), name: "Rule"}, elems: []litNode{litStr(code), litStr(message), litStr(expected)}}
}

// scalarCheck is the shape.Check literal of scalar t's constraints (nil
// when it has none); ok is false when a constraint has no table form (an
// enum of numbers, a const).
func (g *gen) scalarCheck(t *ir.Type) (litNode, bool) {
	c, ok := g.scalarCheckLit(t)
	switch {
	case c == nil:
		return nil, ok
	case hasMethods(t) && g.scalarTabled(g.declared(t)):
		// Shared with the type's validate method (checkName); a
		// nullable field's type is a copy of the named one (declared).
		return litAddr(checkName(g.declared(t))), ok
	}
	c.typ.addr = true
	return c, ok
}

// checkName is the package variable holding the shape.Check of named
// scalar type t.
func checkName(t *ir.Type) string { return "check" + t.GoName }

// anyTables reports whether the family's objects may be tabled (its
// constrained named scalars then share shape.Checks with them).
func (g *gen) anyTables() bool {
	switch g.opt.Tables {
	case TablesNever:
		return false
	case TablesAlways:
		return true
	}
	return g.large
}

// scalarTabled reports whether named scalar type t is validated through
// a shape.Check (emitScalarCheck).
func (g *gen) scalarTabled(t *ir.Type) bool {
	return g.anyTables() && scalarKind(t) != "" && scalarKind(t) != "Bool" && !isTime(t) && t.Delegated == nil &&
		checkable(t) && g.checked(t)
}

// emitScalarCheck writes the shape.Check of named scalar type t, which
// its Validate method and its parents' checks (validateCall) pass to
// runtime/shape.
func (g *gen) emitScalarCheck(s *srcFile, t *ir.Type) {
	c, _ := g.scalarCheckLit(t)
	if c == nil {
		c = &litDict{typ: litType{path: g.shapePkg(), name: "Check"}}
	}
	s.litVar(fmt.Sprintf("%s holds the constraints of %s.", checkName(t), t.GoName), checkName(t), c)
}

// scalarConv is the runtime/shape kind word of scalar type t (String,
// Int, Float) and v converted to that kind's Go type.
func scalarConv(t *ir.Type, v jen.Code) (string, jen.Code) {
	switch kind := scalarKind(t); kind {
	case "String":
		return kind, jen.String().Call(v)
	case "Int":
		return kind, jen.Int64().Call(v)
	default:
		return "Float", jen.Float64().Call(v)
	}
}

// validateCall is the statement recording the violations of v, an
// addressable value of named type t or (ptr) a pointer to one, at path p
// in errs: v.validate(p, e),
// or for a type checked by the interpreter, which has no validate method,
// shape.ValidateAt(&tableT, unsafe.Pointer(&v), p, e) (an object) or
// shape.CheckString(&checkT, string(v), p, e) (a scalar).
func (g *gen) validateCall(v jen.Code, t *ir.Type, ptr bool, p, errs jen.Code) jen.Code {
	c := g.declared(t)
	switch {
	case composite(c) && g.tabled(c):
		return jen.Qual(g.shapePkg(), "ValidateAt").Call(jen.Op("&").Id(tableName(c)), unsafePointer(v, ptr), p, errs)
	case hasMethods(c) && g.scalarTabled(c):
		if ptr {
			v = jen.Op("*").Add(v)
		}
		kind, conv := scalarConv(c, v)
		return jen.Qual(g.shapePkg(), "Check"+kind).Call(jen.Op("&").Id(checkName(c)), conv, p, errs)
	}
	return jen.Add(v).Dot("validate").Call(p, errs)
}

// scalarCheckLit is scalarCheck written out in full.
func (g *gen) scalarCheckLit(t *ir.Type) (*litDict, bool) {
	if !checkable(t) {
		return nil, false
	}
	cs := t.ConstraintsValue()
	d := &litDict{typ: litType{path: g.shapePkg(), name: "Check"}}
	switch t.Kind {
	case ir.KindConst:
		// The one check the generated code makes of a const (inline).
		var s string
		_ = json.Unmarshal(t.Const, &s) // a string (checkable)
		d.add("Const", litStr(s))
		d.add("ConstRule", g.rule("const", "must be "+string(t.Const), string(t.Const)))
	case ir.KindString, ir.KindEnum:
		if cs.MinLength != nil && *cs.MinLength > 0 {
			m := *cs.MinLength
			d.add("MinLen", litInt(int(m)))
			d.add("MinLenRule", g.rule("minLength", fmt.Sprintf("must be at least %s long", plural(m, "character")), "at least "+plural(m, "character")))
		}
		if cs.MaxLength != nil {
			m := *cs.MaxLength
			d.add("MaxLen", litInt(int(m)))
			d.add("MaxLenRule", g.rule("maxLength", fmt.Sprintf("must be at most %s long", plural(m, "character")), "at most "+plural(m, "character")))
		}
		if cs.Pattern != "" {
			d.add("Pattern", litAddr(g.patternVar(cs.Pattern)))
			d.add("PatternRule", g.rule("pattern", "must match the pattern "+cs.Pattern, "pattern "+cs.Pattern))
		}
		if fn := formatFuncs[t.Format]; fn != "" {
			d.add("Format", litQual(g.checkPkg, fn))
			d.add("FormatRule", g.rule("format", check.FormatMessage(t.Format), t.Format))
		}
		if len(t.Enum) > 0 {
			var strs []litNode
			var shown []string
			for _, e := range t.Enum {
				var s string
				if json.Unmarshal(e.JSON, &s) != nil {
					continue
				}
				strs = append(strs, litStr(s))
				shown = append(shown, strings.TrimSpace(string(e.JSON)))
			}
			if len(strs) == 0 {
				return nil, false
			}
			if t.Nullable {
				shown = append(shown, "null") // as enumChecks lists it
			}
			list := strings.Join(shown, ", ")
			d.add("Enum", &litList{typ: litType{slice: true, name: "string"}, elems: strs})
			d.add("EnumRule", g.rule("enum", "must be one of "+list, list))
		}
	case ir.KindInteger, ir.KindNumber:
		bounds, ok := g.numberBounds(t, t.Kind == ir.KindInteger)
		if !ok {
			return nil, false
		}
		if len(bounds) > 0 {
			d.add("Bounds", &litList{typ: litType{slice: true, path: g.shapePkg(), name: "Bound"}, elems: bounds})
		}
		if cs.MultipleOf != nil {
			text := string(*cs.MultipleOf)
			div := g.pkgVar("divisor", text, jen.Qual(g.checkPkg, "NewDivisor").Call(strLit(text)))
			d.add("Divisor", litAddr(div))
			d.add("MultRule", g.rule("multipleOf", "must be a multiple of "+text, "multiple of "+text))
		}
	}
	if len(d.pairs) == 0 {
		return nil, true
	}
	return d, true
}

// numberBounds are the shape.Bound literals of t's bounds, in the order
// numberChecks emits them and with its comparisons: integer bounds
// rounded inward, float bounds compared with the float64 nearest them so
// that the comparison agrees with the exact one.
func (g *gen) numberBounds(t *ir.Type, integer bool) ([]litNode, bool) {
	cs := t.ConstraintsValue()
	var out []litNode
	ok := true
	bound := func(n *ir.Number, keyword, word string, lower, exclusive bool) {
		if n == nil {
			return
		}
		text := string(*n)
		r, inf, valid := boundValue(text)
		if !valid {
			return
		}
		d := &litDict{}
		d.add("Rule", g.rule(keyword, "must be "+word+" "+text, word+" "+text))
		always := func() { d.add("Op", litQual(g.shapePkg(), "Always")) }
		switch {
		case inf != 0:
			if (inf > 0) != lower {
				return
			}
			always()
		case integer:
			b, fits := intBound(r, lower, exclusive)
			switch {
			case !fits && b.Sign() > 0 != lower:
				return
			case !fits:
				always()
			case lower:
				d.add("Op", litQual(g.shapePkg(), "Less"))
				d.add("I", litInt(int(b.Int64())))
			default:
				d.add("Op", litQual(g.shapePkg(), "Greater"))
				d.add("I", litInt(int(b.Int64())))
			}
		default:
			f, op, finite := floatBound(r, lower, exclusive)
			if !finite {
				if (f > 0) != lower {
					return
				}
				always()
				break
			}
			names := map[string]string{"<": "Less", "<=": "LessEqual", ">": "Greater", ">=": "GreaterEqual"}
			d.add("Op", litQual(g.shapePkg(), names[op]))
			d.add("F", litFloat(f))
		}
		out = append(out, d)
	}
	bound(cs.Minimum, "minimum", ">=", true, false)
	bound(cs.ExclusiveMinimum, "exclusiveMinimum", ">", true, true)
	bound(cs.Maximum, "maximum", "<=", false, false)
	bound(cs.ExclusiveMaximum, "exclusiveMaximum", "<", false, true)
	return out, ok
}

// arrayCheck is the shape.Check literal of array t's item count and
// uniqueness (nil when it has none).
func (g *gen) arrayCheck(t *ir.Type) litNode {
	cs := t.ConstraintsValue()
	d := &litDict{typ: litType{addr: true, path: g.shapePkg(), name: "Check"}}
	if cs.MinItems != nil && *cs.MinItems > 0 {
		minItems := *cs.MinItems
		d.add("MinItems", litInt(int(minItems)))
		d.add("MinItemsRule", g.rule("minItems", "must have at least "+plural(minItems, "item"), "at least "+plural(minItems, "item")))
	}
	if cs.MaxItems != nil {
		maxItems := *cs.MaxItems
		d.add("MaxItems", litInt(int(maxItems)))
		d.add("MaxItemsRule", g.rule("maxItems", "must have at most "+plural(maxItems, "item"), "at most "+plural(maxItems, "item")))
	}
	if cs.UniqueItems {
		d.add("Unique", litTrue)
	}
	if len(d.pairs) == 0 {
		return nil
	}
	return d
}

// emitTable writes the table of object t (decode_gen.go).
func (g *gen) emitTable(s *srcFile, t *ir.Type) {
	sp := g.shapePkg()
	opt := map[*ir.Field]bool{}
	for _, fl := range g.optionalScalars(t) {
		opt[fl] = true
	}
	var fields, names []litNode
	for _, fl := range t.Fields {
		ft := fl.Type
		d := &litDict{}
		d.add("Offset", litOffsetof(t.GoName, fl.GoName))
		names = append(names, litStr(fl.JSONName))
		if fl.Required {
			d.add("Required", litTrue)
		}
		pres := g.presence(fl)
		pointer := pres == ir.PresencePointer
		item := ft
		if ft.Kind == ir.KindArray {
			item = ft.Elem
			form := "Slice"
			if pointer {
				form = "OptSlice"
			}
			d.add("Form", litQual(sp, form))
			if ft.Nullable {
				d.add("Null", litTrue)
			}
			d.add("Check", g.arrayCheck(ft))
			if !composite(item) {
				c, _ := g.scalarCheck(item)
				d.add("ItemCheck", c)
			}
		} else {
			switch {
			case pointer:
				d.add("Form", litQual(sp, "Pointer"))
				if ft.Nullable {
					d.add("Null", litTrue)
				}
			case pres == ir.PresenceNullable:
				d.add("Form", litQual(sp, "Nullable"))
			}
			if !composite(item) {
				c, _ := g.scalarCheck(item)
				d.add("Check", c)
				if opt[fl] {
					d.add("InOpt", litTrue)
					d.add("OptOffset", litOffsetof(optionalsName(t), fl.GoName))
				}
				if fl.Default != nil && pres == ir.PresenceValue {
					d.add("HasDefault", litTrue)
					d.add("Default", g.defaultConst(item, fl.Default))
				}
			}
		}
		if composite(item) {
			d.add("Kind", litQual(sp, "Object"))
			d.add("Object", litAddr(tableName(g.canonical(item))))
		} else {
			d.add("Kind", litQual(sp, scalarKind(item)))
		}
		fields = append(fields, d)
	}
	td := &litDict{typ: litType{path: sp, name: "Table"}}
	td.add("Fields", &litList{typ: litType{slice: true, path: sp, name: "Field"}, elems: fields})
	td.add("Names", &litList{typ: litType{slice: true, name: "string"}, elems: names})
	if t.AdditionalFalse {
		td.add("Closed", litTrue)
	}
	if g.checked(t) {
		td.add("Checked", litTrue)
	}
	if len(opt) > 0 {
		td.add("Opt", litTypedNil(optionalsName(t)))
	}
	td.add("Type", litTypedNil(t.GoName))
	if g.patternBudget {
		td.add("Budget", litTrue)
	}
	s.litVar(fmt.Sprintf("%s describes %s to runtime/shape.", tableName(t), t.GoName), tableName(t), td)
}

// emitUnionTable writes the table of discriminated union t
// (decode_gen.go): its discriminator's values, the branch each chooses,
// and each branch's field offset and table.
func (g *gen) emitUnionTable(s *srcFile, t *ir.Type) {
	sp := g.shapePkg()
	names := branchNames(t)
	var tags, cases, branches []litNode
	for _, v := range t.Discriminator.Values {
		tags = append(tags, litStr(v.Value))
		cases = append(cases, litInt(v.Branch))
	}
	for i, b := range t.Branches {
		d := &litDict{}
		d.add("Offset", litOffsetof(t.GoName, names[i]))
		d.add("Table", litAddr(tableName(g.canonical(b))))
		branches = append(branches, d)
	}
	u := &litDict{typ: litType{addr: true, path: sp, name: "Union"}}
	u.add("Property", litStr(t.Discriminator.Property))
	u.add("Tags", &litList{typ: litType{slice: true, name: "string"}, elems: tags})
	u.add("Cases", &litList{typ: litType{slice: true, name: "int"}, elems: cases})
	u.add("Branches", &litList{typ: litType{slice: true, path: sp, name: "Branch"}, elems: branches})
	if t.OneOf {
		u.add("OneOf", litTrue)
	}
	td := &litDict{typ: litType{path: sp, name: "Table"}}
	if g.checked(t) {
		td.add("Checked", litTrue)
	}
	td.add("Type", litTypedNil(t.GoName))
	if g.patternBudget {
		td.add("Budget", litTrue)
	}
	td.add("Union", u)
	s.litVar(fmt.Sprintf("%s describes %s to runtime/shape.", tableName(t), t.GoName), tableName(t), td)
}

// defaultConst is the shape.Const literal of a scalar default.
func (g *gen) defaultConst(t *ir.Type, raw json.RawMessage) litNode {
	text := strings.TrimSpace(string(raw))
	d := &litDict{typ: litType{path: g.shapePkg(), name: "Const"}}
	switch t.Kind {
	case ir.KindBool:
		d.add("B", litBool(text == "true"))
	case ir.KindInteger:
		d.add("I", litNum(text))
	case ir.KindNumber:
		d.add("F", litNum(text))
	default:
		var s string
		_ = json.Unmarshal(raw, &s) // literal accepted it (tableable)
		d.add("S", litStr(s))
	}
	return d
}
