package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/token"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// defaultManifest is read when -c is not given and the file exists.
const defaultManifest = "toolgen.yaml"

// project is everything one generate/check run works on.
type project struct {
	manifest *manifest.Manifest // nil without a manifest
	family   *ir.Family
	limits   limits.Limits
	outDir   string
	// user is what the output directory's own Go files declare.
	user *userPackage
	// interrupted, when set, stops generate between files once it
	// returns an error.
	interrupted func() error
	// force lets generate overwrite and remove generated files edited by
	// hand (--force).
	force bool
	// files are the paths (relative to outDir) of the files the last
	// generate call produced, in output order.
	files []string
}

// loadProject reads the manifest and inputs and builds the family with its
// taxonomy. Located errors are returned as jsonpos.ErrorList.
func loadProject(fl genFlags, args []string, stdin io.Reader) (*project, error) {
	p := &project{}
	manifestPath := manifestPath(fl.config)
	// Manifest errors do not stop the run: the inputs' errors are
	// reported with them, sorted by position.
	var manifestErrs jsonpos.ErrorList
	var files []string
	if manifestPath != "" {
		data, err := readManifest(manifestPath, fl.manifestData)
		if err != nil {
			return nil, err
		}
		p.manifest, manifestErrs = manifest.Decode(manifestPath, data)
		if len(manifestErrs) > 0 && toolsAsManifest(data) {
			manifestErrs = jsonpos.ErrorList{jsonpos.Errorf(ir.Pos{File: manifestPath, Line: 1, Col: 1},
				"this is a file of tool definitions, not a manifest: pass it as an input (toolgen generate %s), and a manifest (toolgen.yaml) with -c", manifestPath)}
		}
		if p.manifest != nil {
			p.manifest.Partial = fl.partial
		}
		files = append(files, manifestPath)
	}

	names := args
	if len(names) == 0 && p.manifest != nil {
		names = p.manifest.InputPaths()
	}
	if len(names) == 0 {
		if len(manifestErrs) > 0 {
			return nil, manifestErrs
		}
		return nil, errors.New("no input files: name them as arguments or in the manifest's inputs")
	}
	var inputLimits limits.Limits
	if p.manifest != nil {
		inputLimits = p.manifest.Limits
	}
	inputs, err := readInputs(names, stdin, inputLimits.WithDefaults().InputBytes)
	var unread inputErrors
	if errors.As(err, &unread) {
		var named *manifest.Manifest // the manifest naming the inputs
		if len(args) == 0 {
			named = p.manifest
		}
		return nil, unreadInputs(named, unread, files, manifestErrs)
	}
	limitMemory(inputs)

	p.outDir = fl.out
	if p.outDir == "" && p.manifest != nil {
		// output is relative to the manifest, as inputs are; without it
		// the package is the manifest's folder.
		out := p.manifest.Output
		if out == "" {
			out = "."
		}
		p.outDir = p.manifest.Resolve(filepath.FromSlash(out))
	}
	if p.outDir == "" {
		p.outDir = "."
	}
	if info, err := os.Stat(p.outDir); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("output directory %s is a file; name a directory with -o (or the manifest's output)", p.outDir)
	}
	if p.user, err = readUserPackage(p.outDir); err != nil {
		return nil, err
	}
	pkg, asked := fl.pkg, "-p"
	if pkg == "" && p.manifest != nil {
		pkg, asked = p.manifest.Package, "the manifest's package"
	}
	if pkg != "" && p.user.name != "" && pkg != p.user.name {
		return nil, fmt.Errorf("%s: the output directory's Go files are package %s, but %s is %s; a directory holds one package", p.user.at, p.user.name, asked, pkg)
	}
	if pkg == "" {
		pkg = p.user.name
	}
	if pkg == "" {
		abs, err := filepath.Abs(p.outDir)
		if err != nil {
			return nil, err
		}
		pkg, asked = packageName(filepath.Base(abs)), "the output directory's name"
	}
	if pkg == "main" && p.user.name != "main" && !fl.readOnly {
		// A generated package is a library; package main builds only
		// beside a func main of the user's own.
		return nil, fmt.Errorf("%s is main, which builds only as a program: generate into a package of its own (-p NAME, or -o DIR) and import it from your main package, or put a file of package main with func main in the output directory first", asked)
	}
	lenient := fl.lenient || (p.manifest != nil && p.manifest.Lenient)
	reserved := p.user.exported()
	if fl.stubs || p.manifest != nil && p.manifest.Stubs != "" {
		reserved = append(reserved, generator.DefaultReceiver) // the handler file's type, once written
	}

	var formats map[string]string
	var limits limits.Limits
	if p.manifest != nil {
		formats = p.manifest.Formats
		limits = p.manifest.Limits
	}
	fam, err := schema.BuildFamily(inputs, schema.BuildOptions{Package: pkg, Options: load.Options{Lenient: lenient, Limits: limits}, Formats: formats, Reserved: reserved}, p.manifest)
	if err != nil {
		var list jsonpos.ErrorList
		if !errors.As(err, &list) {
			return nil, err
		}
		for _, in := range inputs {
			files = append(files, in.Name)
		}
		return nil, jsonpos.MergeErrors(files, manifestErrs, list)
	}
	if len(manifestErrs) > 0 {
		return nil, manifestErrs
	}
	if len(fam.Tools) >= largeCatalogue {
		fl.progressf("compiled %d tools", len(fam.Tools))
	}
	p.family = fam
	p.limits = limits.WithDefaults()
	return p, nil
}

// buildProject loads the project, printing warnings and errors; on failure
// it returns nil and the exit code. The Go files are generated later, by
// generate, while they are written or compared.
func buildProject(fl genFlags, args []string, stdin io.Reader, stderr io.Writer) (*project, int) {
	p, err := loadProject(fl, args, stdin)
	if err != nil {
		printError(stderr, err)
		return nil, exitFail
	}
	printWarnings(stderr, p.family.Warnings)
	if len(p.family.Tools) >= largeCatalogue {
		fl.progressf("derived %d ops; generating Go", len(p.family.Ops))
	}
	return p, exitOK
}

// tableModes maps the manifest's tables: values to the generator's modes
// ("" and "auto" are the zero value, TablesAuto).
var tableModes = map[string]generator.TableMode{
	"auto":   generator.TablesAuto,
	"always": generator.TablesAlways,
	"never":  generator.TablesNever,
}

// generate renders p's files one at a time, handing each to each in output
// order and recording its path in p.files, so that the whole package is
// never held in memory. It stops at the first error: each's, the
// generator's, or the output limit once the files so far exceed it.
func (p *project) generate(each func(generator.File) error) error {
	sources := make([]string, 0, len(p.family.Sources))
	for _, s := range p.family.Sources {
		sources = append(sources, filepath.ToSlash(relTo(p.outDir, s)))
	}
	p.files = p.files[:0]
	var total int64
	opts := generator.Options{Package: p.family.Package, Sources: sources}
	if p.manifest != nil {
		opts.Tables = tableModes[p.manifest.Tables]
	}
	return generator.Stream(p.family, opts, func(f generator.File) error {
		total += int64(len(f.Bytes))
		if total > p.limits.OutputBytes {
			return outputSizeError(p, total)
		}
		if p.interrupted != nil && p.interrupted() != nil {
			return errors.New("interrupted: nothing was written")
		}
		p.files = append(p.files, f.Path)
		if strings.HasSuffix(f.Path, ".go") {
			if err := p.user.clash(f.Path, f.Bytes); err != nil {
				return err
			}
		}
		return each(f)
	})
}

// readManifest reads the manifest at path, or takes data, its text at
// another revision, when that is set; either at most maxManifestBytes.
func readManifest(path string, data []byte) ([]byte, error) {
	if data != nil {
		if len(data) > maxManifestBytes {
			return nil, &unreadableError{path: path, why: manifestLimitWhy()}
		}
		return data, nil
	}
	text, err := readRegular(path, maxManifestBytes, manifestLimitWhy(), "")
	if err != nil {
		return nil, err
	}
	return []byte(text), nil
}

// inputStdinHint is how to read definitions from a pipe, which toolgen
// does not open by name.
const inputStdinHint = "to read a stream, name - (standard input) and redirect it there"

// readInputs reads the named files, each of at most limit bytes; "-" (or
// /dev/stdin) is standard input, at most once. Pipes and devices are
// refused by name (readRegular). Every input is tried: the error, when
// some cannot be read, is an inputErrors with the error of each.
func readInputs(names []string, stdin io.Reader, limit int64) ([]load.Input, error) {
	r := inputReader{stdin: stdin, limit: limit}
	inputs := make([]load.Input, 0, len(names))
	var unread inputErrors
	for i, n := range names {
		in, err := r.read(n)
		if err != nil {
			unread = append(unread, inputError{at: i, err: err})
			continue
		}
		inputs = append(inputs, in)
	}
	if len(unread) > 0 {
		return nil, unread
	}
	return inputs, nil
}

// inputReader reads the inputs of one run.
type inputReader struct {
	stdin     io.Reader
	limit     int64
	usedStdin bool
	// files are the files read so far, to find one named twice, by size
	// and modification time (which a file named twice shares): a scan of
	// them all per input was quadratic in the inputs.
	files map[fileStamp][]namedFile
}

// fileStamp is what two names of one file share of their os.FileInfo.
type fileStamp struct {
	size int64
	mod  time.Time
}

// read reads the input named n.
func (r *inputReader) read(n string) (load.Input, error) {
	if info, serr := os.Stat(n); serr == nil && !isStdin(n) {
		stamp := fileStamp{info.Size(), info.ModTime()}
		for _, f := range r.files[stamp] {
			if os.SameFile(f.info, info) {
				return load.Input{}, &sameInputError{path: n, first: f.name}
			}
		}
		if r.files == nil {
			r.files = map[fileStamp][]namedFile{}
		}
		r.files[stamp] = append(r.files[stamp], namedFile{n, info})
	}
	var in load.Input
	var err error
	if isStdin(n) {
		if r.usedStdin {
			return load.Input{}, errors.New(`"-" (standard input) may be given only once`)
		}
		r.usedStdin = true
		in.Name = stdinName
		in.Data, err = readStdin(r.stdin, r.limit, inputLimitWhy(r.limit))
	} else {
		in, err = readFileOrRevision(n, r.limit)
	}
	if err != nil {
		return load.Input{}, err
	}
	return in, manifestAsInput(in)
}

// inputError is why the input at index at of those named could not be
// read.
type inputError struct {
	at  int
	err error
}

// inputErrors are the errors of the inputs that could not be read, in the
// order they were named.
type inputErrors []inputError

func (e inputErrors) Error() string {
	msgs := make([]string, len(e))
	for i, u := range e {
		msgs[i] = u.err.Error()
	}
	return strings.Join(msgs, "\n")
}

func (e inputErrors) Unwrap() []error {
	errs := make([]error, len(e))
	for i, u := range e {
		errs[i] = u.err
	}
	return errs
}

// unreadInputs is the error of a run that could not read every input:
// the error of each, located at its entry in inputs when m, when set,
// names them (missingInput), with the manifest's errors, in one list.
// The run goes no further: an input missing, its tools and $defs would
// make errors of the others' references to them.
func unreadInputs(m *manifest.Manifest, unread inputErrors, files []string, manifestErrs jsonpos.ErrorList) error {
	var located jsonpos.ErrorList
	var other []error
	for i, u := range unread {
		err := u.err
		if m != nil {
			// A file is suggested for the first inputs, as many as
			// printError prints: each suggestion reads the folder and
			// compares with its every file.
			err = missingInput(m, u.at, err, i < maxPrintedErrors)
		}
		var list jsonpos.ErrorList
		if errors.As(err, &list) {
			located = append(located, list...)
		} else {
			other = append(other, err)
		}
	}
	return &runErrors{located: jsonpos.MergeErrors(files, manifestErrs, located), other: other}
}

// runErrors are a run's errors when some of them have no position (an
// input named as an argument that could not be read): printError prints
// the located ones by position, then the others, then their count.
type runErrors struct {
	located jsonpos.ErrorList
	other   []error
}

func (e *runErrors) Error() string {
	return errors.Join(append([]error{e.located.Err()}, e.other...)...).Error()
}

// namedFile is a file read as an input and the name it was given by.
type namedFile struct {
	name string
	info os.FileInfo
}

// sameInputError is an input naming a file named before by another path
// (a symbolic link, a hard link, another spelling): its tools would all be
// defined twice.
type sameInputError struct {
	path, first string
}

func (e *sameInputError) Error() string {
	return e.path + ": " + e.why()
}

func (e *sameInputError) why() string {
	if e.path == e.first {
		return "is named twice as an input; name each input once"
	}
	return fmt.Sprintf("is the file %s, named before as an input; name each input once", e.first)
}

// manifestAsInput refuses a YAML file given where tool definitions go
// (toolgen inspect toolgen.yaml): definitions are JSON, and the likely
// intent is the manifest's flag.
func manifestAsInput(in load.Input) error {
	ext := strings.ToLower(filepath.Ext(in.Name))
	if ext != ".yaml" && ext != ".yml" {
		return nil
	}
	if t := strings.TrimLeft(in.Data, " \t\r\n\ufeff"); t == "" || t[0] == '{' || t[0] == '[' {
		return nil // JSON under a YAML name; the loader judges it
	}
	return jsonpos.ErrorList{jsonpos.Errorf(ir.Pos{File: in.Name, Line: 1, Col: 1},
		"a YAML file is not an input of tool definitions (they are JSON); if it is a manifest, pass it with -c %s", in.Name)}
}

// toolsAsManifest reports whether data, given as the manifest, is a file
// of tool definitions instead: a JSON array (a manifest is a mapping), or
// an object with a member of a tool list's and none of a manifest's.
func toolsAsManifest(data []byte) bool {
	t := bytes.TrimLeft(data, " \t\r\n\ufeff")
	if len(t) == 0 {
		return false
	}
	if t[0] == '[' {
		return true
	}
	var m map[string]json.RawMessage
	if t[0] != '{' || json.Unmarshal(t, &m) != nil {
		return false
	}
	for _, k := range []string{"package", "inputs", "output", "groups", "ops", "overrides", "limits"} {
		if _, ok := m[k]; ok {
			return false
		}
	}
	for _, k := range []string{"tools", "jsonrpc", "result", "function", "input_schema", "inputSchema"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// missingInput locates the error of the input m names at index at, which
// could not be read, at its entry in inputs, suggesting a file of the
// manifest's folder with a close name for one that does not exist when
// suggest is set.
func missingInput(m *manifest.Manifest, at int, err error, suggest bool) error {
	if at >= len(m.InputsPos) {
		return err
	}
	pos := m.InputsPos[at]
	var se *sameInputError
	if errors.As(err, &se) {
		first := slices.Index(m.InputPaths(), se.first)
		if first < 0 || first >= at {
			return err
		}
		p := m.InputsPos[first]
		return jsonpos.ErrorList{jsonpos.Errorf(pos,
			"input %q is the file %q listed before (at %d:%d); list each input once", m.Inputs[at], m.Inputs[first], p.Line, p.Col)}
	}
	var ue *unreadableError
	if errors.As(err, &ue) {
		return jsonpos.ErrorList{jsonpos.Errorf(pos, "cannot read %s: it %s", m.Inputs[at], ue.why)}
	}
	var pe *fs.PathError
	if !errors.As(err, &pe) {
		return err
	}
	msg := fmt.Sprintf("cannot read %s: %v", m.Inputs[at], pe.Err)
	if !suggest || !errors.Is(pe.Err, fs.ErrNotExist) {
		return jsonpos.ErrorList{jsonpos.Errorf(pos, "%s", msg)}
	}
	if entries, rerr := os.ReadDir(filepath.Dir(pe.Path)); rerr == nil {
		var files []string
		for _, e := range entries {
			if !e.IsDir() {
				files = append(files, e.Name())
			}
		}
		if s := text.Closest(filepath.Base(pe.Path), files); s != "" {
			msg += fmt.Sprintf("; did you mean %q?", s)
		}
	}
	return jsonpos.ErrorList{jsonpos.Errorf(pos, "%s", msg)}
}

// outputSizeError reports generated files larger together than the
// output limit (total is what the files rendered so far hold), located at
// the manifest (else the first input).
func outputSizeError(p *project, total int64) error {
	at := ir.Pos{}
	switch {
	case p.manifest != nil && p.manifest.OutputBytesPos.Line > 0:
		at = p.manifest.OutputBytesPos
	case p.manifest != nil && p.manifest.LimitsPos.Line > 0:
		at = p.manifest.LimitsPos
	case p.manifest != nil && p.manifest.File != "":
		at.File = p.manifest.File
	case len(p.family.Sources) > 0:
		at.File = p.family.Sources[0]
	}
	return jsonpos.ErrorList{jsonpos.Errorf(at, "the generated files hold at least %d bytes, more than the limit (limit %d; raise limits.max_output_bytes in the manifest)", total, p.limits.OutputBytes)}
}

// maxPrintedErrors is the most errors of a list printError prints: past
// a screenful more lines help no one (a catalogue with one mistake
// repeated in every tool has as many errors as tools), and printing
// hundreds of thousands of them takes seconds and megabytes.
const maxPrintedErrors = 100

// printError prints err; a located ErrorList prints one line per error,
// the first maxPrintedErrors of them, and then their count, as do
// runErrors, their unlocated ones after the located. Every line is
// escaped with jsonpos.Visible (a located error escapes itself): messages
// can echo definition text, which must not reach the terminal raw.
func printError(w io.Writer, err error) {
	var run *runErrors
	if errors.As(err, &run) {
		printLines(w, len(run.located)+len(run.other), func(i int) string {
			if i < len(run.located) {
				return run.located[i].Error()
			}
			return "toolgen: " + jsonpos.Visible(run.other[i-len(run.located)].Error())
		})
		return
	}
	var list jsonpos.ErrorList
	if errors.As(err, &list) {
		printLines(w, len(list), func(i int) string { return list[i].Error() })
		return
	}
	var located *jsonpos.Error
	if errors.As(err, &located) {
		fmt.Fprintln(w, located.Error())
		return
	}
	fmt.Fprintf(w, "toolgen: %s\n", jsonpos.Visible(err.Error()))
	var internal *generator.InternalError
	if errors.As(err, &internal) {
		fmt.Fprintf(w, "\n%s", internal.Stack)
	}
}

// printLines prints the lines of n errors, line(i) the i-th, the first
// maxPrintedErrors of them, and then their count.
func printLines(w io.Writer, n int, line func(i int) string) {
	for i := range n {
		if i == maxPrintedErrors {
			if more := n - i; more == 1 {
				fmt.Fprintln(w, "and 1 more error")
			} else {
				fmt.Fprintf(w, "and %d more errors\n", more)
			}
			break
		}
		fmt.Fprintln(w, line(i))
	}
	if n == 1 {
		fmt.Fprintln(w, "1 error")
	} else {
		fmt.Fprintf(w, "%d errors\n", n)
	}
}

// failCode is the exit code of a command that failed with err: exitInternal
// for a bug in toolgen, else exitFail.
func failCode(err error) int {
	var internal *generator.InternalError
	if errors.As(err, &internal) {
		return exitInternal
	}
	return exitFail
}

// printWarnings prints located warnings as FILE:LINE:COL: /ptr: warning: msg,
// with the unknown-verb warnings folded into a summary (toolgen inspect
// prints them all with printAllWarnings), which closes the list as the
// other unlocated warnings do.
func printWarnings(w io.Writer, ds []ir.Diagnostic) {
	ds, line := taxonomy.SummarizeWarnings(ds, 8)
	printAllWarnings(w, ds)
	if line != "" {
		// The summary is several lines of toolgen's layout.
		fmt.Fprintf(w, "toolgen: warning: %s\n", visibleLines(line))
	}
}

// visibleLines escapes each line of s with jsonpos.Visible, keeping the
// line breaks and tabs between them: for multi-line text of toolgen's own
// layout (a warning summary, generated Go source indented with tabs,
// indented JSON) that carries definition text. A tab only moves the
// cursor, so keeping one that came from a definition is harmless.
func visibleLines(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = jsonpos.Visible(c)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}

// printAllWarnings prints every warning, one line each, in the family's
// order (located ones by position, then the unlocated), escaped with
// jsonpos.Visible (jsonpos.Error.Error escapes the located ones): warnings
// quote property names and definition values.
func printAllWarnings(w io.Writer, ds []ir.Diagnostic) {
	for _, d := range ds {
		e := jsonpos.Error{Pos: d.Pos, Message: "warning: " + d.Message}
		if d.Pos.File == "" {
			fmt.Fprintf(w, "toolgen: warning: %s\n", jsonpos.Visible(jsonpos.Shorten(d.Message)))
			continue
		}
		fmt.Fprintln(w, e.Error())
	}
}

// packageName turns a directory name into a Go package name: lowercase
// letters and digits, not starting with a digit and not a Go keyword
// ("123" and "func" become "tools123" and "toolsfunc").
func packageName(dir string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		if r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			b.WriteRune(r)
		}
	}
	s := b.String()
	if s == "" || unicode.IsDigit(rune(s[0])) || token.IsKeyword(s) {
		s = "tools" + s
	}
	return s
}

func relTo(base, path string) string {
	if path == "<stdin>" {
		return path
	}
	absBase, err1 := filepath.Abs(base)
	absPath, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return path
	}
	if r, err := filepath.Rel(absBase, absPath); err == nil {
		return r
	}
	return path
}

func joinOut(dir, name string) string {
	return filepath.ToSlash(filepath.Join(dir, name))
}

func removeFile(dir, name string) error {
	return os.Remove(filepath.Join(dir, name))
}

// progressf prints one progress line on the progress writer, for large
// catalogues only, with the time since the run started.
func (g genFlags) progressf(format string, args ...any) {
	if g.progress == nil || g.started.IsZero() {
		return
	}
	fmt.Fprintf(g.progress, "toolgen: "+format+" (%.1fs)\n", append(args, time.Since(g.started).Seconds())...)
}

// readFileOrRevision reads a file of at most limit bytes, or, when name
// is no file and has the form REV:PATH (HEAD~1:tools.json), that file as
// of a git revision.
func readFileOrRevision(name string, limit int64) (load.Input, error) {
	data, err := readRegular(name, limit, inputLimitWhy(limit), inputStdinHint)
	if err == nil || !os.IsNotExist(err) {
		return load.Input{Name: name, Data: data}, err
	}
	rev, path, ok := splitRevision(name)
	if !ok {
		return load.Input{}, err
	}
	out, gerr := gitShow(rev, path, limit)
	var ue *unreadableError
	if errors.As(gerr, &ue) {
		return load.Input{}, &unreadableError{path: name, why: inputLimitWhy(limit)}
	}
	if gerr != nil {
		return load.Input{}, fmt.Errorf("%s: not a file, and not a git revision of one: %v", name, gerr)
	}
	return load.Input{Name: name, Data: string(out)}, nil
}

// maxGitStderr bounds what is kept of git's error output.
const maxGitStderr = 64 << 10

// gitShow returns PATH (relative to the current directory) as of git
// revision REV; more than limit bytes is an *unreadableError.
func gitShow(rev, path string, limit int64) ([]byte, error) {
	object := rev + ":./" + filepath.ToSlash(path)
	var stderr bytes.Buffer
	cmd := exec.Command("git", "show", object)
	cmd.Stderr = &cappedWriter{w: &stderr, n: maxGitStderr}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	out, rerr := io.ReadAll(io.LimitReader(stdout, limit+1))
	if int64(len(out)) > limit {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, &unreadableError{path: object, why: inputLimitWhy(limit)}
	}
	err = cmd.Wait()
	if err == nil {
		err = rerr
	}
	if err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return nil, errors.New(msg)
		}
		return nil, err
	}
	// A directory shows as "tree REV:PATH" and a listing of its files,
	// which would be read as JSON.
	if bytes.HasPrefix(out, []byte("tree "+object+"\n")) {
		return nil, fmt.Errorf("%s is a tree in %s, not a file", path, rev)
	}
	return out, nil
}

// splitRevision splits REV:PATH. A revision starting with '-' would reach
// git as an option (--output=FILE writes a file): such a name is only a
// file name, ok false.
func splitRevision(name string) (rev, path string, ok bool) {
	rev, path, ok = strings.Cut(name, ":")
	return rev, path, ok && rev != "" && path != "" && !strings.HasPrefix(rev, "-")
}
