package generator

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// dec names the decoder generated statements read from: a *wire.Decoder
// variable, or a wire.Decoder value (a union branch) passed by address.
type dec struct {
	name  string
	value bool
}

// call is the receiver for decoder method calls (d.String()).
func (v dec) call() *jen.Statement { return jen.Id(v.name) }

// arg is the *wire.Decoder argument for decodeWire calls.
func (v dec) arg() *jen.Statement {
	if v.value {
		return jen.Op("&").Id(v.name)
	}
	return jen.Id(v.name)
}

// emitter carries the per-function state of decoder emission: a counter
// for unique local variable names.
type emitter struct {
	g *gen
	n int
	// arrays is how many array decodings enclose the statements being
	// emitted (their item buffers).
	arrays int
	// optionals is the backing struct of the object being decoded, and
	// inOptionals its fields held there (emitOptionals).
	optionals   string
	inOptionals map[*ir.Field]bool
	// object is the object type whose decodeWire is being emitted.
	object *ir.Type
}

func (e *emitter) tmp(prefix string) string {
	e.n++
	return fmt.Sprintf("%s%d", prefix, e.n)
}

// deref is the addressable expression (*x) for a pointer variable.
func deref(x jen.Code) *jen.Statement { return jen.Parens(jen.Op("*").Add(x)) }

// decodeMethod reports whether named type t has a decodeWire method.
// Scalars (enums above all: a large catalogue has thousands) decode in one
// statement, x.F = State(d.String()), written where they are read; a
// method each would only add functions for the compiler to build.
func decodeMethod(t *ir.Type) bool {
	return hasMethods(t) && (!isScalar(t) || isTime(t))
}

// decodeCall is the statement reading a value of named type t into
// target, an addressable value or (ptr) a pointer to one:
// target.decodeWire(d), or for a tabled object, which has no decodeWire
// method, shape.Decode(&tableT, d, unsafe.Pointer(&target)).
func (g *gen) decodeCall(d, target jen.Code, t *ir.Type, ptr bool) jen.Code {
	if c := g.declared(t); composite(c) && g.tabled(c) {
		return jen.Qual(g.shapePkg(), "Decode").Call(jen.Op("&").Id(tableName(c)), d, unsafePointer(target, ptr))
	}
	return jen.Add(target).Dot("decodeWire").Call(d)
}

// unsafePointer is unsafe.Pointer(&v), or unsafe.Pointer(v) for a pointer.
func unsafePointer(v jen.Code, ptr bool) jen.Code {
	if !ptr {
		v = jen.Op("&").Add(v)
	}
	return jen.Qual("unsafe", "Pointer").Call(v)
}

// emitDecoders writes decode_gen.go: a decodeWire method per named type
// decoded by code, and the table (with its allocators) of each tabled one.
func emitDecoders(g *gen, s *srcFile) error {
	for _, t := range g.fam.Types {
		if !decodeMethod(t) || g.alias[t] != nil {
			continue
		}
		if g.tabled(t) {
			// No decodeWire method: callers call the interpreter
			// (decodeCall), one function fewer per object. The table is
			// data, written as text.
			if t.Kind == ir.KindUnion {
				g.emitUnionTable(s, t)
				continue
			}
			g.emitOptionals(s, t)
			g.emitTable(s, t)
			continue
		}
		e := &emitter{g: g}
		var body []jen.Code
		x := jen.Id("x")
		switch t.Kind {
		case ir.KindObject:
			body = e.objectBody(t)
		case ir.KindUnion:
			body = append([]jen.Code{resetValue(t)}, e.unionBody(t)...)
		case ir.KindTuple:
			body = append([]jen.Code{resetValue(t)}, e.tupleBody(t)...)
		default:
			body = e.inline(dec{name: "d"}, deref(x), t)
		}
		if t.Kind == ir.KindObject {
			g.emitOptionals(s, t)
		}
		f := s.jen()
		f.Add(commentf("decodeWire reads a %s from d, recording type errors in d.", t.GoName))
		f.Func().Params(jen.Id("x").Op("*").Id(t.GoName)).Id("decodeWire").Params(jen.Id("d").Op("*").Qual(g.wirePkg, "Decoder")).Block(body...)
		f.Line()
		if t.Kind == ir.KindObject && t.AdditionalFalse {
			var names []jen.Code
			for _, fl := range t.Fields {
				names = append(names, strLit(fl.JSONName))
			}
			f.Add(commentf("fieldNames%s are the properties %s accepts, for suggestions.", t.GoName, t.GoName))
			f.Var().Id("fieldNames" + t.GoName).Op("=").Index().String().Values(names...)
			f.Line()
		}
	}
	return nil
}

// allowedItems is the message of an item past a tuple's positions when
// no more are allowed: "at most 2 items are allowed".
func allowedItems(n int) string {
	if n == 1 {
		return "at most 1 item is allowed"
	}
	return fmt.Sprintf("at most %d items are allowed", n)
}

// resetValue is *x = T{}: a union or tuple holds one JSON value, so
// decoding into one that holds a value replaces it rather than leaving the
// branches or items the new value lacks (encoding/json decodes a value
// into a used union or tuple, and a parent decodes a by-value field in
// place).
func resetValue(t *ir.Type) jen.Code {
	return jen.Op("*").Id("x").Op("=").Id(t.GoName).Values()
}

// optionalScalars are the fields of object t decoded into its backing
// struct (emitOptionals): the *T fields of scalar types, when there are at
// least two of them (one gains nothing over new(T)). Duplicate keys reuse
// the field's slot, so the last value wins as before.
func (g *gen) optionalScalars(t *ir.Type) []*ir.Field {
	var fields []*ir.Field
	for _, fl := range t.Fields {
		if g.presence(fl) == ir.PresencePointer && isScalar(fl.Type) {
			fields = append(fields, fl)
		}
	}
	if len(fields) < 2 {
		return nil
	}
	return fields
}

// isScalar reports whether t is held by value in one Go word or a few
// (booleans, numbers, strings, enums, scalar consts, dates).
func isScalar(t *ir.Type) bool {
	if t == nil || isInterface(t) {
		return false
	}
	switch t.Kind {
	case ir.KindBool, ir.KindInteger, ir.KindNumber, ir.KindString, ir.KindEnum, ir.KindConst:
		return true
	}
	return false
}

// optionalsName is the backing struct of object t's optional scalars.
func optionalsName(t *ir.Type) string { return "optional" + t.GoName }

// emitOptionals declares the struct an object's decoder allocates, once
// and only when one of them is present, to hold the values its scalar
// pointer fields (optional, or required and nullable) point to
// (optionalListIssuesParams in golden/github/decode_gen.go), as code.
func (g *gen) emitOptionals(s *srcFile, t *ir.Type) {
	fields := g.optionalScalars(t)
	if len(fields) == 0 {
		return
	}
	f := s.jen()
	var defs []jen.Code
	for _, fl := range fields {
		defs = append(defs, jen.Id(fl.GoName).Add(g.goType(fl.Type)))
	}
	name := optionalsName(t)
	f.Add(commentf("%s holds the scalars a decoded %s points to:", name, t.GoName))
	f.Add(comment("one allocation, made when the first is present, for all of them."))
	f.Type().Id(name).Struct(defs...)
	f.Line()
}

// value emits statements reading the next value of type t from d into
// target (an addressable expression of t's Go type). Nullability is the
// caller's business unless nullOK is set, in which case a null leaves
// target untouched.
func (e *emitter) value(d dec, target jen.Code, t *ir.Type, nullOK bool) []jen.Code {
	stmts := e.nonNull(d, target, t)
	if nullOK && t != nil && t.Nullable && t.Kind != ir.KindAny {
		// if !d.Null() { ... }
		return []jen.Code{jen.If(jen.Op("!").Add(d.call()).Dot("Null").Call()).Block(stmts...)}
	}
	return stmts
}

func (e *emitter) nonNull(d dec, target jen.Code, t *ir.Type) []jen.Code {
	if decodeMethod(t) {
		// x.F.decodeWire(d)
		return []jen.Code{e.g.decodeCall(d.arg(), target, t, false)}
	}
	return e.inline(d, target, t)
}

// inline emits the reading of a value of t without calling t's own
// decodeWire (the body of that method, or an unnamed type).
func (e *emitter) inline(d dec, target jen.Code, t *ir.Type) []jen.Code {
	assign := func(call string) []jen.Code {
		rhs := d.call().Dot(call).Call()
		if t != nil && t.GoName != "" {
			rhs = jen.Id(t.GoName).Call(rhs)
		}
		return []jen.Code{jen.Add(target).Op("=").Add(rhs)}
	}
	if t == nil {
		return []jen.Code{jen.Add(target).Op("=").Add(d.call()).Dot("Any").Call()}
	}
	switch t.Kind {
	case ir.KindAny:
		return []jen.Code{jen.Add(target).Op("=").Add(d.call()).Dot("Any").Call()}
	case ir.KindNever:
		return []jen.Code{jen.Add(d.call()).Dot("Reject").Call(jen.Lit("false"), jen.Lit("no value is allowed here"))}
	case ir.KindBool:
		return assign("Bool")
	case ir.KindInteger:
		return assign("Int")
	case ir.KindNumber:
		return assign("Float")
	case ir.KindString, ir.KindEnum:
		if isTime(t) {
			return e.decodeTime(d, target, t)
		}
		return assign("String")
	case ir.KindConst:
		switch constKind(t.Const) {
		case "string":
			return assign("String")
		case "bool":
			return assign("Bool")
		case "integer":
			return assign("Int")
		case "number":
			return assign("Float")
		}
		return assign("Any")
	case ir.KindArray:
		return e.array(d, target, t)
	case ir.KindMap:
		// if d.Object() {
		//	x = map[string]T{}
		//	for d.More() {
		//		k1 := string(d.Key())
		//		var v2 T
		//		...
		//		x[k1] = v2
		//	}
		// }
		k, v := e.tmp("k"), e.tmp("v")
		return []jen.Code{jen.If(d.call().Dot("Object").Call()).Block(
			jen.Add(target).Op("=").Add(e.g.goType(t)).Values(),
			jen.For(d.call().Dot("More").Call()).Block(
				append(append([]jen.Code{jen.Id(k).Op(":=").String().Call(d.call().Dot("Key").Call())},
					e.item(d, v, t.Elem)...),
					jen.Add(target).Index(jen.Id(k)).Op("=").Id(v))...,
			),
		)}
	}
	// Objects, unions and tuples are always named (checkFamily).
	return []jen.Code{e.g.decodeCall(d.arg(), target, t, false)}
}

// arrayBufBytes bounds the stack buffer an array's items are collected in.
const arrayBufBytes = 256

// array emits the reading of an array into target. The items are collected
// in a stack buffer (up to 8 of them, fewer when they are large) and copied
// once into a slice of the right length, never nil:
//
//	if d.Array() {
//		var buf [8]T
//		items := buf[:0]
//		for d.More() {
//			var v1 T
//			...
//			items = append(items, v1)
//		}
//		x = append(make([]T, 0, len(items)), items...)
//	}
//
// Items too large for two of them to fit are appended to target directly.
func (e *emitter) array(d dec, target jen.Code, t *ir.Type) []jen.Code {
	v := e.tmp("v")
	n := min(8, arrayBufBytes/(8*e.g.words(t.Elem, 0)))
	if n < 2 {
		// x = []T{}
		// for d.More() { ...; x = append(x, v1) }
		return []jen.Code{jen.If(d.call().Dot("Array").Call()).Block(
			jen.Add(target).Op("=").Add(e.g.goType(t)).Values(),
			jen.For(d.call().Dot("More").Call()).Block(
				append(e.item(d, v, t.Elem),
					jen.Add(target).Op("=").Append(target, jen.Id(v)))...,
			),
		)}
	}
	// Nested arrays number their buffers so as not to shadow the outer one.
	buf, items := "buf", "items"
	if e.arrays > 0 {
		buf, items = fmt.Sprintf("buf%d", e.arrays+1), fmt.Sprintf("items%d", e.arrays+1)
	}
	e.arrays++
	read := e.item(d, v, t.Elem)
	e.arrays--
	elem := e.g.elemType(t.Elem)
	return []jen.Code{jen.If(d.call().Dot("Array").Call()).Block(
		jen.Var().Id(buf).Index(jen.Lit(n)).Add(elem),
		jen.Id(items).Op(":=").Id(buf).Index(jen.Empty(), jen.Lit(0)),
		jen.For(d.call().Dot("More").Call()).Block(
			append(read, jen.Id(items).Op("=").Append(jen.Id(items), jen.Id(v)))...,
		),
		jen.Add(target).Op("=").Append(jen.Make(jen.Index().Add(elem), jen.Lit(0), jen.Len(jen.Id(items))), jen.Id(items).Op("...")),
	)}
}

// words estimates the size in machine words of a value of t as an array
// item (nullable items are pointers), for sizing stack buffers.
func (g *gen) words(t *ir.Type, depth int) int {
	if t == nil || isInterface(t) {
		return 2
	}
	if t.Nullable && !nilable(t) || depth > 8 {
		return 1
	}
	switch t.Kind {
	case ir.KindString, ir.KindEnum:
		if isTime(t) {
			return 3
		}
		return 2
	case ir.KindConst:
		if constKind(t.Const) == "string" {
			return 2
		}
		return 1
	case ir.KindArray:
		return 3
	case ir.KindMap:
		return 1
	case ir.KindObject:
		n := 0
		for _, fl := range t.Fields {
			switch g.presence(fl) {
			case ir.PresencePointer:
				if nilable(fl.Type) {
					n += g.words(fl.Type, depth+1)
				} else {
					n++
				}
			case ir.PresenceNullable:
				if g.indirect[fl] {
					n += 2
				} else {
					n += 1 + g.words(fl.Type, depth+1)
				}
			default:
				n += g.words(fl.Type, depth+1)
			}
		}
		if t.Extra {
			n++
		}
		return max(n, 1)
	case ir.KindUnion:
		n := 0
		for _, b := range t.Branches {
			if nilable(b) {
				n += g.words(b, depth+1)
			} else {
				n++
			}
		}
		return max(n, 1)
	case ir.KindTuple:
		n := 1 // N
		for _, p := range t.Prefix {
			n += g.words(p, depth+1)
		}
		if !t.RestForbidden {
			n += 3
		}
		return n
	}
	return 1
}

// item emits `var v T` and the statements reading one array item or map
// value into it; nullable items are pointers, nil for null.
func (e *emitter) item(d dec, v string, t *ir.Type) []jen.Code {
	if t != nil && t.Nullable && !nilable(t) {
		// var v *T
		// if !d.Null() {
		//	v = new(T)
		//	...
		// }
		read := jen.If(jen.Op("!").Add(d.call()).Dot("Null").Call()).Block(
			append([]jen.Code{jen.Id(v).Op("=").New(e.g.goType(t))}, e.nonNull(d, deref(jen.Id(v)), t)...)...,
		)
		if null := e.nullChecks(d, t); len(null) > 0 {
			read.Else().Block(null...)
		}
		return []jen.Code{jen.Var().Id(v).Op("*").Add(e.g.goType(t)), read}
	}
	return append([]jen.Code{jen.Var().Id(v).Add(e.g.goType(t))}, e.value(d, jen.Id(v), t, true)...)
}

// nullChecks are the checks of a null just read for a nullable type t
// whose Go value is nil for it: the keywords the embedded validator
// checks (not, oneOf of required lists, ...) may refuse null too.
//
//	d.Append(schema0.Validate(nil, d.Path()))
func (e *emitter) nullChecks(d dec, t *ir.Type) []jen.Code {
	if t.Delegated == nil || !t.DelegatedNull || t.Kind == ir.KindAny {
		return nil
	}
	return []jen.Code{d.call().Dot("Append").Call(jen.Id(e.g.delegatedSchema(t)).Dot("Validate").Call(jen.Nil(), d.call().Dot("Path").Call()))}
}

// field emits the statements reading field fl of x per its Presence.
func (e *emitter) field(d dec, fl *ir.Field) []jen.Code {
	target := jen.Id("x").Dot(fl.GoName)
	t := fl.Type
	switch e.g.presence(fl) {
	case ir.PresencePointer:
		if nilable(t) {
			if isInterface(t) {
				flag := ""
				if e.g.nullFlag(e.object, fl) {
					flag = nullFlagName(fl)
				}
				return e.nullField(d, target, t, flag)
			}
			return e.value(d, target, t, true)
		}
		// x.F = new(T); (*x.F).decodeWire(d)
		alloc := append([]jen.Code{jen.Add(target).Op("=").New(e.g.goType(t))}, e.nonNull(d, deref(target), t)...)
		if e.inOptionals[fl] {
			// if opt == nil { opt = new(optionalX) }
			// opt.F.decodeWire(d)
			// x.F = &opt.F
			slot := jen.Id("opt").Dot(fl.GoName)
			alloc = append([]jen.Code{jen.If(jen.Id("opt").Op("==").Nil()).Block(
				jen.Id("opt").Op("=").New(jen.Id(e.optionals)),
			)}, e.nonNull(d, slot, t)...)
			alloc = append(alloc, jen.Add(target).Op("=").Op("&").Add(slot))
		}
		if t.Nullable {
			// if d.Null() { x.F = nil } else { ... }
			return []jen.Code{jen.If(d.call().Dot("Null").Call()).Block(
				append([]jen.Code{jen.Add(target).Op("=").Nil()}, e.nullChecks(d, t)...)...,
			).Else().Block(alloc...)}
		}
		return alloc
	case ir.PresenceNullable:
		// if d.Null() {
		//	x.F = runtime.Null[T]()
		// } else {
		//	var v1 T
		//	...
		//	x.F = runtime.Value(v1)
		// }
		v := e.tmp("v")
		decl, read := jen.Var().Id(v).Add(e.g.goType(t)), e.nonNull(d, jen.Id(v), t)
		if e.g.indirect[fl] && decodeMethod(t) {
			decl, read = jen.Id(v).Op(":=").New(e.g.goType(t)), []jen.Code{e.g.decodeCall(d.arg(), jen.Id(v), t, true)}
		}
		return []jen.Code{jen.If(d.call().Dot("Null").Call()).Block(
			append([]jen.Code{jen.Add(target).Op("=").Qual(e.g.runtimePkg, "Null").Types(e.g.nullableElem(fl)).Call()}, e.nullChecks(d, t)...)...,
		).Else().Block(
			append(append([]jen.Code{decl}, read...),
				jen.Add(target).Op("=").Qual(e.g.runtimePkg, "Value").Call(jen.Id(v)))...,
		)}
	}
	return e.value(d, target, t, false)
}

// nullField reads an optional interface-typed field (any, or a const of
// an array or object). Its Go value is nil both when it is absent and for
// a present null, and validate checks only present (non-nil) fields, so a
// null is checked here, against the field's schema, when that schema can
// reject it:
//
//	if d.Peek() == wire.Null {
//		b := d.Branch()
//		pp := wire.At(b.Path())
//		var pe wire.Errors
//		var nv any
//		(checks of nv at &pp into pe)
//		d.Append(pe.List())
//		d.Skip()
//	} else {
//		x.F = d.Any()
//	}
//
// With a null flag (nullFlag), a null sets it and a value clears it.
func (e *emitter) nullField(d dec, target jen.Code, t *ir.Type, flag string) []jen.Code {
	read := e.value(d, target, t, true)
	checks := e.g.validateItem(jen.Id("nv"), t, "pp", "pe")
	var setFlag []jen.Code
	if flag != "" {
		setFlag = []jen.Code{jen.Add(target).Op("=").Nil(), jen.Id("x").Dot(flag).Op("=").True()}
		read = append([]jen.Code{jen.Id("x").Dot(flag).Op("=").False()}, read...)
	}
	if len(checks) == 0 {
		if flag == "" {
			return read
		}
		// if d.Null() { x.F = nil; x.nullF = true } else { x.nullF = false; x.F = d.Any() }
		return []jen.Code{jen.If(d.call().Dot("Null").Call()).Block(setFlag...).Else().Block(read...)}
	}
	b := e.tmp("b")
	null := append([]jen.Code{
		jen.Id(b).Op(":=").Add(d.call()).Dot("Branch").Call(),
		jen.Id("pp").Op(":=").Qual(e.g.wirePkg, "At").Call(jen.Id(b).Dot("Path").Call()),
		e.g.subErrors("pe", d.call().Dot("Checks").Call()),
		jen.Var().Id("nv").Any(),
	}, checks...)
	null = append(null, e.g.absorb(d.call(), "pe"), d.call().Dot("Skip").Call())
	null = append(null, setFlag...)
	return []jen.Code{jen.If(d.call().Dot("Peek").Call().Op("==").Qual(e.g.wirePkg, "Null")).Block(null...).Else().Block(read...)}
}

// maxSeenVars is the number of seen flags above which an object's decoder
// keeps them in one array.
const maxSeenVars = 64

// objectBody is the body of an object's decodeWire: a switch on each
// member's key, seen flags for required members, the optionals struct
// allocated on first use, unknown keys reported with the known names, and
// missing required members reported after the loop.
// golden/github/decode_gen.go shows the output.
func (e *emitter) objectBody(t *ir.Type) []jen.Code {
	e.object = t
	d := dec{name: "d"}
	body := []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Object").Call()).Block(jen.Return())}
	if fields := e.g.optionalScalars(t); len(fields) > 0 {
		// var opt *optionalX
		e.optionals, e.inOptionals = optionalsName(t), map[*ir.Field]bool{}
		for _, fl := range fields {
			e.inOptionals[fl] = true
		}
		body = append(body, jen.Var().Id("opt").Op("*").Id(e.optionals))
	}
	// One seen flag per required or defaulted member: a bool each, or
	// past maxSeenVars one array of them (thousands of variables in one
	// function cost the compiler far more than the array costs at run time).
	flags := 0
	for _, fl := range t.Fields {
		if fl.Required || fl.Default != nil {
			flags++
		}
	}
	seen := make([]*jen.Statement, len(t.Fields))
	if flags > maxSeenVars {
		body = append(body, jen.Var().Id("seen").Index(jen.Lit(flags)).Bool())
	}
	var cases []jen.Code
	k := 0
	for i, fl := range t.Fields {
		var stmts []jen.Code
		if fl.Required || fl.Default != nil {
			if flags > maxSeenVars {
				seen[i] = jen.Id("seen").Index(jen.Lit(k))
				k++
			} else {
				name := e.tmp("seen")
				seen[i] = jen.Id(name)
				body = append(body, jen.Var().Id(name).Bool())
			}
			stmts = append(stmts, jen.Add(seen[i]).Op("=").True())
		}
		stmts = append(stmts, e.field(d, fl)...)
		cases = append(cases, jen.Case(strLit(fl.JSONName)).Block(stmts...))
	}
	cases = append(cases, jen.Default().Block(e.additional(d, t)...))
	body = append(body, jen.For(jen.Id("d").Dot("More").Call()).Block(
		jen.Switch(jen.String().Call(jen.Id("d").Dot("Key").Call())).Block(cases...),
	))
	for i, fl := range t.Fields {
		switch {
		case fl.Required:
			body = append(body, jen.If(jen.Op("!").Add(seen[i])).Block(
				jen.Id("d").Dot("Missing").Call(strLit(fl.JSONName)),
			))
		case fl.Default != nil:
			body = append(body, jen.If(jen.Op("!").Add(seen[i])).Block(e.defaultValue(fl)...))
		}
	}
	return body
}

// additional emits the handling of a member that is not a declared
// property: pattern properties, typed additional properties, an unknown
// property error or a skip.
func (e *emitter) additional(d dec, t *ir.Type) []jen.Code {
	var stmts []jen.Code
	var rest []jen.Code
	switch {
	case t.Extra:
		// if x.Extra == nil { x.Extra = map[string]T{} }
		// var v T
		// ...
		// x.Extra[k] = v
		k, v := e.tmp("k"), e.tmp("v")
		extra := jen.Id("x").Dot(t.ExtraGoName)
		rest = append(rest,
			jen.Id(k).Op(":=").String().Call(jen.Id("d").Dot("Key").Call()),
			jen.If(jen.Add(extra).Op("==").Nil()).Block(jen.Add(extra).Op("=").Map(jen.String()).Add(e.g.elemType(t.Elem)).Values()),
		)
		rest = append(rest, e.item(d, v, t.Elem)...)
		rest = append(rest, jen.Add(extra).Index(jen.Id(k)).Op("=").Id(v))
	case t.AdditionalFalse:
		rest = append(rest, jen.Id("d").Dot("Unknown").Call(jen.Id("fieldNames"+t.GoName)))
	default:
		rest = append(rest, jen.Id("d").Dot("Skip").Call())
	}
	if len(t.PatternProperties) == 0 {
		return rest
	}
	// matched := false
	// if pattern1.MatchString(string(d.Key())) {
	//	matched = true
	//	b := d.Branch()
	//	var v T
	//	...
	//	d.Adopt(&b)
	//	(validate v at b.Path(), appending to d)
	// }
	// if matched { d.Skip() } else { ...rest }
	stmts = append(stmts, jen.Id("matched").Op(":=").False())
	for _, pp := range t.PatternProperties {
		re := e.g.patternVar(pp.Pattern)
		b, v := e.tmp("b"), e.tmp("v")
		bd := dec{name: b, value: true}
		inner := []jen.Code{
			jen.Id("matched").Op("=").True(),
			jen.Id(b).Op(":=").Id("d").Dot("Branch").Call(),
		}
		inner = append(inner, e.item(bd, v, pp.Type)...)
		inner = append(inner, jen.Id("d").Dot("Adopt").Call(jen.Op("&").Id(b)))
		if checks := e.g.validateItem(jen.Id(v), pp.Type, "pp", "pe"); len(checks) > 0 {
			inner = append(inner, jen.If(jen.Id(b).Dot("Clean").Call()).Block(append([]jen.Code{
				jen.Id("pp").Op(":=").Qual(e.g.wirePkg, "At").Call(jen.Id(b).Dot("Path").Call()),
				e.g.subErrors("pe", jen.Id("d").Dot("Checks").Call()),
			}, append(checks,
				e.g.absorb(jen.Id("d"), "pe"))...)...))
		} else {
			inner = append(inner, jen.Id("_").Op("=").Id(v))
		}
		if e.g.budgeted(pp.Pattern) {
			// m, ok := d.MatchKey(pattern1)
			// if !ok { matched = true } (reported: fail closed)
			// if m { ... }
			stmts = append(stmts, jen.Block(
				jen.List(jen.Id("m"), jen.Id("ok")).Op(":=").Id("d").Dot("MatchKey").Call(jen.Id(re)),
				jen.If(jen.Op("!").Id("ok")).Block(jen.Id("matched").Op("=").True()),
				jen.If(jen.Id("m")).Block(inner...),
			))
			continue
		}
		stmts = append(stmts, jen.If(jen.Id(re).Dot("MatchString").Call(jen.String().Call(jen.Id("d").Dot("Key").Call()))).Block(inner...))
	}
	stmts = append(stmts, jen.If(jen.Id("matched")).Block(jen.Id("d").Dot("Skip").Call()).Else().Block(rest...))
	return stmts
}

// defaultValue emits the assignment of fl's default when it is absent.
func (e *emitter) defaultValue(fl *ir.Field) []jen.Code {
	target := jen.Id("x").Dot(fl.GoName)
	t := fl.Type
	if isNullLiteral(fl.Default) && e.g.presence(fl) == ir.PresenceNullable {
		// "default": null on a nullable property is null, not the zero
		// value of its type: x.F = runtime.Null[T]().
		return []jen.Code{jen.Add(target).Op("=").Qual(e.g.runtimePkg, "Null").Types(e.g.nullableElem(fl)).Call()}
	}
	lit := e.g.literal(t, fl.Default)
	wrap := func(v jen.Code) jen.Code {
		switch e.g.presence(fl) {
		case ir.PresenceNullable:
			if e.g.indirect[fl] {
				return jen.Qual(e.g.runtimePkg, "Value").Types(e.g.nullableElem(fl)).Call(jen.Op("&").Add(v))
			}
			return jen.Qual(e.g.runtimePkg, "Value").Types(e.g.goType(t)).Call(v)
		case ir.PresencePointer:
			if !nilable(t) {
				// Pointer fields with defaults only arise for required
				// nullable ones, which are never absent; keep it simple.
				return jen.Nil()
			}
		}
		return v
	}
	if lit != nil {
		return []jen.Code{jen.Add(target).Op("=").Add(wrap(lit))}
	}
	// {
	//	dd := wire.NewDecoder([]byte(`[1,2]`))
	//	var v T
	//	...
	//	x.F = v
	// }
	v := e.tmp("v")
	stmts := []jen.Code{
		jen.Id("dd").Op(":=").Qual(e.g.wirePkg, "NewDecoder").Call(jen.Index().Byte().Call(strLit(string(fl.Default)))),
		jen.Var().Id(v).Add(e.g.goType(t)),
	}
	stmts = append(stmts, e.value(dec{name: "dd"}, jen.Id(v), t, true)...)
	stmts = append(stmts, jen.Add(target).Op("=").Add(wrap(jen.Id(v))))
	return []jen.Code{jen.Block(stmts...)}
}

// isNullLiteral reports whether raw is the JSON literal null.
func isNullLiteral(raw json.RawMessage) bool { return strings.TrimSpace(string(raw)) == "null" }

// literal is the Go constant expression of a scalar JSON literal as a
// value of t, or nil when t is not a scalar type.
func (g *gen) literal(t *ir.Type, raw json.RawMessage) jen.Code {
	if t == nil {
		return nil
	}
	text := strings.TrimSpace(string(raw))
	if isTime(t) {
		return timeLiteral(t, raw)
	}
	var v jen.Code
	switch t.Kind {
	case ir.KindBool:
		if text != "true" && text != "false" {
			return nil
		}
		v = jen.Lit(text == "true")
	case ir.KindInteger, ir.KindNumber:
		n := numLit(text)
		if n == nil {
			return nil
		}
		v = n
	case ir.KindString, ir.KindEnum:
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return nil
		}
		if t.Kind == ir.KindEnum && t.GoName != "" {
			for _, ev := range t.Enum {
				if string(ev.JSON) == text && ev.GoName != "" {
					return jen.Id(ev.GoName)
				}
			}
		}
		v = strLit(s)
	default:
		return nil
	}
	if t.GoName != "" {
		return jen.Id(t.GoName).Call(v)
	}
	return v
}

// jsonKinds are the wire kinds a value of t can start with.
func jsonKinds(t *ir.Type) []string {
	return jsonKindsMemo(t, map[*ir.Type][]string{})
}

// jsonKindsMemo is jsonKinds over a type graph: a union shared by several
// branches is visited once (no exponential walk), and one reached again
// inside itself adds no kinds (no endless recursion).
func jsonKindsMemo(t *ir.Type, memo map[*ir.Type][]string) []string {
	if ks, ok := memo[t]; ok {
		return ks
	}
	if t != nil && t.Kind == ir.KindUnion {
		memo[t] = nil
		ks := jsonKindsOf(t, memo)
		memo[t] = ks
		return ks
	}
	return jsonKindsOf(t, memo)
}

func jsonKindsOf(t *ir.Type, memo map[*ir.Type][]string) []string {
	if t == nil {
		return []string{"Null", "Bool", "Number", "String", "Array", "Object"}
	}
	var ks []string
	switch t.Kind {
	case ir.KindAny:
		return []string{"Null", "Bool", "Number", "String", "Array", "Object"}
	case ir.KindBool:
		ks = []string{"Bool"}
	case ir.KindInteger, ir.KindNumber:
		ks = []string{"Number"}
	case ir.KindString, ir.KindEnum:
		ks = []string{"String"}
	case ir.KindConst:
		switch constKind(t.Const) {
		case "string":
			ks = []string{"String"}
		case "bool":
			ks = []string{"Bool"}
		case "integer", "number":
			ks = []string{"Number"}
		default:
			s := strings.TrimSpace(string(t.Const))
			switch {
			case strings.HasPrefix(s, "["):
				ks = []string{"Array"}
			case strings.HasPrefix(s, "{"):
				ks = []string{"Object"}
			default:
				ks = []string{"Null"}
			}
		}
	case ir.KindArray, ir.KindTuple:
		ks = []string{"Array"}
	case ir.KindObject, ir.KindMap:
		ks = []string{"Object"}
	case ir.KindUnion:
		seen := map[string]bool{}
		for _, b := range t.Branches {
			for _, k := range jsonKindsMemo(b, memo) {
				if !seen[k] {
					seen[k] = true
					ks = append(ks, k)
				}
			}
		}
	}
	return ks
}

var kindOrder = []string{"Null", "Bool", "Number", "String", "Array", "Object"}

// kindWords are the JSON Schema names of the wire kinds, for messages.
var kindWords = map[string]string{"Null": "null", "Bool": "boolean", "Number": "number", "String": "string", "Array": "array", "Object": "object"}

// unionBody is the body of a union's decodeWire: dispatch on the JSON
// kind; a kind with one candidate branch decodes it directly, a
// discriminated object decodes the branch its tag names, and a kind with
// several candidates tries each on a branch decoder, keeping every one
// that decodes and validates cleanly (anyOf) or the first (oneOf: and
// checking no other does).
//
//	switch d.Peek() {
//	case wire.String:
//		x.String = new(string)
//		(*x.String) = d.String()
//	case wire.Object:
//		matched := 0
//		{ b1 := d.Trial(); var v2 A; v2.decodeWire(&b1); ... }
//		raw := d.RawBytes()
//		if matched == 0 { d.NoneMatched("oneOf", ...) }
//	default:
//		d.Mismatch("string or object")
//	}
func (e *emitter) unionBody(t *ir.Type) []jen.Code {
	names := branchNames(t)
	byKind := map[string][]int{}
	for i, b := range t.Branches {
		for _, k := range jsonKinds(b) {
			byKind[k] = append(byKind[k], i)
		}
	}
	keyword := "anyOf"
	if t.OneOf {
		keyword = "oneOf"
	}
	var cases []jen.Code
	var accepted []string
	trials := false
	for _, k := range kindOrder {
		idx := byKind[k]
		if len(idx) == 0 {
			continue
		}
		accepted = append(accepted, kindWords[k])
		var stmts []jen.Code
		switch {
		case len(idx) == 1:
			stmts = e.unionDirect(t, names, idx[0])
		case k == "Object" && t.Discriminator != nil:
			stmts = e.unionTagged(t, names, idx)
		default:
			stmts = e.unionTrial(t, names, idx, keyword)
			trials = true
		}
		cases = append(cases, jen.Case(jen.Qual(e.g.wirePkg, k)).Block(stmts...))
	}
	cases = append(cases, jen.Default().Block(
		jen.Id("d").Dot("Mismatch").Call(strLit(strings.Join(accepted, " or "))),
	))
	body := jen.Switch(jen.Id("d").Dot("Peek").Call()).Block(cases...)
	if !trials {
		return []jen.Code{body}
	}
	// A union that tries its branches is decoded once per value in the
	// trials of a call (wire.Recall):
	//
	//	mark, done := wire.Recall(d, x)
	//	if done {
	//		return
	//	}
	//	switch d.Peek() { ... }
	//	wire.Remember(d, mark, x)
	return []jen.Code{
		jen.List(jen.Id("mark"), jen.Id("done")).Op(":=").Qual(e.g.wirePkg, "Recall").Call(jen.Id("d"), jen.Id("x")),
		jen.If(jen.Id("done")).Block(jen.Return()),
		body,
		jen.Qual(e.g.wirePkg, "Remember").Call(jen.Id("d"), jen.Id("mark"), jen.Id("x")),
	}
}

// unionDirect decodes branch i straight into its field.
func (e *emitter) unionDirect(t *ir.Type, names []string, i int) []jen.Code {
	b := t.Branches[i]
	target := jen.Id("x").Dot(names[i])
	d := dec{name: "d"}
	if nilable(b) {
		return e.value(d, target, b, false)
	}
	return append([]jen.Code{jen.Add(target).Op("=").New(e.g.goType(b))}, e.nonNull(d, deref(target), b)...)
}

// unionTagged chooses among object branches by the discriminator:
//
//	tag, _ := d.PeekMember("type")
//	switch string(tag) {
//	case "issue":
//		x.Issue = new(Issue)
//		x.Issue.decodeWire(d)
//	default:
//		d.FailAt("type", "enum", ...)
//		d.Skip()
//	}
func (e *emitter) unionTagged(t *ir.Type, names []string, idx []int) []jen.Code {
	disc := t.Discriminator
	var cases []jen.Code
	var values []string
	inKind := map[int]bool{}
	for _, i := range idx {
		inKind[i] = true
	}
	// An empty tag's branch is decoded in the case of an empty or missing
	// tag, when the tag is there (a case of its own would repeat "").
	var empty []jen.Code
	for _, dv := range disc.Values {
		if dv.Branch < 0 || dv.Branch >= len(t.Branches) || !inKind[dv.Branch] {
			continue
		}
		values = append(values, dv.Value)
		if dv.Value == "" {
			if empty == nil {
				empty = e.unionDirect(t, names, dv.Branch)
			}
			continue
		}
		cases = append(cases, jen.Case(strLit(dv.Value)).Block(e.unionDirect(t, names, dv.Branch)...))
	}
	quoted := make([]string, len(values))
	valueLits := make([]jen.Code, len(values))
	for i, v := range values {
		quoted[i] = fmt.Sprintf("%q", v)
		valueLits[i] = strLit(v)
	}
	expected := strings.Join(quoted, ", ")
	tags := e.g.pkgVar("tags", strings.Join(values, "\x00"), jen.Index().String().Values(valueLits...))
	missing := jen.Id("d").Dot("FailAt").Call(strLit(disc.Property), jen.Lit("required"),
		strLit(fmt.Sprintf("missing required property %q (one of %s)", disc.Property, expected)),
		strLit(expected), strLit(""), strLit(""))
	emptyCase := jen.Case(jen.Lit("")).Block(
		jen.If(jen.Op("!").Id("ok")).Block(missing).Else().Block(
			jen.Id("d").Dot("FailAt").Call(strLit(disc.Property), strLit("enum"),
				strLit(fmt.Sprintf("must be one of %s", expected)), strLit(expected), strLit(`""`), strLit("")),
		),
		jen.Id("d").Dot("Skip").Call(),
	)
	if empty != nil {
		emptyCase = jen.Case(jen.Lit("")).Block(
			jen.If(jen.Op("!").Id("ok")).Block(missing, jen.Id("d").Dot("Skip").Call()).Else().Block(empty...),
		)
	}
	cases = append(cases,
		emptyCase,
		jen.Default().Block(
			jen.Id("d").Dot("FailAt").Call(strLit(disc.Property), strLit("enum"),
				strLit(fmt.Sprintf("must be one of %s", expected)), strLit(expected),
				jen.Qual("strconv", "Quote").Call(jen.String().Call(jen.Id("tag"))),
				jen.Qual(e.g.checkPkg, "Closest").Call(jen.String().Call(jen.Id("tag")), jen.Id(tags))),
			jen.Id("d").Dot("Skip").Call(),
		),
	)
	return []jen.Code{
		jen.List(jen.Id("tag"), jen.Id("ok")).Op(":=").Id("d").Dot("PeekMember").Call(strLit(disc.Property)),
		jen.Switch(jen.String().Call(jen.Id("tag"))).Block(cases...),
	}
}

// severalMatch reports whether a value may set several branches of union
// t: an anyOf whose decoder tries more than one branch on a JSON kind
// (unionTrial) keeps every branch the value matches. A oneOf keeps the
// one, and a discriminated or kind-matched anyOf cannot match two.
func severalMatch(t *ir.Type) bool {
	if t.OneOf {
		return false
	}
	byKind := map[string]int{}
	for _, b := range t.Branches {
		for _, k := range jsonKinds(b) {
			byKind[k]++
		}
	}
	for k, n := range byKind {
		if n > 1 && (k != "Object" || t.Discriminator == nil) {
			return true
		}
	}
	return false
}

// unionTrial tries candidate branches on branch decoders. An anyOf keeps
// every branch the value matches, a oneOf the first (and refuses a value
// that matches more, naming those it matches).
func (e *emitter) unionTrial(t *ir.Type, names []string, idx []int, keyword string) []jen.Code {
	stmts := []jen.Code{jen.Id("matched").Op(":=").Lit(0)}
	if keyword == "oneOf" {
		stmts = append(stmts, jen.Var().Id("hits").Qual(e.g.wirePkg, "Hits"))
	}
	alts := make([]*ir.Type, 0, len(idx))
	for k, i := range idx {
		br := t.Branches[i]
		alts = append(alts, br)
		b, v := e.tmp("b"), e.tmp("v")
		bd := dec{name: b, value: true}
		block := []jen.Code{
			jen.Id(b).Op(":=").Id("d").Dot("Trial").Call(),
			jen.Var().Id(v).Add(e.g.goType(br)),
		}
		block = append(block, e.nonNull(bd, jen.Id(v), br)...)
		keep := jen.Id("x").Dot(names[i]).Op("=").Op("&").Id(v)
		if nilable(br) {
			keep = jen.Id("x").Dot(names[i]).Op("=").Id(v)
		}
		// d.Kept counts the unions the kept value holds (wire.Recall
		// shares them between branches).
		kept := jen.Id("d").Dot("Kept").Call(jen.Op("&").Id(b), jen.Id("matched"))
		accept := []jen.Code{
			jen.If(jen.Id("matched").Op("==").Lit(0)).Block(keep, kept),
			jen.Id("matched").Op("++"),
			jen.Id("hits").Dot("Add").Call(jen.Lit(k)),
		}
		if keyword == "anyOf" {
			accept = []jen.Code{keep, kept, jen.Id("matched").Op("++")}
		}
		checks := e.g.validateItem(jen.Id(v), br, "", "be")
		if len(checks) > 0 {
			accept = []jen.Code{
				// The branch's checks count violations and record none,
				// and judge the value as sent (wire.Decoder.TrialChecks).
				jen.Id("be").Op(":=").Id("d").Dot("TrialChecks").Call(jen.Op("&").Id(b)),
				jen.Block(checks...),
				jen.If(jen.Id("be").Dot("Len").Call().Op("==").Lit(0)).Block(accept...),
			}
		}
		block = append(block, jen.If(jen.Id(b).Dot("Clean").Call()).Block(accept...))
		stmts = append(stmts, jen.Block(block...))
	}
	altsVar := e.g.altsVar(alts)
	stmts = append(stmts,
		jen.Id("raw").Op(":=").Id("d").Dot("RawBytes").Call(),
		jen.If(jen.Id("matched").Op("==").Lit(0)).Block(
			jen.Id("d").Dot("NoneMatched").Call(strLit(keyword), jen.Id(altsVar), jen.Id("raw")),
		),
	)
	if keyword == "oneOf" {
		stmts = append(stmts, jen.If(jen.Id("matched").Op(">").Lit(1)).Block(
			jen.Id("d").Dot("ManyMatched").Call(jen.Id(altsVar), jen.Op("&").Id("hits"), jen.Id("raw")),
		))
	}
	return stmts
}

// altsVar returns the package variable holding the check.Alt of each of
// branches, the branches of a union tried on one JSON kind, for the
// messages of a value that matches none or several of them (see
// branchAlt); unions with the same branches share one.
func (g *gen) altsVar(branches []*ir.Type) string {
	var key strings.Builder
	elems := make([]jen.Code, len(branches))
	for i, br := range branches {
		a := branchAlt(br)
		fmt.Fprintf(&key, "%q %t %t %q %q\n", a.Desc, a.Object, a.Closed, a.Required, a.Known)
		dict := jen.Dict{jen.Id("Desc"): strLit(a.Desc)}
		if a.Object {
			dict[jen.Id("Object")] = jen.True()
			if a.Closed {
				dict[jen.Id("Closed")] = jen.True()
			}
			if len(a.Required) > 0 {
				dict[jen.Id("Required")] = stringsLit(a.Required)
			}
			if len(a.Known) > 0 {
				dict[jen.Id("Known")] = stringsLit(a.Known)
			}
		}
		elems[i] = jen.Values(dict)
	}
	return g.pkgVar("alts", key.String(), jen.Index().Qual(g.checkPkg, "Alt").Values(elems...))
}

// stringsLit is the []string literal of ss.
func stringsLit(ss []string) jen.Code {
	lits := make([]jen.Code, len(ss))
	for i, s := range ss {
		lits[i] = strLit(s)
	}
	return jen.Index().String().Values(lits...)
}

// branchAlt describes union branch t for messages as runtime/check
// describes a subschema (check.Alt): a definition's name for a branch
// that is one ($ref), else the JSON kind of its values, and the first
// members an object requires ("object with \"id\""); an object's
// required and declared members, for the nearest branch of a value that
// matches none. The Go type names the generator gives branches
// (LookupUserOption1) are not in the schema the model read.
func branchAlt(t *ir.Type) check.Alt {
	a := check.Alt{Desc: shapeName(t)}
	if t.Kind != ir.KindObject || t.Nullable {
		if name := definitionName(t.Pos.Pointer); name != "" {
			a.Desc = name
		}
		return a
	}
	a.Object = true
	a.Closed = t.AdditionalFalse && !t.Extra && len(t.PatternProperties) == 0
	for _, f := range t.Fields {
		a.Known = append(a.Known, f.JSONName)
		if f.Required {
			a.Required = append(a.Required, f.JSONName)
		}
	}
	slices.Sort(a.Known)
	a.Known = slices.Compact(a.Known)
	if name := definitionName(t.Pos.Pointer); name != "" {
		a.Desc = name
	} else if len(a.Required) > 0 {
		names := a.Required[:min(len(a.Required), 3)]
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = strconv.Quote(text.Truncate(n, check.ReceivedLimit))
		}
		a.Desc += " with " + strings.Join(quoted, ", ")
		if len(names) < len(a.Required) {
			a.Desc += ", …"
		}
	}
	return a
}

// definitionName is the name of the definition ($defs or definitions)
// the schema at the JSON pointer ptr is, "" when it is none: the name a
// branch that refers to it ($ref) is described by, as runtime/check
// describes it.
func definitionName(ptr string) string {
	i := strings.LastIndexByte(ptr, '/')
	if i < 0 {
		return ""
	}
	parent := ptr[:i]
	if !strings.HasSuffix(parent, "/$defs") && !strings.HasSuffix(parent, "/definitions") {
		return ""
	}
	name := strings.NewReplacer("~1", "/", "~0", "~").Replace(ptr[i+1:])
	return text.Truncate(name, check.ReceivedLimit)
}

// shapeName names the kind of values t accepts, for messages, as
// runtime/check names a subschema's.
func shapeName(t *ir.Type) string {
	var s string
	switch t.Kind {
	case ir.KindInteger:
		s = "integer"
	case ir.KindNumber:
		s = "number"
	case ir.KindString, ir.KindEnum:
		s = "string"
		switch t.Format {
		case "date-time", "date", "time", "duration":
			s = t.Format
		}
	case ir.KindBool:
		s = "boolean"
	case ir.KindArray, ir.KindTuple:
		s = "array"
	case ir.KindObject, ir.KindMap:
		s = "object"
	case ir.KindConst:
		return text.Truncate(string(t.Const), check.ReceivedLimit)
	case ir.KindNever:
		return "nothing"
	default:
		return "value"
	}
	if t.Nullable {
		s += " or null"
	}
	return s
}

// tupleBody is the body of a tuple's decodeWire (positions per
// tupleSlotOf; the count check when minItems requires positions):
//
//	if !d.Array() {
//		return
//	}
//	n := 0
//	for d.More() {
//		n++
//		switch d.Index() {
//		case 0:
//			x.Item0 = d.Float()
//		case 1:
//			x.Item1 = new(float64)
//			(*x.Item1) = d.Float()
//		default:
//			var v1 T
//			...
//			x.Rest = append(x.Rest, v1)
//		}
//	}
//	if n < 1 {
//		d.Fail("minItems", "must have at least 1 item", "at least 1 item", "")
//	}
//
// Required positions missing from the array are reported here: their
// values cannot tell. (When minItems exceeds the positions, validate's
// count reports short arrays.)
func (e *emitter) tupleBody(t *ir.Type) []jen.Code {
	d := dec{name: "d"}
	var cases []jen.Code
	for i, p := range t.Prefix {
		target := jen.Id("x").Dot(fmt.Sprintf("Item%d", i))
		var stmts []jen.Code
		switch tupleSlotOf(t, i) {
		case slotPointer:
			// x.I = new(T); (*x.I) = ... (a nil any for null)
			stmts = append([]jen.Code{jen.Add(target).Op("=").New(e.g.goType(p))}, e.value(d, deref(target), p, true)...)
		case slotNilable:
			stmts = e.value(d, target, p, false)
		case slotNullable:
			// if d.Null() { x.I = runtime.Null[T]() } else { var v1 T; ...; x.I = runtime.Value(v1) }
			v := e.tmp("v")
			stmts = []jen.Code{jen.If(d.call().Dot("Null").Call()).Block(
				jen.Add(target).Op("=").Qual(e.g.runtimePkg, "Null").Types(e.g.goType(p)).Call(),
			).Else().Block(
				append(append([]jen.Code{jen.Var().Id(v).Add(e.g.goType(p))}, e.nonNull(d, jen.Id(v), p)...),
					jen.Add(target).Op("=").Qual(e.g.runtimePkg, "Value").Call(jen.Id(v)))...,
			)}
		default:
			if p.Nullable && !nilable(p) {
				stmts = []jen.Code{jen.If(jen.Op("!").Id("d").Dot("Null").Call()).Block(
					append([]jen.Code{jen.Add(target).Op("=").New(e.g.goType(p))}, e.nonNull(d, deref(target), p)...)...,
				)}
			} else {
				stmts = e.value(d, target, p, true)
			}
		}
		cases = append(cases, jen.Case(jen.Lit(i)).Block(stmts...))
	}
	var rest []jen.Code
	if t.RestForbidden {
		rest = []jen.Code{jen.Id("d").Dot("Reject").Call(jen.Lit("items"), strLit(allowedItems(len(t.Prefix))))}
	} else {
		v := e.tmp("v")
		rest = append(e.item(d, v, t.Elem), jen.Id("x").Dot("Rest").Op("=").Append(jen.Id("x").Dot("Rest"), jen.Id(v)))
	}
	cases = append(cases, jen.Default().Block(rest...))
	sw := jen.Switch(jen.Id("d").Dot("Index").Call()).Block(cases...)
	req := tupleRequired(t)
	if m := t.ConstraintsValue().MinItems; req == 0 || *m > int64(len(t.Prefix)) {
		return []jen.Code{
			jen.If(jen.Op("!").Id("d").Dot("Array").Call()).Block(jen.Return()),
			jen.For(jen.Id("d").Dot("More").Call()).Block(sw),
		}
	}
	return []jen.Code{
		jen.If(jen.Op("!").Id("d").Dot("Array").Call()).Block(jen.Return()),
		jen.Id("n").Op(":=").Lit(0),
		jen.For(jen.Id("d").Dot("More").Call()).Block(jen.Id("n").Op("++"), sw),
		jen.If(jen.Id("n").Op("<").Lit(req)).Block(
			jen.Id("d").Dot("Fail").Call(jen.Lit("minItems"), strLit("must have at least "+plural(req, "item")),
				strLit("at least "+plural(req, "item")), jen.Lit("")),
		),
	}
}
