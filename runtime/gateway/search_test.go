package gateway

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusDir locates ../shared/corpus relative to the module root.
func corpusDir(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
	c := filepath.Join(dir, "..", "shared", "corpus")
	if _, err := os.Stat(c); err != nil {
		return ""
	}
	return c
}

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
		ops = append(ops, Op{Op: r[0], Tool: r[0], Description: r[1], Parameters: schema})
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
			ops = append(ops, Op{Op: d.Function.Name, Tool: d.Function.Name, Description: d.Function.Description, Parameters: d.Function.Parameters})
		}
	}
	return ops
}

type ranker interface {
	Search(query string, limit int) []Hit
}

// recall returns recall@1 and recall@5 of r over queries (expected, query).
func recall(r ranker, queries [][]string) (r1, r5 float64, misses []string) {
	for _, q := range queries {
		hits := r.Search(q[1], 5)
		for i, h := range hits {
			if h.Tool == q[0] {
				if i == 0 {
					r1++
				}
				r5++
				break
			}
		}
		if len(hits) == 0 || hits[0].Tool != q[0] {
			top := "-"
			if len(hits) > 0 {
				top = hits[0].Tool
			}
			misses = append(misses, fmt.Sprintf("%q: want %s, top %s", q[1], q[0], top))
		}
	}
	n := float64(len(queries))
	return r1 / n, r5 / n, misses
}

// TestSearchEval measures tool_search's ranker against plain BM25 over
// name+description on a pool of a few hundred tools with hand-written
// natural queries. It logs recall@1/@5 and fails only if the ranker does
// not beat the baseline.
func TestSearchEval(t *testing.T) {
	ops := embeddedPool(t)
	queries := readTable(t, filepath.Join("testdata", "search_queries.txt"))
	if dir := corpusDir(t); dir != "" {
		ops = append(ops, corpusPool(t, dir)...)
		queries = append(queries, readTable(t, filepath.Join("testdata", "search_queries_corpus.txt"))...)
	} else {
		t.Log("corpus not found (../shared/corpus): evaluating the embedded pool only")
	}
	known := map[string]bool{}
	for _, o := range ops {
		known[o.Tool] = true
	}
	for _, q := range queries {
		if !known[q[0]] {
			t.Fatalf("query %q expects unknown tool %s", q[1], q[0])
		}
	}
	o1, o5, misses := recall(NewIndex(ops), queries)
	b1, b5, _ := recall(NewBM25(ops), queries)
	t.Logf("pool %d tools, %d queries", len(ops), len(queries))
	t.Logf("tool_search: recall@1 %.3f recall@5 %.3f", o1, o5)
	t.Logf("plain BM25:  recall@1 %.3f recall@5 %.3f", b1, b5)
	if testing.Verbose() {
		for _, m := range misses {
			t.Log("miss@1 ", m)
		}
	}
	if o1 <= b1 || o5 <= b5 {
		t.Errorf("tool_search does not beat plain BM25: @1 %.3f vs %.3f, @5 %.3f vs %.3f", o1, b1, o5, b5)
	}
}

func TestTerms(t *testing.T) {
	cases := map[string]string{
		"list_onto_tasks":        "list onto task",
		"getUserID":              "get user id",
		"HTMLParser v2":          "html parser v 2",
		"Creating the entries":   "creat entry",
		"API-get-block-children": "api get block children",
		"boxes matches":          "box match",
	}
	for in, want := range cases {
		if got := strings.Join(terms(in), " "); got != want {
			t.Errorf("terms(%q) = %q, want %q", in, got, want)
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
	for q, want := range cases {
		hits := ix.Search(q, 3)
		if len(hits) == 0 || hits[0].Tool != want {
			t.Errorf("Search(%q) top = %v, want %s", q, hits, want)
		}
	}
	if hits := ix.Search("the of to", 5); len(hits) != 0 {
		t.Errorf("stop words matched: %v", hits)
	}
}
