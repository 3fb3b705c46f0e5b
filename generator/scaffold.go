package generator

import (
	"bytes"
	"fmt"
	"go/format"
	"go/token"
	"strconv"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/names"
)

// StubOptions configures Stubs.
type StubOptions struct {
	// Package is the Go package name.
	Package string
	// Receiver is the handler type's name (default "Service").
	Receiver string
	// Existing lists the tools whose methods the file already has; Stubs
	// skips them.
	Existing map[string]bool
	// Append emits only the methods (no package clause, imports or type),
	// for appending to an existing handler file.
	Append bool
	// RuntimeModule is the module path of the runtime packages, as in
	// Options (DefaultRuntimeModule when empty).
	RuntimeModule string
}

// Stubs emits user-owned handler stubs for f's tools: a Service type and one
// method per tool returning runtime.NotImplemented. The file carries no
// generated-code header: it belongs to the user once written.
//
//	// Service implements Handlers.
//	type Service struct{}
//
//	// ListTodos serves list_todos: List todo items.
//	func (s *Service) ListTodos(ctx context.Context, tc runtime.ToolContext, p *ListTodosParams) (runtime.ToolResult[ListTodosResult], error) {
//		return runtime.ToolResult[ListTodosResult]{}, runtime.NotImplemented("list_todos")
//	}
func Stubs(f *ir.Family, opt StubOptions) ([]byte, error) {
	recv := opt.Receiver
	if recv == "" {
		recv = "Service"
	}
	if why := names.CheckPackageName(opt.Package); why != "" {
		return nil, fmt.Errorf("generator: package name: %s", why)
	}
	if !token.IsIdentifier(recv) {
		return nil, fmt.Errorf("generator: receiver %s is not a Go identifier", strconv.Quote(recv))
	}
	mod := opt.RuntimeModule
	if mod == "" {
		mod = DefaultRuntimeModule
	}
	rt := mod + "/runtime"
	file := jen.NewFile(opt.Package)
	if !opt.Append {
		headerLine(file, "Handlers for the "+opt.Package+" tools, scaffolded by toolgen. This file is yours to edit:")
		headerLine(file, "toolgen never overwrites it (toolgen generate --stubs only appends methods for new tools).")
		file.Add(commentf("%s implements Handlers.", recv))
		file.Type().Id(recv).Struct()
		file.Line()
		file.Var().Id("_").Id("Handlers").Op("=").Parens(jen.Op("*").Id(recv)).Parens(jen.Nil())
	}
	n := 0
	for _, t := range f.Tools {
		if opt.Existing[t.GoName] {
			continue
		}
		n++
		result := jen.Qual(rt, "ToolResult").Types(jen.Id(t.GoName + "Result"))
		file.Line()
		file.Add(commentf("%s serves %s: %s", t.GoName, t.Name, firstSentence(t.Description)))
		file.Func().Params(jen.Id("s").Op("*").Id(recv)).Id(t.GoName).Params(
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("tc").Qual(rt, "ToolContext"),
			jen.Id("p").Op("*").Id(t.GoName+"Params"),
		).Params(result, jen.Error()).Block(
			jen.Return(result.Clone().Values(), jen.Qual(rt, "NotImplemented").Call(strLit(t.Name))),
		)
	}
	if n == 0 {
		return nil, nil
	}
	var buf bytes.Buffer
	if err := file.Render(&buf); err != nil {
		return nil, err
	}
	out := buf.Bytes()
	if opt.Append {
		// Keep only the declarations after the import block.
		s := string(out)
		if i := strings.Index(s, "\n)\n"); i >= 0 && strings.Contains(s[:i], "import (") {
			s = s[i+3:]
		} else if i := strings.Index(s, "\nimport "); i >= 0 {
			j := strings.Index(s[i+1:], "\n")
			s = s[i+1+j+1:]
		}
		return []byte(s), nil
	}
	return format.Source(out)
}

// firstSentence returns the first sentence (or line) of a description,
// for one-line comments: at most 160 bytes, cut on a word or rune boundary
// (Go source must stay valid UTF-8).
func firstSentence(s string) string {
	if s = check.FirstSentence(s, 160); s == "" {
		return "(no description)"
	}
	return s
}
