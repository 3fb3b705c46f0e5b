package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// drainServer serves "stuck", whose handler ignores its context and
// returns only once the test ends, "quick", which answers after 10 ms,
// and "patient", which returns when its context is cancelled. started
// receives the name of each handler as it starts.
func drainServer(t *testing.T) (server *mcp.Server, started chan string, cancelled chan string) {
	t.Helper()
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	started, cancelled = make(chan string, 8), make(chan string, 8)
	server, err := NewServer("t", "v0", []runtime.Tool{
		{Name: "stuck", Description: "Ignores its context.",
			Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				started <- "stuck"
				<-release
				return runtime.Result{Success: true, Message: "stuck done"}, nil
			}},
		{Name: "quick", Description: "Answers after 10 ms.",
			Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
				started <- "quick"
				select {
				case <-time.After(10 * time.Millisecond):
					return runtime.Result{Success: true, Message: "quick done"}, nil
				case <-ctx.Done():
					cancelled <- "quick"
					return runtime.Result{Success: false, Message: "cancelled"}, nil
				}
			}},
		{Name: "patient", Description: "Returns when its context is cancelled.",
			Handler: func(ctx context.Context, _ runtime.ToolContext, _ json.RawMessage) (runtime.Result, error) {
				started <- "patient"
				<-ctx.Done()
				cancelled <- "patient"
				return runtime.Result{Success: false, Message: "cancelled"}, nil
			}},
	})
	if err != nil {
		t.Fatal(err)
	}
	return server, started, cancelled
}

func call(id int, tool string) string {
	return `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":{}}}`
}

// finish waits for done, for at most limit, and returns how long that
// took since start.
func finish(t *testing.T, done <-chan error, start time.Time, limit time.Duration) time.Duration {
	t.Helper()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(limit):
		t.Fatalf("still serving %v later", limit)
	}
	return time.Since(start)
}

// drainSession runs serve, which serves one session writing its answers
// to out and its log to log, and waits for it to return (at most 10 s).
// It returns how long that took, the answers and the log, one line each.
func drainSession(t *testing.T, serve func(out, log *syncBuffer) error) (took time.Duration, answers, logged string) {
	t.Helper()
	out, log := &syncBuffer{}, &syncBuffer{}
	start := time.Now()
	done := make(chan error, 1)
	go func() { done <- serve(out, log) }()
	took = finish(t, done, start, 10*time.Second)
	return took, strings.Join(out.lines(), "\n"), strings.Join(log.lines(), "\n")
}

// viaServeLines serves in with ServeStdio's loop (serveLines) and opts.
func viaServeLines(server *mcp.Server, in string, opts ...Option) func(out, log *syncBuffer) error {
	return func(out, log *syncBuffer) error {
		tr, g := newLineTransport(io.NopCloser(strings.NewReader(in)), out, newConfig(append(opts, WithStdioLog(log))))
		return serveLines(context.Background(), server, tr, g)
	}
}

// A handler that ignores its context no longer keeps ServeStdio serving
// for ever once the input has ended: after the grace period, the
// requests still running are abandoned and said so on the log, and the
// requests that finished within it are answered.
func TestDrainAbandonsCallIgnoringContext(t *testing.T) {
	server, _, _ := drainServer(t)
	const grace = time.Second // the quick call ends well within it, even under -race on a loaded machine
	in := lines(initializeLine, initializedLine, call(2, "stuck"), call(3, "quick"))
	took, all, log := drainSession(t, viaServeLines(server, in, WithDrainTimeout(grace)))
	if took < grace {
		t.Errorf("returned after %v, before the grace of %v", took, grace)
	}
	if !strings.Contains(all, `"id":3,"result"`) || !strings.Contains(all, "quick done") {
		t.Errorf("no answer to the request that finished within the grace:\n%s", all)
	}
	if strings.Contains(all, `"id":2,`) {
		t.Errorf("the abandoned request was answered:\n%s", all)
	}
	want := "mcpserver: the input ended and 1 request still running after 1s was abandoned, unanswered, its context cancelled (id 2)"
	if log != want {
		t.Errorf("log:\n%s\nwant:\n%s", log, want)
	}
}

// With Server.Run and NewLineTransport, the grace period ends by
// cancelling the contexts of the requests still running: a handler that
// honours its context then returns, and Run returns.
func TestDrainCancelsCallsAfterGrace(t *testing.T) {
	server, started, cancelled := drainServer(t)
	in := strings.NewReader(lines(initializeLine, initializedLine, call(2, "patient"), call(3, "patient"), call(4, "quick")))
	const grace = time.Second
	took, all, log := drainSession(t, func(out, log *syncBuffer) error {
		return server.Run(context.Background(), NewLineTransport(io.NopCloser(in), out, WithDrainTimeout(grace), WithStdioLog(log)))
	})
	if took < grace {
		t.Errorf("returned after %v, before the grace of %v", took, grace)
	}
	if n := len(cancelled); n != 2 {
		t.Errorf("%d handlers saw their contexts cancelled, want 2 (started: %d)", n, len(started))
	}
	if !strings.Contains(all, "quick done") || strings.Contains(all, `"id":2,`) || strings.Contains(all, `"id":3,`) {
		t.Errorf("answers:\n%s", all)
	}
	want := "mcpserver: the input ended and 2 requests still running after 1s were abandoned, unanswered, their contexts cancelled (ids 2, 3)"
	if log != want {
		t.Errorf("log:\n%s\nwant:\n%s", log, want)
	}
}

// Requests that finish within the grace period are answered, the session
// ends as soon as they are, and nothing is logged.
func TestDrainWaitsWithinGrace(t *testing.T) {
	server, _, cancelled := drainServer(t)
	in := lines(initializeLine, initializedLine, call(2, "quick"), call(3, "quick"))
	took, all, log := drainSession(t, viaServeLines(server, in, WithDrainTimeout(5*time.Second)))
	if took > 4*time.Second {
		t.Errorf("returned after %v: the wait lasted to the end of the grace", took)
	}
	if strings.Count(all, "quick done") != 2 || len(cancelled) != 0 {
		t.Errorf("answers (%d cancelled):\n%s", len(cancelled), all)
	}
	if log != "" {
		t.Errorf("log: %q", log)
	}
}

// A stop through ServeStdio's context, with the input still open, waits
// for the requests running up to the grace period too, then returns nil.
func TestDrainBoundsStop(t *testing.T) {
	server, started, _ := drainServer(t)
	out, log := &syncBuffer{}, &syncBuffer{}
	r, w := io.Pipe()
	defer w.Close()
	const grace = 200 * time.Millisecond
	tr, g := newLineTransport(r, out, newConfig([]Option{WithDrainTimeout(grace), WithStdioLog(log)}))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- serveLines(ctx, server, tr, g) }()
	go func() { _, _ = io.WriteString(w, lines(initializeLine, initializedLine, call(2, "stuck"))) }()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the handler did not start")
	}
	start := time.Now()
	cancel()
	if took := finish(t, done, start, 10*time.Second); took < grace {
		t.Errorf("returned after %v, before the grace of %v", took, grace)
	}
	want := "mcpserver: stopped with 1 request still running after 200ms: it was abandoned, unanswered (id 2)"
	if got := strings.Join(log.lines(), "\n"); got != want {
		t.Errorf("log:\n%s\nwant:\n%s", got, want)
	}
}
