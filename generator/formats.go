package generator

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// timePkg is the import path of the Go type formats map to (ir.ReprTime).
const timePkg = "time"

// isTime reports whether t is a formatted string held as a time.Time.
func isTime(t *ir.Type) bool {
	return t != nil && t.Kind == ir.KindString && t.Repr == ir.ReprTime
}

// containsDate reports whether encoding/json would write a value of t
// differently from its schema: a date held as a time.Time (time.Time
// marshals as a date-time), directly or in the items of an unnamed array
// or map. Named types have MarshalJSON methods of their own.
func containsDate(t *ir.Type) bool {
	if t == nil || t.GoName != "" {
		return false
	}
	switch {
	case isTime(t):
		return t.Format == "date"
	case t.Kind == ir.KindArray || t.Kind == ir.KindMap:
		return containsDate(t.Elem)
	}
	return false
}

// timeParser is the runtime/check function parsing a mapped format.
func timeParser(t *ir.Type) string {
	if t.Format == "date" {
		return "ParseDate"
	}
	return "ParseDateTime"
}

// decodeTime reads a string of a mapped format into target (a time.Time):
// the string's own checks, then check.ParseDateTime or ParseDate, a format
// error when it fails, a mismatch for a value that is not a string.
// golden/formats/decode_gen.go shows the output.
func (e *emitter) decodeTime(d dec, target jen.Code, t *ir.Type) []jen.Code {
	s := e.tmp("s")
	body := []jen.Code{jen.Id(s).Op(":=").Add(d.call()).Dot("String").Call()}
	// Length and pattern apply to the text, which only the decoder sees.
	str := *t
	str.Repr, str.Format, str.GoName = ir.ReprString, "", ""
	p, errs := e.tmp("p"), e.tmp("e")
	c := vc{g: e.g, path: jen.Op("&").Id(p), recv: jen.Id(p), errs: jen.Id(errs), errsArg: jen.Op("&").Id(errs), depth: 60 + e.n}
	if checks := c.stringChecks(jen.Id(s), &str); len(checks) > 0 {
		block := []jen.Code{
			jen.Id(p).Op(":=").Qual(e.g.wirePkg, "At").Call(d.call().Dot("Path").Call()),
			e.g.subErrors(errs, d.call().Dot("Checks").Call()),
		}
		block = append(block, checks...)
		block = append(block, e.g.absorb(d.call(), errs))
		body = append(body, jen.Block(block...))
	}
	v := e.tmp("t")
	body = append(body, jen.If(
		jen.List(jen.Id(v), jen.Id("ok")).Op(":=").Qual(e.g.checkPkg, timeParser(t)).Call(jen.Id(s)), jen.Id("ok"),
	).Block(
		jen.Add(target).Op("=").Id(v),
	).Else().Block(
		d.call().Dot("Fail").Call(jen.Lit("format"), strLit(check.FormatMessage(t.Format)), strLit(t.Format),
			jen.Qual(e.g.checkPkg, "Received").Call(jen.Id(s))),
	))
	return []jen.Code{jen.If(d.call().Dot("Peek").Call().Op("==").Qual(e.g.wirePkg, "String")).Block(body...).Else().Block(
		d.call().Dot("Mismatch").Call(jen.Lit("string")),
	)}
}

// timeText is the string form of a mapped value v (for the embedded
// validator, which sees JSON).
func (g *gen) timeText(v jen.Code, t *ir.Type) jen.Code {
	if t.Format == "date" {
		return jen.Qual(g.checkPkg, "FormatDate").Call(v)
	}
	return jen.Parens(v).Dot("Format").Call(jen.Qual(timePkg, "RFC3339Nano"))
}

// timeLiteral is the Go expression of a default of a mapped format
// (time.Date(2024, time.March, 1, 0, 0, 0, 0, time.UTC)), or nil when raw
// does not parse (the compiler keeps only defaults that do).
func timeLiteral(t *ir.Type, raw json.RawMessage) jen.Code {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil
	}
	var v time.Time
	var err error
	switch t.Format {
	case "date":
		v, err = time.Parse(time.DateOnly, s)
	default:
		if len(s) < 20 {
			return nil
		}
		s = s[:10] + "T" + strings.Replace(s[11:], "z", "Z", 1)
		leap := s[17:19] == "60"
		if leap {
			s = s[:17] + "59" + s[19:]
		}
		v, err = time.Parse(time.RFC3339Nano, s)
		if leap {
			v = v.Add(time.Second)
		}
	}
	if err != nil {
		return nil
	}
	loc := jen.Qual(timePkg, "UTC")
	if _, off := v.Zone(); off != 0 || !strings.HasSuffix(s, "Z") && t.Format != "date" {
		loc = jen.Qual(timePkg, "FixedZone").Call(jen.Lit(""), jen.Lit(off))
	}
	return jen.Qual(timePkg, "Date").Call(jen.Lit(v.Year()), jen.Qual(timePkg, v.Month().String()), jen.Lit(v.Day()),
		jen.Lit(v.Hour()), jen.Lit(v.Minute()), jen.Lit(v.Second()), jen.Lit(v.Nanosecond()), loc)
}

// marshaler emits the conversion of values holding dates to what
// encoding/json writes as the schema says (YYYY-MM-DD strings), with
// unique local names within one function.
type marshaler struct {
	g *gen
	n int
}

func (m *marshaler) tmp(prefix string) string {
	m.n++
	return fmt.Sprintf("%s%d", prefix, m.n)
}

// assign emits dst = (the JSON form of v), where dst is an any-typed slot
// and v a value of t (item semantics when item: a nullable item is a
// pointer, nil for null); dates are written with check.FormatDate, arrays
// and maps of them copied into []any and map[string]any.
// golden/formats/types_gen.go shows the output.
func (m *marshaler) assign(dst, v jen.Code, t *ir.Type, item bool) []jen.Code {
	if !containsDate(t) {
		return []jen.Code{jen.Add(dst).Op("=").Add(v)}
	}
	if item && t.Nullable && !nilable(t) {
		return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(jen.Add(dst).Op("=").Nil()).Else().Block(
			m.assign(dst, jen.Op("*").Add(v), t, false)...)}
	}
	if isTime(t) {
		return []jen.Code{jen.Add(dst).Op("=").Add(m.g.timeText(v, t))}
	}
	return []jen.Code{jen.If(jen.Add(v).Op("==").Nil()).Block(jen.Add(dst).Op("=").Nil()).Else().Block(m.fill(dst, v, t)...)}
}

// fill converts the items of a non-nil array or map v of t into dst.
func (m *marshaler) fill(dst, v jen.Code, t *ir.Type) []jen.Code {
	k, it := m.tmp("k"), m.tmp("v")
	var out string
	var make_, slot jen.Code
	if t.Kind == ir.KindArray {
		out = m.tmp("a")
		make_ = jen.Make(jen.Index().Any(), jen.Len(v))
	} else {
		out = m.tmp("o")
		make_ = jen.Make(jen.Map(jen.String()).Any(), jen.Len(v))
	}
	slot = jen.Id(out).Index(jen.Id(k))
	return []jen.Code{
		jen.Id(out).Op(":=").Add(make_),
		jen.For(jen.List(jen.Id(k), jen.Id(it)).Op(":=").Range().Add(v)).Block(m.assign(slot, jen.Id(it), t.Elem, true)...),
		jen.Add(dst).Op("=").Id(out),
	}
}
