package text

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// closestByDefinition is Closest as its documentation states it: full
// distances over normalized runes, no shortcut.
func closestByDefinition(s string, candidates []string) string {
	if s == "" || len(s) > MaxSuggestLen {
		return ""
	}
	norm := func(x string) string { return string(appendNormalized(nil, x)) }
	ns := norm(s)
	best, bestD := "", -1
	for _, c := range candidates {
		if c == s || len(c) > MaxSuggestLen {
			continue
		}
		nc := norm(c)
		la, lb := len([]rune(ns)), len([]rune(nc))
		d := Distance(ns, nc)
		if d <= max(max(la, lb)/3, 1) && d < min(la, lb) && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

// The ASCII fast path, the length cut-off and the tightened limits choose
// what the definition chooses.
func TestClosestMatchesDefinition(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	word := func(alphabet string) string {
		var b strings.Builder
		for range r.IntN(12) {
			b.WriteString(string([]rune(alphabet)[r.IntN(len([]rune(alphabet)))]))
		}
		return b.String()
	}
	for _, alphabet := range []string{"abAB-_ ", "abcdefghijkl-", "abcdeé", "ab\xffc"} {
		for range 3000 {
			s := word(alphabet)
			cands := make([]string, r.IntN(6))
			for i := range cands {
				cands[i] = word(alphabet)
				if r.IntN(4) == 0 && len(s) > 0 {
					// A near miss of s.
					b := []byte(s)
					b[r.IntN(len(b))] = 'a'
					cands[i] = string(b)
				}
			}
			if got, want := Closest(s, cands), closestByDefinition(s, cands); got != want {
				t.Fatalf("Closest(%q, %q) = %q, want %q", s, cands, got, want)
			}
		}
	}
}

// The bit-parallel distance of the ASCII path is the optimal string
// alignment distance, transpositions included, up to 64 bytes.
func TestOSAPatternDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	word := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc_"[r.IntN(4)]
		}
		return b
	}
	for range 5000 {
		a := word(r.IntN(shortASCII + 1))
		b := word(r.IntN(shortASCII + 1))
		if r.IntN(2) == 0 && len(a) > 1 {
			// b: a with adjacent bytes swapped and one dropped.
			b = append([]byte(nil), a...)
			i := r.IntN(len(b) - 1)
			b[i], b[i+1] = b[i+1], b[i]
			if r.IntN(2) == 0 {
				b = append(b[:i], b[i+1:]...)
			}
		}
		var p osaPattern
		p.init(a)
		if got, want := p.distance(b), Distance(string(a), string(b)); got != want {
			t.Fatalf("distance(%q, %q) = %d, want %d", a, b, got, want)
		}
	}
}

func BenchmarkClosest(b *testing.B) {
	enum := []string{"draft", "active", "paused", "archived"}
	b.ReportAllocs()
	for b.Loop() {
		_ = Closest("deleted", enum)
		_ = Closest("opened", []string{"open", "closed", "all"})
	}
}

func TestCloseName(t *testing.T) {
	known := []string{"path", "format", "include_examples", "include_schemas", "limit"}
	for in, want := range map[string]string{
		"fmt":          "format",
		"Format":       "format",
		"lim":          "limit",
		"pth":          "path",
		"schemas":      "include_schemas",
		"inc_examples": "include_examples",
		"formt":        "format",
		"x":            "",
		"query":        "",
		"":             "",
	} {
		if got := CloseName(in, known); got != want {
			t.Errorf("CloseName(%q) = %q, want %q", in, got, want)
		}
	}
}
