package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// initialized opens a session at url (initialize, then
// notifications/initialized) and returns the headers its requests carry.
func initialized(t *testing.T, url string) map[string]string {
	t.Helper()
	res, b := post(t, url, initializeBody, nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("initialize: status %d, body %s", res.StatusCode, b)
	}
	header := map[string]string{"Mcp-Protocol-Version": "2025-06-18"}
	if id := res.Header.Get("Mcp-Session-Id"); id != "" {
		header["Mcp-Session-Id"] = id
	}
	if res, b := post(t, url, `{"jsonrpc":"2.0","method":"notifications/initialized"}`, header); res.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/initialized: status %d, body %s", res.StatusCode, b)
	}
	return header
}

// answer is the JSON-RPC message of an HTTP answer, sent as JSON or as
// the one event of an event stream.
func answer(t *testing.T, res *http.Response, body []byte) (id json.RawMessage, code int64, message string) {
	t.Helper()
	if strings.HasPrefix(res.Header.Get("Content-Type"), "text/event-stream") {
		for line := range strings.SplitSeq(string(body), "\n") {
			if data, ok := strings.CutPrefix(line, "data: "); ok {
				body = []byte(data)
				break
			}
		}
	}
	var m struct {
		ID    json.RawMessage
		Error *struct {
			Code    int64
			Message string
		}
	}
	if err := json.Unmarshal(body, &m); err != nil || m.Error == nil {
		t.Fatalf("not a JSON-RPC error answer (%v): %s %s", err, res.Header.Get("Content-Type"), body)
	}
	return m.ID, m.Error.Code, m.Error.Message
}

// The SDK's own HTTP handler, in a session, refuses a request or a
// notification whose method its server does not handle with HTTP 400 and
// a line of text (a request gets no JSON-RPC answer, a notification is
// answered), and answers a second initialize with an error of code 0.
// HTTPHandler corrects both (TestHTTPMethodNotFound,
// TestSecondInitialize); this pins what it corrects, and the text it
// recognises the refusal by.
func TestSDKUnknownMethodAndSecondInitialize(t *testing.T) {
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		return mcp.NewServer(&mcp.Implementation{Name: "t", Version: "v"}, nil)
	}, nil))
	t.Cleanup(srv.Close)
	header := initialized(t, srv.URL)
	for _, body := range []string{`{"jsonrpc":"2.0","id":5,"method":"tools/frobnicate"}`, `{"jsonrpc":"2.0","method":"notifications/frobnicate"}`} {
		res, b := post(t, srv.URL, body, header)
		method := "tools/frobnicate"
		if !strings.Contains(body, `"id"`) {
			method = "notifications/frobnicate"
		}
		if want := `JSON RPC not handled: "` + method + `" unsupported`; res.StatusCode != http.StatusBadRequest || strings.TrimSpace(string(b)) != want {
			t.Errorf("%s: status %d, body %q; the SDK answered 400 and %q", body, res.StatusCode, b, want)
		}
	}
	res, b := post(t, srv.URL, strings.Replace(initializeBody, `"id":1`, `"id":2`, 1), header)
	if id, code, msg := answer(t, res, b); string(id) != "2" || code != 0 || msg != `duplicate "initialize" received` {
		t.Errorf("second initialize: id %s, code %d, message %q", id, code, msg)
	}
}

// TestHTTPMethodNotFound: a request whose method the server does not
// handle is answered with HTTP 200 and a JSON-RPC error -32601 carrying
// its id, as on stdio; such a notification is accepted (202, no body)
// and not answered. Known methods are served as before.
func TestHTTPMethodNotFound(t *testing.T) {
	stateless := quickstartHTTP(t, mcpserver.HTTPOptions{Stateless: true})
	for name, url := range map[string]string{"session": quickstartHTTP(t, mcpserver.HTTPOptions{}).URL, "stateless": stateless.URL} {
		t.Run(name, func(t *testing.T) {
			header := initialized(t, url)
			for _, c := range []struct{ body, id, method string }{
				{`{"jsonrpc":"2.0","id":5,"method":"tools/frobnicate"}`, "5", "tools/frobnicate"},
				{`{"jsonrpc":"2.0","id":"x","method":"frobnicate","params":{"a":1}}`, `"x"`, "frobnicate"},
				// the name is quoted in the SDK's refusal, and matched quoted
				{`{"jsonrpc":"2.0","id":6,"method":"a \"b\"\n"}`, "6", "a \"b\"\n"},
			} {
				res, b := post(t, url, c.body, header)
				if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
					t.Errorf("%s: status %d, %s; want 200 and JSON", c.body, res.StatusCode, res.Header.Get("Content-Type"))
				}
				id, code, msg := answer(t, res, b)
				if want := `method not found: "` + strings.ReplaceAll(strings.ReplaceAll(c.method, `"`, `\"`), "\n", `\n`) + `"`; string(id) != c.id || code != jsonrpc.CodeMethodNotFound || msg != want {
					t.Errorf("%s: id %s, code %d, message %q; want id %s, %d, %q", c.body, id, code, msg, c.id, jsonrpc.CodeMethodNotFound, want)
				}
			}
			res, b := post(t, url, `{"jsonrpc":"2.0","method":"notifications/frobnicate","params":{}}`, header)
			if res.StatusCode != http.StatusAccepted || len(b) != 0 {
				t.Errorf("unknown notification: status %d, body %q; want 202 and no body", res.StatusCode, b)
			}
			// The transport's own refusals pass as the SDK wrote them.
			res, b = post(t, url, `{"jsonrpc":"2.0","id":7,"method":"tools/list"}`, map[string]string{"Last-Event-ID": "x", "Mcp-Session-Id": header["Mcp-Session-Id"], "Mcp-Protocol-Version": header["Mcp-Protocol-Version"]})
			if res.StatusCode != http.StatusBadRequest || string(b) != "can't send Last-Event-ID for POST request\n" {
				t.Errorf("Last-Event-ID on a POST: status %d, body %q", res.StatusCode, b)
			}
			res, b = post(t, url, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`, header)
			if res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"create_todo"`)) {
				t.Errorf("tools/list: status %d, body %.200s", res.StatusCode, b)
			}
		})
	}
}

type echoParams struct {
	mcp.ParamsBase
	Say string `json:"say"`
}

type echoResult struct {
	mcp.ResultBase
	Said string `json:"said"`
}

// TestHTTPCustomMethod: which methods are known is the server's to say: a
// method added with mcp.AddReceivingCustomMethod is served, and only on
// the server that has it.
func TestHTTPCustomMethod(t *testing.T) {
	srv := httptest.NewServer(mcpserver.HTTPHandler(func(r *http.Request) *mcp.Server {
		s, _ := mcpserver.NewServer("t", "v", quickstart.Tools(&quickstart.Store{}))
		if r.URL.Path == "/custom" {
			err := mcp.AddReceivingCustomMethod(s, "acme/echo", func(_ context.Context, _ *mcp.ServerSession, p *echoParams) (*echoResult, error) {
				return &echoResult{Said: p.Say}, nil
			})
			if err != nil {
				t.Error(err)
			}
		}
		return s
	}, mcpserver.HTTPOptions{}))
	t.Cleanup(srv.Close)
	const echo = `{"jsonrpc":"2.0","id":4,"method":"acme/echo","params":{"say":"hi"}}`
	url := srv.URL + "/custom"
	res, b := post(t, url, echo, initialized(t, url))
	if res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"said":"hi"`)) {
		t.Errorf("acme/echo where it is added: status %d, body %s", res.StatusCode, b)
	}
	res, b = post(t, srv.URL, echo, initialized(t, srv.URL))
	if id, code, _ := answer(t, res, b); string(id) != "4" || code != jsonrpc.CodeMethodNotFound {
		t.Errorf("acme/echo elsewhere: id %s, code %d", id, code)
	}
}

// TestHTTPSecondInitialize: an initialize request in a session that is
// already initialized is answered with -32600 (Invalid Request), its id
// and a message saying why (the SDK's error had code 0); the session goes
// on. Without a session (stateless) each initialize is a first one.
func TestHTTPSecondInitialize(t *testing.T) {
	srv := quickstartHTTP(t, mcpserver.HTTPOptions{})
	header := initialized(t, srv.URL)
	res, b := post(t, srv.URL, strings.Replace(initializeBody, `"id":1`, `"id":"again"`, 1), header)
	if id, code, msg := answer(t, res, b); string(id) != `"again"` || code != jsonrpc.CodeInvalidRequest || !strings.Contains(msg, "already initialized") {
		t.Errorf("second initialize: id %s, code %d, message %q", id, code, msg)
	}
	if res, b := post(t, srv.URL, `{"jsonrpc":"2.0","id":3,"method":"ping"}`, header); res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"result":{}`)) {
		t.Errorf("ping after a second initialize: status %d, body %s", res.StatusCode, b)
	}

	stateless := quickstartHTTP(t, mcpserver.HTTPOptions{Stateless: true})
	for range 2 {
		if res, b := post(t, stateless.URL, initializeBody, nil); res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"serverInfo"`)) {
			t.Errorf("stateless initialize: status %d, body %s", res.StatusCode, b)
		}
	}
}

// blockingServer serves a tool "wait" whose calls block until release is
// closed; each call entered is sent on entered.
func blockingServer(t *testing.T, entered chan<- struct{}, release <-chan struct{}) *mcp.Server {
	t.Helper()
	s, err := mcpserver.NewServer("t", "v", []runtime.Tool{{
		Name:        "wait",
		Description: "Waits.",
		Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
			entered <- struct{}{}
			select {
			case <-release:
			case <-ctx.Done():
			}
			return runtime.Result{Success: true, Message: "done"}, nil
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// duplicateCall posts a call of "wait" with id 7 in the session of
// header at url, and, once it runs, another with the same id; it returns
// the answer to the second, then lets the first end.
func duplicateCall(t *testing.T, url string, header map[string]string, entered <-chan struct{}, release chan<- struct{}) (*http.Response, []byte) {
	t.Helper()
	const call = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"wait","arguments":{}}}`
	var wg sync.WaitGroup
	defer wg.Wait()
	defer close(release)
	wg.Add(1)
	go func() {
		defer wg.Done()
		req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(call))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range header {
			req.Header.Set(k, v)
		}
		if res, err := http.DefaultClient.Do(req); err == nil {
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
		}
	}()
	select {
	case <-entered:
	case <-time.After(10 * time.Second):
		t.Fatal("the first call did not start")
	}
	return post(t, url, strings.Replace(call, `"wait"`, `"other"`, 1), header)
}

// The SDK's streamable HTTP handler refuses, before dispatching them, with
// HTTP 400 and a line of text: a request for a notification method, a
// notification of a request method, a request or notification without the
// params its method requires; and with HTTP 400 and a JSON-RPC error, a
// request whose id a request of the session not answered yet has. It
// answers a request without a session (other than initialize and ping)
// with an error of code 0. HTTPHandler answers them as on stdio
// (TestHTTPEarlyRefusals, TestHTTPBeforeInitialize); this pins what it
// corrects, and the texts it recognises them by.
func TestSDKEarlyRefusals(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		return blockingServer(t, entered, release)
	}, nil))
	t.Cleanup(srv.Close)

	res, b := post(t, srv.URL, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, nil)
	if id, code, msg := answer(t, res, b); res.StatusCode != http.StatusOK || string(id) != "1" || code != 0 || msg != `method "tools/list" is invalid during session initialization` {
		t.Errorf("tools/list without a session: status %d, id %s, code %d, message %q", res.StatusCode, id, code, msg)
	}

	header := initialized(t, srv.URL)
	for _, c := range []struct{ body, text string }{
		{`{"jsonrpc":"2.0","id":7,"method":"notifications/initialized"}`, `invalid request: unexpected id for "notifications/initialized"`},
		{`{"jsonrpc":"2.0","method":"tools/list"}`, `invalid request: missing id for "tools/list"`},
		{`{"jsonrpc":"2.0","id":8,"method":"tools/call"}`, `invalid request: missing required "params"`},
		{`{"jsonrpc":"2.0","method":"notifications/progress"}`, `invalid request: missing required "params"`},
	} {
		res, b := post(t, srv.URL, c.body, header)
		if res.StatusCode != http.StatusBadRequest || string(b) != c.text+"\n" {
			t.Errorf("%s: status %d, body %q; the SDK answered 400 and %q", c.body, res.StatusCode, b, c.text)
		}
	}
	res, b = duplicateCall(t, srv.URL, header, entered, release)
	if id, code, msg := answer(t, res, b); res.StatusCode != http.StatusBadRequest || string(id) != "7" || code != jsonrpc.CodeInvalidRequest || msg != "duplicate in-flight request ID 7" {
		t.Errorf("a second call 7: status %d, id %s, code %d, message %q", res.StatusCode, id, code, msg)
	}
}

// TestHTTPEarlyRefusals: what the SDK refuses before dispatching it is
// answered as on stdio (TestLineTransportEarlyRefusals), not with HTTP 400
// and a line of text: a request with HTTP 200 and a JSON-RPC error -32600
// carrying its id, in the SDK's words on stdio; a notification with 202
// and no body, as stdio ignores it. A request whose id a request of the
// session not answered yet has gets the stdio transport's answer to it.
func TestHTTPEarlyRefusals(t *testing.T) {
	entered, release := make(chan struct{}, 1), make(chan struct{})
	session := httptest.NewServer(mcpserver.HTTPHandler(func(*http.Request) *mcp.Server {
		return blockingServer(t, entered, release)
	}, mcpserver.HTTPOptions{}))
	t.Cleanup(session.Close)
	stateless := quickstartHTTP(t, mcpserver.HTTPOptions{Stateless: true})
	for name, url := range map[string]string{"session": session.URL, "stateless": stateless.URL} {
		t.Run(name, func(t *testing.T) {
			header := initialized(t, url)
			for _, c := range []struct{ body, id, message string }{
				{`{"jsonrpc":"2.0","id":7,"method":"notifications/initialized"}`, "7", `invalid request: unexpected id for "notifications/initialized"`},
				{`{"jsonrpc":"2.0","id":8,"method":"tools/call"}`, "8", `invalid request: missing required "params"`},
				{`{"jsonrpc":"2.0","id":"i","method":"initialize"}`, `"i"`, `invalid request: missing required "params"`},
			} {
				res, b := post(t, url, c.body, header)
				if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/json" {
					t.Errorf("%s: status %d, %s; want 200 and JSON", c.body, res.StatusCode, res.Header.Get("Content-Type"))
				}
				if id, code, msg := answer(t, res, b); string(id) != c.id || code != jsonrpc.CodeInvalidRequest || msg != c.message {
					t.Errorf("%s: id %s, code %d, message %q; want id %s, %d, %q", c.body, id, code, msg, c.id, jsonrpc.CodeInvalidRequest, c.message)
				}
			}
			for _, body := range []string{`{"jsonrpc":"2.0","method":"tools/list"}`, `{"jsonrpc":"2.0","method":"notifications/progress"}`} {
				if res, b := post(t, url, body, header); res.StatusCode != http.StatusAccepted || len(b) != 0 || res.Header.Get("Content-Type") != "" {
					t.Errorf("%s: status %d, %s, body %q; want 202 and no body", body, res.StatusCode, res.Header.Get("Content-Type"), b)
				}
			}
			if res, b := post(t, url, `{"jsonrpc":"2.0","id":9,"method":"ping"}`, header); res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"result":{}`)) {
				t.Errorf("ping: status %d, body %s", res.StatusCode, b)
			}
		})
	}
	t.Run("id in use", func(t *testing.T) {
		res, b := duplicateCall(t, session.URL, initialized(t, session.URL), entered, release)
		want := "invalid request: id 7 is in use by a request not answered yet; give each request its own id"
		if id, code, msg := answer(t, res, b); res.StatusCode != http.StatusOK || string(id) != "7" || code != jsonrpc.CodeInvalidRequest || msg != want {
			t.Errorf("a second call 7: status %d, id %s, code %d, message %q; want 200, 7, %d, %q", res.StatusCode, id, code, msg, jsonrpc.CodeInvalidRequest, want)
		}
	})
}

// TestHTTPBeforeInitialize: a request without a session (no Mcp-Session-Id
// header) to a server with sessions, other than initialize and ping, is
// answered with HTTP 400, as MCP asks, and a JSON-RPC error -32600
// carrying its id and saying to initialize first, as on stdio
// (TestLineTransportBeforeInitialize); the SDK answered with 200 and an
// error of code 0. ping is served, and so is every request of a server
// without sessions (stateless, or with ServerOptions.GetSessionID giving
// none), which is never initialized.
func TestHTTPBeforeInitialize(t *testing.T) {
	url := quickstartHTTP(t, mcpserver.HTTPOptions{}).URL
	for _, c := range []struct{ body, id, method string }{
		{`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`, "1", "tools/list"},
		{`{"jsonrpc":"2.0","id":"c","method":"tools/call","params":{"name":"list_todos","arguments":{}}}`, `"c"`, "tools/call"},
	} {
		res, b := post(t, url, c.body, map[string]string{"Mcp-Protocol-Version": "2025-06-18"})
		if res.StatusCode != http.StatusBadRequest || res.Header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: status %d, %s; want 400 and JSON", c.body, res.StatusCode, res.Header.Get("Content-Type"))
		}
		want := `invalid request: "` + c.method + `" before initialize; send initialize first, then the Mcp-Session-Id header of its answer with each request (this one has none)`
		if id, code, msg := answer(t, res, b); string(id) != c.id || code != jsonrpc.CodeInvalidRequest || msg != want {
			t.Errorf("%s: id %s, code %d, message %q; want id %s, %d, %q", c.body, id, code, msg, c.id, jsonrpc.CodeInvalidRequest, want)
		}
	}
	if res, b := post(t, url, `{"jsonrpc":"2.0","id":2,"method":"ping"}`, nil); res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"result":{}`)) {
		t.Errorf("ping without a session: status %d, body %s", res.StatusCode, b)
	}
	header := initialized(t, url)
	if res, b := post(t, url, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`, header); res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"create_todo"`)) {
		t.Errorf("tools/list in a session: status %d, body %.200s", res.StatusCode, b)
	}

	stateless := quickstartHTTP(t, mcpserver.HTTPOptions{Stateless: true})
	sessionless := httptest.NewServer(mcpserver.HTTPHandler(func(*http.Request) *mcp.Server {
		s, _ := mcpserver.NewServer("t", "v", quickstart.Tools(&quickstart.Store{}),
			mcpserver.WithServerOptions(&mcp.ServerOptions{GetSessionID: func() string { return "" }}))
		return s
	}, mcpserver.HTTPOptions{}))
	t.Cleanup(sessionless.Close)
	for name, url := range map[string]string{"stateless": stateless.URL, "no session ids": sessionless.URL} {
		if res, b := post(t, url, `{"jsonrpc":"2.0","id":4,"method":"tools/list"}`, nil); res.StatusCode != http.StatusOK || !bytes.Contains(b, []byte(`"create_todo"`)) {
			t.Errorf("%s: tools/list without initialize: status %d, body %.200s", name, res.StatusCode, b)
		}
	}
}
