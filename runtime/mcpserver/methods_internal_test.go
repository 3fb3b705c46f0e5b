package mcpserver

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// The refusalWriter passes on what it does not replace as it was written:
// a 400 refusing another method or longer than it holds (flushed only
// once it is passed on), and a stream it flushes as it goes.
func TestRefusalWriterPassesOn(t *testing.T) {
	const msg = `{"jsonrpc":"2.0","id":1,"method":"y"}`
	long := strings.Repeat("x", maxRefusal+10)
	for _, c := range []struct {
		name    string
		write   func(w http.ResponseWriter)
		status  int
		body    string
		flushed bool
	}{
		{"another method", func(w http.ResponseWriter) {
			http.Error(w, `JSON RPC not handled: "x" unsupported`, http.StatusBadRequest)
		}, http.StatusBadRequest, `JSON RPC not handled: "x" unsupported` + "\n", false},
		{"long refusal", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(long[:100]))
			_, _ = w.Write([]byte(long[100:]))
		}, http.StatusBadRequest, long, false},
		{"flush while held", func(w http.ResponseWriter) {
			w.WriteHeader(http.StatusBadRequest)
			_ = http.NewResponseController(w).Flush() // would send a 200
			_, _ = w.Write([]byte("no"))
		}, http.StatusBadRequest, "no", false},
		{"stream", func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte("data: {}\n\n"))
			_ = http.NewResponseController(w).Flush()
			w.WriteHeader(http.StatusBadRequest) // superfluous: not held
		}, http.StatusOK, "data: {}\n\n", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			w := &refusalWriter{ResponseWriter: rec}
			c.write(w)
			w.finish([]byte(msg))
			if rec.Code != c.status || rec.Body.String() != c.body || rec.Flushed != c.flushed {
				t.Errorf("status %d, body %.80q, flushed %v; want %d, %.80q, %v", rec.Code, rec.Body.String(), rec.Flushed, c.status, c.body, c.flushed)
			}
		})
	}
}
