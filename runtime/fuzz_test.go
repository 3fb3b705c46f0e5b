package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/refs"
	"github.com/toolgen-go/toolgen/runtime"
)

func FuzzNullableUnmarshal(f *testing.F) {
	for _, s := range []string{`{}`, `{"title":null}`, `{"title":"x","assignee":3}`, `{"labels":[null]}`, `{"title":1}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var p patch
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			return
		}
		if p.Title.IsNull() && !p.Title.IsSet() {
			t.Fatal("null but not set")
		}
		out, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var q patch
		if err := json.Unmarshal(out, &q); err != nil {
			t.Fatalf("re-decoding %s: %v", out, err)
		}
		if q.Title.IsSet() != p.Title.IsSet() || q.Title.IsNull() != p.Title.IsNull() {
			t.Fatalf("round trip changed title state: %s", out)
		}
	})
}

func FuzzRenderRaw(f *testing.F) {
	for _, s := range []string{`{"a":null,"b":[null,{"c":null}]}`, `"x\"null\""`, `[1,{"k":"v"}]`, `{`, `null`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := runtime.RenderValue(json.RawMessage(s))
		if !json.Valid([]byte(s)) || out == "" {
			return
		}
		if !json.Valid([]byte(out)) {
			t.Fatalf("RenderValue(%s) = %s, not JSON", s, out)
		}
		if strings.Contains(out, ":null") {
			var v any
			_ = json.Unmarshal([]byte(out), &v)
			if hasNullMember(v) {
				t.Fatalf("RenderValue(%s) = %s keeps a null member", s, out)
			}
		}
	})
}

func hasNullMember(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for _, m := range x {
			if m == nil || hasNullMember(m) {
				return true
			}
		}
	case []any:
		for _, e := range x {
			if hasNullMember(e) {
				return true
			}
		}
	}
	return false
}

// FuzzDefinitions holds Definitions, written by hand, to json.Marshal of
// the same definitions: two tools, whatever their names, descriptions and
// parameters hold (the second tool's parameters are the first's, cut).
func FuzzDefinitions(f *testing.F) {
	f.Add("get_todo", "Get a <todo>.", ` {"type" : "object", "x":"\u2028&"} `, 5)
	f.Add("a&b", "<script>\u2028\xff\"\n", `{"x":`, 0)
	f.Add("", "", ``, 1)
	f.Add("n", "tab\tnl", `[1, 2e5, true, null, "\ud83d\ude42"]`, 3)
	f.Fuzz(func(t *testing.T, name, desc, params string, cut int) {
		first := runtime.Tool{Name: name, Description: desc, Parameters: json.RawMessage(params)}
		second := first
		second.Name += "2"
		second.Parameters = second.Parameters[:min(max(cut, 0), len(params))]
		tools := []runtime.Tool{first, second}
		type function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters,omitempty"`
		}
		type definition struct {
			Type     string   `json:"type"`
			Function function `json:"function"`
		}
		var defs []definition
		for _, tl := range tools {
			defs = append(defs, definition{"function", function{tl.Name, tl.Description, tl.Parameters}})
		}
		want, err := json.Marshal(defs)
		if err != nil {
			want = []byte("[]")
		}
		if got := runtime.Definitions(tools); string(got) != string(want) {
			t.Fatalf("Definitions =\n%s\njson.Marshal:\n%s", got, want)
		}
	})
}

// TestIgnoredArgsDepthLimit holds the check of dropped members to the
// nesting a generated decoder reads (runtime/wire's limit, repeated in the
// check): the dropped members of arguments nested to the limit are named;
// one array more and the call is refused for its depth, and nothing is
// said whether or not the refusal is passed in.
func TestIgnoredArgsDepthLimit(t *testing.T) {
	tool := refs.Tools(refs.UnimplementedHandlers{})[0]
	ia := runtime.NewIgnoredArgs(tool)
	// The arguments are one object, each node another and its children
	// array a third: node 256 is the 512th array or object.
	tree := func(levels int, inner string) json.RawMessage {
		return json.RawMessage(`{"root":` + strings.Repeat(`{"name":"n","children":[`, levels-1) + `{"name":"n"` + inner + `}` +
			strings.Repeat(`]}`, levels-1) + `}`)
	}
	at := tree(256, `,"nmae":"x"`)
	if _, err := tool.Decode(at); err != nil {
		t.Fatalf("at the limit, Decode: %v", err)
	}
	if ws := ia.Warnings("save_tree", at, nil); len(ws) != 1 || !strings.HasPrefix(ws[0], `"nmae" at /root/children/0/children/0/`) {
		t.Errorf("at the limit: %q", ws)
	}
	past := tree(256, `,"nmae":"x","children":[]`)
	res, err := runtime.Dispatch(context.Background(), tool, runtime.ToolContext{}, past)
	var ve *runtime.ValidationError
	if err != nil || !errors.As(res.Err, &ve) || len(ve.Fields) != 1 || ve.Fields[0].Code != "maxDepth" {
		t.Fatalf("past the limit, Dispatch: %v, %v; want a maxDepth refusal", res.Err, err)
	}
	for _, failure := range []error{res.Err, nil} {
		if ws := ia.Warnings("save_tree", past, failure); ws != nil {
			t.Errorf("past the limit (failure %v): %q", failure, ws)
		}
	}
}
