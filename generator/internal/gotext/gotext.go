// Package gotext is the only way text from a tool definition reaches
// generated Go source: Comment turns it into // line comments that cannot
// start a directive or a block comment, and Literal into a string literal
// that holds it exactly.
//
// Definitions are written by strangers. A description line "//go:generate
// rm -rf ~" must stay prose, a "*/" must not close anything, and a NUL or a
// byte order mark must neither break gofmt nor hide in the file: the
// generator calls these functions for every definition string it emits,
// and golden/hostile_test.go proves it over a corpus of hostile strings.
package gotext

import (
	"fmt"
	"go/doc/comment"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Comment renders text as Go line comments, one per line, each "// "
// followed by the line or "//" for an empty one (leading and trailing blank
// lines and trailing spaces are dropped). "\r\n", "\r" and "\n" end lines;
// any other control character, format character (U+FEFF, bidi overrides,
// ...), line or paragraph separator and invalid UTF-8 byte is shown escaped
// (\x00, \u202e), and so is the "+" of every "+build" (a build
// constraint). No returned line can therefore begin a directive
// (//go:, //line, //export, build constraints) or a block comment.
func Comment(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	lines := strings.Split(text, "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		l = escapeLine(strings.TrimRight(l, " \t"))
		if l == "" {
			out[i] = "//"
			continue
		}
		out[i] = "// " + l
	}
	return out
}

// DocComment is Comment for the doc comment of a top-level declaration,
// in the form gofmt gives it: go/printer reformats such a comment through
// go/doc/comment (an indented line becomes a code block set off by blank
// lines, a list is indented, link definitions move to the end), and so
// does DocComment, the same way and until gofmt would change nothing, so
// that text written straight into a file needs no formatting. The lines stay Comment's (no line can begin a
// directive: every one starts "// ", "//\t" or is "//").
func DocComment(text string) []string {
	lines := Comment(text)
	if plainDoc(lines) {
		return lines
	}
	// gofmt is not idempotent on every comment (an indented "*" list
	// item that the first pass rewrites as "-" reads differently in the
	// second): reformat until the lines are what gofmt leaves alone.
	for range 4 {
		next := formatDoc(lines)
		if slices.Equal(next, lines) {
			break
		}
		lines = next
	}
	return lines
}

// plainDoc reports whether gofmt leaves doc comment lines as they are, so
// that DocComment need not parse them: one line of prose (a single
// paragraph is no heading, and only indented lines make lists and code)
// that starts with a letter (no "#" heading) and holds no bracket (no
// link or link definition), no tab, and no two backquotes or two
// apostrophes in a row (gofmt prints each pair as a curly quote).
func plainDoc(lines []string) bool {
	if len(lines) != 1 || len(lines[0]) < len("// x") {
		return false
	}
	l := lines[0][len("// "):]
	if c := l[0] | 0x20; c < 'a' || c > 'z' {
		return false
	}
	return !strings.ContainsAny(l, "[]\t") && !strings.Contains(l, "``") && !strings.Contains(l, "''")
}

// formatDoc is go/printer's formatDocComment on lines without directives.
func formatDoc(lines []string) []string {
	if len(lines) == 0 {
		return lines
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimPrefix(strings.TrimPrefix(l, "//"), " "))
		b.WriteByte('\n')
	}
	var p comment.Parser
	var pr comment.Printer
	out := string(pr.Comment(p.Parse(b.String())))
	var formatted []string
	for out != "" {
		var l string
		l, out, _ = strings.Cut(out, "\n")
		// go/printer's output drops trailing white space.
		l = strings.TrimRight(l, " \t")
		switch {
		case l == "":
			l = "//"
		case strings.HasPrefix(l, "\t"):
			l = "//" + l
		default:
			l = "// " + l
		}
		formatted = append(formatted, l)
	}
	return formatted
}

// escapeBreaks shows line breaks escaped.
var escapeBreaks = strings.NewReplacer("\r", `\r`, "\n", `\n`)

// CommentLine is Comment for text that must fit one line (a method's
// summary): line breaks are shown escaped instead of starting new lines.
func CommentLine(text string) string {
	text = escapeBreaks.Replace(text)
	lines := Comment(text)
	if len(lines) == 0 {
		return "//"
	}
	return lines[0]
}

// escapeLine shows the characters of one comment line that must not reach
// a comment as escapes, and neutralises a build constraint.
func escapeLine(l string) string {
	if plain(l) {
		return l
	}
	var b strings.Builder
	for i := 0; i < len(l); {
		r, size := utf8.DecodeRuneInString(l[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, l[i])
		case hidden(r) && r != '\t':
			b.WriteString(runeEscape(r))
		default:
			b.WriteString(l[i : i+size])
		}
		i += size
	}
	// go/build reads "//", any spaces, then "+build" as a constraint, and
	// go vet flags "+build" anywhere in a comment above the package
	// clause: escape its "+" wherever it is.
	return plusBuild.ReplaceAllStringFunc(b.String(), func(m string) string { return `\x2b` + m[1:] })
}

var plusBuild = regexp.MustCompile(`(?i)\+build`)

// plain reports whether escapeLine leaves l as it is, the common case,
// without looking at it rune by rune: printable ASCII without a "+".
func plain(l string) bool {
	for i := 0; i < len(l); i++ {
		if c := l[i]; c < 0x20 && c != '\t' || c >= 0x7f || c == '+' {
			return false
		}
	}
	return true
}

// hidden reports whether r is a character a reader of the source would not
// see as itself: C0 and C1 controls, DEL, format characters (Cf: byte order
// mark, zero-width and bidi controls, ...) and the line and paragraph
// separators.
func hidden(r rune) bool {
	if r < utf8.RuneSelf {
		return r < 0x20 || r == 0x7f
	}
	return r < 0x20 || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)
}

func runeEscape(r rune) string {
	switch {
	case r < 0x80:
		return fmt.Sprintf(`\x%02x`, r)
	case r <= 0xffff:
		return fmt.Sprintf(`\u%04x`, r)
	}
	return fmt.Sprintf(`\U%08x`, r)
}

// Literal is the Go string literal of s: a raw literal `s` when raw is
// asked and s can be one, an interpreted literal (strconv.Quote) otherwise.
// Either way the literal's value is s byte for byte, and the literal spans
// one source line, so no line of it can be read as a directive by tools
// that scan source text (go generate reads multi-line raw strings too).
func Literal(s string, raw bool) string {
	if raw && CanRaw(s) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

// AppendLiteral appends Literal(s, raw) to dst.
func AppendLiteral(dst []byte, s string, raw bool) []byte {
	if raw && CanRaw(s) {
		dst = append(dst, '`')
		dst = append(dst, s...)
		return append(dst, '`')
	}
	return strconv.AppendQuote(dst, s)
}

// CanRaw reports whether s can be written as a one-line raw string literal
// that holds it exactly and that gofmt accepts: valid UTF-8 without a
// backquote, a carriage return (dropped from raw strings), a newline, NUL,
// a byte order mark or any other control or format character.
func CanRaw(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c == '`' || c != '\t' && hidden(rune(c)) {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || hidden(r) {
			return false
		}
		i += size
	}
	return true
}

// jsonNumber is the JSON number grammar (RFC 8259 §6).
var jsonNumber = regexp.MustCompile(`^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$`)

// IsNumber reports whether s is a JSON number, the only text the
// generator writes as a numeric literal as it is.
func IsNumber(s string) bool { return jsonNumber.MatchString(s) }
