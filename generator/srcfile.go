package generator

import (
	"bytes"
	"errors"
	"fmt"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/generator/internal/gotext"
)

// srcFile writes a generated file's Go text directly, already laid out as
// gofmt lays it out, for what is data or one line, one per tool, op or
// type (registry_gen.go, handlers_gen.go, the Tools function, type
// declarations, runtime/shape tables and checks, one-line methods): going
// through jennifer and go/format cost most of the generation time of a
// large catalogue, for text whose layout never varies. Code whose layout
// does vary is added as jennifer declarations (code), formatted on their
// own when the file renders. TestFormatted holds every file of the goldens
// to format.Source(out) == out.
//
// Like text.go, it is a door for text into generated source: definition
// text reaches it only through lit, rawLit and comment (gotext), Go names
// through ident (checked by checkFamily); text writes constant Go text
// (TestTextDoors holds its argument to a constant).
type srcFile struct {
	g *gen
	// segs are the finished segments; the text after them is the filled
	// chunks of full, then buf.
	segs []srcSeg
	full [][]byte
	buf  []byte
	// chunks are the pooled chunks the text is written in, given back
	// once the file is rendered.
	chunks []*[]byte
	// imports are the import paths the text refers to through qual.
	imports map[string]bool
}

// srcSeg is a segment of a srcFile: formatted text, in one or more
// chunks, or declarations that jennifer renders and go/format lays out.
type srcSeg struct {
	text [][]byte
	code *jen.File
}

// The text of a srcFile is written in chunks of chunkSize bytes (or one
// of its own for a longer write), which it takes from chunkPool and gives
// back once rendered: a file of megabytes written in one growing slice
// was copied at each doubling and the memory it grew into, touched for
// the first time, cost a page fault every 4 KB. Only the rendered file
// is one slice, allocated once at its size.
const chunkSize = 256 << 10

var chunkPool = sync.Pool{New: func() any {
	c := make([]byte, 0, chunkSize)
	return &c
}}

// pending reports whether text was written after the last segment.
func (s *srcFile) pending() bool { return len(s.full) > 0 || len(s.buf) > 0 }

// takeText ends the text written after the last segment and returns its
// chunks.
func (s *srcFile) takeText() [][]byte {
	text := s.full
	if len(s.buf) > 0 {
		text = append(text, s.buf)
	}
	// The rest of the current chunk takes the text that follows.
	s.full, s.buf = nil, s.buf[len(s.buf):]
	return text
}

func (g *gen) newSrcFile() *srcFile {
	return &srcFile{g: g, imports: map[string]bool{}}
}

// jen returns the jennifer file the next code declarations go to: the
// last segment's when no text was written after it, else a new one.
func (s *srcFile) jen() *jen.File {
	if n := len(s.segs); n > 0 && !s.pending() && s.segs[n-1].code != nil {
		return s.segs[n-1].code
	}
	if s.pending() {
		s.segs = append(s.segs, srcSeg{text: s.takeText()})
	}
	f := s.g.newCodeFile()
	s.segs = append(s.segs, srcSeg{code: f})
	return f
}

// decl starts a text declaration: a blank line after the one before.
func (s *srcFile) decl() {
	if s.pending() {
		s.room(1)
		s.buf = append(s.buf, '\n')
	}
}

// newCodeFile is a jennifer file for srcFile.jen: newFile without the
// header, which the srcFile writes.
func (g *gen) newCodeFile() *jen.File {
	f := jen.NewFile(g.opt.Package)
	f.ImportName(g.runtimePkg, "runtime")
	f.ImportName(g.wirePkg, "wire")
	f.ImportName(g.checkPkg, "check")
	f.ImportName(g.shapePkg(), "shape")
	return f
}

// room makes room for n more bytes of text in buf: a new chunk when the
// current one has less left.
func (s *srcFile) room(n int) {
	if cap(s.buf)-len(s.buf) >= n {
		return
	}
	if len(s.buf) > 0 {
		s.full = append(s.full, s.buf)
	}
	if n > chunkSize {
		s.buf = make([]byte, 0, n)
		return
	}
	c := chunkPool.Get().(*[]byte)
	s.chunks = append(s.chunks, c)
	s.buf = (*c)[:0]
}

// text writes constant Go text.
func (s *srcFile) text(c string) {
	s.room(len(c))
	s.buf = append(s.buf, c...)
}

// ident writes a Go identifier decided by schema/names.
func (s *srcFile) ident(name string) {
	s.room(len(name))
	s.buf = append(s.buf, name...)
}

// int writes the decimal integer n.
func (s *srcFile) int(n int) {
	s.room(20)
	s.buf = strconv.AppendInt(s.buf, int64(n), 10)
}

// float writes the float64 literal of f as jennifer's Lit does: %#v,
// with ".0" when that reads as an integer.
func (s *srcFile) float(f float64) {
	s.room(32)
	start := len(s.buf)
	s.buf = fmt.Appendf(s.buf, "%#v", f)
	if !bytes.ContainsAny(s.buf[start:], ".e") {
		s.buf = append(s.buf, ".0"...)
	}
}

// num writes the numeric literal of a JSON number's text (which the
// caller checked with gotext.IsNumber) as gofmt writes it: a lower-case
// exponent.
func (s *srcFile) num(text string) {
	if !gotext.IsNumber(text) {
		panic("srcFile.num: not a JSON number")
	}
	s.room(len(text))
	s.buf = append(s.buf, strings.ReplaceAll(text, "E", "e")...)
}

// tag writes the struct tag key:"value" as jennifer writes one: a raw
// string literal when it can be one, else an interpreted one.
func (s *srcFile) tag(key, value string) {
	str := fmt.Sprintf("%s:%q", key, value)
	s.room(len(str) + 2)
	if strconv.CanBackquote(str) {
		s.buf = append(s.buf, '`')
		s.buf = append(s.buf, str...)
		s.buf = append(s.buf, '`')
		return
	}
	s.buf = strconv.AppendQuote(s.buf, str)
}

// lit writes the interpreted Go string literal of v.
func (s *srcFile) lit(v string) {
	s.room(len(v) + 2)
	s.buf = gotext.AppendLiteral(s.buf, v, false)
}

// rawLit writes the Go literal of v, raw when v can be one.
func (s *srcFile) rawLit(v string) {
	s.room(len(v) + 2)
	s.buf = gotext.AppendLiteral(s.buf, v, true)
}

// records writes the package variable name, a []string of n records, one
// a line as a raw string literal where it can be one (rec(i) is the i-th),
// after doc as its comment: the data a family of many tools declares in
// place of composite literals (asData).
func (s *srcFile) records(doc, name string, n int, rec func(i int) string) {
	s.comment("", doc)
	s.text("var ")
	s.ident(name)
	s.text(" = []string{")
	if n > 0 {
		s.text("\n")
	}
	for i := range n {
		s.text("\t")
		s.rawLit(rec(i))
		s.text(",\n")
	}
	s.text("}\n")
}

// qual writes the qualified identifier path.name and imports path.
func (s *srcFile) qual(path, name string) {
	s.imports[path] = true
	s.room(len(path) + 1 + len(name))
	s.buf = append(s.buf, importName(s.g, path)...)
	s.buf = append(s.buf, '.')
	s.buf = append(s.buf, name...)
}

// comment writes text as // line comments (gotext.Comment), each line
// preceded by indent; at the top level (indent ""), where it is a
// declaration's doc comment, in the form gofmt gives doc comments
// (gotext.DocComment).
func (s *srcFile) comment(indent, text string) {
	lines := gotext.DocComment
	if indent != "" {
		lines = gotext.Comment
	}
	for _, l := range lines(text) {
		s.room(len(indent) + len(l) + 1)
		s.buf = append(s.buf, indent...)
		s.buf = append(s.buf, l...)
		s.buf = append(s.buf, '\n')
	}
}

// render is the whole file: the header of newFile, the package clause,
// the import declaration and the segments, the code ones rendered. It
// gives the file's chunks back to the pool, so the srcFile is not used
// after.
func (s *srcFile) render() ([]byte, error) {
	defer s.release()
	// Segments are declarations; gofmt leaves one blank line between.
	var parts [][]byte
	size := 0
	add := func(decls ...[]byte) {
		if len(decls) == 0 {
			return
		}
		if len(parts) > 0 {
			parts = append(parts, []byte("\n"))
			size++
		}
		for _, d := range decls {
			parts = append(parts, d)
			size += len(d)
		}
	}
	for _, seg := range s.segs {
		if seg.code == nil {
			add(seg.text...)
			continue
		}
		src, err := render(seg.code)
		if err != nil {
			return nil, err
		}
		paths, decls, err := codeImports(src)
		if err != nil {
			return nil, err
		}
		for _, p := range paths {
			s.imports[p] = true
		}
		if len(decls) > 0 {
			add(decls)
		}
	}
	add(s.takeText()...)
	var head []byte
	head = append(head, gotext.CommentLine("Code generated by toolgen. DO NOT EDIT.")...)
	head = append(head, '\n')
	if len(s.g.opt.Sources) > 0 {
		head = append(head, gotext.CommentLine("Source: "+strings.Join(s.g.opt.Sources, ", "))...)
		head = append(head, '\n')
	}
	head = append(head, "\npackage "...)
	head = append(head, s.g.opt.Package...)
	head = append(head, '\n')
	if len(parts) == 0 {
		return head, nil
	}
	head = append(head, '\n')
	head = appendImports(head, s.g, s.imports)
	out := make([]byte, 0, len(head)+size)
	out = append(out, head...)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out, nil
}

// release gives the srcFile's chunks back to the pool.
func (s *srcFile) release() {
	for _, c := range s.chunks {
		chunkPool.Put(c)
	}
	s.segs, s.full, s.buf, s.chunks = nil, nil, nil, nil
}

// codeImports splits a formatted file of newCodeFile after its package
// clause into the paths it imports and the declarations that follow.
func codeImports(src []byte) (paths []string, decls []byte, err error) {
	if !bytes.HasPrefix(src, []byte("package ")) {
		return nil, nil, errors.New("internal error: rendered code has no package clause")
	}
	_, rest, ok := bytes.Cut(src, []byte("\n\n"))
	if !ok {
		return nil, nil, nil // no declarations
	}
	spec := func(line []byte) error {
		line = bytes.TrimSpace(line)
		if i := bytes.LastIndexByte(line, ' '); i >= 0 {
			line = line[i+1:]
		}
		p, err := strconv.Unquote(string(line))
		if err != nil {
			return fmt.Errorf("internal error: rendered import %q: %w", line, err)
		}
		paths = append(paths, p)
		return nil
	}
	switch {
	case bytes.HasPrefix(rest, []byte("import (\n")):
		block, after, ok := bytes.Cut(rest[len("import (\n"):], []byte("\n)\n"))
		if !ok {
			return nil, nil, errors.New("internal error: rendered import block not closed")
		}
		for line := range bytes.Lines(block) {
			if err := spec(line); err != nil {
				return nil, nil, err
			}
		}
		rest = after
	case bytes.HasPrefix(rest, []byte("import ")):
		line, after, _ := bytes.Cut(rest, []byte("\n"))
		if err := spec(line[len("import "):]); err != nil {
			return nil, nil, err
		}
		rest = after
	default:
		return nil, rest, nil
	}
	return paths, bytes.TrimPrefix(rest, []byte("\n")), nil
}

// appendImports appends the import declaration of paths as goimports
// writes it: the standard library's paths sorted in one group, then the
// others sorted in another, the name written only when the package is not
// named by the last element of its path (importAliased).
func appendImports(out []byte, g *gen, paths map[string]bool) []byte {
	var std, other []string
	for p := range paths {
		if stdPath(p) {
			std = append(std, p)
		} else {
			other = append(other, p)
		}
	}
	slices.Sort(std)
	slices.Sort(other)
	spec := func(out []byte, path string) []byte {
		if importAliased(g, path) {
			out = append(out, importName(g, path)...)
			out = append(out, ' ')
		}
		return gotext.AppendLiteral(out, path, false)
	}
	switch len(std) + len(other) {
	case 0:
		return out
	case 1:
		out = append(out, "import "...)
		out = spec(out, slices.Concat(std, other)[0])
		return append(out, "\n\n"...)
	}
	out = append(out, "import (\n"...)
	for i, group := range [][]string{std, other} {
		if i > 0 && len(std) > 0 && len(group) > 0 {
			out = append(out, '\n')
		}
		for _, p := range group {
			out = append(out, '\t')
			out = spec(out, p)
			out = append(out, '\n')
		}
	}
	return append(out, ")\n\n"...)
}

// stdPath reports whether path is the standard library's, as goimports
// tells: its first element has no dot.
func stdPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return !strings.Contains(first, ".")
}

// importName is the name generated files refer to an import path by, the
// one jennifer picks: the last path element.
func importName(_ *gen, path string) string {
	return path[strings.LastIndexByte(path, '/')+1:]
}

// importAliased reports whether an import needs its name written: only
// when the last element of the path, which generated code refers to the
// package by (importName), is not what the package is assumed to be named
// (goimports' rule: a major version suffix such as v2, or an element that
// is not an identifier, leaves the name to guess). The paths generated
// code imports, the standard library's and the runtime's, are named by
// their last element, so none is aliased; every import has a distinct
// last element, so none needs a name to avoid a collision.
func importAliased(_ *gen, path string) bool {
	name := importName(nil, path)
	if !token.IsIdentifier(name) || name != strings.ToLower(name) {
		return true
	}
	if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" && strings.Contains(path, "/") {
		return true // a major version suffix
	}
	return false
}
