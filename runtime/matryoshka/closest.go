package matryoshka

import (
	"sort"
	"strings"
)

// closest returns candidates ordered by edit distance to name (case
// folded; a candidate containing name ranks by the letters it adds), ties
// kept in their given order. With no candidates it returns [""], so callers
// may always index [0].
func closest(name string, candidates []string) []string {
	type scored struct {
		s    string
		dist int
	}
	ls := strings.ToLower(name)
	sc := make([]scored, len(candidates))
	for i, c := range candidates {
		d := distance(ls, strings.ToLower(c))
		if strings.Contains(strings.ToLower(c), ls) && ls != "" {
			d = min(d, len(c)-len(ls))
		}
		sc[i] = scored{c, d}
	}
	sort.SliceStable(sc, func(i, j int) bool { return sc[i].dist < sc[j].dist })
	out := make([]string, len(sc))
	for i, s := range sc {
		out[i] = s.s
	}
	if len(out) == 0 {
		return []string{""}
	}
	return out
}

// distance is the Levenshtein distance between a and b, in bytes.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
