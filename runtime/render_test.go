package runtime_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

type table struct{ rows []string }

func (t table) Render() string { return "| " + strings.Join(t.rows, " |\n| ") + " |" }

type ptrRenderer struct{ N int }

func (p *ptrRenderer) Render() string { return "n=" + strings.Repeat("*", p.N) }

type panicky struct{}

func (panicky) Render() string { panic("boom") }

type badJSON struct{}

func (badJSON) MarshalJSON() ([]byte, error) { return nil, json.Unmarshal([]byte("x"), new(any)) }

type inner struct {
	ID    string  `json:"id"`
	Note  *string `json:"note"`
	Count int     `json:"count"`
}

type outer struct {
	Zebra string            `json:"zebra"`
	Inner *inner            `json:"inner"`
	Items []inner           `json:"items"`
	Tags  map[string]any    `json:"tags"`
	Empty *inner            `json:"empty"`
	Raw   json.RawMessage   `json:"raw"`
	HTML  string            `json:"html"`
	Alpha map[string]string `json:"alpha,omitempty"`
}

func TestRenderValue(t *testing.T) {
	note := "x"
	tests := []struct {
		name string
		v    any
		want string
	}{
		{"nil", nil, ""},
		{"nil pointer", (*inner)(nil), ""},
		{"renderer", table{rows: []string{"a", "b"}}, "| a |\n| b |"},
		{"pointer-receiver renderer held by value", ptrRenderer{N: 3}, "n=***"},
		{"pointer renderer", &ptrRenderer{N: 1}, "n=*"},
		{"string", "hi", `"hi"`},
		{"number", 1.5, `1.5`},
		{"nested with nil pointers keeps member order", outer{
			Zebra: "z",
			Inner: &inner{ID: "i1", Count: 2},
			Items: []inner{{ID: "a", Note: &note}, {ID: "b"}},
			Tags:  map[string]any{"z": 1, "a": nil, "m": []any{nil, "s"}},
			Raw:   json.RawMessage(`{"k": null, "b": [1, null], "s": "a\"null\"}"}`),
			HTML:  "<b>&</b>",
		}, `{"zebra":"z","inner":{"id":"i1","count":2},"items":[{"id":"a","note":"x","count":0},{"id":"b","count":0}],"tags":{"m":[null,"s"],"z":1},"raw":{"b":[1,null],"s":"a\"null\"}"},"html":"<b>&</b>"}`},
		{"map keys sorted", map[string]int{"b": 2, "a": 1, "c": 3}, `{"a":1,"b":2,"c":3}`},
		{"raw message compacted", json.RawMessage(` { "a" : 1 , "n" : null } `), `{"a":1}`},
		{"null raw message", json.RawMessage(`null`), ""},
		{"empty object stays", map[string]any{"a": nil}, `{}`},
		{"panicking renderer", panicky{}, "<unrenderable value: boom>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := runtime.RenderValue(tc.v)
			if got != tc.want {
				t.Errorf("RenderValue =\n%s\nwant\n%s", got, tc.want)
			}
			if again := runtime.RenderValue(tc.v); again != got {
				t.Errorf("not deterministic: %q then %q", got, again)
			}
		})
	}
	if got := runtime.RenderValue(badJSON{}); !strings.HasPrefix(got, "<unrenderable value: ") {
		t.Errorf("failing MarshalJSON rendered %q", got)
	}
}

func TestRenderResult(t *testing.T) {
	tests := []struct {
		name string
		r    runtime.Result
		want string
	}{
		{"message and value", runtime.Result{Message: "Fetched.", Value: map[string]int{"n": 1}, Success: true}, "Fetched.\n\n{\"n\":1}"},
		{"value only", runtime.Result{Value: table{rows: []string{"r"}}, Success: true}, "| r |"},
		{"excluded value", runtime.Result{Message: "Stored.", Value: "secret", Success: true, ExcludeValueFromContext: true}, "Stored."},
		{"failure", runtime.Failure(runtime.NotFound("issue %d not found", 7)), "issue 7 not found"},
		{"nil value", runtime.Result{Message: "Done.", Success: true}, "Done."},
	}
	for _, tc := range tests {
		if got := runtime.RenderResult(tc.r); got != tc.want {
			t.Errorf("%s: RenderResult = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestToolResultUntyped(t *testing.T) {
	ok := runtime.OK(inner{ID: "e1"}, "Fetched e1.").Untyped()
	if !ok.Success || ok.Message != "Fetched e1." || ok.Value.(inner).ID != "e1" {
		t.Errorf("OK().Untyped() = %+v", ok)
	}
	failed := runtime.ToolResult[inner]{Message: "nope", Value: inner{ID: "leak"}}.Untyped()
	if failed.Success || failed.Value != nil {
		t.Errorf("failed result carries a value: %+v", failed)
	}
	f := runtime.Fail[inner]("could not fetch").Untyped()
	if f.Success || f.Value != nil || f.Message != "could not fetch" {
		t.Errorf("Fail().Untyped() = %+v", f)
	}
	ex := runtime.ToolResult[string]{Value: "v", Success: true, ExcludeValueFromContext: true}.Untyped()
	if !ex.ExcludeValueFromContext || ex.Value != "v" {
		t.Errorf("excluded value not carried out of band: %+v", ex)
	}
}

func BenchmarkRenderValue(b *testing.B) {
	note := "n"
	v := outer{Zebra: "z", Inner: &inner{ID: "i"}, Items: []inner{{ID: "a", Note: &note}, {ID: "b"}}, Tags: map[string]any{"a": nil, "b": 1}}
	b.ReportAllocs()
	for b.Loop() {
		runtime.RenderValue(v)
	}
}

type panicsWith struct{ v any }

func (p panicsWith) Render() string { panic(p.v) }

type failsWith struct{ err error }

func (f failsWith) MarshalJSON() ([]byte, error) { return nil, f.err }

// TestRenderValuePanicHostile: a Render method's panic value is shown on
// one short line, and one fmt cannot print (a slice holding itself, which
// overflows the stack) by its type.
func TestRenderValuePanicHostile(t *testing.T) {
	self := []any{nil}
	self[0] = self
	tests := []struct {
		v    any
		want string
	}{
		{"a\nb", `<unrenderable value: a\nb>`},
		{self, "<unrenderable value: []interface {} (not shown: a cyclic or too large value)>"},
	}
	for _, tc := range tests {
		if got := runtime.RenderValue(panicsWith{tc.v}); got != tc.want {
			t.Errorf("RenderValue = %q, want %q", got, tc.want)
		}
	}
	// So is a MarshalJSON method's error.
	got := runtime.RenderValue(failsWith{errors.New("line\nbreak " + strings.Repeat("x", 1<<20))})
	if !strings.HasPrefix(got, `<unrenderable value: json: error calling MarshalJSON for type runtime_test.failsWith: line\nbreak xxx`) || len(got) > 300 {
		t.Errorf("MarshalJSON error: %q (%d bytes)", got[:min(len(got), 120)], len(got))
	}
}
