package generator

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// FacadeSpec is one matryoshka facade of a family: a group's tools behind
// one tool that unfolds into them (spec 003).
type FacadeSpec struct {
	// Name is the facade's tool name: the group's name, unless a tool
	// has it (ir.Family.FacadeNames).
	Name        string
	Description string
	// Tools are the inner tools' wire names, in declaration order.
	Tools []string
	// Categories group the inner tools by entity, in order of first use.
	Categories []FacadeCategory
	// Usage maps an inner tool to its op usage line.
	Usage map[string]string
}

// FacadeCategory is one category of a facade.
type FacadeCategory struct {
	Name  string
	Tools []string
}

// SectionSpec is one summarized prompt section of a family (spec 000): a
// group described by its ops, carrying the group's tools.
type SectionSpec struct {
	Key, Title string
	// Summary renders while the section is summarized; Template when it
	// is open. Both are markdown with "$" escaped as "$$".
	Summary, Template string
	Tools             []string
}

// Surface reports whether the family asks for the named surface (all
// surfaces when it names none, except "code", which is emitted only when
// listed: it links the script engine into the generated package).
func Surface(f *ir.Family, name string) bool {
	if len(f.Surfaces) == 0 {
		return name != "code"
	}
	for _, s := range f.Surfaces {
		if s == name {
			return true
		}
	}
	return false
}

// surfGroupOps returns the ops of each group in f.Groups order.
func surfGroupOps(f *ir.Family) [][]*ir.Op {
	out := make([][]*ir.Op, len(f.Groups))
	index := make(map[string]int, len(f.Groups))
	for i, g := range f.Groups {
		if _, dup := index[g.Name]; !dup {
			index[g.Name] = i
		}
	}
	for _, op := range f.Ops {
		if i, ok := index[op.Group]; ok && op.Tool != nil {
			out[i] = append(out[i], op)
		}
	}
	return out
}

// Facades describes the family's facades: one per group with ops, named
// as ir.Family.FacadeNames says.
func Facades(f *ir.Family) []FacadeSpec {
	var out []FacadeSpec
	names := f.FacadeNames()
	for i, ops := range surfGroupOps(f) {
		if len(ops) == 0 {
			continue
		}
		g := f.Groups[i]
		spec := FacadeSpec{Name: names[i], Usage: map[string]string{}}
		catIndex := map[string]int{}
		for _, op := range ops {
			spec.Tools = append(spec.Tools, op.Tool.Name)
			spec.Usage[op.Tool.Name] = toolUsage(op)
			if op.Entity == "" {
				continue
			}
			ci, ok := catIndex[op.Entity]
			if !ok {
				ci = len(spec.Categories)
				catIndex[op.Entity] = ci
				spec.Categories = append(spec.Categories, FacadeCategory{Name: op.Entity})
			}
			spec.Categories[ci].Tools = append(spec.Categories[ci].Tools, op.Tool.Name)
		}
		spec.Description = fmt.Sprintf("%s Unfolds into %s.", strings.TrimSpace(g.Summary), plural(len(ops), "tool"))
		out = append(out, spec)
	}
	return out
}

// Sections describes the family's prompt sections: one per group with
// ops, summarized by default.
func Sections(f *ir.Family) []SectionSpec {
	var out []SectionSpec
	for i, ops := range surfGroupOps(f) {
		if len(ops) == 0 {
			continue
		}
		g := f.Groups[i]
		// The lines are made first so the body grows once: a group of a
		// large family lists thousands of ops.
		lines := make([]string, len(ops))
		tools := make([]string, len(ops))
		size := len(g.Summary) + 2
		for j, op := range ops {
			lines[j] = "- `" + toolUsage(op) + "` (" + string(op.Kind) + "): " + lineBreaks.Replace(check.FirstSentence(op.Tool.Description, 200)) + "\n"
			size += len(lines[j])
			tools[j] = op.Tool.Name
		}
		var body strings.Builder
		body.Grow(size)
		body.WriteString(strings.TrimSpace(g.Summary))
		body.WriteString("\n\n")
		for _, l := range lines {
			body.WriteString(l)
		}
		summary := fmt.Sprintf("%s %s (%s).", strings.TrimSpace(g.Summary), plural(len(ops), "tool"), surfEntityList(ops))
		out = append(out, SectionSpec{
			Key:      g.Name,
			Title:    g.Name,
			Summary:  prompt.Escape(summary),
			Template: prompt.Escape(body.String()),
			Tools:    tools,
		})
	}
	return out
}

// toolUsage is an op's usage line under the name the model calls in these
// surfaces, the tool's: "list_todos [state:string=open] [limit:integer=20]".
// It stays one line: a line break an argument name or enum value holds is
// shown escaped, since in a section's markdown it would start a line of
// its own (a heading, a code fence, a {template} line) and a facade's
// answer gives each tool one line.
func toolUsage(op *ir.Op) string {
	return lineBreaks.Replace(op.Tool.Name + strings.TrimPrefix(op.Usage, op.Path))
}

// lineBreaks shows the line breaks of a text that must stay one line
// escaped.
var lineBreaks = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\u0085", `\u0085`, "\u2028", `\u2028`, "\u2029", `\u2029`)

// surfEntityList names the entities of ops (an op without one by its
// action), in order of first use: "task, project".
func surfEntityList(ops []*ir.Op) string {
	var ents []string
	seen := map[string]bool{}
	for _, op := range ops {
		e := op.Entity
		if e == "" {
			e = op.Action
		}
		if !seen[e] {
			seen[e] = true
			ents = append(ents, e)
		}
	}
	return strings.Join(ents, ", ")
}

// emitSurfaces writes surfaces_gen.go: the gateway, facade, section and
// deferred surfaces the family asks for, all built from Tools(h). Facades,
// one line per tool, is written as text; the others are jennifer code.
func emitSurfaces(g *gen, s *srcFile) error {
	rt, gw := g.runtimePkg, g.gatewayPkg()
	toolSlice := jen.Index().Qual(rt, "Tool")
	if Surface(g.fam, "gateway") {
		g.emitGateway(s.jen(), rt, gw, toolSlice)
	}
	if Surface(g.fam, "facades") {
		g.emitFacades(s, rt)
	}
	if Surface(g.fam, "sections") {
		if asData(g.fam) {
			g.emitSectionRecords(s, rt)
		} else {
			g.emitSections(s.jen(), rt, toolSlice)
		}
	}
	f := s.jen()
	if Surface(g.fam, "deferred") {
		g.emitDeferred(f, rt)
	}
	if Surface(g.fam, "code") {
		g.emitCode(f, rt, toolSlice)
	}
	return nil
}

// emitDeferred writes Deferred, the deferred surface over Registry and
// Tools(h). golden/github/surfaces_gen.go shows the output.
func (g *gen) emitDeferred(f *jen.File, rt string) {
	dpkg := rt + "/deferred"
	f.Add(comment("Deferred returns the deferred surface: every op's tool grouped by op\n" +
		"group, for provider-side deferred loading with a tool search tool\n" +
		"(runtime/anthropic, runtime/openai), executed by h."))
	f.Func().Id("Deferred").Params(jen.Id("h").Id("Handlers")).Op("*").Qual(dpkg, "Surface").Block(
		jen.List(jen.Id("s"), jen.Err()).Op(":=").Qual(dpkg, "New").Call(jen.Id("Registry"), jen.Id("Tools").Call(jen.Id("h"))),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			comment("Registry and Tools are generated together; only a hand edit gets here."),
			jen.Panic(jen.Lit("toolgen: generated registry and tools disagree: ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Return(jen.Id("s")),
	)
	f.Line()
}

// emitGateway writes Gateway, the gateway tools over Registry, and
// GatewayDefinitions, the provider-facing JSON of the four tools.
// golden/github/surfaces_gen.go shows the output.
func (g *gen) emitGateway(f *jen.File, rt, gw string, toolSlice *jen.Statement) {
	f.Add(comment("Gateway returns the gateway surface: tool_help, tool_search, tool_exec"))
	f.Add(comment("and tool_batch over Registry, executing ops with h."))
	f.Func().Id("Gateway").Params(jen.Id("h").Id("Handlers"), jen.Id("opts").Op("...").Qual(gw, "Option")).Add(toolSlice).Block(
		jen.List(jen.Id("tools"), jen.Err()).Op(":=").Qual(gw, "Tools").Call(jen.Id("Registry"), jen.Id("Tools").Call(jen.Id("h")), jen.Id("opts").Op("...")),
		jen.If(jen.Err().Op("!=").Nil()).Block(
			comment("Registry and Tools are generated together; only a hand edit gets here."),
			jen.Panic(jen.Lit("toolgen: generated registry and tools disagree: ").Op("+").Err().Dot("Error").Call()),
		),
		jen.Return(jen.Id("tools")),
	)
	f.Line()
	f.Add(comment("GatewayDefinitions returns the provider-facing definitions of the"))
	f.Add(comment("gateway tools, as a JSON array of OpenAI chat tool definitions."))
	f.Func().Id("GatewayDefinitions").Params().Qual(jsonPkg, "RawMessage").Block(
		jen.Return(jen.Qual(rt, "Definitions").Call(jen.Id("Gateway").Call(jen.Id("UnimplementedHandlers").Values()))),
	)
	f.Line()
}

// emitFacades writes Facades: one matryoshka facade per group, with its
// categories and usage lines, one line each. golden/github/surfaces_gen.go
// shows the output.
func (g *gen) emitFacades(s *srcFile, rt string) {
	mpkg := rt + "/matryoshka"
	s.text("// Facades returns the matryoshka surface: one facade per group that\n")
	s.text("// unfolds into the group's tools, executed by h.\n")
	s.text("func Facades(h Handlers) []")
	s.qual(rt, "Tool")
	s.text(" {\n")
	specs := Facades(g.fam)
	if len(specs) == 0 {
		s.text("\treturn nil\n}\n")
		return
	}
	if asData(g.fam) {
		s.text("\treturn ")
		s.qual(mpkg, "Facades")
		s.text("(Tools(h), facadeDefs)\n}\n\n")
		s.records("facadeDefs are the facades of Facades as data, one\nmatryoshka.EncodeFacade record each.", "facadeDefs", len(specs), func(i int) string {
			spec := specs[i]
			d := matryoshka.FacadeData{Name: spec.Name, Description: spec.Description, Tools: spec.Tools}
			for _, c := range spec.Categories {
				d.Categories = append(d.Categories, matryoshka.CategoryData{Name: c.Name, Tools: c.Tools})
			}
			for _, t := range spec.Tools {
				d.Usage = append(d.Usage, spec.Usage[t])
			}
			return matryoshka.EncodeFacade(d)
		})
		return
	}
	s.text("\ttools := Tools(h)\n\treturn []")
	s.qual(rt, "Tool")
	s.text("{\n")
	for _, spec := range specs {
		s.text("\t\t")
		s.qual(mpkg, "Facade")
		s.text("(\n\t\t\t")
		s.lit(spec.Name)
		s.text(",\n\t\t\t")
		s.lit(spec.Description)
		s.text(",\n\t\t\t")
		s.qual(rt, "Pick")
		s.text("(tools")
		for _, t := range spec.Tools {
			s.text(", ")
			s.lit(t)
		}
		s.text("),\n")
		for _, c := range spec.Categories {
			s.text("\t\t\t")
			s.qual(mpkg, "Category")
			s.text("(")
			s.lit(c.Name)
			for _, t := range c.Tools {
				s.text(", ")
				s.lit(t)
			}
			s.text("),\n")
		}
		for _, t := range spec.Tools {
			s.text("\t\t\t")
			s.qual(mpkg, "Usage")
			s.text("(")
			s.lit(t)
			s.text(", ")
			s.lit(spec.Usage[t])
			s.text("),\n")
		}
		s.text("\t\t),\n")
	}
	s.text("\t}\n}\n")
}

// emitSectionRecords writes Sections for a family whose definitions are
// data (asData): one prompt.EncodeSection record per group, one a line,
// that prompt.GeneratedSections reads.
func (g *gen) emitSectionRecords(s *srcFile, rt string) {
	ppkg := rt + "/prompt"
	s.decl()
	s.text("// Sections returns the sections surface: one summarized prompt section\n")
	s.text("// per group describing its ops and carrying its tools (executed by h);\n")
	s.text("// open_sections opens them.\nfunc Sections(h Handlers) []")
	s.qual(ppkg, "Section")
	s.text(" {\n\treturn ")
	s.qual(ppkg, "GeneratedSections")
	s.text("(Tools(h), sectionDefs)\n}\n\n")
	secs := Sections(g.fam)
	s.records("sectionDefs are the sections of Sections as data, one\nprompt.EncodeSection record each.", "sectionDefs", len(secs), func(i int) string {
		sec := secs[i]
		return prompt.EncodeSection(prompt.SectionData{Key: sec.Key, Title: sec.Title, Summary: sec.Summary, Template: sec.Template, Tools: sec.Tools})
	})
}

// emitSections writes Sections: one prompt section per group carrying the
// group's tools. golden/github/surfaces_gen.go shows the output.
func (g *gen) emitSections(f *jen.File, rt string, toolSlice *jen.Statement) {
	ppkg := rt + "/prompt"
	var secs []jen.Code
	for _, s := range Sections(g.fam) {
		secs = append(secs, jen.Values(jen.Dict{
			jen.Id("Key"):        strLit(s.Key),
			jen.Id("Title"):      strLit(s.Title),
			jen.Id("Summary"):    strLit(s.Summary),
			jen.Id("Template"):   strLit(s.Template),
			jen.Id("Visibility"): jen.Qual(ppkg, "VisibilitySummary"),
			jen.Id("Generated"):  jen.True(),
			jen.Id("Tools"):      jen.Qual(rt, "Pick").Call(surfPickArgs(s.Tools)...),
		}))
	}
	f.Add(comment("Sections returns the sections surface: one summarized prompt section"))
	f.Add(comment("per group describing its ops and carrying its tools (executed by h);"))
	f.Add(comment("open_sections opens them."))
	body := []jen.Code{jen.Return(jen.Nil())}
	if len(secs) > 0 {
		body = []jen.Code{
			jen.Id("tools").Op(":=").Id("Tools").Call(jen.Id("h")),
			jen.Return(jen.Index().Qual(ppkg, "Section").Values(regLines(secs)...)),
		}
	}
	f.Func().Id("Sections").Params(jen.Id("h").Id("Handlers")).Index().Qual(ppkg, "Section").Block(body...)
	f.Line()
}

// surfPickArgs is the argument list of runtime.Pick(tools, "a", "b", ...).
func surfPickArgs(names []string) []jen.Code {
	args := []jen.Code{jen.Id("tools")}
	for _, n := range names {
		args = append(args, strLit(n))
	}
	return args
}
