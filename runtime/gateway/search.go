package gateway

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

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

var fieldWeight = [numFields]float64{fieldName: 3.0, fieldArgs: 1.2, fieldDesc: 1.0, fieldArgDesc: 0.3}
var fieldB = [numFields]float64{fieldName: 3.0, fieldArgs: 0.5, fieldDesc: 0.75, fieldArgDesc: 0.75}

const (
	bm25K1        = 1.2
	synonymWeight = 0.6
)

// Index ranks ops for natural-language queries: BM25F over the op path,
// tool name, entity and action, argument names, description and argument
// descriptions, with snake/camel case splitting, light stemming and a
// synonym table (find/search/list/get, create/add/new, delete/remove, …).
// It is immutable and safe for concurrent use.
type Index struct {
	ops      []Op
	names    []map[string]bool // stems of each op's name field
	lister   []bool            // the op lists or searches (its action)
	lens     [][numFields]float64
	avg      [numFields]float64
	postings map[string][]posting
}

type posting struct {
	doc int
	tf  [numFields]float64
}

// NewIndex indexes ops.
func NewIndex(ops []Op) *Index {
	ix := &Index{ops: ops, lens: make([][numFields]float64, len(ops)), postings: map[string][]posting{},
		names: make([]map[string]bool, len(ops)), lister: make([]bool, len(ops))}
	for i, op := range ops {
		var fields [numFields][]string
		fields[fieldName] = terms(op.Op + " " + op.Tool + " " + op.Entity + " " + op.Action)
		ix.names[i] = setOf(fields[fieldName]...)
		action := op.Action
		if action == "" {
			action = op.Op[strings.LastIndexByte(op.Op, '.')+1:]
		}
		ix.lister[i] = listActions[stem(strings.ToLower(action))]
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
			ix.lens[i][f] = float64(len(ts))
			ix.avg[f] += float64(len(ts))
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
			ix.postings[t] = append(ix.postings[t], *p)
		}
	}
	for f := range ix.avg {
		if len(ops) > 0 {
			ix.avg[f] /= float64(len(ops))
		}
		if ix.avg[f] == 0 {
			ix.avg[f] = 1
		}
	}
	return ix
}

// Search returns up to limit ops ranked for query, best first; ops that
// match no query term are left out.
func (ix *Index) Search(query string, limit int) []Hit {
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	qs := terms(query)
	if len(qs) == 0 {
		return nil
	}
	plurals := pluralStems(query)
	n := float64(len(ix.ops))
	scores := make(map[int]float64)
	matched := make(map[int]int)
	seen := map[string]bool{}
	for _, q := range qs {
		if seen[q] {
			continue
		}
		seen[q] = true
		// A query term scores what it scores itself or, if better, what its
		// best synonym scores, discounted; never both.
		best := map[int]float64{}
		ix.accumulate(q, 1, n, best)
		for _, s := range synonyms[q] {
			if s != q {
				ix.accumulate(s, synonymWeight, n, best)
			}
		}
		for d, s := range best {
			scores[d] += s
			matched[d]++
		}
	}
	hits := make([]Hit, 0, len(scores))
	distinct := float64(len(seen))
	for d, s := range scores {
		// Reward covering more of the query's distinct terms.
		s *= 1 + 1.0*float64(matched[d])/distinct
		// A plural noun naming the op's entity ("the tasks of…") asks for
		// a listing rather than one item.
		if ix.lister[d] {
			for _, p := range plurals {
				if ix.names[d][p] {
					s *= 1.25
					break
				}
			}
		}
		op := ix.ops[d]
		hits = append(hits, Hit{Op: op.Op, Tool: op.Tool, Kind: op.Kind, Score: math.Round(s*1000) / 1000, Usage: op.Usage})
	}
	sort.Slice(hits, func(i, j int) bool {
		if hits[i].Score != hits[j].Score {
			return hits[i].Score > hits[j].Score
		}
		return hits[i].Op < hits[j].Op
	})
	if len(hits) > limit {
		hits = hits[:limit]
	}
	return hits
}

// accumulate keeps, per doc, the best weighted BM25F score of term t.
func (ix *Index) accumulate(t string, w, n float64, best map[int]float64) {
	ps := ix.postings[t]
	if len(ps) == 0 {
		return
	}
	df := float64(len(ps))
	idf := math.Log(1 + (n-df+0.5)/(df+0.5))
	for _, p := range ps {
		var tf float64
		for f := 0; f < numFields; f++ {
			if p.tf[f] == 0 {
				continue
			}
			norm := 1 - fieldB[f] + fieldB[f]*ix.lens[p.doc][f]/ix.avg[f]
			tf += fieldWeight[f] * p.tf[f] / norm
		}
		s := w * idf * tf / (bm25K1 + tf)
		if s > best[p.doc] {
			best[p.doc] = s
		}
	}
}

var listActions = setOf("list", "search", "find", "query", "browse")

// pluralStems returns the stems of the query's words that were plural.
func pluralStems(query string) []string {
	var out []string
	for _, w := range splitWords(query) {
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !stopWords[w] {
			out = append(out, stem(w))
		}
	}
	return out
}

// terms splits text into stemmed, lowercased words: snake_case, kebab-case,
// dotted.paths and camelCase are split; stop words are dropped.
func terms(text string) []string {
	var out []string
	for _, w := range splitWords(text) {
		if stopWords[w] {
			continue
		}
		out = append(out, stem(w))
	}
	return out
}

// splitWords splits on anything that is not a letter or digit and at case
// changes (getUserID → get, user, id; HTMLParser → html, parser).
func splitWords(text string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	rs := []rune(text)
	for i, r := range rs {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			flush()
			continue
		}
		if len(cur) > 0 {
			prev := cur[len(cur)-1]
			switch {
			case unicode.IsUpper(r) && unicode.IsLower(prev):
				flush()
			case unicode.IsUpper(r) && unicode.IsUpper(prev) && i+1 < len(rs) && unicode.IsLower(rs[i+1]):
				flush()
			case unicode.IsDigit(r) != unicode.IsDigit(prev):
				flush()
			}
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// stem removes common English inflections so that "tasks", "task" and
// "creating", "create" meet. It is deliberately light: the same function
// runs on queries and documents, so it only needs to be consistent.
func stem(w string) string {
	if len(w) <= 3 || !isASCII(w) {
		return w
	}
	switch {
	case strings.HasSuffix(w, "ies") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "sses"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "ches") || strings.HasSuffix(w, "shes") || strings.HasSuffix(w, "xes") || strings.HasSuffix(w, "zes"):
		w = w[:len(w)-2]
	case strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is"):
		w = w[:len(w)-1]
	case strings.HasSuffix(w, "ing") && len(w) >= 6:
		w = undouble(w[:len(w)-3])
	case strings.HasSuffix(w, "ied") && len(w) > 4:
		w = w[:len(w)-3] + "y"
	case strings.HasSuffix(w, "ed") && len(w) >= 5:
		w = undouble(w[:len(w)-2])
	}
	if len(w) > 3 && strings.HasSuffix(w, "e") {
		w = w[:len(w)-1]
	}
	return w
}

func undouble(w string) string {
	n := len(w)
	if n >= 4 && w[n-1] == w[n-2] && !strings.ContainsRune("aeiouls", rune(w[n-1])) {
		return w[:n-1]
	}
	return w
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var stopWords = setOf("a", "an", "the", "to", "of", "for", "in", "on", "at", "by", "with", "from", "into", "and", "or",
	"is", "are", "be", "been", "was", "it", "its", "this", "that", "these", "those", "my", "me", "i", "we", "our", "you", "your",
	"please", "can", "could", "would", "should", "will", "do", "does", "want", "need", "some", "any", "about", "which", "what",
	"how", "there", "their", "them", "as", "if", "so", "up", "out", "via", "e", "g", "etc", "given", "specified", "provided")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// synonymGroups are words a user and a tool author use for the same thing.
var synonymGroups = [][]string{
	{"find", "search", "lookup", "locate", "query", "look"},
	{"list", "all", "enumerate", "browse", "index", "show"},
	{"get", "fetch", "retrieve", "show", "read", "view", "detail", "info", "see", "display", "load", "open"},
	{"create", "add", "new", "make", "insert", "register", "write", "post", "start"},
	{"update", "edit", "modify", "change", "set", "patch", "rename", "alter", "adjust"},
	{"delete", "remove", "erase", "destroy", "drop", "trash", "discard", "purge"},
	{"cancel", "abort", "revoke", "void"},
	{"send", "email", "mail", "message", "notify", "dm"},
	{"move", "relocate", "transfer", "reorganize", "reorder", "rearrange"},
	{"link", "connect", "attach", "associate", "relate", "relationship", "edge"},
	{"unlink", "detach", "disconnect", "dissociate"},
	{"navigate", "go", "visit", "url", "goto"},
	{"click", "press", "tap"},
	{"type", "enter", "fill", "input"},
	{"calculate", "compute", "estimate"},
	{"document", "doc", "file", "page", "note"},
	{"task", "todo", "item", "ticket"},
	{"user", "person", "people", "member", "customer", "account", "profile"},
	{"image", "photo", "picture", "screenshot"},
	{"web", "internet", "online", "website"},
	{"buy", "purchase", "order", "checkout"},
	{"price", "cost", "fare", "fee", "quote"},
	{"book", "reserve", "reservation", "booking"},
	{"refund", "return", "reimburse"},
	{"exchange", "swap", "replace"},
	{"movie", "film", "cinema"},
	{"song", "music", "track", "playlist"},
	{"location", "place", "nearby", "near", "address"},
	{"directory", "folder", "dir"},
	{"goal", "objective", "target"},
	{"risk", "threat", "hazard"},
	{"milestone", "deadline"},
	{"plan", "roadmap", "schedule"},
	{"weather", "forecast", "temperature"},
	{"meeting", "event", "appointment", "calendar"},
	{"tree", "hierarchy", "structure", "outline"},
	{"comment", "reply", "feedback"},
	{"issue", "bug"},
}

var synonyms = buildSynonyms()

func buildSynonyms() map[string][]string {
	m := map[string][]string{}
	for _, g := range synonymGroups {
		stems := make([]string, len(g))
		for i, w := range g {
			stems[i] = stem(w)
		}
		for _, s := range stems {
			m[s] = append(m[s], stems...)
		}
	}
	return m
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
	limit := req.Limit
	if limit <= 0 {
		limit = DefaultSearchLimit
	}
	limit = min(limit, maxSearchLimit)
	doc := searchDoc{Query: req.Query, Hits: g.index.Search(req.Query, limit)}
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
