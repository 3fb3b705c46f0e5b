package generator

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/generator/internal/gotext"
)

// Composite literals of static data (runtime/shape tables and checks),
// written as text laid out as gofmt lays them out: a catalogue's package
// holds thousands of tables, and formatting them through go/parser and
// go/printer cost more than all the rest of its generation. TestLitLayout
// holds every form, and random trees of them, to go/format, and
// TestTablesDifferential the tables of every golden family.
//
// The layout is the one go/printer gives a literal written with a keyed
// element a line when it has two or more (a jennifer Dict), else on one
// line:
//   - a literal of one line stays on one line;
//   - the keys of a dict of two or more keys are sorted and written one
//     a line, a tab deeper than the line the literal starts on, and its
//     closing brace goes on a line of its own at that line's indent;
//   - consecutive pairs whose values fit on one line align their values
//     one space past the longest key of the run (go/printer's tabwriter
//     cell); a pair whose value spans lines is not aligned and ends the
//     run, as a key much longer or shorter than the run's do (alignRuns);
//   - a list of multi-line dicts writes them as {{ … }, { … }}, their
//     keys a tab deeper than the list's line.

// litNode is an expression of a data literal.
type litNode interface {
	// oneLine reports whether the expression is written on one line.
	oneLine() bool
	// write writes the expression to s; indent is the indentation of the
	// line it starts on.
	write(s *srcFile, indent int)
}

// litTerm is a one-line expression.
type litTerm func(s *srcFile)

func (t litTerm) oneLine() bool           { return true }
func (t litTerm) write(s *srcFile, _ int) { t(s) }

// litQual is the qualified identifier path.name.
func litQual(path, name string) litNode {
	return litTerm(func(s *srcFile) { s.qual(path, name) })
}

// litAddr is &name, the address of a package variable.
func litAddr(name string) litNode {
	return litTerm(func(s *srcFile) { s.text("&"); s.ident(name) })
}

// litStr is the interpreted string literal of v.
func litStr(v string) litNode {
	return litTerm(func(s *srcFile) { s.lit(v) })
}

// litInt is the decimal literal of n.
func litInt(n int) litNode {
	return litTerm(func(s *srcFile) { s.int(n) })
}

// litTrue is true.
var litTrue litNode = litTerm(func(s *srcFile) { s.text("true") })

// litBool is true or false.
func litBool(b bool) litNode {
	if b {
		return litTrue
	}
	return litTerm(func(s *srcFile) { s.text("false") })
}

// litFloat is the float64 literal of f, as jennifer writes it.
func litFloat(f float64) litNode {
	return litTerm(func(s *srcFile) { s.float(f) })
}

// litNum is the literal of a JSON number's text, or nil when text is not
// one.
func litNum(text string) litNode {
	if !gotext.IsNumber(text) {
		return nil
	}
	return litTerm(func(s *srcFile) { s.num(text) })
}

// litOffsetof is unsafe.Offsetof(typ{}.field).
func litOffsetof(typ, field string) litNode {
	return litTerm(func(s *srcFile) {
		s.qual("unsafe", "Offsetof")
		s.text("(")
		s.ident(typ)
		s.text("{}.")
		s.ident(field)
		s.text(")")
	})
}

// litTypedNil is (*typ)(nil): a table's Type and Opt, which the runtime
// allocates values of.
func litTypedNil(typ string) litNode {
	return litTerm(func(s *srcFile) { s.text("(*"); s.ident(typ); s.text(")(nil)") })
}

// litType is the type a composite literal starts with: [&][[]]path.name,
// [&][[]]name when path is empty, or nothing (an element of a list).
type litType struct {
	addr, slice bool
	path, name  string
}

func (t litType) write(s *srcFile) {
	if t.addr {
		s.text("&")
	}
	if t.slice {
		s.text("[]")
	}
	switch {
	case t.path != "":
		s.qual(t.path, t.name)
	case t.name != "":
		s.ident(t.name)
	}
}

// litPair is a key (a constant field name) and its value.
type litPair struct {
	key string
	val litNode
}

// litDict is a keyed composite literal; add skips nil values, as a
// jennifer Dict skips null ones.
type litDict struct {
	typ   litType
	pairs []litPair
}

func (d *litDict) add(key string, val litNode) {
	if val != nil {
		d.pairs = append(d.pairs, litPair{key, val})
	}
}

func (d *litDict) sorted() []litPair {
	slices.SortFunc(d.pairs, func(a, b litPair) int { return strings.Compare(a.key, b.key) })
	return d.pairs
}

func (d *litDict) oneLine() bool {
	return len(d.pairs) == 0 || len(d.pairs) == 1 && d.pairs[0].val.oneLine()
}

func (d *litDict) write(s *srcFile, indent int) {
	d.typ.write(s)
	d.body(s, indent)
}

// body writes the braces and what they hold.
func (d *litDict) body(s *srcFile, indent int) {
	pairs := d.sorted()
	switch len(pairs) {
	case 0:
		s.text("{}")
		return
	case 1:
		s.text("{")
		s.ident(pairs[0].key)
		s.text(": ")
		pairs[0].val.write(s, indent)
		s.text("}")
		return
	}
	s.text("{\n")
	for _, run := range alignRuns(pairs) {
		width := 0
		for _, p := range run {
			width = max(width, len(p.key))
		}
		for _, p := range run {
			tabs(s, indent+1)
			s.ident(p.key)
			s.text(":")
			pad := 1
			if p.val.oneLine() {
				pad += width - len(p.key)
			}
			spaces(s, pad)
			p.val.write(s, indent+1)
			s.text(",\n")
		}
	}
	tabs(s, indent)
	s.text("}")
}

// alignRuns splits the pairs of a multi-line dict where go/printer's
// exprList starts a new section (a formfeed, which ends the tabwriter's
// column): around a pair whose value spans lines, and between one-line
// pairs whose key lengths differ too much (both over 40 bytes and one
// 2.5 times the geometric mean of the section's so far, or less than
// 1/2.5 of it). Each run aligns its values past its longest key.
func alignRuns(pairs []litPair) [][]litPair {
	var runs [][]litPair
	start, size := 0, 0
	lnsum, count := 0.0, 0
	for i, p := range pairs {
		prevSize := size
		size = 0
		if p.val.oneLine() {
			size = len(p.key)
		}
		newSection := true
		if prevSize > 0 && size > 0 {
			const smallSize, r = 40, 2.5
			if count == 0 || prevSize <= smallSize && size <= smallSize {
				newSection = false
			} else {
				ratio := float64(size) / math.Exp(lnsum/float64(count))
				newSection = r*ratio <= 1 || r <= ratio
			}
		}
		if i > 0 && newSection {
			runs = append(runs, pairs[start:i])
			start = i
			lnsum, count = 0, 0
		}
		if size > 0 {
			lnsum += math.Log(float64(size))
			count++
		}
	}
	return append(runs, pairs[start:])
}

// litList is a composite literal of elements without keys: all on one
// line, or dicts of two or more pairs each (the fields of a table).
type litList struct {
	typ   litType
	elems []litNode
}

func (l *litList) oneLine() bool {
	for _, e := range l.elems {
		if !e.oneLine() {
			return false
		}
	}
	return true
}

func (l *litList) write(s *srcFile, indent int) {
	l.typ.write(s)
	s.text("{")
	if l.oneLine() {
		for i, e := range l.elems {
			if i > 0 {
				s.text(", ")
			}
			e.write(s, indent)
		}
		s.text("}")
		return
	}
	for i, e := range l.elems {
		d, ok := e.(*litDict)
		if !ok || d.typ != (litType{}) || len(d.pairs) < 2 {
			// Not a form go/printer lays out as written here: a bug in
			// the generator, which builds only these.
			panic(fmt.Sprintf("litList: element %d is not a multi-line dict", i))
		}
		if i > 0 {
			s.text(", ")
		}
		d.body(s, indent)
	}
	s.text("}")
}

// tabs writes n tabs.
func tabs(s *srcFile, n int) {
	for range n {
		s.text("\t")
	}
}

// spaces writes n spaces.
func spaces(s *srcFile, n int) {
	for range n {
		s.text(" ")
	}
}

// litVar writes the package variable name = val after doc, as text.
func (s *srcFile) litVar(doc, name string, val litNode) {
	s.decl()
	s.comment("", doc)
	s.text("var ")
	s.ident(name)
	s.text(" = ")
	val.write(s, 0)
	s.text("\n")
}
