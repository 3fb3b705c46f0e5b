package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
)

// The refusalWriter passes on what it does not replace as it was written:
// a 400 refusing another method or longer than it holds (flushed only
// once it is passed on), a stream it flushes as it goes, and, watching
// for a refusal before initialize, a 200 whose first event is another
// answer (held until that event is whole, then flushed with the rest).
func TestRefusalWriterPassesOn(t *testing.T) {
	const msg = `{"jsonrpc":"2.0","id":1,"method":"y"}`
	long := strings.Repeat("x", maxRefusal+10)
	sse := func(w http.ResponseWriter) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.WriteHeader(http.StatusOK)
	}
	for _, c := range []struct {
		name    string
		gate    bool
		write   func(w http.ResponseWriter)
		status  int
		body    string
		flushed bool
	}{
		{"another method", false, func(w http.ResponseWriter) {
			http.Error(w, `JSON RPC not handled: "x" unsupported`, http.StatusBadRequest)
		}, http.StatusBadRequest, `JSON RPC not handled: "x" unsupported` + "\n", false},
		{"another method's params", false, func(w http.ResponseWriter) {
			http.Error(w, `invalid request: unexpected id for "x"`, http.StatusBadRequest)
		}, http.StatusBadRequest, `invalid request: unexpected id for "x"` + "\n", false},
		{"another request's id", false, func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"duplicate in-flight request ID 2"}}`))
		}, http.StatusBadRequest, `{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"duplicate in-flight request ID 2"}}`, false},
		{"long refusal", false, func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(long[:100]))
			_, _ = w.Write([]byte(long[100:]))
		}, http.StatusBadRequest, long, false},
		{"flush while held", false, func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			_ = http.NewResponseController(w).Flush() // would send a 200
			_, _ = w.Write([]byte("no"))
		}, http.StatusBadRequest, "no", false},
		{"stream", false, func(w http.ResponseWriter) {
			sse(w)
			_, _ = w.Write([]byte("data: {}\n\n"))
			_ = http.NewResponseController(w).Flush()
			w.WriteHeader(http.StatusBadRequest) // superfluous: not held
		}, http.StatusOK, "data: {}\n\n", true},
		{"gate: another answer, in pieces", true, func(w http.ResponseWriter) {
			sse(w)
			_ = http.NewResponseController(w).Flush() // held: not yet
			_, _ = w.Write([]byte("event: message\ndata: {\"jsonrpc\":\"2.0\","))
			_, _ = w.Write([]byte("\"id\":1,\"result\":{}}\n\n"))
			_ = http.NewResponseController(w).Flush()
			_, _ = w.Write([]byte("data: {}\n\n"))
		}, http.StatusOK, "event: message\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\ndata: {}\n\n", true},
		{"gate: another request's refusal", true, func(w http.ResponseWriter) {
			sse(w)
			_, _ = w.Write([]byte(`data: {"jsonrpc":"2.0","id":2,"error":{"code":0,"message":"method \"y\" is invalid during session initialization"}}` + "\n\n"))
		}, http.StatusOK, `data: {"jsonrpc":"2.0","id":2,"error":{"code":0,"message":"method \"y\" is invalid during session initialization"}}` + "\n\n", false},
		{"gate: no event", true, func(w http.ResponseWriter) {
			sse(w)
			_, _ = w.Write([]byte(": comment\n"))
		}, http.StatusOK, ": comment\n", false},
		{"gate: implicit 200, JSON", true, func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`))
		}, http.StatusOK, `{"jsonrpc":"2.0","id":1,"result":{}}`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			m, err := jsonrpc.DecodeMessage([]byte(msg))
			if err != nil {
				t.Fatal(err)
			}
			rec := httptest.NewRecorder()
			w := &refusalWriter{ResponseWriter: rec, req: m.(*jsonrpc.Request), gate: c.gate}
			c.write(w)
			w.finish()
			if rec.Code != c.status || rec.Body.String() != c.body || rec.Flushed != c.flushed {
				t.Errorf("status %d, body %.80q, flushed %v; want %d, %.80q, %v", rec.Code, rec.Body.String(), rec.Flushed, c.status, c.body, c.flushed)
			}
		})
	}
}

// firstMessage reads the data of an event stream's first event, whatever
// the line ends and however many data lines it has.
func TestFirstMessage(t *testing.T) {
	for _, c := range []struct {
		body, data string
		whole      bool
	}{
		{"event: message\ndata: {}\n\n", "{}", true},
		{"id: 1\r\ndata: {\r\ndata: }\r\n\r\n", "{\n}", true},
		{"event: prime\nid: 1\n\ndata:{}\n\n", "{}", true},
		{"data: {}\n", "", false},
		{"data: {}", "", false},
	} {
		data, whole := firstMessage("text/event-stream", []byte(c.body))
		if string(data) != c.data || whole != c.whole {
			t.Errorf("%q: %q, %v; want %q, %v", c.body, data, whole, c.data, c.whole)
		}
	}
}

// refusedBeforeInitialize recognises the SDK's words, with the method
// quoted as the SDK quotes it, and code 0 only.
func TestRefusedBeforeInitialize(t *testing.T) {
	for _, c := range []struct {
		code    int64
		message string
		method  string
		ok      bool
	}{
		{0, `method "tools/list" is invalid during session initialization`, "tools/list", true},
		{0, `method "a \"b\"\n" is invalid during session initialization`, "a \"b\"\n", true},
		{0, `"tools/list" is invalid during session initialization`, "", false},
		{0, "method `x` is invalid during session initialization", "", false},
		{0, `method "x" is invalid`, "", false},
		{jsonrpc.CodeInvalidRequest, `method "x" is invalid during session initialization`, "", false},
	} {
		method, ok := refusedBeforeInitialize(&jsonrpc.Response{Error: &jsonrpc.Error{Code: c.code, Message: c.message}})
		if method != c.method || ok != c.ok {
			t.Errorf("%d %q: %q, %v; want %q, %v", c.code, c.message, method, ok, c.method, c.ok)
		}
	}
}
