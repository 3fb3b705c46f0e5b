package mcpserver

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// MaxLineLength bounds one message on the stdio transport (the SDK's
// own default): a longer line is answered with an error and skipped.
const MaxLineLength = mcp.DefaultMaxLineLength

// StdioTransport is the MCP stdio transport over the process's standard
// input and output, guarded (see NewLineTransport; opts: WithDrainTimeout
// and WithStdioLog, the others are ignored).
// Standard output stays open when the session ends, as with the SDK's
// own stdio transport.
func StdioTransport(opts ...Option) mcp.Transport {
	return NewLineTransport(os.Stdin, keepOpen{os.Stdout}, opts...)
}

// keepOpen is a writer whose Close does nothing.
type keepOpen struct{ io.Writer }

func (keepOpen) Close() error { return nil }

// NewLineTransport serves newline-delimited JSON-RPC on r and w, as the
// SDK's IOTransport does, except that a line the SDK could not take does
// not end the session. The SDK stops reading at the first line that is
// not JSON, not a JSON-RPC 2.0 message (no "jsonrpc":"2.0", an id of the
// wrong type, an empty batch) or over the length limit, and the server
// exits: one stray line from a client, or anyone who can write to the
// pipe, would take it down. Such a line is answered here as JSON-RPC
// prescribes (-32700 parse error, -32600 invalid request; the id when one
// can be read, else null) and the session goes on. Blank lines are
// skipped. Batches are split (see splitBatch).
//
// When the input ends (the client closed it, or a file of requests piped
// in was read to its end), every request read before is still answered
// and the session then ends, as with a client that waits for its answers
// before closing: see lineGuard.drain. The wait is bounded
// (WithDrainTimeout, DefaultDrainTimeout unless set): the requests still
// running then are abandoned, their contexts cancelled, and said so on
// the log (WithStdioLog, os.Stderr unless set). A handler that ignores
// its context still holds up Server.Run, which waits for every handler to
// return; ServeStdio does not wait for it. Options other than those two
// are ignored.
func NewLineTransport(r io.ReadCloser, w io.WriteCloser, opts ...Option) mcp.Transport {
	t, _ := newLineTransport(r, w, newConfig(opts))
	return t
}

// newLineTransport is NewLineTransport, with its guard.
func newLineTransport(r io.ReadCloser, w io.WriteCloser, c *config) (*mcp.IOTransport, *lineGuard) {
	out := newLockedWriter(w)
	switch {
	case c.drainTimeout == 0:
		out.grace = DefaultDrainTimeout
	case c.drainTimeout > 0:
		out.grace = c.drainTimeout
	default:
		out.grace = -1
	}
	log := c.stdioLog
	if log == nil {
		log = os.Stderr
	}
	g := &lineGuard{in: bufio.NewReaderSize(r, 64*1024), closer: r, out: out, max: MaxLineLength, log: log, abandoned: make(chan struct{})}
	return &mcp.IOTransport{
		Reader:        g,
		Writer:        out,
		MaxLineLength: -1, // each line is bounded here
	}, g
}

// lockedWriter serialises the SDK's writes (one message per Write) and
// the guard's error answers, so that lines never interleave. It keeps
// the ids of the client's requests the SDK has not answered yet, and
// holds back the SDK's answers to the requests of a batch (see
// splitBatch) until the batch is answered in full, then writes them as
// one array. The SDK's answer to a request sent before initialize (code
// 0) it replaces with -32600 and a message saying to initialize first:
// the guard cannot refuse such a request itself, since the SDK alone
// knows whether initialize succeeded (the guard reads ahead of it) and
// which methods it serves before (ping, and a few more).
type lockedWriter struct {
	mu sync.Mutex
	w  io.WriteCloser
	// inFlight maps the id of each request handed to the SDK, and not
	// yet answered, to its place in its batch's answer (batch nil for a
	// request on a line of its own).
	inFlight map[jsonrpc.ID]batchSlot
	// calls holds the ids of the requests the server sent the client
	// (roots/list, sampling, elicitation, ping) that the client has not
	// answered yet.
	calls map[jsonrpc.ID]struct{}
	// changed is signalled (on mu) when a request is answered, the server
	// calls the client, a write fails or the transport closes: what the
	// drain at the end of the input waits for.
	changed *sync.Cond
	broken  bool // a write to w failed: no answer can be written any more
	closed  bool // the transport was closed
	// grace bounds drain's wait (negative: no bound); timer ends it,
	// setting expired.
	grace   time.Duration
	timer   *time.Timer
	expired bool
}

func newLockedWriter(w io.WriteCloser) *lockedWriter {
	l := &lockedWriter{w: w, inFlight: map[jsonrpc.ID]batchSlot{}, calls: map[jsonrpc.ID]struct{}{}}
	l.changed = sync.NewCond(&l.mu)
	return l
}

// batchAnswer is the answer to one batch: an answer per request, in the
// batch's order; nil where the SDK's answer is awaited.
type batchAnswer struct {
	answers []json.RawMessage
	missing int
}

type batchSlot struct {
	batch *batchAnswer
	index int
	// cancelled is set when the client cancelled the request: the SDK
	// still answers it, and that answer is dropped (a cancelled request
	// is not answered), but its id stays taken until then.
	cancelled bool
	// parked is set for a request the SDK serves until it is cancelled
	// or the input ends (subscriptions/listen); ending once the drain at
	// the end of the input cancelled it (see drain).
	parked, ending bool
}

// methodSubscriptionsListen is the request the SDK serves until it is
// cancelled or the input ends.
const methodSubscriptionsListen = "subscriptions/listen"

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := len(p)
	m, err := jsonrpc.DecodeMessage(bytes.TrimSpace(p))
	if err != nil {
		m = nil
	}
	switch m := m.(type) {
	case *jsonrpc.Request:
		if m.ID.IsValid() {
			// A call to the client: once the input has ended, it is
			// answered for the client (see drain).
			l.calls[m.ID] = struct{}{}
			l.changed.Broadcast()
		}
	case *jsonrpc.Response:
		if slot, ok := l.inFlight[m.ID]; ok {
			delete(l.inFlight, m.ID)
			l.changed.Broadcast()
			if slot.cancelled && slot.batch == nil {
				return n, nil
			}
			if method, ok := refusedBeforeInitialize(m); ok {
				// The SDK's answer has code 0 and does not say what to
				// do.
				p = append(errorAnswer(m.ID.Raw(), jsonrpc.CodeInvalidRequest, beforeInitialize(method, false)), '\n')
			}
			if b := slot.batch; b != nil {
				if !slot.cancelled {
					b.answers[slot.index] = bytes.Clone(bytes.TrimSpace(p))
				}
				if b.missing--; b.missing > 0 {
					return n, nil
				}
				if _, err := l.writeBatch(b); err != nil {
					return 0, err
				}
				return n, nil
			}
		}
	}
	if _, err := l.write(p); err != nil {
		return 0, err
	}
	return n, nil
}

// write writes p to w, noting a failure; l.mu is held.
func (l *lockedWriter) write(p []byte) (int, error) {
	n, err := l.w.Write(p)
	if err != nil && !l.broken {
		l.broken = true
		l.changed.Broadcast()
	}
	return n, err
}

// writeBatch writes b's answers as one JSON array on a line (nothing when
// it has none: a cancelled request is not answered); l.mu is held.
func (l *lockedWriter) writeBatch(b *batchAnswer) (int, error) {
	line := []byte{'['}
	for _, a := range b.answers {
		if a == nil {
			continue
		}
		if len(line) > 1 {
			line = append(line, ',')
		}
		line = append(line, a...)
	}
	if len(line) == 1 {
		return 0, nil
	}
	return l.write(append(line, ']', '\n'))
}

// writeOwn writes the guard's own line, which is never held back.
func (l *lockedWriter) writeOwn(p []byte) {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, _ = l.write(p)
}

// busy reports whether id is that of a request not yet answered.
func (l *lockedWriter) busy(id jsonrpc.ID) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, ok := l.inFlight[id]
	return ok
}

// claim records id as that of a request on a line of its own, about to be
// handed to the SDK (parked: see batchSlot); false when a request not yet
// answered has it.
func (l *lockedWriter) claim(id jsonrpc.ID, parked bool) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.inFlight[id]; ok {
		return false
	}
	l.inFlight[id] = batchSlot{parked: parked}
	return true
}

// answered notes the client's answer to the server's call id.
func (l *lockedWriter) answered(id jsonrpc.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.calls, id)
}

// cancel marks the request id the client cancelled. The SDK still
// answers it once its handler returns; that answer is not written (MCP: a
// cancelled request is not answered; its batch is answered without it),
// and until then the id stays taken, so a request reusing it is refused
// rather than answered with the cancelled call's result.
func (l *lockedWriter) cancel(id jsonrpc.ID) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slot, ok := l.inFlight[id]; ok {
		slot.cancelled = true
		l.inFlight[id] = slot
	}
}

// await records b's requests (ids, with their indexes in b.answers) as
// in flight, or writes b's answers at once when it has no request to
// await and some answers (a batch of notifications alone has none).
func (l *lockedWriter) await(b *batchAnswer, ids map[jsonrpc.ID]batchSlot) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b.missing = len(ids)
	for id, slot := range ids {
		slot.batch = b
		l.inFlight[id] = slot
	}
	if b.missing == 0 && len(b.answers) > 0 {
		_, _ = l.writeBatch(b)
	}
}

// drain waits, once the input has ended, until every request handed to
// the SDK is answered, and returns nil; or returns at once when the
// output failed or the transport closed, as no answer can be written
// then; or returns nil when the wait has lasted l.grace, with a note
// saying which requests were still running (abandoned). Meanwhile, it
// returns the messages to hand the SDK in the client's stead:
//   - an answer to each call the server made to the client: an error
//     (code -32003, as the SDK's own "client is closing"), since the
//     client can send nothing more; the call would otherwise wait for
//     ever, and the request that made it with it;
//   - once every other request is answered, a cancellation of each
//     subscriptions/listen, which the SDK would serve for ever (it would
//     stop it at the end of the input, unanswered): the SDK then answers
//     it, which ends the subscription, and that answer is written.
func (l *lockedWriter) drain() (msgs [][]byte, abandoned bool, note string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.grace >= 0 && l.timer == nil {
		l.timer = time.AfterFunc(l.grace, func() {
			l.mu.Lock()
			defer l.mu.Unlock()
			l.expired = true
			l.changed.Broadcast()
		})
	}
	for !l.closed && !l.broken {
		if len(l.calls) > 0 {
			var answers [][]byte
			for id := range l.calls {
				answers = append(answers, append(errorAnswer(id.Raw(), codeClientClosing, "client is closing: its input ended"), '\n'))
			}
			clear(l.calls)
			return answers, false, ""
		}
		if len(l.inFlight) == 0 {
			break
		}
		if l.expired {
			if n, ids := l.running(); n > 0 {
				note = fmt.Sprintf("the input ended and %s still running after %v %s abandoned, unanswered, %s cancelled (%s)",
					plural(n, "request"), l.grace, plural2(n, "was", "were"), plural2(n, "its context", "their contexts"), ids)
			}
			return nil, true, note
		}
		var listens []jsonrpc.ID
		others := false
		for id, slot := range l.inFlight {
			switch {
			case !slot.parked:
				others = true
			case !slot.ending:
				listens = append(listens, id)
			}
		}
		if !others && len(listens) > 0 {
			var cancels [][]byte
			for _, id := range listens {
				slot := l.inFlight[id]
				slot.ending = true
				l.inFlight[id] = slot
				raw, _ := json.Marshal(id.Raw())
				cancels = append(cancels, []byte(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":`+string(raw)+`,"reason":"the client's input ended"}}`+"\n"))
			}
			return cancels, false, ""
		}
		l.changed.Wait()
	}
	if l.timer != nil {
		l.timer.Stop()
	}
	return nil, false, ""
}

// running returns the number of requests in flight other than
// subscriptions (which end with the input), and their ids, the first few
// in order, for a note; l.mu is held.
func (l *lockedWriter) running() (int, string) {
	var ids []jsonrpc.ID
	for id, slot := range l.inFlight {
		if !slot.parked {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b jsonrpc.ID) int {
		// Numbers by value, then strings.
		an, aNum := a.Raw().(int64)
		bn, bNum := b.Raw().(int64)
		switch {
		case aNum && bNum:
			return cmp.Compare(an, bn)
		case aNum != bNum:
			if aNum {
				return -1
			}
			return 1
		}
		return cmp.Compare(fmt.Sprint(a.Raw()), fmt.Sprint(b.Raw()))
	})
	const shown = 5
	var list []string
	for _, id := range ids[:min(len(ids), shown)] {
		raw, _ := json.Marshal(id.Raw())
		list = append(list, string(raw))
	}
	s := "id "
	if len(ids) > 1 {
		s = "ids "
	}
	s += strings.Join(list, ", ")
	if more := len(ids) - len(list); more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return len(ids), s
}

// runningNow is running, taking l.mu.
func (l *lockedWriter) runningNow() (int, string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.running()
}

// plural is n and noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// plural2 is one when n is 1, else other.
func plural2(n int, one, other string) string {
	if n == 1 {
		return one
	}
	return other
}

// codeClientClosing is the code of the SDK's error for a call that cannot
// be answered as the other side is closing (jsonrpc2.ErrClientClosing):
// the SDK turns it into mcp.ErrConnectionClosed for the caller.
const codeClientClosing = -32003

// shut notes that the transport is closing, which ends a drain.
func (l *lockedWriter) shut() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	l.changed.Broadcast()
}

func (l *lockedWriter) Close() error {
	l.shut()
	return l.w.Close()
}

// lineGuard hands the SDK the lines it can decode and answers the rest.
type lineGuard struct {
	in      *bufio.Reader
	closer  io.Closer
	out     *lockedWriter
	max     int
	pending []byte   // the accepted line being handed over, newline included
	queue   [][]byte // the messages of a split batch still to hand over
	err     error    // the input's end or failure, once pending is drained
	// drained is set once, the input having ended, every request read
	// was answered (drain): err is then passed on to the SDK.
	drained bool
	// gaveUp is set when drain stopped waiting for the requests still
	// running (see lockedWriter.drain).
	gaveUp bool
	// batches is whether the protocol version the client asked for in its
	// initialize request takes batches (before 2025-06-18): the SDK
	// ends the session on a batch in any later one.
	batches bool
	// log receives the note of the requests drain abandoned; abandoned
	// is closed once it is written and the end of the input passed on.
	log       io.Writer
	abandoned chan struct{}
}

// batchesUntil is the first protocol version without JSON-RPC batches.
const batchesUntil = "2025-06-18"

// note reads what the guard needs from a message it hands over: the
// protocol version an initialize request asks for, the request a
// cancellation names (its answer is not to be written), and the server's
// call a response answers.
func (g *lineGuard) note(m jsonrpc.Message) {
	req, ok := m.(*jsonrpc.Request)
	if !ok {
		if r, ok := m.(*jsonrpc.Response); ok {
			g.out.answered(r.ID)
		}
		return
	}
	switch req.Method {
	case methodInitialize:
		var p struct {
			ProtocolVersion string `json:"protocolVersion"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			g.batches = p.ProtocolVersion != "" && p.ProtocolVersion < batchesUntil
		}
	case "notifications/cancelled":
		var p struct {
			RequestID any `json:"requestId"`
		}
		if json.Unmarshal(req.Params, &p) == nil {
			if id, err := jsonrpc.MakeID(p.RequestID); err == nil && id.IsValid() {
				g.out.cancel(id)
			}
		}
	}
}

// isBatch reports whether the JSON line is an array.
func isBatch(line []byte) bool { return len(line) > 0 && line[0] == '[' }

// maxNesting is the nesting depth the SDK's JSON decoder accepts; a
// deeper line ended the session.
const maxNesting = 1000

func (g *lineGuard) Read(p []byte) (int, error) {
	for len(g.pending) == 0 {
		if len(g.queue) > 0 {
			g.pending, g.queue = g.queue[0], g.queue[1:]
			break
		}
		if g.err != nil {
			if g.drained {
				return 0, g.err
			}
			if g.queue = g.drain(); len(g.queue) == 0 {
				g.drained = true
			}
			if g.drained && g.gaveUp {
				close(g.abandoned)
			}
			continue
		}
		line, tooLong, err := g.readLine()
		g.err = err
		switch {
		case tooLong:
			g.answer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("message longer than %d bytes", g.max))
		case len(bytes.TrimSpace(line)) > 0:
			// The SDK takes nothing but a line break after the value: a
			// space there ended the session.
			line = bytes.TrimSpace(line)
			m, id, code, msg := checkMessage(line)
			switch {
			case code != 0:
				g.answer(id, code, msg)
			case m == nil && !g.batches:
				g.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are taken only in protocol versions before 2025-06-18, once initialize asked for one; send one message per line")
			case m == nil:
				g.splitBatch(line)
			default:
				if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() && !g.out.claim(req.ID, req.Method == methodSubscriptionsListen) {
					g.answer(req.ID.Raw(), jsonrpc.CodeInvalidRequest, "invalid request: "+inUse(req.ID))
					continue
				}
				g.note(m)
				g.pending = append(line, '\n')
			}
		}
	}
	n := copy(p, g.pending)
	g.pending = g.pending[n:]
	return n, nil
}

// splitBatch hands the SDK the messages of a batch one at a time and has
// the writer gather the answers to its requests into one array. The
// SDK's own batch handling ended or stalled the session on a batch with
// two notifications, a notification and a request, or a repeated id; and
// one bad item in a batch cost every other item its answer. An item that
// is not a JSON-RPC message, or a request whose id the batch repeats or
// a batch request in flight has, gets an error answer in the array
// instead, as JSON-RPC asks; the rest are served.
func (g *lineGuard) splitBatch(line []byte) {
	var items []json.RawMessage
	if json.Unmarshal(line, &items) != nil {
		return // checkMessage took it
	}
	b := new(batchAnswer)
	awaited := map[jsonrpc.ID]batchSlot{}
	var noted []jsonrpc.Message
	for i, item := range items {
		m, err := jsonrpc.DecodeMessage(item)
		if err != nil {
			b.answers = append(b.answers, errorAnswer(usableID(item), jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: batch item %d: %s", i, whyInvalid(item))))
			continue
		}
		if why := idProblem(item); why != "" {
			b.answers = append(b.answers, errorAnswer(nil, jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: batch item %d: %s", i, why)))
			continue
		}
		if req, ok := m.(*jsonrpc.Request); ok && req.ID.IsValid() {
			if _, repeated := awaited[req.ID]; repeated || g.out.busy(req.ID) {
				b.answers = append(b.answers, errorAnswer(req.ID.Raw(), jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: batch item %d: %s", i, inUse(req.ID))))
				continue
			}
			awaited[req.ID] = batchSlot{index: len(b.answers), parked: req.Method == methodSubscriptionsListen}
			b.answers = append(b.answers, nil)
		}
		noted = append(noted, m)
		g.queue = append(g.queue, append(bytes.TrimSpace(item), '\n'))
	}
	// Registered before any item reaches the SDK, so no answer escapes,
	// and before the batch's own cancellations are noted, so that they
	// find the requests they name.
	g.out.await(b, awaited)
	for _, m := range noted {
		g.note(m)
	}
}

// inUse says that a request's id is taken.
func inUse(id jsonrpc.ID) string {
	raw, _ := json.Marshal(id.Raw())
	return fmt.Sprintf("id %s is in use by a request not answered yet; give each request its own id", raw)
}

// drain is what the guard does when the input has ended, before it
// passes the end on to the SDK: it waits for the answers to the requests
// it handed over (lockedWriter.drain), and returns the messages to hand
// the SDK meanwhile, if any (they are not noted: the client did not send
// them). The SDK takes the end of its input as the
// end of the connection: it cancels the requests in flight and refuses
// to write any answer from then on (jsonrpc2's Connection: readIncoming
// cancels them; write refuses once the read failed), so that the answers
// to the last requests, often all of them when a file of requests is
// piped in, were lost. The requests keep their contexts meanwhile, up to
// the grace period (WithDrainTimeout): then the end is passed on, which
// cancels the contexts of those still running, and the guard says on its
// log how many it abandoned. A stop through Run's context closes the
// transport, which ends the wait (the SDK drops the answers then).
func (g *lineGuard) drain() [][]byte {
	msgs, abandoned, note := g.out.drain()
	if note != "" {
		fmt.Fprintln(g.log, "mcpserver: "+note)
	}
	g.gaveUp = g.gaveUp || abandoned
	return msgs
}

func (g *lineGuard) Close() error {
	g.out.shut()
	return g.closer.Close()
}

// readLine reads up to the next newline (left out, with a CR before it).
// A line over the limit is read to its end and dropped: tooLong.
func (g *lineGuard) readLine() (line []byte, tooLong bool, err error) {
	for {
		chunk, err := g.in.ReadSlice('\n')
		if !tooLong {
			if len(line)+len(chunk) > g.max+2 { // room for "\r\n"
				tooLong, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
		return line, tooLong, err
	}
}

// checkMessage returns code 0 when the SDK can decode line as one message
// (m) or line is a non-empty batch (m nil), else the JSON-RPC error to
// answer with, and the id to answer to when the line has a usable one.
func checkMessage(line []byte) (m jsonrpc.Message, id any, code int64, msg string) {
	if !json.Valid(line) {
		return nil, nil, jsonrpc.CodeParseError, "parse error: the line is not JSON"
	}
	if d := text.JSONNesting(line); d > maxNesting {
		return nil, usableID(line), jsonrpc.CodeInvalidRequest, fmt.Sprintf("invalid request: the line nests %d deep; the limit is %d", d, maxNesting)
	}
	var batch []json.RawMessage
	if isBatch(bytes.TrimSpace(line)) && json.Unmarshal(line, &batch) == nil {
		if len(batch) == 0 {
			return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: empty batch"
		}
		return nil, nil, 0, "" // its items are checked one by one (splitBatch)
	}
	m, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return nil, usableID(line), jsonrpc.CodeInvalidRequest, "invalid request: " + whyInvalid(line)
	}
	if why := idProblem(line); why != "" {
		return nil, nil, jsonrpc.CodeInvalidRequest, "invalid request: " + why
	}
	return m, nil, 0, ""
}

// idProblem says what is wrong with the id of the JSON-RPC message line
// that the SDK decoded anyway: it reads numbers as floats and makes them
// integers (1.5 answered as 1, the id of another request; 2^63-1 as a
// negative one), and reads a request with a null id as a notification,
// left unanswered. MCP ids are strings or integers, never null. Members
// are matched by their exact names, as the SDK does ("Id" is not "id").
func idProblem(line []byte) string {
	var id, method []byte
	ids := 0
	text.Members(line, func(name, value []byte) bool {
		switch string(name) {
		case "id":
			id, ids = value, ids+1
		case "method":
			method = value
		}
		return true
	})
	switch {
	case ids == 0:
		return ""
	case ids > 1:
		return `"id" is given twice; give it once`
	case string(id) == "null":
		if method != nil {
			return `a request's "id" must be a string or an integer, not null`
		}
		return ""
	case idValue(id) == nil:
		return `"id" must be a string or an integer of at most 2^53 in magnitude`
	}
	return ""
}

// whyInvalid says what keeps the JSON value m from being a JSON-RPC 2.0
// message, in JSON-RPC's terms.
func whyInvalid(m []byte) string {
	var obj map[string]json.RawMessage
	if t := bytes.TrimSpace(m); len(t) == 0 || t[0] != '{' || json.Unmarshal(m, &obj) != nil {
		return "a message is a JSON object (or a non-empty array of them)"
	}
	var version string
	if v, ok := obj["jsonrpc"]; !ok || json.Unmarshal(v, &version) != nil || version != "2.0" {
		return `"jsonrpc" must be "2.0"`
	}
	hasID := usableID(m) != nil
	if id, ok := obj["id"]; ok && !hasID && string(bytes.TrimSpace(id)) != "null" {
		return `"id" must be a string or an integer`
	}
	if method, ok := obj["method"]; ok {
		var s string
		if json.Unmarshal(method, &s) != nil {
			return `"method" must be a string`
		}
	} else if !hasID {
		return `a request needs a "method", a response an "id"`
	}
	return "not a JSON-RPC 2.0 message"
}

// usableID returns the id of the JSON-RPC object line when it is a string
// or an integer the SDK reads as itself, else nil (answered as null).
func usableID(line []byte) any {
	var id []byte
	text.Members(line, func(name, value []byte) bool {
		if string(name) == "id" {
			id = value
		}
		return true
	})
	return idValue(id)
}

// maxID bounds the integers used as ids: the SDK reads an id as a float
// (2^53+1 came back as 2^53).
const maxID = 1 << 53

// idValue is the id whose JSON text is raw, when it is a string or an
// integer of at most maxID in magnitude, else nil.
func idValue(raw []byte) any {
	if len(raw) == 0 {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&v) != nil {
		return nil
	}
	switch v := v.(type) {
	case string:
		return v
	case json.Number:
		if n, err := v.Int64(); err == nil && n >= -maxID && n <= maxID {
			return v
		}
	}
	return nil
}

// answer writes a JSON-RPC error response for a line the SDK was not given.
func (g *lineGuard) answer(id any, code int64, message string) {
	g.out.writeOwn(append(errorAnswer(id, code, message), '\n'))
}

// errorAnswer is a JSON-RPC error response.
func errorAnswer(id any, code int64, message string) json.RawMessage {
	type rpcError struct {
		Code    int64  `json:"code"`
		Message string `json:"message"`
	}
	b, err := json.Marshal(struct {
		JSONRPC string   `json:"jsonrpc"`
		ID      any      `json:"id"`
		Error   rpcError `json:"error"`
	}{"2.0", id, rpcError{code, text.Truncate(message, maxAnswerText)}})
	if err != nil && id != nil { // not seen: the ids read are strings and integers
		return errorAnswer(nil, code, message)
	}
	return b
}

// maxAnswerText bounds the message of an error answer, which may quote
// the line (an unexpected version tag).
const maxAnswerText = 256
