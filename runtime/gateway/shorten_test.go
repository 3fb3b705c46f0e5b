package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
)

// TestLeadingSentences: short help keeps whole sentences and whole lines
// (a command's required language and format survive; a list item is not
// cut in two) and cuts only past the bound.
func TestLeadingSentences(t *testing.T) {
	long := strings.Repeat("word ", 30) // one sentence longer than the bound
	cases := []struct {
		in   string
		n    int
		want string
		cut  bool
	}{
		{"Run a command. It must be POSIX sh, one line.", 80, "Run a command. It must be POSIX sh, one line.", false},
		{"Run a command.\nIt must be POSIX sh.", 80, "Run a command. It must be POSIX sh.", false},
		{"First sentence here. Second one that does not fit in the bound at all.", 30, "First sentence here.", true},
		{long, 40, "word word word word word word word word…", true},
		// "e.g. Paris" does not end a sentence
		{"A city, e.g. Paris or Rome, to search in.", 80, "A city, e.g. Paris or Rome, to search in.", false},
		// lines are units: list items stay whole
		{"Plan steps.\n- Break problems down\n- Revise as you go\n- Keep context over many steps", 55,
			"Plan steps. - Break problems down - Revise as you go", true},
		// a heading is not kept without what follows it
		{"Plan steps.\nWhen to use:\n- Breaking down complex problems into steps", 30, "Plan steps.", true},
	}
	for _, c := range cases {
		got, cut := leadingSentences(c.in, c.n)
		if got != c.want || cut != c.cut {
			t.Errorf("leadingSentences(%q, %d) = %q, %v; want %q, %v", c.in, c.n, got, cut, c.want, c.cut)
		}
	}
}

// TestShortenCutsArgumentRepetition: the lines of a description that
// document an argument leave the summary; what they add reaches the
// argument, what they repeat goes.
func TestShortenCutsArgumentRepetition(t *testing.T) {
	args := []Arg{
		{Name: "query", Type: "string", Description: "The search query."},
		{Name: "limit", Type: "integer", Description: "Maximum results"},
		{Name: "thought", Type: "string", Description: "Your current thinking step"},
		{Name: "note", Type: "string"},
	}
	desc := `Search the notes.
Results come newest first.

Args:
    query (str): The search query.
    limit (int, optional): Maximum results. Defaults to 10.

Parameters explained:
- thought: Your current thinking step, which can include:
  * Revisions of previous thoughts
  * Questions about previous decisions
- ` + "`note`" + ` — free text kept with the result

Returns:
    A list of notes.`
	d := shorten(desc, args, nil)
	if want := "Search the notes. Results come newest first. Returns: A list of notes."; d.summary != want || d.cut {
		t.Errorf("summary = %q (cut %v), want %q", d.summary, d.cut, want)
	}
	want := []string{
		"The search query.",
		"Maximum results. Defaults to 10.",
		"Your current thinking step, which can include: * Revisions of previous thoughts * Questions about previous decisions",
		"free text kept with the result",
	}
	for i, w := range want {
		if d.args[i] != w {
			t.Errorf("arg %s = %q, want %q", args[i].Name, d.args[i], w)
		}
	}
}

// TestShortenKeepsWhatIsNotAnArgument: lines that only look like argument
// items stay, and so does a first line of that shape.
func TestShortenKeepsWhatIsNotAnArgument(t *testing.T) {
	args := []Arg{{Name: "path", Type: "string", Description: "File path."}}
	for _, desc := range []string{
		"path: the file to read. Reads a file.",
		"Read a file.\nNote: symlinks are followed.\nParameters:\n- mode: ignored",
		"Read a file.\nArgs:\n  path (str): File path.\n  encoding: utf-8 only",
	} {
		d := shorten(desc, args, nil)
		for _, keep := range []string{"path: the file", "Note: symlinks", "mode: ignored", "encoding: utf-8 only"} {
			if strings.Contains(desc, keep) && !strings.Contains(d.summary, keep) {
				t.Errorf("shorten(%q) lost %q: %q", desc, keep, d.summary)
			}
		}
	}
}

// TestShortHelpSaysWhenCut: a description longer than short help shows
// says so and how to read all of it.
func TestShortHelpSaysWhenCut(t *testing.T) {
	long := "Think step by step.\n" + strings.Repeat("- Keep context over multiple steps of a long task\n", 20)
	ops := []Op{{Path: "think.step", Tool: "think", Kind: runtime.OpRead}}
	tools := []runtime.Tool{{Name: "think", Description: long, Parameters: json.RawMessage(`{"type":"object"}`)}}
	g, err := New(Registry{Ops: ops}, tools)
	if err != nil {
		t.Fatal(err)
	}
	short := string(g.help(runtime.ToolContext{}, helpRequest{Path: "think.step"}).Result)
	if !strings.Contains(short, `\"format\":\"full\" shows all`) || strings.Count(short, "Keep context") != 11 {
		t.Errorf("short help: %s", short)
	}
	full := string(g.help(runtime.ToolContext{}, helpRequest{Path: "think.step", Format: "full"}).Result)
	if strings.Contains(full, "longer than shown") || strings.Count(full, "Keep context") != 20 {
		t.Errorf("full help: %s", full)
	}
}

// TestShortenCutsPolicyRepetition: rules that help shows in the op's
// policy leave the summary, whole list items and single sentences alike,
// with the headings they leave empty.
func TestShortenCutsPolicyRepetition(t *testing.T) {
	pol := &Policy{
		Do:   []string{"Breaking down complex problems", "Only set done to true when finished"},
		Dont: []string{"Do not create tasks for research you can do now"},
	}
	desc := `Create a task in a project. IMPORTANT: Do NOT create tasks for research you can do now.
When to use this tool:
- Breaking down complex problems
Key features:
- Tasks can be revised
You should:
1. Only set done to true when finished.
Returns:
  the task`
	d := shorten(desc, nil, pol)
	want := "Create a task in a project. Key features: - Tasks can be revised Returns: the task"
	if d.summary != want {
		t.Errorf("summary = %q\nwant      %q", d.summary, want)
	}
	// A heading that ends a line goes with the rules under it.
	desc = "Create a task.\n\nTasks are for later. Use this tool when:\n- Breaking down complex problems\n\nTasks get an id."
	if d := shorten(desc, nil, pol); d.summary != "Create a task. Tasks are for later. Tasks get an id." {
		t.Errorf("summary = %q", d.summary)
	}
	// A first line made of a rule stays.
	desc = "Do NOT create tasks for research you can do now.\nTasks get an id."
	if d := shorten(desc, nil, pol); d.summary != "Do NOT create tasks for research you can do now. Tasks get an id." {
		t.Errorf("summary = %q", d.summary)
	}
}

// TestDropRulesLinear: a description of many lines, each a rule of a
// policy of as many rules (a description written so, from which the
// taxonomy extracts a rule a line), compares a few times as many texts
// with the rules as it has lines, not lines times rules: each line was
// looked for every rule in, and short help of 16,000 such lines (370 KB)
// took 4 s, again for each spelling of its path.
func TestDropRulesLinear(t *testing.T) {
	const n = 4000
	pol := &Policy{}
	lines := []string{"Get a thing."}
	for i := range n {
		pol.Dont = append(pol.Dont, fmt.Sprintf("Never use value v%d", i))
		lines = append(lines, fmt.Sprintf("Never use value v%d.", i), fmt.Sprintf("- Values of w%d are kept. Never use value v%d", i, i))
	}
	rules := newRuleSet(pol)
	for i, l := range lines {
		kept, changed := dropRules(l, rules)
		switch {
		case i == 0 && changed:
			t.Fatalf("line %q: kept %q", l, kept)
		case i > 0 && i%2 == 1 && (!changed || kept != ""):
			t.Fatalf("line %q: kept %q, %v", l, kept, changed)
		case i > 0 && i%2 == 0 && (!changed || !strings.HasPrefix(kept, "- Values of w") || strings.Contains(kept, "Never")):
			t.Fatalf("line %q: kept %q, %v", l, kept, changed)
		}
	}
	if rules.compared > 8*len(lines) {
		t.Errorf("%d lines against %d rules: %d comparisons (%.0f a line)", len(lines), n, rules.compared, float64(rules.compared)/float64(len(lines)))
	}
}

// BenchmarkShortHelpManyRules is short op help for a description of n
// lines, each a rule of its policy.
func BenchmarkShortHelpManyRules(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		var sb strings.Builder
		sb.WriteString("Get a thing.\n")
		pol := &Policy{}
		for i := range n {
			r := fmt.Sprintf("Never use value v%d", i)
			sb.WriteString(r + ".\n")
			pol.Dont = append(pol.Dont, r)
		}
		desc := sb.String()
		b.Run(fmt.Sprintf("%d_rules", n), func(b *testing.B) {
			for b.Loop() {
				shorten(desc, []Arg{{Name: "id"}}, pol)
			}
		})
	}
}

// FuzzShorten: any description and argument name give a bounded summary,
// valid UTF-8 for valid input, and no panic.
func FuzzShorten(f *testing.F) {
	f.Add("Search notes.\nArgs:\n  query (str): words\n\nReturns:\n  notes", "query", "Only call once")
	f.Add("Do it.\nWhen to use:\n- Only call once\n- x: y\n  more", "x", "Only call once")
	f.Add(strings.Repeat("a. B", 300)+":\n", "a", "B")
	f.Add("\n\n- `x` (int) — \n:\n1) 2. 3", "x", "")
	f.Fuzz(func(t *testing.T, desc, arg, rule string) {
		d := shorten(desc, []Arg{{Name: arg, Description: rule}}, &Policy{Do: []string{rule}})
		if len(d.summary) > shortSummaryLen+len("…") || len(d.args[0]) > shortArgLen+len("…") {
			t.Fatalf("summary of %d bytes, arg of %d", len(d.summary), len(d.args[0]))
		}
		if utf8.ValidString(desc) && utf8.ValidString(rule) && (!utf8.ValidString(d.summary) || !utf8.ValidString(d.args[0])) {
			t.Fatalf("invalid UTF-8 from valid input: %q", d.summary)
		}
	})
}
