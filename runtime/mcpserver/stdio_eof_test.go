package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

const (
	initializeLine  = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`
	initializedLine = `{"jsonrpc":"2.0","method":"notifications/initialized"}`
)

// syncBuffer is an output the test may read while the server writes.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) Close() error { return nil }

func (b *syncBuffer) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return strings.Split(strings.TrimSuffix(b.buf.String(), "\n"), "\n")
}

// piped runs server on the guarded transport with input as the client's
// whole input, ended (EOF) right after its last line, as when a file of
// requests is piped in; it returns what the server wrote, by id (as
// JSON), once Run returned, which must be without an error and in time.
func piped(t *testing.T, server *mcp.Server, input io.Reader, out io.WriteCloser) map[string]string {
	t.Helper()
	var buf *syncBuffer
	if out == nil {
		buf = &syncBuffer{}
		out = buf
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, NewLineTransport(io.NopCloser(input), out)) }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Run: %v", err)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("the server did not stop after its input ended")
	}
	if buf == nil {
		return nil
	}
	got := map[string]string{}
	for _, line := range buf.lines() {
		if line == "" {
			continue
		}
		var m struct{ ID json.RawMessage }
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			got["batch"] = line // an array: no id of its own
			continue
		}
		got[string(m.ID)] = line
	}
	return got
}

// lines joins requests into a client's input.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

// Every request read before the input ended is answered, and Run then
// returns nil: the SDK stopped writing at the end of the input (a read
// error ends its connection: it cancels the requests in flight and
// refuses every later write), so that a file of requests piped into the
// server got no answer at all, often not even to initialize.
func TestLineTransportAnswersAfterEOF(t *testing.T) {
	for i := range 20 { // the SDK's loss depended on timing
		server, err := NewServer("t", "v0", []runtime.Tool{{
			Name:        "slow",
			Description: "Takes a while.",
			Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
				select {
				case <-time.After(50 * time.Millisecond):
					return runtime.Result{Success: true, Message: "slow done"}, nil
				case <-ctx.Done():
					return runtime.Result{Success: false, Message: "cancelled"}, nil
				}
			},
		}})
		if err != nil {
			t.Fatal(err)
		}
		got := piped(t, server, strings.NewReader(lines(
			initializeLine,
			initializedLine,
			`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":4,"method":"ping"}`,
			`not json`,
		)), nil)
		want := map[string]string{
			"1":    `"serverInfo":{"name":"t","version":"v0"}`,
			"2":    `"name":"slow"`,
			"3":    `"text":"slow done"`,
			"4":    `{"jsonrpc":"2.0","id":4,"result":{}}`,
			"null": `"code":-32700`,
		}
		for id, w := range want {
			if !strings.Contains(got[id], w) {
				t.Fatalf("run %d: answer to %s: %q, want one with %s (all: %q)", i, id, got[id], w, got)
			}
		}
		if len(got) != len(want) {
			t.Errorf("run %d: answers %q", i, got)
		}
	}
}

// A request still running when the input ends finishes and is answered:
// its context is not cancelled by the end of the input.
func TestLineTransportFinishesCallsAfterEOF(t *testing.T) {
	entered, release := make(chan struct{}), make(chan struct{})
	cancelled := make(chan bool, 1)
	server, err := NewServer("t", "v0", []runtime.Tool{{
		Name:        "wait",
		Description: "Waits.",
		Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
			close(entered)
			select {
			case <-release:
				cancelled <- false
				return runtime.Result{Success: true, Message: "released"}, nil
			case <-ctx.Done():
				cancelled <- true
				return runtime.Result{Success: false, Message: "cancelled"}, nil
			}
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	in := strings.NewReader(lines(initializeLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"wait","arguments":{}}}`))
	go func() {
		select {
		case <-entered:
			// Long enough for the guard to read to the end of the input.
			time.Sleep(100 * time.Millisecond)
		case <-time.After(5 * time.Second):
		}
		close(release)
	}()
	got := piped(t, server, in, nil)
	select {
	case c := <-cancelled:
		if c {
			t.Error("the call was cancelled when the input ended")
		}
	default:
		t.Error("the call did not run")
	}
	if !strings.Contains(got["2"], `"text":"released"`) {
		t.Errorf("answer to the call: %q (all: %q)", got["2"], got)
	}
}

// A batch read before the end is answered as one array.
func TestLineTransportBatchAfterEOF(t *testing.T) {
	server, err := NewServer("t", "v0", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := piped(t, server, strings.NewReader(lines(
		strings.Replace(initializeLine, "2025-06-18", "2025-03-26", 1),
		initializedLine,
		`[{"jsonrpc":"2.0","id":2,"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
	)), nil)
	if !strings.HasPrefix(got["batch"], `[{"jsonrpc":"2.0","id":2,"result":{}},{"jsonrpc":"2.0","id":3,"result":{`) {
		t.Errorf("batch answer %q (all: %q)", got["batch"], got)
	}
}

// A call the server makes to the client (roots/list here) while the
// input has ended fails at once, as the client cannot answer it, rather
// than hold the server up forever; the request that made it is answered.
func TestLineTransportCallsToClientAfterEOF(t *testing.T) {
	server, err := NewServer("t", "v0", []runtime.Tool{{
		Name:        "roots",
		Description: "Lists the client's roots.",
		Handler: func(ctx context.Context, tc runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
			ss, _ := tc.Session().(*mcp.ServerSession)
			if ss == nil {
				return runtime.Result{Success: false, Message: "no session"}, nil
			}
			// Roots is deprecated but still served; any call the server
			// makes to the client is what is tested.
			_, err := ss.ListRoots(ctx, nil) //lint:ignore SA1019 a server-to-client call, still functional
			if !errors.Is(err, mcp.ErrConnectionClosed) {
				return runtime.Result{Success: false, Message: "ListRoots: unexpected error " + errString(err)}, nil
			}
			return runtime.Result{Success: true, Message: "no roots: " + err.Error()}, nil
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	init := strings.Replace(initializeLine, `"capabilities":{}`, `"capabilities":{"roots":{}}`, 1)
	out := &syncBuffer{}
	piped(t, server, strings.NewReader(lines(init, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"roots","arguments":{}}}`)), out)
	var answer string
	for _, l := range out.lines() {
		if strings.Contains(l, `"id":2,"result"`) {
			answer = l
		}
	}
	if !strings.Contains(answer, "no roots: connection closed") {
		t.Errorf("answer to the call: %q\nall:\n%s", answer, strings.Join(out.lines(), "\n"))
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

// A subscriptions/listen request, which the SDK serves until it is
// cancelled, does not keep the server from stopping: once the requests
// beside it are answered, it is ended and answered too.
func TestLineTransportListenAtEOF(t *testing.T) {
	server, err := NewServer("t", "v0", []runtime.Tool{{
		Name:        "noop",
		Description: "Does nothing.",
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true}, nil
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}`
	got := piped(t, server, strings.NewReader(lines(
		`{"jsonrpc":"2.0","id":1,"method":"subscriptions/listen","params":{`+meta+`,"notifications":{"toolsListChanged":true}}}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{`+meta+`}}`,
	)), nil)
	if !strings.Contains(got["2"], `"name":"noop"`) {
		t.Errorf("answer to tools/list: %q (all: %q)", got["2"], got)
	}
	// A result when the subscription was in place, an error when the
	// input ended before the SDK started it.
	if !strings.Contains(got["1"], `"result":{`) && !strings.Contains(got["1"], `"error":{`) {
		t.Errorf("answer to subscriptions/listen: %q (all: %q)", got["1"], got)
	}
}

// failingWriter fails every write after the first n.
type failingWriter struct {
	mu sync.Mutex
	n  int
}

func (w *failingWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == 0 {
		return 0, errors.New("broken pipe")
	}
	w.n--
	return len(p), nil
}

func (w *failingWriter) Close() error { return nil }

// When the output fails, the answers still owed cannot be written: the
// server stops rather than wait for them.
func TestLineTransportBrokenOutputAtEOF(t *testing.T) {
	server, err := NewServer("t", "v0", []runtime.Tool{{
		Name:        "slow",
		Description: "Takes a while.",
		Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
			time.Sleep(20 * time.Millisecond)
			return runtime.Result{Success: true, Message: "done"}, nil
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	in := strings.NewReader(lines(initializeLine, initializedLine,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}`))
	done := make(chan error, 1)
	go func() { done <- server.Run(ctx, NewLineTransport(io.NopCloser(in), &failingWriter{n: 1})) }()
	select {
	case <-done: // an error, the output's
	case <-ctx.Done():
		t.Fatal("the server did not stop after its output failed")
	}
}
