package check

import (
	"strings"
	"unicode/utf8"
)

// FirstSentence returns the first sentence of s's first line, cut at a word
// boundary to at most n bytes and marked with "…" when cut. A period counts
// as a sentence end only when followed by a space and at least six bytes in,
// so "e.g. x" and "v1. x" at the start survive. The gateway's help entries
// and the facades' inner-tool listings summarise descriptions with it.
func FirstSentence(s string, n int) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '.' && s[i+1] == ' ' && i >= 6 {
			s = s[:i+1]
			break
		}
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
