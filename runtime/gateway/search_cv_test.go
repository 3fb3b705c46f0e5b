package gateway

import (
	"bufio"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// evalSet is a pool of ops with queries whose answers are known.
type evalSet struct {
	name    string
	ops     []Op
	queries []evalQuery
}

// evalSets are every query set the ranker is measured on: the in-repo
// pool with its hand-written queries, the same pool with the corpus tool
// sets and their queries, and ACEBench (../shared/corpus/search) when the
// corpus is present.
func evalSets(t testing.TB) []evalSet {
	embedded := embeddedPool(t)
	sets := []evalSet{{"embedded", embedded, loadQueries(t, embeddedQueryFiles)}}
	dir, ok := corpus.Find()
	if !ok {
		return sets
	}
	ops := append(slices.Clip(embedded), corpusPool(t, dir)...)
	sets = append(sets, evalSet{"embedded+corpus", ops, append(loadQueries(t, embeddedQueryFiles), loadQueries(t, corpusQueryFiles)...)})
	sets = append(sets, descQueries("corpus-desc", ops))
	if s, ok := aceBench(t, dir); ok {
		sets = append(sets, s, descQueries("acebench-desc", s.ops))
	}
	for _, s := range sets {
		known := map[string]bool{}
		for _, o := range s.ops {
			known[o.Tool] = true
		}
		for i, q := range s.queries {
			q.want = slices.DeleteFunc(slices.Clone(q.want), func(w string) bool { return !known[w] })
			if len(q.want) == 0 {
				t.Fatalf("query %q expects no tool of the %s pool", q.text, s.name)
			}
			s.queries[i] = q
		}
	}
	return sets
}

// descQueries is a synthetic set over ops: every fifth op's description,
// its first sentence cut to 12 words, with the words of the op's own name
// taken out, is a query whose answer is that op (or any op whose
// description starts with the same sentence). It asks for a tool by what
// it does in its author's words without naming it, over the same pool.
func descQueries(name string, ops []Op) evalSet {
	first := func(d string) string {
		if i := strings.IndexAny(d, ".\n"); i > 0 {
			d = d[:i]
		}
		return strings.TrimSpace(d)
	}
	bySentence := map[string][]string{}
	for _, o := range ops {
		bySentence[first(o.Description)] = append(bySentence[first(o.Description)], o.Tool)
	}
	s := evalSet{name: name, ops: ops}
	for i, o := range ops {
		if i%5 != 0 {
			continue
		}
		own := map[string]bool{}
		for _, t := range terms(o.Path + " " + o.Tool) {
			own[t] = true
		}
		var kept []string
		for _, w := range strings.Fields(first(o.Description)) {
			if ts := terms(w); len(ts) == 1 && own[ts[0]] {
				continue
			}
			kept = append(kept, w)
		}
		if len(kept) < 3 {
			continue
		}
		s.queries = append(s.queries, evalQuery{want: bySentence[first(o.Description)], text: strings.Join(kept[:min(len(kept), 12)], " ")})
	}
	return s
}

// aceBench reads the ACEBench retrieval set: tools in the OpenAI chat
// shape, cases as JSON lines {"query","expect"}. Ops get a dotted path of
// paths from the generator's taxonomy, as toolgen search-eval sees them.
func aceBench(t testing.TB, dir string) (evalSet, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "search", "acebench.tools.json"))
	if err != nil {
		return evalSet{}, false
	}
	fam, err := schema.Build([]load.Input{{Name: "acebench.tools.json", Data: string(b)}}, schema.BuildOptions{Package: "acebench"})
	if err != nil {
		t.Fatal(err)
	}
	if err := taxonomy.Derive(fam, nil); err != nil {
		t.Fatal(err)
	}
	s := evalSet{name: "acebench"}
	for _, op := range fam.Ops {
		s.ops = append(s.ops, Op{Path: op.Path, Tool: op.Tool.Name, Entity: op.Entity, Action: op.Action, Kind: op.Kind,
			Usage: op.Usage, Description: op.Tool.Description, Parameters: op.Tool.ParamsSchema})
	}
	f, err := os.Open(filepath.Join(dir, "search", "acebench.cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c struct {
			Query  string   `json:"query"`
			Expect []string `json:"expect"`
		}
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		s.queries = append(s.queries, evalQuery{want: c.Expect, text: c.Query})
	}
	return s, true
}

// ranks are the rank (0-based, -1 when not in the top 10) of each query's
// first right answer.
func ranks(r ranker, qs []evalQuery) []int {
	out := make([]int, len(qs))
	for i, q := range qs {
		out[i] = -1
		for j, h := range r.Search(q.text, recallCuts[len(recallCuts)-1]) {
			if slices.Contains(q.want, h.Tool) {
				out[i] = j
				break
			}
		}
	}
	return out
}

func recallOf(rs []int, keep func(i int) bool) (at [len(recallCuts)]float64) {
	n := 0
	for i, r := range rs {
		if keep != nil && !keep(i) {
			continue
		}
		n++
		for c, cut := range recallCuts {
			if r >= 0 && r < cut {
				at[c]++
			}
		}
	}
	for c := range at {
		at[c] /= float64(max(n, 1))
	}
	return at
}

// TestSearchSets logs every set's recall for plain BM25 and tool_search,
// and guards against regressions well below the figures measured when the
// constants were chosen.
func TestSearchSets(t *testing.T) {
	floor := map[string][2]float64{ // recall@1, @5
		"embedded":        {0.55, 0.85},
		"embedded+corpus": {0.55, 0.85},
		"acebench":        {0.80, 0.93},
		"corpus-desc":     {0.70, 0.85},
		"acebench-desc":   {0.90, 0.95},
	}
	for _, s := range evalSets(t) {
		ix := NewIndex(s.ops)
		rs := ranks(ix, s.queries)
		o := recallOf(rs, nil)
		if os.Getenv("SEARCH_MISSES") == s.name {
			for i, r := range rs {
				if r != 0 {
					q := s.queries[i]
					var got []string
					for _, h := range ix.Search(q.text, 3) {
						got = append(got, h.Tool)
					}
					t.Logf("miss (rank %d) %q want %v got %v", r+1, q.text, q.want, got)
				}
			}
		}
		b := recallOf(ranks(newPlainBM25(s.ops), s.queries), nil)
		t.Logf("%-16s %4d tools %4d queries  tool_search%s  plain BM25%s", s.name, len(s.ops), len(s.queries), fmtRecall(o), fmtRecall(b))
		if f := floor[s.name]; o[0] < f[0] || o[2] < f[1] {
			t.Errorf("%s: recall@1 %.3f, @5 %.3f below the floor %.2f, %.2f", s.name, o[0], o[2], f[0], f[1])
		}
	}
}

// foldOf assigns a query to one of k folds by a hash of its text.
func foldOf(text string, k int) int {
	h := fnv.New32a()
	h.Write([]byte(text))
	return int(h.Sum32() % uint32(k))
}

// TestSearchCrossValidation chooses the ranker's constants by 5-fold
// cross-validation over every set: for each fold, the candidate with the
// best mean objective (recall@1 + recall@5, averaged over the sets, the
// in-repo queries counted once, so that the large ACEBench set does not
// drown the others) on the other folds is scored on that fold. It logs
// the cross-validated figures per set and the candidate that is best on
// all folds, which is what defaultRank holds.
// It builds many indexes and runs only with SEARCH_CV=1.
func TestSearchCrossValidation(t *testing.T) {
	if os.Getenv("SEARCH_CV") == "" {
		t.Skip("set SEARCH_CV=1 to run the cross-validation")
	}
	sets := evalSets(t)
	cands := rankGrid()
	const k = 5
	// rs[c][s] are the ranks of set s's queries under candidate c.
	rs := make([][][]int, len(cands))
	for c, p := range cands {
		rs[c] = make([][]int, len(sets))
		for s, set := range sets {
			rs[c][s] = ranks(newIndex(set.ops, p), set.queries)
		}
	}
	// The embedded set's queries are also in embedded+corpus: when both
	// are present only the larger one counts, so no query counts twice.
	counts := func(s int) bool { return !(sets[s].name == "embedded" && len(sets) > 1) }
	objective := func(c int, keep func(s, i int) bool) float64 {
		var sum float64
		var n int
		for s := range sets {
			if !counts(s) {
				continue
			}
			at := recallOf(rs[c][s], func(i int) bool { return keep(s, i) })
			sum += at[0] + at[2]
			n++
		}
		return sum / float64(n)
	}
	argmax := func(keep func(s, i int) bool) int {
		best, bestV := 0, -1.0
		for c := range cands {
			if v := objective(c, keep); v > bestV {
				best, bestV = c, v
			}
		}
		return best
	}
	// Cross-validated ranks: each query ranked by the candidate chosen
	// without its fold.
	cv := make([][]int, len(sets))
	for s, set := range sets {
		cv[s] = make([]int, len(set.queries))
	}
	for f := range k {
		c := argmax(func(s, i int) bool { return foldOf(sets[s].queries[i].text, k) != f })
		t.Logf("fold %d: chose %s", f, describeRank(cands[c]))
		for s, set := range sets {
			for i, q := range set.queries {
				if foldOf(q.text, k) == f {
					cv[s][i] = rs[c][s][i]
				}
			}
		}
	}
	all := argmax(func(int, int) bool { return true })
	def := -1
	for c, p := range cands {
		if p == defaultRank {
			def = c
		}
	}
	for s, set := range sets {
		t.Logf("%-16s cross-validated%s  best-on-all%s", set.name, fmtRecall(recallOf(cv[s], nil)), fmtRecall(recallOf(rs[all][s], nil)))
		if def >= 0 {
			t.Logf("%-16s defaultRank    %s", set.name, fmtRecall(recallOf(rs[def][s], nil)))
		}
	}
	t.Logf("best on all folds: %s", describeRank(cands[all]))
}

// rankGrid is the candidates the cross-validation chooses among: the
// defaults with one or two constants varied at a time over principled
// ranges.
func rankGrid() []rankParams {
	var out []rankParams
	base := defaultRank
	for _, k1 := range []float64{0.9, 1.2, 1.6} {
		for _, bName := range []float64{0.25, 0.5, 0.75, 1} {
			for _, wName := range []float64{1, 2, 3} {
				p := base
				p.K1, p.B[fieldName], p.Weight[fieldName] = k1, bName, wName
				out = append(out, p)
			}
		}
	}
	vary := func(f func(p *rankParams)) {
		p := base
		f(&p)
		out = append(out, p)
	}
	for _, w := range []float64{0, 0.25, 0.5, 1} {
		vary(func(p *rankParams) { p.Weight[fieldArgs] = w })
		vary(func(p *rankParams) { p.Weight[fieldEnum] = w })
		vary(func(p *rankParams) { p.Weight[fieldArgDesc] = w })
	}
	for _, b := range []float64{0.25, 0.5, 1} {
		vary(func(p *rankParams) { p.B[fieldDesc] = b })
	}
	for _, v := range []float64{0, 0.5, 1} {
		vary(func(p *rankParams) { p.Compound = v })
		vary(func(p *rankParams) { p.NameCoverage = v })
		vary(func(p *rankParams) { p.Proximity = v })
	}
	// Okapi's k3 for repeated query words: 0 (off), small, and the
	// values the TREC runs used for long queries (7, 1000).
	for _, v := range []float64{0, 0.5, 1.2, 2, 7, 1000} {
		vary(func(p *rankParams) { p.K3 = v })
	}
	for _, v := range []float64{0.5, 1, 2} {
		vary(func(p *rankParams) { p.Coverage = v })
	}
	for _, v := range []float64{0, 0.4, 0.8} {
		vary(func(p *rankParams) { p.Synonym = v })
		vary(func(p *rankParams) { p.Prefix = v })
	}
	for _, v := range []float64{0.1, 0.3} {
		vary(func(p *rankParams) { p.Feedback = v })
	}
	for _, v := range []float64{0, 0.1, 0.3} {
		vary(func(p *rankParams) { p.Value = v })
	}
	for _, v := range []float64{0, 0.1, 0.2, 0.3} {
		vary(func(p *rankParams) { p.Fit = v })
	}
	for _, v := range []float64{0, 0.25, 0.5} {
		vary(func(p *rankParams) { p.KnownSynonym = v })
	}
	vary(func(p *rankParams) { p.PrefixUnknownOnly = true })
	vary(func(p *rankParams) { p.Weight[fieldArgs], p.Weight[fieldEnum], p.Weight[fieldArgDesc] = 0, 0, 0 })
	// dedupe
	var uniq []rankParams
	for _, p := range out {
		if !slices.Contains(uniq, p) {
			uniq = append(uniq, p)
		}
	}
	return uniq
}

func describeRank(p rankParams) string {
	return fmt.Sprintf("k1 %.1f weight %v b %v synonym %.1f prefix %.1f known-word synonyms ×%.2f prefix for unknown words only %v compound %.1f coverage %.1f name-coverage %.2f proximity %.2f feedback %.1f k3 %.1f value %.1f fit %.1f",
		p.K1, p.Weight, p.B, p.Synonym, p.Prefix, p.KnownSynonym, p.PrefixUnknownOnly, p.Compound, p.Coverage, p.NameCoverage, p.Proximity, p.Feedback, p.K3, p.Value, p.Fit)
}

// aceBenchOrSkip is the ACEBench set, or a skip when the corpus is absent.
func aceBenchOrSkip(b *testing.B) evalSet {
	dir, ok := corpus.Find()
	if !ok {
		b.Skip("corpus not found (../shared/corpus)")
	}
	s, ok := aceBench(b, dir)
	if !ok {
		b.Skip("ACEBench set not found")
	}
	return s
}

// BenchmarkSearchACEBench is one tool_search ranking over ACEBench's 2,307
// tools, cycling through its 825 questions.
func BenchmarkSearchACEBench(b *testing.B) {
	s := aceBenchOrSkip(b)
	ix := NewIndex(s.ops)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(s.queries[i%len(s.queries)].text, DefaultSearchLimit)
		i++
	}
}

// BenchmarkIndexACEBench builds the index over ACEBench's 2,307 tools.
func BenchmarkIndexACEBench(b *testing.B) {
	s := aceBenchOrSkip(b)
	b.ReportAllocs()
	for b.Loop() {
		NewIndex(s.ops)
	}
}

// BenchmarkGatewayACEBench builds a gateway over ACEBench's 2,307 tools:
// bindings (each op's schema parsed once) and the search index.
func BenchmarkGatewayACEBench(b *testing.B) {
	s := aceBenchOrSkip(b)
	var tools []runtime.Tool
	for _, o := range s.ops {
		tools = append(tools, runtime.Tool{Name: o.Tool, Description: o.Description, Parameters: o.Parameters})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Registry{Ops: s.ops}, tools); err != nil {
			b.Fatal(err)
		}
	}
}
