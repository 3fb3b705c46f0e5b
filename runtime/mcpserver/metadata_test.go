package mcpserver_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// typedTool returns a tool with a result schema whose handler answers with
// value (or fails with err).
func typedTool(name string, value any, err error) runtime.Tool {
	return runtime.Tool{
		Name:         name,
		Title:        "Typed " + name,
		Description:  "Answers with a typed value.",
		Parameters:   json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}}}`),
		Annotations:  &runtime.Annotations{ReadOnly: runtime.Hint(false), Destructive: runtime.Hint(false), Idempotent: runtime.Hint(true), OpenWorld: runtime.Hint(false)},
		ResultSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"n":{"type":"integer"}},"required":["id"]}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			if err != nil {
				return runtime.Result{}, err
			}
			return runtime.Result{Success: true, Message: "made it", Value: value}, nil
		},
	}
}

// TestAnnotationsTitleOutputSchema: hints, title and output schema reach
// the tool list; generated tools carry their kind's hints; the gateway's
// lookup tools are read-only.
func TestAnnotationsTitleOutputSchema(t *testing.T) {
	tools := append(quickstart.Tools(&quickstart.Store{}), typedTool("typed", map[string]any{"id": "x"}, nil))
	got := listTools(t, serve(t, tools))
	typed := got["typed"]
	if typed.Title != "Typed typed" || typed.Annotations == nil || typed.Annotations.Title != "Typed typed" {
		t.Errorf("title %q annotations %+v", typed.Title, typed.Annotations)
	}
	a := typed.Annotations
	if a.ReadOnlyHint || a.DestructiveHint == nil || *a.DestructiveHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
		t.Errorf("typed hints %+v", a)
	}
	if !jsonEqual(t, typed.OutputSchema, json.RawMessage(tools[len(tools)-1].ResultSchema)) {
		t.Errorf("output schema %v", typed.OutputSchema)
	}
	if l := got["list_todos"].Annotations; l == nil || !l.ReadOnlyHint {
		t.Errorf("list_todos hints %+v", l)
	}
	if d := got["delete_todo"].Annotations; d == nil || d.ReadOnlyHint || d.DestructiveHint == nil || !*d.DestructiveHint {
		t.Errorf("delete_todo hints %+v", d)
	}
	if c := got["create_todo"].Annotations; c == nil || c.ReadOnlyHint || c.DestructiveHint == nil || *c.DestructiveHint || c.IdempotentHint {
		t.Errorf("create_todo hints %+v", c)
	}
	if got["list_todos"].OutputSchema == nil {
		t.Errorf("typed list_todos has no output schema")
	}
	gw := listTools(t, serve(t, quickstart.Gateway(&quickstart.Store{})))
	if gw[gateway.HelpTool].OutputSchema != nil {
		t.Errorf("tool_help, without a result schema, has an output schema")
	}
	for _, name := range []string{gateway.HelpTool, gateway.SearchTool} {
		if a := gw[name].Annotations; a == nil || !a.ReadOnlyHint {
			t.Errorf("%s hints %+v", name, a)
		}
	}
	if a := gw[gateway.ExecTool].Annotations; a != nil && a.ReadOnlyHint {
		t.Errorf("tool_exec is marked read-only")
	}
	// The builtins say so themselves: a tool of a family that has their
	// name and no hints is not taken for read-only (it had been, by name).
	search := typedTool(gateway.SearchTool, json.RawMessage(`{}`), nil)
	search.Annotations = nil
	own := listTools(t, serve(t, []runtime.Tool{search}))
	if a := own[gateway.SearchTool].Annotations; a != nil && a.ReadOnlyHint {
		t.Errorf("a family's own tool_search, without hints, is marked read-only: %+v", a)
	}
}

// TestStructuredContent: a typed result comes as structuredContent and as
// the rendered text; failures are isError results, never protocol errors.
func TestStructuredContent(t *testing.T) {
	cs := serve(t, []runtime.Tool{
		typedTool("typed", json.RawMessage(`{"id":"t1","n":2}`), nil),
		typedTool("not_found", nil, runtime.NotFound("no thing 9")),
		typedTool("wrong_shape", []int{1}, nil),
	})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "typed", Arguments: map[string]any{"n": 2}})
	if err != nil || res.IsError {
		t.Fatalf("typed: %v %+v", err, res)
	}
	if !jsonEqual(t, res.StructuredContent, map[string]any{"id": "t1", "n": 2}) {
		t.Errorf("structuredContent %v", res.StructuredContent)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; text != "made it\n\n"+`{"id":"t1","n":2}` {
		t.Errorf("text %q", text)
	}
	mustFail(t, cs, "not_found", `{}`, "no thing 9")
	mustFail(t, cs, "wrong_shape", `{}`, "ran, but its result is not the JSON object", "do not repeat the call")
}

// TestStructuredContentExcluded: a value kept from the model's context
// still goes out of band as structuredContent when the tool has an output
// schema (the call was said to fail before, and a model would repeat a
// write that happened); the text leaves it out.
func TestStructuredContentExcluded(t *testing.T) {
	tool := typedTool("upload", nil, nil)
	tool.Handler = func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Success: true, Message: "uploaded f_1", Value: map[string]any{"id": "f_1"}, ExcludeValueFromContext: true}, nil
	}
	untyped := tool
	untyped.Name, untyped.ResultSchema = "upload_untyped", nil
	cs := serve(t, []runtime.Tool{tool, untyped})
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upload", Arguments: map[string]any{}})
	if err != nil || res.IsError {
		t.Fatalf("upload: %v %+v", err, res)
	}
	if !jsonEqual(t, res.StructuredContent, map[string]any{"id": "f_1"}) {
		t.Errorf("structuredContent %v", res.StructuredContent)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; strings.Contains(text, "f_1\"") || !strings.Contains(text, "uploaded f_1") {
		t.Errorf("text %q, want the message without the value", text)
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "upload_untyped", Arguments: map[string]any{}})
	if err != nil || res.IsError || res.StructuredContent != nil {
		t.Errorf("upload_untyped: %v %+v, want a success without structuredContent", err, res)
	}
}

// panicky panics when marshalled: the rendering falls back to a note and
// the structured content step panics after the handler returned.
type panicky struct{}

func (panicky) MarshalJSON() ([]byte, error) { panic("bad marshal") }

// TestPanicAfterHandler: a panic outside the handler (marshalling its
// value) is an error result, and the server keeps serving.
func TestPanicAfterHandler(t *testing.T) {
	tool := typedTool("odd", panicky{}, nil)
	tool.ResultSchema = nil
	cs := serve(t, []runtime.Tool{tool, typedTool("typed", map[string]any{"id": "x"}, nil)})
	mustFail(t, cs, "odd", `{}`, "internal error")
	mustOK(t, cs, "typed", `{}`)
}

// TestSectionsServer: summaries are the server's instructions;
// open_sections opens a section on the server (tools/list_changed) and
// answers with its text and tools; the opened tools run.
func TestSectionsServer(t *testing.T) {
	p, err := prompt.New("test", "todos", "", quickstart.Sections(&quickstart.Store{})...)
	if err != nil {
		t.Fatal(err)
	}
	server, err := mcpserver.NewSectionsServer("todos", "v1", p, nil)
	if err != nil {
		t.Fatal(err)
	}
	changed := make(chan struct{}, 8)
	cs := connect(t, server, &mcp.ClientOptions{ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
		changed <- struct{}{}
	}})
	if ins := cs.InitializeResult().Instructions; !strings.Contains(ins, "open_sections") || !strings.Contains(ins, "todo") {
		t.Errorf("instructions lack the summaries:\n%s", ins)
	}
	names := listTools(t, cs)
	if len(names) != 1 || names[prompt.OpenSectionsName] == nil {
		t.Fatalf("tools before opening: %v", names)
	}
	// A server cannot re-send the prompt; the description does not say it will.
	if d := names[prompt.OpenSectionsName].Description; strings.Contains(d, "re-sent") || !strings.Contains(d, "tool list") {
		t.Errorf("open_sections description over MCP: %s", d)
	}
	mustFail(t, cs, prompt.OpenSectionsName, `{"section_keys":["nope"],"reason":"x"}`, "nope")
	got := mustOK(t, cs, prompt.OpenSectionsName, `{"section_keys":["todo"],"reason":"need the tools"}`)
	if !strings.Contains(got, "Tools now available: ") || !strings.Contains(got, "create_todo") {
		t.Errorf("open_sections answered %s", got)
	}
	select {
	case <-changed:
	case <-time.After(5 * time.Second):
		t.Fatal("no tools/list_changed after opening")
	}
	tools := listTools(t, cs)
	if tools["create_todo"] == nil {
		t.Errorf("create_todo not listed after opening: %v", tools)
	}
	mustOK(t, cs, "create_todo", `{"title":"Renew passport"}`)
}

// TestSectionsServerRejects: a tool of a summarized section that MCP
// cannot take is refused when the server is built, as Register refuses
// one; it was left out of the tools its section's opening added, without
// a word.
func TestSectionsServerRejects(t *testing.T) {
	noop := func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{Success: true}, nil
	}
	tests := []struct {
		name   string
		schema string
		want   string
	}{
		{"untyped schema", `{"properties":{}}`, `type "object"`},
		{"array schema", `{"type":"array"}`, `type "object"`},
		{"schema not UTF-8", "{\"type\":\"object\",\"description\":\"caf\xe9\"}", "not valid UTF-8"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := prompt.New("test", "unfit", "",
				prompt.Section{Key: "shown", Title: "Shown", Template: "Shown in full."},
				prompt.Section{Key: "more", Title: "More", Template: "More tools.", Summary: "More tools exist.",
					Visibility: prompt.VisibilitySummary,
					Tools:      []runtime.Tool{{Name: "unfit", Description: "Cannot go over MCP.", Parameters: json.RawMessage(tt.schema), Handler: noop}}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = mcpserver.NewSectionsServer("t", "v1", p, nil)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "unfit") {
				t.Errorf("NewSectionsServer: %v, want an error naming unfit and containing %q", err, tt.want)
			}
		})
	}
}

// TestEverySurfaceOverHTTP: each surface serves over streamable HTTP to
// the SDK's client, and a stop through the context returns promptly and
// cleanly while a client is still connected.
func TestEverySurfaceOverHTTP(t *testing.T) {
	store := &quickstart.Store{}
	p := prompt.MustNew("test", "todos", "", quickstart.Sections(store)...)
	surfaces := map[string]func() (*mcp.Server, error){
		"flat": func() (*mcp.Server, error) { return mcpserver.NewServer("t", "v", quickstart.Tools(store)) },
		"gateway": func() (*mcp.Server, error) {
			return mcpserver.NewServer("t", "v", quickstart.Gateway(store, gateway.WithWrites(true)))
		},
		"facades":  func() (*mcp.Server, error) { return mcpserver.NewServer("t", "v", quickstart.Facades(store)) },
		"sections": func() (*mcp.Server, error) { return mcpserver.NewSectionsServer("t", "v", p, nil) },
	}
	calls := map[string][2]string{
		"flat":     {"list_todos", `{}`},
		"gateway":  {gateway.ExecTool, `{"op":"todo.list","args":{}}`},
		"facades":  {"todo", `{"tool":"list_todos","args":{}}`},
		"sections": {prompt.OpenSectionsName, `{"section_keys":["todo"],"reason":"r"}`},
	}
	for name, mk := range surfaces {
		t.Run(name, func(t *testing.T) {
			addr, stop := startServeHTTP(t, mk, mcpserver.HTTPOptions{ShutdownTimeout: 5 * time.Second})
			client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
			cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			c := calls[name]
			mustOK(t, cs, c[0], c[1])
			start := time.Now()
			select {
			case err := <-stop():
				if err != nil {
					t.Errorf("ServeHTTP: %v", err)
				}
			case <-time.After(4 * time.Second):
				t.Fatal("ServeHTTP did not stop")
			}
			t.Logf("stopped in %v", time.Since(start))
			if _, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c[0], Arguments: json.RawMessage(c[1])}); err == nil {
				t.Error("call after stop succeeded")
			}
		})
	}
}

// quickstartHTTP serves the quickstart tools over HTTPHandler with o.
func quickstartHTTP(t *testing.T, o mcpserver.HTTPOptions) *httptest.Server {
	h := mcpserver.HTTPHandler(func(*http.Request) *mcp.Server {
		s, _ := mcpserver.NewServer("t", "v", quickstart.Tools(&quickstart.Store{}))
		return s
	}, o)
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// post POSTs a JSON-RPC body as an MCP client does, with header added,
// and returns the response and its body.
func post(t *testing.T, url, body string, header map[string]string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	return res, b
}

// TestHTTPCrossOrigin: a browser's cross-site request is refused before
// it reaches the MCP handler; a client without browser headers is served.
func TestHTTPCrossOrigin(t *testing.T) {
	srv := quickstartHTTP(t, mcpserver.HTTPOptions{})
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	for _, c := range []struct {
		site string
		want int
	}{{"cross-site", http.StatusForbidden}, {"", http.StatusOK}} {
		header := map[string]string{}
		if c.site != "" {
			header = map[string]string{"Sec-Fetch-Site": c.site, "Origin": "https://evil.example"}
		}
		res, _ := post(t, srv.URL, body, header)
		if res.StatusCode != c.want {
			t.Errorf("Sec-Fetch-Site %q: status %d, want %d", c.site, res.StatusCode, c.want)
		}
	}
}

// TestHTTPIDs: an id the SDK would read as another (1.5 as 1), a request
// with a null id, or a batch giving two requests one id is refused with
// HTTP 400 and a JSON-RPC error;
// a well-formed request and an oversized body reach the SDK.
func TestHTTPIDs(t *testing.T) {
	srv := quickstartHTTP(t, mcpserver.HTTPOptions{})
	init := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
	}
	for _, c := range []struct {
		body, want string
		status     int
	}{
		{init("1"), "", http.StatusOK},
		{init("1.5"), `must be a string or an integer of at most 2^53`, http.StatusBadRequest},
		{init("99999999999999999999"), `must be a string or an integer of at most 2^53`, http.StatusBadRequest},
		{init("null"), "not null", http.StatusBadRequest},
		// the SDK read 2^53+1 as 2^53, and matches names exactly
		{init("9007199254740993"), `at most 2^53`, http.StatusBadRequest},
		{strings.Replace(init("1.5"), `"method"`, `"Id":1,"method"`, 1), `at most 2^53`, http.StatusBadRequest},
		{`[` + init("2.5") + `]`, "batch item 0", http.StatusBadRequest},
		// the SDK answered the first of two requests with one id and
		// dropped the other without a word
		{`[` + init("3") + `,` + init("3") + `]`, "batch item 1: id 3 is in use", http.StatusBadRequest},
		{`[` + init(`"a"`) + `,{"jsonrpc":"2.0","method":"notifications/initialized"},` + init(`"a"`) + `]`, `batch item 2: id \"a\" is in use`, http.StatusBadRequest},
		{`{"pad":"` + strings.Repeat("x", 4<<20) + `"}`, "", http.StatusRequestEntityTooLarge},
	} {
		res, b := post(t, srv.URL, c.body, nil)
		if res.StatusCode != c.status || !strings.Contains(string(b), c.want) {
			t.Errorf("%.60s: status %d, body %.200s; want %d and %q", c.body, res.StatusCode, b, c.status, c.want)
		}
	}
}

// TestServeHTTPListenError: a closed listener is reported.
func TestServeHTTPListenError(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ln.Close()
	err = mcpserver.ServeHTTP(context.Background(), ln, func(*http.Request) *mcp.Server { return nil }, mcpserver.HTTPOptions{})
	if err == nil || errors.Is(err, http.ErrServerClosed) {
		t.Errorf("ServeHTTP on a closed listener: %v", err)
	}
}

// TestListenAndServeHTTP: README's entry point listens at addr, reports
// an address it cannot listen at, and stops with its context.
func TestListenAndServeHTTP(t *testing.T) {
	server := func(*http.Request) *mcp.Server { return nil }
	if err := mcpserver.ListenAndServeHTTP(context.Background(), "127.0.0.1:-1", server, mcpserver.HTTPOptions{}); err == nil {
		t.Error("ListenAndServeHTTP at port -1: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := mcpserver.ListenAndServeHTTP(ctx, "127.0.0.1:0", server, mcpserver.HTTPOptions{}); err != nil {
		t.Errorf("ListenAndServeHTTP, stopped: %v", err)
	}
}

// TestServeHTTPShutdownCutsOff: a call still running when the shutdown
// timeout passes is cut off, and ServeHTTP's error says so (it returned
// nil, and nothing told of the dropped call).
func TestServeHTTPShutdownCutsOff(t *testing.T) {
	started := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	slow := runtime.Tool{
		Name:        "slow",
		Description: "Runs until released.",
		Parameters:  json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			close(started)
			<-release // ignores its context, as a careless handler does
			return runtime.Result{}, nil
		},
	}
	addr, stop := startServeHTTP(t, func() (*mcp.Server, error) {
		return mcpserver.NewServer("t", "v", []runtime.Tool{slow})
	}, mcpserver.HTTPOptions{ShutdownTimeout: 100 * time.Millisecond})
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: "http://" + addr + "/mcp"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow", Arguments: json.RawMessage(`{}`)})
	<-started
	err = <-stop()
	if err == nil || !strings.Contains(err.Error(), "stopped with 1 request still running after the 100ms shutdown timeout") {
		t.Errorf("ServeHTTP = %v, want the call cut off named", err)
	}
}

// TestHTTPMaxRequests: requests past MaxRequests running at once are
// answered 503 (a client could run any number at once), and served again
// once one ends. The limit is 2 and two calls hold it: a request just
// answered may still count for a moment, so a limit of 1 would refuse a
// client's own next request (its initialized notification) at random.
func TestHTTPMaxRequests(t *testing.T) {
	started := make(chan struct{}, 2)
	release := make(chan struct{})
	slow := runtime.Tool{
		Name:        "slow",
		Description: "Runs until released.",
		Parameters:  json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			started <- struct{}{}
			<-release
			return runtime.Result{}, nil
		},
	}
	srv := httptest.NewServer(mcpserver.HTTPHandler(func(*http.Request) *mcp.Server {
		s, _ := mcpserver.NewServer("t", "v", []runtime.Tool{slow})
		return s
	}, mcpserver.HTTPOptions{MaxRequests: 2}))
	defer srv.Close()
	connect := func() (*mcp.ClientSession, error) {
		client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
		return client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: srv.URL, MaxRetries: -1}, nil)
	}
	cs, err := connect()
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	// Two calls to hold the limit. A call may be refused while a request
	// just answered still counts: it is sent again.
	called := make(chan error, 2)
	call := func() {
		go func() {
			_, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "slow", Arguments: json.RawMessage(`{}`)})
			called <- err
		}()
	}
	for running := 0; running < 2; {
		call()
		select {
		case <-started:
			running++
		case err := <-called:
			if err == nil || !strings.Contains(err.Error(), "Service Unavailable") && !strings.Contains(err.Error(), "503") {
				t.Fatalf("a call before the limit: %v", err)
			}
			time.Sleep(20 * time.Millisecond)
		case <-time.After(time.Minute):
			t.Fatal("no call started or ended in a minute")
		}
	}
	if other, err := connect(); err == nil {
		other.Close()
		t.Error("a second session opened while the two requests allowed run")
	} else if !strings.Contains(err.Error(), "503") && !strings.Contains(err.Error(), "Service Unavailable") {
		t.Errorf("refused with %v, want 503", err)
	}
	close(release)
	for range 2 {
		if err := <-called; err != nil {
			t.Fatalf("a running call: %v", err)
		}
	}
	// The calls' requests end just after their answers: retried a while.
	var other *mcp.ClientSession
	for try := 0; ; try++ {
		if other, err = connect(); err == nil || try == 100 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatalf("after the calls ended: %v", err)
	}
	other.Close()
}
