package text

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// FirstSentence returns the first sentence of s's first line, cut at a word
// boundary to at most n bytes and marked with "…" when cut. A sentence ends
// at '.', '!' or '?' followed by a space and an upper-case letter, unless the
// word ending there is an abbreviation ("e.g. Paris" and "i.e. A" do not end
// one). The gateway's help entries, the facades' inner-tool listings and the
// generated sections summarise descriptions with it.
func FirstSentence(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if e := SentenceEnd(s); e > 0 {
		s = s[:e]
	}
	if len(s) > n {
		cut := strings.LastIndexByte(s[:n], ' ')
		if cut < n/2 {
			cut = n
			for cut > 0 && !utf8.RuneStart(s[cut]) {
				cut--
			}
		}
		s = strings.TrimRight(s[:cut], " ,;:") + "…"
	}
	return s
}

// SentenceEnd returns the length of the first sentence of s, by the rule
// FirstSentence states, or -1 when no sentence ends before the end of s.
func SentenceEnd(s string) int {
	for i := 0; i+2 < len(s); i++ {
		c := s[i]
		if (c == '.' || c == '!' || c == '?') && s[i+1] == ' ' && isUpperStart(s[i+2:]) && !(c == '.' && endsWithAbbrev(s[:i+1])) {
			return i + 1
		}
	}
	return -1
}

func isUpperStart(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsUpper(r)
}

// endsWithAbbrev reports whether s ends with an abbreviation whose period
// does not end a sentence. It reads the last bytes of s only: SentenceEnd
// asks it at every period of a text that may hold thousands.
func endsWithAbbrev(s string) bool {
	for _, a := range []string{"e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "no."} {
		n := len(s) - len(a)
		if n >= 0 && equalFoldASCII(s[n:], a) && (n == 0 || s[n-1] == ' ' || s[n-1] == '(') {
			return true
		}
	}
	return false
}

// equalFoldASCII reports whether s, lowered in ASCII, is lower (ASCII,
// lower case, of the same length).
func equalFoldASCII(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// pointerEscaper escapes a JSON pointer reference token.
var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// PointerToken escapes key as one JSON pointer reference token (RFC 6901:
// '~' becomes "~0", '/' becomes "~1"), for FieldError paths such as
// "/" + PointerToken(name).
func PointerToken(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return pointerEscaper.Replace(key)
}
