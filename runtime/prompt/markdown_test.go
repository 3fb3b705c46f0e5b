package prompt

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var ignoreLine = cmpopts.IgnoreFields(Element{}, "Line")

func TestParseMarkdown(t *testing.T) {
	tests := []struct {
		name string
		in   string
		base int
		want []Element
	}{
		{"empty", "", 1, nil},
		{"text only", "hello\nworld", 2, []Element{{Kind: Text, Level: 2, Content: "hello\nworld"}}},
		{
			"headings set the content level",
			"intro\n## A\nbody\n### B\nmore", 1,
			[]Element{
				{Kind: Text, Level: 1, Content: "intro"},
				{Kind: Title, Level: 2, Content: "A"},
				{Kind: Text, Level: 3, Content: "body"},
				{Kind: Title, Level: 3, Content: "B"},
				{Kind: Text, Level: 4, Content: "more"},
			},
		},
		{
			"up to three leading spaces, tabs after hashes",
			"   # One\n    # code\n##\tTwo  ", 1,
			[]Element{
				{Kind: Title, Level: 1, Content: "One"},
				{Kind: Text, Level: 2, Content: "    # code"},
				{Kind: Title, Level: 2, Content: "Two"},
			},
		},
		{
			"not headings",
			"#hashtag\n####### seven\n#\n##   \n", 1,
			[]Element{{Kind: Text, Level: 1, Content: "#hashtag\n####### seven\n#\n##   \n"}},
		},
		{
			"fenced code keeps headings as text",
			"# Doc\n```md\n# not a title\n{VAR}\n```\n~~~~\n## also not\n~~~\n~~~~\n## Real", 1,
			[]Element{
				{Kind: Title, Level: 1, Content: "Doc"},
				{Kind: Text, Level: 2, Content: "```md\n# not a title\n{VAR}\n```\n~~~~\n## also not\n~~~\n~~~~"},
				{Kind: Title, Level: 2, Content: "Real"},
			},
		},
		{
			"unclosed fence runs to the end",
			"```\n# no\n", 1,
			[]Element{{Kind: Text, Level: 1, Content: "```\n# no\n"}},
		},
		{
			"backtick fence with backticks in info is not a fence",
			"``` a`b\n# yes", 1,
			[]Element{{Kind: Text, Level: 1, Content: "``` a`b"}, {Kind: Title, Level: 1, Content: "yes"}},
		},
		{
			"template variables inherit the content level",
			"{TOP}\n## Research Process\n\n{PROMPT_SUBTREE}\n{ not_a_var }\n{1x}", 1,
			[]Element{
				{Kind: Template, Level: 1, Content: "TOP"},
				{Kind: Title, Level: 2, Content: "Research Process"},
				{Kind: Text, Level: 3, Content: ""},
				{Kind: Template, Level: 3, Content: "PROMPT_SUBTREE"},
				{Kind: Text, Level: 3, Content: "{ not_a_var }\n{1x}"},
			},
		},
		{
			"blank lines between two headings are dropped",
			"## Analysis Method\n\n\n### Data Sources\n\n", 1,
			[]Element{
				{Kind: Title, Level: 2, Content: "Analysis Method"},
				{Kind: Title, Level: 3, Content: "Data Sources"},
				{Kind: Text, Level: 4, Content: "\n"},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := ParseMarkdown(tt.in, tt.base)
			if d := cmp.Diff(tt.want, got, ignoreLine); d != "" {
				t.Errorf("ParseMarkdown(%q) (-want +got):\n%s", tt.in, d)
			}
		})
	}
}

func TestParseMarkdownLines(t *testing.T) {
	got := ParseMarkdown("a\nb\n# T\n{X}\nc", 1)
	var lines []int
	for _, e := range got {
		lines = append(lines, e.Line)
	}
	if d := cmp.Diff([]int{1, 3, 4, 5}, lines); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

func TestAdjustLevels(t *testing.T) {
	in := []Element{
		{Kind: Title, Level: 2, Content: "Analysis Method"},
		{Kind: Title, Level: 3, Content: "Data Sources"},
	}
	got := AdjustLevels(in, 3)
	want := []Element{
		{Kind: Title, Level: 3, Content: "Analysis Method"},
		{Kind: Title, Level: 4, Content: "Data Sources"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("AdjustLevels (-want +got):\n%s", d)
	}
	if in[0].Level != 2 || in[1].Level != 3 {
		t.Errorf("AdjustLevels modified its input: %+v", in)
	}
	if got := AdjustLevels(nil, 3); got != nil {
		t.Errorf("AdjustLevels(nil) = %v, want nil", got)
	}
	up := AdjustLevels([]Element{{Kind: Title, Level: 5}, {Kind: Title, Level: 6}}, 1)
	if up[0].Level != 1 || up[1].Level != 2 {
		t.Errorf("AdjustLevels shifting up = %+v", up)
	}
}

// TestHeadingAlignmentSpecExample is the worked example of spec 002: a child
// with its field title embedded at the parent's template variable.
func TestHeadingAlignmentSpecExample(t *testing.T) {
	parent := ParseMarkdown("## Research Process\n\n{PROMPT_SUBTREE}", 1)
	child := ParseMarkdown("## Analysis Method\n\n### Data Sources", 1)
	resolved := ResolveTemplates(parent, map[string][]Element{
		"PROMPT_SUBTREE": Titled("Literature Review", child),
	})
	got := RenderMarkdown(resolved)
	want := "## Research Process\n\n### Literature Review\n#### Analysis Method\n##### Data Sources"
	if got != want {
		t.Errorf("resolved prompt:\n%s\nwant:\n%s", got, want)
	}
	if parent[2].Kind != Template {
		t.Errorf("ResolveTemplates modified the parent: %+v", parent)
	}
}

func TestResolveTemplatesKeepsUnknownVariables(t *testing.T) {
	parent := ParseMarkdown("# A\n{KNOWN}\n{UNKNOWN}", 1)
	got := RenderMarkdown(ResolveTemplates(parent, map[string][]Element{
		"KNOWN": ParseMarkdown("# Child\ntext", 1),
	}))
	want := "# A\n## Child\ntext\n{UNKNOWN}"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestDeepNesting(t *testing.T) {
	// Three embeddings deep: headings past level 6 become bold lines, in
	// order, with their text intact.
	leaf := ParseMarkdown("# Leaf\nleaf text\n## Leaf detail", 1)
	mid := ResolveTemplates(ParseMarkdown("# Mid\n## Mid sub\n{SUB}", 1), map[string][]Element{"SUB": leaf})
	top := ResolveTemplates(ParseMarkdown("## Top\n### Top sub\n#### Top sub sub\n{SUB}", 1), map[string][]Element{"SUB": mid})
	got := RenderMarkdown(top)
	want := strings.Join([]string{
		"## Top",
		"### Top sub",
		"#### Top sub sub",
		"##### Mid",
		"###### Mid sub",
		"**Leaf**",
		"leaf text",
		"**Leaf detail**",
	}, "\n")
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderMarkdownClampsLowLevels(t *testing.T) {
	got := RenderMarkdown([]Element{{Kind: Title, Level: 0, Content: "Zero"}, {Kind: Title, Level: -3, Content: "Neg"}})
	if want := "# Zero\n# Neg"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestRoundTrip(t *testing.T) {
	in := "intro\n\n# Title\n\nbody text\n  with indent\n\n```go\n# comment\n```\n## Sub\n{VAR}\n"
	if got := RenderMarkdown(ParseMarkdown(in, 1)); got != in {
		t.Errorf("round trip:\n%q\nwant\n%q", got, in)
	}
}

// words returns the whitespace-separated words of s, without heading marks.
func words(s string) []string {
	var out []string
	for _, w := range strings.Fields(s) {
		if strings.Trim(w, "#") != "" {
			out = append(out, w)
		}
	}
	return out
}

func FuzzParseMarkdown(f *testing.F) {
	for _, s := range []string{
		"", "# A\ntext", "## Research Process\n\n{PROMPT_SUBTREE}", "```\n# x\n```\n# y",
		"   ### indented\n    #### code", "#no\n##\t tab\r\n", "~~~\n~~\n~~~~\n# z", "{a}\n\n\n# b\n\n# c",
	} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, s string, base int) {
		base = base%8 + 1
		els := ParseMarkdown(s, base)
		out := RenderMarkdown(els)
		if d := cmp.Diff(words(s), words(out)); d != "" {
			t.Fatalf("render(parse(%q)) = %q lost text (-in +out):\n%s", s, out, d)
		}
		again := ParseMarkdown(out, base)
		if d := cmp.Diff(els, again, ignoreLine, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("parse is not stable over render for %q (-first +second):\n%s", s, d)
		}
		shifted := AdjustLevels(els, base+2)
		if len(shifted) != len(els) {
			t.Fatalf("AdjustLevels changed the element count")
		}
	})
}
