package generator

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// emitTools writes tools_gen.go: a decode function per tool, DecodeArgs
// and the flat surface Tools. golden/github/tools_gen.go shows the output.
func emitTools(g *gen, f *jen.File) error {
	for _, t := range g.fam.Tools {
		g.emitToolDecoder(f, t)
	}
	g.emitDecodeArgs(f)
	g.emitToolsFunc(f)
	return nil
}

// emitToolDecoder writes decodeX, which decodes and validates the
// arguments of one tool into its params type.
func (g *gen) emitToolDecoder(f *jen.File, t *ir.Tool) {
	f.Add(commentf("decode%s decodes and validates the arguments of %s.", t.GoName, t.Name))
	sig := f.Func().Id("decode"+t.GoName).Params(jen.Id("args").Index().Byte()).Params(jen.Op("*").Id(t.Params.GoName), jen.Error())
	if !hasMethods(t.Params) || (t.Params.Nullable && !nilable(t.Params)) {
		sig.Block(g.decodeAnyRoot(t.Name, t.Params)...)
		f.Line()
		return
	}
	sig.Block(
		slices.Concat([]jen.Code{
			jen.Id("d").Op(":=").Qual(g.wirePkg, "NewArgsDecoder").Call(jen.Id("args")),
		}, g.budgetStart(jen.Id("d")), []jen.Code{
			jen.Id("p").Op(":=").New(jen.Id(t.Params.GoName)),
			jen.Id("p").Dot("decodeWire").Call(jen.Id("d")),
			jen.If(jen.Id("d").Dot("Close").Call().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Id("d").Dot("Report").Call(strLit(t.Name), jen.Nil())),
			),
		}, g.topErrors(jen.Id("d")), []jen.Code{
			jen.Id("p").Dot("validate").Call(jen.Nil(), jen.Op("&").Id("e")),
			jen.If(jen.Err().Op(":=").Id("d").Dot("Report").Call(strLit(t.Name), jen.Op("&").Id("e")), jen.Err().Op("!=").Nil()).Block(
				jen.Return(jen.Nil(), jen.Err()),
			),
			jen.Return(jen.Id("p"), jen.Nil()),
		})...,
	)
	f.Line()
}

// emitDecodeArgs writes DecodeArgs, which switches on the tool name to
// its decode function.
func (g *gen) emitDecodeArgs(f *jen.File) {
	var cases []jen.Code
	for _, t := range g.fam.Tools {
		cases = append(cases, jen.Case(strLit(t.Name)).Block(
			jen.Return(jen.Id("decode"+t.GoName).Call(jen.Id("args"))),
		))
	}
	f.Add(comment("DecodeArgs decodes and validates the raw arguments of the named tool into"))
	f.Add(comment("its params type (*XParams); invalid arguments give a *runtime.ValidationError."))
	f.Func().Id("DecodeArgs").Params(jen.Id("tool").String(), jen.Id("args").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
		jen.Switch(jen.Id("tool")).Block(cases...),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("unknown tool %q"), jen.Id("tool"))),
	)
}

// emitToolsFunc writes Tools, the flat surface: one runtime.Tool literal
// per tool (toolLit).
func (g *gen) emitToolsFunc(f *jen.File) {
	var tools []jen.Code
	for _, t := range g.fam.Tools {
		tools = append(tools, jen.Values(g.toolLit(t)))
	}
	f.Line()
	f.Add(comment("Tools returns the flat surface: one runtime.Tool per tool definition, whose"))
	f.Add(comment("handler decodes and validates the arguments before calling h."))
	f.Func().Id("Tools").Params(jen.Id("h").Id("Handlers")).Index().Qual(g.runtimePkg, "Tool").Block(
		jen.Return(jen.Index().Qual(g.runtimePkg, "Tool").Values(tools...)),
	)
}

// toolLit is the fields of one tool's runtime.Tool: name, description,
// parameters schema, the handler that decodes before calling h, Decode,
// and the optional title, annotations and result schema.
func (g *gen) toolLit(t *ir.Tool) jen.Dict {
	params := jen.Nil()
	if len(t.ParamsSchema) > 0 {
		params = jen.Qual(jsonPkg, "RawMessage").Call(strLit(string(t.ParamsSchema)))
	}
	decode := "decode" + t.GoName
	dict := jen.Dict{
		jen.Id("Name"):             strLit(t.Name),
		jen.Id("Description"):      strLit(t.Description),
		jen.Id("Parameters"):       params,
		jen.Id("AcceptsOverrides"): jen.True(),
		jen.Id("Handler"): jen.Func().Params(
			jen.Id("ctx").Qual(contextPkg, "Context"),
			jen.Id("tc").Qual(g.runtimePkg, "ToolContext"),
			jen.Id("args").Qual(jsonPkg, "RawMessage"),
		).Params(jen.Qual(g.runtimePkg, "Result"), jen.Error()).Block(
			jen.List(jen.Id("p"), jen.Err()).Op(":=").Id(decode).Call(jen.Id("args")),
			jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(g.runtimePkg, "Result").Values(), jen.Err())),
			jen.List(jen.Id("r"), jen.Err()).Op(":=").Id("h").Dot(t.GoName).Call(jen.Id("ctx"), jen.Id("tc"), jen.Id("p")),
			jen.Return(jen.Id("r").Dot("WithParams").Call(jen.Id("p")), jen.Err()),
		),
		jen.Id("Decode"): jen.Func().Params(jen.Id("args").Qual(jsonPkg, "RawMessage")).Params(jen.Any(), jen.Error()).Block(
			jen.Return(jen.Id(decode).Call(jen.Id("args"))),
		),
	}
	if t.Title != "" {
		dict[jen.Id("Title")] = strLit(t.Title)
	}
	if a := annotationsLit(g.runtimePkg, t.Annotations); a != nil {
		dict[jen.Id("Annotations")] = a
	}
	if len(t.ResultSchema) > 0 {
		dict[jen.Id("ResultSchema")] = jen.Qual(jsonPkg, "RawMessage").Call(strLit(string(t.ResultSchema)))
	}
	return dict
}

// decodeAnyRoot is the body of a decode function for params of a kind
// other than object (a bare schema: scalar, any, never, nullable):
//
//	d := wire.NewArgsDecoder(args)
//	p := new(CheckParams)
//	null := d.Null()
//	if !null {
//		(*p) = CheckParams(d.Int())
//	}
//	if d.Close() != nil {
//		return nil, d.Report("check", nil)
//	}
//	var e wire.Errors
//	if !null {
//		...checks of *p
//	}
//	...
func (g *gen) decodeAnyRoot(tool string, t *ir.Type) []jen.Code {
	e := &emitter{g: g}
	d := dec{name: "d"}
	p := deref(jen.Id("p"))
	var read []jen.Code
	if hasMethods(t) {
		read = []jen.Code{jen.Id("p").Dot("decodeWire").Call(jen.Id("d"))}
	} else {
		read = e.inline(d, p, t)
	}
	var checks []jen.Code
	if hasMethods(t) {
		if g.needsCheck(t, map[*ir.Type]bool{}) {
			checks = []jen.Code{jen.Id("p").Dot("validate").Call(jen.Nil(), jen.Op("&").Id("e"))}
		}
	} else {
		checks = []jen.Code{jen.Id("validate"+t.GoName).Call(jen.Id("p"), jen.Nil(), jen.Op("&").Id("e"))}
	}
	body := append([]jen.Code{
		jen.Id("d").Op(":=").Qual(g.wirePkg, "NewArgsDecoder").Call(jen.Id("args")),
	}, g.budgetStart(jen.Id("d"))...)
	body = append(body, jen.Id("p").Op(":=").New(jen.Id(t.GoName)))
	nullable := t.Nullable && !nilable(t)
	if nullable {
		body = append(body, jen.Id("null").Op(":=").Id("d").Dot("Null").Call(),
			jen.If(jen.Op("!").Id("null")).Block(read...))
	} else {
		body = append(body, read...)
	}
	body = append(body,
		jen.If(jen.Id("d").Dot("Close").Call().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Id("d").Dot("Report").Call(strLit(tool), jen.Nil())),
		),
	)
	body = append(body, g.topErrors(jen.Id("d"))...)
	if len(checks) > 0 {
		if nullable {
			body = append(body, jen.If(jen.Op("!").Id("null")).Block(checks...))
		} else {
			body = append(body, checks...)
		}
	}
	body = append(body,
		jen.If(jen.Err().Op(":=").Id("d").Dot("Report").Call(strLit(tool), jen.Op("&").Id("e")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id("p"), jen.Nil()),
	)
	return body
}

// annotationsLit is the runtime.Annotations literal of a, or nil when no
// hint is known:
//
//	&runtime.Annotations{ReadOnly: runtime.Hint(true)}
//
// (golden/*/tools_gen.go shows it in place).
func annotationsLit(runtimePkg string, a ir.Annotations) jen.Code {
	d := jen.Dict{}
	for _, h := range []struct {
		name string
		v    *bool
	}{{"ReadOnly", a.ReadOnly}, {"Destructive", a.Destructive}, {"Idempotent", a.Idempotent}, {"OpenWorld", a.OpenWorld}} {
		if h.v != nil {
			d[jen.Id(h.name)] = jen.Qual(runtimePkg, "Hint").Call(jen.Lit(*h.v))
		}
	}
	if len(d) == 0 {
		return nil
	}
	return jen.Op("&").Qual(runtimePkg, "Annotations").Values(d)
}
