package mcpserver

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file corrects answers of the SDK about methods:
//
//   - Over HTTP, it refuses some messages before dispatching them, with
//     HTTP 400 and a line of text: a request whose method its server does
//     not handle, a request for a notification method (an id), a
//     notification of a request method (no id), a request or notification
//     missing required params; and, with a JSON-RPC error of its own
//     wording, a request whose id a request of the session not answered
//     yet has. The client gets no JSON-RPC answer to its request, and a
//     notification, which JSON-RPC leaves unanswered, is refused. On stdio
//     the same requests are answered with JSON-RPC errors and their ids
//     (-32601 method not found, -32600 invalid request), the same
//     notifications ignored. refusalWriter answers them so over HTTP too.
//   - It answers a request sent before initialize (other than ping) with
//     an error of code 0, on stdio and over HTTP. lockedWriter (stdio) and
//     refusalWriter (HTTP) answer it with -32600 and say to initialize
//     first.
//   - It answers a second initialize in a session with an error of code 0
//     (initializeOnce).
//
// No list of methods is kept here: which methods a server handles, and
// which it serves before initialize, is the SDK's to say (the standard
// ones its version knows, and those added with
// mcp.AddReceivingCustomMethod), and its refusals say it.

// methodInitialize is the method that opens a session.
const methodInitialize = "initialize"

// alreadyInitialized is the message of the error answering an initialize
// request in a session that is already initialized.
const alreadyInitialized = "invalid request: this session is already initialized; initialize is sent once, at the start of a session"

// initializeOnce is the receiving middleware that answers an initialize
// request in a session that is already initialized with -32600 (invalid
// request) and says why; the SDK's answer ("duplicate "initialize"
// received", code 0) did not tell it from any other failure. The SDK
// handles an initialize request before it reads the next message, so two
// of a session are never checked at once.
func initializeOnce(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		if method == methodInitialize {
			if ss, ok := req.GetSession().(*mcp.ServerSession); ok && ss.InitializeParams() != nil {
				return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidRequest, Message: alreadyInitialized}
			}
		}
		return next(ctx, method, req)
	}
}

// methodNotFound is the message answering a request for method, as the
// SDK words it on stdio.
func methodNotFound(method string) string { return fmt.Sprintf("method not found: %q", method) }

// The texts of the SDK's HTTP 400 refusals of one well-formed message
// before it is dispatched (checkRequest in the SDK), given method; on
// stdio the SDK answers the same checks as JSON-RPC errors, with -32600
// and the same words but for the unknown method (-32601, methodNotFound).
// TestSDKEarlyRefusals pins them.
func sdkNotHandled(method string) string {
	return fmt.Sprintf("JSON RPC not handled: %q unsupported", method)
}

func sdkUnexpectedID(method string) string {
	return fmt.Sprintf("invalid request: unexpected id for %q", method)
}

func sdkMissingID(method string) string {
	return fmt.Sprintf("invalid request: missing id for %q", method)
}

const sdkMissingParams = `invalid request: missing required "params"`

// sdkDuplicateID is the message of the SDK's HTTP 400 (a JSON-RPC error
// -32600) refusing a request whose id is that of a request of the session
// not answered yet; stdio answers it in its own words (inUse).
func sdkDuplicateID(id jsonrpc.ID) string {
	return fmt.Sprintf("duplicate in-flight request ID %v", id.Raw())
}

// earlyAnswer is the JSON-RPC error answering req as stdio does, when
// refusal, the body of an HTTP 400 from the SDK, refuses req before
// dispatching it; ok false for any other 400 (the transport's own:
// headers, session, protocol version), passed on as written.
func earlyAnswer(refusal []byte, req *jsonrpc.Request) (code int64, message string, ok bool) {
	refusal = bytes.TrimSpace(refusal)
	switch text := string(refusal); text {
	case sdkNotHandled(req.Method):
		return jsonrpc.CodeMethodNotFound, methodNotFound(req.Method), true
	case sdkUnexpectedID(req.Method), sdkMissingID(req.Method), sdkMissingParams:
		return jsonrpc.CodeInvalidRequest, text, true
	}
	if m, err := jsonrpc.DecodeMessage(refusal); err == nil && req.ID.IsValid() {
		var e *jsonrpc.Error
		if res, ok := m.(*jsonrpc.Response); ok && res.ID == req.ID && errors.As(res.Error, &e) &&
			e.Code == jsonrpc.CodeInvalidRequest && e.Message == sdkDuplicateID(req.ID) {
			return jsonrpc.CodeInvalidRequest, "invalid request: " + inUse(req.ID), true
		}
	}
	return 0, "", false
}

// The SDK's answer (code 0) to a request other than ping (and a few
// more) in a session not initialized yet, around the quoted method.
// TestSDKEarlyRefusals pins it.
const (
	sdkBeforeInitializeStart = "method "
	sdkBeforeInitializeEnd   = " is invalid during session initialization"
)

// refusedBeforeInitialize returns the method that the JSON-RPC answer res
// refuses as sent before initialize, in the SDK's words; ok false when res
// is another answer.
func refusedBeforeInitialize(res *jsonrpc.Response) (method string, ok bool) {
	var e *jsonrpc.Error
	if res.Error == nil || !errors.As(res.Error, &e) || e.Code != 0 {
		return "", false
	}
	quoted, start := strings.CutPrefix(e.Message, sdkBeforeInitializeStart)
	quoted, end := strings.CutSuffix(quoted, sdkBeforeInitializeEnd)
	if !start || !end {
		return "", false
	}
	method, err := strconv.Unquote(quoted)
	if err != nil || strconv.Quote(method) != quoted {
		return "", false
	}
	return method, true
}

// beforeInitialize is the message answering, with -32600 (invalid
// request), a request for method sent before initialize, which the SDK
// answered with code 0. MCP has no code of its own for it (nor does the
// TypeScript SDK, which answers -32000 over HTTP and serves it on stdio).
// Over HTTP such a request came without a session (no Mcp-Session-Id).
func beforeInitialize(method string, overHTTP bool) string {
	msg := fmt.Sprintf("invalid request: %q before initialize; send initialize first", method)
	if overHTTP {
		return msg + ", then the Mcp-Session-Id header of its answer with each request (this one has none)"
	}
	return msg + " and wait for its answer"
}

// maxRefusal bounds what refusalWriter holds back; the SDK's refusals are
// a line, its answer before initialize an event. Longer ones are passed
// on.
const maxRefusal = 4 << 10

// refusalWriter passes on what the SDK writes for one POSTed request or
// notification (req), except what it holds back until it can tell it:
//
//   - an HTTP 400, until the SDK is done (finish): a refusal of req before
//     it is dispatched (earlyAnswer) is then answered as on stdio, any
//     other passed on as the SDK wrote it;
//   - with gate (a request of a stateful server without a session), an
//     HTTP 200 until its first event: when that is the SDK's refusal of
//     req before initialize, finish answers it as MCP asks; else it goes
//     on as written, and the rest with it.
type refusalWriter struct {
	http.ResponseWriter
	req     *jsonrpc.Request
	gate    bool
	held    int    // the status held back (0: none); its body so far is in body
	gated   bool   // the held 200 refuses req before initialize: the rest is dropped
	started bool   // a status went out
	body    []byte // the held body
}

func (w *refusalWriter) WriteHeader(code int) {
	switch {
	case w.held != 0:
		// superfluous, as net/http would find it
	case !w.started && (code == http.StatusBadRequest || code == http.StatusOK && w.gate):
		w.held = code
	default:
		w.started = true
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *refusalWriter) Write(p []byte) (int, error) {
	if !w.started && w.held == 0 {
		w.WriteHeader(http.StatusOK)
	}
	if w.gated {
		return len(p), nil
	}
	if w.held != 0 {
		if len(w.body)+len(p) <= maxRefusal {
			w.body = append(w.body, p...)
			if w.held == http.StatusOK {
				if data, whole := firstMessage(w.Header().Get("Content-Type"), w.body); whole {
					if w.gated = w.refusesBeforeInitialize(data); !w.gated {
						w.release()
					}
				}
			}
			return len(p), nil
		}
		w.release()
	}
	w.started = true
	return w.ResponseWriter.Write(p)
}

// firstMessage returns the first JSON-RPC message of an answer of type
// contentType whose body starts with body: the data of its first event
// when it is an event stream, else the body; whole is false while that
// event is not all in body.
func firstMessage(contentType string, body []byte) (data []byte, whole bool) {
	if !strings.HasPrefix(contentType, "text/event-stream") {
		return body, true
	}
	// An event is lines up to an empty line; its data is that of its
	// "data:" lines, joined with line breaks.
	var lines [][]byte
	for len(body) > 0 {
		line, rest, found := bytes.Cut(body, []byte("\n"))
		if !found {
			return nil, false
		}
		body = rest
		line = bytes.TrimSuffix(line, []byte("\r"))
		if len(line) == 0 {
			if len(lines) > 0 {
				return bytes.Join(lines, []byte("\n")), true
			}
			continue // an event without data is not dispatched
		}
		if value, ok := bytes.CutPrefix(line, []byte("data:")); ok {
			lines = append(lines, bytes.TrimPrefix(value, []byte(" ")))
		}
	}
	return nil, false
}

// refusesBeforeInitialize reports whether the JSON-RPC message data
// answers w.req with the SDK's refusal of a request sent before
// initialize.
func (w *refusalWriter) refusesBeforeInitialize(data []byte) bool {
	m, err := jsonrpc.DecodeMessage(bytes.TrimSpace(data))
	if err != nil {
		return false
	}
	res, ok := m.(*jsonrpc.Response)
	if !ok || res.ID != w.req.ID {
		return false
	}
	method, ok := refusedBeforeInitialize(res)
	return ok && method == w.req.Method
}

// Flush flushes what went out; nothing while an answer is held (a flush
// would send its headers).
func (w *refusalWriter) Flush() {
	if w.held == 0 {
		_ = http.NewResponseController(w.ResponseWriter).Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *refusalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// release passes on the held answer as the SDK wrote it.
func (w *refusalWriter) release() {
	status := w.held
	w.held, w.started = 0, true
	w.ResponseWriter.WriteHeader(status)
	_, _ = w.ResponseWriter.Write(w.body)
	w.body = nil
}

// finish answers for the SDK once it is done with w.req, when it held
// back an answer it replaces:
//
//   - a refusal before dispatch (earlyAnswer): a request with HTTP 200
//     and a JSON-RPC error carrying its id, as stdio answers it (the
//     streamable HTTP transport answers a request with JSON or an event
//     stream); a notification with 202 Accepted and no body, since
//     JSON-RPC answers none and stdio ignores it;
//   - the refusal of a request before initialize (gate): HTTP 400, as MCP
//     asks of a server that requires sessions for a request without one
//     other than initialize, with a JSON-RPC error -32600 carrying its id
//     and saying to initialize first (the SDK's had code 0).
//
// Any other held answer goes out unchanged.
func (w *refusalWriter) finish() {
	switch {
	case w.gated:
		w.held, w.gated = 0, false
		w.answer(http.StatusBadRequest, errorAnswer(w.req.ID.Raw(), jsonrpc.CodeInvalidRequest, beforeInitialize(w.req.Method, true)))
	case w.held == http.StatusBadRequest:
		code, msg, ok := earlyAnswer(w.body, w.req)
		switch {
		case !ok:
			w.release()
		case !w.req.IsCall():
			w.held, w.body = 0, nil
			w.answer(http.StatusAccepted, nil)
		default:
			w.held, w.body = 0, nil
			w.answer(http.StatusOK, errorAnswer(w.req.ID.Raw(), code, msg))
		}
	case w.held != 0:
		w.release()
	}
}

// answer writes status and body (JSON, or none) in place of the SDK's
// answer, with the SDK's other headers.
func (w *refusalWriter) answer(status int, body []byte) {
	w.started = true
	h := w.Header()
	h.Del("X-Content-Type-Options") // set by http.Error with its text
	h.Del("Connection")             // set with an event stream
	if body == nil {
		h.Del("Content-Type")
	} else {
		h.Set("Content-Type", "application/json")
	}
	w.ResponseWriter.WriteHeader(status)
	if body != nil {
		_, _ = w.ResponseWriter.Write(body)
	}
}
