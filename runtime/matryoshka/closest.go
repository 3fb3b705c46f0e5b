package matryoshka

import (
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
	ls := strings.ToLower(text.Truncate(name, text.MaxSuggestLen))
	far := len(name) > text.MaxSuggestLen
	out := text.Rank(candidates, -1, func(c string) (int, bool) {
		if far {
			return closestLimit + 1, true
		}
		lc := strings.ToLower(c)
		d := text.DistanceAtMost(ls, lc, closestLimit)
		if ls != "" && strings.Contains(lc, ls) {
			d = min(d, len(c)-len(ls))
		}
		return d, true
	})
	if len(out) == 0 {
		return []string{""}
	}
	return out
}
