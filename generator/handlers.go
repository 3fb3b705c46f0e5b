package generator

import (
	"fmt"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// resultName is the name of the Go type a tool's handler returns in its
// ToolResult.
func resultName(t *ir.Tool) string {
	if t.Result != nil && t.Result.GoName != "" {
		return t.Result.GoName
	}
	if t.ResultName != "" {
		return t.ResultName
	}
	return t.GoName + "Result"
}

// paramsName is the name of a tool's params type.
func paramsName(t *ir.Tool) string {
	if t.Params != nil && t.Params.GoName != "" {
		return t.Params.GoName
	}
	return t.GoName + "Params"
}

// handlerSignature writes the name, parameter and result list of a
// handler method:
//
//	ListIssues(ctx context.Context, tc runtime.ToolContext, p *ListIssuesParams) (runtime.ToolResult[ListIssuesResult], error)
func (g *gen) handlerSignature(s *srcFile, t *ir.Tool) {
	s.ident(t.GoName)
	s.text("(ctx ")
	s.qual(contextPkg, "Context")
	s.text(", tc ")
	s.qual(g.runtimePkg, "ToolContext")
	s.text(", p *")
	s.ident(t.Params.GoName)
	s.text(") (")
	g.toolResult(s, t)
	s.text(", error)")
}

// toolResult writes runtime.ToolResult[XResult].
func (g *gen) toolResult(s *srcFile, t *ir.Tool) {
	s.qual(g.runtimePkg, "ToolResult")
	s.text("[")
	s.ident(resultName(t))
	s.text("]")
}

// emitHandlers writes handlers_gen.go directly (srcFile): the Handlers
// interface, one method per tool, and UnimplementedHandlers.
// golden/github/handlers_gen.go shows the output.
func emitHandlers(g *gen, s *srcFile) error {
	s.text("// Handlers implements the family's tools, one method per tool. Embed\n")
	s.text("// UnimplementedHandlers to stay compatible when tools are added.\n")
	if len(g.fam.Tools) == 0 {
		s.text("type Handlers interface{}\n")
	} else {
		s.text("type Handlers interface {\n")
		for _, t := range g.fam.Tools {
			s.comment("\t", fmt.Sprintf("%s serves %s.%s", t.GoName, t.Name, summarySuffix(t.Description)))
			s.text("\t")
			g.handlerSignature(s, t)
			s.text("\n")
		}
		s.text("}\n")
	}
	s.text("\n// UnimplementedHandlers answers every tool with runtime.NotImplemented.\n")
	s.text("type UnimplementedHandlers struct{}\n")
	for _, t := range g.fam.Tools {
		s.text("\n")
		s.comment("", fmt.Sprintf("%s reports that %s is not implemented.", t.GoName, t.Name))
		s.text("func (UnimplementedHandlers) ")
		g.handlerSignature(s, t)
		s.text(" {\n\treturn ")
		g.toolResult(s, t)
		s.text("{}, ")
		s.qual(g.runtimePkg, "NotImplemented")
		s.text("(")
		s.lit(t.Name)
		s.text(")\n}\n")
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
