package jsonpos

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// Source is the text a document was parsed from, for going back from a
// node's position to its bytes. ParseText reads an unpaired surrogate
// escape ("\ud800") as U+FFFD and marks the string (Node.Replaced); a
// caller that refuses such text finds the escape itself with
// UnpairedSurrogate, to report it where it is, as the parser reports
// invalid UTF-8.
type Source struct {
	src string
	// lines are the offsets at which lines start, found on first use.
	lines []int
}

// NewSource returns the Source of a document parsed from src (by
// ParseText, ParseDepth or Parse); a leading byte order mark is skipped as
// the parser skips it.
func NewSource(src string) *Source {
	return &Source{src: strings.TrimPrefix(src, "\uFEFF")}
}

// MayHoldSurrogates reports whether src may hold a surrogate escape at all
// (\uD800–\uDFFF): when it does not, no string parsed from it was
// replaced, and nothing needs looking for.
func MayHoldSurrogates(src string) bool {
	return strings.Contains(src, `\ud`) || strings.Contains(src, `\uD`)
}

// UnpairedSurrogate finds the first unpaired surrogate escape in the JSON
// string (a value or an object key) whose opening quote is at, a position
// of this source (Node.Pos, Member.KeyPos). It returns the escape's
// position (at's file and pointer, the escape's line and column) and its
// text (`\ud800`); ok is false when the string has none, or at is not the
// start of a string of this source.
//
// A surrogate escape is paired as the parser pairs it: a high surrogate
// followed at once by an escaped low one. Anything else, a low surrogate
// first among them, is unpaired.
func (s *Source) UnpairedSurrogate(at ir.Pos) (pos ir.Pos, esc string, ok bool) {
	off, found := s.offset(at)
	if !found || s.src[off] != '"' {
		return ir.Pos{}, "", false
	}
	src := s.src
	for i := off + 1; i < len(src); {
		switch src[i] {
		case '"':
			return ir.Pos{}, "", false
		case '\\':
			if i+1 >= len(src) || src[i+1] != 'u' {
				i += 2
				continue
			}
			r, valid := text.Hex4(src, i+2)
			if !valid {
				return ir.Pos{}, "", false // the parser refuses it
			}
			if !utf16.IsSurrogate(r) {
				i += 6
				continue
			}
			j := i + 6
			if j+1 < len(src) && src[j] == '\\' && src[j+1] == 'u' {
				if r2, valid := text.Hex4(src, j+2); valid && utf16.DecodeRune(r, r2) != utf8.RuneError {
					i = j + 6
					continue
				}
			}
			// A string holds no line break: the escape is on at's line.
			pos = at
			pos.Col += i - off
			return pos, src[i : i+6], true
		default:
			i++
		}
	}
	return ir.Pos{}, "", false
}

// offset returns the byte offset of pos's line and column.
func (s *Source) offset(pos ir.Pos) (int, bool) {
	if s.lines == nil {
		s.lines = append(s.lines, 0)
		for i := 0; i < len(s.src); i++ {
			if s.src[i] == '\n' {
				s.lines = append(s.lines, i+1)
			}
		}
	}
	if pos.Line < 1 || pos.Line > len(s.lines) || pos.Col < 1 {
		return 0, false
	}
	off := s.lines[pos.Line-1] + pos.Col - 1
	if off >= len(s.src) {
		return 0, false
	}
	return off, true
}
