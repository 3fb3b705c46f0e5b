package cli

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"strings"

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
		opt.Existing = existing
		if recv != "" {
			opt.Receiver = recv
		}
		// Handlers moved to other files of the package count too.
		for m := range p.user.methods[cmp.Or(opt.Receiver, generator.DefaultReceiver)] {
			opt.Existing[m] = true
		}
		reportOrphans(stderr, path, old, p)
	}
	var data []byte
	if old == nil {
		data, err = generator.Stubs(p.family, opt)
	} else if data, err = generator.AppendStubs(path, old, p.family, opt); err != nil {
		err = fmt.Errorf("appending stubs to %s: %w", path, err)
	}
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if data == nil {
		return exitOK // every tool has a method already
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

// stubsPath is the handler file generate maintains: the --stubs flag (a
// bare file name is in the output directory; a path is taken as given),
// else the manifest's stubs key (relative to the manifest). It must lie in
// the output directory: a handler file anywhere else would be another
// package. And it must not be toolgen's: a file with the generated header
// is refused here, one generate writes by writePackage.
func stubsPath(p *project, flag string) (string, error) {
	path := flag
	switch {
	case flag != "" && filepath.Base(flag) == flag:
		path = filepath.Join(p.outDir, flag)
	case flag == "" && p.manifest != nil && p.manifest.Stubs != "":
		path = p.manifest.Resolve(filepath.FromSlash(p.manifest.Stubs))
	}
	if path == "" {
		return "", nil
	}
	dir, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return "", err
	}
	out, err := filepath.Abs(p.outDir)
	if err != nil {
		return "", err
	}
	if dir != out {
		return "", fmt.Errorf("stubs file %s is not in the output directory %s: handlers must be in package %s (name the file alone, e.g. --stubs %s)",
			path, p.outDir, p.family.Package, filepath.Base(path))
	}
	if isToolgenFile(path) {
		return "", &stubsGeneratedError{path: path}
	}
	return path, nil
}

// stubsGeneratedError refuses a stubs file that is toolgen's own: one
// generate writes (writePackage) or one with the generated header.
// generate would overwrite or remove it, losing the stubs appended to it,
// and would first refuse it as edited by hand.
type stubsGeneratedError struct{ path string }

func (e *stubsGeneratedError) Error() string {
	return fmt.Sprintf("stubs file %s is a file toolgen generates: generate rewrites or removes it, and the stubs appended to it would be lost; name a handler file of your own (e.g. --stubs handlers.go); nothing was written", e.path)
}

// reportOrphans warns about handler methods in src whose tool is gone: a
// method shaped like a handler (context, ToolContext, *XParams) whose params
// type the package no longer declares. The package does not compile until
// they are deleted, so each is named with its position and lines.
func reportOrphans(w io.Writer, path string, src []byte, p *project) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution|parser.ParseComments)
	if err != nil {
		return
	}
	declared := map[string]bool{}
	for _, t := range p.family.Tools {
		declared[t.Params.GoName] = true
	}
	for _, t := range p.family.Types {
		declared[t.GoName] = true
	}
	n := 0
	for _, d := range f.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || fn.Type.Params == nil {
			continue
		}
		params := fn.Type.Params.List
		if len(params) == 0 {
			continue
		}
		star, ok := params[len(params)-1].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		id, ok := star.X.(*ast.Ident)
		if !ok || !strings.HasSuffix(id.Name, "Params") || declared[id.Name] {
			continue
		}
		start, end := fset.Position(fn.Pos()), fset.Position(fn.End())
		if fn.Doc != nil {
			start = fset.Position(fn.Doc.Pos())
		}
		fmt.Fprintf(w, "%s:%d:%d: warning: handler method %s serves no tool any more (%s is no longer generated); delete lines %d-%d or the package will not compile\n",
			path, start.Line, start.Column, fn.Name.Name, id.Name, start.Line, end.Line)
		n++
	}
	if n > 0 {
		fmt.Fprintf(w, "toolgen: %d orphaned handler method(s) in %s\n", n, path)
	}
}
