package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
)

// Option configures Register and NewServer.
type Option func(*config)

type config struct {
	bus           *runtime.EventBus
	session       func(*mcp.CallToolRequest) runtime.Session
	unfold        bool
	serverOptions *mcp.ServerOptions
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
// facade is called (see the package documentation). Without it only the
// facades are registered and their shortcut call form reaches inner tools.
func UnfoldFacades() Option { return func(c *config) { c.unfold = true } }

// WithServerOptions sets the options NewServer creates its server with
// (instructions, logger, ...). Register ignores it.
func WithServerOptions(o *mcp.ServerOptions) Option { return func(c *config) { c.serverOptions = o } }

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
// unfit: an invalid name, a duplicated name or a parameters schema that is
// not a JSON object of type "object".
func Register(s *mcp.Server, tools []runtime.Tool, opts ...Option) error {
	if s == nil {
		return errors.New("mcpserver: nil server")
	}
	if err := runtime.CheckUnique(tools); err != nil {
		return fmt.Errorf("mcpserver: %w", err)
	}
	defs := make([]*mcp.Tool, len(tools))
	for i, t := range tools {
		d, err := definition(t)
		if err != nil {
			return fmt.Errorf("mcpserver: %w", err)
		}
		defs[i] = d
	}
	r := &registrar{server: s, cfg: newConfig(opts), added: map[string]bool{}}
	for i, t := range tools {
		r.add(t, defs[i])
	}
	return nil
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
// would reject it.
func definition(t runtime.Tool) (*mcp.Tool, error) {
	if err := t.Check(false); err != nil {
		return nil, err
	}
	schema := t.Parameters
	if len(bytes.TrimSpace(schema)) == 0 {
		schema = emptySchema
	}
	var top struct {
		Type json.RawMessage `json:"type"`
	}
	if err := json.Unmarshal(schema, &top); err != nil || string(top.Type) != `"object"` {
		return nil, &runtime.ToolDefinitionError{Tool: t.Name, Reason: `MCP requires an input schema of type "object"`}
	}
	return &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: schema}, nil
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
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var args json.RawMessage
		if req != nil && req.Params != nil {
			args = req.Params.Arguments
		}
		if trimmed := bytes.TrimSpace(args); len(trimmed) == 0 || string(trimmed) == "null" {
			args = json.RawMessage(`{}`)
		}
		tc := runtime.NewToolContext(runtime.ContextParts{
			Adapter: adapter{},
			Session: r.session(req),
			Bus:     r.cfg.bus,
			Call:    runtime.ToolCall{ID: "mcp_" + strconv.FormatUint(callIDs.Add(1), 10), Name: t.Name, Args: args},
		})
		res, perr := runtime.Dispatch(ctx, t, tc, args)
		if perr != nil {
			return errorResult(propagatedMessage(t.Name, perr)), nil
		}
		if r.cfg.unfold && res.Success {
			if u, ok := res.Value.(*matryoshka.Unfolded); ok {
				r.unfold(u)
			}
		}
		text := runtime.RenderResult(res)
		if !res.Success {
			if text == "" {
				text = t.Name + " failed"
			}
			return errorResult(text), nil
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, nil
	}
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
