package generator

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
)

// TestHostileIRBytes puts bytes JSON cannot carry (invalid UTF-8, NUL, a
// byte order mark, CR) into every string of a hand-built family: the
// callers of Generate are not all the JSON loader. Generation succeeds, the
// files parse, and the tool descriptions and enum values come back exactly
// from their literals.
func TestHostileIRBytes(t *testing.T) {
	const evil = "a\xff\xfe\x00\ufeff\r*/\n/*\n//go:generate x`\"\\"
	fam := githubFamily()
	for _, tl := range fam.Tools {
		tl.Description = evil + tl.Name
	}
	for _, ty := range fam.Types {
		ty.Doc = evil
		for _, fl := range ty.Fields {
			fl.Doc = evil
		}
	}
	fam.Sources = []string{evil}
	files := generateFiles(t, fam)
	lits := map[string]bool{}
	for name, src := range files {
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if bl, ok := n.(*ast.BasicLit); ok && bl.Kind == token.STRING {
				v, err := strconv.Unquote(bl.Value)
				if err != nil {
					t.Errorf("%s: %s: %v", name, fset.Position(bl.Pos()), err)
				}
				lits[v] = true
			}
			return true
		})
		for _, cg := range f.Comments {
			for _, c := range cg.List {
				if len(c.Text) > 2 && c.Text[2] != ' ' && c.Text[2] != '\t' {
					t.Errorf("%s: comment %q", name, c.Text)
				}
			}
		}
	}
	for _, tl := range fam.Tools {
		if !lits[tl.Description] {
			t.Errorf("no literal holds the description of %s byte for byte", tl.Name)
		}
	}
}

// TestRenderErrorIsShort: should the generator ever emit source gofmt
// rejects, the error names the gofmt message and the offending line, not
// the whole file.
func TestRenderErrorIsShort(t *testing.T) {
	f := jen.NewFile("p")
	for i := 0; i < 20000; i++ {
		f.Var().Id("v" + strconv.Itoa(i)).Op("=").Lit(i)
	}
	f.Var().Id("bad").Op("=").Op("`unterminated")
	_, err := render(f)
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	if len(msg) > 800 || !strings.Contains(msg, "does not format") || !strings.Contains(msg, "unterminated") {
		t.Errorf("error (%d bytes): %.1000s", len(msg), msg)
	}
	if got := renderError(errors.New("boom")).Error(); got != "internal error: boom" {
		t.Errorf("renderError(boom) = %q", got)
	}
}

// TestHostileStubs: the user-owned handler file carries tool descriptions
// in its method comments; they are escaped like every generated comment,
// in a new file and in appended stubs.
func TestHostileStubs(t *testing.T) {
	fam := githubFamily()
	for _, tl := range fam.Tools {
		tl.Description = "x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/\n//go:generate touch /tmp/x\n\x00\ufeff"
	}
	for _, appendOnly := range []bool{false, true} {
		src, err := Stubs(fam, StubOptions{Package: "github", Append: appendOnly})
		if err != nil {
			t.Fatal(err)
		}
		text := string(src)
		if appendOnly {
			text = "package github\n" + text
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, "handlers.go", text, parser.ParseComments)
		if err != nil {
			t.Fatalf("append=%v: %v\n%s", appendOnly, err, text)
		}
		for _, d := range f.Decls {
			if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil {
				t.Errorf("append=%v: func %s declared", appendOnly, fd.Name.Name)
			}
		}
		for _, line := range strings.Split(text, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "//go:") || strings.HasPrefix(strings.TrimSpace(line), "/*") {
				t.Errorf("append=%v: line %q", appendOnly, line)
			}
		}
	}
}

// TestGoNamesAreIdentifiers: Go names reach the source unescaped, so a name
// that is not an identifier is a located error, not injected code.
func TestGoNamesAreIdentifiers(t *testing.T) {
	for _, bad := range []string{"A B", "X(){}; func init", "", "type", "Ünï\u202e"} {
		fam := githubFamily()
		fam.Types[0].Fields[0].GoName = bad
		fam.Types[0].Fields[0].Pos = pos("/0/function/parameters/properties/owner")
		_, err := Generate(fam, Options{Package: "github"})
		if bad == "" {
			continue // an empty field name is the compiler's to refuse
		}
		if err == nil || !strings.Contains(err.Error(), "not an identifier") || !strings.Contains(err.Error(), "tools.json:1:1: /0/function/parameters/properties/owner") {
			t.Errorf("GoName %q: err = %v", bad, err)
		}
	}
}
