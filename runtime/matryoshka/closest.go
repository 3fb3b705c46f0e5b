package matryoshka

import (
	"sort"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// closest returns candidates ordered by edit distance (text.Distance) to name (case
// folded; a candidate containing name ranks by the letters it adds), ties
// kept in their given order. With no candidates it returns [""], so callers
// may always index [0]. Distances beyond closestLimit count as equal and a
// name longer than text.MaxSuggestLen is not compared at all, so hostile
// names cost linear time.
// closestLimit is the edit distance beyond which candidates rank equal.
const closestLimit = 32

func closest(name string, candidates []string) []string {
	type scored struct {
		s    string
		dist int
	}
	ls := strings.ToLower(text.Truncate(name, text.MaxSuggestLen))
	far := len(name) > text.MaxSuggestLen
	sc := make([]scored, len(candidates))
	for i, c := range candidates {
		if far {
			sc[i] = scored{c, closestLimit + 1}
			continue
		}
		d := text.DistanceAtMost(ls, strings.ToLower(c), closestLimit)
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
