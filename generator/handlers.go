package generator

import (
	"fmt"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// resultType is the Go type a tool's handler returns in its ToolResult.
func resultType(t *ir.Tool) *jen.Statement {
	if t.Result != nil && t.Result.GoName != "" {
		return jen.Id(t.Result.GoName)
	}
	return jen.Id(t.GoName + "Result")
}

// handlerSignature is the parameter and result list of a handler method:
//
//	(ctx context.Context, tc runtime.ToolContext, p *ListIssuesParams) (runtime.ToolResult[ListIssuesResult], error)
func (g *gen) handlerSignature(s *jen.Statement, t *ir.Tool) *jen.Statement {
	return s.Params(
		jen.Id("ctx").Qual(contextPkg, "Context"),
		jen.Id("tc").Qual(g.runtimePkg, "ToolContext"),
		jen.Id("p").Op("*").Id(t.Params.GoName),
	).Params(jen.Qual(g.runtimePkg, "ToolResult").Types(resultType(t)), jen.Error())
}

// emitHandlers writes handlers_gen.go: the Handlers interface, one method
// per tool, and UnimplementedHandlers. golden/github/handlers_gen.go shows
// the output.
func emitHandlers(g *gen, f *jen.File) error {
	var methods []jen.Code
	for _, t := range g.fam.Tools {
		methods = append(methods, docComment(fmt.Sprintf("%s serves %s.%s", t.GoName, t.Name, summarySuffix(t.Description))))
		methods = append(methods, g.handlerSignature(jen.Id(t.GoName), t))
	}
	f.Add(comment("Handlers implements the family's tools, one method per tool. Embed"))
	f.Add(comment("UnimplementedHandlers to stay compatible when tools are added."))
	f.Type().Id("Handlers").Interface(methods...)
	f.Line()
	f.Add(comment("UnimplementedHandlers answers every tool with runtime.NotImplemented."))
	f.Type().Id("UnimplementedHandlers").Struct()
	for _, t := range g.fam.Tools {
		f.Line()
		f.Add(commentf("%s reports that %s is not implemented.", t.GoName, t.Name))
		f.Func().Params(jen.Id("UnimplementedHandlers")).Add(g.handlerSignature(jen.Id(t.GoName), t)).Block(
			jen.Return(
				jen.Qual(g.runtimePkg, "ToolResult").Types(resultType(t)).Values(),
				jen.Qual(g.runtimePkg, "NotImplemented").Call(strLit(t.Name)),
			),
		)
	}
	return nil
}

// summarySuffix is " " plus the first line of a description, for method
// docs ("" when there is none).
func summarySuffix(desc string) string {
	for i := 0; i < len(desc); i++ {
		if desc[i] == '\n' {
			desc = desc[:i]
			break
		}
	}
	if len(desc) > 160 {
		cut := 160
		for cut > 0 && desc[cut]&0xC0 == 0x80 {
			cut--
		}
		desc = desc[:cut] + "…"
	}
	if desc == "" {
		return ""
	}
	return " " + desc
}
