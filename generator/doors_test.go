package generator

import (
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"path/filepath"
	"strings"
	"testing"
)

// TestTextDoors holds the rule of text.go by reading the generator's own
// source: outside text.go no code writes a comment with jennifer directly
// (Comment, Commentf, HeaderComment, PackageComment), passes a computed
// string to Op (it is written verbatim), or passes a string-typed value
// that is not a constant to Lit; definition text goes through comment,
// strLit, numLit and constLit. Text written directly (srcfile.go)
// passes only constants to srcFile.text, and no other file touches its
// buffer.
func TestTextDoors(t *testing.T) {
	if testing.Short() {
		t.Skip("type-checks the generator from source")
	}
	fset := token.NewFileSet()
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, f)
	}
	info := &types.Info{Types: map[ast.Expr]types.TypeAndValue{}, Uses: map[*ast.Ident]types.Object{}}
	conf := types.Config{Importer: importer.ForCompiler(fset, "source", nil)}
	if _, err := conf.Check("github.com/toolgen-go/toolgen/generator", fset, files, info); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if filepath.Base(fset.Position(f.Pos()).Filename) == "text.go" {
			continue
		}
		direct := filepath.Base(fset.Position(f.Pos()).Filename) == "srcfile.go"
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok && !direct && sel.Sel.Name == "buf" && isSrcFile(info.Types[sel.X].Type) {
				t.Errorf("%s: srcFile.buf written outside srcfile.go; use text, ident, lit, rawLit or comment", fset.Position(sel.Pos()))
			}
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			sel, ok := call.Fun.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			// srcFile.text writes its argument verbatim: constants only.
			if sel.Sel.Name == "text" && isSrcFile(info.Types[sel.X].Type) && len(call.Args) == 1 {
				if tv := info.Types[call.Args[0]]; tv.Value == nil {
					t.Errorf("%s: srcFile.text of a computed string is written verbatim; use lit, rawLit, ident or comment", fset.Position(call.Pos()))
				}
				return true
			}
			// Only jennifer's own builders write Go source verbatim.
			if obj := info.Uses[sel.Sel]; obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "github.com/dave/jennifer/jen" {
				return true
			}
			at := fset.Position(call.Pos())
			switch sel.Sel.Name {
			case "Comment", "Commentf", "HeaderComment", "PackageComment":
				t.Errorf("%s: %s writes a comment around gotext; use comment or commentf", at, sel.Sel.Name)
			case "Op":
				// Op(op) passes a comparison operator chosen from constants.
				if id, ok := call.Args[0].(*ast.Ident); len(call.Args) == 1 && !(ok && id.Name == "op") {
					if tv := info.Types[call.Args[0]]; tv.Value == nil {
						t.Errorf("%s: Op of a computed string is written verbatim; use strLit or numLit", at)
					}
				}
			case "Lit":
				for _, a := range call.Args {
					tv := info.Types[a]
					if b, ok := tv.Type.Underlying().(*types.Basic); ok && b.Info()&types.IsString != 0 && tv.Value == nil {
						t.Errorf("%s: Lit of a computed string; use strLit (definition text has one door)", at)
					}
				}
			}
			return true
		})
	}
}

// isSrcFile reports whether t is srcFile or a pointer to it.
func isSrcFile(t types.Type) bool {
	if p, ok := t.(*types.Pointer); ok {
		t = p.Elem()
	}
	n, ok := t.(*types.Named)
	return ok && n.Obj().Name() == "srcFile"
}
