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
	"strings"
	"sync"
	"sync/atomic"
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
	// BodyTimeout bounds how long a request's body may take to arrive,
	// from the start of its handling (30 s when zero; negative: no
	// bound). A client that sends its headers and then its body a byte
	// at a time, or never, is answered 408 and its connection closed,
	// rather than holding a connection and a goroutine for ever. Event
	// streams (GET without a body) are not bounded by it.
	BodyTimeout time.Duration
	// IdleTimeout closes a keep-alive connection that has sent no new
	// request for this long (2 minutes when zero; negative: never), so
	// that idle connections do not pile up (ServeHTTP only: a server of
	// your own sets its own).
	IdleTimeout time.Duration
	// MaxSessions bounds the sessions open at once on a stateful server
	// (10,000 when zero; negative: no bound). A request that would open
	// one more is answered 503: each costs a goroutine and a server's
	// state (about 10 KB for the ontology example's gateway) until it is
	// closed or SessionTimeout passes, and an initialize request is all
	// it takes to open one.
	MaxSessions int
	// WriteTimeout bounds each write of an answer to a client, and each
	// flush (30 s when zero; negative: no bound): a client that stops
	// reading, with its connection's buffers full, has its connection
	// closed, rather than holding it and the goroutine writing to it for
	// ever. It does not bound a whole answer, so event streams live on.
	// HTTPHandler sets the connection's write deadline itself: a server
	// of your own should leave its WriteTimeout unset.
	WriteTimeout time.Duration
	// MaxRequests bounds the requests other than event streams (calls,
	// initializations, notifications) served at once, across sessions
	// (256 when zero; negative: no bound). One more is answered 503 with
	// Retry-After: each holds a goroutine and its body (up to a few MB)
	// while it runs, and a client may send any number at once, in one
	// session or many.
	MaxRequests int
	// AllowedHosts are the host names (the Host header without its port,
	// any case) the server answers; a request naming another is refused
	// with 403. Empty: any host, but for the SDK's own check of requests
	// reaching a loopback address. Set it for a server on a private
	// network address: a web page whose name is rebound to that address
	// (DNS rebinding) would otherwise reach it as a same-origin request.
	AllowedHosts []string
}

// hostAllowed reports whether the Host of r (without its port) is one of
// allowed, or allowed is empty.
func hostAllowed(r *http.Request, allowed []string) bool {
	if len(allowed) == 0 {
		return true
	}
	host := r.Host
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSuffix(host, "]"), "["), ".")
	for _, a := range allowed {
		if strings.EqualFold(host, strings.TrimSuffix(a, ".")) {
			return true
		}
	}
	return false
}

// bound is an HTTPOptions duration d as used: def when d is zero, and 0
// (no bound) when d is negative.
func bound(d, def time.Duration) time.Duration {
	switch {
	case d == 0:
		return def
	case d < 0:
		return 0
	}
	return d
}

// writeTimeout is opts.WriteTimeout with its default (0: no bound).
func (opts HTTPOptions) writeTimeout() time.Duration { return bound(opts.WriteTimeout, 30*time.Second) }

// deadlineWriter bounds each Write and Flush to its ResponseWriter by d
// (net/http's WriteTimeout bounds a whole answer, an event stream with it).
type deadlineWriter struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (w *deadlineWriter) Write(p []byte) (int, error) {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	defer w.rc.SetWriteDeadline(time.Time{})
	return w.ResponseWriter.Write(p)
}

func (w *deadlineWriter) FlushError() error {
	_ = w.rc.SetWriteDeadline(time.Now().Add(w.d))
	defer w.rc.SetWriteDeadline(time.Time{})
	return w.rc.Flush()
}

func (w *deadlineWriter) Flush() { _ = w.FlushError() }

// Unwrap gives http.ResponseController the writer underneath.
func (w *deadlineWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// bodyTimeout is opts.BodyTimeout with its default (0: no bound).
func (opts HTTPOptions) bodyTimeout() time.Duration { return bound(opts.BodyTimeout, 30*time.Second) }

// HTTPHandler returns the SDK's streamable HTTP handler behind Go's
// cross-origin protection (browsers' cross-site requests are refused; the
// SDK also refuses DNS-rebound requests to localhost) and guardPOST's
// checks (ids the SDK would misread; messages it refuses before
// dispatching them, and requests before initialize, answered as on stdio
// and as MCP asks), with a request's body and each write of an answer
// bounded in time (HTTPOptions.BodyTimeout, WriteTimeout). server is
// called once per new session: return the same server to share one tool list, or
// a new one per session so that facades unfold per client. (The SDK asks
// for a server on every request, to read the protocol versions it
// supports: a request that opens no session is given the first server
// built, rather than having server build one for it.)
func HTTPHandler(server func(*http.Request) *mcp.Server, opts HTTPOptions) http.Handler {
	return newHTTPHandler(server, opts).Handler
}

// httpHandler is HTTPHandler with what ServeHTTP needs to stop it.
type httpHandler struct {
	http.Handler
	// running counts the requests other than event streams being served
	// (those MaxRequests bounds, counted when it does not too), which
	// ServeHTTP reads when a stop cuts them off.
	running *atomic.Int64
	// open holds the servers built for sessions (nil when stateless,
	// whose sessions end with their request).
	open *openSessions
}

// closeSessions closes the sessions opened through h, which the SDK
// would otherwise keep until SessionTimeout, waiting for them until ctx
// is done.
func (h httpHandler) closeSessions(ctx context.Context) {
	if h.open != nil {
		h.open.closeAll(ctx)
	}
}

func newHTTPHandler(server func(*http.Request) *mcp.Server, opts HTTPOptions) httpHandler {
	timeout := bound(opts.SessionTimeout, 30*time.Minute)
	maxSessions := opts.MaxSessions
	switch {
	case maxSessions == 0:
		maxSessions = 10_000
	case maxSessions < 0 || opts.Stateless:
		maxSessions = 0
	}
	var open *openSessions // nil: stateless, nothing to count or close
	if !opts.Stateless {
		open = &openSessions{servers: map[*mcp.Server]int{}, ids: map[string]bool{}}
	}
	h := mcp.NewStreamableHTTPHandler(oncePerSession(server, open), &mcp.StreamableHTTPOptions{Stateless: opts.Stateless, SessionTimeout: timeout})
	guarded := guardPOST(h, opts.Stateless, opts.bodyTimeout())
	writeTimeout := opts.writeTimeout()
	maxRequests := int64(opts.MaxRequests)
	if maxRequests == 0 {
		maxRequests = 256
	}
	running := new(atomic.Int64)
	return httpHandler{Handler: http.NewCrossOriginProtection().Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r, opts.AllowedHosts) {
			http.Error(w, "host not allowed (HTTPOptions.AllowedHosts)", http.StatusForbidden)
			return
		}
		if r.Method != http.MethodGet {
			if n := running.Add(1); maxRequests > 0 && n > maxRequests {
				running.Add(-1)
				w.Header().Set("Connection", "close") // the body is not read
				w.Header().Set("Retry-After", "1")
				http.Error(w, fmt.Sprintf("too many requests running (%d, HTTPOptions.MaxRequests); try again later", maxRequests), http.StatusServiceUnavailable)
				return
			}
			defer running.Add(-1)
		}
		if writeTimeout > 0 {
			// Unbounded between writes (a deadline left from the last
			// request on the connection would fail this one's); bounded
			// for what net/http writes once the handler returns.
			dw := &deadlineWriter{ResponseWriter: w, rc: http.NewResponseController(w), d: writeTimeout}
			_ = dw.rc.SetWriteDeadline(time.Time{})
			defer func() { _ = dw.rc.SetWriteDeadline(time.Now().Add(writeTimeout)) }()
			w = dw
		}
		// A POST opens a session when it has none (every POST, on a
		// stateless server).
		slot := &serverSlot{opens: r.Method == http.MethodPost && (opts.Stateless || r.Header.Get(sessionIDHeader) == "")}
		if slot.opens && open != nil {
			if n, ok := open.reserve(maxSessions); !ok {
				// Connection: close, so that net/http does not wait for
				// the unread body.
				w.Header().Set("Connection", "close")
				http.Error(w, fmt.Sprintf("too many sessions open (%d); try again later", n), http.StatusServiceUnavailable)
				return
			}
			defer open.release(slot)
		}
		guarded.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), serverSlotKey{}, slot)))
		if id := w.Header().Get(sessionIDHeader); slot.opens && open != nil && id != "" {
			open.opened(id)
		}
	})), running: running, open: open}
}

// serverSlotKey is the context key of a request's serverSlot.
type serverSlotKey struct{}

// serverSlot holds the server given for one HTTP request.
type serverSlot struct {
	opens bool // the request opens a session
	s     *mcp.Server
	built bool // s was built for the request (and noted in openSessions)
}

// openSessions counts the sessions open on the servers server built
// (their Sessions), and the requests opening one (pending).
type openSessions struct {
	mu sync.Mutex
	// servers maps each server built for a request opening a session to
	// the number of such requests in flight that it serves.
	servers map[*mcp.Server]int
	pending int
	// ids are the sessions opened through this handler: a server may
	// serve others too (on another listener, or stdio).
	ids map[string]bool
	// kept is the number of servers left after the last prune.
	kept int
}

// reserve counts a request about to open a session, when fewer than
// limit (if above 0) are open or being opened; else it returns their
// number and false.
func (o *openSessions) reserve(limit int) (int, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := o.pending
	if limit > 0 {
		for s, requests := range o.servers {
			k := 0
			for range s.Sessions() {
				k++
			}
			if k == 0 && requests == 0 {
				delete(o.servers, s) // its sessions are closed
			}
			n += k
		}
		if n >= limit {
			return n, false
		}
	}
	o.pending++
	return n, true
}

// built notes that s serves a request opening a session. Servers whose
// sessions are all closed are forgotten each time the map has doubled
// since the last time, so that it stays within twice the servers in use
// when reserve does not count them.
func (o *openSessions) built(s *mcp.Server) {
	if s == nil {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	o.servers[s]++
	if len(o.servers)+len(o.ids) > 2*max(o.kept, 16) {
		o.prune()
	}
}

// opened notes the id of a session a request opened.
func (o *openSessions) opened(id string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.ids[id] = true
	if len(o.servers)+len(o.ids) > 2*max(o.kept, 16) {
		o.prune()
	}
}

// prune forgets the sessions closed and the servers without sessions or
// requests in flight.
func (o *openSessions) prune() {
	live := make(map[string]bool, len(o.ids))
	for s, requests := range o.servers {
		open := false
		for ss := range s.Sessions() {
			open = true
			if id := ss.ID(); o.ids[id] {
				live[id] = true
			}
		}
		if !open && requests == 0 {
			delete(o.servers, s)
		}
	}
	o.ids = live
	o.kept = len(o.servers) + len(o.ids)
}

// closeAll closes the sessions opened through the handler, and waits for
// them until ctx is done: a session closes once its calls in flight
// return, which a handler ignoring its context may never do.
func (o *openSessions) closeAll(ctx context.Context) {
	var wg sync.WaitGroup
	o.mu.Lock()
	for s := range o.servers {
		for ss := range s.Sessions() {
			if o.ids[ss.ID()] {
				wg.Go(func() { _ = ss.Close() })
			}
		}
	}
	o.mu.Unlock()
	done := make(chan struct{})
	go func() {
		wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
	}
}

// release notes that the request of slot, which reserve counted, is done:
// a session it opened is counted on its server from now on.
func (o *openSessions) release(slot *serverSlot) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.pending--
	if slot.s != nil {
		if _, ok := o.servers[slot.s]; ok && slot.built {
			o.servers[slot.s]--
		}
	}
}

// oncePerSession wraps server for the SDK's handler, which calls it on
// every request (to read the protocol versions the server supports),
// and twice on one that opens a session: the ontology example built a
// whole server for each tools/call. A request that opens a session has
// server called once; any other is given the first server built (only
// its protocol versions are read).
// Servers built for a request opening a session are noted in open
// (unless nil).
func oncePerSession(server func(*http.Request) *mcp.Server, open *openSessions) func(*http.Request) *mcp.Server {
	var mu sync.Mutex
	var first *mcp.Server
	return func(r *http.Request) *mcp.Server {
		slot, ok := r.Context().Value(serverSlotKey{}).(*serverSlot)
		if !ok {
			return server(r)
		}
		if slot.s != nil {
			return slot.s
		}
		mu.Lock()
		probe := first
		mu.Unlock()
		if slot.opens || probe == nil {
			slot.s = server(r)
			if slot.opens && open != nil {
				slot.built = true
				open.built(slot.s)
			}
			mu.Lock()
			if first == nil {
				first = slot.s
			}
			mu.Unlock()
			return slot.s
		}
		slot.s = probe
		return probe
	}
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
//
// A request with a body must have sent it within bodyTimeout (0: no
// bound) of its handling's start, else it is answered 408 and its
// connection closed: net/http bounds the headers (ReadHeaderTimeout) but
// not the body, and a client that never sent the body it announced held
// its connection and this goroutine for ever (on a GET or a refused
// request too, whose unread body net/http drains before answering). The
// bound is lifted once a POST's body is read, as its answer may be a
// long event stream.
func guardPOST(next http.Handler, stateless bool, bodyTimeout time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rc := http.NewResponseController(w)
		bounded := bodyTimeout > 0 && r.Body != nil && r.Body != http.NoBody
		if bounded {
			_ = rc.SetReadDeadline(time.Now().Add(bodyTimeout))
		}
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes+1))
		if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
			w.Header().Set("Connection", "close")
			http.Error(w, fmt.Sprintf("request body not received within %v", bodyTimeout), http.StatusRequestTimeout)
			return
		}
		if bounded && err == nil && len(body) <= mcp.DefaultMaxRequestBodyBytes {
			_ = rc.SetReadDeadline(time.Time{})
		}
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
// (up to opts.ShutdownTimeout), closes the sessions it opened and returns
// nil, or an error that counts the requests still running then, which are
// cut off. server is called once per new session (see HTTPHandler).
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
	mcpHandler := newHTTPHandler(server, opts)
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
	// A negative IdleTimeout is no bound (net/http would take it for a
	// deadline already past).
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: bound(opts.IdleTimeout, 2*time.Minute)}
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
	var cut error
	if err := srv.Shutdown(sctx); err != nil {
		n := int(mcpHandler.running.Load())
		_ = srv.Close()
		if n > 0 {
			cut = fmt.Errorf("mcpserver: stopped with %s still running after the %v shutdown timeout (HTTPOptions.ShutdownTimeout); %s cut off", plural(n, "request"), grace, plural2(n, "it was", "they were"))
		}
	}
	// The SDK keeps a session until it is deleted or times out: one a
	// client left open would outlive the server.
	mcpHandler.closeSessions(sctx)
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return cut
}

// ListenAndServeHTTP is ServeHTTP on a TCP listener at addr.
func ListenAndServeHTTP(ctx context.Context, addr string, server func(*http.Request) *mcp.Server, opts HTTPOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return ServeHTTP(ctx, ln, server, opts)
}
