package mcpserver

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// This file corrects two answers of the SDK about methods:
//
//   - Over HTTP, it refuses a request whose method its server does not
//     handle, before dispatching it, with HTTP 400 and a line of text: the
//     client gets no JSON-RPC answer to its request, and a notification of
//     an unknown method, which JSON-RPC leaves unanswered, is refused.
//     On stdio the same request is answered with -32601 (method not
//     found) and its id. refusalWriter gives that answer over HTTP too.
//   - It answers a second initialize in a session with an error of code 0
//     (initializeOnce).
//
// No list of methods is kept here: which methods a server handles is the
// SDK's to say (the standard ones its version knows, and those added with
// mcp.AddReceivingCustomMethod), and over HTTP its refusal says it.

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

// sdkNotHandled starts the text of the SDK's HTTP 400 refusing a method
// its server does not handle (`JSON RPC not handled: "m" unsupported`).
const sdkNotHandled = "JSON RPC not handled: "

// refusedAsUnknown reports whether the body of an HTTP 400 from the SDK
// refuses method as one its server does not handle.
func refusedAsUnknown(refusal []byte, method string) bool {
	msg := string(bytes.TrimSpace(refusal))
	return strings.HasPrefix(msg, sdkNotHandled) && strings.Contains(msg, strconv.Quote(method))
}

// maxRefusal bounds the body of an HTTP 400 that refusalWriter holds
// back; the SDK's refusals are a line. A longer one is passed on.
const maxRefusal = 4 << 10

// refusalWriter passes on what the SDK writes for one POSTed message,
// except an HTTP 400, which it holds back until the SDK is done (finish):
// a refusal of the message's method as unknown is then answered as
// JSON-RPC and MCP ask, any other passed on as the SDK wrote it.
type refusalWriter struct {
	http.ResponseWriter
	held    bool   // the SDK answered 400; its body so far is in refusal
	started bool   // a status went out
	refusal []byte // the held body
}

func (w *refusalWriter) WriteHeader(code int) {
	switch {
	case w.held:
		// superfluous, as net/http would find it
	case !w.started && code == http.StatusBadRequest:
		w.held = true
	default:
		w.started = true
		w.ResponseWriter.WriteHeader(code)
	}
}

func (w *refusalWriter) Write(p []byte) (int, error) {
	if w.held {
		if len(w.refusal)+len(p) <= maxRefusal {
			w.refusal = append(w.refusal, p...)
			return len(p), nil
		}
		w.release()
	}
	w.started = true
	return w.ResponseWriter.Write(p)
}

// Flush flushes what went out; nothing while a 400 is held (a flush would
// send the headers with status 200).
func (w *refusalWriter) Flush() {
	if !w.held {
		_ = http.NewResponseController(w.ResponseWriter).Flush()
	}
}

// Unwrap gives http.ResponseController the writer underneath.
func (w *refusalWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// release passes on the held 400 as the SDK wrote it.
func (w *refusalWriter) release() {
	w.held, w.started = false, true
	w.ResponseWriter.WriteHeader(http.StatusBadRequest)
	_, _ = w.ResponseWriter.Write(w.refusal)
	w.refusal = nil
}

// finish answers for the SDK once it is done with the POSTed message msg
// (one message, not a batch), when it refused msg's method as one its
// server does not handle: a request with HTTP 200 and a JSON-RPC error
// -32601 carrying its id, as stdio answers it (the streamable HTTP
// transport answers a request with JSON or an event stream); a
// notification with 202 Accepted and no body, since JSON-RPC answers
// none and an unknown one is ignored. Any other 400 goes out unchanged.
func (w *refusalWriter) finish(msg []byte) {
	if !w.held {
		return
	}
	m, err := jsonrpc.DecodeMessage(msg)
	req, ok := m.(*jsonrpc.Request)
	if err != nil || !ok || !refusedAsUnknown(w.refusal, req.Method) {
		w.release()
		return
	}
	w.held, w.started = false, true
	h := w.Header()
	h.Del("X-Content-Type-Options") // set by http.Error with its text
	if !req.ID.IsValid() {
		h.Del("Content-Type")
		w.ResponseWriter.WriteHeader(http.StatusAccepted)
		return
	}
	h.Set("Content-Type", "application/json")
	w.ResponseWriter.WriteHeader(http.StatusOK)
	_, _ = w.ResponseWriter.Write(errorAnswer(req.ID.Raw(), jsonrpc.CodeMethodNotFound, methodNotFound(req.Method)))
}
