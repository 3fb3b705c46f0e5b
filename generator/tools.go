package generator

import (
	"slices"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// emitTools writes tools_gen.go: decodeArgsP, the decoder of each params
// type P without a table, and DecodeArgs (jennifer code), then the flat
// surface Tools, one line per tool binding its definition, decoder (or
// table) and handler method with runtime.Bind (shape.Bind) (text). golden/github/tools_gen.go shows the output.
func emitTools(g *gen, s *srcFile) error {
	f := s.jen()
	g.emitDecodeArgsFuncs(f)
	done := map[string]bool{}
	for _, t := range g.fam.Tools {
		if !genericDecode(t) && !done[t.Params.GoName] {
			done[t.Params.GoName] = true
			g.emitToolDecoder(f, t)
		}
	}
	g.emitDecodeArgs(f)
	g.emitToolsFunc(s)
	return nil
}

// genericDecode reports whether t's arguments decode through decodeArgs
// (its params type has a decodeArgs method and a null is not a value of
// it).
func genericDecode(t *ir.Tool) bool {
	return hasMethods(t.Params) && (!t.Params.Nullable || nilable(t.Params))
}

// tableBound reports whether t's arguments decode through its params
// type's table (shape.Bind), without a decode function of their own.
func (g *gen) tableBound(t *ir.Tool) bool {
	c := g.canonical(t.Params)
	return genericDecode(t) && composite(c) && g.tabled(c)
}

// decodeFunc writes the name of t's decode function, of type
// func(tool string, args []byte) (*XParams, error): decodeArgs and the
// params type's name (the canonical type's, which aliases share).
func (g *gen) decodeFunc(s *srcFile, t *ir.Tool) {
	name := t.Params.GoName
	if genericDecode(t) {
		name = g.canonical(t.Params).GoName
	}
	s.ident(decodeArgsName(name))
}

// decodeArgsName is the decode function of the params type named goName.
func decodeArgsName(goName string) string { return "decodeArgs" + goName }

// emitDecodeArgsFuncs writes decodeArgsP, the decode function of each
// params type P with methods and without a table (once per shape: aliases
// share it), which makes the new value and decodes and validates into it.
// A plain function per type, not a generic one: its instantiation per
// params type would cost the compiler a wrapper, a dictionary and an itab
// each. A tabled P needs none: shape.Bind decodes through its table.
func (g *gen) emitDecodeArgsFuncs(f *jen.File) {
	done := map[*ir.Type]bool{}
	for _, t := range g.fam.Tools {
		c := g.canonical(t.Params)
		if !genericDecode(t) || g.tableBound(t) || done[c] {
			continue
		}
		done[c] = true
		ret := func(err jen.Code) jen.Code {
			return jen.If(jen.Err().Op(":=").Add(err), jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Nil(), jen.Err()))
		}
		read := []jen.Code{g.decodeCall(jen.Id("d"), jen.Id("x"), c, true)}
		if !decodeMethod(c) {
			e := &emitter{g: g}
			read = e.inline(dec{name: "d"}, deref(jen.Id("x")), c)
		}
		body := slices.Concat([]jen.Code{
			jen.Id("x").Op(":=").New(jen.Id(c.GoName)),
			jen.Id("d").Op(":=").Qual(g.wirePkg, "NewArgsDecoder").Call(jen.Id("args")),
		}, g.budgetStart(jen.Id("d")), read)
		if g.checked(c) {
			body = slices.Concat(body, []jen.Code{
				jen.If(jen.Id("d").Dot("Close").Call().Op("!=").Nil()).Block(
					jen.Return(jen.Nil(), jen.Id("d").Dot("Report").Call(jen.Id("tool"), jen.Nil())),
				),
			}, g.argsErrors(jen.Id("d"), c), []jen.Code{
				g.validateCall(jen.Id("x"), c, true, jen.Nil(), jen.Op("&").Id("e")),
				ret(jen.Id("d").Dot("Report").Call(jen.Id("tool"), jen.Op("&").Id("e"))),
			})
		} else {
			// No validator: the decoder's findings are all there is.
			body = append(body,
				comment("Close's syntax error stays in d, for Report."),
				jen.Id("d").Dot("Close").Call(),
				ret(jen.Id("d").Dot("Report").Call(jen.Id("tool"), jen.Nil())),
			)
		}
		body = append(body, jen.Return(jen.Id("x"), jen.Nil()))
		f.Add(commentf("%s decodes and validates a tool's arguments into a new %s.", decodeArgsName(c.GoName), c.GoName))
		f.Func().Id(decodeArgsName(c.GoName)).Params(jen.Id("tool").String(), jen.Id("args").Index().Byte()).
			Params(jen.Op("*").Id(c.GoName), jen.Error()).Block(body...)
		f.Line()
	}
}

// emitToolDecoder writes decodeArgsP, which decodes and validates the
// arguments of a tool whose params type P has no methods (a bare schema);
// errors name the tool it is called for.
func (g *gen) emitToolDecoder(f *jen.File, t *ir.Tool) {
	f.Add(commentf("%s decodes and validates the arguments of tool into a new %s.", decodeArgsName(t.Params.GoName), t.Params.GoName))
	f.Func().Id(decodeArgsName(t.Params.GoName)).Params(jen.Id("tool").String(), jen.Id("args").Index().Byte()).Params(jen.Op("*").Id(t.Params.GoName), jen.Error()).
		Block(g.decodeAnyRoot(t.Params)...)
	f.Line()
}

// emitDecodeArgs writes DecodeArgs, which finds the named tool's Decode
// in a map built from Tools once (a switch over every tool name would be
// one more function growing with the catalogue):
//
//	var toolDecoders = sync.OnceValue(func() map[string]func(json.RawMessage) (any, error) { ... })
func (g *gen) emitDecodeArgs(f *jen.File) {
	decodeFn := jen.Func().Params(jen.Qual(jsonPkg, "RawMessage")).Params(jen.Any(), jen.Error())
	f.Add(comment("toolDecoders maps each tool name to its Tool.Decode, built on first use."))
	f.Var().Id("toolDecoders").Op("=").Qual("sync", "OnceValue").Call(
		jen.Func().Params().Map(jen.String()).Add(decodeFn).Block(
			jen.Id("tools").Op(":=").Id("Tools").Call(jen.Id("UnimplementedHandlers").Values()),
			jen.Id("m").Op(":=").Make(jen.Map(jen.String()).Add(decodeFn), jen.Len(jen.Id("tools"))),
			jen.For(jen.List(jen.Id("_"), jen.Id("t")).Op(":=").Range().Id("tools")).Block(
				jen.Id("m").Index(jen.Id("t").Dot("Name")).Op("=").Id("t").Dot("Decode"),
			),
			jen.Return(jen.Id("m")),
		),
	)
	f.Line()
	f.Add(comment("DecodeArgs decodes and validates the raw arguments of the named tool into"))
	f.Add(comment("its params type (*XParams); invalid arguments give a *runtime.ValidationError."))
	f.Add(comment("Tools whose parameters have the same shape share one type (the others'"))
	f.Add(comment("names are aliases of it): tell tools apart by name, not by the value's type."))
	f.Func().Id("DecodeArgs").Params(jen.Id("tool").String(), jen.Id("args").Index().Byte()).Params(jen.Any(), jen.Error()).Block(
		jen.If(jen.List(jen.Id("decode"), jen.Id("ok")).Op(":=").Id("toolDecoders").Call().Index(jen.Id("tool")), jen.Id("ok")).Block(
			jen.Return(jen.Id("decode").Call(jen.Id("args"))),
		),
		jen.Return(jen.Nil(), jen.Qual("fmt", "Errorf").Call(jen.Lit("unknown tool %q"), jen.Id("tool"))),
	)
}

// toolsPart is how many tools one function of Tools binds: a function's
// stack maps grow with its calls times its temporaries, so a catalogue's
// Tools in one function would cost the compiler quadratic time and memory.
const toolsPart = 64

// emitToolsFunc writes Tools, the flat surface: one line per tool, its
// runtime.Tool literal (toolLit) bound by runtime.Bind to its decode
// function and handler method. Past toolsPart tools, the lines are split
// into functions tools0, tools1, … of toolsPart each that Tools calls.
func (g *gen) emitToolsFunc(s *srcFile) {
	rt := g.runtimePkg
	tools := g.fam.Tools
	s.text("// Tools returns the flat surface: one runtime.Tool per tool definition, whose\n")
	s.text("// handler decodes and validates the arguments before calling h.\n")
	s.text("func Tools(h Handlers) []")
	s.qual(rt, "Tool")
	if len(tools) <= toolsPart {
		s.text(" {\n\treturn []")
		s.qual(rt, "Tool")
		s.text("{")
		if len(tools) > 0 {
			s.text("\n")
			g.bindLines(s, tools, 0)
			s.text("\t")
		}
		s.text("}\n}\n")
		return
	}
	s.text(" {\n\ttools := make([]")
	s.qual(rt, "Tool")
	s.text(", 0, ")
	s.int(len(tools))
	s.text(")\n")
	parts := (len(tools) + toolsPart - 1) / toolsPart
	for p := range parts {
		s.text("\ttools = tools")
		s.int(p)
		s.text("(h, tools)\n")
	}
	s.text("\treturn tools\n}\n")
	for p := range parts {
		part := tools[p*toolsPart : min(len(tools), (p+1)*toolsPart)]
		s.text("\n// tools")
		s.int(p)
		s.text(" appends the tools ")
		s.int(p*toolsPart + 1)
		s.text(" to ")
		s.int(p*toolsPart + len(part))
		s.text(" of Tools.\nfunc tools")
		s.int(p)
		s.text("(h Handlers, tools []")
		s.qual(rt, "Tool")
		s.text(") []")
		s.qual(rt, "Tool")
		s.text(" {\n\treturn append(tools,\n")
		g.bindLines(s, part, p*toolsPart)
		s.text("\t)\n}\n")
	}
	if !asData(g.fam) {
		return
	}
	s.text("\n// toolDef is the definition of the i-th tool of Tools, from toolDefs.\nfunc toolDef(i int) ")
	s.qual(rt, "Tool")
	s.text(" { return ")
	s.qual(rt, "MustDecodeTool")
	s.text("(toolDefs[i]) }\n\n")
	s.records("toolDefs are the definitions of Tools as data, one runtime.EncodeTool\nrecord each: a family of many tools compiles them in a fraction of\nthe memory their literals take.",
		"toolDefs", len(tools), func(i int) string { return runtime.EncodeTool(toolDef(tools[i])) })
}

// toolDef is the definition of one tool as the runtime declares it.
func toolDef(t *ir.Tool) runtime.Tool {
	def := runtime.Tool{Name: t.Name, Description: t.Description, Parameters: t.ParamsSchema, Title: t.Title, ResultSchema: t.ResultSchema}
	if a := t.Annotations; a.ReadOnly != nil || a.Destructive != nil || a.Idempotent != nil || a.OpenWorld != nil {
		def.Annotations = &runtime.Annotations{ReadOnly: a.ReadOnly, Destructive: a.Destructive, Idempotent: a.Idempotent, OpenWorld: a.OpenWorld}
	}
	return def
}

// bindLines writes one line per tool: runtime.Bind(literal, decode, h.X),
// or shape.Bind(literal, &tableP, h.X) when its params have a table; the
// literal is toolDef(i) when the definitions are data (asData), i the
// tool's index in the family, the first of tools at first.
func (g *gen) bindLines(s *srcFile, tools []*ir.Tool, first int) {
	for i, t := range tools {
		s.text("\t\t")
		if g.tableBound(t) {
			s.qual(g.shapePkg(), "Bind")
			s.text("(")
			g.toolLit(s, t, first+i)
			s.text(", &")
			s.ident(tableName(g.canonical(t.Params)))
		} else {
			s.qual(g.runtimePkg, "Bind")
			s.text("(")
			g.toolLit(s, t, first+i)
			s.text(", ")
			g.decodeFunc(s, t)
		}
		s.text(", h.")
		s.ident(t.GoName)
		s.text("),\n")
	}
}

// toolLit writes the runtime.Tool literal of one tool's definition, on
// one line: name, description, parameters schema and the optional title,
// annotations and result schema; or toolDef(i) when the definitions are
// data.
func (g *gen) toolLit(s *srcFile, t *ir.Tool, i int) {
	if asData(g.fam) {
		s.text("toolDef(")
		s.int(i)
		s.text(")")
		return
	}
	s.qual(g.runtimePkg, "Tool")
	s.text("{Name: ")
	s.lit(t.Name)
	s.text(", Description: ")
	s.lit(t.Description)
	s.text(", Parameters: ")
	regRawJSON(s, t.ParamsSchema)
	if t.Title != "" {
		s.text(", Title: ")
		s.lit(t.Title)
	}
	annotationsLit(s, g.runtimePkg, t.Annotations)
	if len(t.ResultSchema) > 0 {
		s.text(", ResultSchema: ")
		regRawJSON(s, t.ResultSchema)
	}
	s.text("}")
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
func (g *gen) decodeAnyRoot(t *ir.Type) []jen.Code {
	e := &emitter{g: g}
	d := dec{name: "d"}
	p := deref(jen.Id("p"))
	var read []jen.Code
	if decodeMethod(t) {
		read = []jen.Code{g.decodeCall(jen.Id("d"), jen.Id("p"), t, true)}
	} else {
		read = e.inline(d, p, t)
	}
	var checks []jen.Code
	if hasMethods(t) {
		if g.checked(t) {
			checks = []jen.Code{g.validateCall(jen.Id("p"), t, true, jen.Nil(), jen.Op("&").Id("e"))}
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
			jen.Return(jen.Nil(), jen.Id("d").Dot("Report").Call(jen.Id("tool"), jen.Nil())),
		),
	)
	body = append(body, g.argsErrors(jen.Id("d"), t)...)
	if len(checks) > 0 {
		if nullable {
			body = append(body, jen.If(jen.Op("!").Id("null")).Block(checks...))
		} else {
			body = append(body, checks...)
		}
	}
	body = append(body,
		jen.If(jen.Err().Op(":=").Id("d").Dot("Report").Call(jen.Id("tool"), jen.Op("&").Id("e")), jen.Err().Op("!=").Nil()).Block(
			jen.Return(jen.Nil(), jen.Err()),
		),
		jen.Return(jen.Id("p"), jen.Nil()),
	)
	return body
}

// annotationsLit writes ", Annotations: " and the runtime.Annotations
// literal of a, on one line, or nothing when no hint is known:
//
//	, Annotations: &runtime.Annotations{ReadOnly: runtime.Hint(true)}
func annotationsLit(s *srcFile, runtimePkg string, a ir.Annotations) {
	if a.ReadOnly == nil && a.Destructive == nil && a.Idempotent == nil && a.OpenWorld == nil {
		return
	}
	s.text(", Annotations: &")
	s.qual(runtimePkg, "Annotations")
	s.text("{")
	n := 0
	sep := func() {
		if n > 0 {
			s.text(", ")
		}
		n++
	}
	hint := func(v bool) {
		s.qual(runtimePkg, "Hint")
		if v {
			s.text("(true)")
		} else {
			s.text("(false)")
		}
	}
	if a.ReadOnly != nil {
		sep()
		s.text("ReadOnly: ")
		hint(*a.ReadOnly)
	}
	if a.Destructive != nil {
		sep()
		s.text("Destructive: ")
		hint(*a.Destructive)
	}
	if a.Idempotent != nil {
		sep()
		s.text("Idempotent: ")
		hint(*a.Idempotent)
	}
	if a.OpenWorld != nil {
		sep()
		s.text("OpenWorld: ")
		hint(*a.OpenWorld)
	}
	s.text("}")
}
