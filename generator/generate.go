package generator

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/names"
)

// DefaultRuntimeModule is the module path generated code imports the
// runtime from.
const DefaultRuntimeModule = "github.com/toolgen-go/toolgen"

// Standard library import paths generated code refers to.
const (
	contextPkg = "context"
	jsonPkg    = "encoding/json"
)

// Options configures Generate.
type Options struct {
	// Package is the Go package name (required).
	Package string
	// Sources are the input file names, listed in the header comment.
	Sources []string
	// RuntimeModule overrides the module path of the runtime packages
	// (DefaultRuntimeModule when empty).
	RuntimeModule string
	// Tables chooses when objects are decoded and validated through
	// runtime/shape tables rather than generated methods (tables.go):
	// TablesAuto (the zero value) for large families and long objects.
	Tables TableMode
}

// File is one generated source file.
type File struct {
	// Path is the file name relative to the package folder.
	Path string
	// Bytes is the file's content; its last line is a checksum of the
	// lines before it (Edited).
	Bytes []byte
}

// fileEmitter writes one generated file's declarations into f.
type fileEmitter struct {
	path string
	emit func(g *gen, f *jen.File) error
	// text, set instead of emit, writes the file's text directly
	// (srcFile), already formatted.
	text func(g *gen, s *srcFile) error
	// apart starts a lane: this file and the ones after it are emitted on
	// a goroutine of their own, alongside the files before it (see
	// stream). Such a file only reads g: it must not declare package
	// variables (validate_gen.go declares them) or fill g's memos
	// (checked, tabled, declared), whose answers for a type on a cycle
	// depend on the order of the questions. go test -race on the goldens
	// meets a write.
	apart bool
}

// emitters lists the generated files in output order; registry_gen.go and
// surfaces_gen.go come from the taxonomy (registry.go, surfaces.go).
func emitters() []fileEmitter {
	return []fileEmitter{
		{path: "types_gen.go", text: emitTypes},
		{path: "decode_gen.go", text: emitDecoders},
		{path: "validate_gen.go", text: emitValidators},
		{path: "handlers_gen.go", text: emitHandlers},
		{path: "tools_gen.go", text: emitTools},
		{path: "registry_gen.go", text: emitRegistry, apart: true},
		{path: "surfaces_gen.go", text: emitSurfaces},
	}
}

// gen is the state of one Generate call.
type gen struct {
	fam *ir.Family
	opt Options
	// argsNeed memoizes needsArgs.
	argsNeed map[*ir.Type]bool
	// Import paths of the runtime packages.
	runtimePkg, wirePkg, checkPkg string
	// pkgVars are package-level helper variables (compiled patterns,
	// embedded schemas, literals) keyed by their Go initialiser, in
	// order of first use, for validate_gen.go.
	pkgVars   map[string]string
	pkgVarSeq []pkgVar
	// rootFuncs are params types without methods that got a validate
	// function (validate_gen.go) instead.
	rootFuncs map[*ir.Type]bool
	// indirect fields hold their recursive struct type through a pointer.
	indirect map[*ir.Field]bool
	// patternBudget is set when a pattern's matches may take long
	// (check.Regexp.Budgeted: it runs on the ECMAScript fallback engine,
	// or its RE2 program is large): matching then charges a per-call time
	// budget that the decoder and the validators of a call share, and
	// fails closed.
	patternBudget bool
	// budgets memoises budgeted per pattern: a family repeats its
	// patterns (a 10,000-tool catalogue has a few hundred distinct ones).
	budgets map[string]bool
	// encoded types are checked through their JSON encoding (findEncoded).
	encoded map[*ir.Type]bool
	// alias maps a named type to the earlier one of the same shape whose
	// code it shares (findShapes); it is declared as an alias of it.
	alias map[*ir.Type]*ir.Type
	// checks memoises checked: whether a named type has a validate method.
	checks map[*ir.Type]bool
	// tables memoises tabled: 1 for an object decoded and validated
	// through a runtime/shape table, 0 for one with generated methods, 2
	// while deciding.
	tables map[*ir.Type]int
	// large is set for a family of more than TableObjects object shapes
	// (docs aside; findShapes): TablesAuto tables it, and its shapes
	// leave docs out.
	large bool
	// named indexes the family's types by Go name (declared).
	named map[string]*ir.Type
}

type pkgVar struct {
	name string
	init jen.Code
}

// Generate emits the Go files of fam's package. It does no I/O; the same
// family always yields byte-identical files.
func Generate(fam *ir.Family, opt Options) ([]File, error) {
	var files []File
	err := Stream(fam, opt, func(f File) error {
		files = append(files, f)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return files, nil
}

// Stream is Generate handing each file to yield as soon as it is rendered,
// in output order, so that a caller writing files out never holds the
// whole package: a file's declarations are dropped once it is rendered,
// and at most GOMAXPROCS files are rendering or waiting for yield at a
// time. It stops at the first error, its own or yield's, which it
// returns.
func Stream(fam *ir.Family, opt Options, yield func(File) error) error {
	if fam == nil {
		return errors.New("generator: no family")
	}
	if opt.Package == "" {
		opt.Package = fam.Package
	}
	if opt.Package == "" {
		return errors.New("generator: package name is required")
	}
	if why := names.CheckPackageName(opt.Package); why != "" {
		return fmt.Errorf("generator: package name: %s", why)
	}
	if len(opt.Sources) == 0 {
		opt.Sources = fam.Sources
	}
	mod := opt.RuntimeModule
	if mod == "" {
		mod = DefaultRuntimeModule
	}
	g := &gen{
		fam:        fam,
		opt:        opt,
		runtimePkg: mod + "/runtime",
		wirePkg:    mod + "/runtime/wire",
		checkPkg:   mod + "/runtime/check",
		pkgVars:    map[string]string{},
		budgets:    map[string]bool{},
	}
	if err := g.checkFamily(); err != nil {
		return err
	}
	g.findIndirect()
	g.patternBudget = g.usesBudget()
	g.findEncoded()
	g.findShapes()
	// Emitters share g's state (package-level names and memos), so they
	// run in order, except the files from registry_gen.go on, which only
	// read g and are emitted alongside (fileEmitter.apart). Rendering a
	// finished file touches nothing shared, so the files render
	// concurrently.
	return g.stream(emitters(), yield)
}

// stream emits the files of ems in order, in lanes that start at ems[0]
// and at each apart file, each lane on its own goroutine, while finished
// files render on others; it hands them to yield in order on the caller's
// goroutine. A lane takes a slot before it emits a file and gets it back
// once the file is yielded, which bounds the files held at once; a lane
// waits only for files before its own, so the lanes cannot block each
// other.
func (g *gen) stream(ems []fileEmitter, yield func(File) error) error {
	type rendered struct {
		src []byte
		err error
	}
	results := make([]chan rendered, len(ems))
	for i := range results {
		results[i] = make(chan rendered, 1)
	}
	// lane[i] is the lane of ems[i]; slots[l] are lane l's slots.
	lane := make([]int, len(ems))
	var slots []chan struct{}
	for i, e := range ems {
		if i == 0 || e.apart {
			slots = append(slots, make(chan struct{}, runtime.GOMAXPROCS(0)))
		}
		lane[i] = len(slots) - 1
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	defer func() {
		// On an early return, emission stops at the next file and
		// nothing outlives the call.
		close(stop)
		wg.Wait()
	}()
	for l := range slots {
		wg.Go(func() {
			for i, e := range ems {
				if lane[i] != l {
					continue
				}
				select {
				case slots[l] <- struct{}{}:
				case <-stop:
					return
				}
				var renderFile func() ([]byte, error)
				err := catchPanic(e.path, func() error {
					if e.text != nil {
						sf := g.newSrcFile()
						renderFile = sf.render
						return e.text(g, sf)
					}
					jf := g.newFile()
					renderFile = func() ([]byte, error) { return render(jf) }
					return e.emit(g, jf)
				})
				if err != nil {
					results[i] <- rendered{err: err}
					return
				}
				wg.Go(func() {
					var r rendered
					r.err = catchPanic(e.path, func() (err error) {
						r.src, err = renderFile()
						return err
					})
					results[i] <- r
				})
			}
		})
	}
	for i, e := range ems {
		r := <-results[i]
		if r.err != nil {
			return fmt.Errorf("generator: %s: %w", e.path, r.err)
		}
		if err := yield(File{Path: e.path, Bytes: seal(r.src)}); err != nil {
			return err
		}
		<-slots[lane[i]]
	}
	return nil
}

// InternalError is a panic met while generating File: a bug in toolgen,
// caught on the goroutine it happened on and returned as an error, so
// that a caller writing the files can undo what it wrote (no goroutine of
// Stream outlives the call).
type InternalError struct {
	File  string
	Value any
	// Stack is the stack of the goroutine that panicked, for a bug report.
	Stack []byte
}

func (e *InternalError) Error() string {
	return fmt.Sprintf("internal error, a bug in toolgen (please report it with the stack trace): panic: %v", e.Value)
}

// catchPanic calls fn, returning a panic in it as an *InternalError.
func catchPanic(file string, fn func() error) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = &InternalError{File: file, Value: v, Stack: debug.Stack()}
		}
	}()
	return fn()
}

// newFile starts a file with the generated-code header and the source
// list:
//
//	// Code generated by toolgen. DO NOT EDIT.
//	// Source: tools.json
//
//	package pkg
func (g *gen) newFile() *jen.File {
	f := jen.NewFile(g.opt.Package)
	headerLine(f, "Code generated by toolgen. DO NOT EDIT.")
	if len(g.opt.Sources) > 0 {
		headerLine(f, "Source: "+strings.Join(g.opt.Sources, ", "))
	}
	f.ImportName(g.runtimePkg, "runtime")
	f.ImportName(g.wirePkg, "wire")
	f.ImportName(g.checkPkg, "check")
	f.ImportName(g.shapePkg(), "shape")
	return f
}

func render(f *jen.File) ([]byte, error) {
	var buf bytes.Buffer
	// Render already formats the file with go/format; formatting again
	// would only repeat the work.
	if err := f.Render(&buf); err != nil {
		return nil, renderError(err)
	}
	return buf.Bytes(), nil
}

// renderError shortens jennifer's formatting error, which carries the whole
// unformatted source, to the gofmt message and the offending line
// (escaped, at most 200 bytes). It only happens on a generator bug: every
// definition string is escaped on its way into the source.
func renderError(err error) error {
	msg, src, ok := strings.Cut(err.Error(), " while formatting source:\n")
	if !ok {
		return fmt.Errorf("internal error: %s", cut(msg, 500))
	}
	msg = strings.TrimPrefix(msg, "Error ")
	var line int
	if _, e := fmt.Sscanf(msg, "%d:", &line); e == nil && line > 0 {
		lines := strings.SplitN(src, "\n", line+1)
		if line <= len(lines) {
			msg += fmt.Sprintf(" in %s", strconv.Quote(cut(lines[line-1], 200)))
		}
	}
	return fmt.Errorf("internal error: generated source does not format (please report): %s", cut(msg, 500))
}

// cut shortens s to at most n bytes on a rune boundary, marking the cut.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// checkFamily rejects IR the emitters cannot represent, with the node's
// position.
func (g *gen) checkFamily() error {
	for _, t := range g.fam.Tools {
		if t.GoName == "" || t.Params == nil || t.Params.GoName == "" {
			return fmt.Errorf("generator: %s: tool %q has no Go name or params type", posString(t.Pos), t.Name)
		}
		if !goIdent(t.GoName) {
			return fmt.Errorf("generator: %s: tool %q has Go name %s, not an identifier", posString(t.Pos), t.Name, strconv.Quote(t.GoName))
		}
	}
	for _, t := range g.fam.Types {
		if t.GoName == "" {
			return fmt.Errorf("generator: %s: named type list holds an unnamed type", posString(t.Pos))
		}
	}
	var err error
	seen := map[*ir.Type]bool{}
	var walk func(t *ir.Type)
	walk = func(t *ir.Type) {
		if t == nil || seen[t] || err != nil {
			return
		}
		seen[t] = true
		if t.GoName == "" && (t.Kind == ir.KindObject || t.Kind == ir.KindUnion || t.Kind == ir.KindTuple) {
			err = fmt.Errorf("generator: %s: %s type has no Go name", posString(t.Pos), kindWord(t.Kind))
			return
		}
		// Names reach the source as identifiers, unescaped: schema/names
		// decides them, and this holds its promise.
		ident := func(name string, pos ir.Pos) bool {
			if name != "" && !goIdent(name) {
				err = fmt.Errorf("generator: %s: Go name %s is not an identifier", posString(pos), strconv.Quote(name))
				return false
			}
			return true
		}
		if !ident(t.GoName, t.Pos) || !ident(t.ExtraGoName, t.Pos) {
			return
		}
		for _, f := range t.Fields {
			p := f.Pos
			if p == (ir.Pos{}) {
				p = t.Pos
			}
			if !ident(f.GoName, p) {
				return
			}
		}
		for _, v := range t.Enum {
			if !ident(v.GoName, t.Pos) {
				return
			}
		}
		for sub := range t.Subtypes() {
			walk(sub)
		}
	}
	for _, t := range g.fam.Types {
		walk(t)
	}
	for _, t := range g.fam.Tools {
		walk(t.Params)
		walk(t.Result)
	}
	return err
}

// goIdent reports whether s can be written as a Go identifier.
func goIdent(s string) bool { return token.IsIdentifier(s) }

func posString(p ir.Pos) string {
	s := p.String()
	if p.Pointer != "" {
		s += ": " + p.Pointer
	}
	if s == "" {
		return "(unknown position)"
	}
	return s
}

func kindWord(k ir.Kind) string {
	switch k {
	case ir.KindObject:
		return "object"
	case ir.KindUnion:
		return "union"
	case ir.KindTuple:
		return "tuple"
	}
	return "value"
}

// pkgVar returns the name of a package-level variable initialised with
// init, declaring it on first use; key identifies equal initialisers.
func (g *gen) pkgVar(prefix, key string, init jen.Code) string {
	k := prefix + "\x00" + key
	if name, ok := g.pkgVars[k]; ok {
		return name
	}
	name := fmt.Sprintf("%s%d", prefix, len(g.pkgVarSeq))
	g.pkgVars[k] = name
	g.pkgVarSeq = append(g.pkgVarSeq, pkgVar{name: name, init: init})
	return name
}
