package prompt

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

// manySummarized is a prompt of n summarized top-level sections and the
// open_sections tool of its declared rendering.
func manySummarized(t *testing.T, n int) runtime.Tool {
	t.Helper()
	secs := make([]Section, n)
	for i := range secs {
		secs[i] = Section{Key: "group_" + strconv.Itoa(i), Title: "G", Summary: "S.", Visibility: VisibilitySummary}
	}
	r, err := MustNew("ns", "many", "", secs...).Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := r.Tools()
	return tools[len(tools)-1]
}

// TestOpenSectionsErrorsListFewKeys: the field errors of a refused call
// list a bounded number of the keys to open, whatever the number of
// sections. Each of twenty wrong keys to a prompt of 5000 sections named
// all 5000 keys twice (message and expected): 2.4 MB of errors for a 300
// byte call.
func TestOpenSectionsErrorsListFewKeys(t *testing.T) {
	const sections = 5000
	tool := manySummarized(t, sections)
	wrong := make([]string, maxFieldErrors)
	for i := range wrong {
		wrong[i] = "nope" + strconv.Itoa(i)
	}
	all := make([]string, sections+1)
	for i := range all {
		all[i] = "group_" + strconv.Itoa(i)
	}
	for name, keys := range map[string][]string{"wrong keys": wrong, "one key too many": all} {
		t.Run(name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]any{"section_keys": keys, "reason": "r"})
			res, err := call(t, tool, nil, string(args))
			var ve *runtime.ValidationError
			if err != nil || !errors.As(res.Err, &ve) {
				t.Fatalf("err %v, result %+v", err, res)
			}
			size := 0
			for _, f := range ve.Fields {
				size += len(f.Message) + len(f.Expected)
				if !strings.Contains(f.Message, "group_0, group_1") || !strings.Contains(f.Message, " more named in the prompt") {
					t.Errorf("%s: message %.300q", f.Path, f.Message)
				}
			}
			if size > len(ve.Fields)*2<<10 {
				t.Errorf("%d field errors hold %d bytes", len(ve.Fields), size)
			}
		})
	}
}

// fencedLines returns the lines of s that sit inside a fenced code block,
// and whether s leaves one open.
func fencedLines(s string) (inside []string, open bool) {
	var ch byte
	n := 0
	// A lone CR ends a line too.
	for _, line := range strings.FieldsFunc(s, isLineEnd) {
		if ch != 0 {
			if closesFence(line, ch, n) {
				ch = 0
				continue
			}
			inside = append(inside, line)
			continue
		}
		ch, n, _ = opensFence(line)
	}
	return inside, ch != 0
}

// TestUnclosedFenceStaysInItsSection: a code block a summary or template
// leaves open is closed at the end of its body. It held the rest of the
// prompt: the open_sections note of the section, and every section after
// it, whose headings no longer read as headings.
func TestUnclosedFenceStaysInItsSection(t *testing.T) {
	tests := []struct {
		name string
		secs []Section
	}{
		{"summary", []Section{
			{Key: "a", Title: "A", Summary: "Sum.\n```go\ncode", Visibility: VisibilitySummary},
			{Key: "b", Title: "B", Template: "Body."},
		}},
		{"template", []Section{
			{Key: "a", Title: "A", Template: "Body.\n  ~~~~\n  ## not a heading\n  ~~~\n  still code", Children: []Section{
				{Key: "c", Title: "C", Summary: "Sum.", Visibility: VisibilitySummary},
			}},
			{Key: "b", Title: "B", Template: "Body."},
		}},
		{"indented template", []Section{
			{Key: "a", Title: "A", Template: `
				Body.
				` + "````" + `
				code`},
			{Key: "b", Title: "B", Template: "Body."},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := MustNew("ns", "fence", "", tt.secs...).Render(nil)
			if err != nil {
				t.Fatal(err)
			}
			inside, open := fencedLines(r.Text())
			for _, l := range inside {
				if strings.HasPrefix(l, "#") && strings.Contains(l, " B") || strings.HasPrefix(l, "[This section is summarized") {
					t.Errorf("line %q is inside a code block:\n%s", l, r.Text())
				}
			}
			if open {
				t.Errorf("a code block is left open:\n%s", r.Text())
			}
		})
	}
}

type docParams struct {
	Title string `json:"title"`
	Doc   string `json:"doc"`
}

// TestParamsValuesStayInTheirSection: a params value cannot end its
// section. A value with a line break in a heading started a line of its
// own ("## 2 Fake" read as the next section), and a value leaving a code
// block open (a document cut short) held every section after it.
func TestParamsValuesStayInTheirSection(t *testing.T) {
	p := MustNew("ns", "values", "",
		Section{Key: "doc", Title: "Doc", Params: reflect.TypeFor[docParams](), Template: "# About ${title}\n${doc}"},
		Section{Key: "b", Title: "B", Summary: "Sum.", Visibility: VisibilitySummary},
	)
	tests := []struct {
		name   string
		params docParams
		want   string
	}{
		{"plain", docParams{Title: "x", Doc: "text"},
			"## 1 Doc\n### About x\ntext\n\n## 2 B\nSum."},
		{"break in a heading", docParams{Title: "x\n## 2 Fake\r\ny", Doc: "text"},
			"## 1 Doc\n### About x ## 2 Fake y\ntext\n\n## 2 B\nSum."},
		{"open code block", docParams{Title: "x", Doc: "```go\nfunc f() {"},
			"## 1 Doc\n### About x\n```go\nfunc f() {\n```\n\n## 2 B\nSum."},
		// A lone CR ends a line in markdown, as LF does.
		{"open code block after lone CRs", docParams{Title: "x", Doc: "text\r```go\rfunc f() {"},
			"## 1 Doc\n### About x\ntext\r```go\rfunc f() {\n```\n\n## 2 B\nSum."},
		{"code block closed after a lone CR", docParams{Title: "x", Doc: "```\rcode\r```"},
			"## 1 Doc\n### About x\n```\rcode\r```\n\n## 2 B\nSum."},
		{"closed code block", docParams{Title: "x", Doc: "~~~\ncode\n~~~"},
			"## 1 Doc\n### About x\n~~~\ncode\n~~~\n\n## 2 B\nSum."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := p.Render(nil, tt.params)
			if err != nil {
				t.Fatal(err)
			}
			if got, _, _ := strings.Cut(r.Text(), "\n---\n"); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// FuzzSectionsStayApart: whatever a template, a summary or a params value
// holds, the next section's heading and a summarized note are not inside
// a code block, and the prompt leaves none open.
func FuzzSectionsStayApart(f *testing.F) {
	f.Add("Body.\n```\ncode", "Sum.\n~~~", "```go\nx")
	f.Add("  ```\n  ## h\n  ````", "Sum.", "~~~~\n```")
	f.Fuzz(func(t *testing.T, tmpl, summary, doc string) {
		secs := []Section{
			{Key: "a", Title: "A", Params: reflect.TypeFor[docParams](), Template: Escape(tmpl) + "\n${doc}"},
			{Key: "s", Title: "S", Summary: Escape(summary) + "x", Visibility: VisibilitySummary},
			{Key: "b", Title: "B", Template: "Body."},
		}
		p, err := New("ns", "fuzz", "", secs...)
		if err != nil {
			t.Skip()
		}
		r, err := p.Render(nil, docParams{Doc: doc})
		if err != nil {
			t.Fatal(err)
		}
		inside, open := fencedLines(r.Text())
		for _, l := range inside {
			if l == "## 3 B" || strings.HasPrefix(l, "[This section is summarized") {
				t.Fatalf("line %q is inside a code block:\n%s", l, r.Text())
			}
		}
		if open {
			t.Fatalf("a code block is left open:\n%s", r.Text())
		}
	})
}

// TestOpenSectionsAncestorOrder: the sections opened on the way to a key
// come before it, top-down, each once, whatever order the keys come in
// (ancestors are walked up only to one an earlier key walked).
func TestOpenSectionsAncestorOrder(t *testing.T) {
	leaf := func(k string) Section { return Section{Key: k, Title: k, Summary: "S.", Visibility: VisibilitySummary} }
	p := MustNew("ns", "order", "",
		Section{Key: "a", Title: "A", Summary: "S.", Visibility: VisibilitySummary, Children: []Section{
			{Key: "b", Title: "B", Template: "Full.", Children: []Section{
				{Key: "c", Title: "C", Summary: "S.", Visibility: VisibilitySummary, Children: []Section{leaf("d"), leaf("e")}},
			}},
			leaf("f"),
		}},
		leaf("g"),
	)
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := r.Tools()
	tool := tools[len(tools)-1]
	tests := []struct {
		keys []string
		want []string
	}{
		{[]string{"a.b.c.d"}, []string{"a", "a.b.c", "a.b.c.d"}},
		{[]string{"a.b.c.d", "a.b.c.e", "a.f"}, []string{"a", "a.b.c", "a.b.c.d", "a.b.c.e", "a.f"}},
		{[]string{"a.b.c.e", "a.b.c", "a"}, []string{"a", "a.b.c", "a.b.c.e"}},
		{[]string{"g", "a.f", "a.b.c.d"}, []string{"g", "a", "a.f", "a.b.c", "a.b.c.d"}},
		{[]string{"a.b", "a.b.c.d"}, []string{"a", "a.b", "a.b.c", "a.b.c.d"}},
	}
	for _, tt := range tests {
		args, _ := json.Marshal(map[string]any{"section_keys": tt.keys, "reason": "r"})
		_, err := call(t, tool, nil, string(args))
		var exp *VisibilityExpansionRequired
		if !errors.As(err, &exp) {
			t.Fatalf("%q: %v", tt.keys, err)
		}
		if got := exp.Paths(); !slices.Equal(got, tt.want) {
			t.Errorf("%q: opened %q, want %q", tt.keys, got, tt.want)
		}
	}
}

// TestCarriageReturnsEndLines: "\r\n" and a lone "\r" end lines in a
// template or summary, as in markdown. After a lone "\r" a heading was
// kept as text, so it sat unshifted at level 1 above its own section, and
// a code block it opened was not seen.
func TestCarriageReturnsEndLines(t *testing.T) {
	tests := []struct {
		name string
		sec  Section
		want string
	}{
		{"template", Section{Key: "a", Title: "A", Template: "Intro\r# Heading\rtext\r\n## Sub\r\nmore"},
			"## 1 A\nIntro\n### Heading\ntext\n#### Sub\nmore"},
		{"summary", Section{Key: "a", Title: "A", Summary: "Sum.\r# Part\r```\rcode", Visibility: VisibilitySummary},
			"## 1 A\nSum.\n### Part\n```\ncode\n```\n---\n"},
		{"placeholder line", Section{Key: "a", Title: "A", Template: "ok\r\rx ${oops}"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := New("ns", "cr", "", tt.sec)
			if tt.want == "" {
				if err == nil || !strings.Contains(err.Error(), "line 3:") {
					t.Errorf("err = %v, want one at line 3", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Render(nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Text(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("got %q, want it to start %q", got, tt.want)
			}
		})
	}
}
