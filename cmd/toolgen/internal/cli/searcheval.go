package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/pflag"

	"github.com/toolgen-go/toolgen/cmd/toolgen/internal/o200k"
	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// searchCase is one line of a search-eval cases file.
type searchCase struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
	line   int
}

// searchEvalReport is toolgen search-eval's JSON output.
type searchEvalReport struct {
	Cases int `json:"cases"`
	// Match is how a case with several expected tools counts: "all"
	// (the share of them found) or "any" (one of them is enough).
	Match  string    `json:"match"`
	Recall recallMap `json:"recall"`
	// Tokens, with --tokens, is what a model reads on the way to a call
	// through the gateway: boot definitions + the tool_search answer for the
	// query + the tool_help answer of the first expected tool's op.
	Tokens *tokenFigures `json:"tokens,omitempty"`
	// IndexMillis is the time to build the gateway's search index over the
	// family, QueryMicros the mean time of one ranking (wall clock, for
	// orientation; benchmarks measure it properly).
	IndexMillis float64 `json:"index_ms"`
	QueryMicros float64 `json:"query_us"`
	// Misses are the cases whose expected tools are not all in the top 10.
	Misses []searchMiss `json:"misses,omitempty"`
}

type searchMiss struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
	// Ranks are each expected tool's rank (1-based; 0 when not in the top
	// 10).
	Ranks []int    `json:"ranks"`
	Got   []string `json:"got"`
}

// tokenFigures are o200k_base token counts per case, and the flat list's
// boot definitions to compare them with.
type tokenFigures struct {
	Flat         int     `json:"flat"`
	Boot         int     `json:"boot"`
	SearchMedian int     `json:"search_median"`
	HelpMedian   int     `json:"help_median"`
	TotalMedian  int     `json:"total_median"`
	TotalMean    float64 `json:"total_mean"`
}

// recallMap is recall by cut-off ("1", "3", ...), encoded with the
// cut-offs in increasing order rather than map key order.
type recallMap map[string]float64

// MarshalJSON writes {"1":…,"3":…,"5":…,"10":…}.
func (m recallMap) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range recallKs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendQuote(b, strconv.Itoa(k))
		b = append(b, ':')
		b = strconv.AppendFloat(b, m[strconv.Itoa(k)], 'g', -1, 64)
	}
	return append(b, '}'), nil
}

// recallKs are the cut-offs search-eval reports.
var recallKs = []int{1, 3, 5, 10}

// runSearchEval implements toolgen search-eval: recall@k of tool_search's
// ranking over the family for a file of query cases.
func runSearchEval(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var casesFile, match string
	var tokens bool
	f, fl, code := loadFamily("search-eval", func(fs *pflag.FlagSet) {
		fs.StringVar(&casesFile, "cases", "", "query cases `FILE` (JSON lines: {\"query\": ..., \"expect\": [tool, ...]})")
		fs.StringVar(&match, "match", "all", "`MODE` of counting a case's expected tools: all (recall is the share found) or any (alternatives: one is enough)")
		fs.BoolVar(&tokens, "tokens", false, "also count the tokens a model reads per case: gateway boot + tool_search answer + tool_help answer of the expected op")
	}, args, stdin, stdout, stderr)
	if f == nil {
		return code
	}
	if match != "all" && match != "any" {
		fmt.Fprintf(stderr, "toolgen search-eval: --match must be all or any, not %q\n", match)
		return exitUsage
	}
	if casesFile == "" {
		fmt.Fprintln(stderr, "toolgen search-eval: --cases is required")
		return exitUsage
	}
	data, err := os.ReadFile(casesFile)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	cases, err := parseSearchCases(casesFile, data, f)
	if err != nil {
		printError(stderr, err)
		return exitFail
	}
	rep, err := evalSearch(f, cases, match == "any", tokens)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if fl.format == "json" {
		return writeJSON(stdout, stderr, rep)
	}
	fmt.Fprintf(stdout, "%d cases (match %s); index built in %.1f ms, %.0f µs per query\n", rep.Cases, rep.Match, rep.IndexMillis, rep.QueryMicros)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, k := range recallKs {
		fmt.Fprintf(tw, "recall@%d\t%.3f\n", k, rep.Recall[fmt.Sprint(k)])
	}
	if t := rep.Tokens; t != nil {
		fmt.Fprintf(tw, "tokens flat list\t%d\n", t.Flat)
		fmt.Fprintf(tw, "tokens boot\t%d\n", t.Boot)
		fmt.Fprintf(tw, "tokens search (median)\t%d\n", t.SearchMedian)
		fmt.Fprintf(tw, "tokens help (median)\t%d\n", t.HelpMedian)
		fmt.Fprintf(tw, "tokens total (median, mean)\t%d, %.0f\n", t.TotalMedian, t.TotalMean)
	}
	_ = tw.Flush()
	for _, m := range rep.Misses {
		exp := make([]string, len(m.Expect))
		for i, e := range m.Expect {
			r := "-"
			if m.Ranks[i] > 0 {
				r = strconv.Itoa(m.Ranks[i])
			}
			exp[i] = e + " (rank " + r + ")"
		}
		fmt.Fprintf(stdout, "miss: %q expected %s, top: %s\n", m.Query, strings.Join(exp, ", "), strings.Join(m.Got, ","))
	}
	return exitOK
}

// parseSearchCases reads JSON lines; blank lines and lines starting with
// '#' are skipped. Unknown tool names are located errors.
func parseSearchCases(file string, data []byte, f *ir.Family) ([]searchCase, error) {
	known := map[string]bool{}
	for _, t := range f.Tools {
		known[t.Name] = true
	}
	var cases []searchCase
	var errs jsonpos.ErrorList
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		raw := sc.Text()
		line := strings.TrimSpace(raw)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		lead := len(raw) - len(strings.TrimLeft(raw, " \t\r\n\v\f"))
		pos := ir.Pos{File: file, Line: n, Col: 1 + lead}
		var c searchCase
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			errs = append(errs, caseError(pos, line, lead, err))
			continue
		}
		if strings.TrimSpace(c.Query) == "" || len(c.Expect) == 0 {
			errs = append(errs, jsonpos.Errorf(pos, "a case needs a query and at least one expected tool"))
			continue
		}
		for i, e := range c.Expect {
			if !known[e] {
				p := pos
				p.Pointer = fmt.Sprintf("/expect/%d", i)
				// At the name itself: the line parsed once more, for
				// its columns.
				if root, err := jsonpos.Parse(file, []byte(line)); err == nil {
					if ex := root.Get("expect"); ex != nil && i < len(ex.Items) {
						p.Col = ex.Items[i].Pos.Col + lead
					}
				}
				errs = append(errs, jsonpos.Errorf(p, "unknown tool %q", e))
			}
		}
		c.line = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(cases) == 0 && len(errs) == 0 {
		errs = append(errs, jsonpos.Errorf(ir.Pos{File: file}, "no cases"))
	}
	return cases, errs.Err()
}

// caseFormat is how a search-eval case reads, for error messages.
const caseFormat = `{"query": "...", "expect": ["tool_name", ...]}`

// caseError says in the terms of the cases file what keeps the line at
// pos from being a case, located at the member or column at fault.
// line is the case's text (trimmed), which starts at column lead+1.
func caseError(pos ir.Pos, line string, lead int, err error) *jsonpos.Error {
	// member finds the top-level member key of the line, when it parses,
	// for the column of its key or value.
	member := func(key string) *jsonpos.Member {
		root, err := jsonpos.Parse(pos.File, []byte(line))
		if err != nil {
			return nil
		}
		for i := range root.Members {
			if root.Members[i].Key == key {
				return &root.Members[i]
			}
		}
		return nil
	}
	valueAt := func(key string) {
		pos.Pointer = "/" + key
		if m := member(key); m != nil {
			pos.Col = m.Value.Pos.Col + lead
		}
	}
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		pos.Col = int(syn.Offset) + lead
		return jsonpos.Errorf(pos, "not a JSON line (%v); a case reads %s", syn, caseFormat)
	case errors.As(err, &typ) && typ.Field == "query":
		valueAt("query")
		return jsonpos.Errorf(pos, "must be a string; a case reads %s", caseFormat)
	case errors.As(err, &typ) && strings.HasPrefix(typ.Field, "expect"):
		valueAt("expect")
		return jsonpos.Errorf(pos, "must be an array of tool names; a case reads %s", caseFormat)
	case errors.As(err, &typ):
		return jsonpos.Errorf(pos, "a case is a JSON object: %s", caseFormat)
	}
	if key, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		key, _ = strconv.Unquote(key)
		pos.Pointer = "/" + key
		if m := member(key); m != nil && m.KeyCol > 0 {
			pos.Col = int(m.KeyCol) + lead
		}
		msg := fmt.Sprintf("unknown key %q", key)
		if near := text.Closest(key, []string{"query", "expect"}); near != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", near)
		}
		return jsonpos.Errorf(pos, "%s; a case reads %s", msg, caseFormat)
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		return jsonpos.Errorf(pos, "the line ends inside its JSON value; a case reads %s", caseFormat)
	}
	return jsonpos.Errorf(pos, "%v; a case reads %s", err, caseFormat)
}

// evalSearch ranks every case's query with the gateway's index and
// computes recall@k: the share of expected tools found in the top k (any:
// 1 when one of them is), averaged over cases. With tokens it also counts
// what a model reads on the way to the call.
func evalSearch(f *ir.Family, cases []searchCase, anyMatch, tokens bool) (*searchEvalReport, error) {
	flat := familyTools(f)
	reg := generator.RegistryOf(f)
	g, err := gateway.New(reg, flat)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	gateway.NewIndex(g.Registry().Ops)
	indexTime := time.Since(start)
	maxK := recallKs[len(recallKs)-1]
	sums := make([]float64, len(recallKs))
	rep := &searchEvalReport{Cases: len(cases), Match: "all", Recall: map[string]float64{},
		IndexMillis: math.Round(float64(indexTime.Microseconds())/100) / 10}
	if anyMatch {
		rep.Match = "any"
	}
	start = time.Now()
	for _, c := range cases {
		hits := g.Index().Search(c.Query, maxK)
		var got []string
		for _, h := range hits {
			got = append(got, h.Tool)
		}
		ranks := make([]int, len(c.Expect))
		for i, e := range c.Expect {
			for j, t := range got {
				if t == e {
					ranks[i] = j + 1
					break
				}
			}
		}
		for i, k := range recallKs {
			found := 0
			for _, r := range ranks {
				if r > 0 && r <= k {
					found++
				}
			}
			score := float64(found) / float64(len(c.Expect))
			if anyMatch {
				score = min(float64(found), 1)
			}
			sums[i] += score
			if k == maxK && score < 1 {
				rep.Misses = append(rep.Misses, searchMiss{Query: c.Query, Expect: c.Expect, Ranks: ranks, Got: got})
			}
		}
	}
	rep.QueryMicros = math.Round(float64(time.Since(start).Microseconds()) / float64(max(len(cases), 1)))
	for i, k := range recallKs {
		if len(cases) > 0 {
			rep.Recall[fmt.Sprint(k)] = float64(int(sums[i]/float64(len(cases))*1000+0.5)) / 1000
		}
	}
	if tokens {
		t, err := pathTokens(g, reg, flat, cases)
		if err != nil {
			return nil, err
		}
		rep.Tokens = t
	}
	return rep, nil
}

// caseSession is the session of one case's calls: each case is its own
// conversation, so a help answer read in another case is not a repetition.
type caseSession string

func (s caseSession) ID() string { return string(s) }

// pathTokens counts, per case, the o200k_base tokens of the gateway's boot
// definitions, the tool_search answer to the case's query and the
// tool_help answer of the op of its first expected tool, each answer as
// the model reads it (the envelope's rendered text); and the boot
// definitions of the flat list.
func pathTokens(g *gateway.Gateway, reg gateway.Registry, flat []runtime.Tool, cases []searchCase) (*tokenFigures, error) {
	c, err := o200k.New()
	if err != nil {
		return nil, err
	}
	tools := g.Tools()
	boot, err := c.Count(string(runtime.Definitions(tools)))
	if err != nil {
		return nil, err
	}
	flatBoot, err := countLong(c, string(runtime.Definitions(flat)))
	if err != nil {
		return nil, err
	}
	call := func(session runtime.Session, name string, args any) (int, error) {
		raw, err := json.Marshal(args)
		if err != nil {
			return 0, err
		}
		for _, t := range tools {
			if t.Name == name {
				tc := runtime.NewToolContext(runtime.ContextParts{Session: session, Call: runtime.ToolCall{Name: name, Args: raw}})
				res, _ := t.Handler(context.Background(), tc, raw)
				return c.Count(runtime.RenderValue(res.Value))
			}
		}
		return 0, fmt.Errorf("gateway has no tool %s", name)
	}
	opOf := map[string]string{}
	for _, op := range reg.Ops {
		opOf[op.Tool] = op.Path
	}
	var search, help, total []int
	var sum float64
	for i, c := range cases {
		session := caseSession(strconv.Itoa(i))
		s, err := call(session, gateway.SearchTool, map[string]string{"query": c.Query})
		if err != nil {
			return nil, err
		}
		h, err := call(session, gateway.HelpTool, map[string]string{"path": opOf[c.Expect[0]]})
		if err != nil {
			return nil, err
		}
		search, help, total = append(search, s), append(help, h), append(total, boot+s+h)
		sum += float64(boot + s + h)
	}
	return &tokenFigures{Flat: flatBoot, Boot: boot, SearchMedian: median(search), HelpMedian: median(help), TotalMedian: median(total),
		TotalMean: float64(int(sum/float64(max(len(cases), 1))*10+0.5)) / 10}, nil
}

func median(xs []int) int {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}
