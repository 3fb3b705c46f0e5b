package check

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidate nearest to s, for "did you mean" hints on
// enum values and argument names; "" when none is close. Comparison ignores
// case and treats '_', '-' and ' ' alike; distance is the optimal string
// alignment edit distance (a transposition counts as one edit), accepted up
// to a third of the longer string and below the shorter one's length. Ties
// go to the earlier candidate.
func Closest(s string, candidates []string) string {
	if s == "" {
		return ""
	}
	ns := []rune(normalizeWord(s))
	best, bestD := "", -1
	for _, c := range candidates {
		if c == s {
			continue
		}
		nc := []rune(normalizeWord(c))
		longer, shorter := max(len(ns), len(nc)), min(len(ns), len(nc))
		limit := max(longer/3, 1)
		if d := osaDistance(ns, nc, limit); d <= limit && d < shorter && (bestD < 0 || d < bestD) {
			best, bestD = c, d
		}
	}
	return best
}

func normalizeWord(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range strings.ToLower(s) {
		if r == '-' || r == ' ' {
			r = '_'
		}
		if r != utf8.RuneError {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Distance is the optimal string alignment edit distance between a and b,
// counted in code points: insertions, deletions, substitutions and
// transpositions of adjacent code points cost one each. Comparison is
// exact; callers fold case first where they want it folded. The runtime's
// ranked suggestions (gateway op paths, facade tool names) order by it.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	return osaDistance(ra, rb, max(len(ra), len(rb)))
}

// osaDistance is the optimal string alignment distance of a and b, or
// limit+1 once it is known to exceed limit.
func osaDistance(a, b []rune, limit int) int {
	if d := len(a) - len(b); d > limit || -d > limit {
		return limit + 1
	}
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
