// Package replaytest serves recorded provider conversations over httptest
// for the adapter tests: each turn of a fixture holds the request body the
// SDK must send and the response body the server answers with.
package replaytest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Fixture is one conversation: the endpoint path and its turns in order.
type Fixture struct {
	Doc   string `json:"doc,omitempty"`
	Path  string `json:"path"`
	Turns []Turn `json:"turns"`
}

// Turn is one request the client must send and the response it gets.
type Turn struct {
	Request  json.RawMessage `json:"request"`
	Response json.RawMessage `json:"response"`
}

// Serve starts a server replaying the fixture in file. Every request must
// equal the next turn's request as JSON (member order and spacing aside);
// a mismatch fails t with a diff. When the test ends every turn must have
// been used. With update set the requests received are written back into
// file instead of being compared.
func Serve(t *testing.T, file string, update bool) *httptest.Server {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var fx Fixture
	if err := json.Unmarshal(data, &fx); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	var mu sync.Mutex
	next := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, _ := io.ReadAll(r.Body)
		if r.Method != http.MethodPost || r.URL.Path != fx.Path {
			t.Errorf("%s: request %d: %s %s, want POST %s", file, next+1, r.Method, r.URL.Path, fx.Path)
		}
		if next >= len(fx.Turns) {
			t.Errorf("%s: request %d beyond the %d turns:\n%s", file, next+1, len(fx.Turns), body)
			http.Error(w, `{"error":{"message":"no more turns"}}`, http.StatusBadRequest)
			return
		}
		turn := &fx.Turns[next]
		next++
		if update {
			if !json.Valid(body) {
				t.Errorf("%s: request %d is not JSON:\n%s", file, next, body)
			}
			turn.Request = body
		} else if diff := Diff(turn.Request, body); diff != "" {
			t.Errorf("%s: request %d (-want +got):\n%s", file, next, diff)
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(turn.Response)
	}))
	t.Cleanup(func() {
		srv.Close()
		mu.Lock()
		defer mu.Unlock()
		if next != len(fx.Turns) {
			t.Errorf("%s: %d of %d turns used", file, next, len(fx.Turns))
		}
		if update {
			out, err := json.MarshalIndent(fx, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, append(out, '\n'), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
	return srv
}

// Diff compares two JSON documents by value; "" when equal.
func Diff(want, got []byte) string {
	var w, g any
	if err := json.Unmarshal(want, &w); err != nil {
		return "fixture request is not JSON: " + err.Error()
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return "request is not JSON: " + err.Error() + "\n" + string(got)
	}
	return cmp.Diff(w, g)
}
