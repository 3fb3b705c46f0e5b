package gateway

import (
	"sort"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// nearest returns up to n candidates close to q: by edit distance (within a
// third of the longer string, at least 2), by prefix in either direction,
// or by sharing the last path segment. Closest first, ties by name. A
// query longer than text.MaxSuggestLen gets no suggestion, and distances
// are banded (text.DistanceAtMost): the cost is linear in the candidates
// whatever the query.
func nearest(q string, candidates []string, n int) []string {
	q = strings.TrimSpace(q)
	if q == "" || n <= 0 || len(q) > text.MaxSuggestLen {
		return nil
	}
	q = strings.ToLower(q)
	qLast := q[strings.LastIndexAny(q, "._")+1:]
	byName := append([]string(nil), candidates...)
	sort.Strings(byName)
	return text.Rank(byName, n, func(c string) (int, bool) {
		lc := strings.ToLower(c)
		limit := max(2, max(len(q), len(lc))/3)
		d := text.DistanceAtMost(q, lc, limit)
		switch {
		case d <= limit:
		case strings.HasPrefix(lc, q+".") || strings.HasPrefix(q, lc+"."):
			d = limit + 1
		case len(qLast) >= 3 && strings.HasSuffix(lc, "."+qLast):
			d = limit + 2
		case len(q) >= 3 && strings.HasPrefix(lc, q):
			d = limit + 1
		default:
			return 0, false
		}
		return d, true
	})
}

// pathSeparators are the separators of an op path's words, as spaces.
var pathSeparators = strings.NewReplacer(".", " ", "_", " ", "-", " ")

// suggestOps combines edit-distance neighbours of q with search hits for q
// read as words, without duplicates, at most n.
func (g *Gateway) suggestOps(q string, n int) []string {
	if len(q) > text.MaxSuggestLen {
		return nil
	}
	out := nearest(q, g.opPaths(), n)
	words := pathSeparators.Replace(q)
	for _, h := range g.index.Search(words, n) {
		if len(out) >= n {
			break
		}
		dup := false
		for _, o := range out {
			dup = dup || o == h.Op
		}
		if !dup {
			out = append(out, h.Op)
		}
	}
	return out
}

func (g *Gateway) opPaths() []string {
	out := make([]string, len(g.order))
	for i, b := range g.order {
		out[i] = b.op.Path
	}
	return out
}
