package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dave/jennifer/jen"
	"golang.org/x/mod/modfile"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/schema/names"
	"github.com/toolgen-go/toolgen/templates"
)

// sourceFiles are the files of a new family that are not generated, in
// the order new writes them; the generated files and handlers.go follow.
var sourceFiles = []string{"tools.json", "toolgen.yaml", "README.md", "doc.go"}

// familyFiles renders the templates of a new family (a variable so that
// a test can hand new a scaffold that fails).
var familyFiles = templates.FamilyFiles

// runNew scaffolds a family. It is all or nothing: the whole family (the
// templates, doc.go, the generated files and handlers.go) is built in a
// temporary directory first, and only a family that builds without an
// error or a warning is copied to its directory; a copy that fails is
// removed again, so that a retry finds the directory as it was.
func runNew(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("new", stdout, stderr)
	out := fs.StringP("out", "o", "", "`DIR` to create (default: NAME)")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "toolgen new: takes exactly one NAME")
		shortUsage(stderr, "new")
		return exitUsage
	}
	name := fs.Arg(0)
	if why := names.CheckPackageName(name); why != "" {
		fmt.Fprintf(stderr, "toolgen: %q is not a valid package name: %s\n", name, why)
		return exitUsage
	}
	if name != packageName(name) {
		fmt.Fprintf(stderr, "toolgen: %q is not a valid package name; use lowercase letters and digits, e.g. %q\n", name, packageName(name))
		return exitUsage
	}
	if name == "main" {
		fmt.Fprintf(stderr, "toolgen: %q cannot name a tool family: a family is a package to import, and package main builds only as a program; choose another name\n", name)
		return exitUsage
	}
	dir := *out
	if dir == "-" {
		fmt.Fprintf(stderr, "toolgen new: %s\n", outDash)
		shortUsage(stderr, "new")
		return exitUsage
	}
	if dir == "" {
		dir = name
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		fmt.Fprintf(stderr, "toolgen: %s exists and is not a directory; choose another directory\n", dir)
		return exitFail
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		fmt.Fprintf(stderr, "toolgen: %s exists and is not empty; choose another directory\n", dir)
		return exitFail
	}
	files, err := familyFiles(templates.Family{Package: name})
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if msg := starterNamesTooLong(name, files["tools.json"]); msg != "" {
		fmt.Fprintf(stderr, "toolgen: %s\n", msg)
		return exitUsage
	}
	doc, err := docFile(name)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	files["doc.go"] = doc
	order, built, code := buildScaffold(name, dir, files, stdin, stderr)
	if code != exitOK {
		return code
	}
	if err := writeScaffold(dir, order, built); err != nil {
		fmt.Fprintf(stderr, "toolgen: %v; removed what was written\n", err)
		return exitFail
	}
	for _, n := range order {
		fmt.Fprintf(stdout, "wrote %s\n", joinOut(dir, n))
	}
	fmt.Fprintf(stdout, "\nNext: edit %s, run go generate %s, and implement handlers.go.\n", joinOut(dir, "tools.json"), goDirPattern(dir))
	if hint := toolDirectiveHint(dir); hint != "" {
		fmt.Fprintln(stdout, hint)
	}
	return exitOK
}

// starterNamesTooLong says why name is too long for the starter tools'
// names in tools.json, the rendered template, or returns "": each holds
// name once, and model providers refuse a tool name over
// runtime.MaxNameLen bytes.
func starterNamesTooLong(name string, toolsJSON []byte) string {
	var defs []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	}
	if err := json.Unmarshal(toolsJSON, &defs); err != nil {
		return fmt.Sprintf("the starter tools.json does not parse: %v", err)
	}
	longest := ""
	for _, d := range defs {
		if len(d.Function.Name) > len(longest) {
			longest = d.Function.Name
		}
	}
	if len(longest) <= runtime.MaxNameLen {
		return ""
	}
	most := runtime.MaxNameLen - (len(longest) - len(name))
	return fmt.Sprintf("%q is too long for a tool family: it is %d bytes, which makes the starter tool name %s %d bytes long, and model providers accept tool names of at most %d bytes; use a name of at most %d bytes",
		name, len(name), longest, len(longest), runtime.MaxNameLen, most)
}

// buildScaffold writes files (name → content) to a temporary directory
// and runs the pipeline there, as new would in dir: it generates the
// package and handlers.go. It returns the family's files in the order to
// write them and their content, or the exit code of a failure, whose
// messages name dir rather than the temporary directory. A warning fails
// too: a new family builds cleanly, or it is not written.
func buildScaffold(name, dir string, files map[string][]byte, stdin io.Reader, stderr io.Writer) ([]string, map[string][]byte, int) {
	tmp, err := os.MkdirTemp("", "toolgen-new-*")
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return nil, nil, exitFail
	}
	defer os.RemoveAll(tmp)
	var msgs bytes.Buffer
	defer func() {
		// Messages name the files where they will be, not where they
		// were built.
		text := msgs.String()
		for _, t := range tempNames(tmp) {
			text = strings.ReplaceAll(text, t, filepath.Clean(dir))
		}
		io.WriteString(stderr, text)
	}()
	for _, n := range sourceFiles {
		if err := os.WriteFile(filepath.Join(tmp, n), files[n], 0o644); err != nil {
			fmt.Fprintf(&msgs, "toolgen: %v\n", err)
			return nil, nil, exitFail
		}
	}
	p, code := buildProject(genFlags{config: filepath.Join(tmp, "toolgen.yaml"), out: tmp}, nil, stdin, &msgs)
	if p == nil {
		fmt.Fprintf(&msgs, "toolgen: the scaffold of %q does not build (a bug in toolgen new); nothing was written\n", name)
		return nil, nil, code
	}
	if len(p.family.Warnings) > 0 {
		fmt.Fprintf(&msgs, "toolgen: the scaffold of %q builds with warnings (a bug in toolgen new); nothing was written\n", name)
		return nil, nil, exitFail
	}
	if _, code := writeGenerated(p, io.Discard, &msgs); code != exitOK {
		fmt.Fprintf(&msgs, "toolgen: the scaffold of %q does not generate; nothing was written\n", name)
		return nil, nil, code
	}
	if code := writeStubs(p, filepath.Join(tmp, "handlers.go"), io.Discard, &msgs); code != exitOK {
		fmt.Fprintf(&msgs, "toolgen: the handlers of %q do not generate; nothing was written\n", name)
		return nil, nil, code
	}
	order := append(slices.Clone(sourceFiles), p.files...)
	order = append(order, "handlers.go")
	built := map[string][]byte{}
	for _, n := range order {
		data, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(n)))
		if err != nil {
			fmt.Fprintf(&msgs, "toolgen: %v\n", err)
			return nil, nil, exitFail
		}
		built[n] = data
	}
	return order, built, exitOK
}

// tempNames are the spellings of the temporary directory tmp that
// messages may use, longest first.
func tempNames(tmp string) []string {
	out := []string{tmp}
	if real, err := filepath.EvalSymlinks(tmp); err == nil && real != tmp {
		out = append(out, real)
	}
	slices.SortFunc(out, func(a, b string) int { return len(b) - len(a) })
	return out
}

// writeScaffold writes the files of order (slash-separated paths relative
// to dir) with their content in built. On an error it removes what it
// wrote, and the directories it created, before returning it.
func writeScaffold(dir string, order []string, built map[string][]byte) (err error) {
	var made, written []string
	defer func() {
		if err == nil {
			return
		}
		for i := len(written) - 1; i >= 0; i-- {
			os.Remove(written[i])
		}
		for i := len(made) - 1; i >= 0; i-- {
			os.Remove(made[i]) // only if empty
		}
	}()
	for _, n := range order {
		path := filepath.Join(dir, filepath.FromSlash(n))
		dirs, err := mkdirAll(filepath.Dir(path))
		made = append(made, dirs...)
		if err != nil {
			return err
		}
		if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
			// Something appeared since dir was found empty.
			return fmt.Errorf("%s: exists; refusing to overwrite it", path)
		}
		if err := writeAtomic(path, built[n]); err != nil {
			return err
		}
		written = append(written, path)
	}
	return nil
}

// goDirPattern is dir as a go command package pattern: an absolute path
// as it is, a relative one cleaned and starting with ./ or ../ (a bare
// name would be read as an import path).
func goDirPattern(dir string) string {
	clean := filepath.Clean(dir)
	if filepath.IsAbs(clean) {
		return filepath.ToSlash(clean)
	}
	if clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(clean)
	}
	return "./" + filepath.ToSlash(clean)
}

// toolPath is the import path "go tool toolgen" runs.
const toolPath = "github.com/toolgen-go/toolgen/cmd/toolgen"

// toolDirectiveHint tells the one command to run when the module holding
// dir does not record toolgen as a tool (the scaffold's go:generate line
// runs "go tool toolgen"), or "" when it does.
func toolDirectiveHint(dir string) string {
	gomod := findGoMod(dir)
	if gomod == "" {
		return "The go:generate line runs \"go tool toolgen\": in your module, run\n\tgo get -tool " + toolPath
	}
	data, err := os.ReadFile(gomod)
	if err != nil {
		return ""
	}
	mf, err := modfile.Parse(gomod, data, nil)
	if err != nil {
		return ""
	}
	for _, t := range mf.Tool {
		if t.Path == toolPath {
			return ""
		}
	}
	return fmt.Sprintf("%s does not record toolgen as a tool, which the go:generate line runs; run\n\tgo get -tool %s", gomod, toolPath)
}

// findGoMod returns the go.mod of the module holding dir, or "".
func findGoMod(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	for {
		p := filepath.Join(abs, "go.mod")
		if _, err := os.Stat(p); err == nil {
			return p
		}
		parent := filepath.Dir(abs)
		if parent == abs {
			return ""
		}
		abs = parent
	}
}

// docFile builds the family's doc.go:
//
//	// Package NAME is a tool family generated by toolgen from tools.json.
//	package NAME
//
//	//go:generate go tool toolgen generate -q -c toolgen.yaml --stubs handlers.go
func docFile(pkg string) ([]byte, error) {
	f := jen.NewFile(pkg)
	f.PackageComment(fmt.Sprintf("Package %s is a tool family generated by toolgen from tools.json;\nhandlers.go holds its handlers.", pkg))
	f.Comment("//go:generate go tool toolgen generate -q -c toolgen.yaml --stubs handlers.go")
	var buf bytes.Buffer
	if err := f.Render(&buf); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
