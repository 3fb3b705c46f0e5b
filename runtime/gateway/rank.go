package gateway

import (
	"cmp"
	"math"
	"math/bits"
	"slices"
	"sort"
	"strings"
)

// The fields of an indexed op (BM25F). Names carry the intent (entity and
// action); argument names, at any depth, say what an op consumes; enum and
// const values name the things an op knows about; descriptions add
// vocabulary. An indexed op holds its words in this order (opWords).
const (
	fieldName = iota
	fieldDesc
	fieldArgs
	fieldEnum
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
	// KnownSynonym further discounts the synonyms of a query word the
	// family uses itself (1: as for a word it does not use; 0: synonyms
	// only for words the family lacks), and PrefixUnknownOnly keeps
	// prefix neighbours for words the family does not use.
	KnownSynonym      float64
	PrefixUnknownOnly bool
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
	// K3 saturates a query word's weight in the number of times the
	// query repeats it, (K3+1)·n/(K3+n) as in Okapi BM25 (0: each word
	// once, however often repeated). A long question repeats what it is
	// about ("air quality … the air quality index").
	K3 float64
	// Value multiplies an op's score by 1+Value for each kind of value
	// the query holds (a date, a time, a URL, an amount of money, …) that
	// one of the op's arguments takes (values.go, queryKinds).
	Value float64
	// Fit divides an op's score by 1+Fit when one of its required
	// arguments takes a kind of value the query neither holds nor names
	// (an op that requires a date, for a question with no date and no
	// word "date"): the question does not give what the op needs. Only
	// a schema that leaves some property optional counts; one that
	// requires them all does not say which ones a question must give.
	Fit float64
}

var defaultRank = rankParams{
	K1:           1.6,
	Weight:       [numFields]float64{fieldName: 1.0, fieldArgs: 0.5, fieldEnum: 0.5, fieldDesc: 1.0, fieldArgDesc: 0.5},
	B:            [numFields]float64{fieldName: 0.75, fieldArgs: 0.5, fieldEnum: 0.5, fieldDesc: 1, fieldArgDesc: 0.75},
	Synonym:      0.6,
	KnownSynonym: 1,
	Prefix:       0.5,
	MinPrefix:    5,
	Compound:     0,
	Coverage:     0.5,
	Action:       0.1,
	Family:       0.1,
	Penalty:      0.1,
	List:         0.25,
	RerankDepth:  50,
	NameCoverage: 0,
	Proximity:    1.0,
	K3:           0.5,
	Value:        0.2,
	Fit:          0.1,
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
// snake/camel case splitting, stemming of inflections and derivations,
// compound splitting learned from the family's own words, a synonym
// lexicon and prefix matches, then a re-ranking of the best 50 by how
// closely the op's words follow the query's, near-duplicates ordered by
// how much of their name the query names (see the package doc). It is
// immutable and safe for concurrent use.
type Index struct {
	p      rankParams
	ops    []Op
	ids    map[string]int32 // term → id
	terms  []string         // id → term
	post   []postings       // by term id
	parts  [][2]int32       // a compound term's parts (-1: none), by term id
	names  [][]int32        // distinct terms of each op's name field, compounds' parts too
	seq    [][]int32        // terms of each op's name and description, in order
	action []actionClass    // each op's action
	kinds  []valueKinds     // the kinds of value each op's arguments take
	needs  []valueKinds     // the kinds of value each op's required arguments take
	vocab  []string         // sorted terms
	byName nameTable        // ops by their identifiers
	rerank Reranker
}

// postings are the ops a term occurs in, with its idf and, per op, its
// BM25F pseudo term frequency (field-weighted, length-normalised).
type postings struct {
	idf  float64
	docs []int32
	tf   []float64
}

// postingsOf are t's postings, nil when no op uses t.
func (ix *Index) postingsOf(t string) *postings {
	if k, ok := ix.ids[t]; ok {
		return &ix.post[k]
	}
	return nil
}

// id is t's term id, -1 when no op uses t.
func (ix *Index) id(t string) int32 {
	if k, ok := ix.ids[t]; ok {
		return k
	}
	return -1
}

// Search returns up to limit ops ranked for query, best first; ops that
// match no query term are left out. It ranks in two stages: every op that
// matches a query term is scored (BM25F, then the factors of coverage,
// action, values and plurals) and the best RerankDepth kept; those are
// scored again by their names and the order of their words, then by the
// Reranker when there is one. An op whose tool name or path the query
// writes out as an identifier ("lawsuit_search"), the only one it writes,
// goes first.
func (ix *Index) Search(query string, limit int) []Hit {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	// The ranking makes room for limit hits up front: a limit past the
	// ops (math.MaxInt for "all") panicked or ran out of memory.
	limit = min(limit, len(ix.ops))
	top := ix.rank(query, limit)
	// An op the query names by its identifier goes first.
	if d := ix.byName.namedOp(query); d >= 0 {
		k := slices.IndexFunc(top, func(c scored) bool { return c.doc == d })
		if k < 0 {
			top = append(top, scored{doc: d})
			k = len(top) - 1
		}
		named := top[k]
		copy(top[1:k+1], top[:k])
		top[0] = named
	}
	hits := make([]Hit, min(limit, len(top)))
	for i, c := range top[:len(hits)] {
		op := ix.ops[c.doc]
		hits[i] = Hit{Op: op.Path, Tool: op.Tool, Kind: op.Kind, Score: c.score, Usage: op.Usage}
	}
	return hits
}

// rank scores the ops for query and returns the best, at least limit of
// them when that many match, best first.
func (ix *Index) rank(query string, limit int) []scored {
	q := ix.readQuery(query)
	if len(q.terms) == 0 {
		return nil
	}
	m := ix.match(q)
	if m.total == 0 {
		return nil
	}
	if ix.p.Feedback > 0 {
		ix.feedback(q.ids, m.scores, m.best)
	}
	top := ix.firstStage(q, m, max(limit, ix.p.RerankDepth))
	ix.secondStage(q, m, top)
	sort.SliceStable(top, func(i, j int) bool { return ix.before(top[i], top[j]) })
	return top
}

// searchQuery is what Search reads from a query.
type searchQuery struct {
	text    string
	action  actionClass // the action the query asks for
	terms   []string    // its terms, in the order it first says them
	tf      []int       // how often it says each term
	ids     []int32     // each term's id, -1 when no op uses it
	plurals []int32     // ids of the plural nouns it names
	kinds   valueKinds  // the kinds of value it holds (when values count)
	named   valueKinds  // the kinds of the arguments its words name ("date", "price")
}

func (ix *Index) readQuery(query string) searchQuery {
	words := splitWords(fileNames(query))
	stems := queryStems(words)
	qt := ix.queryTerms(words, stems)
	q := searchQuery{text: query, action: queryAction(words, stems), terms: qt.terms, tf: qt.tf}
	if len(q.terms) == 0 {
		return q
	}
	for _, t := range pluralStems(words) {
		if k := ix.id(t); k >= 0 {
			q.plurals = append(q.plurals, k)
		}
	}
	q.ids = make([]int32, len(q.terms))
	for i, t := range q.terms {
		q.ids[i] = ix.id(t)
	}
	if ix.p.Value > 0 || ix.p.Fit > 0 {
		q.kinds = queryKinds(query)
	}
	if ix.p.Fit > 0 {
		q.named = q.kinds
		for _, st := range stems {
			q.named |= stemKinds[st]
		}
	}
	return q
}

// matches are the first stage's sums, per op: its BM25F score and the
// weight of the query terms it matches; per query term, its weight.
type matches struct {
	scores, covered []float64 // by op
	best            []float64 // scratch, by op: zero between uses
	weight          []float64 // by query term: its idf, 0 when unknown
	total           float64   // the weights' sum
}

// match scores every op that matches a query term.
func (ix *Index) match(q searchQuery) matches {
	p := &ix.p
	m := matches{scores: make([]float64, len(ix.ops)), covered: make([]float64, len(ix.ops)),
		best: make([]float64, len(ix.ops)), weight: make([]float64, len(q.terms))}
	best := m.best // not m: the closure below would move m to the heap
	var touched []int
	for i, t := range q.terms {
		// A query term scores what it scores itself or, if better, what its
		// best synonym or prefix neighbour scores, discounted; never both.
		touched = touched[:0]
		w := ix.accumulate(t, 1, best, &touched)
		syn := p.Synonym
		if w > 0 {
			syn *= p.KnownSynonym
		}
		if syn > 0 {
			for _, s := range synonyms[t] {
				w = max(w, syn*ix.accumulate(s, syn, best, &touched))
			}
		}
		if w == 0 || !p.PrefixUnknownOnly {
			ix.prefixes(t, func(n string) { w = max(w, p.Prefix*ix.accumulate(n, p.Prefix, best, &touched)) })
		}
		f := 1.0
		if n := float64(q.tf[i]); n > 1 && p.K3 > 0 {
			f = (p.K3 + 1) * n / (p.K3 + n)
		}
		w *= f
		m.weight[i] = w
		m.total += w
		for _, d := range touched {
			m.scores[d] += f * best[d]
			m.covered[d] += w
			best[d] = 0
		}
	}
	return m
}

// firstStage applies the factors of coverage, action, values and plurals
// to every op matched and keeps the best depth.
func (ix *Index) firstStage(q searchQuery, m matches, depth int) []scored {
	p := &ix.p
	top := make([]scored, 0, depth+1)
	for d, s := range m.scores {
		if s == 0 {
			continue
		}
		// Reward covering more of the query's rare words.
		s *= 1 + p.Coverage*m.covered[d]/m.total
		s *= ix.actionFactor(q.action, ix.action[d])
		if q.kinds != 0 {
			s *= 1 + p.Value*float64(bits.OnesCount16(uint16(q.kinds&ix.kinds[d])))
		}
		if ix.needs[d]&^q.named != 0 {
			s /= 1 + p.Fit
		}
		// A plural noun naming the op's entity ("the tasks of…") asks for
		// a listing rather than one item.
		if ix.action[d] == actList || ix.action[d] == actSearch {
			for _, pl := range q.plurals {
				if slices.Contains(ix.names[d], pl) {
					s *= 1 + p.List
					break
				}
			}
		}
		top = ix.keep(top, scored{doc: d, score: s}, depth)
	}
	return top
}

// secondStage scores the kept ops again by their names and the order of
// their words, then by the Reranker. Scores are rounded to six decimals:
// scores that differ by float rounding alone tie, and the more specific
// name goes first.
func (ix *Index) secondStage(q searchQuery, m matches, top []scored) {
	p := &ix.p
	for i := range top {
		// Of ops that score the same (near-duplicate tools), the one whose
		// name holds the fewest words the query leaves out goes first.
		top[i].spec = ix.nameShare(top[i].doc, q.ids)
	}
	if p.NameCoverage != 0 || p.Proximity != 0 {
		pairs := newQueryPairs(q.ids)
		for i := range top {
			c := &top[i]
			var nameW float64
			for j, k := range q.ids {
				if k >= 0 && slices.Contains(ix.names[c.doc], k) {
					nameW += m.weight[j]
				}
			}
			c.score *= 1 + p.NameCoverage*nameW/m.total + p.Proximity*pairs.proximity(ix.seq[c.doc])
		}
	}
	if ix.rerank != nil && len(top) > 0 {
		cands := make([]Candidate, len(top))
		for i, c := range top {
			cands[i] = Candidate{Index: c.doc, Op: &ix.ops[c.doc], Score: c.score}
		}
		if s, err := ix.rerank.Rerank(q.text, cands); err == nil && len(s) == len(top) {
			for i := range top {
				top[i].score = s[i]
			}
		}
	}
	for i := range top {
		top[i].score = math.Round(top[i].score*1e6) / 1e6
	}
}

// queryTerms are a query's terms in the order it first says them, with
// how often it says each: the stems of its words, words the family writes
// as one joined ("to-do" for "todo", "web site" for "website"), and
// compounds it writes apart split ("airfare" for "air fare").
func (ix *Index) queryTerms(words, stems []string) termList {
	qt := termList{terms: make([]string, 0, len(words)), tf: make([]int, 0, len(words))}
	for i, w := range words {
		// Two words the family writes as one ("to-do" for "todo", "web
		// site" for "website"), learned from its own terms.
		if i+1 < len(words) && !isDigits(w) && !isDigits(words[i+1]) {
			if j := stem(w + words[i+1]); len(j) >= 4 && ix.id(j) >= 0 && qt.index(j) < 0 {
				qt.add(j)
			}
		}
		t := stems[i]
		if t == "" {
			continue
		}
		if ix.id(t) < 0 {
			// A compound the family writes apart ("airfare" for "air fare").
			if parts, ok := splitCompound(t, ix.dfOf); ok {
				for _, pt := range parts {
					if qt.index(pt) < 0 {
						qt.add(pt)
					}
				}
				continue
			}
		}
		if i := qt.index(t); i >= 0 {
			qt.tf[i]++
		} else {
			qt.add(t)
		}
	}
	return qt
}

// termScan is the number of query terms up to which termList finds a
// term by scanning them; past it a map indexes them, so that a query of
// many distinct words costs time linear in its length while an ordinary
// one allocates no map.
const termScan = 64

// termList is a list of distinct query terms with a count each.
type termList struct {
	terms []string
	tf    []int
	at    map[string]int // each term's index, once there are more than termScan
	// scanned counts the terms compared while scanning (tests check that
	// it grows linearly with the query).
	scanned int
}

// index is t's index in l, -1 when l does not hold t.
func (l *termList) index(t string) int {
	if l.at != nil {
		if i, ok := l.at[t]; ok {
			return i
		}
		return -1
	}
	l.scanned += len(l.terms)
	return slices.Index(l.terms, t)
}

// add appends t, which l does not hold, with a count of 1.
func (l *termList) add(t string) {
	l.terms = append(l.terms, t)
	l.tf = append(l.tf, 1)
	switch {
	case l.at != nil:
		l.at[t] = len(l.terms) - 1
	case len(l.terms) > termScan:
		l.at = make(map[string]int, 2*len(l.terms))
		for i, u := range l.terms {
			l.at[u] = i
		}
	}
}

// feedback is pseudo-relevance feedback: the name words of the best
// feedbackDocs ops, weighted by their scores and rarity, are added to the
// query at weight Feedback (vocabulary learned from the family's own
// names for this query).
func (ix *Index) feedback(qs []int32, scores, best []float64) {
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
	weight := map[int32]float64{}
	for _, c := range top {
		for _, k := range ix.names[c.doc] {
			if !slices.Contains(qs, k) {
				weight[k] += c.score / top[0].score * ix.post[k].idf
			}
		}
	}
	type tw struct {
		t int32
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
		return ix.terms[ts[i].t] < ix.terms[ts[j].t]
	})
	var touched []int
	for _, x := range ts[:min(feedbackTerms, len(ts))] {
		touched = touched[:0]
		ix.accumulate(ix.terms[x.t], ix.p.Feedback*x.w/ts[0].w, best, &touched)
		for _, d := range touched {
			scores[d] += best[d]
			best[d] = 0
		}
	}
}

// dfOf is how many ops use t (a map lookup for splitCompound).
func (ix *Index) dfOf(t string) int {
	if p := ix.postingsOf(t); p != nil {
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

// nameShare is the share of the idf mass of op d's name words that the
// query terms qs hold.
func (ix *Index) nameShare(d int, qs []int32) float64 {
	var all, found float64
	for _, k := range ix.names[d] {
		idf := ix.post[k].idf
		all += idf
		if slices.Contains(qs, k) {
			found += idf
		}
	}
	if all == 0 {
		return 0
	}
	return found / all
}

// queryPairs are a query's adjacent term pairs, by their first term, for
// proximity: each op's text is read once, whatever the number of pairs
// (looking for each pair in the whole text cost the product of the two,
// 210 ms a search for a query of 1 KB and descriptions of 50,000 words).
type queryPairs struct {
	ids   []int32 // the query's term ids: distinct, but for -1 (unknown)
	first []int32 // i of each pair (ids[i], ids[i+1]) of known terms, by ids[i]
	found []bool  // by i: the pair was found in the op's text
	// starts has a bit for each term that starts a pair, by term id
	// from lo, and before counts the bits of the words before each: a
	// term's pair is first[before+its rank in its word].
	lo     int32
	starts []uint64
	before []int32
	// compared counts the op terms compared (tests check that it grows
	// with the op's text alone, not with the query too).
	compared int
}

func newQueryPairs(qs []int32) queryPairs {
	p := queryPairs{ids: qs}
	if len(qs) < 2 {
		return p
	}
	p.first = make([]int32, 0, len(qs)-1)
	for i := 0; i+1 < len(qs); i++ {
		if qs[i] >= 0 && qs[i+1] >= 0 {
			p.first = append(p.first, int32(i))
		}
	}
	slices.SortFunc(p.first, func(a, b int32) int { return cmp.Compare(qs[a], qs[b]) })
	p.found = make([]bool, len(qs)-1)
	if len(p.first) > 0 {
		p.lo = qs[p.first[0]]
		p.starts = make([]uint64, (qs[p.first[len(p.first)-1]]-p.lo)/64+1)
		for _, i := range p.first {
			k := qs[i] - p.lo
			p.starts[k/64] |= 1 << (k % 64)
		}
		p.before = make([]int32, len(p.starts))
		for w := 1; w < len(p.starts); w++ {
			p.before[w] = p.before[w-1] + int32(bits.OnesCount64(p.starts[w-1]))
		}
	}
	return p
}

// proximity is the share of the query's adjacent word pairs that occur in
// that order within three words of each other in seq, an op's name and
// description.
func (p *queryPairs) proximity(seq []int32) float64 {
	qs := p.ids
	if len(qs) < 2 {
		return 0
	}
	clear(p.found)
	var found int
	for j, t := range seq {
		p.compared++
		k := uint32(t - p.lo)
		if int(k/64) >= len(p.starts) || p.starts[k/64]&(1<<(k%64)) == 0 {
			continue
		}
		// The pair that starts with t: the known terms of the query are
		// distinct.
		i := p.first[p.before[k/64]+int32(bits.OnesCount64(p.starts[k/64]&(1<<(k%64)-1)))]
		if p.found[i] {
			continue
		}
		for k := j + 1; k < len(seq) && k <= j+3; k++ {
			p.compared++
			if seq[k] == qs[i+1] {
				p.found[i] = true
				found++
				break
			}
		}
	}
	return float64(found) / float64(len(qs)-1)
}

// scored is a candidate op: its index, score and, in the second stage,
// the share of its name's idf mass that the query holds (spec).
type scored struct {
	doc         int
	score, spec float64
}

// before orders hits: higher score first, then the more specific name
// (spec), then op path.
func (ix *Index) before(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	if a.spec != b.spec {
		return a.spec > b.spec
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
		if ix.id(q[:l]) >= 0 {
			fn(q[:l])
		}
	}
}

// accumulate keeps, per doc, the best weighted BM25F score of term t and
// returns t's idf (0 when t is not indexed).
func (ix *Index) accumulate(t string, w float64, best []float64, touched *[]int) float64 {
	ps := ix.postingsOf(t)
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

// queryAction is the action a query asks for: that of its first action
// word after its first request cue ("can you", "could you", "please",
// "let's", "help me", "I want/need/would like to"), else that of its first
// action word. A question often sets out its context before it asks ("I'm
// booking a trip to Rome next week. Can you find a hotel near the
// station?"): the verb of the request is the action it wants.
// stems are the words' stems (queryStems); a frame verb whose action is
// a read ("show me") is not searched for but still says the request reads.
func queryAction(words, stems []string) actionClass {
	first := func(from int) actionClass {
		for i := from; i < len(stems); i++ {
			st := stems[i]
			if st == "" && frameWord(words, i) && actionOf[stem(words[i])] == actRead {
				st = stem(words[i]) // "show me": the frame presents, a read
			}
			if a := actionOf[st]; st != "" && a != actNone {
				return a
			}
		}
		return actNone
	}
	if cue := requestCue(words); cue >= 0 {
		if a := first(cue); a != actNone {
			return a
		}
	}
	return first(0)
}

// queryStems are the stems of a query's words, "" for stop words,
// numbers and the words of a request's frame (frameWord) — unless the
// frame is all the query says ("hello", "help me").
func queryStems(words []string) []string {
	stems := make([]string, len(words))
	need, framed := false, false
	for i, w := range words {
		if !stopWords[w] && !isDigits(w) && !ordinalSuffix(words, i) {
			if frameWord(words, i) {
				framed = true
				continue
			}
			stems[i] = stem(w)
			need = true
		}
	}
	if !need && framed {
		// nothing but the frame ("hello", "help me"): search for it
		for i, w := range words {
			if !stopWords[w] && !isDigits(w) {
				stems[i] = stem(w)
			}
		}
	}
	return stems
}

// ordinalSuffix reports whether words[i] is the suffix of an ordinal
// number written in digits ("14th", "1st" split into "14", "th"): part of
// a value, not a word.
func ordinalSuffix(words []string, i int) bool {
	switch words[i] {
	case "st", "nd", "rd", "th":
		return i > 0 && isDigits(words[i-1])
	}
	return false
}

// frameWord reports whether words[i] belongs to the frame of a request
// addressed to the assistant ("help me", "tell me", "show me", "give me",
// "let me know", "hi"), which says nothing of the need: "show me a movie"
// asks for a movie, not a show.
func frameWord(words []string, i int) bool {
	next := ""
	if i+1 < len(words) {
		next = words[i+1]
	}
	prev := ""
	if i > 0 {
		prev = words[i-1]
	}
	switch words[i] {
	case "help", "tell", "assist", "show", "give":
		return next == "me" || next == "us"
	case "know":
		return prev == "to" || prev == "me" || prev == "us"
	case "hi", "hey", "hello", "thanks", "thank":
		return true
	}
	return false
}

// requestCue is the index of the word after the query's first request
// cue, -1 when it has none.
func requestCue(words []string) int {
	for i, w := range words {
		var prev string
		if i > 0 {
			prev = words[i-1]
		}
		switch {
		case w == "please", w == "s" && prev == "let":
			return i + 1
		case w == "you" && (prev == "can" || prev == "could" || prev == "would" || prev == "will"):
			return i + 1
		case (w == "me" || w == "us") && prev == "help":
			return i + 1
		case w == "to" && (prev == "want" || prev == "need" || prev == "like" || prev == "wish"):
			return i + 1
		}
	}
	return -1
}
