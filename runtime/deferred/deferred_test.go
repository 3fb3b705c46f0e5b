package deferred_test

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/runtime/text/texttest"
)

func tool(name, desc string) runtime.Tool {
	return runtime.Tool{Name: name, Description: desc, Parameters: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true}, nil
		}}
}

func op(path, toolName, group string) gateway.Op {
	return gateway.Op{Path: path, Tool: toolName, Group: group, Kind: runtime.OpRead}
}

func names(tools []runtime.Tool) []string {
	out := make([]string, len(tools))
	for i, t := range tools {
		out[i] = t.Name
	}
	return out
}

var reg = gateway.Registry{
	Groups: []gateway.Group{{Name: "todo", Summary: "Track todo items."}, {Name: "empty"}, {Name: "notes", Summary: ""}},
	Ops: []gateway.Op{
		op("notes.search", "search_notes", "notes"),
		op("todo.list", "list_todos", "todo"),
		op("todo.create", "create_todo", "todo"),
		op("todo.add", "create_todo", "todo"), // an alias: the tool is offered once
		op("misc.ping", "ping", "misc"),       // a group the registry does not list
	},
}

var tools = []runtime.Tool{
	tool("list_todos", "List todo items."),
	tool("create_todo", "Create a todo item."),
	tool("search_notes", "Search notes by words."),
	tool("ping", "Check the service is up."),
	tool("export_all", "Export every item as CSV."),
}

func TestGroups(t *testing.T) {
	s, err := deferred.New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	type group struct {
		Name, Description string
		Tools             []string
	}
	var got []group
	for _, g := range s.Groups() {
		got = append(got, group{g.Name, g.Description, names(g.Tools)})
	}
	want := []group{
		{"todo", "Track todo items.", []string{"list_todos", "create_todo"}},
		{"notes", "Tools of the notes group.", []string{"search_notes"}},
		{"misc", "Tools of the misc group.", []string{"ping"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("groups (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"export_all"}, names(s.Ungrouped())); diff != "" {
		t.Errorf("ungrouped (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"list_todos", "create_todo", "search_notes", "ping", "export_all"}, names(s.Tools())); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	for _, n := range []string{"list_todos", "export_all"} {
		if !s.Deferred(n) {
			t.Errorf("%s not deferred", n)
		}
	}
	if s.Deferred(deferred.SearchToolName) || s.Deferred("nope") {
		t.Error("search tool or unknown name deferred")
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name  string
		reg   gateway.Registry
		tools []runtime.Tool
		want  string
	}{
		{"op without tool", gateway.Registry{Ops: []gateway.Op{op("a.b", "missing", "a")}}, nil, `deferred: op "a.b": no tool "missing"`},
		{"bad tool name", gateway.Registry{}, []runtime.Tool{tool("a.b", "x")}, `deferred: tool "a.b": `},
		{"duplicate tool", gateway.Registry{}, []runtime.Tool{tool("a", "x"), tool("a", "y")}, `deferred: duplicate tool "a"`},
		{"bad group name", gateway.Registry{Groups: []gateway.Group{{Name: "a b"}}}, nil, `deferred: group "a b": `},
		{"bad op group", gateway.Registry{Ops: []gateway.Op{op("x", "a", "a.b")}}, []runtime.Tool{tool("a", "x")}, `deferred: op "x": group "a.b": `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := deferred.New(tt.reg, tt.tools)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("err = %v, want prefix %q", err, tt.want)
			}
		})
	}
}

// TestSearchToolRenamed: a family tool named tool_search is deferred as
// any other, and the search tool takes the first free name of
// tool_search_2, tool_search_3, ..., which its answers and errors say. New
// refused such a family, so the generated Deferred(h) panicked.
func TestSearchToolRenamed(t *testing.T) {
	tests := []struct {
		name  string
		tools []string
		want  string
	}{
		{"no clash", []string{"ping"}, "tool_search"},
		{"tool_search taken", []string{"tool_search", "ping"}, "tool_search_2"},
		{"tool_search_2 taken too", []string{"tool_search_2", "tool_search"}, "tool_search_3"},
		{"only tool_search_2 taken", []string{"tool_search_2"}, "tool_search"},
		{"a gap", []string{"tool_search", "tool_search_3"}, "tool_search_2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ts []runtime.Tool
			for _, n := range tt.tools {
				ts = append(ts, tool(n, "Search the catalogue of "+n+"."))
			}
			reg := gateway.Registry{Ops: []gateway.Op{op("catalogue.search", tt.tools[0], "catalogue")}}
			s, err := deferred.New(reg, ts)
			if err != nil {
				t.Fatal(err)
			}
			st := s.SearchTool()
			if s.SearchName() != tt.want || st.Name != tt.want {
				t.Fatalf("SearchName() %q, SearchTool().Name %q, want %q", s.SearchName(), st.Name, tt.want)
			}
			if s.Deferred(tt.want) {
				t.Errorf("the search tool %s is deferred", tt.want)
			}
			for _, n := range tt.tools {
				if !s.Deferred(n) {
					t.Errorf("family tool %s is not deferred", n)
				}
			}
			if diff := cmp.Diff(tt.tools, names(s.Tools())); diff != "" {
				t.Errorf("tools (-want +got):\n%s", diff)
			}
			res := search(t, s, `{"query":"catalogue `+tt.tools[0]+`","limit":1}`)
			if got := runtime.RenderResult(res); got != `{"tool_references":["`+tt.tools[0]+`"]}` {
				t.Errorf("search answered %q (%v)", got, res.Err)
			}
			for _, args := range []string{`{}`, `[]`, `{"query":"x","limit":0}`, `{"query":"x","nope":1}`} {
				if res := search(t, s, args); res.Success || !strings.HasPrefix(res.Message, tt.want+" ") && !strings.HasPrefix(res.Message, tt.want+":") {
					t.Errorf("%s: message %q, want it to name %s", args, res.Message, tt.want)
				}
			}
			var ve *runtime.ValidationError
			if res := search(t, s, `{"query":"x","query":"y"}`); !errors.As(res.Err, &ve) || ve.Tool != tt.want {
				t.Errorf("duplicate member: error %v, want a *runtime.ValidationError of tool %s", res.Err, tt.want)
			}
		})
	}
}

func search(t *testing.T, s *deferred.Surface, args string) runtime.Result {
	t.Helper()
	res, err := runtime.Dispatch(context.Background(), s.SearchTool(), runtime.ToolContext{}, json.RawMessage(args))
	if err != nil {
		t.Fatalf("dispatch: %v", err)
	}
	return res
}

func TestSearchTool(t *testing.T) {
	s, err := deferred.New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SearchTool().Check(true); err != nil {
		t.Errorf("search tool breaks the strict rules: %v", err)
	}
	res := search(t, s, `{"query":"create a todo item","limit":1}`)
	got := runtime.RenderResult(res)
	if !res.Success || got != `{"tool_references":["create_todo"]}` {
		t.Errorf("result %q (%v)", got, res.Err)
	}
	refs, ok := deferred.ParseReferences(got)
	if !ok || !cmp.Equal(refs, []string{"create_todo"}) {
		t.Errorf("ParseReferences = %v, %v", refs, ok)
	}
	none := search(t, s, `{"query":"zzzqqq"}`)
	if !none.Success || !strings.HasPrefix(none.Message, `No tool matches "zzzqqq".`) {
		t.Errorf("no match: %+v", none)
	}
	if _, ok := deferred.ParseReferences(runtime.RenderResult(none)); ok {
		t.Error("an empty search parsed as references")
	}
	// maxLength counts characters, as JSON Schema does: 500 of them in a
	// script of three UTF-8 bytes each (1500 bytes) are a query (they were
	// refused as "1500 bytes long").
	if long := search(t, s, `{"query":"`+strings.Repeat("検", deferred.MaxQueryLength)+`"}`); !long.Success {
		t.Errorf("a query of %d characters: %+v", deferred.MaxQueryLength, long)
	}
}

// TestSearchAnyLimit: Search takes any limit; one beyond the number of
// tools means all that match. The index made room for limit hits:
// math.MaxInt ("no limit") panicked, and 1<<40 ran out of memory.
func TestSearchAnyLimit(t *testing.T) {
	s, err := deferred.New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	all := s.Search("todo item", len(tools))
	if len(all) < 2 {
		t.Fatalf("Search(todo item) = %v", all)
	}
	for _, limit := range []int{len(tools) + 1, math.MaxInt} {
		if got := s.Search("todo item", limit); !cmp.Equal(got, all) {
			t.Errorf("Search(limit %d) = %v, want %v", limit, got, all)
		}
	}
}

// Hostile arguments get a failed result naming what the tool takes.
func TestSearchToolBadArgs(t *testing.T) {
	s, err := deferred.New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ args, want string }{
		{``, `tool_search needs a non-empty "query"`},
		{`{}`, `tool_search needs a non-empty "query"`},
		{`{"query":"   "}`, `tool_search needs a non-empty "query"`},
		{`{"query":null}`, `tool_search needs a non-empty "query"`},
		{`{"query":1}`, `tool_search takes {"query": string, "limit"?: integer 1..20}: "query" must be a string, got a number`},
		{`"find todos"`, `tool_search takes {"query": string, "limit"?: integer 1..20}: the arguments must be a JSON object, got a string`},
		{`[1]`, `the arguments must be a JSON object, got an array`},
		{`{"query":"x","lmit":2}`, `tool_search takes {"query": string, "limit"?: integer 1..20}: it has no argument "lmit"`},
		// Names are exact (encoding/json took QUERY for query), and a
		// second value after the object was ignored.
		{`{"QUERY":"create"}`, `it has no argument "QUERY"`},
		{`{"query":"delete"}{"limit":999}`, `the arguments are not one JSON object`},
		{`{"query":"x","limit":0}`, `tool_search: "limit" must be an integer 1..20, got 0`},
		{`{"query":"x","limit":21}`, `tool_search: "limit" must be an integer 1..20, got 21`},
		{`{"query":"x","limit":2.5}`, `tool_search: "limit" must be an integer 1..20, got 2.5`},
		{`{"query":"x","limit":"3"}`, `tool_search: "limit" must be an integer 1..20, got "3"`},
		{`{"query":"` + strings.Repeat("a", 501) + `"}`, `tool_search: "query" is 501 characters long; at most 500`},
		{`{"query":"` + strings.Repeat("検", 501) + `"}`, `tool_search: "query" is 501 characters long; at most 500`},
		{`{"query":"x"`, `tool_search takes {"query": string`},
	}
	for _, tt := range tests {
		res := search(t, s, tt.args)
		if res.Success || !strings.Contains(res.Message, tt.want) || runtime.CodeOf(res.Err) != runtime.CodeValidation ||
			strings.Contains(res.Message, "Go ") || strings.Contains(res.Message, "struct") {
			t.Errorf("args %.40q: %+v\nwant message containing %q", tt.args, res, tt.want)
		}
	}
}

// TestSearchToolStrictArgs: a member sent twice and a string that is not
// valid Unicode, at any depth, are refused with the gateway's field error
// (encoding/json kept the last value and decoded U+FFFD, so a search ran
// on what the model did not send).
func TestSearchToolStrictArgs(t *testing.T) {
	s, err := deferred.New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, args string
		want       string // path:code of the one field error; "" for a search
		message    string // for a refusal without field errors: part of its message
	}{
		{"query twice", `{"query":"delete a todo","query":"list"}`, "/query:duplicate", ""},
		{"limit twice", `{"query":"todo","limit":1,"limit":20}`, "/limit:duplicate", ""},
		{"twice, once escaped", `{"query":"a","\u0071uery":"b"}`, "/query:duplicate", ""},
		{"twice inside a value", `{"query":"x","limit":{"a":1,"a":2}}`, "/limit/a:duplicate", ""},
		{"unknown member twice", `{"query":"x","lmit":1,"lmit":2}`, "/lmit:duplicate", ""},
		{"invalid UTF-8 query", "{\"query\":\"xyz\xff\xfe\"}", "/query:encoding", ""},
		{"invalid UTF-8 name", "{\"query\":\"x\",\"q\xff\":1}", "/q\uFFFD:encoding", ""},
		{"lone high surrogate", `{"query":"\ud800 delete"}`, "/query:encoding", ""},
		{"lone low surrogate", `{"query":"delete \udc00"}`, "/query:encoding", ""},
		{"reversed pair", `{"query":"\ude42\ud83d todo"}`, "/query:encoding", ""},
		{"surrogate in a name", `{"query":"x","\ud800":1}`, "/\uFFFD:encoding", ""},
		{"surrogate pair", `{"query":"create a todo \ud83d\ude42"}`, "", ""},
		{"U+FFFD sent", `{"query":"todo \ufffd"}`, "", ""},
		{"names differ in case", `{"query":"x","QUERY":"y"}`, "", `it has no argument "QUERY"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := search(t, s, tt.args)
			if tt.want == "" && tt.message == "" {
				if !res.Success {
					t.Fatalf("failed: %s", res.Message)
				}
				return
			}
			if res.Success || runtime.CodeOf(res.Err) != runtime.CodeValidation {
				t.Fatalf("result %+v, want a validation failure", res)
			}
			if tt.message != "" {
				if !strings.Contains(res.Message, tt.message) {
					t.Errorf("message %q, want it to contain %q", res.Message, tt.message)
				}
				return
			}
			var ve *runtime.ValidationError
			if !errors.As(res.Err, &ve) || len(ve.Fields) != 1 {
				t.Fatalf("error %T %v, want a *runtime.ValidationError with one field", res.Err, res.Err)
			}
			f := ve.Fields[0]
			if got := f.Path + ":" + f.Code; got != tt.want {
				t.Errorf("field error %s, want %s", got, tt.want)
			}
			// The gateway's wording for the same problem.
			want := text.DuplicateMessage
			if f.Code == text.CodeEncoding {
				want = "a string is not valid Unicode (byte "
			}
			if ve.Tool != deferred.SearchToolName || !strings.HasPrefix(f.Message, want) || !strings.Contains(res.Message, f.Message) {
				t.Errorf("tool %q, field message %q, message %q", ve.Tool, f.Message, res.Message)
			}
		})
	}
}

func TestParseReferences(t *testing.T) {
	for _, s := range []string{
		``, `{}`, `{"tool_references":[]}`, `{"tool_references":["a"],"x":1}`, `{"tool_references":["a"]} trailing`,
		`{"tool_references":[1]}`, `ok\n\n{"tool_references":["a"]}`, `{"tool_references":["a"]}{"tool_references":["b"]}`,
	} {
		if got, ok := deferred.ParseReferences(s); ok {
			t.Errorf("ParseReferences(%q) = %v, want not ok", s, got)
		}
	}
}

func FuzzSearchTool(f *testing.F) {
	s, err := deferred.New(reg, tools)
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{`{"query":"todo"}`, `{"query":"x","limit":3}`, `{}`, `[`, `{"query":"\u0000"}`,
		`[1]`, `{"query":"x"}{"limit":9}`, `{"query":"x","limit":1e400}`, `{"QUERY":"x"}`,
		`{"query":"delete a todo","query":"list"}`, "{\"query\":\"xyz\xff\xfe\"}", `{"query":"\ud800 delete"}`,
		`{"query":"\ud83d\ude42"}`, `{"query":"x","limit":{"a":1,"a":2}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args string) {
		res, err := runtime.Dispatch(context.Background(), s.SearchTool(), runtime.ToolContext{}, json.RawMessage(args))
		if err != nil {
			t.Fatalf("dispatch error: %v", err)
		}
		if !res.Success && runtime.CodeOf(res.Err) != runtime.CodeValidation {
			t.Fatalf("args %q: failed with %v, want a validation error", args, res.Err)
		}
		// A search runs only on arguments encoding/json reads without a
		// loss (no member twice, no invalid Unicode).
		if loss := texttest.Loss([]byte(args)); res.Success && loss != "" {
			t.Fatalf("args %q: searched, but %s", args, loss)
		}
		if res.Success {
			if refs, ok := deferred.ParseReferences(runtime.RenderResult(res)); ok {
				for _, n := range refs {
					if !s.Deferred(n) {
						t.Fatalf("reference to %q, not a deferred tool", n)
					}
				}
			}
		}
	})
}
