package jsonpos

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Visible returns s with every rune a terminal would act on rather than
// show escaped in visible form, so that text taken from tool definitions
// (property names, patterns, descriptions, enum values) can be printed to
// a terminal. Definitions are attacker-controlled: a raw ESC or BEL starts
// an escape sequence (retitle the window, clear the screen, recolour), a
// raw line break forges a line of output ("all good, 0 errors"), and a
// bidi override reorders what follows it.
//
// Escaped are the control characters (C0, DEL and C1, U+0085 among them),
// the format characters (bidi embeddings, overrides and isolates U+202A–
// U+202E and U+2066–U+2069, zero-width characters, U+FEFF, tag
// characters), the line and paragraph separators U+2028 and U+2029, and
// bytes that are not UTF-8. '\n', '\r' and '\t' show as those escapes,
// other runes as \uXXXX (\UXXXXXXXX above U+FFFF) and bad bytes as \xNN,
// as Go and JSON spell them. Everything else, backslashes included, is
// unchanged, so text that is already quoted reads the same.
//
// Visible escapes line breaks too: a caller printing several lines
// escapes each line.
func Visible(s string) string {
	i := 0
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if hidden(r, n) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case !hidden(r, n):
			b.WriteString(s[i : i+n])
		case r == utf8.RuneError:
			b.WriteString(`\x`)
			b.WriteString(hexDigits(uint32(s[i]), 2))
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r > 0xffff:
			b.WriteString(`\U`)
			b.WriteString(hexDigits(uint32(r), 8))
		default:
			b.WriteString(`\u`)
			b.WriteString(hexDigits(uint32(r), 4))
		}
		i += n
	}
	return b.String()
}

// hidden reports whether the rune r, n bytes long in its string, is one
// Visible escapes: a byte that is not UTF-8, or a control, format, line
// separator or paragraph separator character.
func hidden(r rune, n int) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	if r == utf8.RuneError && n == 1 {
		return true
	}
	return unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp)
}

// hexDigits formats v in lower-case hexadecimal, zero-padded to width.
func hexDigits(v uint32, width int) string {
	h := strconv.FormatUint(uint64(v), 16)
	return strings.Repeat("0", max(0, width-len(h))) + h
}
