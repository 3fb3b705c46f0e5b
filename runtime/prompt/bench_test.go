package prompt

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type benchParams struct {
	Project string `json:"project"`
	Owner   string `json:"owner"`
}

// twentySections builds a prompt of 20 sections (4 top-level, each with 4
// children), every one with a template carrying placeholders and headings,
// a summary and a tool; half the top-level sections are summarized.
func twentySections(b *testing.B) *Prompt {
	b.Helper()
	var secs []Section
	for i := range 4 {
		top := Section{
			Key: fmt.Sprintf("group%d", i), Title: fmt.Sprintf("Group %d", i),
			Template: "Tools for ${project}, owned by ${owner}.\n\n# Usage\nCall them in order.\n## Notes\nKeep calls small.",
			Summary:  "Group tools for ${project}.", Params: reflect.TypeFor[benchParams](),
			Tools: []runtime.Tool{runtime.MustTool(fmt.Sprintf("group%d_list", i), "List things.", nil, nil)},
		}
		if i%2 == 1 {
			top.Visibility = VisibilitySummary
		}
		for j := range 4 {
			top.Children = append(top.Children, Section{
				Key: fmt.Sprintf("item%d", j), Title: fmt.Sprintf("Item %d", j),
				Template: "Details of ${project} item.\n- one\n- two\n\n### Edge cases\nNone known.",
				Summary:  "Item summary.", Params: reflect.TypeFor[benchParams](),
				Tools: []runtime.Tool{runtime.MustTool(fmt.Sprintf("group%d_item%d", i, j), "Handle an item.", nil, nil)},
			})
		}
		secs = append(secs, top)
	}
	p, err := New("bench", "twenty", "", secs...)
	if err != nil {
		b.Fatal(err)
	}
	if n := len(p.Paths()); n != 20 {
		b.Fatalf("built %d sections, want 20", n)
	}
	return p
}

func BenchmarkRender20Sections(b *testing.B) {
	p := twentySections(b)
	params := benchParams{Project: "toolgen", Owner: "platform team"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Render(nil, params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRender20SectionsAllOpen(b *testing.B) {
	p := twentySections(b)
	params := benchParams{Project: "toolgen", Owner: "platform team"}
	open := Overrides{"group1": VisibilityFull, "group3": VisibilityFull}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := p.Render(open, params); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpenSections(b *testing.B) {
	p := twentySections(b)
	r, err := p.Render(nil, benchParams{})
	if err != nil {
		b.Fatal(err)
	}
	tools := r.Tools()
	h := tools[len(tools)-1].Handler
	args := json.RawMessage(`{"section_keys":["group1","group3.item2"],"reason":"need details"}`)
	b.ReportAllocs()
	for b.Loop() {
		var exp *VisibilityExpansionRequired
		if _, err := h(b.Context(), runtime.ToolContext{}, args); !errors.As(err, &exp) {
			b.Fatal(err)
		}
	}
}

func BenchmarkParseMarkdown(b *testing.B) {
	doc := "# Title\nintro\n\n## A\n```\n# code\n```\n{VAR}\n### B\ntext\n"
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		ParseMarkdown(doc, 1)
	}
}

// BenchmarkOpenSectionsDeep opens every section of a chain 1000 deep, the
// deepest key first: the arguments are 1 MB (each key spells its path).
func BenchmarkOpenSectionsDeep(b *testing.B) {
	const depth = 1000
	s := Section{Key: "a", Title: "T", Summary: "S.", Visibility: VisibilitySummary}
	for range depth - 1 {
		s = Section{Key: "a", Title: "T", Summary: "S.", Visibility: VisibilitySummary, Children: []Section{s}}
	}
	r, err := MustNew("ns", "deep", "", s).Render(nil)
	if err != nil {
		b.Fatal(err)
	}
	tools := r.Tools()
	h := tools[len(tools)-1].Handler
	keys := make([]string, depth)
	for i := range keys {
		keys[depth-1-i] = strings.Repeat("a.", i) + "a"
	}
	args, _ := json.Marshal(map[string]any{"section_keys": keys, "reason": "r"})
	b.ReportAllocs()
	for b.Loop() {
		var exp *VisibilityExpansionRequired
		if _, err := h(b.Context(), runtime.ToolContext{}, args); !errors.As(err, &exp) || len(exp.RequestedOverrides) != depth {
			b.Fatal(err)
		}
	}
}
