package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Hit is one ranked op returned by Index.Search.
type Hit struct {
	Op    string  `json:"op"`
	Tool  string  `json:"tool"`
	Kind  string  `json:"kind"`
	Score float64 `json:"score"`
	Usage string  `json:"usage"`
}

// The fields of an indexed op and their weights (BM25F). Names carry the
// intent (entity and action), argument names say what an op consumes,
// descriptions add vocabulary, argument descriptions only a little.
const (
	fieldName = iota
	fieldArgs
	fieldDesc
	fieldArgDesc
	numFields
)

var fieldWeight = [numFields]float64{fieldName: 2.0, fieldArgs: 0.5, fieldDesc: 1.0, fieldArgDesc: 0}
var fieldB = [numFields]float64{fieldName: 3.0, fieldArgs: 0.5, fieldDesc: 0.75, fieldArgDesc: 0.75}

// Ranking constants, tuned on the tuning half of the evaluation queries
// only (search_test.go).
const (
	bm25K1        = 1.6
	synonymWeight = 0.6  // a synonym or related word of a query word
	prefixWeight  = 0.5  // a word sharing a long prefix with a query word
	minPrefix     = 5    // shortest shared prefix that counts
	coverageBoost = 1.0  // full coverage of the query's words multiplies by 1+this
	actionBoost   = 0.1  // the query's action is the op's action
	familyBoost   = 0.1  // both only read (get, list, search)
	actionPenalty = 0.1  // the query asks for another action than the op's
	listBoost     = 0.25 // a plural entity for a listing op
)

// Index ranks ops for natural-language queries: BM25F over the op path,
// tool name, entity and action, argument names, description and argument
// descriptions, with snake/camel case splitting, light stemming, a synonym
// lexicon, prefix matches and an action-verb bonus (see the package doc).
// It is immutable and safe for concurrent use.
type Index struct {
	ops      []Op
	names    []map[string]bool // stems of each op's name field
	action   []actionClass     // each op's action
	postings map[string]*postings
	vocab    []string // sorted terms of postings
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
func NewIndex(ops []Op) *Index {
	ix := &Index{ops: ops, postings: map[string]*postings{},
		names: make([]map[string]bool, len(ops)), action: make([]actionClass, len(ops))}
	lens := make([][numFields]float64, len(ops))
	var avg [numFields]float64
	raw := map[string][]posting{}
	for i, op := range ops {
		var fields [numFields][]string
		fields[fieldName] = terms(op.Op + " " + op.Tool + " " + op.Entity + " " + op.Action)
		ix.names[i] = setOf(fields[fieldName]...)
		ix.action[i] = opAction(op)
		fields[fieldDesc] = terms(op.Description)
		args := op.Args
		if len(args) == 0 && len(op.Parameters) > 0 {
			var s schemaNode
			if json.Unmarshal(op.Parameters, &s) == nil {
				args = s.args()
			}
		}
		var an, ad strings.Builder
		for _, a := range args {
			an.WriteString(a.Name)
			an.WriteByte(' ')
			ad.WriteString(a.Description)
			ad.WriteByte(' ')
		}
		fields[fieldArgs] = terms(an.String())
		fields[fieldArgDesc] = terms(ad.String())
		tf := map[string]*posting{}
		for f, ts := range fields {
			lens[i][f] = float64(len(ts))
			avg[f] += float64(len(ts))
			for _, t := range ts {
				p := tf[t]
				if p == nil {
					p = &posting{doc: i}
					tf[t] = p
				}
				p.tf[f]++
			}
		}
		for t, p := range tf {
			raw[t] = append(raw[t], *p)
		}
	}
	for f := range avg {
		if len(ops) > 0 {
			avg[f] /= float64(len(ops))
		}
		if avg[f] == 0 {
			avg[f] = 1
		}
	}
	n := float64(len(ops))
	ix.vocab = make([]string, 0, len(raw))
	for t, ps := range raw {
		df := float64(len(ps))
		pl := &postings{idf: math.Log(1 + (n-df+0.5)/(df+0.5)), docs: make([]int32, len(ps)), tf: make([]float64, len(ps))}
		for j, p := range ps {
			var tf float64
			for f := range numFields {
				if p.tf[f] != 0 {
					tf += fieldWeight[f] * p.tf[f] / (1 - fieldB[f] + fieldB[f]*lens[p.doc][f]/avg[f])
				}
			}
			pl.docs[j], pl.tf[j] = int32(p.doc), tf
		}
		ix.postings[t] = pl
		ix.vocab = append(ix.vocab, t)
	}
	sort.Strings(ix.vocab)
	return ix
}

// opAction is the action of op: its registry action, else the first word
// of its path or tool name that names one.
func opAction(op Op) actionClass {
	if a := actionOf[stem(strings.ToLower(op.Action))]; a != actNone {
		return a
	}
	for _, w := range splitWords(op.Op + " " + op.Tool) {
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
	words := splitWords(fileNames(query))
	qs := make([]string, 0, len(words))
	qAction := actNone
	for _, w := range words {
		if stopWords[w] {
			continue
		}
		t := stem(w)
		if qAction == actNone {
			qAction = actionOf[t]
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
	matched := make([]float64, len(ix.ops))
	best := make([]float64, len(ix.ops))
	var touched []int
	for _, q := range qs {
		// A query term scores what it scores itself or, if better, what its
		// best synonym or prefix neighbour scores, discounted; never both.
		touched = touched[:0]
		ix.accumulate(q, 1, best, &touched)
		for _, s := range synonyms[q] {
			ix.accumulate(s, synonymWeight, best, &touched)
		}
		ix.prefixes(q, func(t string) { ix.accumulate(t, prefixWeight, best, &touched) })
		for _, d := range touched {
			scores[d] += best[d]
			matched[d]++
			best[d] = 0
		}
	}
	// Keep the best limit ops in order (score, then op path) without
	// sorting every op that matched.
	top := make([]scored, 0, limit+1)
	distinct := float64(len(qs))
	for d, s := range scores {
		if s == 0 {
			continue
		}
		// Reward covering more of the query's distinct terms.
		s *= 1 + coverageBoost*matched[d]/distinct
		s *= actionFactor(qAction, ix.action[d])
		// A plural noun naming the op's entity ("the tasks of…") asks for
		// a listing rather than one item.
		if ix.action[d] == actList || ix.action[d] == actSearch {
			for _, p := range plurals {
				if ix.names[d][p] {
					s *= 1 + listBoost
					break
				}
			}
		}
		c := scored{doc: d, score: math.Round(s*1000) / 1000}
		if len(top) == limit && !ix.before(c, top[limit-1]) {
			continue
		}
		i := sort.Search(len(top), func(i int) bool { return ix.before(c, top[i]) })
		top = slices.Insert(top, i, c)
		if len(top) > limit {
			top = top[:limit]
		}
	}
	hits := make([]Hit, len(top))
	for i, c := range top {
		op := ix.ops[c.doc]
		hits[i] = Hit{Op: op.Op, Tool: op.Tool, Kind: op.Kind, Score: c.score, Usage: op.Usage}
	}
	return hits
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
	return ix.ops[a.doc].Op < ix.ops[b.doc].Op
}

// actionFactor weighs an op by how its action fits the query's.
func actionFactor(q, op actionClass) float64 {
	switch {
	case q == actNone || op == actNone:
		return 1
	case q == op:
		return 1 + actionBoost
	case q.reads() && op.reads():
		return 1 + familyBoost
	default:
		return 1 - actionPenalty
	}
}

// prefixes calls fn for each indexed term that shares a prefix of at least
// minPrefix bytes with q and is a prefix of q or has q as its prefix
// ("mitigat" and "mitigation"), other than q itself.
func (ix *Index) prefixes(q string, fn func(string)) {
	if len(q) < minPrefix {
		return
	}
	for i := sort.SearchStrings(ix.vocab, q); i < len(ix.vocab) && strings.HasPrefix(ix.vocab[i], q); i++ {
		if ix.vocab[i] != q {
			fn(ix.vocab[i])
		}
	}
	for l := minPrefix; l < len(q); l++ {
		if _, ok := ix.postings[q[:l]]; ok {
			fn(q[:l])
		}
	}
}

// accumulate keeps, per doc, the best weighted BM25F score of term t.
func (ix *Index) accumulate(t string, w float64, best []float64, touched *[]int) {
	ps := ix.postings[t]
	if ps == nil {
		return
	}
	w *= ps.idf
	for j, d := range ps.docs {
		tf := ps.tf[j]
		s := w * tf / (bm25K1 + tf)
		if best[d] == 0 {
			*touched = append(*touched, int(d))
		}
		if s > best[d] {
			best[d] = s
		}
	}
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

// searchRequest is the argument object of tool_search.
type searchRequest struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// searchDoc is the result of tool_search.
type searchDoc struct {
	Query string `json:"query"`
	Hits  []Hit  `json:"hits"`
	Next  string `json:"next"`
}

const maxSearchLimit = 20

func (g *Gateway) handleSearch(_ context.Context, tc runtime.ToolContext, raw json.RawMessage) (*Envelope, error) {
	var req searchRequest
	if fail := g.checkRaw(SearchTool, raw); fail != nil {
		return g.failure(tc, SearchTool, fail, raw), nil
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && string(raw) != "null" {
		if raw[0] == '"' {
			_ = json.Unmarshal(raw, &req.Query)
		} else if err := json.Unmarshal(raw, &req); err != nil {
			return g.failure(tc, SearchTool, &EnvelopeError{Code: runtime.CodeValidation,
				Message: "tool_search arguments are not valid: " + jsonErrText(err) + `; send {"query":"<need, in words>"}`}, raw), nil
		}
	}
	return g.search(tc, req), nil
}

func (g *Gateway) search(tc runtime.ToolContext, req searchRequest) *Envelope {
	if strings.TrimSpace(req.Query) == "" {
		return g.failure(tc, SearchTool, &EnvelopeError{Code: runtime.CodeValidation,
			Message: `query is empty: describe what you need, e.g. {"query":"update a task's due date"}`,
			Details: Details{FieldErrors: []runtime.FieldError{{Path: "/query", Code: "required", Message: "query is required"}}}}, nil)
	}
	if e := g.checkLen(SearchTool, "/query", "query", req.Query, g.cfg.limits.QueryBytes); e != nil {
		e.Message += "; describe the need in a few words"
		return g.failure(tc, SearchTool, e, nil)
	}
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)
	doc := searchDoc{Query: truncBytes(req.Query, g.cfg.limits.EchoBytes), Hits: g.index.Search(req.Query, limit)}
	if doc.Hits == nil {
		doc.Hits = []Hit{}
		doc.Next = `no op matched; try other words or browse with tool_help({"path":""})`
	} else {
		doc.Next = `run one with tool_exec({"op":"<op>","args":{...}}); tool_help({"path":"<op>"}) shows args and an example`
	}
	b, err := marshal(doc)
	if err != nil {
		return &Envelope{Op: SearchTool, Error: &EnvelopeError{Code: runtime.CodeInternal, Message: "search result could not be encoded"}}
	}
	return &Envelope{Op: SearchTool, OK: true, Result: b}
}
