package matryoshka

import (
	"sort"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/check"
)

// closest returns candidates ordered by edit distance (check.Distance) to name (case
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
		d := check.Distance(ls, strings.ToLower(c))
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
