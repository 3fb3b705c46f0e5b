package cli

import (
	"cmp"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/manifest"
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

// stubsFile is the handler file generate maintains, and where it was
// named: the --stubs flag, or the manifest's stubs key.
type stubsFile struct {
	// path is the file's path (joined to the output directory when the
	// flag named the file alone; resolved against the manifest's folder
	// when the manifest named it).
	path string
	// at is the manifest's stubs entry; nil when the flag named the file.
	at *ir.Pos
	// outRel is the output directory as the manifest names a file in it:
	// relative to the manifest's folder, slash-separated.
	outRel string
}

// name is the handler file's name in the output directory; "" for none.
func (s *stubsFile) name() string {
	if s == nil {
		return ""
	}
	return filepath.Base(s.path)
}

// example is how the user names the handler file name of the output
// directory where they named this one: --stubs NAME, or the manifest's
// stubs: with the path from the manifest's folder.
func (s *stubsFile) example(name string) string {
	if s.at == nil {
		return "--stubs " + name
	}
	return "stubs: " + path.Join(s.outRel, name)
}

// stubsError refuses the handler file generate was asked for: named by
// --stubs, a usage error; named by the manifest, an input error located at
// its stubs entry.
type stubsError struct {
	file *stubsFile
	msg  string
}

func (e *stubsError) Error() string { return e.msg }

// refuseStubs prints err, a stubsError or a stubsGeneratedError found
// for file, and returns the exit code: exitUsage for the flag, exitFail
// for the manifest.
func refuseStubs(stderr io.Writer, file *stubsFile, err error) int {
	var gen *stubsGeneratedError
	if errors.As(err, &gen) && gen.example == "" {
		gen.example = file.example("handlers.go")
	}
	if file.at == nil {
		fmt.Fprintf(stderr, "toolgen generate: %v\n", err)
		return exitUsage
	}
	printError(stderr, jsonpos.ErrorList{jsonpos.Errorf(*file.at, "%s", err.Error())})
	return exitFail
}

// stubsAt is the position of the manifest's stubs entry.
func stubsAt(m *manifest.Manifest) *ir.Pos {
	at := m.StubsPos
	return &at
}

// stubsPath is the handler file generate maintains, nil for none: the
// --stubs flag (a bare file name is in the output directory; a path is
// taken as given), else the manifest's stubs key (relative to the
// manifest). It must be a Go file the package builds with (NAME.go, not a
// test file, not one go build ignores), lie in the output directory (a
// handler file anywhere else would be another package), be a regular file
// if it exists, and not be toolgen's: a file with the generated header is
// refused here, one generate writes by writePackage.
func stubsPath(p *project, flag string) (*stubsFile, error) {
	s := &stubsFile{path: flag}
	switch {
	case flag != "" && filepath.Base(flag) == flag:
		s.path = filepath.Join(p.outDir, flag)
	case flag == "" && p.manifest != nil && p.manifest.Stubs != "":
		s.path = p.manifest.Resolve(filepath.FromSlash(p.manifest.Stubs))
		s.at = stubsAt(p.manifest)
	}
	if s.path == "" {
		return nil, nil
	}
	out, err := filepath.Abs(p.outDir)
	if err != nil {
		return nil, err
	}
	named := flag // the file as the user wrote it
	if s.at != nil {
		named = p.manifest.Stubs
		dir, err := filepath.Abs(p.manifest.Resolve("."))
		if err != nil {
			return nil, err
		}
		if rel, err := filepath.Rel(dir, out); err == nil {
			s.outRel = filepath.ToSlash(rel)
		}
	}
	base := filepath.Base(s.path)
	if why, better := stubsNameProblem(base); why != "" {
		return nil, &stubsError{s, fmt.Sprintf("stubs file %s %s (e.g. %s)", named, why, s.example(better))}
	}
	dir, err := filepath.Abs(filepath.Dir(s.path))
	if err != nil {
		return nil, err
	}
	if dir != out {
		how := "name the file alone"
		if s.at != nil {
			how = "name a file of the output directory"
		}
		return nil, &stubsError{s, fmt.Sprintf("stubs file %s is not in the output directory %s: handlers must be in package %s (%s, e.g. %s)",
			named, p.outDir, p.family.Package, how, s.example(base))}
	}
	if info, err := os.Stat(s.path); err == nil && !info.Mode().IsRegular() {
		return nil, &stubsError{s, fmt.Sprintf("stubs file %s is %s, not a regular file: name a Go file of your own (e.g. %s)",
			named, fileKind(info.Mode()), s.example("handlers.go"))}
	}
	if isToolgenFile(s.path) {
		return nil, &stubsError{s, (&stubsGeneratedError{path: s.path, example: s.example("handlers.go")}).Error()}
	}
	return s, nil
}

// stubsNameProblem says what keeps base from naming the handler file, a
// Go file the package always builds with, and a name that would do;
// "" when nothing does. (A name with a GOOS or GOARCH suffix,
// handlers_linux.go, builds on that platform only: it is not recognised
// here.)
func stubsNameProblem(base string) (why, better string) {
	stem := strings.TrimSuffix(base, filepath.Ext(base))
	switch {
	case !strings.HasSuffix(base, ".go"):
		why = "is not a Go file: the handler file is Go source of the package, named NAME.go"
	case strings.HasSuffix(base, "_test.go"):
		why = "is a test file: the package's own build would lack its handler type"
		stem = strings.TrimSuffix(base, "_test.go")
	case strings.HasPrefix(base, "_") || strings.HasPrefix(base, "."):
		why = "is a file go build ignores (its name starts with _ or .)"
	default:
		return "", ""
	}
	stem = strings.TrimLeft(stem, "_.")
	if stem == "" {
		stem = "handlers"
	}
	return why, stem + ".go"
}

// stubsGeneratedError refuses a stubs file that is toolgen's own: one
// generate writes (writePackage) or one with the generated header.
// generate would overwrite or remove it, losing the stubs appended to it,
// and would first refuse it as edited by hand. example is how to name a
// handler file instead (refuseStubs sets it; --stubs handlers.go if
// unset).
type stubsGeneratedError struct{ path, example string }

func (e *stubsGeneratedError) Error() string {
	return fmt.Sprintf("stubs file %s is a file toolgen generates: generate rewrites or removes it, and the stubs appended to it would be lost; name a handler file of your own (e.g. %s); nothing was written",
		e.path, cmp.Or(e.example, "--stubs handlers.go"))
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
