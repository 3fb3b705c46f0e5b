// Test-only: the plain BM25 baseline TestSearchEval and TestSearchSets
// measure tool_search against. It is not part of the library.

package gateway

import (
	"math"
	"sort"
	"strings"
	"unicode"
)

// plainBM25 is the plain baseline ranker tool search is measured against:
// Okapi BM25 (k1 1.2, b 0.75) over the tool name and description,
// lowercased and split at non-alphanumerics, without stemming, synonyms,
// case splitting or field weights.
type plainBM25 struct {
	ops      []Op
	lens     []float64
	avg      float64
	postings map[string]map[int]float64
}

// newPlainBM25 indexes ops for the baseline.
func newPlainBM25(ops []Op) *plainBM25 {
	ix := &plainBM25{ops: ops, lens: make([]float64, len(ops)), postings: map[string]map[int]float64{}}
	for i, op := range ops {
		ts := plainTerms(op.Tool + " " + op.Description)
		ix.lens[i] = float64(len(ts))
		ix.avg += float64(len(ts))
		for _, t := range ts {
			p := ix.postings[t]
			if p == nil {
				p = map[int]float64{}
				ix.postings[t] = p
			}
			p[i]++
		}
	}
	if len(ops) > 0 {
		ix.avg /= float64(len(ops))
	}
	if ix.avg == 0 {
		ix.avg = 1
	}
	return ix
}

func plainTerms(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// Search ranks ops for query, best first, at most limit.
func (ix *plainBM25) Search(query string, limit int) []Hit {
	const k1, b = 1.2, 0.75
	n := float64(len(ix.ops))
	scores := map[int]float64{}
	for _, q := range plainTerms(query) {
		p := ix.postings[q]
		df := float64(len(p))
		if df == 0 {
			continue
		}
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for d, tf := range p {
			scores[d] += idf * tf * (k1 + 1) / (tf + k1*(1-b+b*ix.lens[d]/ix.avg))
		}
	}
	hits := make([]Hit, 0, len(scores))
	for d, s := range scores {
		hits = append(hits, Hit{Op: ix.ops[d].Path, Tool: ix.ops[d].Tool, Kind: ix.ops[d].Kind, Score: s, Usage: ix.ops[d].Usage})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Op < hits[j].Op
	})
	if limit > 0 && len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}
