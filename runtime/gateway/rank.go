package gateway

import (
	"encoding/json"
	"math"
	goruntime "runtime"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The fields of an indexed op (BM25F). Names carry the intent (entity and
// action); argument names, at any depth, say what an op consumes; enum and
// const values name the things an op knows about; descriptions add
// vocabulary.
const (
	fieldName = iota
	fieldArgs
	fieldEnum
	fieldDesc
	fieldArgDesc
	numFields
)

// rankParams are the ranker's constants. defaultRank holds the values
// chosen by cross-validation (search_cv_test.go): every b is a BM25 length
// normalisation in [0,1], every weight a multiplier of evidence.
type rankParams struct {
	K1     float64
	Weight [numFields]float64
	B      [numFields]float64
	// Synonym and Prefix discount a query word's lexicon synonyms and the
	// indexed words sharing a prefix of at least MinPrefix bytes with it.
	Synonym, Prefix float64
	MinPrefix       int
	// ExpandUnknownOnly and PrefixUnknownOnly keep synonyms and prefix
	// neighbours for query words the family does not use itself.
	ExpandUnknownOnly, PrefixUnknownOnly bool
	// Feedback weighs pseudo-relevance feedback terms (0: none).
	Feedback float64
	// Compound is the term frequency given to the parts of a compound word
	// ("airfare": "air", "fare") whose parts the family uses on their own.
	Compound float64
	// Coverage multiplies an op's score by 1+Coverage×(share of the query's
	// idf mass it matches): rare words count more than common ones.
	Coverage float64
	// Action, Family and Penalty weigh the fit of the query's action verb
	// and the op's; List rewards a listing op whose entity the query names
	// in the plural.
	Action, Family, Penalty, List float64
	// RerankDepth candidates of the first stage are re-scored by
	// NameCoverage (share of the query's idf mass found in the op's name)
	// and Proximity (share of the query's adjacent word pairs found close
	// together in the op's name and description).
	RerankDepth             int
	NameCoverage, Proximity float64
}

var defaultRank = rankParams{
	K1:           1.6,
	Weight:       [numFields]float64{fieldName: 1.0, fieldArgs: 0.5, fieldEnum: 0.5, fieldDesc: 1.0, fieldArgDesc: 0.25},
	B:            [numFields]float64{fieldName: 0.75, fieldArgs: 0.5, fieldEnum: 0.5, fieldDesc: 0.75, fieldArgDesc: 0.75},
	Synonym:      0.6,
	Prefix:       0.5,
	MinPrefix:    5,
	Compound:     0.5,
	Coverage:     1.0,
	Action:       0.1,
	Family:       0.1,
	Penalty:      0.1,
	List:         0.25,
	RerankDepth:  50,
	NameCoverage: 0.5,
	Proximity:    0.25,
}

// Reranker re-scores the first stage's best candidates for a query, e.g.
// by the similarity of embeddings (EmbeddingReranker). It returns one
// score per candidate, higher is better; the index then orders candidates
// by it. An error leaves the lexical order in place.
type Reranker interface {
	Rerank(query string, cands []Candidate) ([]float64, error)
}

// Candidate is one op of the first stage handed to a Reranker: its index
// in the ops the Index was built over, the op and its lexical score.
type Candidate struct {
	Index int
	Op    *Op
	Score float64
}

// IndexOption configures NewIndex.
type IndexOption func(*Index)

// WithReranker adds a second-stage re-ranker over the lexical index's best
// RerankDepth (50) candidates.
func WithReranker(r Reranker) IndexOption { return func(ix *Index) { ix.rerank = r } }

// Index ranks ops for natural-language queries: BM25F over the op's names,
// argument names, enum values, description and argument descriptions, with
// snake/camel case splitting, light stemming, compound splitting learned
// from the family's own words, a synonym lexicon and prefix matches, then
// a re-ranking of the best 50 by how much of the query's rare words the
// op's name holds and how closely its words follow the query's (see the
// package doc). It is immutable and safe for concurrent use.
type Index struct {
	p        rankParams
	ops      []Op
	names    [][]string    // distinct stems of each op's name field
	seq      [][]string    // stems of each op's name and description, in order
	action   []actionClass // each op's action
	postings map[string]*postings
	vocab    []string // sorted terms of postings
	compound map[string][2]string
	rerank   Reranker
}

// postings are the ops a term occurs in, with its idf and, per op, its
// BM25F pseudo term frequency (field-weighted, length-normalised).
type postings struct {
	idf  float64
	docs []int32
	tf   []float64
}

type posting struct {
	doc int
	tf  [numFields]float64
}

// NewIndex indexes ops.
func NewIndex(ops []Op, opts ...IndexOption) *Index {
	return newIndex(ops, nil, defaultRank, opts...)
}

// newIndex indexes ops with the constants p; schemas, when not nil, are
// the ops' parameters already parsed (the gateway's), so that they are not
// parsed twice.
func newIndex(ops []Op, schemas []*schemaNode, p rankParams, opts ...IndexOption) *Index {
	ix := &Index{p: p, ops: ops, postings: map[string]*postings{},
		names: make([][]string, len(ops)), seq: make([][]string, len(ops)),
		action: make([]actionClass, len(ops))}
	for _, o := range opts {
		o(ix)
	}
	// First pass: every op's words per field (in parallel: it parses each
	// op's schema), then how many ops use each word.
	fields := make([][numFields][]string, len(ops))
	workers := min(goruntime.GOMAXPROCS(0), (len(ops)+127)/128)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := stemmer{}
			for i := w; i < len(ops); i += workers {
				var s *schemaNode
				if i < len(schemas) {
					s = schemas[i]
				}
				fields[i] = opFields(&ops[i], s, c)
			}
		}()
	}
	wg.Wait()
	df := map[string]int{}
	seen := map[string]bool{}
	for i, op := range ops {
		ix.action[i] = opAction(op)
		clear(seen)
		for _, ts := range fields[i] {
			for _, t := range ts {
				if !seen[t] {
					seen[t] = true
					df[t]++
				}
			}
		}
	}
	ix.compound = compounds(df)
	// Second pass: postings, with a compound's parts counted too.
	lens := make([][numFields]float64, len(ops))
	var avg [numFields]float64
	raw := make(map[string][]posting, len(df))
	tf := map[string]*posting{}
	for i := range ops {
		f := &fields[i]
		clear(tf)
		add := func(t string, fi int, w float64) {
			pp := tf[t]
			if pp == nil {
				pp = &posting{doc: i}
				tf[t] = pp
			}
			pp.tf[fi] += w
		}
		for fi, ts := range f {
			lens[i][fi] = float64(len(ts))
			avg[fi] += float64(len(ts))
			for _, t := range ts {
				add(t, fi, 1)
				if parts, ok := ix.compound[t]; ok && p.Compound > 0 {
					add(parts[0], fi, p.Compound)
					add(parts[1], fi, p.Compound)
				}
			}
		}
		var names []string
		for _, t := range f[fieldName] {
			if !slices.Contains(names, t) {
				names = append(names, t)
			}
			if parts, ok := ix.compound[t]; ok {
				for _, pt := range parts {
					if !slices.Contains(names, pt) {
						names = append(names, pt)
					}
				}
			}
		}
		ix.names[i] = names
		ix.seq[i] = append(slices.Clip(f[fieldName]), f[fieldDesc]...)
		for t, pp := range tf {
			raw[t] = append(raw[t], *pp)
		}
	}
	for fi := range avg {
		if len(ops) > 0 {
			avg[fi] /= float64(len(ops))
		}
		if avg[fi] == 0 {
			avg[fi] = 1
		}
	}
	n := float64(len(ops))
	ix.vocab = make([]string, 0, len(raw))
	for t, ps := range raw {
		d := float64(len(ps))
		pl := &postings{idf: math.Log(1 + (n-d+0.5)/(d+0.5)), docs: make([]int32, len(ps)), tf: make([]float64, len(ps))}
		for j, pp := range ps {
			var tf float64
			for fi := range numFields {
				if pp.tf[fi] != 0 {
					tf += p.Weight[fi] * pp.tf[fi] / (1 - p.B[fi] + p.B[fi]*lens[pp.doc][fi]/avg[fi])
				}
			}
			pl.docs[j], pl.tf[j] = int32(pp.doc), tf
		}
		ix.postings[t] = pl
		ix.vocab = append(ix.vocab, t)
	}
	sort.Strings(ix.vocab)
	return ix
}

// opFields are the stemmed words of each of op's fields.
func opFields(op *Op, s *schemaNode, c stemmer) [numFields][]string {
	var f [numFields][]string
	f[fieldName] = c.terms(op.Path + " " + op.Tool + " " + op.Entity + " " + op.Action)
	f[fieldDesc] = c.terms(op.Description)
	var an, ae, ad strings.Builder
	if s == nil && len(op.Parameters) > 0 {
		var n schemaNode
		if json.Unmarshal(op.Parameters, &n) == nil {
			s = &n
		}
	}
	if s != nil {
		budget := maxSchemaWalk
		s.walkWords(0, &budget, &an, &ae, &ad)
	}
	if an.Len() == 0 {
		for _, a := range op.Args {
			an.WriteString(a.Name + " ")
			ad.WriteString(a.Description + " ")
		}
	}
	f[fieldArgs] = c.terms(an.String())
	f[fieldEnum] = c.terms(ae.String())
	f[fieldArgDesc] = c.terms(ad.String())
	return f
}

// maxSchemaWalk bounds the schema nodes read per op for search words.
const maxSchemaWalk = 2000

// walkWords writes the property names, enum and const values and property
// descriptions of s and its subschemas, depth and node count bounded.
func (s *schemaNode) walkWords(depth int, budget *int, names, enums, descs *strings.Builder) {
	if s == nil || depth > 12 || *budget <= 0 {
		return
	}
	*budget--
	for _, e := range s.Enum {
		writeValueWords(enums, e)
	}
	if len(s.Const) > 0 {
		writeValueWords(enums, s.Const)
	}
	keys := make([]string, 0, len(s.Properties))
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		names.WriteString(k + " ")
		if p := s.Properties[k]; p != nil && p.Description != "" {
			descs.WriteString(p.Description + " ")
		}
		s.Properties[k].walkWords(depth+1, budget, names, enums, descs)
	}
	s.Items.walkWords(depth+1, budget, names, enums, descs)
	for _, a := range s.AnyOf {
		a.walkWords(depth+1, budget, names, enums, descs)
	}
	for _, a := range s.OneOf {
		a.walkWords(depth+1, budget, names, enums, descs)
	}
}

// writeValueWords writes a short string value; other values are skipped.
func writeValueWords(b *strings.Builder, v json.RawMessage) {
	var s string
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil && len(s) <= 64 {
		b.WriteString(s + " ")
	}
}

// compounds finds the family's compound words: a word of six or more
// letters that is two words the family also uses on their own, each of at
// least three letters ("airfare" when "air" and "fare" occur). The split
// with the most common rarer part wins.
func compounds(df map[string]int) map[string][2]string {
	out := map[string][2]string{}
	lookup := func(t string) int { return df[t] }
	for t := range df {
		if parts, ok := splitCompound(t, lookup); ok {
			out[t] = parts
		}
	}
	return out
}

func splitCompound(t string, df func(string) int) ([2]string, bool) {
	if len(t) < 6 || !isASCII(t) {
		return [2]string{}, false
	}
	best, bestDF := [2]string{}, 0
	for i := 3; i <= len(t)-3; i++ {
		a, b := t[:i], t[i:]
		da, db := df(a), df(b)
		if da == 0 {
			// the part may be a stem whose dropped "e" the compound kept
			if strings.HasSuffix(a, "e") {
				da = df(a[:len(a)-1])
				a = a[:len(a)-1]
			}
		}
		if db == 0 {
			if sb := stem(b); sb != b {
				b, db = sb, df(sb)
			}
		}
		if da == 0 || db == 0 {
			continue
		}
		if m := min(da, db); m > bestDF {
			best, bestDF = [2]string{a, b}, m
		}
	}
	return best, bestDF > 0
}

// opAction is the action of op: its registry action, else the first word
// of its path or tool name that names one.
func opAction(op Op) actionClass {
	if a := actionOf[stem(strings.ToLower(op.Action))]; a != actNone {
		return a
	}
	for _, w := range splitWords(op.Path + " " + op.Tool) {
		if a := actionOf[stem(w)]; a != actNone {
			return a
		}
	}
	return actNone
}

// Search returns up to limit ops ranked for query, best first; ops that
// match no query term are left out.
func (ix *Index) Search(query string, limit int) []Hit {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	p := &ix.p
	words := splitWords(fileNames(query))
	qs := make([]string, 0, len(words))
	qAction := actNone
	for _, w := range words {
		if stopWords[w] || isDigits(w) {
			continue
		}
		t := stem(w)
		if qAction == actNone {
			qAction = actionOf[t]
		}
		if _, known := ix.postings[t]; !known {
			// A compound the family writes apart ("airfare" for "air fare").
			if parts, ok := splitCompound(t, ix.dfOf); ok {
				for _, pt := range parts {
					if !slices.Contains(qs, pt) {
						qs = append(qs, pt)
					}
				}
				continue
			}
		}
		if !slices.Contains(qs, t) {
			qs = append(qs, t)
		}
	}
	if len(qs) == 0 {
		return nil
	}
	plurals := pluralStems(words)
	scores := make([]float64, len(ix.ops))
	covered := make([]float64, len(ix.ops))
	best := make([]float64, len(ix.ops))
	qw := make([]float64, len(qs)) // each query word's idf, 0 when unknown
	var total float64
	var touched []int
	for i, q := range qs {
		// A query term scores what it scores itself or, if better, what its
		// best synonym or prefix neighbour scores, discounted; never both.
		touched = touched[:0]
		w := ix.accumulate(q, 1, best, &touched)
		if w == 0 || !p.ExpandUnknownOnly {
			for _, s := range synonyms[q] {
				w = max(w, p.Synonym*ix.accumulate(s, p.Synonym, best, &touched))
			}
		}
		if w == 0 || !p.PrefixUnknownOnly {
			ix.prefixes(q, func(t string) { w = max(w, p.Prefix*ix.accumulate(t, p.Prefix, best, &touched)) })
		}
		qw[i] = w
		total += w
		for _, d := range touched {
			scores[d] += best[d]
			covered[d] += w
			best[d] = 0
		}
	}
	if total == 0 {
		return nil
	}
	if p.Feedback > 0 {
		ix.feedback(qs, scores, best)
	}
	depth := max(limit, p.RerankDepth)
	top := make([]scored, 0, depth+1)
	for d, s := range scores {
		if s == 0 {
			continue
		}
		// Reward covering more of the query's rare words.
		s *= 1 + p.Coverage*covered[d]/total
		s *= ix.actionFactor(qAction, ix.action[d])
		// A plural noun naming the op's entity ("the tasks of…") asks for
		// a listing rather than one item.
		if ix.action[d] == actList || ix.action[d] == actSearch {
			for _, pl := range plurals {
				if slices.Contains(ix.names[d], pl) {
					s *= 1 + p.List
					break
				}
			}
		}
		top = ix.keep(top, scored{doc: d, score: s}, depth)
	}
	// Second stage: the op's name and the order of its words.
	if p.NameCoverage != 0 || p.Proximity != 0 {
		for i := range top {
			c := &top[i]
			var nameW float64
			for j, q := range qs {
				if slices.Contains(ix.names[c.doc], q) {
					nameW += qw[j]
				}
			}
			c.score *= 1 + p.NameCoverage*nameW/total + p.Proximity*ix.proximity(c.doc, qs)
		}
	}
	if ix.rerank != nil && len(top) > 0 {
		cands := make([]Candidate, len(top))
		for i, c := range top {
			cands[i] = Candidate{Index: c.doc, Op: &ix.ops[c.doc], Score: c.score}
		}
		if s, err := ix.rerank.Rerank(query, cands); err == nil && len(s) == len(top) {
			for i := range top {
				top[i].score = s[i]
			}
		}
	}
	for i := range top {
		top[i].score = math.Round(top[i].score*1e6) / 1e6
	}
	sort.SliceStable(top, func(i, j int) bool { return ix.before(top[i], top[j]) })
	top = top[:min(limit, len(top))]
	hits := make([]Hit, len(top))
	for i, c := range top {
		op := ix.ops[c.doc]
		hits[i] = Hit{Op: op.Path, Tool: op.Tool, Kind: op.Kind, Score: c.score, Usage: op.Usage}
	}
	return hits
}

// feedback is pseudo-relevance feedback: the name words of the best
// feedbackDocs ops, weighted by their scores and rarity, are added to the
// query at weight Feedback (vocabulary learned from the family's own
// names for this query).
func (ix *Index) feedback(qs []string, scores, best []float64) {
	const feedbackDocs, feedbackTerms = 3, 5
	var top []scored
	for d, s := range scores {
		if s > 0 {
			top = ix.keep(top, scored{doc: d, score: s}, feedbackDocs)
		}
	}
	if len(top) == 0 {
		return
	}
	weight := map[string]float64{}
	for _, c := range top {
		for _, t := range ix.names[c.doc] {
			if !slices.Contains(qs, t) {
				if pl := ix.postings[t]; pl != nil {
					weight[t] += c.score / top[0].score * pl.idf
				}
			}
		}
	}
	type tw struct {
		t string
		w float64
	}
	var ts []tw
	for t, w := range weight {
		ts = append(ts, tw{t, w})
	}
	sort.Slice(ts, func(i, j int) bool {
		if ts[i].w != ts[j].w {
			return ts[i].w > ts[j].w
		}
		return ts[i].t < ts[j].t
	})
	var touched []int
	for _, x := range ts[:min(feedbackTerms, len(ts))] {
		touched = touched[:0]
		ix.accumulate(x.t, ix.p.Feedback*x.w/ts[0].w, best, &touched)
		for _, d := range touched {
			scores[d] += best[d]
			best[d] = 0
		}
	}
}

// dfOf is how many ops use t (a map lookup for splitCompound).
func (ix *Index) dfOf(t string) int {
	if p := ix.postings[t]; p != nil {
		return len(p.docs)
	}
	return 0
}

// keep inserts c into top (best first) and keeps at most n.
func (ix *Index) keep(top []scored, c scored, n int) []scored {
	if len(top) == n && !ix.before(c, top[n-1]) {
		return top
	}
	i := sort.Search(len(top), func(i int) bool { return ix.before(c, top[i]) })
	top = slices.Insert(top, i, c)
	if len(top) > n {
		top = top[:n]
	}
	return top
}

// proximity is the share of the query's adjacent word pairs that occur in
// that order within three words of each other in the op's name and
// description.
func (ix *Index) proximity(d int, qs []string) float64 {
	if len(qs) < 2 {
		return 0
	}
	seq := ix.seq[d]
	var found int
	for i := 0; i+1 < len(qs); i++ {
		a, b := qs[i], qs[i+1]
	scan:
		for j, t := range seq {
			if t != a {
				continue
			}
			for k := j + 1; k < len(seq) && k <= j+3; k++ {
				if seq[k] == b {
					found++
					break scan
				}
			}
		}
	}
	return float64(found) / float64(len(qs)-1)
}

type scored struct {
	doc   int
	score float64
}

// before orders hits: higher score first, then op path.
func (ix *Index) before(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return ix.ops[a.doc].Path < ix.ops[b.doc].Path
}

// actionFactor weighs an op by how its action fits the query's.
func (ix *Index) actionFactor(q, op actionClass) float64 {
	switch {
	case q == actNone || op == actNone:
		return 1
	case q == op:
		return 1 + ix.p.Action
	case q.reads() && op.reads():
		return 1 + ix.p.Family
	default:
		return 1 - ix.p.Penalty
	}
}

// prefixes calls fn for each indexed term that shares a prefix of at least
// MinPrefix bytes with q and is a prefix of q or has q as its prefix
// ("mitigat" and "mitigation"), other than q itself.
func (ix *Index) prefixes(q string, fn func(string)) {
	if ix.p.MinPrefix <= 0 || len(q) < ix.p.MinPrefix {
		return
	}
	for i := sort.SearchStrings(ix.vocab, q); i < len(ix.vocab) && strings.HasPrefix(ix.vocab[i], q); i++ {
		if ix.vocab[i] != q {
			fn(ix.vocab[i])
		}
	}
	for l := ix.p.MinPrefix; l < len(q); l++ {
		if _, ok := ix.postings[q[:l]]; ok {
			fn(q[:l])
		}
	}
}

// accumulate keeps, per doc, the best weighted BM25F score of term t and
// returns t's idf (0 when t is not indexed).
func (ix *Index) accumulate(t string, w float64, best []float64, touched *[]int) float64 {
	ps := ix.postings[t]
	if ps == nil {
		return 0
	}
	w *= ps.idf
	k1 := ix.p.K1
	for j, d := range ps.docs {
		tf := ps.tf[j]
		s := w * tf / (k1 + tf)
		if best[d] == 0 {
			*touched = append(*touched, int(d))
		}
		if s > best[d] {
			best[d] = s
		}
	}
	return ps.idf
}

// pluralStems returns the stems of the query's words that were plural.
func pluralStems(words []string) []string {
	var out []string
	for _, w := range words {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !stopWords[w] {
			out = append(out, stem(w))
		}
	}
	return out
}
