package text

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// endsWithAbbrevLowered is endsWithAbbrev as it was: the abbreviations
// looked for at the end of all of s lowercased.
func endsWithAbbrevLowered(s string) bool {
	l := strings.ToLower(s)
	for _, a := range []string{"e.g.", "i.e.", "etc.", "vs.", "approx.", "incl.", "no."} {
		if strings.HasSuffix(l, a) && (len(l) == len(a) || l[len(l)-len(a)-1] == ' ' || l[len(l)-len(a)-1] == '(') {
			return true
		}
	}
	return false
}

// TestEndsWithAbbrevAsLowered: endsWithAbbrev reads the end of s alone
// and agrees with lowercasing it all, for letters whose lower case is
// another length or ASCII (K, the Kelvin sign, is k; İ is i and a dot)
// and invalid UTF-8 too.
func TestEndsWithAbbrevAsLowered(t *testing.T) {
	parts := []string{"e", "E", "g", "G", "i", "I", "\u0130", "t", "T", "c", "C", "v", "V", "s", "S", "\u017f", "a", "A",
		"p", "P", "r", "R", "o", "O", "x", "X", "n", "N", "l", "L", "\u212a", "k", ".", " ", "(", "\xff", "\xc3", "é", "É", "ẞ", "x."}
	r := rand.New(rand.NewPCG(5, 6))
	for range 200000 {
		var b strings.Builder
		for range r.IntN(10) {
			b.WriteString(parts[r.IntN(len(parts))])
		}
		s := b.String()
		if got, want := endsWithAbbrev(s), endsWithAbbrevLowered(s); got != want {
			t.Fatalf("endsWithAbbrev(%q) = %v, want %v", s, got, want)
		}
	}
	for _, s := range []string{"e.g.", "E.G.", "(i.e.", "x etc.", "xetc.", "Approx.", "vs", "no.", "No.", " NO.", "incl"} {
		if got, want := endsWithAbbrev(s), endsWithAbbrevLowered(s); got != want {
			t.Errorf("endsWithAbbrev(%q) = %v, want %v", s, got, want)
		}
	}
}
