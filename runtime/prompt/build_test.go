package prompt

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
)

type embedded struct {
	Hidden string
}

type Inner struct {
	Region string `json:"region"`
}

type richParams struct {
	Inner
	embedded
	Name    string `json:"name"`
	Count   int
	Ptr     *string
	Skipped string `json:"-"`
}

func TestNewValidation(t *testing.T) {
	lookup := runtime.MustTool("lookup", "Look up.", nil, nil)
	upper := runtime.Tool{Name: "ListIssues", Description: "List issues."}
	tests := []struct {
		name     string
		sections []Section
		section  string
		tool     string
		other    string
		msg      string
	}{
		{
			name: "duplicate tool across sections names both",
			sections: []Section{
				{Key: "a", Title: "A", Tools: []runtime.Tool{lookup}},
				{Key: "b", Title: "B", Children: []Section{{Key: "c", Title: "C", Tools: []runtime.Tool{lookup}}}},
			},
			section: "b.c", tool: "lookup", other: "a",
			msg: `prompt ns/k: section "b.c": tool "lookup" is declared in sections "a" and "b.c"`,
		},
		{
			name:     "duplicate tool inside one section",
			sections: []Section{{Key: "a", Title: "A", Tools: []runtime.Tool{lookup, lookup}}},
			section:  "a", tool: "lookup", other: "a",
		},
		{
			name:     "hand-written tool with an uppercase name",
			sections: []Section{{Key: "a", Title: "A", Tools: []runtime.Tool{upper}}},
			section:  "a", tool: "ListIssues",
		},
		{
			name:     "generated tool with a bad name",
			sections: []Section{{Key: "a", Title: "A", Generated: true, Tools: []runtime.Tool{{Name: "list.issues"}}}},
			section:  "a", tool: "list.issues",
		},
		{name: "empty key", sections: []Section{{Key: "a", Title: "A"}, {Title: "B"}}, section: "#2", msg: `prompt ns/k: section "#2": key is empty`},
		{
			name:     "template line numbers count from the raw template",
			sections: []Section{{Key: "a", Title: "A", Template: "\n\n\tok\n\tstill ok\n\n\t# H\n\tx ${oops}"}},
			section:  "a", msg: `prompt ns/k: section "a": template: line 7: placeholder ${oops} needs a params type (Section.Params; a literal "$" is written "$$")`,
		},
		{name: "dotted key", sections: []Section{{Key: "a.b", Title: "A"}}, section: "a.b"},
		{name: "duplicate sibling key", sections: []Section{{Key: "a", Title: "A"}, {Key: "a", Title: "B"}}, section: "a",
			msg: `prompt ns/k: section "a": duplicate section key`},
		{name: "multi-line title", sections: []Section{{Key: "a", Title: "A\nB"}}, section: "a"},
		{name: "missing title", sections: []Section{{Key: "a", Title: " "}}, section: "a"},
		{name: "summary without summary text", sections: []Section{{Key: "a", Title: "A", Visibility: VisibilitySummary}}, section: "a"},
		{name: "unknown visibility", sections: []Section{{Key: "a", Title: "A", Visibility: 7}}, section: "a"},
		{
			name:     "placeholder without params",
			sections: []Section{{Key: "a", Title: "A", Template: "Hi ${name}"}},
			section:  "a", msg: `prompt ns/k: section "a": template: line 1: placeholder ${name} needs a params type (Section.Params; a literal "$" is written "$$")`,
		},
		{
			name:     "placeholder missing from params type",
			sections: []Section{{Key: "a", Title: "A", Template: "ok\n${nmae}", Params: reflect.TypeFor[richParams]()}},
			section:  "a", msg: `prompt ns/k: section "a": template: line 2: placeholder ${nmae} matches no field of the params type; did you mean ${Name}?`,
		},
		{
			name:     "placeholder in summary checked too",
			sections: []Section{{Key: "a", Title: "A", Summary: "${nope}", Params: reflect.TypeFor[richParams]()}},
			section:  "a",
		},
		{name: "json dash hides a field", sections: []Section{{Key: "a", Title: "A", Template: "${-}", Params: reflect.TypeFor[richParams]()}}, section: "a"},
		{name: "unexported embedded fields are not reachable", sections: []Section{{Key: "a", Title: "A", Template: "${Hidden}", Params: reflect.TypeFor[richParams]()}}, section: "a"},
		{name: "unterminated placeholder", sections: []Section{{Key: "a", Title: "A", Template: "${name", Params: reflect.TypeFor[richParams]()}}, section: "a",
			msg: `prompt ns/k: section "a": template: line 1: unterminated placeholder "${" (a literal "$" is written "$$")`},
		{
			name:     "placeholder far from every field",
			sections: []Section{{Key: "a", Title: "A", Template: "${" + strings.Repeat("z", 300) + "}", Params: reflect.TypeFor[richParams]()}},
			section:  "a", msg: `prompt ns/k: section "a": template: line 1: placeholder ${` + strings.Repeat("z", 79) + `…} matches no field of the params type`,
		},
		{name: "empty placeholder", sections: []Section{{Key: "a", Title: "A", Template: "${}"}}, section: "a"},
		{name: "params not a struct", sections: []Section{{Key: "a", Title: "A", Params: reflect.TypeFor[string]()}}, section: "a"},
		{
			name:     "duplicate deep in the tree",
			sections: []Section{{Key: "a", Title: "A", Children: []Section{{Key: "b", Title: "B", Children: []Section{{Key: "c", Title: "C", Tools: []runtime.Tool{lookup}}}}}}, {Key: "d", Title: "D", Tools: []runtime.Tool{lookup}}},
			section:  "d", tool: "lookup", other: "a.b.c",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New("ns", "k", "", tt.sections...)
			var pe *ValidationError
			if !errors.As(err, &pe) {
				t.Fatalf("New error = %v, want *ValidationError", err)
			}
			if pe.Section != tt.section || pe.Tool != tt.tool || pe.Other != tt.other {
				t.Errorf("error fields = section %q tool %q other %q, want %q %q %q", pe.Section, pe.Tool, pe.Other, tt.section, tt.tool, tt.other)
			}
			var dup *runtime.DuplicateToolError
			if errors.As(err, &dup) != (tt.other != "") {
				t.Errorf("errors.As(*runtime.DuplicateToolError) = %v for %v", !errors.As(err, &dup), err)
			}
			if tt.msg != "" && err.Error() != tt.msg {
				t.Errorf("Error() = %q, want %q", err.Error(), tt.msg)
			}
		})
	}
	if _, err := New("", "k", ""); err == nil {
		t.Error("New accepted an empty namespace")
	}
}

func TestGeneratedToolsUseProviderRules(t *testing.T) {
	upper := runtime.Tool{Name: "ListIssues", Description: strings.Repeat("long description ", 20) + "é"}
	p, err := New("ns", "k", "", Section{Key: "issues", Title: "Issues", Generated: true, Tools: []runtime.Tool{upper}})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"ListIssues"}, toolNames(p.Tools())); d != "" {
		t.Errorf("tools (-want +got):\n%s", d)
	}
}

func TestDeclarationOrder(t *testing.T) {
	mk := func(n string) runtime.Tool { return runtime.MustTool(n, "Does "+n+".", nil, nil) }
	p := MustNew("ns", "k", "",
		Section{Key: "a", Title: "A", Tools: []runtime.Tool{mk("t1"), mk("t2")}, Children: []Section{
			{Key: "b", Title: "B", Tools: []runtime.Tool{mk("t3")}, Children: []Section{
				{Key: "c", Title: "C", Tools: []runtime.Tool{mk("t4")}},
			}},
			{Key: "d", Title: "D", Tools: []runtime.Tool{mk("t5")}},
		}},
		Section{Key: "e", Title: "E", Summary: "e", Visibility: VisibilitySummary, Tools: []runtime.Tool{mk("t6")}},
		Section{Key: "f", Title: "F", Tools: []runtime.Tool{mk("t7")}},
	)
	want := []string{"t1", "t2", "t3", "t4", "t5", "t6", "t7", "open_sections"}
	if d := cmp.Diff(want, toolNames(p.Tools())); d != "" {
		t.Errorf("Prompt.Tools (-want +got):\n%s", d)
	}
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	want = []string{"t1", "t2", "t3", "t4", "t5", "t7", "open_sections"}
	if d := cmp.Diff(want, toolNames(r.Tools())); d != "" {
		t.Errorf("Rendered.Tools (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"a", "a.b", "a.b.c", "a.d", "e", "f"}, p.Paths()); d != "" {
		t.Errorf("Paths (-want +got):\n%s", d)
	}
}

func TestPromptInfo(t *testing.T) {
	p := specPrompt(t)
	var info runtime.PromptInfo = p
	if info.Namespace() != "agents/assistant" || info.Key() != "task-executor" || info.Name() != "task_executor" {
		t.Errorf("PromptInfo = %q %q %q", info.Namespace(), info.Key(), info.Name())
	}
	if MustNew("ns", "key", "").Name() != "key" {
		t.Error("empty name does not default to key")
	}
	r, _ := p.Render(nil, specParams...)
	var ri runtime.RenderedPromptInfo = r
	if ri.Text() != specSummarized {
		t.Errorf("Text() = %q", ri.Text())
	}
}

func TestMustNewPanicsOnInvalid(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustNew did not panic")
		}
	}()
	MustNew("ns", "k", "", Section{Key: "a"})
}

func TestPlaceholders(t *testing.T) {
	name := "ptr"
	p := MustNew("ns", "k", "", Section{
		Key: "a", Title: "A", Params: reflect.TypeFor[*richParams](),
		Template: "${name} ${Name} ${Count} ${region} ${Region} [${Ptr}] costs $$5 and $x stays",
	})
	tests := []struct {
		params any
		want   string
	}{
		{richParams{Name: "n", Count: 3, Inner: Inner{Region: "eu"}, Ptr: &name}, "## 1 A\nn n 3 eu eu [ptr] costs $5 and $x stays"},
		{&richParams{Name: "m"}, "## 1 A\nm m 0   [] costs $5 and $x stays"},
	}
	for _, tt := range tests {
		r, err := p.Render(nil, tt.params)
		if err != nil {
			t.Fatal(err)
		}
		if r.Text() != tt.want {
			t.Errorf("Render(%+v) = %q, want %q", tt.params, r.Text(), tt.want)
		}
	}
}

func TestRenderParamsErrors(t *testing.T) {
	p := specPrompt(t)
	var nilCtx *ContextParams
	tests := []struct {
		name      string
		overrides Overrides
		params    []any
		msg       string
	}{
		{"missing params", nil, []any{TaskParams{}}, "prompt agents/assistant/task-executor: missing params of type prompt.ContextParams"},
		{"unknown params type", nil, append([]any{42}, specParams...), "prompt agents/assistant/task-executor: no section takes params of type int"},
		{"two of a type", nil, append([]any{TaskParams{}}, specParams...), "prompt agents/assistant/task-executor: two params values of type prompt.TaskParams"},
		{"nil params", nil, []any{nil}, "prompt agents/assistant/task-executor: nil params value"},
		{"nil pointer params", nil, []any{nilCtx}, "prompt agents/assistant/task-executor: nil params value"},
		{"unknown override", Overrides{"nope": VisibilityFull}, specParams, `prompt agents/assistant/task-executor: override for unknown section "nope"`},
		{"bad override", Overrides{"task": 9}, specParams, `prompt agents/assistant/task-executor: override for section "task": unknown visibility Visibility(9)`},
		{"summary override without summary", Overrides{"task": VisibilitySummary}, specParams, `prompt agents/assistant/task-executor: section "task" has no summary to render`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Render(tt.overrides, tt.params...)
			if err == nil || err.Error() != tt.msg {
				t.Errorf("Render error = %v, want %q", err, tt.msg)
			}
		})
	}
}

func TestEnabled(t *testing.T) {
	type flags struct{ Beta bool }
	var seen []any
	p := MustNew("ns", "k", "",
		Section{Key: "a", Title: "A", Template: "always"},
		Section{Key: "beta", Title: "Beta", Template: "beta only", Params: reflect.TypeFor[flags](),
			Enabled:  func(v any) bool { seen = append(seen, v); return v.(flags).Beta },
			Tools:    []runtime.Tool{runtime.MustTool("beta_tool", "Beta.", nil, nil)},
			Children: []Section{{Key: "child", Title: "Child", Template: "child"}}},
		Section{Key: "c", Title: "C", Template: "last", Enabled: func(v any) bool { return v == nil }},
	)
	r, err := p.Render(nil, flags{Beta: false})
	if err != nil {
		t.Fatal(err)
	}
	if want := "## 1 A\nalways\n\n## 2 C\nlast"; r.Text() != want {
		t.Errorf("disabled render = %q, want %q", r.Text(), want)
	}
	if len(r.Tools()) != 0 {
		t.Errorf("disabled section offered tools: %v", toolNames(r.Tools()))
	}
	r, err = p.Render(nil, &flags{Beta: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "## 1 A\nalways\n\n## 2 Beta\nbeta only\n\n### 2.1 Child\nchild\n\n## 3 C\nlast"; r.Text() != want {
		t.Errorf("enabled render = %q, want %q", r.Text(), want)
	}
	if d := cmp.Diff([]any{flags{}, flags{Beta: true}}, seen); d != "" {
		t.Errorf("Enabled saw (-want +got):\n%s", d)
	}
}

func TestTemplateHeadingsNestUnderSection(t *testing.T) {
	p := MustNew("ns", "k", "",
		Section{Key: "guide", Title: "Guide", Template: `
			Intro line.

			# Usage
			Call the tools.

			## Examples
			` + "```md\n\t\t\t# not a heading\n\t\t\t```" + `
			`,
			Children: []Section{{Key: "deep", Title: "Deep", Template: "#### Only\nx", Children: []Section{
				{Key: "d3", Title: "D3", Children: []Section{{Key: "d4", Title: "D4", Children: []Section{
					{Key: "d5", Title: "D5", Template: "# Inner\ny"}}}}}}}}},
	)
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"## 1 Guide",
		"Intro line.",
		"",
		"### Usage",
		"Call the tools.",
		"",
		"#### Examples",
		"```md",
		"# not a heading",
		"```",
		"",
		"### 1.1 Deep",
		"#### Only",
		"x",
		"",
		"#### 1.1.1 D3",
		"",
		"##### 1.1.1.1 D4",
		"",
		"###### 1.1.1.1.1 D5",
		"**Inner**",
		"y",
	}, "\n")
	if r.Text() != want {
		t.Errorf("render:\n%s\nwant:\n%s", r.Text(), want)
	}
}

func TestSectionsBeyondSixLevelsRenderBold(t *testing.T) {
	s := Section{Key: "l6", Title: "L6", Template: "deepest"}
	for i := 5; i >= 1; i-- {
		s = Section{Key: "l" + string(rune('0'+i)), Title: "L" + string(rune('0'+i)), Children: []Section{s}}
	}
	r, err := MustNew("ns", "k", "", s).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(r.Text(), "###### 1.1.1.1.1 L5\n\n**1.1.1.1.1.1 L6**\ndeepest") {
		t.Errorf("render:\n%s", r.Text())
	}
}

func TestToolParamDescriptions(t *testing.T) {
	tool := runtime.MustTool("lookup_entity", "Fetch an entity.", []byte(`{"type":"object","properties":{
		"entity_id":{"type":"string","description":"Global identifier to fetch"},
		"include_related":{"type":["boolean","null"],"default":false},
		"extra":true,"odd":{"description":5,"type":"integer"}}}`), nil)
	p := MustNew("ns", "k", "", Section{Key: "a", Title: "A", Tools: []runtime.Tool{tool}},
		Section{Key: "b", Title: "B", Summary: "b", Visibility: VisibilitySummary})
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	got := r.ToolParamDescriptions()
	want := map[string]map[string]ParamDescription{
		"lookup_entity": {
			"entity_id":       {Description: "Global identifier to fetch", Type: "string"},
			"include_related": {Type: "boolean|null", Default: []byte("false")},
			"extra":           {},
			"odd":             {Type: "integer"},
		},
		"open_sections": {
			"section_keys": {Type: "array", Description: "Section keys to open. Each key identifies a summarized section. Use the keys shown in section summaries. Nested sections use dot notation (e.g., 'parent.child')."},
			"reason":       {Type: "string", Description: "Brief explanation of why these sections need to be expanded. Helps the caller understand the model's information needs."},
		},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("descriptions (-want +got):\n%s", d)
	}
}

func TestDedent(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"\n\n  a\n    b\n\n  c  \n\n", "a\n  b\n\nc"},
		{"\ta\n\t\tb", "a\n\tb"},
		{"  a\n\tb", "  a\n\tb"}, // no common indentation
	}
	for _, tt := range tests {
		if got, _ := dedent(tt.in); got != tt.want {
			t.Errorf("dedent(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSectionLiteralIsCopied(t *testing.T) {
	secs := []Section{{Key: "a", Title: "A", Template: "before", Tools: []runtime.Tool{runtime.MustTool("x", "X.", nil, nil)}}}
	p := MustNew("ns", "k", "", secs...)
	secs[0].Title = "Changed"
	secs[0].Tools[0].Name = "y"
	r, _ := p.Render(nil)
	if r.Text() != "## 1 A\nbefore" || r.Tools()[0].Name != "x" {
		t.Errorf("prompt changed with its input: %q %v", r.Text(), toolNames(r.Tools()))
	}
}

func TestEscape(t *testing.T) {
	raw := "Costs $5; use ${HOME} or $$ literally"
	p, err := New("ns", "k", "", Section{Key: "a", Title: "A", Template: Escape(raw), Summary: Escape(raw)})
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	if want := "## 1 A\n" + raw; r.Text() != want {
		t.Errorf("got %q, want %q", r.Text(), want)
	}
	if _, err := New("ns", "k", "", Section{Key: "a", Title: "A", Template: raw}); err == nil {
		t.Error("unescaped ${HOME} accepted without params")
	}
}
