package cli

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"

	"golang.org/x/tools/imports"

	"github.com/toolgen-go/toolgen/generator"
)

// writeStubs creates the user-owned handler file at path with a stub per
// tool, or, when it exists, appends stubs only for tools it has no method
// for. Existing code is never rewritten.
func writeStubs(p *project, path string, stdout, stderr io.Writer) int {
	old, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	opt := generator.StubOptions{Package: p.family.Package}
	if old != nil {
		existing, recv, err := handlerMethods(path, old)
		if err != nil {
			fmt.Fprintf(stderr, "toolgen: %v\n", err)
			return exitFail
		}
		opt.Existing, opt.Append = existing, true
		if recv != "" {
			opt.Receiver = recv
		}
	}
	stubs, err := generator.Stubs(p.family, opt)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if stubs == nil {
		return exitOK // every tool has a method already
	}
	data := stubs
	if old != nil {
		combined := append(append([]byte{}, old...), stubs...)
		if data, err = imports.Process(path, combined, nil); err != nil {
			fmt.Fprintf(stderr, "toolgen: appending stubs to %s: %v\n", path, err)
			return exitFail
		}
	}
	if err := writeAtomic(path, data); err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	verb := "wrote"
	if old != nil {
		verb = "appended stubs to"
	}
	fmt.Fprintf(stdout, "%s %s\n", verb, path)
	return exitOK
}

// handlerMethods returns the names of the methods declared in a Go file
// and the receiver type most of them use.
func handlerMethods(path string, src []byte) (map[string]bool, string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), path, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, "", err
	}
	methods := map[string]bool{}
	count := map[string]int{}
	recv := ""
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || len(fn.Recv.List) == 0 {
			continue
		}
		methods[fn.Name.Name] = true
		t := fn.Recv.List[0].Type
		if s, ok := t.(*ast.StarExpr); ok {
			t = s.X
		}
		if id, ok := t.(*ast.Ident); ok {
			count[id.Name]++
			if count[id.Name] > count[recv] {
				recv = id.Name
			}
		}
	}
	return methods, recv, nil
}
