package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// searchCase is one line of a search-eval cases file.
type searchCase struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
	line   int
}

// searchEvalReport is toolgen search-eval's JSON output.
type searchEvalReport struct {
	Cases  int       `json:"cases"`
	Recall recallMap `json:"recall"`
	// Misses are the cases whose expected tools are not all in the top 10.
	Misses []searchMiss `json:"misses,omitempty"`
}

type searchMiss struct {
	Query  string   `json:"query"`
	Expect []string `json:"expect"`
	Got    []string `json:"got"`
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
	var casesFile string
	f, fl, code := loadFamily("search-eval", func(fs *pflag.FlagSet) {
		fs.StringVar(&casesFile, "cases", "", "query cases `FILE` (JSON lines: {\"query\": ..., \"expect\": [tool, ...]})")
	}, args, stdin, stdout, stderr)
	if f == nil {
		return code
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
	rep, err := evalSearch(f, cases)
	if err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if fl.format == "json" {
		return writeJSON(stdout, stderr, rep)
	}
	fmt.Fprintf(stdout, "%d cases\n", rep.Cases)
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	for _, k := range recallKs {
		fmt.Fprintf(tw, "recall@%d\t%.3f\n", k, rep.Recall[fmt.Sprint(k)])
	}
	_ = tw.Flush()
	for _, m := range rep.Misses {
		fmt.Fprintf(stdout, "miss: %q expected %s, top: %s\n", m.Query, strings.Join(m.Expect, ","), strings.Join(m.Got, ","))
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
	var errs schema.ErrorList
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pos := ir.Pos{File: file, Line: n, Col: 1}
		var c searchCase
		dec := json.NewDecoder(strings.NewReader(line))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&c); err != nil {
			errs = append(errs, schema.Errorf(pos, "%v", err))
			continue
		}
		if strings.TrimSpace(c.Query) == "" || len(c.Expect) == 0 {
			errs = append(errs, schema.Errorf(pos, "a case needs a query and at least one expected tool"))
			continue
		}
		for i, e := range c.Expect {
			if !known[e] {
				p := pos
				p.Pointer = fmt.Sprintf("/expect/%d", i)
				errs = append(errs, schema.Errorf(p, "unknown tool %q", e))
			}
		}
		c.line = n
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if len(cases) == 0 && len(errs) == 0 {
		errs = append(errs, schema.Errorf(ir.Pos{File: file}, "no cases"))
	}
	return cases, errs.Err()
}

// evalSearch ranks every case's query with the gateway's index and
// computes recall@k: the share of expected tools found in the top k,
// averaged over cases.
func evalSearch(f *ir.Family, cases []searchCase) (*searchEvalReport, error) {
	g, err := gateway.New(generator.RegistryOf(f), familyTools(f))
	if err != nil {
		return nil, err
	}
	maxK := recallKs[len(recallKs)-1]
	sums := make([]float64, len(recallKs))
	rep := &searchEvalReport{Cases: len(cases), Recall: map[string]float64{}}
	for _, c := range cases {
		hits := g.Index().Search(c.Query, maxK)
		var got []string
		for _, h := range hits {
			got = append(got, h.Tool)
		}
		for i, k := range recallKs {
			found := 0
			for _, e := range c.Expect {
				for _, t := range got[:min(k, len(got))] {
					if t == e {
						found++
						break
					}
				}
			}
			sums[i] += float64(found) / float64(len(c.Expect))
			if k == maxK && found < len(c.Expect) {
				rep.Misses = append(rep.Misses, searchMiss{Query: c.Query, Expect: c.Expect, Got: got})
			}
		}
	}
	for i, k := range recallKs {
		if len(cases) > 0 {
			rep.Recall[fmt.Sprint(k)] = float64(int(sums[i]/float64(len(cases))*1000+0.5)) / 1000
		}
	}
	return rep, nil
}
