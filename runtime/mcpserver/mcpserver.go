package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// Option configures Register and NewServer.
type Option func(*config)

type config struct {
	bus           *runtime.EventBus
	session       func(*mcp.CallToolRequest) runtime.Session
	folded        bool
	serverOptions *mcp.ServerOptions
	// drainTimeout and stdioLog configure the stdio transport.
	drainTimeout time.Duration
	stdioLog     io.Writer
}

// WithBus publishes a runtime.ToolInvoked event on bus for every call.
func WithBus(bus *runtime.EventBus) Option { return func(c *config) { c.bus = bus } }

// WithSession chooses the runtime.Session of each call's ToolContext (the
// gateway counts repeated failing calls per session). By default it is the
// calling client's *mcp.ServerSession; fn may return nil.
func WithSession(fn func(*mcp.CallToolRequest) runtime.Session) Option {
	return func(c *config) { c.session = fn }
}

// UnfoldFacades adds the tools a facade unfolds into to the server when the
// facade is called, which announces them with tools/list_changed (see the
// package documentation). It is the default; the option remains for
// callers that name it.
func UnfoldFacades() Option { return func(c *config) { c.folded = false } }

// FoldedFacades keeps the tool list fixed: a facade call answers with its
// inner tools' usage and adds nothing, and the shortcut call form reaches
// the inner tools.
func FoldedFacades() Option { return func(c *config) { c.folded = true } }

// WithServerOptions sets the options NewServer creates its server with
// (instructions, logger, ...). Register ignores it.
func WithServerOptions(o *mcp.ServerOptions) Option { return func(c *config) { c.serverOptions = o } }

// DefaultDrainTimeout is how long the stdio transport waits, once its
// input has ended, for the requests still running (WithDrainTimeout).
const DefaultDrainTimeout = 10 * time.Second

// WithDrainTimeout bounds how long the stdio transport (ServeStdio,
// StdioTransport, NewLineTransport) waits, once its input has ended (or
// ServeStdio's context is done), for the requests still running to be
// answered: DefaultDrainTimeout when d is zero, without bound when d is
// negative. Past it, the requests still running are abandoned
// unanswered, their contexts cancelled, the session ends, and the
// transport says how many on its log (WithStdioLog). NewServer and
// Register ignore it.
func WithDrainTimeout(d time.Duration) Option { return func(c *config) { c.drainTimeout = d } }

// WithStdioLog sets where the stdio transport reports the requests it
// abandoned (WithDrainTimeout): os.Stderr by default, as standard output
// carries the protocol; io.Discard for none. NewServer and Register
// ignore it.
func WithStdioLog(w io.Writer) Option { return func(c *config) { c.stdioLog = w } }

// NewServer returns an MCP server named name at version that serves tools
// (see Register).
func NewServer(name, version string, tools []runtime.Tool, opts ...Option) (*mcp.Server, error) {
	c := newConfig(opts)
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: version}, c.serverOptions)
	if err := Register(s, tools, opts...); err != nil {
		return nil, err
	}
	return s, nil
}

// Register adds every tool to s, each answering tools/call through
// runtime.Dispatch. It checks all tools first and adds none when one is
// unfit: an invalid name, a duplicated name, a parameters schema that is
// not a JSON object of type "object", or a schema that is not UTF-8.
func Register(s *mcp.Server, tools []runtime.Tool, opts ...Option) error {
	_, err := register(s, tools, newConfig(opts))
	return err
}

func register(s *mcp.Server, tools []runtime.Tool, c *config) (*registrar, error) {
	if s == nil {
		return nil, errors.New("mcpserver: nil server")
	}
	if err := runtime.CheckUnique(tools); err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	defs := make([]*mcp.Tool, len(tools))
	for i, t := range tools {
		d, err := definition(t)
		if err != nil {
			return nil, fmt.Errorf("mcpserver: %w", err)
		}
		defs[i] = d
	}
	// A server given tools here answers a second initialize as an
	// invalid request (see initializeOnce); a server given tools twice
	// checks twice, to the same effect.
	s.AddReceivingMiddleware(initializeOnce)
	r := &registrar{server: s, cfg: c, added: map[string]bool{}}
	for i, t := range tools {
		r.add(t, defs[i])
	}
	return r, nil
}

func newConfig(opts []Option) *config {
	c := &config{}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	return c
}

// emptySchema is the input schema of a tool without Parameters.
var emptySchema = json.RawMessage(`{"type":"object"}`)

// definition returns t as an MCP tool definition, or an error when the SDK
// would reject it or send it as no valid message (a schema that is not
// UTF-8): name, title, description, input schema, annotations
// (t's own, else the builtin defaults of the gateway and sections tools)
// and, for a result schema of type "object", the output schema.
func definition(t runtime.Tool) (*mcp.Tool, error) {
	if err := t.Check(false); err != nil {
		return nil, err
	}
	schema := t.Parameters
	if len(bytes.TrimSpace(schema)) == 0 {
		schema = emptySchema
	}
	if !objectSchema(schema) {
		return nil, &runtime.ToolDefinitionError{Tool: t.Name, Reason: `MCP requires an input schema of type "object"`}
	}
	if !utf8.Valid(schema) || !utf8.Valid(t.ResultSchema) {
		// The SDK sends schemas as they are: the tool list would not be
		// UTF-8, as MCP requires.
		return nil, &runtime.ToolDefinitionError{Tool: t.Name, Reason: "parameters or result schema is not valid UTF-8"}
	}
	d := &mcp.Tool{Name: t.Name, Title: t.Title, Description: t.Description, InputSchema: schema, Annotations: annotations(t)}
	if len(t.ResultSchema) > 0 && objectSchema(t.ResultSchema) {
		d.OutputSchema = t.ResultSchema
	}
	return d, nil
}

// openSectionsOverMCP describes open_sections as a sections server runs it
// (openSections).
const openSectionsOverMCP = "Open summarized prompt sections to see their full content and tools: " +
	"the answer holds the sections' text, and their tools join this server's tool list."

// objectSchema reports whether schema is a JSON object whose "type" is
// "object".
func objectSchema(schema json.RawMessage) bool {
	var top struct {
		Type json.RawMessage `json:"type"`
	}
	return json.Unmarshal(schema, &top) == nil && string(top.Type) == `"object"`
}

// annotations maps t's hints onto MCP's; unknown hints keep MCP's
// defaults (not read-only, destructive, not idempotent, open world).
func annotations(t runtime.Tool) *mcp.ToolAnnotations {
	a := t.Annotations
	if a == nil {
		if t.Title == "" {
			return nil
		}
		return &mcp.ToolAnnotations{Title: t.Title}
	}
	out := &mcp.ToolAnnotations{Title: t.Title, DestructiveHint: a.Destructive, OpenWorldHint: a.OpenWorld}
	if a.ReadOnly != nil {
		out.ReadOnlyHint = *a.ReadOnly
	}
	if a.Idempotent != nil {
		out.IdempotentHint = *a.Idempotent
	}
	if out.ReadOnlyHint {
		// Meaningful only for tools that write.
		out.DestructiveHint = nil
		out.IdempotentHint = false
	}
	return out
}

// callIDs numbers calls across the process: MCP does not hand a request id
// to tool handlers.
var callIDs atomic.Uint64

// registrar adds tools to one server for one Register call and remembers
// them, so that facades unfold each tool once.
type registrar struct {
	server *mcp.Server
	cfg    *config
	mu     sync.Mutex
	added  map[string]bool
	// sections, when set, answers open_sections by opening the sections
	// on this server (see NewSectionsServer).
	sections *sectionsState
}

// add adds t unless this registrar already added a tool of that name.
func (r *registrar) add(t runtime.Tool, def *mcp.Tool) {
	r.mu.Lock()
	done := r.added[t.Name]
	r.added[t.Name] = true
	r.mu.Unlock()
	if !done {
		r.server.AddTool(def, r.handler(t))
	}
}

func (r *registrar) handler(t runtime.Tool) mcp.ToolHandler {
	hasOutput := len(t.ResultSchema) > 0 && objectSchema(t.ResultSchema)
	ignored := runtime.NewIgnoredArgs(t)
	return func(ctx context.Context, req *mcp.CallToolRequest) (out *mcp.CallToolResult, err error) {
		defer func() {
			// Dispatch contains handler panics; this contains the rest
			// (rendering, unfolding), so no call takes the server down.
			if p := recover(); p != nil {
				out, err = errorResult(fmt.Sprintf("%s failed: internal error (%s)", t.Name, runtime.PanicText(p))), nil
			}
		}()
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		switch trimmed := bytes.TrimSpace(args); {
		case len(trimmed) == 0 || string(trimmed) == "null":
			args = json.RawMessage(`{}`)
		case trimmed[0] != '{':
			// MCP's arguments are an object: a hand-written handler
			// would otherwise read a string or an array as its own.
			return errorResult(fmt.Sprintf("%s: arguments must be a JSON object, got %s", t.Name, jsonKind(trimmed[0]))), nil
		}
		tc := runtime.NewToolContext(runtime.ContextParts{
			Adapter: adapter{},
			Session: r.session(req),
			Bus:     r.cfg.bus,
			Call:    runtime.ToolCall{ID: "mcp_" + strconv.FormatUint(callIDs.Add(1), 10), Name: t.Name, Args: args},
		})
		res, perr := runtime.Dispatch(ctx, t, tc, args)
		if perr != nil {
			var exp *prompt.VisibilityExpansionRequired
			if r.sections != nil && errors.As(perr, &exp) {
				return r.openSections(exp), nil
			}
			return errorResult(propagatedMessage(t.Name, perr)), nil
		}
		if !r.cfg.folded && res.Success {
			if u, ok := res.Value.(*matryoshka.Unfolded); ok {
				r.unfold(u)
			}
		}
		text := runtime.RenderResult(res)
		// Arguments the tool accepted and dropped are said in a content
		// block of their own, after the result's text, which stays as the
		// tool rendered it.
		var notes []mcp.Content
		if ws := ignored.Warnings(t.Name, args, res.Err); len(ws) > 0 {
			notes = []mcp.Content{&mcp.TextContent{Text: "note: " + strings.Join(ws, "; ")}}
		}
		if !res.Success {
			if text == "" {
				text = t.Name + " failed"
			}
			out := errorResult(text)
			out.Content = append(out.Content, notes...)
			return out, nil
		}
		result := &mcp.CallToolResult{Content: append([]mcp.Content{&mcp.TextContent{Text: text}}, notes...)}
		// structuredContent is the value out of band: a tool with an output
		// schema sends it even when the value is kept from the model's
		// context (the text leaves it out), since a client rejects a
		// success without it.
		if !res.ExcludeValueFromContext || hasOutput {
			if obj := structured(res.Value); obj != nil {
				result.StructuredContent = obj
			}
		}
		if hasOutput && result.StructuredContent == nil {
			// Said as a failure for the client's sake, but the call ran:
			// the model must not repeat it.
			return errorResult(text + "\n\n(" + t.Name + " ran, but its result is not the JSON object its output schema describes; do not repeat the call)"), nil
		}
		return result, nil
	}
}

// jsonKind names the kind of the JSON value that starts with c.
func jsonKind(c byte) string {
	switch c {
	case '"':
		return "a string"
	case '[':
		return "an array"
	case 't', 'f':
		return "a boolean"
	}
	return "a number"
}

// structured returns v as a JSON object for structuredContent, or nil when
// v is nil or not an object. Bytes that are not UTF-8 (in a json.RawMessage,
// which encoding/json copies as they are) become U+FFFD, as in the text
// content: MCP messages are UTF-8, and a client decoding strictly dropped
// the whole answer.
func structured(v any) json.RawMessage {
	if v == nil {
		return nil
	}
	var raw []byte
	switch x := v.(type) {
	case json.RawMessage:
		raw = x
	default:
		// A value that renders itself as text still has a JSON form.
		b, err := json.Marshal(x)
		if err != nil {
			return nil
		}
		raw = b
	}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '{' || !json.Valid(raw) {
		return nil
	}
	if !utf8.Valid(raw) {
		// Valid JSON has bytes above ASCII only inside strings.
		raw = bytes.ToValidUTF8(raw, []byte("\uFFFD"))
	}
	return raw
}

func (r *registrar) session(req *mcp.CallToolRequest) runtime.Session {
	if r.cfg.session != nil {
		return r.cfg.session(req)
	}
	if req == nil || req.Session == nil {
		return nil
	}
	return req.Session
}

// unfold adds the unfolded tools the server does not have from this
// registrar yet; the SDK announces each with tools/list_changed.
func (r *registrar) unfold(u *matryoshka.Unfolded) {
	for _, t := range u.Tools {
		def, err := definition(t)
		if err != nil {
			// Facades check their inner tools when built; a tool the SDK
			// would reject stays reachable through the shortcut.
			continue
		}
		r.add(t, def)
	}
}

func errorResult(text string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, IsError: true}
}

// propagatedMessage tells the model that a tool asked for something only an
// orchestrator can do (open_sections asks to re-render the prompt).
func propagatedMessage(tool string, err error) string {
	return fmt.Sprintf("%s did not take effect: it asks the application to change the prompt and retry the turn (%v), "+
		"and this MCP server cannot do that. Nothing changed; continue with the tools you are offered.", tool, err)
}

// adapter is the runtime.Adapter of calls served over MCP.
type adapter struct{}

func (adapter) Name() string { return "mcp" }
