package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"go/ast"
	"go/build"
	"go/build/constraint"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// userPackage is what the output directory's own Go files (those toolgen
// did not generate; an external _test package is not the package)
// declare, which the generated files must fit beside: the package name,
// the package-level names, and the methods of each type.
type userPackage struct {
	// name is the package clause of the first file, and at its position
	// ("" when the directory has no Go file of its own).
	name, at string
	// decls maps each package-level name to where it is declared.
	decls map[string]string
	// methods maps a type's name to its methods' names.
	methods map[string]map[string]bool
	// broken maps the base name of a file that does not parse to its
	// error.
	broken map[string]error
	// generate is the command of the first //go:generate line that runs
	// toolgen generate ("" when there is none): how the package is
	// regenerated, with the flags its author chose (--stubs).
	generate string
}

// readUserPackage reads the package-level declarations of dir's Go files
// that toolgen did not generate. A missing directory is an empty package.
func readUserPackage(dir string) (*userPackage, error) {
	up := &userPackage{decls: map[string]string{}, methods: map[string]map[string]bool{}, broken: map[string]error{}}
	entries, err := os.ReadDir(dir)
	if err != nil {
		if os.IsNotExist(err) {
			return up, nil
		}
		return nil, err
	}
	fset := token.NewFileSet()
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || !e.Type().IsRegular() {
			continue
		}
		path := filepath.Join(dir, e.Name())
		src, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if isGenerated(src) || excludedFromBuild(dir, e.Name(), src) {
			continue
		}
		if up.generate == "" {
			up.generate = toolgenDirective(src)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			up.broken[e.Name()] = err
			continue
		}
		if strings.HasSuffix(f.Name.Name, "_test") {
			continue
		}
		if up.name == "" && !strings.HasSuffix(e.Name(), "_test.go") {
			up.name, up.at = f.Name.Name, fset.Position(f.Name.Pos()).String()
		}
		up.add(fset, f)
	}
	return up, nil
}

// excludedFromBuild reports whether src, the file name in dir, is outside
// the package in the builds that count: its build constraint is false
// with no build tag set (//go:build ignore on a program run with go run
// beside the package, //go:build tools on a file of tool imports), on
// this platform, and on every other (somePlatformBuilds). Such a file's package clause and names are not the
// package's; a file some platform builds (//go:build windows) still is.
func excludedFromBuild(dir, name string, src []byte) bool {
	expr := buildConstraint(src)
	if expr == nil || expr.Eval(func(string) bool { return false }) {
		return false
	}
	ok, err := build.Default.MatchFile(dir, name)
	return err == nil && !ok && !somePlatformBuilds(expr)
}

// The operating systems and architectures Go knows (internal/syslist),
// and the operating systems the unix tag holds.
var (
	knownOS   = strings.Fields("aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos")
	unixOS    = strings.Fields("aix android darwin dragonfly freebsd hurd illumos ios linux netbsd openbsd solaris")
	knownArch = strings.Fields("386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm")
)

// somePlatformBuilds reports whether expr holds on some platform (GOOS,
// GOARCH, cgo and compiler), with no other tag set but this Go's release
// tags: a file whose constraint names a platform belongs to the package
// wherever toolgen runs.
func somePlatformBuilds(expr constraint.Expr) bool {
	for _, goos := range knownOS {
		for _, arch := range knownArch {
			for _, cgo := range []bool{false, true} {
				for _, compiler := range []string{"gc", "gccgo"} {
					if expr.Eval(func(tag string) bool {
						return tag == goos || tag == arch || tag == compiler ||
							tag == "cgo" && cgo || tag == "unix" && slices.Contains(unixOS, goos) ||
							slices.Contains(build.Default.ReleaseTags, tag)
					}) {
						return true
					}
				}
			}
		}
	}
	return false
}

// buildConstraint is the build constraint of the Go source src: its
// //go:build line, else its // +build lines together; nil for none.
func buildConstraint(src []byte) constraint.Expr {
	var plus constraint.Expr
	for line := range bytes.Lines(src) {
		l := strings.TrimSpace(string(line))
		switch {
		case l == "":
		case constraint.IsGoBuild(l):
			expr, err := constraint.Parse(l)
			if err != nil {
				return nil
			}
			return expr
		case constraint.IsPlusBuild(l):
			if expr, err := constraint.Parse(l); err == nil {
				if plus == nil {
					plus = expr
				} else {
					plus = &constraint.AndExpr{X: plus, Y: expr}
				}
			}
		case strings.HasPrefix(l, "//"):
		default:
			return plus // the constraints precede the package clause
		}
	}
	return plus
}

// toolgenDirective is the command of src's first //go:generate line that
// runs toolgen generate, "" when it has none.
func toolgenDirective(src []byte) string {
	for line := range strings.Lines(string(src)) {
		cmd, ok := strings.CutPrefix(line, "//go:generate ")
		if ok && strings.Contains(cmd, "toolgen generate") {
			return strings.TrimSpace(cmd)
		}
	}
	return ""
}

// add records f's package-level names and methods.
func (up *userPackage) add(fset *token.FileSet, f *ast.File) {
	declare := func(id *ast.Ident) {
		if id.Name != "_" && id.Name != "init" {
			if _, ok := up.decls[id.Name]; !ok {
				up.decls[id.Name] = fset.Position(id.Pos()).String()
			}
		}
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv == nil || len(d.Recv.List) == 0 {
				declare(d.Name)
				continue
			}
			if recv := receiverName(d.Recv.List[0].Type); recv != "" {
				if up.methods[recv] == nil {
					up.methods[recv] = map[string]bool{}
				}
				up.methods[recv][d.Name.Name] = true
			}
		case *ast.GenDecl:
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					declare(s.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						declare(n)
					}
				}
			}
		}
	}
}

// receiverName is the type name of a method's receiver (T, *T, T[P]).
func receiverName(t ast.Expr) string {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch x := t.(type) {
	case *ast.IndexExpr:
		t = x.X
	case *ast.IndexListExpr:
		t = x.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name
	}
	return ""
}

// exported returns the package's exported names, sorted: no generated
// type may take them.
func (up *userPackage) exported() []string {
	var out []string
	for n := range up.decls {
		if ast.IsExported(n) {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// clash returns an error when the generated file src declares a
// package-level name one of the package's own files declares too, located
// at the user's declaration.
func (up *userPackage) clash(file string, src []byte) error {
	if len(up.decls) == 0 {
		return nil
	}
	for _, n := range topLevelNames(src) {
		if at, ok := up.decls[n]; ok {
			return fmt.Errorf("%s: %s is declared here and in the generated %s; rename it here (toolgen names it so in every package)", at, n, file)
		}
	}
	return nil
}

// topLevelNames returns the package-level names gofmt-formatted Go source
// declares (functions, types, variables, constants; not methods), read
// from its lines: a declaration starts at the line's first column, and a
// grouped one at the second inside "var (", "const (" or "type (".
func topLevelNames(src []byte) []string {
	var out []string
	group := false
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(nil, len(src)+1)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case group && line == ")":
			group = false
		case group && strings.HasPrefix(line, "\t") && !strings.HasPrefix(line, "\t\t"):
			// "a, b = …", "a T", "T struct {": names up to the first
			// that no comma follows.
			for rest := line[1:]; ; {
				n := rest[:identEnd(rest)]
				if !isIdent(n) {
					break
				}
				out = append(out, n)
				var more bool
				if rest, more = strings.CutPrefix(rest[len(n):], ", "); !more {
					break
				}
			}
		case line == "var (" || line == "const (" || line == "type (":
			group = true
		case strings.HasPrefix(line, "func ") && !strings.HasPrefix(line, "func ("):
			name, _, _ := strings.Cut(line[len("func "):], "(")
			name, _, _ = strings.Cut(name, "[")
			out = append(out, name)
		default:
			for _, kw := range []string{"var ", "const ", "type "} {
				if rest, ok := strings.CutPrefix(line, kw); ok {
					name, _, _ := strings.Cut(rest, " ")
					name, _, _ = strings.Cut(name, "[")
					if isIdent(name) {
						out = append(out, name)
					}
				}
			}
		}
	}
	return slices.DeleteFunc(out, func(n string) bool { return n == "_" || n == "init" })
}

// identEnd is the length of the identifier s starts with.
func identEnd(s string) int {
	for i, c := range []byte(s) {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return i
		}
	}
	return len(s)
}

// isIdent reports whether s is a Go identifier of ASCII letters, digits
// and underscores (what toolgen emits).
func isIdent(s string) bool {
	return s != "" && (s[0] < '0' || s[0] > '9') && identEnd(s) == len(s)
}
