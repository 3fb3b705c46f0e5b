package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves s over stdin and stdout until the client closes its
// end or ctx is done (cancel it on SIGINT/SIGTERM for a graceful stop).
// A stop through ctx is not an error. A line that is not a JSON-RPC
// message is answered with an error and the session goes on
// (StdioTransport).
//
// Either way it waits for the requests still running up to a grace
// period (WithDrainTimeout; opts other than it and WithStdioLog are
// ignored), then returns, and says on the log how many requests it
// abandoned: a handler that ignores its context does not keep the
// process alive. (Server.Run waits for every handler to return.)
func ServeStdio(ctx context.Context, s *mcp.Server, opts ...Option) error {
	t, g := newLineTransport(os.Stdin, keepOpen{os.Stdout}, newConfig(opts))
	return serveLines(ctx, s, t, g)
}

// serveLines runs s on t, whose guard is g, as ServeStdio describes.
func serveLines(ctx context.Context, s *mcp.Server, t mcp.Transport, g *lineGuard) error {
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx, t) }()
	var err error
	grace := g.out.grace
	select {
	case err = <-done:
	case <-g.abandoned:
		// The SDK has the end of the input and cancelled the requests
		// still running: those that honour their contexts return at
		// once, and the session ends; one that does not is left
		// behind.
		wait := time.NewTimer(min(grace, time.Second))
		defer wait.Stop()
		select {
		case err = <-done:
		case <-wait.C:
		}
	case <-ctx.Done():
		// Run waits for the requests running to end (their contexts are
		// not cancelled by a stop).
		if grace < 0 {
			err = <-done
			break
		}
		wait := time.NewTimer(grace)
		defer wait.Stop()
		select {
		case err = <-done:
		case <-wait.C:
			if n, ids := g.out.runningNow(); n > 0 {
				fmt.Fprintf(g.log, "mcpserver: stopped with %s still running after %v: %s abandoned, unanswered (%s)\n",
					plural(n, "request"), grace, plural2(n, "it was", "they were"), ids)
			}
		}
	}
	if ctx.Err() != nil && (err == nil || errors.Is(err, context.Canceled) || errors.Is(err, ctx.Err())) {
		return nil
	}
	return err
}

// HTTPOptions configure ServeHTTP.
type HTTPOptions struct {
	// Path is where the MCP endpoint answers ("/mcp" when empty); other
	// paths are 404.
	Path string
	// ShutdownTimeout bounds how long a stop waits for calls in flight
	// (10 s when zero); then remaining connections are closed.
	ShutdownTimeout time.Duration
	// Stateless serves without sessions (see mcp.StreamableHTTPOptions).
	Stateless bool
	// SessionTimeout closes sessions idle this long (30 minutes when zero;
	// negative: never), so that a long-running server does not keep the
	// servers of clients that went away.
	SessionTimeout time.Duration
}

// HTTPHandler returns the SDK's streamable HTTP handler behind Go's
// cross-origin protection (browsers' cross-site requests are refused; the
// SDK also refuses DNS-rebound requests to localhost) and guardPOST's
// checks (ids the SDK would misread; messages it refuses before
// dispatching them, and requests before initialize, answered as on stdio
// and as MCP asks). server is called
// once per new session: return the same server to share one tool list, or
// a new one per session so that facades unfold per client.
func HTTPHandler(server func(*http.Request) *mcp.Server, opts HTTPOptions) http.Handler {
	timeout := opts.SessionTimeout
	switch {
	case timeout == 0:
		timeout = 30 * time.Minute
	case timeout < 0:
		timeout = 0
	}
	h := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{Stateless: opts.Stateless, SessionTimeout: timeout})
	return http.NewCrossOriginProtection().Handler(guardPOST(h, opts.Stateless))
}

// guardPOST reads a POSTed body before the SDK does. It refuses a message
// whose id the SDK would read as another (1.5 as 1, a number past 64 bits
// as a negative one) or a request with a null id (read as a notification
// and left unanswered), as the stdio transport does (idProblem): HTTP 400
// with a JSON-RPC error. A request or notification on its own (not in a
// batch) goes to the SDK through a refusalWriter, so that what the SDK
// refuses before dispatching it is answered as on stdio, not with an HTTP
// 400 and a line of text; and, on a stateful server, a request without a
// session (no Mcp-Session-Id header) other than initialize, so that the
// SDK's refusal of it before initialize is answered as MCP asks. Bodies
// past the SDK's limit go to it untouched, to be refused there.
func guardPOST(next http.Handler, stateless bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes+1))
		rest := r.Body
		r.Body = struct {
			io.Reader
			io.Closer
		}{io.MultiReader(bytes.NewReader(body), rest), rest}
		if err != nil || len(body) > mcp.DefaultMaxRequestBodyBytes {
			next.ServeHTTP(w, r)
			return
		}
		if why := bodyIDProblem(body); why != "" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write(errorAnswer(nil, jsonrpc.CodeInvalidRequest, "invalid request: "+why))
			return
		}
		if msg := bytes.TrimSpace(body); !isBatch(msg) {
			if m, err := jsonrpc.DecodeMessage(msg); err == nil {
				if req, ok := m.(*jsonrpc.Request); ok {
					rw := &refusalWriter{ResponseWriter: w, req: req}
					rw.gate = !stateless && req.IsCall() && req.Method != methodInitialize && r.Header.Get(sessionIDHeader) == ""
					next.ServeHTTP(rw, r)
					rw.finish()
					return
				}
			}
		}
		next.ServeHTTP(w, r)
	})
}

// sessionIDHeader carries a streamable HTTP session's id.
const sessionIDHeader = "Mcp-Session-Id"

// bodyIDProblem is idProblem for an HTTP body: one message or a batch.
// A batch is also refused when two of its requests have one id: the SDK
// answered the first and dropped the other without a word.
func bodyIDProblem(body []byte) string {
	body = bytes.TrimSpace(body)
	if !isBatch(body) {
		return idProblem(body)
	}
	var items []json.RawMessage
	if json.Unmarshal(body, &items) != nil {
		return ""
	}
	seen := map[jsonrpc.ID]bool{}
	for i, item := range items {
		if why := idProblem(item); why != "" {
			return fmt.Sprintf("batch item %d: %s", i, why)
		}
		if m, err := jsonrpc.DecodeMessage(item); err == nil {
			if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
				if seen[req.ID] {
					return fmt.Sprintf("batch item %d: %s", i, inUse(req.ID))
				}
				seen[req.ID] = true
			}
		}
	}
	return ""
}

// ServeHTTP serves the MCP streamable HTTP transport on ln at opts.Path
// until ctx is done, then shuts down gracefully: it stops accepting,
// ends the clients' long-lived event streams, lets calls in flight finish
// (up to opts.ShutdownTimeout) and returns nil. server is called once per
// new session (see HTTPHandler).
func ServeHTTP(ctx context.Context, ln net.Listener, server func(*http.Request) *mcp.Server, opts HTTPOptions) error {
	path := opts.Path
	if path == "" {
		path = "/mcp"
	}
	grace := opts.ShutdownTimeout
	if grace <= 0 {
		grace = 10 * time.Second
	}
	// Event streams (GET) and calls (POST) have different fates on
	// shutdown: streams end at once, calls finish. Streams run under
	// streamCtx, cancelled when the stop begins.
	streamCtx, endStreams := context.WithCancel(context.Background())
	defer endStreams()
	mcpHandler := HTTPHandler(server, opts)
	mux := http.NewServeMux()
	mux.Handle(path, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			ctx, cancel := context.WithCancel(r.Context())
			defer cancel()
			stop := context.AfterFunc(streamCtx, cancel)
			defer stop()
			r = r.WithContext(ctx)
		}
		mcpHandler.ServeHTTP(w, r)
	}))
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	endStreams()
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		_ = srv.Close()
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// ListenAndServeHTTP is ServeHTTP on a TCP listener at addr.
func ListenAndServeHTTP(ctx context.Context, addr string, server func(*http.Request) *mcp.Server, opts HTTPOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ServeHTTP(ctx, ln, server, opts)
}
