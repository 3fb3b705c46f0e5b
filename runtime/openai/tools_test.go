package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// Every surface converts for both APIs, and each parameters schema is the
// tool's, member for member.
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
	type fn struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
		Strict      *bool           `json:"strict"`
	}
	check := func(surface string, want runtime.Tool, got fn) {
		t.Helper()
		if got.Name != want.Name || got.Description != want.Description {
			t.Errorf("%s: %s: name/description %q %q", surface, want.Name, got.Name, got.Description)
		}
		if diff := replaytest.Diff(want.Parameters, got.Parameters); diff != "" {
			t.Errorf("%s: %s: parameters (-want +got):\n%s", surface, want.Name, diff)
		}
	}
	for name, tools := range surfaces {
		chat, err := openai.ChatTools(tools)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		resp, err := openai.ResponseTools(tools)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(chat) != len(tools) || len(resp) != len(tools) {
			t.Fatalf("%s: %d chat, %d responses tools for %d", name, len(chat), len(resp), len(tools))
		}
		for i := range tools {
			var c struct {
				Type     string `json:"type"`
				Function fn     `json:"function"`
			}
			b, _ := json.Marshal(chat[i])
			if err := json.Unmarshal(b, &c); err != nil || c.Type != "function" {
				t.Fatalf("%s: chat tool %s", name, b)
			}
			check(name, tools[i], c.Function)
			var r fn
			b, _ = json.Marshal(resp[i])
			if err := json.Unmarshal(b, &r); err != nil || r.Strict == nil || *r.Strict {
				t.Fatalf("%s: responses tool %s", name, b)
			}
			check(name, tools[i], r)
		}
	}
}

// TestDeferredFamilyToolSearch: a family tool named tool_search is
// deferred in its group's namespace, and only the surface's own search
// tool, renamed tool_search_2, is refused beside the hosted one.
func TestDeferredFamilyToolSearch(t *testing.T) {
	tool := func(name string) runtime.Tool {
		return runtime.Tool{Name: name, Description: "Tool " + name + ".", Parameters: json.RawMessage(`{"type":"object"}`)}
	}
	reg := gateway.Registry{Ops: []gateway.Op{{Path: "catalogue.search", Tool: "tool_search", Group: "catalogue"}}}
	s, err := deferred.New(reg, []runtime.Tool{tool("tool_search"), tool("ping")})
	if err != nil {
		t.Fatal(err)
	}
	params, err := openai.DeferredTools(s)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(params)
	want := `[{"name":"catalogue","description":"Tools of the catalogue group.","type":"namespace","tools":[
		{"name":"tool_search","description":"Tool tool_search.","parameters":{"type":"object","properties":{}},"strict":false,"defer_loading":true,"type":"function"}]},
		{"name":"ping","description":"Tool ping.","parameters":{"type":"object","properties":{}},"strict":false,"defer_loading":true,"type":"function"},
		{"type":"tool_search"}]`
	if diff := replaytest.Diff([]byte(want), got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	m := openai.NewResponses(sdk.NewClient(), responses.ResponseNewParams{Model: "gpt-5.4"}, openai.WithDeferred(s))
	if _, err := m.Params(agent.Request{Tools: s.Tools()}); err != nil {
		t.Errorf("the family's tool_search: %v", err)
	}
	if _, err := m.Params(agent.Request{Tools: append(s.Tools(), s.SearchTool())}); err == nil || !strings.HasPrefix(err.Error(), `openai: tool "tool_search_2" is offered as a function`) {
		t.Errorf("the surface's search tool beside the hosted one: %v", err)
	}
}

// The ontology family defers as one namespace per group.
func TestDeferredNamespaces(t *testing.T) {
	s := ontology.Deferred(ontology.UnimplementedHandlers{})
	params, err := openai.DeferredTools(s)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	total := 0
	for _, p := range params {
		switch {
		case p.OfNamespace != nil:
			got = append(got, "namespace "+p.OfNamespace.Name)
			for _, f := range p.OfNamespace.Tools {
				if !f.OfFunction.DeferLoading.Value {
					t.Errorf("%s not deferred", f.OfFunction.Name)
				}
				total++
			}
		case p.OfToolSearch != nil:
			got = append(got, "tool_search")
		default:
			b, _ := json.Marshal(p)
			got = append(got, string(b))
		}
	}
	want := []string{"tool_search"}
	for _, g := range s.Groups() {
		want = append(want[:len(want)-1], "namespace "+g.Name, "tool_search")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("tools (-want +got):\n%s", diff)
	}
	if total != len(s.Tools()) || total == 0 {
		t.Errorf("%d deferred functions for %d tools", total, len(s.Tools()))
	}
}

func TestToolErrors(t *testing.T) {
	tool := func(name, schema string) runtime.Tool {
		return runtime.Tool{Name: name, Parameters: json.RawMessage(schema)}
	}
	tests := []struct {
		tool runtime.Tool
		want string
	}{
		{tool("a.b", `{"type":"object"}`), `openai: tool "a.b": `},
		{tool("x", `[]`), `openai: tool "x": parameters: not a JSON Schema object`},
		{tool("x", `"object"`), `openai: tool "x": parameters: not a JSON Schema object`},
	}
	for _, tt := range tests {
		if _, err := openai.ChatTool(tt.tool); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("chat %s: err = %v, want %q", tt.tool.Name, err, tt.want)
		}
		if _, err := openai.ResponseTool(tt.tool); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("responses %s: err = %v, want %q", tt.tool.Name, err, tt.want)
		}
	}
	dup := []runtime.Tool{tool("x", `{}`), tool("x", `{}`)}
	if _, err := openai.ChatTools(dup); err == nil || err.Error() != `openai: duplicate tool name "x"` {
		t.Errorf("chat duplicate: %v", err)
	}
	if _, err := openai.ResponseTools(dup); err == nil || err.Error() != `openai: duplicate tool name "x"` {
		t.Errorf("responses duplicate: %v", err)
	}
	// Chat takes at most 128 functions; Responses is not known to limit
	// them.
	many := make([]runtime.Tool, openai.MaxChatTools+1)
	for i := range many {
		many[i] = tool(fmt.Sprintf("t%d", i), `{"type":"object"}`)
	}
	if _, err := openai.ChatTools(many[:openai.MaxChatTools]); err != nil {
		t.Errorf("chat, %d tools: %v", openai.MaxChatTools, err)
	}
	if _, err := openai.ChatTools(many); err == nil || !strings.HasPrefix(err.Error(), "openai: 129 tools offered; Chat Completions accepts at most 128 functions") {
		t.Errorf("chat, 129 tools: %v", err)
	}
	if _, err := openai.ResponseTools(many); err != nil {
		t.Errorf("responses, 129 tools: %v", err)
	}
	// A tool without parameters: Chat omits them, Responses requires an
	// object schema.
	b, _ := json.Marshal(must(openai.ResponseTool(runtime.Tool{Name: "ping"})))
	if diff := replaytest.Diff([]byte(`{"type":"function","name":"ping","strict":false,"parameters":{"type":"object","properties":{}}}`), b); diff != "" {
		t.Errorf("parameterless responses tool (-want +got):\n%s", diff)
	}
	b, _ = json.Marshal(must(openai.ChatTool(runtime.Tool{Name: "ping"})))
	if diff := replaytest.Diff([]byte(`{"type":"function","function":{"name":"ping"}}`), b); diff != "" {
		t.Errorf("parameterless chat tool (-want +got):\n%s", diff)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// A transcript without the API's items is rebuilt from text and calls;
// configured instructions come before the prompt's.
func TestResponsesParamsWithoutNative(t *testing.T) {
	m := openai.NewResponses(sdk.NewClient(), responses.ResponseNewParams{Model: "m", Instructions: param.NewOpt("Answer in French.")})
	p, err := m.Params(agent.Request{Messages: []agent.Message{
		{Role: agent.RoleSystem, Content: "You keep todos."},
		agent.User("hi"),
		{Role: agent.RoleAssistant, Content: "Looking.", ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "list_todos", Args: json.RawMessage(`{"state":"all"}`)}}},
		{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "list_todos", Content: "[]"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(p)
	want := `{"model":"m","instructions":"Answer in French.\n\nYou keep todos.","input":[
		{"role":"user","content":"hi"},
		{"role":"assistant","content":"Looking."},
		{"type":"function_call","call_id":"c1","name":"list_todos","arguments":"{\"state\":\"all\"}"},
		{"type":"function_call_output","call_id":"c1","output":"[]"}]}`
	if diff := replaytest.Diff([]byte(want), got); diff != "" {
		t.Errorf("params (-want +got):\n%s", diff)
	}
}

// Chat refuses a custom tool call: only function tools are offered.
func TestChatCustomToolCall(t *testing.T) {
	_, err := chat(t, "chat_custom_call.json").Next(context.Background(), agent.Request{Messages: []agent.Message{agent.User("hi")}})
	if err == nil || err.Error() != `openai: tool call "call_01" of type "custom"; only function tools are offered` {
		t.Errorf("err = %v", err)
	}
}

// Hostile parameters never panic; what converts keeps every member but
// the refused root keywords rootschema.Flatten rewrites (and, when it
// merges schemas, keywords they clash on; TestParametersRoot).
func FuzzResponseTool(f *testing.F) {
	for _, seed := range []string{`{"type":"object","properties":{"a":{"type":"string"}}}`, `{}`, `[]`, `null`, `{"x":{"y":[1,2]}}`, ``,
		`{"properties":{"a":{}},"oneOf":[{"required":["a"]}],"not":{"required":["a"]}}`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, schema string) {
		p, err := openai.ResponseTool(runtime.Tool{Name: "t", Parameters: json.RawMessage(schema)})
		if err != nil {
			return
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatalf("marshal of a converted tool: %v", err)
		}
		var got struct {
			Parameters map[string]json.RawMessage `json:"parameters"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		var want map[string]json.RawMessage
		if json.Unmarshal([]byte(schema), &want) != nil {
			return
		}
		for k := range want {
			if _, ok := got.Parameters[k]; !ok && !strings.Contains(schema, "Of") && k != "not" && k != "enum" {
				t.Fatalf("member %q lost: %s", k, b)
			}
		}
	})
}

// OpenAI refuses a whole request when one function's parameters root is
// not a JSON Schema of type "object" with properties ("schema must be a
// JSON Schema of 'type: "object"', got 'type: "None"'"; "In context=(),
// object schema missing properties"), as MCP no-argument tools are
// ({"type":"object"}). The root gets the members it lacks; a root the API
// refuses otherwise is an error naming the tool, before any request.
func TestParametersRoot(t *testing.T) {
	for _, tt := range []struct{ schema, want, err string }{
		{`{"type":"object"}`, `{"type":"object","properties":{}}`, ``},
		{`{}`, `{"type":"object","properties":{}}`, ``},
		{` {"additionalProperties":false} `, `{"type":"object","properties":{},"additionalProperties":false}`, ``},
		{`{"properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`, ``},
		{`{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`, ``},
		{`{"type":"array","items":{}}`, ``, `openai: tool "x": parameters: /type: want "object", got "array"`},
		{`{"type":["object","null"]}`, ``, `openai: tool "x": parameters: /type: want "object", got ["object","null"]`},
		{`{"type":"object","properties":null}`, ``, `openai: tool "x": parameters: /properties: want an object, got null`},
		{`{"type":"object","properties":[]}`, ``, `openai: tool "x": parameters: /properties: want an object, got []`},
		{`{"type":"object","properties":{},"required":null}`, ``, `openai: tool "x": parameters: /required: want an array of strings, got null`},
		// OpenAI refuses oneOf, anyOf, allOf, enum and not at the root: one
		// that only says which declared properties are required is left
		// out (the tool's validation applies it); others are loosened
		// (rootschema.Flatten, TestRootLoosened); what cannot be is an
		// error.
		{`{"type":"object","properties":{"email":{"type":"string"},"user_id":{"type":"string"}},"oneOf":[{"required":["email"]},{"required":["user_id"]}]}`,
			`{"type":"object","properties":{"email":{"type":"string"},"user_id":{"type":"string"}},"description":"The arguments must match one of these alternatives, by required properties: [email] | [user_id]."}`, ``},
		{`{"properties":{"a":{},"b":{}},"anyOf":[{"required":["a"],"description":"by a"},{"type":"object","required":["b","a"]}],"not":{"required":["a","b"]}}`,
			`{"type":"object","properties":{"a":{},"b":{}},"description":"The arguments must match one of these alternatives, by required properties: [a] | [b, a]."}`, ``},
		{`{"type":"object","properties":{"a":{}},"oneOf":[{"required":["a"]},{"properties":{"b":{"type":"string"}},"required":["b"]}]}`,
			`{"type":"object","properties":{"a":{},"b":{}},"description":"The arguments must match one of these alternatives, by required properties: [a] | [b]."}`, ``},
		{`{"type":"object","properties":{"a":{}},"allOf":[{"required":["a"]}]}`, `{"type":"object","properties":{"a":{}},"required":["a"]}`, ``},
		{`{"type":"object","properties":{},"enum":[{}]}`, `{"type":"object","properties":{}}`, ``},
		{`{"type":"object","properties":{"a":{}},"oneOf":[]}`, ``,
			`openai: tool "x": parameters: /oneOf: OpenAI refuses oneOf at the root of a function's parameters, and it cannot be loosened into a schema OpenAI accepts: want a non-empty array of schemas, got []`},
		{`{"type":"object","$defs":{"B":{}},"allOf":[{"$ref":"#/$defs/C"}]}`, ``,
			`openai: tool "x": parameters: /allOf/0/$ref: OpenAI refuses allOf at the root of a function's parameters, and it cannot be loosened into a schema OpenAI accepts: the reference "#/$defs/C" names no definition of the root's $defs`},
	} {
		tool := runtime.Tool{Name: "x", Parameters: json.RawMessage(tt.schema)}
		chat, err := openai.ChatTool(tool)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("chat %s: err = %v, want %s", tt.schema, err, tt.err)
			}
			if _, err := openai.ResponseTool(tool); err == nil || err.Error() != tt.err {
				t.Errorf("responses %s: err = %v, want %s", tt.schema, err, tt.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("chat %s: %v", tt.schema, err)
			continue
		}
		b, _ := json.Marshal(chat)
		if diff := replaytest.Diff([]byte(`{"type":"function","function":{"name":"x","parameters":`+tt.want+`}}`), b); diff != "" {
			t.Errorf("chat %s (-want +got):\n%s", tt.schema, diff)
		}
		b, _ = json.Marshal(must(openai.ResponseTool(tool)))
		if diff := replaytest.Diff([]byte(`{"type":"function","name":"x","strict":false,"parameters":`+tt.want+`}`), b); diff != "" {
			t.Errorf("responses %s (-want +got):\n%s", tt.schema, diff)
		}
	}
}

// A conversation carried on after an empty answer (a final answer of no
// words, or a reasoning model cut off at the token limit before it wrote
// any) sends that answer back with content "": OpenAI refuses an assistant
// message with neither content nor tool calls ("Invalid value for
// 'content': expected a string, got null"). One with calls keeps content
// out.
func TestChatEmptyAnswerSentBack(t *testing.T) {
	m := openai.NewChat(sdk.NewClient(), sdk.ChatCompletionNewParams{Model: "m"})
	p, err := m.Params(agent.Request{Messages: []agent.Message{
		agent.User("hi"),
		{Role: agent.RoleAssistant, ToolCalls: []runtime.ToolCall{{ID: "c1", Name: "list_todos", Args: json.RawMessage(`{}`)}}},
		{Role: agent.RoleTool, ToolCallID: "c1", ToolName: "list_todos", Content: "[]"},
		{Role: agent.RoleAssistant},
		agent.User("and now?"),
	}})
	if err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(p.Messages)
	want := `[{"role":"user","content":"hi"},
		{"role":"assistant","tool_calls":[{"type":"function","id":"c1","function":{"name":"list_todos","arguments":"{}"}}]},
		{"role":"tool","tool_call_id":"c1","content":"[]"},
		{"role":"assistant","content":""},
		{"role":"user","content":"and now?"}]`
	if diff := replaytest.Diff([]byte(want), got); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}
