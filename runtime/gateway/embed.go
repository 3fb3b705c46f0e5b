package gateway

import (
	"errors"
	"math"
	"sync"
)

// Embedder turns texts into vectors whose cosine similarity says how close
// their meanings are (a sentence-embedding model). It is the hook for
// semantic search; toolgen ships none and needs none.
type Embedder interface {
	Embed(texts []string) ([][]float32, error)
}

// EmbeddingReranker is a Reranker that mixes the lexical score of each
// candidate with the cosine similarity of the query's embedding and the
// op's (its path, tool name and description), each scaled to [0,1] over
// the candidates: score = (1-Weight)·lexical + Weight·cosine. Op
// embeddings are computed once, on first use, and cached by op path.
type EmbeddingReranker struct {
	Embedder Embedder
	// Weight of the embedding similarity, in [0,1]; 0.5 when zero.
	Weight float64

	mu  sync.Mutex
	ops map[string][]float32
}

// Rerank implements Reranker.
func (r *EmbeddingReranker) Rerank(query string, cands []Candidate) ([]float64, error) {
	if r.Embedder == nil {
		return nil, errors.New("EmbeddingReranker: no Embedder")
	}
	w := r.Weight
	if w <= 0 || w > 1 {
		w = 0.5
	}
	r.mu.Lock()
	if r.ops == nil {
		r.ops = map[string][]float32{}
	}
	var texts []string
	var missing []string
	for _, c := range cands {
		if _, ok := r.ops[c.Op.Path]; !ok {
			missing = append(missing, c.Op.Path)
			texts = append(texts, c.Op.Path+" "+c.Op.Tool+": "+c.Op.Description)
		}
	}
	r.mu.Unlock()
	vecs, err := r.Embedder.Embed(append(texts, query))
	if err != nil {
		return nil, err
	}
	if len(vecs) != len(texts)+1 {
		return nil, errors.New("EmbeddingReranker: Embed returned the wrong number of vectors")
	}
	q := vecs[len(vecs)-1]
	r.mu.Lock()
	for i, op := range missing {
		r.ops[op] = vecs[i]
	}
	sims := make([]float64, len(cands))
	for i, c := range cands {
		sims[i] = cosine(q, r.ops[c.Op.Path])
	}
	r.mu.Unlock()
	lex := make([]float64, len(cands))
	for i, c := range cands {
		lex[i] = c.Score
	}
	scale(lex)
	scale(sims)
	out := make([]float64, len(cands))
	for i := range cands {
		out[i] = (1-w)*lex[i] + w*sims[i]
	}
	return out, nil
}

// scale maps xs linearly onto [0,1] (all 1 when they are equal).
func scale(xs []float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	for i, x := range xs {
		if hi > lo {
			xs[i] = (x - lo) / (hi - lo)
		} else {
			xs[i] = 1
		}
	}
}

func cosine(a, b []float32) float64 {
	if len(a) != len(b) || len(a) == 0 {
		return 0
	}
	var dot, na, nb float64
	for i := range a {
		dot += float64(a[i]) * float64(b[i])
		na += float64(a[i]) * float64(a[i])
		nb += float64(b[i]) * float64(b[i])
	}
	if na == 0 || nb == 0 {
		return 0
	}
	return dot / math.Sqrt(na*nb)
}
