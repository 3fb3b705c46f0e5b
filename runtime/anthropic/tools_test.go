package anthropic_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// Every surface converts, and each input_schema is the tool's parameters
// schema member for member.
func TestSurfacesConvert(t *testing.T) {
	h := &quickstart.Store{}
	p, err := prompt.New("agents/todo", "assistant", "", quickstart.Sections(h)...)
	if err != nil {
		t.Fatal(err)
	}
	open, err := p.Render(prompt.Overrides{"todo": prompt.VisibilityFull})
	if err != nil {
		t.Fatal(err)
	}
	surfaces := map[string][]runtime.Tool{
		"flat":     quickstart.Tools(h),
		"gateway":  quickstart.Gateway(h),
		"facades":  quickstart.Facades(h),
		"sections": open.Tools(),
		"deferred": quickstart.Deferred(h).Tools(),
	}
	for name, tools := range surfaces {
		params, err := anthropic.Tools(tools)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(params) != len(tools) {
			t.Fatalf("%s: %d params for %d tools", name, len(params), len(tools))
		}
		for i, tp := range params {
			b, err := json.Marshal(tp)
			if err != nil {
				t.Fatal(err)
			}
			var got struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"input_schema"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatal(err)
			}
			want := tools[i]
			if got.Name != want.Name || got.Description != want.Description {
				t.Errorf("%s: %s: name/description %q %q", name, want.Name, got.Name, got.Description)
			}
			if diff := replaytest.Diff(want.Parameters, got.InputSchema); diff != "" {
				t.Errorf("%s: %s: input_schema (-want +got):\n%s", name, want.Name, diff)
			}
		}
	}
}

func TestDeferredTools(t *testing.T) {
	s := quickstart.Deferred(&quickstart.Store{})
	for _, tt := range []struct {
		search anthropic.Search
		last   string
	}{
		{anthropic.BM25, `{"type":"tool_search_tool_bm25_20251119","name":"tool_search_tool_bm25"}`},
		{anthropic.Regex, `{"type":"tool_search_tool_regex_20251119","name":"tool_search_tool_regex"}`},
		{anthropic.ClientSearch, ""},
	} {
		params, err := anthropic.DeferredTools(s, tt.search)
		if err != nil {
			t.Fatal(err)
		}
		var deferred []string
		for _, p := range params {
			if p.OfTool != nil && p.OfTool.DeferLoading.Value {
				deferred = append(deferred, p.OfTool.Name)
			}
		}
		if diff := cmp.Diff([]string{"list_todos", "get_todo", "create_todo", "update_todo", "delete_todo"}, deferred); diff != "" {
			t.Errorf("deferred tools (-want +got):\n%s", diff)
		}
		last, _ := json.Marshal(params[len(params)-1])
		if tt.last != "" {
			if diff := replaytest.Diff([]byte(tt.last), last); diff != "" {
				t.Errorf("search tool (-want +got):\n%s", diff)
			}
		} else if p := params[len(params)-1].OfTool; p == nil || p.Name != "tool_search" || p.DeferLoading.Valid() {
			t.Errorf("client search tool %s", last)
		}
	}
}

// Hostile definitions are errors naming the tool and the problem.
func TestToolErrors(t *testing.T) {
	tool := func(name, schema string) runtime.Tool {
		return runtime.Tool{Name: name, Parameters: json.RawMessage(schema)}
	}
	tests := []struct {
		tool runtime.Tool
		want string
	}{
		{tool("a.b", `{"type":"object"}`), `anthropic: tool "a.b": `},
		{tool("", `{"type":"object"}`), `anthropic: tool "": `},
		{tool("x", `[]`), `anthropic: tool "x": parameters: not a JSON Schema object`},
		{tool("x", `null`), `anthropic: tool "x": parameters: not a JSON Schema object`},
		{tool("x", `{"type":"array"}`), `anthropic: tool "x": parameters: /type: want "object", got "array"`},
		{tool("x", `{"type":["object","null"]}`), `anthropic: tool "x": parameters: /type: want "object", got ["object","null"]`},
		{tool("x", `{"type":"object","required":"id"}`), `anthropic: tool "x": parameters: /required: want an array of strings, got "id"`},
	}
	for _, tt := range tests {
		_, err := anthropic.Tool(tt.tool)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s %s: err = %v, want %q", tt.tool.Name, tt.tool.Parameters, err, tt.want)
		}
	}
	if _, err := anthropic.Tools([]runtime.Tool{tool("x", `{}`), tool("x", `{}`)}); err == nil || err.Error() != `anthropic: duplicate tool "x"` {
		t.Errorf("duplicate: %v", err)
	}
	s := quickstart.Deferred(&quickstart.Store{})
	m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{}, anthropic.WithDeferred(s, anthropic.ClientSearch))
	if _, err := m.Params(agent.Request{Tools: s.Tools()}); err == nil || !strings.Contains(err.Error(), `need the search tool "tool_search"`) {
		t.Errorf("client search without the search tool: %v", err)
	}
}

// toolgen's tool_search offered beside Anthropic's search tool is refused:
// two search tools would leave the model to pick one.
func TestServerSearchRefusesClientSearch(t *testing.T) {
	s := quickstart.Deferred(&quickstart.Store{})
	for _, tt := range []struct {
		search anthropic.Search
		server string
	}{
		{anthropic.BM25, "tool_search_tool_bm25_20251119"},
		{anthropic.Regex, "tool_search_tool_regex_20251119"},
	} {
		m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1}, anthropic.WithDeferred(s, tt.search))
		_, err := m.Params(agent.Request{Messages: []agent.Message{agent.User("hi")}, Tools: append(s.Tools(), s.SearchTool())})
		want := `anthropic: tool "tool_search" is offered as a custom tool, but deferred tools are searched with the server tool ` + tt.server +
			`, which WithDeferred adds; offer the surface's Tools() without its SearchTool(), or use ClientSearch`
		if err == nil || err.Error() != want {
			t.Errorf("%s: err = %v\nwant %s", tt.server, err, want)
		}
		if _, err := m.Params(agent.Request{Messages: []agent.Message{agent.User("hi")}, Tools: s.Tools()}); err != nil {
			t.Errorf("%s without tool_search: %v", tt.server, err)
		}
	}
	if _, err := anthropic.Tools([]runtime.Tool{s.SearchTool()}); err != nil {
		t.Errorf("tool_search without a deferred surface: %v", err)
	}
}

// TestRenamedSearchTool: a family tool named tool_search is deferred as
// any other, and the surface's search tool, tool_search_2, is the one
// checked for and answered with tool_reference blocks; the family tool's
// answer stays text, whatever it says.
func TestRenamedSearchTool(t *testing.T) {
	tool := func(name string) runtime.Tool {
		return runtime.Tool{Name: name, Description: "Tool " + name + ".", Parameters: json.RawMessage(`{"type":"object"}`)}
	}
	reg := gateway.Registry{Ops: []gateway.Op{{Path: "catalogue.search", Tool: "tool_search", Group: "catalogue"}, {Path: "misc.ping", Tool: "ping", Group: "misc"}}}
	s, err := deferred.New(reg, []runtime.Tool{tool("tool_search"), tool("ping")})
	if err != nil {
		t.Fatal(err)
	}
	params, err := anthropic.DeferredTools(s, anthropic.ClientSearch)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range params {
		got = append(got, fmt.Sprintf("%s deferred=%v", p.OfTool.Name, p.OfTool.DeferLoading.Value))
	}
	if diff := cmp.Diff([]string{"tool_search deferred=true", "ping deferred=true", "tool_search_2 deferred=false"}, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1}, anthropic.WithDeferred(s, anthropic.ClientSearch))
	if _, err := m.Params(agent.Request{Tools: s.Tools()}); err == nil || !strings.Contains(err.Error(), `need the search tool "tool_search_2"`) {
		t.Errorf("client search without the search tool: %v", err)
	}
	p, err := m.Params(agent.Request{
		Messages: []agent.Message{
			agent.User("hi"),
			{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{
				{ID: "c1", Name: "tool_search_2", Args: json.RawMessage(`{"query":"x"}`)},
				{ID: "c2", Name: "tool_search", Args: json.RawMessage(`{}`)},
			}},
			{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "tool_search_2", Content: `{"tool_references":["tool_search"]}`},
			{Role: agent.RoleTool, ToolCallID: "c2", ToolName: "tool_search", Content: `{"tool_references":["ping"]}`},
		},
		Tools: append(s.Tools(), s.SearchTool()),
	})
	if err != nil {
		t.Fatal(err)
	}
	msgs, _ := json.Marshal(p.Messages[2:])
	want := `[{"role":"user","content":[
		{"tool_use_id":"c1","type":"tool_result","content":[{"tool_name":"tool_search","type":"tool_reference"}]},
		{"tool_use_id":"c2","type":"tool_result","content":[{"text":"{\"tool_references\":[\"ping\"]}","type":"text"}]}]}]`
	if diff := replaytest.Diff([]byte(want), msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
	m = anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1}, anthropic.WithDeferred(s, anthropic.BM25))
	if _, err := m.Params(agent.Request{Messages: []agent.Message{agent.User("hi")}, Tools: s.Tools()}); err != nil {
		t.Errorf("server search beside the family's tool_search: %v", err)
	}
	_, err = m.Params(agent.Request{Messages: []agent.Message{agent.User("hi")}, Tools: append(s.Tools(), s.SearchTool())})
	if err == nil || !strings.HasPrefix(err.Error(), `anthropic: tool "tool_search_2" is offered as a custom tool`) {
		t.Errorf("server search beside the surface's search tool: %v", err)
	}
}

// A tool message answering a call of a tool that was not offered pairs
// with the call by tool_use_id: the name the loop cut short (ToolName) is
// not sent, and the call goes back as the model made it.
func TestToolResultPairsByID(t *testing.T) {
	s := quickstart.Deferred(&quickstart.Store{})
	huge := strings.Repeat("x", 1000)
	for _, search := range []anthropic.Search{anthropic.ClientSearch, anthropic.BM25} {
		tools := s.Tools()
		if search == anthropic.ClientSearch {
			tools = append(tools, s.SearchTool())
		}
		m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1}, anthropic.WithDeferred(s, search))
		p, err := m.Params(agent.Request{Messages: []agent.Message{
			agent.User("hi"),
			{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: huge, Args: json.RawMessage(`{}`)}}},
			{Role: agent.RoleTool, ToolCallID: "c1", ToolName: strings.Repeat("x", 63) + "…", Content: "not offered", IsError: true},
		}, Tools: tools})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(p.Messages[1:])
		want := `[{"role":"assistant","content":[{"id":"c1","input":{},"name":"` + huge + `","type":"tool_use"}]},
			{"role":"user","content":[{"tool_use_id":"c1","is_error":true,"type":"tool_result","content":[{"text":"not offered","type":"text"}]}]}]`
		if diff := replaytest.Diff([]byte(want), got); diff != "" {
			t.Errorf("search %d: messages (-want +got):\n%s", search, diff)
		}
	}
}

// A transcript without the API's blocks (another model's, or built by
// hand) is rebuilt from text and calls; consecutive tool messages share one
// user message; a search result naming a tool outside the surface stays
// text.
func TestParamsWithoutNative(t *testing.T) {
	s := quickstart.Deferred(&quickstart.Store{})
	m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1}, anthropic.WithDeferred(s, anthropic.ClientSearch))
	p, err := m.Params(agent.Request{
		Messages: []agent.Message{
			{Role: agent.RoleSystem, Content: "Be brief."},
			agent.User("hi"),
			{Role: agent.RoleAssistant, Content: "Looking.", ToolCalls: []runtime.ToolCall{
				{ID: "c1", Name: "tool_search", Args: json.RawMessage(`{"query":"x"}`)},
				{ID: "c2", Name: "tool_search"},
			}},
			{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "tool_search", Content: `{"tool_references":["list_todos"]}`},
			{Role: agent.RoleTool, ToolCallID: "c2", ToolName: "tool_search", Content: `{"tool_references":["rm_rf"]}`},
		},
		Tools: append(s.Tools(), s.SearchTool()),
	})
	if err != nil {
		t.Fatal(err)
	}
	p.Tools = nil
	got, _ := json.Marshal(p)
	want := `{"max_tokens":1,"model":"m","system":[{"text":"Be brief.","type":"text"}],"messages":[
		{"role":"user","content":[{"text":"hi","type":"text"}]},
		{"role":"assistant","content":[{"text":"Looking.","type":"text"},
			{"id":"c1","input":{"query":"x"},"name":"tool_search","type":"tool_use"},
			{"id":"c2","input":{},"name":"tool_search","type":"tool_use"}]},
		{"role":"user","content":[
			{"tool_use_id":"c1","type":"tool_result","content":[{"tool_name":"list_todos","type":"tool_reference"}]},
			{"tool_use_id":"c2","type":"tool_result","content":[{"text":"{\"tool_references\":[\"rm_rf\"]}","type":"text"}]}]}]}`
	if diff := replaytest.Diff([]byte(want), got); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
	if _, err := m.Params(agent.Request{Messages: []agent.Message{{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c", Name: "x", Args: json.RawMessage(`{`)}}}}}); err == nil {
		t.Error("arguments that are not JSON were sent")
	}
	if _, err := m.Params(agent.Request{Messages: []agent.Message{{Role: "robot"}}}); err == nil {
		t.Error("unknown role accepted")
	}
}

// A failed call's tool_result is marked is_error (the model was told a
// failure was an ordinary result).
func TestToolResultIsError(t *testing.T) {
	m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1})
	p, err := m.Params(agent.Request{Messages: []agent.Message{
		agent.User("hi"),
		{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "a"}, {ID: "c2", Name: "b"}}},
		{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "a", Content: "a ok"},
		{Role: agent.RoleTool, ToolCallID: "c2", ToolName: "b", Content: "b failed: NOT_FOUND", IsError: true},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(p.Messages[2])
	want := `{"role":"user","content":[
		{"tool_use_id":"c1","type":"tool_result","content":[{"text":"a ok","type":"text"}]},
		{"tool_use_id":"c2","is_error":true,"type":"tool_result","content":[{"text":"b failed: NOT_FOUND","type":"text"}]}]}`
	if diff := replaytest.Diff([]byte(want), got); diff != "" {
		t.Errorf("tool results (-want +got):\n%s", diff)
	}
}

// A pause_turn stop is continued in the same Next; the blocks of both
// responses make up the turn.
func TestPauseTurn(t *testing.T) {
	m := model(t, "pause_turn.json")
	resp, err := m.Next(context.Background(), agent.Request{Messages: []agent.Message{agent.User("Search the web.")}})
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Searching…Found it." || len(resp.Native.([]sdk.ContentBlockParamUnion)) != 2 {
		t.Errorf("response %+v", resp)
	}
}

// Hostile parameters never panic; what converts keeps every member but a
// root union left out (TestRootUnion).
func FuzzTool(f *testing.F) {
	for _, seed := range []string{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{}`, `[]`, `{"type":"array"}`,
		`{"required":[1]}`, `{"properties":null,"x-extra":{"$ref":"#"}}`, `{"type":"object"} `, ``, `{"a":1,"a":2}`,
		`{"properties":{"a":{}},"anyOf":[{"required":["a"]}],"x":1}`, `{"one\u004ff":[{"required":["a"]}],"properties":{"a":{}}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		tool := runtime.Tool{Name: "t", Parameters: json.RawMessage(schema)}
		p, err := anthropic.Tool(tool)
		if err != nil {
			return
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("marshal of a converted tool: %v", err)
		}
		var got struct {
			InputSchema map[string]json.RawMessage `json:"input_schema"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if json.Unmarshal([]byte(schema), &want) != nil {
			return // empty parameters
		}
		for k := range want {
			if _, ok := got.InputSchema[k]; !ok && k != "oneOf" && k != "anyOf" {
				t.Fatalf("member %q lost: %s", k, b)
			}
		}
	})
}

// input_schema is sent even when the schema has no member but its type, or
// the tool has no parameters at all.
func TestMinimalInputSchema(t *testing.T) {
	for _, params := range []string{`{"type":"object"}`, `{}`, ``} {
		p, err := anthropic.Tool(runtime.Tool{Name: "ping", Parameters: json.RawMessage(params)})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(p)
		if diff := replaytest.Diff([]byte(`{"name":"ping","input_schema":{"type":"object"}}`), b); diff != "" {
			t.Errorf("%q (-want +got):\n%s", params, diff)
		}
	}
}

// Member names the SDK's extra fields would read as paths ("a.b", "") go
// through verbatim; a schema without type gets one.
func TestInputSchemaVerbatim(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"type":"object","a.b":1,"":[],"x*":{"y":"z"}}`, `{"type":"object","a.b":1,"":[],"x*":{"y":"z"}}`},
		{`{"properties":{"q":{"type":"string"}}}`, `{"type":"object","properties":{"q":{"type":"string"}}}`},
		{` { } `, `{"type":"object"}`},
	} {
		p, err := anthropic.Tool(runtime.Tool{Name: "t", Parameters: json.RawMessage(tt.in)})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var got struct {
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if diff := replaytest.Diff([]byte(tt.want), got.InputSchema); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.in, diff)
		}
	}
}

// A call rebuilt from a transcript without the API's blocks (another
// provider's: Chat arguments are a string, "null" among them) goes back
// as a tool_use block whose input is a JSON object, which the API
// requires: no arguments and null are {}; any other value is an error
// before the request.
func TestRebuiltCallInput(t *testing.T) {
	m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1})
	for _, tt := range []struct{ args, want, err string }{
		{``, `{}`, ``},
		{` null `, `{}`, ``},
		{`{"a":1}`, `{"a":1}`, ``},
		{`[1]`, ``, `anthropic: message 1: tool call "c1": arguments are not a JSON object: [1]`},
		{`"x"`, ``, `anthropic: message 1: tool call "c1": arguments are not a JSON object: "x"`},
		{`5`, ``, `anthropic: message 1: tool call "c1": arguments are not a JSON object: 5`},
		{`{`, ``, `anthropic: message 1: tool call "c1": arguments are not a JSON object: {`},
	} {
		p, err := m.Params(agent.Request{Messages: []agent.Message{
			agent.User("hi"),
			{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "a", Args: json.RawMessage(tt.args)}}},
			{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "a", Content: "ok"},
		}})
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("args %s: err = %v\nwant %s", tt.args, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("args %s: %v", tt.args, err)
			continue
		}
		got, _ := json.Marshal(p.Messages[1])
		want := `{"role":"assistant","content":[{"id":"c1","input":` + tt.want + `,"name":"a","type":"tool_use"}]}`
		if diff := replaytest.Diff([]byte(want), got); diff != "" {
			t.Errorf("args %s (-want +got):\n%s", tt.args, diff)
		}
	}
}

// A conversation carried on after an empty answer (end_turn with no
// content block, as Claude sometimes ends a turn after tool results) does
// not send that answer back: the API refuses a message without content
// but the last ("all messages must have non-empty content except for the
// optional final assistant message"), and takes the user turns on either
// side as one.
func TestEmptyAnswerLeftOut(t *testing.T) {
	m := anthropic.New(sdk.NewClient(), sdk.MessageNewParams{Model: "m", MaxTokens: 1})
	for _, native := range []any{nil, []sdk.ContentBlockParamUnion(nil), []sdk.ContentBlockParamUnion{}} {
		p, err := m.Params(agent.Request{Messages: []agent.Message{
			agent.User("hi"),
			{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "a", Args: json.RawMessage(`{}`)}}},
			{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "a", Content: "ok"},
			{Role: agent.RoleAssistant, Native: native},
			agent.User("and now?"),
		}})
		if err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(p.Messages)
		want := `[{"role":"user","content":[{"text":"hi","type":"text"}]},
			{"role":"assistant","content":[{"id":"c1","input":{},"name":"a","type":"tool_use"}]},
			{"role":"user","content":[{"tool_use_id":"c1","type":"tool_result","content":[{"text":"ok","type":"text"}]}]},
			{"role":"user","content":[{"text":"and now?","type":"text"}]}]`
		if diff := replaytest.Diff([]byte(want), got); diff != "" {
			t.Errorf("native %#v: messages (-want +got):\n%s", native, diff)
		}
	}
}

// The API refuses a whole request over one input_schema with oneOf, anyOf
// or allOf at its root ("input_schema does not support oneOf, allOf, or
// anyOf at the top level"). A root union that only says which declared
// properties are required ("email or user_id", golden/unions' lookup) is
// left out, the other members sent in order (the tool's validation
// applies it); others are loosened (rootschema.Flatten): allOf merged
// into the root, a union sent as the union of its properties; what
// cannot be is an error naming the tool. Arguments valid for the tool's
// schema stay valid for what is sent.
func TestRootUnion(t *testing.T) {
	for _, tt := range []struct {
		in, want, err string
		args          []string // valid for in
	}{
		{`{"type":"object","properties":{"email":{"type":"string"},"user_id":{"type":"string"}},"oneOf":[{"required":["email"]},{"required":["user_id"]}],"additionalProperties":false}`,
			`{"type":"object","properties":{"email":{"type":"string"},"user_id":{"type":"string"}},"additionalProperties":false,"description":"The arguments must match one of these alternatives, by required properties: [email] | [user_id]."}`, ``, []string{`{"email":"e"}`}},
		{`{"anyOf":[{"required":["a"],"title":"by a"},{"type":"object","required":["b","a"]}], "properties":{"a":{}, "b":{}}}`,
			`{"type":"object","properties":{"a":{},"b":{}},"description":"The arguments must match one of these alternatives, by required properties: [a] | [b, a]."}`, ``, []string{`{"a":1}`}},
		{`{"type":"object","properties":{"a":{}},"oneOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}`,
			`{"type":"object","properties":{"a":{},"b":{}},"description":"The arguments must match one of these alternatives, by required properties: [a] | [b]."}`, ``,
			[]string{`{"a":1}`, `{"b":"x"}`, `{"a":1,"b":2}`}},
		{`{"type":"object","properties":{"a":{}},"anyOf":[{"type":["object"],"required":["a"]}]}`,
			`{"type":"object","properties":{"a":{}},"required":["a"]}`, ``, []string{`{"a":1}`}},
		{`{"type":"object","description":"Find.","allOf":[{"properties":{"q":{"type":"string","minLength":1}},"required":["q"],"additionalProperties":false},{"properties":{"q":{"maxLength":9},"n":{"type":"integer"}},"not":{"required":["n","m"]}}]}`,
			`{"type":"object","description":"Find.","properties":{"q":{"allOf":[{"type":"string","minLength":1},{"maxLength":9}]},"n":{"type":"integer"}},"required":["q"],"additionalProperties":false,"not":{"required":["n","m"]}}`, ``,
			[]string{`{"q":"x"}`}},
		{`{"type":"object","properties":{"a":{}},"anyOf":{}}`, ``,
			`anthropic: tool "t": parameters: /anyOf: the API refuses anyOf at the root of input_schema, and it cannot be loosened into a schema the API accepts: want a non-empty array of schemas, got {}`, nil},
		{`{"type":"object","$defs":{"B":{}},"allOf":[{"$ref":"#/$defs/C"}]}`, ``,
			`anthropic: tool "t": parameters: /allOf/0/$ref: the API refuses allOf at the root of input_schema, and it cannot be loosened into a schema the API accepts: the reference "#/$defs/C" names no definition of the root's $defs`, nil},
	} {
		p, err := anthropic.Tool(runtime.Tool{Name: "t", Parameters: json.RawMessage(tt.in)})
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%s: err = %v\nwant %s", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.in, err)
			continue
		}
		b, _ := json.Marshal(p)
		var got struct {
			InputSchema json.RawMessage `json:"input_schema"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if string(got.InputSchema) != tt.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tt.in, got.InputSchema, tt.want)
		}
		replaytest.AcceptsValid(t, tt.in, string(got.InputSchema), tt.args)
	}
}
