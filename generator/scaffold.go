package generator

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"strconv"

	"github.com/dave/jennifer/jen"
	"golang.org/x/tools/go/ast/astutil"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/names"
)

// StubOptions configures Stubs.
type StubOptions struct {
	// Package is the Go package name.
	Package string
	// Receiver is the handler type's name (default DefaultReceiver).
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

// DefaultReceiver is the name of the handler type Stubs declares.
const DefaultReceiver = "Service"

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
	out, err := renderStubs(f, opt)
	if out == nil || err != nil {
		return nil, err
	}
	if opt.Append {
		_, decls, err := splitImports(out)
		return decls, err
	}
	return format.Source(out)
}

// renderStubs renders the stubs file with jennifer (with its imports also
// when opt.Append); nil when every tool has a method already.
func renderStubs(f *ir.Family, opt StubOptions) ([]byte, error) {
	recv := opt.Receiver
	if recv == "" {
		recv = DefaultReceiver
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
	file.ImportName(rt, "runtime") // no redundant alias
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
		result := jen.Qual(rt, "ToolResult").Types(jen.Id(resultName(t)))
		file.Line()
		file.Add(commentf("%s serves %s: %s", t.GoName, t.Name, firstSentence(t.Description)))
		file.Func().Params(jen.Id("s").Op("*").Id(recv)).Id(t.GoName).Params(
			jen.Id("ctx").Qual("context", "Context"),
			jen.Id("tc").Qual(rt, "ToolContext"),
			jen.Id("p").Op("*").Id(paramsName(t)),
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
	return groupImports(buf.Bytes()), nil
}

// groupImports splits the import block jennifer renders (every path
// sorted in one group) as goimports groups it: the standard library's
// paths, a blank line, the others.
func groupImports(src []byte) []byte {
	start := bytes.Index(src, []byte("\nimport (\n"))
	if start < 0 {
		return src
	}
	start += len("\nimport (\n")
	end := bytes.Index(src[start:], []byte("\n)\n"))
	if end < 0 {
		return src
	}
	end += start + 1
	var std, other [][]byte
	for line := range bytes.Lines(src[start:end]) {
		spec := bytes.TrimSpace(line)
		path := spec[bytes.LastIndexByte(spec, ' ')+1:]
		if p, err := strconv.Unquote(string(path)); err == nil && stdPath(p) {
			std = append(std, line)
		} else {
			other = append(other, line)
		}
	}
	if len(std) == 0 || len(other) == 0 {
		return src
	}
	out := make([]byte, 0, len(src)+1)
	out = append(out, src[:start]...)
	out = append(out, bytes.Join(std, nil)...)
	out = append(out, '\n')
	out = append(out, bytes.Join(other, nil)...)
	return append(out, src[end:]...)
}

// AppendStubs returns old, the source of the handler file at path, with
// the stubs of the tools it lacks appended (opt.Existing names them; Append
// is implied): the imports the stubs need and old lacks are added to its
// import declarations with go/ast, and the stub declarations follow the
// file. It returns nil when every tool has a method already.
func AppendStubs(path string, old []byte, f *ir.Family, opt StubOptions) ([]byte, error) {
	opt.Append = true
	src, err := renderStubs(f, opt)
	if src == nil || err != nil {
		return nil, err
	}
	stubs, decls, err := splitImports(src)
	if err != nil {
		return nil, err
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, path, old, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	for _, im := range stubs.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			return nil, err
		}
		name := ""
		if im.Name != nil {
			name = im.Name.Name
		}
		astutil.AddNamedImport(fset, file, name, p)
	}
	var buf bytes.Buffer
	if err := format.Node(&buf, fset, file); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	buf.Write(decls)
	return format.Source(buf.Bytes())
}

// splitImports parses a rendered stubs file and returns it with the source
// of its declarations after the imports (doc comments included).
func splitImports(src []byte) (*ast.File, []byte, error) {
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "stubs.go", src, parser.ParseComments|parser.SkipObjectResolution)
	if err != nil {
		return nil, nil, fmt.Errorf("generator: stubs do not parse: %w", err)
	}
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.IMPORT {
			continue
		}
		start := d.Pos()
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		case *ast.GenDecl:
			if d.Doc != nil {
				start = d.Doc.Pos()
			}
		}
		return file, src[fset.Position(start).Offset:], nil
	}
	return file, nil, nil
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
