package generator

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// formatFuncs maps the formats runtime/check implements to its functions.
var formatFuncs = map[string]string{
	"date-time": "DateTime", "date": "Date", "time": "Time", "duration": "Duration",
	"email": "Email", "idn-email": "IDNEmail", "hostname": "Hostname", "idn-hostname": "IDNHostname",
	"ipv4": "IPv4", "ipv6": "IPv6", "uri": "URI", "uri-reference": "URIReference",
	"iri": "IRI", "iri-reference": "IRIReference", "uri-template": "URITemplate", "uuid": "UUID",
	"json-pointer": "JSONPointer", "relative-json-pointer": "RelativeJSONPointer", "regex": "Regex",
}

// vc is where generated checks report: a *wire.Path expression and a
// *wire.Errors expression.
type vc struct {
	g    *gen
	path jen.Code
	// recv is the path as a method receiver (c for &c).
	recv jen.Code
	// errs is the *wire.Errors receiver; errsArg the argument form (&e
	// when errs is a local wire.Errors value).
	errs    jen.Code
	errsArg jen.Code
	depth   int
}

func (c vc) add(code, message string, expected string, received jen.Code, suggestion jen.Code) jen.Code {
	if received == nil {
		received = jen.Lit("")
	}
	if suggestion == nil {
		suggestion = jen.Lit("")
	}
	// e.Add(p, "minLength", "must be ...", ">= 1 characters", check.Received(v), "")
	return jen.Add(c.errs).Dot("Add").Call(c.path, strLit(code), strLit(message), strLit(expected), received, suggestion)
}

func (c vc) received(v jen.Code) jen.Code {
	return jen.Qual(c.g.checkPkg, "Received").Call(v)
}

// addValue records a violation by v, a Go string, int64 or float64 (add:
// the Errors method AddString, AddInt or AddNumber), which the runtime
// renders as the received value only when it records the violation: no
// text is built for a violation past wire.MaxErrors, and none allocates
// on its own.
//
//	e.AddInt(p, "minimum", "must be >= 1", ">= 1", v)
func (c vc) addValue(add, code, message, expected string, v jen.Code) jen.Code {
	return jen.Add(c.errs).Dot(add).Call(c.path, strLit(code), strLit(message), strLit(expected), v)
}

func (c vc) tmp(prefix string) string { return fmt.Sprintf("%s%d", prefix, c.depth) }

// child returns a context one level down whose path is the stack variable
// name, plus the declaration `name := p.Key("k")` (or Index).
func (c vc) child(name string, step jen.Code) (vc, jen.Code) {
	decl := jen.Id(name).Op(":=").Add(c.receiver()).Add(step)
	return vc{g: c.g, path: jen.Op("&").Id(name), recv: jen.Id(name), errs: c.errs, errsArg: c.errsArg, depth: c.depth + 1}, decl
}

// receiver renders the path as a method receiver ((*wire.Path)(nil) for
// the root).
func (c vc) receiver() *jen.Statement {
	if c.recv == nil {
		return jen.Parens(jen.Op("*").Qual(c.g.wirePkg, "Path")).Parens(jen.Nil())
	}
	return jen.Add(c.recv)
}

// fieldChecksPerFunc is how many field checks one validate function
// holds at most: the compiler's cost grows faster than linearly with a
// function's size and variables, so a long object's checks are spread over
// helper methods of at most this many.
const fieldChecksPerFunc = 64

// splitFieldChecks returns the field checks of object t (each a block of
// its own, using only x, p and e) when they are at most
// fieldChecksPerFunc; else it writes them into methods validatePartN of
// that many each and returns the calls.
//
//	func (x *Wide) validatePart1(p *wire.Path, e *wire.Errors) { ... }
func (g *gen) splitFieldChecks(f *jen.File, t *ir.Type, fields []jen.Code) []jen.Code {
	if len(fields) <= fieldChecksPerFunc {
		return fields
	}
	var calls []jen.Code
	for i := 0; i < len(fields); i += fieldChecksPerFunc {
		name := fmt.Sprintf("validatePart%d", i/fieldChecksPerFunc+1)
		f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id(name).Params(
			jen.Id("p").Op("*").Qual(g.wirePkg, "Path"), jen.Id("e").Op("*").Qual(g.wirePkg, "Errors"),
		).Block(fields[i:min(i+fieldChecksPerFunc, len(fields))]...)
		f.Line()
		calls = append(calls, jen.Id("x").Dot(name).Call(jen.Id("p"), jen.Id("e")))
	}
	return calls
}

// emitValidators writes validate_gen.go: Validate and validate per named
// type, then the package-level patterns, schemas and literals they use.
// golden/github/validate_gen.go shows the output.
func emitValidators(g *gen, s *srcFile) error {
	for _, t := range g.fam.Types {
		if !hasMethods(t) || g.alias[t] != nil {
			continue
		}
		// The methods of one line are text; the rest is code.
		switch {
		case !g.checked(t):
			// Nothing to check beyond the Go type: no validate method, and
			// no caller (value, decodeArgs) calls one.
			validateMethod(s, t, "Validate reports nil: every value of the Go type satisfies the schema.", func() {
				s.text("nil")
			})
			continue
		case g.tabled(t):
			// No validate method: callers call the interpreter (validateCall).
			validateMethod(s, t, validateDoc, func() {
				s.qual(g.shapePkg(), "Validate")
				s.text("(&")
				s.ident(tableName(t))
				s.text(", ")
				s.qual("unsafe", "Pointer")
				s.text("(x))")
			})
			continue
		case g.scalarTabled(t):
			// No validate method (validateCall).
			kind := scalarKind(t)
			validateMethod(s, t, validateDoc, func() {
				s.qual(g.shapePkg(), "Validate"+kind)
				s.text("(&")
				s.ident(checkName(t))
				s.text(", ")
				switch kind {
				case "String":
					s.text("string(*x), ")
				case "Int":
					s.text("int64(*x), ")
				default:
					s.text("float64(*x), ")
				}
				if g.patternBudget {
					s.text("true)")
				} else {
					s.text("false)")
				}
			})
			g.emitScalarCheck(s, t)
			continue
		}
		f := s.jen()
		f.Add(comment(validateDoc))
		f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id("Validate").Params().Error().Block(
			append(g.topErrors(nil),
				jen.Id("x").Dot("validate").Call(jen.Nil(), jen.Op("&").Id("e")),
				jen.Return(jen.Id("e").Dot("Err").Call(jen.Lit(""))))...,
		)
		f.Line()
		c := vc{g: g, path: jen.Id("p"), recv: jen.Id("p"), errs: jen.Id("e"), errsArg: jen.Id("e")}
		var body []jen.Code
		switch t.Kind {
		case ir.KindObject:
			fields, rest := c.objectParts(t)
			body = append(g.splitFieldChecks(f, t, fields), rest...)
		case ir.KindUnion:
			body = c.union(t)
		case ir.KindTuple:
			body = c.tuple(t)
		default:
			body = c.inline(jen.Parens(jen.Op("*").Id("x")), t)
		}
		f.Add(comment("validate records the violations of x at p in e."))
		f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id("validate").Params(
			jen.Id("p").Op("*").Qual(g.wirePkg, "Path"), jen.Id("e").Op("*").Qual(g.wirePkg, "Errors"),
		).Block(body...)
		f.Line()
	}
	// Params of a kind Go gives no methods (a bare schema of any kind):
	// a validate function instead.
	for _, tool := range g.fam.Tools {
		t := tool.Params
		if hasMethods(t) || g.rootFuncs[t] {
			continue
		}
		if g.rootFuncs == nil {
			g.rootFuncs = map[*ir.Type]bool{}
		}
		g.rootFuncs[t] = true
		c := vc{g: g, path: jen.Id("p"), recv: jen.Id("p"), errs: jen.Id("e"), errsArg: jen.Id("e")}
		f := s.jen()
		f.Add(commentf("validate%s records the violations of x at p in e.", t.GoName))
		f.Func().Id("validate"+t.GoName).Params(
			jen.Id("x").Op("*").Id(t.GoName), jen.Id("p").Op("*").Qual(g.wirePkg, "Path"), jen.Id("e").Op("*").Qual(g.wirePkg, "Errors"),
		).Block(c.inline(jen.Parens(jen.Op("*").Id("x")), t)...)
		f.Line()
	}
	if len(g.pkgVarSeq) > 0 {
		var defs []jen.Code
		for _, v := range g.pkgVarSeq {
			defs = append(defs, jen.Id(v.name).Op("=").Add(v.init))
		}
		f := s.jen()
		f.Add(comment("Patterns, schemas and literals the checks use, compiled once."))
		f.Var().Defs(defs...)
	}
	return nil
}

// validateDoc is the doc comment of a Validate method that checks.
const validateDoc = "Validate checks x against its schema, reporting every violation."

// validateMethod writes the Validate method of t, which returns the
// expression ret writes, after doc, as text:
//
//	// Validate checks x against its schema, reporting every violation.
//	func (x *T) Validate() error {
//		return shape.Validate(&tableT, unsafe.Pointer(x))
//	}
func validateMethod(s *srcFile, t *ir.Type, doc string, ret func()) {
	s.decl()
	s.comment("", doc)
	s.text("func (x *")
	s.ident(t.GoName)
	s.text(") Validate() error {\n\treturn ")
	ret()
	s.text("\n}\n")
}

// validateItem emits checks of the value v of type t (with item
// semantics: nullable items are pointers), reporting at &pathVar (nil
// when pathVar is "") into &errsVar.
func (g *gen) validateItem(v jen.Code, t *ir.Type, pathVar, errsVar string) []jen.Code {
	c := vc{g: g, path: jen.Nil(), errs: jen.Id(errsVar), errsArg: jen.Op("&").Id(errsVar), depth: 50}
	if pathVar != "" {
		c.path, c.recv = jen.Op("&").Id(pathVar), jen.Id(pathVar)
	}
	return c.item(v, t)
}

// item checks an array item, map value or union branch.
func (c vc) item(v jen.Code, t *ir.Type) []jen.Code {
	if t != nil && t.Nullable && !nilable(t) {
		checks := c.value(jen.Parens(jen.Op("*").Add(v)), t)
		if len(checks) == 0 {
			return nil
		}
		return []jen.Code{jen.If(jen.Add(v).Op("!=").Nil()).Block(checks...)}
	}
	return c.value(v, t)
}

// value checks a non-null value v of type t: named types through their
// validate method, others inline.
func (c vc) value(v jen.Code, t *ir.Type) []jen.Code {
	if t == nil {
		return nil
	}
	if hasMethods(t) {
		if !c.g.checked(t) {
			return nil
		}
		return []jen.Code{c.g.validateCall(v, t, false, c.path, c.errsArg)}
	}
	return c.inline(v, t)
}

// checked reports whether values of the named type t can violate
// anything beyond their Go type, that is whether t has a validate method;
// memoised per type.
func (g *gen) checked(t *ir.Type) bool {
	if v, ok := g.checks[t]; ok {
		return v
	}
	if g.checks == nil {
		g.checks = map[*ir.Type]bool{}
	}
	v := g.needsCheck(t, map[*ir.Type]bool{})
	g.checks[t] = v
	return v
}

// needsCheck reports whether values of t can violate anything beyond
// their Go type.
func (g *gen) needsCheck(t *ir.Type, seen map[*ir.Type]bool) bool {
	if t == nil {
		return false
	}
	if seen[t] {
		return false
	}
	seen[t] = true
	if isTime(t) {
		// Format, length and pattern were checked on the text by the decoder.
		return t.Delegated != nil
	}
	cs := t.ConstraintsValue()
	if len(t.Enum) > 0 || t.Const != nil || t.Format != "" && formatFuncs[t.Format] != "" || t.Delegated != nil ||
		cs.MinLength != nil || cs.MaxLength != nil || cs.Pattern != "" || cs.Minimum != nil || cs.Maximum != nil ||
		cs.ExclusiveMinimum != nil || cs.ExclusiveMaximum != nil || cs.MultipleOf != nil || cs.MinItems != nil ||
		cs.MaxItems != nil || cs.UniqueItems || cs.Contains != nil || cs.MinProperties != nil || cs.MaxProperties != nil ||
		len(cs.DependentRequired) > 0 || cs.PropertyNames != nil || len(t.PatternProperties) > 0 {
		return true
	}
	if t.Kind == ir.KindUnion && t.OneOf {
		return true
	}
	for _, fl := range t.Fields {
		if g.needsCheck(fl.Type, seen) {
			return true
		}
	}
	for _, b := range t.Branches {
		if g.needsCheck(b, seen) {
			return true
		}
	}
	for _, p := range t.Prefix {
		if g.needsCheck(p, seen) {
			return true
		}
	}
	return g.needsCheck(t.Elem, seen)
}

// inline emits the checks of t's own keywords on v, descending into
// items of arrays and maps.
func (c vc) inline(v jen.Code, t *ir.Type) []jen.Code {
	var out []jen.Code
	switch {
	case isTime(t):
		// Checked on the text by the decoder; only delegated keywords remain.
	case t.Kind == ir.KindString || t.Kind == ir.KindEnum:
		s := jen.Add(v)
		if t.GoName != "" {
			s = jen.String().Call(v)
		}
		out = append(out, c.stringChecks(s, t)...)
		out = append(out, c.enumChecks(v, s, t)...)
	case t.Kind == ir.KindInteger:
		out = append(out, c.numberChecks(v, t, true)...)
		out = append(out, c.enumChecks(v, nil, t)...)
	case t.Kind == ir.KindNumber:
		out = append(out, c.numberChecks(v, t, false)...)
		out = append(out, c.enumChecks(v, nil, t)...)
	case t.Kind == ir.KindBool:
		out = append(out, c.enumChecks(v, nil, t)...)
	case t.Kind == ir.KindConst:
		if lit := constLit(t.Const); lit != nil {
			violation := c.add("const", "must be "+string(t.Const), string(t.Const), c.received(v), nil)
			if !goConstant(t.Const) {
				// No int64 or float64 equals it.
				out = append(out, violation)
			} else {
				out = append(out, jen.If(jen.Add(v).Op("!=").Add(lit)).Block(violation))
			}
		} else {
			out = append(out, c.genericEqual(v, []json.RawMessage{t.Const}, "const")...)
		}
	case t.Kind == ir.KindArray:
		out = append(out, c.arrayChecks(v, t)...)
	case t.Kind == ir.KindMap:
		out = append(out, c.mapChecks(v, t)...)
	case t.Kind == ir.KindAny:
		out = append(out, c.anyChecks(v, t)...)
	}
	return append(out, c.delegated(v, t)...)
}

// goConstant reports whether a scalar JSON literal is a Go constant of its
// kind's type: integers within int64, numbers within float64.
func goConstant(lit json.RawMessage) bool {
	text := strings.TrimSpace(string(lit))
	switch constKind(lit) {
	case "integer":
		_, err := strconv.ParseInt(text, 10, 64)
		return err == nil
	case "number":
		_, ok := float64Of(text)
		return ok
	}
	return true
}

// float64Of is the float64 number text reads as; ok is false when no
// float64 stands for it: beyond float64's range, or nonzero and nearer
// zero than every float64 (1e-400 parses as 0, and 0 must not pass a
// const 1e-400).
func float64Of(text string) (f float64, ok bool) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, false
	}
	if f == 0 {
		mant, _, _ := strings.Cut(strings.ToLower(text), "e")
		if strings.ContainsAny(mant, "123456789") {
			return 0, false
		}
	}
	return f, true
}

// delegated runs the embedded validator over the generic form of v.
func (c vc) delegated(v jen.Code, t *ir.Type) []jen.Code {
	if t.Delegated == nil {
		return nil
	}
	name := c.g.delegatedSchema(t)
	check := func(g jen.Code) []jen.Code {
		return []jen.Code{jen.Add(c.errs).Dot("Delegate").Call(jen.Id(name), g, c.receiver().Dot("String").Call())}
	}
	// A typed value is checked as sent; one of any kind holds the value
	// as sent but for integers beyond ±2^53, which it reads as float64:
	// e.AsSent gives the arguments' exact value when it is the same one
	// (a union's branch values are nil when another branch matched, so
	// the arguments do not always stand for them).
	switch {
	case t.Kind == ir.KindAny && c.recv == nil:
		return check(v)
	case t.Kind == ir.KindAny:
		return check(jen.Add(c.errs).Dot("AsSent").Call(c.path, v))
	case isTime(t):
		return check(c.g.timeText(v, t))
	}
	// if v, ok := e.Instance(p, x); ok {
	//	e.Append(schema0.Validate(v, p.String()))
	// }
	return c.instance(v, check)
}

// delegatedSchema is the package variable holding t's delegated schema,
// compiled for the embedded validator.
func (g *gen) delegatedSchema(t *ir.Type) string {
	if len(t.Resources) == 0 {
		return g.pkgVar("schema", string(t.Delegated), jen.Qual(g.checkPkg, "MustSchema").Call(strLit(string(t.Delegated))))
	}
	// check.MustSchemaIn(`{"$ref":"uri#ptr"}`, map[string]string{"uri": `{...}`})
	uris := slices.Sorted(maps.Keys(t.Resources))
	key := string(t.Delegated)
	docs := jen.Dict{}
	for _, u := range uris {
		key += "\x00" + u + "\x00" + string(t.Resources[u])
		docs[strLit(u)] = strLit(string(t.Resources[u]))
	}
	return g.pkgVar("schema", key, jen.Qual(g.checkPkg, "MustSchemaIn").Call(strLit(string(t.Delegated)), jen.Map(jen.String()).String().Values(docs)))
}

// instance runs the checks use emits over the typed value v in generic
// form, for the embedded validator: the value as sent when the call's
// arguments are at hand (wire.Errors.Instance; none when a default filled
// it in), else v's own generic form. A check without a path of its own (a
// trial that reports no pointer) takes v's.
func (c vc) instance(v jen.Code, use func(g jen.Code) []jen.Code) []jen.Code {
	if c.recv == nil {
		return use(jen.Qual(c.g.wirePkg, "Generic").Call(v))
	}
	g := c.tmp("g")
	return []jen.Code{jen.If(jen.List(jen.Id(g), jen.Id("ok")).Op(":=").Add(c.errs).Dot("Instance").Call(c.path, v), jen.Id("ok")).Block(use(jen.Id(g))...)}
}

// lengthBounded counts the runes of s into n for the length checks conds
// only when its length in bytes leaves them open: a rune is one to four
// bytes, so a string of at most max bytes has at most max runes and one of
// at least 4·min-3 bytes at least min runes.
//
//	if n := len(s); n < 9 || n > 80 {
//		n = check.Len(s)
//		if n < 3 { ... }
//		if n > 80 { ... }
//	}
func lengthBounded(n string, s jen.Code, minLen, maxLen *int64, checkPkg string, conds []jen.Code) jen.Code {
	count := jen.Qual(checkPkg, "Len").Call(s)
	var open []jen.Code
	if minLen != nil && *minLen > 0 {
		if *minLen > (math.MaxInt32+3)/4 {
			// Past what the bytes decide on every platform: count.
			return jen.Block(append([]jen.Code{jen.Id(n).Op(":=").Add(count)}, conds...)...)
		}
		open = append(open, jen.Id(n).Op("<").Lit(int(4**minLen-3)))
	}
	if maxLen != nil {
		open = append(open, jen.Id(n).Op(">").Lit(int(*maxLen)))
	}
	return jen.If(jen.Id(n).Op(":=").Len(s), orAll(open)).Block(append([]jen.Code{jen.Id(n).Op("=").Add(count)}, conds...)...)
}

// orAll joins conds with ||.
func orAll(conds []jen.Code) *jen.Statement {
	var cond *jen.Statement
	for i, c := range conds {
		if i == 0 {
			cond = jen.Add(c)
		} else {
			cond = cond.Op("||").Add(c)
		}
	}
	return cond
}

func (c vc) stringChecks(s jen.Code, t *ir.Type) []jen.Code {
	var out []jen.Code
	cs := t.ConstraintsValue()
	if cs.MinLength != nil || cs.MaxLength != nil {
		// if n := check.Len(s); n < 3 { ... }
		n := c.tmp("n")
		var conds []jen.Code
		if cs.MinLength != nil && *cs.MinLength > 0 {
			m := *cs.MinLength
			conds = append(conds, jen.If(jen.Id(n).Op("<").Lit(int(m))).Block(
				c.addValue("AddString", "minLength", fmt.Sprintf("must be at least %s long", plural(m, "character")), "at least "+plural(m, "character"), s)))
		}
		if cs.MaxLength != nil {
			m := *cs.MaxLength
			conds = append(conds, jen.If(jen.Id(n).Op(">").Lit(int(m))).Block(
				c.addValue("AddString", "maxLength", fmt.Sprintf("must be at most %s long", plural(m, "character")), "at most "+plural(m, "character"), s)))
		}
		if len(conds) > 0 {
			out = append(out, lengthBounded(n, s, cs.MinLength, cs.MaxLength, c.g.checkPkg, conds))
		}
	}
	if cs.Pattern != "" {
		re := c.g.patternVar(cs.Pattern)
		violation := c.addValue("AddString", "pattern", "must match the pattern "+cs.Pattern, "pattern "+cs.Pattern, s)
		if c.g.budgeted(cs.Pattern) {
			// A match not decided in time is reported by Match.
			out = append(out, jen.If(jen.List(jen.Id("m"), jen.Id("ok")).Op(":=").Add(c.errs).Dot("Match").Call(c.path, jen.Id(re), s, jen.Lit("pattern")),
				jen.Id("ok").Op("&&").Op("!").Id("m")).Block(violation))
		} else {
			out = append(out, jen.If(jen.Op("!").Id(re).Dot("MatchString").Call(s)).Block(violation))
		}
	}
	if fn := formatFuncs[t.Format]; fn != "" {
		out = append(out, jen.If(jen.Op("!").Qual(c.g.checkPkg, fn).Call(s)).Block(
			c.addValue("AddString", "format", check.FormatMessage(t.Format), t.Format, s)))
	}
	return out
}

// budgeted reports whether pattern's matches need the call's budget
// (check.Regexp.Budgeted; a pattern no engine compiles is reported by
// schema.Compile).
func (g *gen) budgeted(pattern string) bool {
	b, ok := g.budgets[pattern]
	if !ok {
		re, err := check.Compile(pattern)
		b = err == nil && re.Budgeted()
		g.budgets[pattern] = b
	}
	return b
}

// usesBudget reports whether a pattern of the family needs the call's
// budget (budgeted).
func (g *gen) usesBudget() bool {
	seen := map[*ir.Type]bool{}
	var walk func(t *ir.Type) bool
	walk = func(t *ir.Type) bool {
		if t == nil || seen[t] {
			return false
		}
		seen[t] = true
		if p := t.ConstraintsValue().Pattern; p != "" && g.budgeted(p) {
			return true
		}
		// The embedded validator's matches and evaluations are charged
		// to the call's budget too (wire.Errors.Delegate).
		if t.Delegated != nil || t.ConstraintsValue().ContainsSchema != nil {
			return true
		}
		for _, pp := range t.PatternProperties {
			if g.budgeted(pp.Pattern) {
				return true
			}
		}
		for sub := range t.Subtypes() {
			if walk(sub) {
				return true
			}
		}
		return false
	}
	for _, t := range g.fam.Types {
		if walk(t) {
			return true
		}
	}
	for _, tool := range g.fam.Tools {
		if walk(tool.Params) {
			return true
		}
	}
	return false
}

// subErrors declares name, an empty wire.Errors for a trial or for checks
// run while decoding: when the family has budgeted patterns it shares
// the call's budget (from: d.Checks() or e.Sub()).
func (g *gen) subErrors(name string, from jen.Code) jen.Code {
	if !g.patternBudget {
		return jen.Var().Id(name).Qual(g.wirePkg, "Errors")
	}
	return jen.Id(name).Op(":=").Add(from)
}

// absorb records the findings of the wire.Errors name (from subErrors)
// in decoder d.
func (g *gen) absorb(d jen.Code, name string) jen.Code {
	if !g.patternBudget {
		return jen.Add(d).Dot("Append").Call(jen.Id(name).Dot("List").Call())
	}
	return jen.Add(d).Dot("Absorb").Call(jen.Op("&").Id(name))
}

// budgetStart gives the decoder d and the validator's wire.Errors e of one
// call one pattern-matching budget, when the family needs one.
func (g *gen) budgetStart(d jen.Code) []jen.Code {
	if !g.patternBudget {
		return nil
	}
	return []jen.Code{jen.Add(d).Dot("UseBudget").Call(jen.New(jen.Qual(g.checkPkg, "Budget")))}
}

// argsErrors is topErrors for a tool's decodeArgs of params type t,
// handing e the arguments when a check of t needs them as sent.
func (g *gen) argsErrors(d jen.Code, t *ir.Type) []jen.Code {
	out := g.topErrors(d)
	if g.needsArgs(t) {
		out = append(out, jen.Id("e").Dot("UseArgs").Call(jen.Id("args")))
	}
	return out
}

// needsArgs reports whether a check of a value of type t judges the value
// as sent (wire.Errors.Instance): a delegated keyword or contains, on t
// or a type below it.
func (g *gen) needsArgs(t *ir.Type) bool {
	if v, ok := g.argsNeed[t]; ok {
		return v
	}
	if g.argsNeed == nil {
		g.argsNeed = map[*ir.Type]bool{}
	}
	g.argsNeed[t] = false // a recursive type asks again below
	need := t.Delegated != nil || t.ConstraintsValue().Contains != nil
	for sub := range t.Subtypes() {
		if need {
			break
		}
		need = g.needsArgs(sub)
	}
	g.argsNeed[t] = need
	return need
}

// topErrors declares e, the validator's wire.Errors of a call: sharing
// d's budget when there is one (nil d: a fresh one).
func (g *gen) topErrors(d jen.Code) []jen.Code {
	if !g.patternBudget {
		return []jen.Code{jen.Var().Id("e").Qual(g.wirePkg, "Errors")}
	}
	if d == nil {
		return []jen.Code{jen.Var().Id("e").Qual(g.wirePkg, "Errors"), jen.Id("e").Dot("UseBudget").Call(jen.New(jen.Qual(g.checkPkg, "Budget")))}
	}
	return []jen.Code{jen.Id("e").Op(":=").Add(d).Dot("Checks").Call()}
}

// patternVar declares a compiled pattern once.
func (g *gen) patternVar(pattern string) string {
	return g.pkgVar("pattern", pattern, jen.Qual(g.checkPkg, "MustCompile").Call(strLit(pattern)))
}

// enumChecks checks enum membership: a switch over the literals of a
// scalar kind, generic equality otherwise. s is the string form of v for
// suggestions (nil for non-strings).
func (c vc) enumChecks(v, s jen.Code, t *ir.Type) []jen.Code {
	if len(t.Enum) == 0 && t.Const == nil {
		return nil
	}
	lits := make([]json.RawMessage, 0, len(t.Enum)+1)
	for _, e := range t.Enum {
		lits = append(lits, e.JSON)
	}
	code := "enum"
	if t.Const != nil {
		lits = append(lits[:0], t.Const)
		code = "const"
	}
	var cases []jen.Code
	var shown []string
	var strs []jen.Code
	for _, l := range lits {
		text := strings.TrimSpace(string(l))
		switch t.Kind {
		case ir.KindString, ir.KindEnum:
			var str string
			if json.Unmarshal(l, &str) != nil {
				continue
			}
			cases = append(cases, strLit(str))
			strs = append(strs, strLit(str))
		case ir.KindBool:
			if text != "true" && text != "false" {
				continue
			}
			cases = append(cases, jen.Lit(text == "true"))
		case ir.KindInteger:
			r, ok := ir.Number(text).Rat()
			if !ok || !r.IsInt() || !r.Num().IsInt64() {
				continue
			}
			cases = append(cases, jen.Lit(int(r.Num().Int64())))
		case ir.KindNumber:
			fv, ok := float64Of(text)
			if !ok {
				continue
			}
			cases = append(cases, jen.Lit(fv))
		}
		shown = append(shown, text)
	}
	if t.Nullable && code == "enum" {
		// The compile keeps an enum's null as t.Nullable; the message
		// lists every value allowed.
		shown = append(shown, "null")
	}
	list := strings.Join(shown, ", ")
	message := "must be one of " + list
	if code == "const" {
		message = "must be " + list
	}
	violation := c.add(code, message, list, c.received(v), nil)
	if s != nil {
		violation = c.addValue("AddString", code, message, list, s)
		if len(strs) > 0 {
			name := c.g.pkgVar("enum", list, jen.Index().String().Values(strs...))
			violation = jen.Add(c.errs).Dot("AddEnum").Call(c.path, strLit(code), strLit(message), strLit(list), s, jen.Id(name))
		}
	}
	if len(cases) == 0 {
		// Nothing of this kind is allowed (the enum holds other kinds only).
		return []jen.Code{violation}
	}
	// switch v {
	// case "open", "closed":
	// default:
	//	e.AddEnum(p, "enum", "must be one of ...", ..., v, enum0)
	// }
	sw := jen.Add(v)
	if s != nil {
		sw = jen.Add(s)
	}
	return []jen.Code{jen.Switch(sw).Block(
		jen.Case(cases...),
		jen.Default().Block(violation),
	)}
}

// genericEqual checks that the generic form of v equals one of lits.
func (c vc) genericEqual(v jen.Code, lits []json.RawMessage, code string) []jen.Code {
	var conds []jen.Code
	var shown []string
	g := c.tmp("g")
	for _, l := range lits {
		name := c.g.pkgVar("literal", string(l), jen.Qual(c.g.wirePkg, "MustAny").Call(strLit(string(l))))
		conds = append(conds, jen.Qual(c.g.checkPkg, "Equal").Call(jen.Id(g), jen.Id(name)))
		shown = append(shown, string(l))
	}
	cond := orAll(conds)
	message := "must be one of " + strings.Join(shown, ", ")
	if code == "const" {
		message = "must be " + shown[0]
	}
	return []jen.Code{jen.Block(
		jen.Id(g).Op(":=").Qual(c.g.wirePkg, "Generic").Call(v),
		jen.If(jen.Op("!").Parens(cond)).Block(c.add(code, message, strings.Join(shown, ", "), c.received(jen.Id(g)), nil)),
	)}
}

// numberChecks emits bounds and multipleOf. Integer bounds are rounded
// inward to exact int64 literals; number bounds are float literals.
func (c vc) numberChecks(v jen.Code, t *ir.Type, integer bool) []jen.Code {
	cs := t.ConstraintsValue()
	var out []jen.Code
	x := jen.Add(v)
	if t.GoName != "" {
		if integer {
			x = jen.Int64().Call(v)
		} else {
			x = jen.Float64().Call(v)
		}
	}
	add := "AddNumber"
	if integer {
		add = "AddInt"
	}
	bound := func(n *ir.Number, keyword, op, word string, lower, exclusive bool) {
		if n == nil {
			return
		}
		text := string(*n)
		violation := c.addValue(add, keyword, "must be "+word+" "+text, word+" "+text, x)
		r, inf, ok := boundValue(text)
		if !ok {
			return
		}
		if inf != 0 {
			// Beyond every float64 and int64: a lower bound above them
			// (or an upper bound below them) refuses every value, the
			// other way round it refuses none.
			if (inf > 0) == lower {
				out = append(out, violation)
			}
			return
		}
		var cond jen.Code
		if integer {
			b, fits := intBound(r, lower, exclusive)
			if !fits {
				if b.Sign() > 0 == lower {
					out = append(out, violation)
				}
				return
			}
			if lower {
				cond = jen.Add(x).Op("<").Lit(int(b.Int64()))
			} else {
				cond = jen.Add(x).Op(">").Lit(int(b.Int64()))
			}
		} else {
			f, op, finite := floatBound(r, lower, exclusive)
			if !finite {
				if (f > 0) == lower {
					out = append(out, violation)
				}
				return
			}
			cond = jen.Add(x).Op(op).Lit(f)
		}
		out = append(out, jen.If(cond).Block(violation))
	}
	bound(cs.Minimum, "minimum", "<", ">=", true, false)
	bound(cs.ExclusiveMinimum, "exclusiveMinimum", "<=", ">", true, true)
	bound(cs.Maximum, "maximum", ">", "<=", false, false)
	bound(cs.ExclusiveMaximum, "exclusiveMaximum", ">=", "<", false, true)
	if cs.MultipleOf != nil {
		// if !divisor0.Of(x) { ... }, the divisor parsed once
		method := "Of"
		if integer {
			method = "OfInt"
		}
		text := string(*cs.MultipleOf)
		div := c.g.pkgVar("divisor", text, jen.Qual(c.g.checkPkg, "NewDivisor").Call(strLit(text)))
		out = append(out, jen.If(jen.Op("!").Id(div).Dot(method).Call(x)).Block(
			c.addValue(add, "multipleOf", "must be a multiple of "+text, "multiple of "+text, x)))
	}
	return out
}

// floatBound gives the comparison with f, the float64 nearest the bound
// r, under which a float64 x violates it (op: <, <=, >, >=), judging x as
// the decimal it stands for: the shortest one that reads back as x, the
// way a model writes numbers. So exclusiveMinimum 0.1 refuses 0.1 (the
// float64 nearest 0.1 lies above it, but stands for 0.1). Rounding keeps
// order, so an x other than f is on the side of r that it is of f; only
// x == f depends on how f's decimal compares with r. finite is false
// when r is beyond every float64 (f is then ±Inf).
func floatBound(r *big.Rat, lower, exclusive bool) (f float64, op string, finite bool) {
	f, _ = r.Float64()
	if math.IsInf(f, 0) {
		return f, "", false
	}
	s, _ := new(big.Rat).SetString(strconv.FormatFloat(f, 'g', -1, 64))
	c := s.Cmp(r) // how the decimal f stands for compares with r
	var fValid bool
	switch {
	case lower && exclusive:
		fValid = c > 0
	case lower:
		fValid = c >= 0
	case exclusive:
		fValid = c < 0
	default:
		fValid = c <= 0
	}
	switch {
	case lower && fValid:
		op = "<"
	case lower:
		op = "<="
	case fValid:
		op = ">"
	default:
		op = ">="
	}
	return f, op, true
}

// intBound turns a bound into the inclusive limit an integer must respect
// (minimum 1.5 → 2, exclusiveMaximum 10 → 9); fits is false when that
// limit lies outside int64.
func intBound(r *big.Rat, lower, exclusive bool) (b *big.Int, fits bool) {
	q := new(big.Int).Quo(r.Num(), r.Denom()) // truncated toward zero
	floor := new(big.Int).Set(q)
	if r.Sign() < 0 && !r.IsInt() {
		floor.Sub(floor, big.NewInt(1))
	}
	switch {
	case lower && exclusive:
		b = floor.Add(floor, big.NewInt(1))
	case lower:
		b = floor
		if !r.IsInt() {
			b = floor.Add(floor, big.NewInt(1))
		}
	case exclusive:
		b = floor
		if r.IsInt() {
			b = floor.Sub(floor, big.NewInt(1))
		}
	default:
		b = floor
	}
	return b, b.IsInt64()
}

// boundValue reads a numeric keyword's JSON number text without building
// huge numbers: inf is +1 or -1 for a value beyond every float64 (and so
// every int64), else r is its exact value, except that a nonzero value
// closer to zero than every float64 stands in as ±1e-400 (which compares
// with every float64 and int64 as it does).
func boundValue(text string) (r *big.Rat, inf int, ok bool) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, 0, false
	}
	switch {
	case math.IsInf(f, 1):
		return nil, 1, true
	case math.IsInf(f, -1):
		return nil, -1, true
	case f == 0 && ir.NonzeroDigits(text):
		tiny, _ := new(big.Rat).SetString("1e-400")
		if strings.HasPrefix(text, "-") {
			tiny.Neg(tiny)
		}
		return tiny, 0, true
	}
	r, ok = new(big.Rat).SetString(text)
	return r, 0, ok
}

func (c vc) arrayChecks(v jen.Code, t *ir.Type) []jen.Code {
	cs := t.ConstraintsValue()
	var out []jen.Code
	out = append(out, c.countChecks(jen.Len(v), cs.MinItems, cs.MaxItems, "Items", "item")...)
	if cs.UniqueItems {
		// if i, j, ok := wire.Duplicate(v); ok { ... }
		var call jen.Code
		if comparableElem(t.Elem) {
			call = jen.Qual(c.g.wirePkg, "Duplicate").Call(v)
		} else {
			call = jen.Qual(c.g.wirePkg, "DuplicateGeneric").Call(jen.Qual(c.g.wirePkg, "Generic").Call(v))
		}
		out = append(out, jen.If(jen.List(jen.Id("i"), jen.Id("j"), jen.Id("ok")).Op(":=").Add(call), jen.Id("ok")).Block(
			jen.Add(c.errs).Dot("AddDuplicate").Call(c.path, jen.Id("i"), jen.Id("j")),
		))
	}
	if cs.Contains != nil {
		out = append(out, c.contains(v, t)...)
	}
	i := c.tmp("i")
	name := c.tmp("c")
	ic, decl := c.child(name, jen.Dot("Index").Call(jen.Id(i)))
	itemChecks := ic.item(jen.Add(v).Index(jen.Id(i)), t.Elem)
	if len(itemChecks) > 0 {
		// for i := range v { c := p.Index(i); ... }
		out = append(out, jen.For(jen.Id(i).Op(":=").Range().Add(v)).Block(append([]jen.Code{decl}, itemChecks...)...))
	}
	return out
}

// comparableElem reports whether items of t compare with == as JSON does.
func comparableElem(t *ir.Type) bool {
	if t == nil || t.Nullable || isTime(t) {
		return false
	}
	switch t.Kind {
	case ir.KindBool, ir.KindInteger, ir.KindNumber, ir.KindString, ir.KindEnum:
		return true
	}
	return false
}

// contains counts the items matching the contains subschema (checked in
// generic form) against minContains/maxContains.
func (c vc) contains(v jen.Code, t *ir.Type) []jen.Code {
	cs := t.ConstraintsValue()
	min := int64(1)
	if cs.MinContains != nil {
		min = *cs.MinContains
	}
	n := c.tmp("hits")
	item := c.tmp("it")
	var count jen.Code
	if genericExact(cs.Contains) || cs.ContainsSchema == nil {
		sc := vc{g: c.g, path: jen.Nil(), errs: jen.Id("ce"), errsArg: jen.Op("&").Id("ce"), depth: c.depth + 1}
		match := sc.genericMatch(jen.Id(item), cs.Contains)
		if cs.Contains.Kind == ir.KindNever || len(match) == 0 {
			match = append([]jen.Code{jen.Id("_").Op("=").Id(item)}, match...)
		}
		count = jen.Block(append([]jen.Code{c.g.subErrors("ce", jen.Add(c.errs).Dot("Sub").Call())}, append(match,
			jen.If(jen.Id("ce").Dot("Len").Call().Op("==").Lit(0)).Block(jen.Id(n).Op("++")))...)...)
	} else {
		// An item matches when the embedded validator finds nothing.
		schema := c.g.pkgVar("schema", string(cs.ContainsSchema), jen.Qual(c.g.checkPkg, "MustSchema").Call(strLit(string(cs.ContainsSchema))))
		count = jen.Block(jen.If(jen.Id(schema).Dot("ValidateIn").Call(jen.Id(item), jen.Lit(""), jen.Add(c.errs).Dot("Budget").Call()).Op("==").Nil()).Block(jen.Id(n).Op("++")))
	}
	return c.instance(v, func(g jen.Code) []jen.Code {
		body := []jen.Code{
			jen.Id(n).Op(":=").Lit(0),
			jen.List(jen.Id("items"), jen.Id("_")).Op(":=").Add(g).Assert(jen.Index().Any()),
			jen.For(jen.List(jen.Id("_"), jen.Id(item)).Op(":=").Range().Id("items")).Add(count),
		}
		body = append(body, jen.If(jen.Id(n).Op("<").Lit(int(min))).Block(
			c.add("contains", "must contain at least "+plural(min, "matching item"), "at least "+plural(min, "matching item"), nil, nil)))
		if cs.MaxContains != nil {
			body = append(body, jen.If(jen.Id(n).Op(">").Lit(int(*cs.MaxContains))).Block(
				c.add("maxContains", "must contain at most "+plural(*cs.MaxContains, "matching item"), "at most "+plural(*cs.MaxContains, "matching item"), nil, nil)))
		}
		return []jen.Code{jen.Block(body...)}
	})
}

// genericExact reports whether genericMatch checks every keyword of t:
// false, const, and scalar kinds without null or delegated keywords. Any
// other type (an object's properties, an array's items, a union, a
// delegated keyword) is checked with the embedded validator.
func genericExact(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindNever, ir.KindConst:
		return true
	case ir.KindBool, ir.KindString, ir.KindEnum, ir.KindInteger, ir.KindNumber:
		return !t.Nullable && t.Delegated == nil
	}
	return false
}

// genericMatch emits checks of a generic value g against t, recording a
// violation into c.errs when g is not an instance of t.
func (c vc) genericMatch(g jen.Code, t *ir.Type) []jen.Code {
	kind := func(want string, ok jen.Code) []jen.Code {
		return []jen.Code{jen.If(jen.Op("!").Parens(ok)).Block(c.add("type", "expected "+want, want, nil, nil))}
	}
	typeOf := jen.Qual(c.g.checkPkg, "KindOf").Call(g)
	switch t.Kind {
	case ir.KindAny:
		return c.anyChecks(g, t)
	case ir.KindNever:
		return []jen.Code{c.add("false", "no value is allowed here", "", nil, nil)}
	case ir.KindBool, ir.KindString, ir.KindEnum, ir.KindInteger, ir.KindNumber:
		var want string
		var conv *jen.Statement
		switch t.Kind {
		case ir.KindBool:
			want, conv = "boolean", jen.Bool()
		case ir.KindString, ir.KindEnum:
			want, conv = "string", jen.String()
		case ir.KindInteger:
			want = "integer"
		default:
			want, conv = "number", jen.Float64()
		}
		v := c.tmp("gv")
		var checks []jen.Code
		if t.Kind == ir.KindInteger {
			// integers arrive as float64 in generic form
			bare := *t
			bare.GoName = ""
			bare.Kind = ir.KindNumber
			checks = vc{g: c.g, path: c.path, recv: c.recv, errs: c.errs, errsArg: c.errsArg, depth: c.depth + 1}.inline(jen.Id(v), &bare)
			if len(checks) == 0 {
				return kind(want, typeOf.Op("==").Lit("integer"))
			}
			return append(kind(want, typeOf.Op("==").Lit("integer")),
				jen.If(jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Add(g).Assert(jen.Float64()), jen.Id("ok")).Block(checks...))
		}
		bare := *t
		bare.GoName, bare.Repr = "", ir.ReprString // generic values are text
		checks = vc{g: c.g, path: c.path, recv: c.recv, errs: c.errs, errsArg: c.errsArg, depth: c.depth + 1}.inline(jen.Id(v), &bare)
		if len(checks) == 0 {
			v = "_" // the kind alone decides
		}
		return []jen.Code{jen.If(jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Add(g).Assert(conv), jen.Id("ok")).Block(checks...).Else().Block(
			c.add("type", "expected "+want, want, nil, nil))}
	case ir.KindArray, ir.KindTuple:
		return kind("array", typeOf.Op("==").Lit("array"))
	case ir.KindObject, ir.KindMap:
		return kind("object", typeOf.Op("==").Lit("object"))
	case ir.KindConst:
		return c.genericEqual(g, []json.RawMessage{t.Const}, "const")
	}
	return nil
}

// anyChecks applies keywords to a generic value by its kind (a schema
// without type applies numeric keywords only to numbers, and so on).
func (c vc) anyChecks(v jen.Code, t *ir.Type) []jen.Code {
	var out []jen.Code
	cs := t.ConstraintsValue()
	sub := vc{g: c.g, path: c.path, recv: c.recv, errs: c.errs, errsArg: c.errsArg, depth: c.depth + 1}
	n := sub.tmp("num")
	bare := ir.Type{Kind: ir.KindNumber, Constraints: t.Constraints}
	if nc := sub.numberChecks(jen.Id(n), &bare, false); len(nc) > 0 {
		out = append(out, jen.If(jen.List(jen.Id(n), jen.Id("ok")).Op(":=").Add(v).Assert(jen.Float64()), jen.Id("ok")).Block(nc...))
	}
	s := sub.tmp("str")
	sbare := ir.Type{Kind: ir.KindString, Constraints: t.Constraints, Format: t.Format}
	if sc := sub.stringChecks(jen.Id(s), &sbare); len(sc) > 0 {
		out = append(out, jen.If(jen.List(jen.Id(s), jen.Id("ok")).Op(":=").Add(v).Assert(jen.String()), jen.Id("ok")).Block(sc...))
	}
	a := sub.tmp("arr")
	var ac []jen.Code
	ac = append(ac, sub.countChecks(jen.Len(jen.Id(a)), cs.MinItems, cs.MaxItems, "Items", "item")...)
	if cs.UniqueItems {
		ac = append(ac, jen.If(jen.List(jen.Id("i"), jen.Id("j"), jen.Id("ok")).Op(":=").Qual(c.g.wirePkg, "DuplicateGeneric").Call(jen.Id(a)), jen.Id("ok")).Block(
			jen.Add(c.errs).Dot("AddDuplicate").Call(c.path, jen.Id("i"), jen.Id("j"))))
	}
	if len(ac) > 0 {
		out = append(out, jen.If(jen.List(jen.Id(a), jen.Id("ok")).Op(":=").Add(v).Assert(jen.Index().Any()), jen.Id("ok")).Block(ac...))
	}
	m := sub.tmp("obj")
	if mc := sub.countChecks(jen.Len(jen.Id(m)), cs.MinProperties, cs.MaxProperties, "Properties", "property"); len(mc) > 0 {
		out = append(out, jen.If(jen.List(jen.Id(m), jen.Id("ok")).Op(":=").Add(v).Assert(jen.Map(jen.String()).Any()), jen.Id("ok")).Block(mc...))
	}
	if len(t.Enum) > 0 {
		lits := make([]json.RawMessage, len(t.Enum), len(t.Enum)+1)
		for i, e := range t.Enum {
			lits[i] = e.JSON
		}
		if t.Nullable {
			// The compile keeps an enum's null as t.Nullable, and a value
			// of any kind holds null as nil: null is one of the values.
			lits = append(lits, json.RawMessage("null"))
		}
		out = append(out, c.genericEqualAny(v, lits, "enum")...)
	}
	if t.Const != nil {
		out = append(out, c.genericEqualAny(v, []json.RawMessage{t.Const}, "const")...)
	}
	return out
}

// genericEqualAny is genericEqual for a value already in generic form.
func (c vc) genericEqualAny(v jen.Code, lits []json.RawMessage, code string) []jen.Code {
	var eqs []jen.Code
	var shown []string
	for _, l := range lits {
		name := c.g.pkgVar("literal", string(l), jen.Qual(c.g.wirePkg, "MustAny").Call(strLit(string(l))))
		eqs = append(eqs, jen.Qual(c.g.checkPkg, "Equal").Call(v, jen.Id(name)))
		shown = append(shown, string(l))
	}
	cond := orAll(eqs)
	message := "must be one of " + strings.Join(shown, ", ")
	if code == "const" {
		message = "must be " + shown[0]
	}
	return []jen.Code{jen.If(jen.Op("!").Parens(cond)).Block(c.add(code, message, strings.Join(shown, ", "), c.received(v), nil))}
}

// countChecks emits min/max bounds on a count of things (item,
// property).
func (c vc) countChecks(n jen.Code, min, max *int64, keyword, noun string) []jen.Code {
	var out []jen.Code
	if min != nil && *min > 0 {
		out = append(out, jen.If(jen.Add(n).Op("<").Lit(int(*min))).Block(
			c.add("min"+keyword, "must have at least "+plural(*min, noun), "at least "+plural(*min, noun), nil, nil)))
	}
	if max != nil {
		out = append(out, jen.If(jen.Add(n).Op(">").Lit(int(*max))).Block(
			c.add("max"+keyword, "must have at most "+plural(*max, noun), "at most "+plural(*max, noun), nil, nil)))
	}
	return out
}

// plural writes a count with its noun agreeing: "1 item", "3 items",
// "2 properties".
func plural[N int | int64](n N, noun string) string {
	if n != 1 {
		if strings.HasSuffix(noun, "y") {
			noun = noun[:len(noun)-1] + "ies"
		} else {
			noun += "s"
		}
	}
	return fmt.Sprintf("%d %s", n, noun)
}

func (c vc) mapChecks(v jen.Code, t *ir.Type) []jen.Code {
	cs := t.ConstraintsValue()
	out := c.countChecks(jen.Len(v), cs.MinProperties, cs.MaxProperties, "Properties", "property")
	return append(out, c.members(v, t.Elem, t)...)
}

// members checks the values (and names) of a map of members.
func (c vc) members(m jen.Code, elem *ir.Type, t *ir.Type) []jen.Code {
	k, v := c.tmp("k"), c.tmp("v")
	name := c.tmp("c")
	ic, decl := c.child(name, jen.Dot("Key").Call(jen.Id(k)))
	checks := ic.item(jen.Id(v), elem)
	if names := t.ConstraintsValue().PropertyNames; names != nil {
		pn := *names
		pn.GoName, pn.Repr = "", ir.ReprString // names are text
		if pn.Kind == ir.KindAny || pn.Kind == ir.KindEnum {
			// propertyNames without a type still constrain strings.
			if pn.Kind == ir.KindAny {
				pn.Kind = ir.KindString
			}
		}
		checks = append(checks, ic.inline(jen.Id(k), &pn)...)
	}
	for _, pp := range t.PatternProperties {
		re := c.g.patternVar(pp.Pattern)
		sc := ic.item(jen.Id(v), pp.Type)
		if pp.Type == elem || len(sc) == 0 || elem == nil || elem.Kind != pp.Type.Kind {
			continue
		}
		if c.g.budgeted(pp.Pattern) {
			checks = append(checks, jen.If(jen.List(jen.Id("m"), jen.Id("_")).Op(":=").Add(c.errs).Dot("Match").Call(ic.path, jen.Id(re), jen.Id(k), jen.Lit("patternProperties")), jen.Id("m")).Block(sc...))
			continue
		}
		checks = append(checks, jen.If(jen.Id(re).Dot("MatchString").Call(jen.Id(k))).Block(sc...))
	}
	if len(checks) == 0 {
		return nil
	}
	vname := v
	if len(ic.item(jen.Id(v), elem)) == 0 && !usesValue(t) {
		vname = "_"
	}
	// for k, v := range m { c := p.Key(k); ... }
	return []jen.Code{jen.For(jen.List(jen.Id(k), jen.Id(vname)).Op(":=").Range().Add(m)).Block(append([]jen.Code{decl}, checks...)...)}
}

func usesValue(t *ir.Type) bool {
	for _, pp := range t.PatternProperties {
		if t.Elem != nil && pp.Type != t.Elem && pp.Type.Kind == t.Elem.Kind {
			return true
		}
	}
	return false
}

// objectParts are the checks of object t's validate: one block per field
// with checks, then those of the object itself (the extra members, the
// property count, dependentRequired, the delegated keywords, enum/const).
func (c vc) objectParts(t *ir.Type) (fields, out []jen.Code) {
	for _, fl := range t.Fields {
		fields = append(fields, c.fieldChecks(fl)...)
	}
	if t.Extra {
		out = append(out, c.members(jen.Id("x").Dot(t.ExtraGoName), t.Elem, t)...)
	}
	// The compiler delegates these on objects (they judge the members as
	// sent); an IR that sets them is checked on the decoded fields.
	out = append(out, c.propertyCount(t)...)
	out = append(out, c.dependentRequired(t)...)
	if t.Delegated != nil {
		out = append(out, c.delegated(jen.Id("x"), t)...)
	}
	if len(t.Enum) > 0 || t.Const != nil {
		var lits []json.RawMessage
		code := "enum"
		for _, e := range t.Enum {
			lits = append(lits, e.JSON)
		}
		if t.Const != nil {
			lits, code = []json.RawMessage{t.Const}, "const"
		}
		out = append(out, c.genericEqual(jen.Id("x"), lits, code)...)
	}
	return fields, out
}

// fieldChecks checks one field in a block of its own, as its presence
// allows: an optional one only when present.
func (c vc) fieldChecks(fl *ir.Field) []jen.Code {
	fc, decl := c.child("c", jen.Dot("Key").Call(strLit(fl.JSONName)))
	target := jen.Id("x").Dot(fl.GoName)
	var checks []jen.Code
	switch c.g.presence(fl) {
	case ir.PresencePointer:
		// Absent is not zero: an optional property is checked only
		// when present (nil is absent; the decoder checks a present
		// null of an interface-typed field itself, nullField).
		if nilable(fl.Type) {
			if cs := fc.value(target, fl.Type); len(cs) > 0 {
				checks = []jen.Code{jen.If(jen.Add(target).Op("!=").Nil()).Block(cs...)}
			}
		} else if cs := fc.value(jen.Parens(jen.Op("*").Add(target)), fl.Type); len(cs) > 0 {
			checks = []jen.Code{jen.If(jen.Add(target).Op("!=").Nil()).Block(cs...)}
		}
	case ir.PresenceNullable:
		// if v, ok := x.F.Get(); ok { ... }
		if cs := fc.value(jen.Id("v"), fl.Type); len(cs) > 0 {
			checks = []jen.Code{jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(target).Dot("Get").Call(), jen.Id("ok")).Block(cs...)}
		}
	default:
		checks = fc.value(target, fl.Type)
	}
	if len(checks) == 0 {
		return nil
	}
	return []jen.Code{jen.Block(append([]jen.Code{decl}, checks...)...)}
}

// propertyCount checks minProperties/maxProperties: it counts the present
// fields and the extra members.
func (c vc) propertyCount(t *ir.Type) []jen.Code {
	cs := t.ConstraintsValue()
	if cs.MinProperties == nil && cs.MaxProperties == nil {
		return nil
	}
	x := jen.Id("x")
	// n := 0; if x.A != nil { n++ }; ...
	count := []jen.Code{jen.Id("n").Op(":=").Lit(0)}
	fixed := 0
	for _, fl := range t.Fields {
		if cond := c.g.presentExpr(x, t, fl); cond != nil {
			count = append(count, jen.If(cond).Block(jen.Id("n").Op("++")))
		} else {
			fixed++
		}
	}
	if fixed > 0 {
		count = append(count, jen.Id("n").Op("+=").Lit(fixed))
	}
	if t.Extra {
		count = append(count, jen.Id("n").Op("+=").Len(jen.Id("x").Dot(t.ExtraGoName)))
	}
	count = append(count, c.countChecks(jen.Id("n"), cs.MinProperties, cs.MaxProperties, "Properties", "property")...)
	return []jen.Code{jen.Block(count...)}
}

// dependentRequired checks, for each property present, that the
// properties it requires are present too.
func (c vc) dependentRequired(t *ir.Type) []jen.Code {
	x := jen.Id("x")
	byName := map[string]*ir.Field{}
	for _, fl := range t.Fields {
		byName[fl.JSONName] = fl
	}
	var out []jen.Code
	for _, dep := range t.ConstraintsValue().DependentRequired {
		src := byName[dep.Property]
		if src == nil {
			continue
		}
		cond := c.g.presentExpr(x, t, src)
		var inner []jen.Code
		for _, req := range dep.Requires {
			rf := byName[req]
			if rf == nil {
				continue
			}
			rc := c.g.presentExpr(x, t, rf)
			if rc == nil {
				continue
			}
			rcv, decl := c.child("c", jen.Dot("Key").Call(strLit(req)))
			inner = append(inner, jen.If(jen.Op("!").Parens(rc)).Block(decl,
				rcv.add("dependentRequired", fmt.Sprintf("property %q is required when %q is present", req, dep.Property), req, nil, nil)))
		}
		if len(inner) == 0 {
			continue
		}
		if cond == nil {
			out = append(out, inner...)
		} else {
			out = append(out, jen.If(cond).Block(inner...))
		}
	}
	return out
}

// union is the body of a union's validate: the set branch is checked;
// oneOf also rejects values with several branches set.
func (c vc) union(t *ir.Type) []jen.Code {
	var out []jen.Code
	names := branchNames(t)
	if t.OneOf && len(t.Branches) > 1 {
		count := []jen.Code{jen.Id("n").Op(":=").Lit(0)}
		for _, n := range names {
			count = append(count, jen.If(jen.Id("x").Dot(n).Op("!=").Nil()).Block(jen.Id("n").Op("++")))
		}
		count = append(count, jen.If(jen.Id("n").Op(">").Lit(1)).Block(
			c.add("oneOf", "sets more than one branch of a oneOf", "exactly one branch", nil, nil)))
		out = append(out, jen.Block(count...))
	}
	// The branches a union decodes by trial had their checks run then,
	// when they were kept (wire.Errors.InTrial): a union decoded in a
	// trial is checked again by the checks of the branch holding it, and
	// with the unions Recall shares, a chain whose links match two
	// branches was checked 2^depth times.
	//
	//	if !e.InTrial() { (checks of the branches tried) }
	trialed := trialBranches(t)
	var tried []jen.Code
	all := out
	for i, b := range t.Branches {
		out = all
		if trialed[i] {
			out = tried
		}
		target := jen.Id("x").Dot(names[i])
		if isInterface(b) && len(names) > 1 {
			// A value of any kind is nil both when it holds null and when
			// another branch matched: checked only when no other is set.
			if cs := c.value(target, b); len(cs) > 0 {
				var unset *jen.Statement
				for j, n := range names {
					if j == i {
						continue
					}
					cond := jen.Id("x").Dot(n).Op("==").Nil()
					if unset == nil {
						unset = cond
					} else {
						unset = unset.Op("&&").Add(cond)
					}
				}
				out = append(out, jen.If(unset).Block(cs...))
			}
		} else if nilable(b) {
			// A slice or map branch is nil when another branch matched
			// (an array branch's minItems refused a string); [] and {}
			// decode to empty, not nil, and are checked.
			if cs := c.value(target, b); len(cs) > 0 {
				if len(names) > 1 {
					cs = []jen.Code{jen.If(jen.Add(target).Op("!=").Nil()).Block(cs...)}
				}
				out = append(out, cs...)
			}
		} else if cs := c.value(jen.Parens(jen.Op("*").Add(target)), b); len(cs) > 0 {
			out = append(out, jen.If(jen.Add(target).Op("!=").Nil()).Block(cs...))
		}
		if trialed[i] {
			tried = out
		} else {
			all = out
		}
	}
	out = all
	if len(tried) > 0 {
		out = append(out, jen.If(jen.Op("!").Add(c.errs).Dot("InTrial").Call()).Block(tried...))
	}
	return append(out, c.delegated(jen.Id("x"), t)...)
}

// trialBranches reports the branches of union t that its decoder tries
// on every value they accept (unionBody): those of a kind that several
// branches accept, but for an object union with a discriminator. Their
// checks run in the trial, and keep the branch only when they pass.
func trialBranches(t *ir.Type) map[int]bool {
	byKind := map[string][]int{}
	for i, b := range t.Branches {
		for _, k := range jsonKinds(b) {
			byKind[k] = append(byKind[k], i)
		}
	}
	tried := map[int]bool{}
	direct := map[int]bool{}
	for k, idx := range byKind {
		trial := len(idx) > 1 && (k != "Object" || t.Discriminator == nil)
		for _, i := range idx {
			if trial {
				tried[i] = true
			} else {
				direct[i] = true
			}
		}
	}
	for i := range direct {
		delete(tried, i)
	}
	return tried
}

// tuple is the body of a tuple's validate: each present position is
// checked, and minItems/maxItems count the present positions and Rest:
//
//	{
//		c := p.Index(1)
//		if x.Item1 != nil { ... }
//	}
//	{
//		n := 1 + len(x.Rest)
//		if x.Item1 != nil {
//			n++
//		}
//		if n < 2 { ... }
//	}
func (c vc) tuple(t *ir.Type) []jen.Code {
	var out []jen.Code
	for i, p := range t.Prefix {
		pc, decl := c.child("c", jen.Dot("Index").Call(jen.Lit(i)))
		item := jen.Id("x").Dot(fmt.Sprintf("Item%d", i))
		var cs []jen.Code
		switch tupleSlotOf(t, i) {
		case slotPointer:
			if checks := pc.value(deref(item), p); len(checks) > 0 {
				cs = []jen.Code{jen.If(jen.Add(item).Op("!=").Nil()).Block(checks...)}
			}
		case slotNilable:
			if checks := pc.value(item, p); len(checks) > 0 {
				cs = []jen.Code{jen.If(jen.Add(item).Op("!=").Nil()).Block(checks...)}
			}
		case slotNullable:
			// if v, ok := x.I.Get(); ok { ... }
			if checks := pc.value(jen.Id("v"), p); len(checks) > 0 {
				cs = []jen.Code{jen.If(jen.List(jen.Id("v"), jen.Id("ok")).Op(":=").Add(item).Dot("Get").Call(), jen.Id("ok")).Block(checks...)}
			}
		default:
			cs = pc.item(item, p)
		}
		if len(cs) > 0 {
			out = append(out, jen.Block(append([]jen.Code{decl}, cs...)...))
		}
	}
	out = append(out, c.tupleCount(t)...)
	if !t.RestForbidden && t.Elem != nil {
		i := "i"
		ic, decl := c.child("c", jen.Dot("Index").Call(jen.Lit(len(t.Prefix)).Op("+").Id(i)))
		if checks := ic.item(jen.Id("x").Dot("Rest").Index(jen.Id(i)), t.Elem); len(checks) > 0 {
			out = append(out, jen.For(jen.Id(i).Op(":=").Range().Id("x").Dot("Rest")).Block(append([]jen.Code{decl}, checks...)...))
		}
	}
	return append(out, c.delegated(jen.Id("x"), t)...)
}

// tupleCount checks minItems and maxItems of tuple x: the required
// positions, the present optional ones and Rest. A count fixed by the
// type (no optional position, no Rest) is checked here, at generation.
func (c vc) tupleCount(t *ir.Type) []jen.Code {
	cs := t.ConstraintsValue()
	if cs.MinItems == nil && cs.MaxItems == nil {
		return nil
	}
	req := tupleRequired(t)
	if req == len(t.Prefix) && t.RestForbidden {
		var out []jen.Code
		if m := cs.MinItems; m != nil && int64(req) < *m {
			out = append(out, c.add("minItems", "must have at least "+plural(*m, "item"), "at least "+plural(*m, "item"), nil, nil))
		}
		if m := cs.MaxItems; m != nil && int64(req) > *m {
			out = append(out, c.add("maxItems", "must have at most "+plural(*m, "item"), "at most "+plural(*m, "item"), nil, nil))
		}
		return out
	}
	// n := 1 + len(x.Rest); if x.Item1 != nil { n++ }
	var n jen.Code = jen.Lit(req)
	if !t.RestForbidden {
		n = jen.Len(jen.Id("x").Dot("Rest"))
		if req > 0 {
			n = jen.Lit(req).Op("+").Len(jen.Id("x").Dot("Rest"))
		}
	}
	// Bounds the shape already guarantees (at least the required
	// positions; at most the positions without Rest) need no check.
	minItems, maxItems := cs.MinItems, cs.MaxItems
	if minItems != nil && *minItems <= int64(req) {
		minItems = nil
	}
	if maxItems != nil && t.RestForbidden && *maxItems >= int64(len(t.Prefix)) {
		maxItems = nil
	}
	checks := c.countChecks(jen.Id("n"), minItems, maxItems, "Items", "item")
	if len(checks) == 0 {
		return nil
	}
	count := []jen.Code{jen.Id("n").Op(":=").Add(n)}
	for i := req; i < len(t.Prefix); i++ {
		count = append(count, jen.If(tuplePresent(t, i)).Block(jen.Id("n").Op("++")))
	}
	return []jen.Code{jen.Block(append(count, checks...)...)}
}
