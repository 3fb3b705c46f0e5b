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
)

// readTable reads "a | b | c" lines, skipping blanks and # comments.
func readTable(t testing.TB, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows [][]string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		parts := strings.Split(line, "|")
		for i := range parts {
			parts[i] = strings.TrimSpace(parts[i])
		}
		rows = append(rows, parts)
	}
	return rows
}

// embeddedPool is testdata/search_pool.txt as ops.
func embeddedPool(t testing.TB) []Op {
	var ops []Op
	for _, r := range readTable(t, filepath.Join("testdata", "search_pool.txt")) {
		props := map[string]any{}
		for _, a := range strings.Fields(r[2]) {
			props[a] = map[string]string{"type": "string"}
		}
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": props})
		ops = append(ops, Op{Path: r[0], Tool: r[0], Description: r[1], Parameters: schema})
	}
	return ops
}

// corpusPool reads the corpus tool files (OpenAI chat shape).
func corpusPool(t testing.TB, dir string) []Op {
	var ops []Op
	seen := map[string]bool{}
	for _, f := range []string{"gorilla_openfunctions_v1/ALL.tools.json", "tau_bench/ALL.tools.json", "mcp_npm/ALL.tools.json"} {
		b, err := os.ReadFile(filepath.Join(dir, "tools", f))
		if err != nil {
			t.Fatal(err)
		}
		var defs []struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(b, &defs); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		for _, d := range defs {
			if seen[d.Function.Name] {
				continue
			}
			seen[d.Function.Name] = true
			ops = append(ops, Op{Path: d.Function.Name, Tool: d.Function.Name, Description: d.Function.Description, Parameters: d.Function.Parameters})
		}
	}
	return ops
}

type ranker interface {
	Search(query string, limit int) []Hit
}

// evalQuery is one hand-written query and the tools that answer it (more
// than one only where the pool holds equivalent tools from different
// sources, e.g. currency_convert and Currency_Converter).
type evalQuery struct {
	want []string
	text string
}

// queryFiles are the embedded and the corpus query sets.
var (
	embeddedQueryFiles = []string{"search_queries.txt", "search_queries_new.txt"}
	corpusQueryFiles   = []string{"search_queries_corpus.txt", "search_queries_corpus_new.txt"}
)

func loadQueries(t testing.TB, files []string) []evalQuery {
	var qs []evalQuery
	for _, f := range files {
		for _, r := range readTable(t, filepath.Join("testdata", f)) {
			qs = append(qs, evalQuery{want: strings.Split(r[0], ","), text: r[1]})
		}
	}
	return qs
}

// splitQueries divides queries deterministically by a hash of their text:
// the tuning half is the only one whose misses guide changes to the
// ranker; the held-out half measures it.
func splitQueries(qs []evalQuery) (tune, held []evalQuery) {
	for _, q := range qs {
		h := fnv.New32a()
		h.Write([]byte(q.text))
		if h.Sum32()%2 == 0 {
			tune = append(tune, q)
		} else {
			held = append(held, q)
		}
	}
	return tune, held
}

// recallCuts are the ranks recall is measured at.
var recallCuts = [...]int{1, 3, 5, 10}

// recall returns recall at recallCuts of r over queries, and the queries
// whose first hit is wrong.
func recall(r ranker, queries []evalQuery) (at [len(recallCuts)]float64, misses []string) {
	for _, q := range queries {
		hits := r.Search(q.text, recallCuts[len(recallCuts)-1])
		rank := -1
		for i, h := range hits {
			if slices.Contains(q.want, h.Tool) {
				rank = i
				break
			}
		}
		for c, cut := range recallCuts {
			if rank >= 0 && rank < cut {
				at[c]++
			}
		}
		if rank != 0 {
			top := "-"
			if len(hits) > 0 {
				top = hits[0].Tool
			}
			misses = append(misses, fmt.Sprintf("%q: want %s, top %s (rank %d)", q.text, strings.Join(q.want, "|"), top, rank+1))
		}
	}
	for c := range at {
		at[c] /= float64(len(queries))
	}
	return at, misses
}

func fmtRecall(at [len(recallCuts)]float64) string {
	var b strings.Builder
	for c, cut := range recallCuts {
		fmt.Fprintf(&b, " @%d %.3f", cut, at[c])
	}
	return b.String()
}

// TestSearchEval measures tool_search's ranker against plain BM25 over
// name+description on a pool of a few hundred tools (testdata plus the
// corpus tool sets) with hand-written natural queries, split into a tuning
// and a held-out half. It logs recall@1/3/5/10 for both, with and without
// the corpus, and fails unless tool_search clearly beats the baseline on
// the held-out half. Verbose runs list the misses of the tuning half only; set
// SEARCH_EVAL_HELDOUT=1 to see the held-out misses too.
func TestSearchEval(t *testing.T) {
	embedded := embeddedPool(t)
	pools := []struct {
		name    string
		ops     []Op
		queries []evalQuery
	}{{"embedded", embedded, loadQueries(t, embeddedQueryFiles)}}
	if dir, ok := corpus.Find(); ok {
		ops := append(slices.Clip(embedded), corpusPool(t, dir)...)
		pools = append(pools, struct {
			name    string
			ops     []Op
			queries []evalQuery
		}{"embedded+corpus", ops, append(loadQueries(t, embeddedQueryFiles), loadQueries(t, corpusQueryFiles)...)})
	} else {
		t.Log("corpus not found (../shared/corpus): evaluating the embedded pool only")
	}
	for _, p := range pools {
		known := map[string]bool{}
		for _, o := range p.ops {
			known[o.Tool] = true
		}
		// Alternatives from the corpus are dropped when it is absent.
		for i, q := range p.queries {
			q.want = slices.DeleteFunc(slices.Clone(q.want), func(w string) bool { return !known[w] })
			if len(q.want) == 0 {
				t.Fatalf("query %q expects no tool of the %s pool", q.text, p.name)
			}
			p.queries[i] = q
		}
		tune, held := splitQueries(p.queries)
		ix, bm := NewIndex(p.ops), newPlainBM25(p.ops)
		t.Logf("pool %s: %d tools, %d queries (%d tuning, %d held out)", p.name, len(p.ops), len(p.queries), len(tune), len(held))
		var heldIx, heldBM [len(recallCuts)]float64
		for _, set := range []struct {
			name string
			qs   []evalQuery
		}{{"tuning", tune}, {"held-out", held}} {
			o, misses := recall(ix, set.qs)
			b, _ := recall(bm, set.qs)
			t.Logf("  %-8s tool_search%s", set.name, fmtRecall(o))
			t.Logf("  %-8s plain BM25 %s", set.name, fmtRecall(b))
			if testing.Verbose() && (set.name == "tuning" || os.Getenv("SEARCH_EVAL_HELDOUT") != "") {
				for _, m := range misses {
					t.Logf("    %s miss@1 %s", set.name, m)
				}
			}
			if set.name == "held-out" {
				heldIx, heldBM = o, b
			}
		}
		// A regression guard, well below the margins measured when the
		// ranker was last tuned (about +0.2 at @1 and +0.3 at @5).
		if heldIx[0] < heldBM[0]+0.10 || heldIx[2] < heldBM[2]+0.15 {
			t.Errorf("%s: tool_search does not clearly beat plain BM25 on held-out queries: @1 %.3f vs %.3f, @5 %.3f vs %.3f",
				p.name, heldIx[0], heldBM[0], heldIx[2], heldBM[2])
		}
	}
}

func TestTerms(t *testing.T) {
	cases := map[string]string{
		"list_onto_tasks":        "list onto task",
		"getUserID":              "get user id",
		"HTMLParser v2 1024":     "html parser v",
		"Creating the entries":   "creat entri",
		"API-get-block-children": "api get block children",
		"boxes matches":          "box match",
		// quantifiers say how much, not of what
		"How many ounces": "ounc",
	}
	for in, want := range cases {
		if got := strings.Join(terms(in), " "); got != want {
			t.Errorf("terms(%q) = %q, want %q", in, got, want)
		}
	}
}

// wantFirst checks that each query's first hit is its tool.
func wantFirst(t *testing.T, ix *Index, cases map[string]string) {
	t.Helper()
	for q, want := range cases {
		hits := ix.Search(q, 3)
		if len(hits) == 0 || hits[0].Tool != want {
			t.Errorf("Search(%q) = %v, want %s first", q, hits, want)
		}
	}
}

func TestSearchSynonymsAndFields(t *testing.T) {
	ix := NewIndex(embeddedPool(t))
	cases := map[string]string{
		"remove a task":        "delete_onto_task",
		"new project document": "create_onto_document",
		"fetch the goal":       "get_onto_goal_details",
		"issue_number comment": "gh_add_issue_comment",
	}
	wantFirst(t, ix, cases)
	if hits := ix.Search("the of to", 5); len(hits) != 0 {
		t.Errorf("stop words matched: %v", hits)
	}
}

// BenchmarkSearchPool is one tool_search ranking over the full evaluation
// pool (about 400 ops), cycling through the evaluation queries.
func BenchmarkSearchPool(b *testing.B) {
	ops := embeddedPool(b)
	queries := loadQueries(b, embeddedQueryFiles)
	if dir, ok := corpus.Find(); ok {
		ops = append(ops, corpusPool(b, dir)...)
		queries = append(queries, loadQueries(b, corpusQueryFiles)...)
	}
	ix := NewIndex(ops)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(queries[i%len(queries)].text, DefaultSearchLimit)
		i++
	}
}

// BenchmarkBM25Pool is the baseline on the same pool and queries.
func BenchmarkBM25Pool(b *testing.B) {
	ops := embeddedPool(b)
	queries := loadQueries(b, embeddedQueryFiles)
	if dir, ok := corpus.Find(); ok {
		ops = append(ops, corpusPool(b, dir)...)
		queries = append(queries, loadQueries(b, corpusQueryFiles)...)
	}
	ix := newPlainBM25(ops)
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		ix.Search(queries[i%len(queries)].text, DefaultSearchLimit)
		i++
	}
}

// TestQueryAction: the action a query asks for is its request's verb when
// context comes first, else its first action word.
func TestQueryAction(t *testing.T) {
	cases := []struct {
		query string
		want  actionClass
	}{
		{"delete the old tasks", actDelete},
		{"I'm booking a trip to Rome. Can you find a hotel near the station?", actSearch},
		{"I'm booking a trip to Rome and need a hotel", actCreate},
		{"We reserved a table last week; please cancel it", actDelete},
		{"The report is ready. Let's send it to the team", actSend},
		{"I want to update my email address, which I set last year", actUpdate},
		{"I'd like to list my open issues", actList},
		{"Could you help me? The draft is done", actCreate},
		{"weather in Paris", actNone},
	}
	for _, c := range cases {
		words := splitWords(c.query)
		if got := queryAction(words, queryStems(words)); got != c.want {
			t.Errorf("queryAction(%q) = %v, want %v", c.query, got, c.want)
		}
	}
}

// TestNameAbbreviations: a name written in short words ("prob", "dist")
// is found by a question in full ones, the expansions read from the op's
// own description; a short word the op also uses on its own is left.
func TestNameAbbreviations(t *testing.T) {
	ops := []Op{
		{Path: "stats.prob_dist_binomial", Tool: "prob_dist_binomial",
			Description: "Compute the probability of exactly k successes in n independent trials, each succeeding with the same chance p, under a binomial distribution."},
		{Path: "stats.binomial_coefficient", Tool: "binomial_coefficient",
			Description: "The binomial coefficient n choose k, as used in probability."},
		{Path: "math.hypot", Tool: "math_hypot", Description: "The Euclidean norm sqrt(x*x + y*y), which is the hypotenuse of a right triangle with legs x and y."},
		{Path: "geo.solve_triangle", Tool: "solve_triangle", Description: "Solve a triangle from three of its parts: its sides, angles, area and hypotenuse."},
		{Path: "geo.calc_area", Tool: "calc_area", Description: "Calculate the area of a shape."},
		{Path: "geo.calc_perimeter", Tool: "calc_perimeter", Description: "The calc of a perimeter: calculate its length."},
		// written without vowels
		{Path: "sys.cmd_execute", Tool: "cmd_controller_execute", Description: "Execute a system command on Windows."},
		{Path: "sys.help", Tool: "help_display", Description: "Display help about the commands available and the system."},
		{Path: "sys.pwd_reset", Tool: "pwd_reset", Description: "Reset a user's password, not the powder."},
	}
	ix := NewIndex(ops)
	wantFirst(t, ix, map[string]string{
		"binomial probability": "prob_dist_binomial",
		"calculate an area":    "calc_area",
		"run the command dir":  "cmd_controller_execute",
	})
	names := func(tool string) (terms []string) {
		for d, op := range ix.ops {
			if op.Tool == tool {
				for _, k := range ix.names[d] {
					terms = append(terms, ix.terms[k])
				}
			}
		}
		return terms
	}
	if got := names("prob_dist_binomial"); !slices.Contains(got, "probabl") || !slices.Contains(got, "distribut") {
		t.Errorf("prob_dist_binomial's name terms %v: no expansion of prob and dist", got)
	}
	if got := names("calc_perimeter"); slices.Contains(got, "calcul") {
		t.Errorf("calc_perimeter's name terms %v: calc, a word of its description, was expanded", got)
	}
	if got := names("cmd_controller_execute"); !slices.Contains(got, "command") {
		t.Errorf("cmd_controller_execute's name terms %v: no expansion of cmd", got)
	}
	// the first word of its text it contracts
	if got := names("pwd_reset"); !slices.Contains(got, "password") || slices.Contains(got, "powder") {
		t.Errorf("pwd_reset's name terms %v: want pwd expanded to password alone", got)
	}
	for _, c := range []struct {
		short, long string
		want        bool
	}{
		{"cmd", "command", true}, {"msg", "messag", true}, {"avg", "averag", true}, {"idx", "index", true},
		{"cmd", "cmdlet", true}, // a prefix is a contraction too; expansions wants a longer word
		{"cod", "command", false}, {"mcd", "command", false}, {"dmc", "command", false}, {"cmd", "cm", false},
		{"c2d", "c2dd", false},
	} {
		if got := contraction(c.short, c.long); got != c.want {
			t.Errorf("contraction(%q, %q) = %v, want %v", c.short, c.long, got, c.want)
		}
	}
}
