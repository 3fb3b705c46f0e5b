package mcpserver_test

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/golden/github/githubtest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// connect serves server to an in-memory client and returns the client
// session; both ends close when the test ends.
func connect(t *testing.T, server *mcp.Server, copts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, copts).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}

// serve builds a server for tools and connects a client to it.
func serve(t *testing.T, tools []runtime.Tool, opts ...mcpserver.Option) *mcp.ClientSession {
	t.Helper()
	server, err := mcpserver.NewServer("test", "v0", tools, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return connect(t, server, nil)
}

// call runs one tools/call and returns the text of its single content and
// IsError; a protocol error fails the test.
func call(t *testing.T, cs *mcp.ClientSession, name, args string) (string, bool) {
	t.Helper()
	p := &mcp.CallToolParams{Name: name}
	if args != "" {
		p.Arguments = json.RawMessage(args)
	}
	res, err := cs.CallTool(context.Background(), p)
	if err != nil {
		t.Fatalf("%s(%s): %v", name, args, err)
	}
	if len(res.Content) != 1 {
		t.Fatalf("%s(%s): %d contents, want 1", name, args, len(res.Content))
	}
	tc, ok := res.Content[0].(*mcp.TextContent)
	if !ok {
		t.Fatalf("%s(%s): content %T, want text", name, args, res.Content[0])
	}
	return tc.Text, res.IsError
}

// mustOK is call that fails the test on an error result.
func mustOK(t *testing.T, cs *mcp.ClientSession, name, args string) string {
	t.Helper()
	text, isErr := call(t, cs, name, args)
	if isErr {
		t.Fatalf("%s(%s) failed: %s", name, args, text)
	}
	return text
}

// mustFail is call that fails the test unless the result is an error
// holding every want.
func mustFail(t *testing.T, cs *mcp.ClientSession, name, args string, want ...string) string {
	t.Helper()
	text, isErr := call(t, cs, name, args)
	if !isErr {
		t.Fatalf("%s(%s) succeeded, want an error: %s", name, args, text)
	}
	for _, w := range want {
		if !strings.Contains(text, w) {
			t.Errorf("%s(%s) error lacks %q:\n%s", name, args, w, text)
		}
	}
	return text
}

func listTools(t *testing.T, cs *mcp.ClientSession) map[string]*mcp.Tool {
	t.Helper()
	out := map[string]*mcp.Tool{}
	for tool, err := range cs.Tools(context.Background(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		out[tool.Name] = tool
	}
	return out
}

func jsonEqual(t *testing.T, a, b any) bool {
	t.Helper()
	var va, vb any
	for _, p := range []struct {
		in  any
		out *any
	}{{a, &va}, {b, &vb}} {
		raw, err := json.Marshal(p.in)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(raw, p.out); err != nil {
			t.Fatal(err)
		}
	}
	return reflect.DeepEqual(va, vb)
}

// TestListToolsUnchanged: every surface lists its tools with their names,
// descriptions and parameters schemas as given.
func TestListToolsUnchanged(t *testing.T) {
	store := &quickstart.Store{}
	for name, tools := range map[string][]runtime.Tool{
		"flat":    quickstart.Tools(store),
		"gateway": quickstart.Gateway(store),
		"facades": quickstart.Facades(store),
	} {
		t.Run(name, func(t *testing.T) {
			got := listTools(t, serve(t, tools))
			if len(got) != len(tools) {
				t.Errorf("listed %d tools, want %d", len(got), len(tools))
			}
			for _, want := range tools {
				g, ok := got[want.Name]
				if !ok {
					t.Errorf("%s not listed", want.Name)
					continue
				}
				if g.Description != want.Description {
					t.Errorf("%s description %q, want %q", want.Name, g.Description, want.Description)
				}
				if !jsonEqual(t, g.InputSchema, want.Parameters) {
					t.Errorf("%s input schema differs:\n got  %v\n want %s", want.Name, g.InputSchema, want.Parameters)
				}
			}
		})
	}
}

// TestFlatCalls: valid arguments run the handler and answer with the
// rendered result, exactly as runtime.RenderResult renders it.
func TestFlatCalls(t *testing.T) {
	cs := serve(t, quickstart.Tools(&quickstart.Store{}))

	got := mustOK(t, cs, "create_todo", `{"title":"Renew passport","due":"2026-12-01","tags":["admin"]}`)
	want := `created td_1` + "\n\n" + `{"id":"td_1","title":"Renew passport","due":"2026-12-01","tags":["admin"],"done":false}`
	if got != want {
		t.Errorf("create_todo answered\n %s\nwant\n %s", got, want)
	}
	// Absent arguments are the empty object: list_todos has defaults.
	if got := mustOK(t, cs, "list_todos", ""); !strings.HasPrefix(got, "1 open item\n\n") || !strings.Contains(got, `"td_1"`) {
		t.Errorf("list_todos answered %s", got)
	}
	// A handler error is an error result carrying its message.
	mustFail(t, cs, "get_todo", `{"todo_id":"td_9"}`, "no todo item td_9")
}

// TestInvalidArguments: generated validation failures come back as error
// results naming every violation, and nothing runs.
func TestInvalidArguments(t *testing.T) {
	cs := serve(t, quickstart.Tools(&quickstart.Store{}))
	text := mustFail(t, cs, "create_todo", `{"title":"","priority":7,"colour":"red"}`, "/title", "/priority", "colour")
	t.Logf("create_todo validation error:\n%s", text)
	mustFail(t, cs, "get_todo", "", "todo_id")
	mustFail(t, cs, "get_todo", `[1]`)
	if got := mustOK(t, cs, "list_todos", `{}`); !strings.HasPrefix(got, "0 open items") {
		t.Errorf("an invalid create_todo stored something: %s", got)
	}
}

// TestHandlerPanic: a panicking handler is an error result and the server
// keeps serving.
func TestHandlerPanic(t *testing.T) {
	boom := runtime.Tool{
		Name:        "boom",
		Description: "Panics.",
		Parameters:  json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			panic("kaboom")
		},
	}
	cs := serve(t, append(quickstart.Tools(&quickstart.Store{}), boom))
	mustFail(t, cs, "boom", `{}`, "kaboom")
	mustFail(t, cs, "boom", `{}`, "kaboom")
	mustOK(t, cs, "create_todo", `{"title":"still here"}`)
}

// TestGateway: tool_exec, tool_help and tool_search work over MCP and answer
// with the gateway's envelopes.
func TestGateway(t *testing.T) {
	cs := serve(t, quickstart.Gateway(&quickstart.Store{}, gateway.WithWrites(true)))

	got := mustOK(t, cs, gateway.ExecTool, `{"op":"todo.create","args":{"title":"Renew passport"},"dry_run":false}`)
	var env struct {
		Op     string          `json:"op"`
		OK     bool            `json:"ok"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal([]byte(got[strings.IndexByte(got, '{'):]), &env); err != nil {
		t.Fatalf("tool_exec answer is not an envelope: %v\n%s", err, got)
	}
	if env.Op != "todo.create" || !env.OK || !strings.Contains(string(env.Result), `"td_1"`) {
		t.Errorf("tool_exec answered %s", got)
	}
	if got := mustOK(t, cs, gateway.ExecTool, `{"op":"todo.list","args":{}}`); !strings.Contains(got, `"Renew passport"`) {
		t.Errorf("todo.list answered %s", got)
	}
	if got, _ := call(t, cs, gateway.HelpTool, `{"path":"todo.get"}`); !strings.Contains(got, "todo_id") {
		t.Errorf("tool_help answered %s", got)
	}
	if got, _ := call(t, cs, gateway.SearchTool, `{"query":"delete an item"}`); !strings.Contains(got, "todo.delete") {
		t.Errorf("tool_search answered %s", got)
	}
	// An invalid op argument is an answer the model can act on.
	text, _ := call(t, cs, gateway.ExecTool, `{"op":"todo.get","args":{}}`)
	if !strings.Contains(text, "VALIDATION_ERROR") || !strings.Contains(text, "todo_id") {
		t.Errorf("tool_exec without todo_id answered %s", text)
	}
}

// TestFacadeShortcut: with FoldedFacades only the facade is registered;
// calling it lists its tools, and its shortcut form runs them. The tool
// list never changes.
func TestFacadeShortcut(t *testing.T) {
	server, err := mcpserver.NewServer("test", "v0", quickstart.Facades(&quickstart.Store{}), mcpserver.FoldedFacades())
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 8)
	cs := connect(t, server, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}})

	got := mustOK(t, cs, "todo", `{}`)
	for _, w := range []string{"todo unfolded into 5 tools", "create_todo title:string", `{"tool": "<name>", "args": {...}}`} {
		if !strings.Contains(got, w) {
			t.Errorf("facade answer lacks %q:\n%s", w, got)
		}
	}
	if got := mustOK(t, cs, "todo", `{"tool":"create_todo","args":{"title":"Renew passport"}}`); !strings.HasPrefix(got, "created td_1") {
		t.Errorf("shortcut create_todo answered %s", got)
	}
	if got := mustOK(t, cs, "todo", `{"tool":"get_todo","args":{"todo_id":"td_1"}}`); !strings.Contains(got, "Renew passport") {
		t.Errorf("shortcut get_todo answered %s", got)
	}
	mustFail(t, cs, "todo", `{"tool":"create_todo","args":{}}`, "title")

	if names := slices.Sorted(maps.Keys(listTools(t, cs))); !slices.Equal(names, []string{"todo"}) {
		t.Errorf("tools after unfolding: %v, want only the facade", names)
	}
	select {
	case <-changed:
		t.Error("tools/list_changed sent with FoldedFacades")
	case <-time.After(50 * time.Millisecond):
	}
}

// TestUnfoldFacades: by default a facade call adds its inner tools,
// clients hear tools/list_changed, and the facade stays (its shortcut
// keeps working).
func TestUnfoldFacades(t *testing.T) {
	server, err := mcpserver.NewServer("test", "v0", quickstart.Facades(&quickstart.Store{}))
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 16)
	cs := connect(t, server, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	if names := slices.Sorted(maps.Keys(listTools(t, cs))); !slices.Equal(names, []string{"todo"}) {
		t.Fatalf("tools before unfolding: %v", names)
	}

	// A shortcut call does not unfold.
	mustOK(t, cs, "todo", `{"tool":"list_todos","args":{}}`)
	if n := len(listTools(t, cs)); n != 1 {
		t.Errorf("%d tools after a shortcut call, want 1", n)
	}

	mustOK(t, cs, "todo", `{"category":"todo"}`)
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list_changed after the facade unfolded")
	}
	want := []string{"create_todo", "delete_todo", "get_todo", "list_todos", "todo", "update_todo"}
	if names := slices.Sorted(maps.Keys(listTools(t, cs))); !slices.Equal(names, want) {
		t.Errorf("tools after unfolding: %v, want %v", names, want)
	}
	if got := mustOK(t, cs, "create_todo", `{"title":"Renew passport"}`); !strings.HasPrefix(got, "created td_1") {
		t.Errorf("unfolded create_todo answered %s", got)
	}
	if got := mustOK(t, cs, "todo", `{"tool":"get_todo","args":{"todo_id":"td_1"}}`); !strings.Contains(got, "Renew passport") {
		t.Errorf("shortcut after unfolding answered %s", got)
	}
	// Unfolding again adds nothing and announces nothing.
	for len(changed) > 0 {
		<-changed
	}
	mustOK(t, cs, "todo", `{}`)
	select {
	case <-changed:
		t.Error("tools/list_changed on a second unfolding")
	case <-time.After(50 * time.Millisecond):
	}
}

// TestSectionsPropagate: open_sections over MCP cannot re-render the prompt;
// its propagating error becomes an error result explaining that.
func TestSectionsPropagate(t *testing.T) {
	p, err := prompt.New("test", "todos", "", quickstart.Sections(&quickstart.Store{})...)
	if err != nil {
		t.Fatal(err)
	}
	r, err := p.Render(nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := r.Tools()
	if len(tools) != 1 || tools[0].Name != prompt.OpenSectionsName {
		t.Fatalf("summarized prompt offers %v", tools)
	}
	bus := &runtime.EventBus{}
	var events []runtime.ToolInvoked
	bus.Subscribe(func(e runtime.Event) {
		if ti, ok := e.(runtime.ToolInvoked); ok {
			events = append(events, ti)
		}
	})
	cs := serve(t, tools, mcpserver.WithBus(bus))
	mustFail(t, cs, prompt.OpenSectionsName, `{"section_keys":["todo"],"reason":"need the tools"}`,
		"open_sections did not take effect", "cannot", "Visibility expansion required for sections: todo")
	if len(events) != 1 || events[0].Metadata["reason"] != "need the tools" {
		t.Errorf("events %+v", events)
	}
	// A prompt's every tool is the flat surface, and serves fine.
	cs = serve(t, p.Tools())
	mustOK(t, cs, "create_todo", `{"title":"Renew passport"}`)
}

type session string

func (s session) ID() string { return string(s) }

// TestContext: handlers see the call, the bus and the session; events are
// published on the bus.
func TestContext(t *testing.T) {
	var seen []runtime.ToolContext
	probe := runtime.Tool{
		Name:        "probe",
		Description: "Records its context.",
		Parameters:  json.RawMessage(`{"type":"object","properties":{"x":{"type":"integer"}}}`),
		Handler: func(_ context.Context, tc runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
			seen = append(seen, tc)
			return runtime.Result{Success: true, Message: "ok"}, nil
		},
	}
	bus := &runtime.EventBus{}
	var events []runtime.ToolInvoked
	bus.Subscribe(func(e runtime.Event) { events = append(events, e.(runtime.ToolInvoked)) })

	cs := serve(t, []runtime.Tool{probe}, mcpserver.WithBus(bus))
	mustOK(t, cs, "probe", `{"x":1}`)
	mustOK(t, cs, "probe", "")
	if len(seen) != 2 || len(events) != 2 {
		t.Fatalf("%d calls, %d events", len(seen), len(events))
	}
	tc := seen[0]
	if c := tc.Call(); c.Name != "probe" || string(c.Args) != `{"x":1}` || !strings.HasPrefix(c.ID, "mcp_") {
		t.Errorf("call %+v", c)
	}
	if seen[0].Call().ID == seen[1].Call().ID {
		t.Errorf("two calls share the id %s", seen[0].Call().ID)
	}
	if string(seen[1].Call().Args) != `{}` {
		t.Errorf("absent arguments reached the handler as %s", seen[1].Call().Args)
	}
	if _, ok := tc.Session().(*mcp.ServerSession); !ok {
		t.Errorf("default session %T, want the *mcp.ServerSession", tc.Session())
	}
	if tc.Bus() != bus || tc.Adapter() == nil || tc.Adapter().Name() != "mcp" {
		t.Errorf("bus %p adapter %v", tc.Bus(), tc.Adapter())
	}
	if events[0].Tool != "probe" || events[0].CallID != tc.Call().ID || events[0].Rendered != "ok" {
		t.Errorf("event %+v", events[0])
	}

	seen = nil
	cs = serve(t, []runtime.Tool{probe}, mcpserver.WithSession(func(*mcp.CallToolRequest) runtime.Session { return session("s1") }))
	mustOK(t, cs, "probe", `{}`)
	if len(seen) != 1 || seen[0].Session() == nil || seen[0].Session().ID() != "s1" {
		t.Errorf("WithSession not used: %+v", seen)
	}
}

// TestRegisterRejects: unfit tools are refused before anything is added.
func TestRegisterRejects(t *testing.T) {
	ok := quickstart.Tools(&quickstart.Store{})
	noop := func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Success: true}, nil
	}
	for name, tc := range map[string]struct {
		tool runtime.Tool
		want string
	}{
		"array schema":    {runtime.Tool{Name: "x", Parameters: json.RawMessage(`{"type":"array"}`), Handler: noop}, `type "object"`},
		"untyped schema":  {runtime.Tool{Name: "x", Parameters: json.RawMessage(`{"properties":{}}`), Handler: noop}, `type "object"`},
		"schema not JSON": {runtime.Tool{Name: "x", Parameters: json.RawMessage(`[]`), Handler: noop}, "JSON Schema object"},
		"bad name":        {runtime.Tool{Name: "no spaces", Parameters: json.RawMessage(`{"type":"object"}`), Handler: noop}, "no spaces"},
		// The SDK sent the schemas' bytes as they are: the tool list was
		// not UTF-8.
		"schema not UTF-8":        {runtime.Tool{Name: "x", Parameters: json.RawMessage("{\"type\":\"object\",\"description\":\"caf\xe9\"}"), Handler: noop}, "not valid UTF-8"},
		"result schema not UTF-8": {runtime.Tool{Name: "x", ResultSchema: json.RawMessage("{\"type\":\"object\",\"title\":\"\xff\"}"), Handler: noop}, "not valid UTF-8"},
		"duplicate":               {ok[0], "duplicate tool name"},
	} {
		t.Run(name, func(t *testing.T) {
			server := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "v0"}, nil)
			err := mcpserver.Register(server, append(slices.Clone(ok), tc.tool))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Register: %v, want an error containing %q", err, tc.want)
			}
			if n := len(listTools(t, connect(t, server, nil))); n != 0 {
				t.Errorf("%d tools added despite the error", n)
			}
		})
	}
	if err := mcpserver.Register(nil, ok); err == nil {
		t.Error("Register(nil) succeeded")
	}
	if _, err := mcpserver.NewServer("test", "v0", append(slices.Clone(ok), ok[1])); err == nil {
		t.Error("NewServer with a duplicate succeeded")
	}
}

// TestNoParameters: a tool without a schema is offered with the empty
// object schema MCP requires.
func TestNoParameters(t *testing.T) {
	tool := runtime.Tool{Name: "ping", Description: "Ping.", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Success: true, Message: "pong"}, nil
	}}
	cs := serve(t, []runtime.Tool{tool, {Name: "doc_only", Description: "No handler."}})
	got := listTools(t, cs)
	if !jsonEqual(t, got["ping"].InputSchema, map[string]any{"type": "object"}) {
		t.Errorf("schema %v", got["ping"].InputSchema)
	}
	if text := mustOK(t, cs, "ping", ""); text != "pong" {
		t.Errorf("ping answered %q", text)
	}
	mustFail(t, cs, "doc_only", "", "no handler")
}

// TestServerOptions: NewServer passes WithServerOptions to the SDK.
func TestServerOptions(t *testing.T) {
	server, err := mcpserver.NewServer("todo", "v1", quickstart.Tools(&quickstart.Store{}),
		mcpserver.WithServerOptions(&mcp.ServerOptions{Instructions: "Track todos."}))
	if err != nil {
		t.Fatal(err)
	}
	cs := connect(t, server, nil)
	init := cs.InitializeResult()
	if init.Instructions != "Track todos." || init.ServerInfo.Name != "todo" || init.ServerInfo.Version != "v1" {
		t.Errorf("initialize result %+v %+v", init, init.ServerInfo)
	}
}

// TestIgnoredArgumentsNote: search_code's schema does not say
// additionalProperties, so its generated decoder accepts "per_pag" and
// drops it. The result's text is unchanged, and a second content block
// tells the model, with the nearest argument; a call without such an
// argument has one block, as before.
func TestIgnoredArgumentsNote(t *testing.T) {
	cs := serve(t, github.Tools(githubtest.Echo{}))
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "search_code", Arguments: json.RawMessage(`{"q":"x","per_pag":5}`)})
	if err != nil || res.IsError || len(res.Content) != 2 {
		t.Fatalf("search_code with per_pag: %v, %+v", err, res)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != `{"q":"x","order":"desc","page":1,"perPage":30}` {
		t.Errorf("result text %s", text)
	}
	want := `note: "per_pag" is not an argument of search_code and was ignored (did you mean "perPage"?)`
	if note := res.Content[1].(*mcp.TextContent).Text; note != want {
		t.Errorf("note %q, want %q", note, want)
	}
	mustOK(t, cs, "search_code", `{"q":"x","perPage":5}`) // one content block
	// A tool that refuses unknown arguments names them in its error, with
	// no note calling them ignored.
	mustFail(t, cs, "list_issues", `{"owner":"o","repo":"r","per_pag":5}`, "per_pag")
}
