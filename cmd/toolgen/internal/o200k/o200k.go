// Package o200k counts o200k_base tokens, the tokenizer of OpenAI's
// current models, as github.com/tiktoken-go/tokenizer counts them, but in
// a fraction of the time on long, repetitive text such as a tool list.
//
// A tokenizer first cuts text into pieces with one regular expression
// (the pre-tokenizer) and then merges each piece's bytes into tokens
// (byte-pair encoding). tiktoken-go runs the expression through a
// backtracking engine over the text converted to runes, and merges every
// piece it meets. A Counter cuts the text with a scanner written for the
// expression (Pieces), over the UTF-8 bytes, and merges each distinct
// piece once: a tool list repeats the same few thousand pieces ("type",
// `":"`, " the") hundreds of thousands of times.
//
// The counts are tiktoken-go's: the tests compare them on every corpus,
// on a matrix of characters of every class the expression tells apart,
// and in a fuzz target on any text. That includes one place where
// tiktoken-go's compiled expression differs from OpenAI's tiktoken: in
// \s*[\r\n]+, the whitespace run backs off to its first line break, not
// its last, so "\n \n" is two pieces, "\n" and " \n", not one. It only
// matters for raw line breaks inside runs of whitespace, which JSON text
// (a tool list) never has: its line breaks are escaped.
package o200k

import (
	"unicode"
	"unicode/utf8"

	"github.com/tiktoken-go/tokenizer"
)

// Name is the tokenizer's name.
const Name = "o200k_base"

// Counter counts o200k_base tokens. It remembers the count of every piece
// it has met, so one Counter used for many texts gets faster; a Counter
// is not safe for concurrent use.
type Counter struct {
	codec  tokenizer.Codec
	pieces map[string]int
}

// New returns a Counter.
func New() (*Counter, error) {
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		return nil, err
	}
	return &Counter{codec: codec, pieces: map[string]int{}}, nil
}

// Count returns the number of o200k_base tokens in s. Invalid UTF-8 is
// counted as tiktoken-go counts it: each invalid byte as U+FFFD.
func (c *Counter) Count(s string) (int, error) {
	if !utf8.ValidString(s) {
		s = string([]rune(s))
	}
	total := 0
	var err error
	Pieces(s, func(piece string) bool {
		n, ok := c.pieces[piece]
		if !ok {
			if n, err = c.codec.Count(piece); err != nil {
				return false
			}
			c.pieces[piece] = n
		}
		total += n
		return true
	})
	if err != nil {
		return 0, err
	}
	return total, nil
}

// Pieces calls yield with each piece of s, in order, as o200k_base's
// pre-tokenizer in tiktoken-go cuts it (s must be valid UTF-8). The pieces
// cover s but its DEL characters (see skipped).
func Pieces(s string, yield func(string) bool) {
	for i := 0; i < len(s); {
		if s[i] == 0x7f {
			i++
			continue
		}
		j := pieceEnd(s, i)
		if !yield(s[i:j]) {
			return
		}
		i = j
	}
}

// The pre-tokenizer's expression is seven alternatives, the first that
// matches at a position wins, and every character is matched by one of
// them, so the pieces cover the text:
//
//  1. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//  2. [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?
//  3. \p{N}{1,3}
//  4.  ?[^\s\p{L}\p{N}]+[\r\n/]*
//  5. \s*[\r\n]+
//  6. \s+(?!\S)
//  7. \s+
//
// \s is unicode.IsSpace. The optional prefix and the letter runs of the
// first two backtrack; the rest are atomic in the compiled expression.

// class is what the expression asks of a character.
type class uint8

const (
	upper     class = 1 << iota // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
	lower                       // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
	letter                      // \p{L}
	number                      // \p{N}
	space                       // \s
	lineBreak                   // [\r\n]
	// skipped is DEL (U+007F), which no alternative of tiktoken-go's
	// compiled expression matches (its ASCII tables leave the byte out), so
	// tiktoken-go skips it and counts no token for it.
	skipped
)

// ascii is the class of each byte below 0x80.
var ascii = func() (t [utf8.RuneSelf]class) {
	for b := range t {
		t[b] = classify(rune(b))
	}
	return t
}()

func classify(r rune) class {
	var c class
	if unicode.In(r, unicode.Lu, unicode.Lt, unicode.Lm, unicode.Lo, unicode.M) {
		c |= upper
	}
	if unicode.In(r, unicode.Ll, unicode.Lm, unicode.Lo, unicode.M) {
		c |= lower
	}
	if unicode.IsLetter(r) {
		c |= letter
	}
	if unicode.IsNumber(r) {
		c |= number
	}
	if unicode.IsSpace(r) {
		c |= space
	}
	if r == '\r' || r == '\n' {
		c |= lineBreak
	}
	if r == 0x7f {
		c |= skipped
	}
	return c
}

// at is the class and byte length of the character at s[i:].
func at(s string, i int) (class, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return ascii[b], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return classify(r), n
}

// run is the end of the run of characters of class want from s[i:].
func run(s string, i int, want class) int {
	for i < len(s) {
		c, n := at(s, i)
		if c&want == 0 {
			break
		}
		i += n
	}
	return i
}

// runNot is the end of the run of characters of none of the classes in
// not from s[i:].
func runNot(s string, i int, not class) int {
	for i < len(s) {
		c, n := at(s, i)
		if c&not != 0 {
			break
		}
		i += n
	}
	return i
}

// pieceEnd is the end of the piece that starts at s[i] (i < len(s)).
func pieceEnd(s string, i int) int {
	c, n := at(s, i)
	if j := letters(s, i, c, n); j > i {
		return j
	}
	if c&number != 0 { // 3
		j := i + n
		for k := 1; k < 3 && j < len(s); k++ {
			c, n := at(s, j)
			if c&number == 0 {
				break
			}
			j += n
		}
		return j
	}
	j := i // 4
	if s[j] == ' ' {
		j++
	}
	if k := runNot(s, j, space|letter|number|skipped); k > j {
		for k < len(s) && (s[k] == '\r' || s[k] == '\n' || s[k] == '/') {
			k++
		}
		return k
	}
	// Only whitespace is left: 5, 6 or 7.
	end, firstBreak, last := i, -1, i
	for end < len(s) {
		c, n := at(s, end)
		if c&space == 0 {
			break
		}
		if c&lineBreak != 0 && firstBreak < 0 {
			firstBreak = end
		}
		last = end
		end += n
	}
	switch {
	case firstBreak >= 0: // 5, as tiktoken-go backs off (see Counter)
		k := firstBreak
		for k < len(s) && (s[k] == '\r' || s[k] == '\n') {
			k++
		}
		return k
	case end == len(s) || last == i: // 6 at the end of the text, or 7
		return end
	default: // 6: the run but its last character
		return last
	}
}

// letters is the end of alternative 1 or 2 at s[i], whose first
// character is of class c and n bytes long, or i when neither matches.
func letters(s string, i int, c class, n int) int {
	starts := []int{i}
	if c&(letter|number|lineBreak|skipped) == 0 {
		starts = []int{i + n, i} // the prefix taken first, then not
	}
	for _, st := range starts {
		// 1: the upper run backs off one character at a time until a
		// lower-class character follows it.
		end := run(s, st, upper)
		for q := end; ; {
			if q < len(s) {
				if c, _ := at(s, q); c&lower != 0 {
					return contraction(s, run(s, q, lower))
				}
			}
			if q == st {
				break
			}
			_, n := utf8.DecodeLastRuneInString(s[st:q])
			q -= n
		}
	}
	for _, st := range starts { // 2
		if end := run(s, st, upper); end > st {
			return contraction(s, run(s, end, lower))
		}
	}
	return i
}

// contraction is the end of (?i:'s|'t|'re|'ve|'m|'ll|'d)? at s[i:].
// Case-folded, 's also matches 'ſ (U+017F).
func contraction(s string, i int) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	fold := func(k int, b byte) bool { return k < len(s) && s[k]|0x20 == b }
	switch s[i+1] | 0x20 {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if fold(i+2, 'e') {
			return i + 3
		}
	case 'l':
		if fold(i+2, 'l') {
			return i + 3
		}
	}
	if len(s[i+1:]) >= 2 && s[i+1:i+3] == "ſ" {
		return i + 3
	}
	return i
}
