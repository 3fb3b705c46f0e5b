package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
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
	Query  string
	Expect []string
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
		fs.StringVar(&casesFile, "cases", "", "query cases `FILE` (JSON lines: {\"query\": ..., \"expect\": [tool, ...]}; - for standard input)")
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
	var data string
	var err error
	tooLarge := inputLimitWhy(fl.inputLimit)
	if isStdin(casesFile) {
		if slices.Contains(f.Sources, stdinName) {
			fmt.Fprintln(stderr, "toolgen search-eval: standard input holds an input already: name the cases file with --cases FILE")
			return exitUsage
		}
		casesFile = stdinName
		data, err = readStdin(stdin, fl.inputLimit, tooLarge)
	} else {
		data, err = readRegular(casesFile, fl.inputLimit, tooLarge, "to read a stream, pass --cases - and redirect it to standard input")
	}
	if err != nil {
		printError(stderr, err)
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
// '#' are skipped, and a byte order mark before the first line is. Each
// other line is one case, strict JSON (jsonpos.Parse: no duplicate key,
// nothing after the value) with exactly the keys query and expect, spelled
// so. Lines have no length limit but the file's. Unknown tool names, and a
// tool expected twice in one case (it would count twice), are located
// errors.
func parseSearchCases(file, data string, f *ir.Family) ([]searchCase, error) {
	known := map[string]bool{}
	var names []string
	for _, t := range f.Tools {
		known[t.Name] = true
		names = append(names, t.Name)
	}
	// A near name is looked for only for the first unknown tools, as
	// many as printError prints: each look compares the name with every
	// tool, which for every line of a large file was quadratic.
	opTools := make(map[string]string, len(f.Ops))
	for _, op := range f.Ops {
		if op.Tool != nil {
			opTools[op.Path] = op.Tool.Name
		}
	}
	looked := 0
	suggest := func(name string) string {
		if tool, ok := opTools[name]; ok {
			return fmt.Sprintf("; %q is an op: a case expects the tool's name, %q", name, tool)
		}
		if looked >= maxPrintedErrors {
			return ""
		}
		looked++
		return didYouMean(name, names)
	}
	var cases []searchCase
	var errs jsonpos.ErrorList
	src := strings.TrimPrefix(data, bom)
	for n := 1; src != ""; n++ {
		var line string
		line, src, _ = strings.Cut(src, "\n")
		line = strings.TrimSuffix(line, "\r")
		if t := strings.TrimSpace(line); t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		c, lineErrs := parseCase(file, n, line, known, suggest)
		errs = append(errs, lineErrs...)
		if c != nil {
			cases = append(cases, *c)
		}
	}
	if len(cases) == 0 && len(errs) == 0 {
		errs = append(errs, jsonpos.Errorf(ir.Pos{File: file}, "no cases"))
	}
	return cases, errs.Err()
}

// caseFormat is how a search-eval case reads, for error messages.
const caseFormat = `{"query": "...", "expect": ["tool_name", ...]}`

// caseKeys are the keys of a case.
var caseKeys = []string{"query", "expect"}

// parseCase parses line n of the cases file, the text of one case; the
// case is nil when the line is not one. Its errors are located at the
// byte, key or value at fault; suggest(name) is the "did you mean" of an
// unknown tool's error.
func parseCase(file string, n int, line string, known map[string]bool, suggest func(string) string) (*searchCase, jsonpos.ErrorList) {
	// The line is parsed alone, as line 1: its positions get line n.
	at := func(p ir.Pos) ir.Pos {
		p.Line = n
		return p
	}
	root, err := jsonpos.ParseText(file, line, jsonpos.MaxDepth, "")
	if err != nil {
		var je *jsonpos.Error
		if !errors.As(err, &je) {
			return nil, jsonpos.ErrorList{jsonpos.Errorf(ir.Pos{File: file, Line: n, Col: 1}, "%v; a case reads %s", err, caseFormat)}
		}
		pos, msg := at(je.Pos), je.Message
		switch {
		case strings.HasPrefix(msg, "duplicate key "):
			// The first one's position is on "line 1" too.
			msg = strings.Replace(msg, "(first at 1:", fmt.Sprintf("(first at %d:", n), 1)
			msg = fmt.Sprintf("%s: a case has one query and one expect list", msg)
		case strings.HasSuffix(msg, " after top-level value"):
			msg = fmt.Sprintf("%s after the case: a line holds one case, %s", strings.TrimSuffix(msg, " after top-level value"), caseFormat)
		case strings.HasPrefix(msg, "unexpected end of input"):
			msg = fmt.Sprintf("the line ends inside its JSON value (%s); a case reads %s", msg, caseFormat)
		default:
			msg = fmt.Sprintf("not a JSON line (%s); a case reads %s", msg, caseFormat)
		}
		return nil, jsonpos.ErrorList{jsonpos.Errorf(pos, "%s", msg)}
	}
	if root.Kind != jsonpos.ObjectNode {
		return nil, jsonpos.ErrorList{jsonpos.Errorf(at(root.Pos), "a case is a JSON object, not %s: %s", root.Kind, caseFormat)}
	}
	var errs jsonpos.ErrorList
	var query, expect *jsonpos.Node
	for _, m := range root.Members {
		switch m.Key {
		case "query":
			query = m.Value
		case "expect":
			expect = m.Value
		default:
			msg := fmt.Sprintf("unknown key %q", m.Key)
			if near := text.Closest(m.Key, caseKeys); near != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", near)
			}
			for _, k := range caseKeys {
				if strings.EqualFold(m.Key, k) {
					msg = fmt.Sprintf("unknown key %q: keys are lower-case (did you mean %q?)", m.Key, k)
				}
			}
			errs = append(errs, jsonpos.Errorf(at(m.KeyPos()), "%s; a case reads %s", msg, caseFormat))
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	c := &searchCase{line: n}
	if query != nil && query.Kind != jsonpos.StringNode {
		errs = append(errs, jsonpos.Errorf(at(query.Pos), "must be a string, not %s; a case reads %s", query.Kind, caseFormat))
	}
	if expect != nil && expect.Kind != jsonpos.ArrayNode {
		errs = append(errs, jsonpos.Errorf(at(expect.Pos), "must be an array of tool names, not %s; a case reads %s", expect.Kind, caseFormat))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	if query == nil || expect == nil || strings.TrimSpace(query.Str) == "" || len(expect.Items) == 0 {
		return nil, jsonpos.ErrorList{jsonpos.Errorf(at(root.Pos), "a case needs a query and at least one expected tool: %s", caseFormat)}
	}
	c.Query = query.Str
	first := map[string]int{}
	for i, e := range expect.Items {
		switch {
		case e.Kind != jsonpos.StringNode:
			errs = append(errs, jsonpos.Errorf(at(e.Pos), "must be a tool name (a string), not %s", e.Kind))
		case !known[e.Str]:
			errs = append(errs, jsonpos.Errorf(at(e.Pos), "unknown tool %q%s", e.Str, suggest(e.Str)))
		default:
			if j, ok := first[e.Str]; ok {
				errs = append(errs, jsonpos.Errorf(at(e.Pos), "tool %q is expected twice (first at /expect/%d): it would count twice; list it once", e.Str, j))
				continue
			}
			first[e.Str] = i
			c.Expect = append(c.Expect, e.Str)
		}
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return c, nil
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
