package anthropic

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/packages/param"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/rootschema"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Search selects the search tool of a deferred surface.
type Search int

// The search tools.
const (
	// ClientSearch is the surface's own tool_search (deferred.SearchTool,
	// named Surface.SearchName), answered with tool_reference blocks. Offer
	// it with the surface's tools.
	ClientSearch Search = iota
	// BM25 is Anthropic's server tool tool_search_tool_bm25_20251119.
	BM25
	// Regex is Anthropic's server tool tool_search_tool_regex_20251119.
	Regex
)

// MaxContinuations caps the requests one Next makes to continue a turn the
// API paused (stop_reason pause_turn); a turn still paused after them comes
// back with agent.StopPaused.
const MaxContinuations = 3

// Tool converts one tool to an Anthropic custom tool definition.
func Tool(t runtime.Tool) (sdk.ToolParam, error) {
	if err := runtime.CheckName(t.Name); err != nil {
		return sdk.ToolParam{}, fmt.Errorf("anthropic: tool %q: %w", t.Name, err)
	}
	schema, err := inputSchema(t.Parameters)
	if err != nil {
		return sdk.ToolParam{}, fmt.Errorf("anthropic: tool %q: parameters: %w", t.Name, err)
	}
	p := sdk.ToolParam{Name: t.Name, InputSchema: schema}
	if t.Description != "" {
		p.Description = param.NewOpt(t.Description)
	}
	return p, nil
}

// Tools converts tools to Anthropic tool definitions, in order.
func Tools(tools []runtime.Tool) ([]sdk.ToolUnionParam, error) {
	return convert(tools, nil, ClientSearch)
}

// DeferredTools converts a deferred surface: every tool with defer_loading
// set, then the search tool (the surface's own for ClientSearch).
func DeferredTools(s *deferred.Surface, search Search) ([]sdk.ToolUnionParam, error) {
	tools := s.Tools()
	if search == ClientSearch {
		tools = append(tools, s.SearchTool())
	}
	return convert(tools, s, search)
}

// serverSearch is the type of Anthropic's search tool for each Search
// answered server-side.
var serverSearch = map[Search]string{
	BM25:  string(sdk.ToolSearchToolBm25_20251119TypeToolSearchToolBm25_20251119),
	Regex: string(sdk.ToolSearchToolRegex20251119TypeToolSearchToolRegex20251119),
}

// convert turns tools into params, deferring those of s and appending the
// server search tool when search asks for one.
func convert(tools []runtime.Tool, s *deferred.Surface, search Search) ([]sdk.ToolUnionParam, error) {
	out := make([]sdk.ToolUnionParam, 0, len(tools)+1)
	seen := make(map[string]bool, len(tools))
	for _, t := range tools {
		if seen[t.Name] {
			return nil, fmt.Errorf("anthropic: duplicate tool %q", t.Name)
		}
		seen[t.Name] = true
		p, err := Tool(t)
		if err != nil {
			return nil, err
		}
		if s != nil && s.Deferred(t.Name) {
			p.DeferLoading = param.NewOpt(true)
		}
		out = append(out, sdk.ToolUnionParam{OfTool: &p})
	}
	if s == nil {
		if len(out) == 0 {
			return nil, nil // no "tools": [] member
		}
		return out, nil
	}
	// Two search tools, toolgen's and Anthropic's, would leave the model
	// to pick one.
	if server := serverSearch[search]; server != "" && seen[s.SearchName()] {
		return nil, fmt.Errorf("anthropic: tool %q is offered as a custom tool, but deferred tools are searched with the server tool %s, which WithDeferred adds; offer the surface's Tools() without its SearchTool(), or use ClientSearch", s.SearchName(), server)
	}
	switch search {
	case BM25:
		out = append(out, sdk.ToolUnionParam{OfToolSearchToolBm25_20251119: &sdk.ToolSearchToolBm25_20251119Param{
			Type: sdk.ToolSearchToolBm25_20251119TypeToolSearchToolBm25_20251119}})
	case Regex:
		out = append(out, sdk.ToolUnionParam{OfToolSearchToolRegex20251119: &sdk.ToolSearchToolRegex20251119Param{
			Type: sdk.ToolSearchToolRegex20251119TypeToolSearchToolRegex20251119}})
	case ClientSearch:
		if !seen[s.SearchName()] {
			return nil, fmt.Errorf("anthropic: deferred tools need the search tool %q among the offered tools (deferred.Surface.SearchTool)", s.SearchName())
		}
	default:
		return nil, fmt.Errorf("anthropic: unknown search tool %d", search)
	}
	return out, nil
}

// inputSchema sends a JSON Schema object as input_schema byte for byte
// (param.Override: the SDK's extra fields would read member names as
// paths); a schema without "type" gets "type":"object" in front, which the
// API requires, and one with a root oneOf, anyOf or allOf, which it
// refuses, is sent as rootschema.Flatten rewrites it.
func inputSchema(schema json.RawMessage) (sdk.ToolInputSchemaParam, error) {
	schema = bytes.TrimSpace(schema)
	if len(schema) == 0 {
		return param.Override[sdk.ToolInputSchemaParam](json.RawMessage(`{"type":"object"}`)), nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(schema, &members); err != nil || members == nil {
		return sdk.ToolInputSchemaParam{}, errors.New("not a JSON Schema object")
	}
	typ, ok := members["type"]
	if !ok {
		rest := bytes.TrimSpace(schema[1:])
		raw := []byte(`{"type":"object"`)
		if rest[0] != '}' {
			raw = append(raw, ',')
		}
		schema = append(raw, rest...)
	} else if t := ""; json.Unmarshal(typ, &t) != nil || t != "object" {
		return sdk.ToolInputSchemaParam{}, fmt.Errorf(`/type: want "object", got %s`, truncate(typ))
	}
	if req, ok := members["required"]; ok {
		var names []string
		if err := json.Unmarshal(req, &names); err != nil {
			return sdk.ToolInputSchemaParam{}, fmt.Errorf("/required: want an array of strings, got %s", truncate(req))
		}
	}
	// The API refuses oneOf, anyOf and allOf at the root; Flatten sends
	// an equivalent or looser schema without them, which the tool's own
	// validation still applies, or says why it cannot.
	flat, err := rootschema.Flatten(schema, rootschema.Anthropic)
	if err != nil {
		var e *rootschema.Error
		if errors.As(err, &e) {
			err = fmt.Errorf("%s: the API refuses %s at the root of input_schema, and it cannot be loosened into a schema the API accepts: %s", e.Pointer, e.Keyword, e.Reason)
		}
		return sdk.ToolInputSchemaParam{}, err
	}
	schema = flat
	return param.Override[sdk.ToolInputSchemaParam](json.RawMessage(schema)), nil
}

func truncate(v json.RawMessage) string {
	const max = 60
	if len(v) > max {
		return string(v[:max]) + "…"
	}
	return string(v)
}

// Model implements agent.Model with the Messages API.
type Model struct {
	client   sdk.Client
	params   sdk.MessageNewParams
	deferred *deferred.Surface
	search   Search
}

// Option configures a Model.
type Option func(*Model)

// WithDeferred defers the tools of s (defer_loading) and adds search as the
// way to load them. With ClientSearch, offer s.SearchTool() to the loop
// along with s.Tools(); with BM25 or Regex, offer s.Tools() alone: a turn
// offering s.SearchTool() beside Anthropic's search tool is refused.
func WithDeferred(s *deferred.Surface, search Search) Option {
	return func(m *Model) { m.deferred, m.search = s, search }
}

// New returns a model sending params (model, max_tokens, sampling…) with
// each turn's system text, messages and tools filled in.
func New(client sdk.Client, params sdk.MessageNewParams, opts ...Option) *Model {
	m := &Model{client: client, params: params}
	for _, o := range opts {
		o(m)
	}
	return m
}

var _ agent.Model = (*Model)(nil)

// Next implements agent.Model. The response's Stop maps the API's
// stop_reason (see stop). A turn the API pauses (pause_turn: a long
// server-tool turn) is continued as Anthropic documents: the content so
// far goes back as the assistant message, with the container the turn
// used, and the API goes on from there, at most MaxContinuations times; the
// blocks of every response make up the turn. A turn still paused after
// that comes back with StopPaused.
func (m *Model) Next(ctx context.Context, req agent.Request) (agent.Response, error) {
	p, err := m.Params(req)
	if err != nil {
		return agent.Response{}, err
	}
	base := p.Messages[:len(p.Messages):len(p.Messages)]
	var content []sdk.ContentBlockParamUnion
	var resp agent.Response
	uses := 0 // tool use blocks of every kind (server tools' too)
	var lastStop sdk.StopReason
	for i := 0; ; i++ {
		msg, err := m.client.Messages.New(ctx, p)
		if err != nil {
			return agent.Response{}, err
		}
		for _, b := range msg.Content {
			content = append(content, b.ToParam())
			if strings.HasSuffix(b.Type, "tool_use") {
				uses++
			}
			switch b.Type {
			case "text":
				resp.Text += b.Text
			case "tool_use":
				if !validID(b.ID) {
					return agent.Response{}, fmt.Errorf("anthropic: tool_use block %d (%s) has the id %q, which the API would not take back (ids are [a-zA-Z0-9_-]+); its result could not be paired with it", len(content), text.Truncate(b.Name, 64), text.Truncate(b.ID, 64))
				}
				if in := bytes.TrimSpace(b.Input); len(in) == 0 || in[0] != '{' {
					got := "no input"
					if len(in) > 0 {
						got = "the input " + text.Truncate(string(in), 64)
					}
					return agent.Response{}, fmt.Errorf("anthropic: tool_use block %d (%s) has %s where the API takes back only a JSON object", len(content), text.Truncate(b.Name, 64), got)
				}
				resp.ToolCalls = append(resp.ToolCalls, runtime.ToolCall{ID: b.ID, Name: b.Name, Args: append(json.RawMessage(nil), b.Input...)})
			}
		}
		resp.Stop, lastStop = stop(msg.StopReason), msg.StopReason
		if msg.StopReason != sdk.StopReasonPauseTurn || i == MaxContinuations {
			break
		}
		p.Messages = append(base, sdk.NewAssistantMessage(content[:len(content):len(content)]...))
		p.Container = container(p.Container, msg.Container.ID)
	}
	if lastStop == sdk.StopReasonToolUse && uses == 0 {
		// The model meant to call and the calls are missing: its text is
		// not a final answer.
		return agent.Response{}, errors.New("anthropic: stop_reason tool_use without a tool_use block")
	}
	resp.Native = content
	return resp, nil
}

// validID reports whether id is one the API accepts as a tool_use id:
// ^[a-zA-Z0-9_-]+$.
func validID(id string) bool {
	for i := 0; i < len(id); i++ {
		if c := id[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return id != ""
}

// stop maps a stop_reason to the loop's Stop; a reason this package does
// not know is passed on as the API's word, which the loop reads as an
// unfinished turn.
func stop(r sdk.StopReason) agent.Stop {
	switch r {
	case sdk.StopReasonEndTurn, sdk.StopReasonToolUse, sdk.StopReasonStopSequence, "":
		return agent.StopComplete
	case sdk.StopReasonMaxTokens:
		return agent.StopLength
	case sdk.StopReasonModelContextWindowExceeded:
		return agent.StopContextWindow
	case sdk.StopReasonRefusal:
		return agent.StopRefusal
	case sdk.StopReasonPauseTurn:
		return agent.StopPaused
	}
	return agent.Stop(r)
}

// container is the container param of a continued turn: the configured
// one, given the id of the container the paused turn used when it names
// none, so that the continuation runs where the turn started.
func container(c sdk.MessageCreateParamsContainerUnion, id string) sdk.MessageCreateParamsContainerUnion {
	switch {
	case id == "" || c.OfString.Valid():
	case c.OfContainers != nil:
		if !c.OfContainers.ID.Valid() {
			cp := *c.OfContainers
			cp.ID = param.NewOpt(id)
			c.OfContainers = &cp
		}
	default:
		c.OfString = param.NewOpt(id)
	}
	return c
}

// Params builds the request of one turn: the configured params with the
// conversation and tools of req.
func (m *Model) Params(req agent.Request) (sdk.MessageNewParams, error) {
	p := m.params
	tools, err := convert(req.Tools, m.deferred, m.search)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	p.System = append([]sdk.TextBlockParam(nil), m.params.System...)
	p.Messages = append([]sdk.MessageParam(nil), m.params.Messages...)
	offered := make(map[string]bool, len(req.Tools))
	for _, t := range req.Tools {
		offered[t.Name] = true
	}
	var results []sdk.ContentBlockParamUnion
	flush := func() {
		if len(results) > 0 {
			p.Messages = append(p.Messages, sdk.NewUserMessage(results...))
			results = nil
		}
	}
	for i, msg := range req.Messages {
		switch msg.Role {
		case agent.RoleSystem:
			if msg.Content != "" {
				p.System = append(p.System, sdk.TextBlockParam{Text: msg.Content})
			}
		case agent.RoleUser:
			flush()
			p.Messages = append(p.Messages, sdk.NewUserMessage(sdk.NewTextBlock(msg.Content)))
		case agent.RoleAssistant:
			flush()
			blocks, err := assistantBlocks(msg)
			if err != nil {
				return p, fmt.Errorf("anthropic: message %d: %w", i, err)
			}
			if len(blocks) == 0 {
				// An empty answer (end_turn with no block): the API
				// refuses a message without content but the last, and
				// takes the user turns around it as one.
				continue
			}
			p.Messages = append(p.Messages, sdk.NewAssistantMessage(blocks...))
		case agent.RoleTool:
			results = append(results, m.toolResult(msg, offered))
		default:
			return p, fmt.Errorf("anthropic: message %d: unknown role %q", i, msg.Role)
		}
	}
	flush()
	return p, nil
}

// assistantBlocks is an assistant turn as content blocks: those the API
// returned, or its text and calls.
func assistantBlocks(msg agent.Message) ([]sdk.ContentBlockParamUnion, error) {
	if blocks, ok := msg.Native.([]sdk.ContentBlockParamUnion); ok {
		return blocks, nil
	}
	var blocks []sdk.ContentBlockParamUnion
	if msg.Content != "" {
		blocks = append(blocks, sdk.NewTextBlock(msg.Content))
	}
	for _, c := range msg.ToolCalls {
		// The API takes only an object as a tool_use input; arguments of
		// another provider's call may be none or null (Chat sends "null"),
		// which go back as {}.
		input := json.RawMessage(bytes.TrimSpace(c.Args))
		if len(input) == 0 || string(input) == "null" {
			input = json.RawMessage("{}")
		}
		if input[0] != '{' || !json.Valid(input) {
			return nil, fmt.Errorf("tool call %q: arguments are not a JSON object: %s", text.Truncate(c.ID, 64), text.Truncate(string(input), 64))
		}
		blocks = append(blocks, sdk.NewToolUseBlock(c.ID, input, c.Name))
	}
	return blocks, nil
}

// toolResult is a tool message as a tool_result block: tool_reference
// blocks for a successful client-side search, the text otherwise; a
// failed call's is marked is_error.
func (m *Model) toolResult(msg agent.Message, offered map[string]bool) sdk.ContentBlockParamUnion {
	r := sdk.ToolResultBlockParam{ToolUseID: msg.ToolCallID}
	if msg.IsError {
		r.IsError = sdk.Bool(true)
	}
	if names, ok := m.references(msg, offered); ok {
		for _, n := range names {
			r.Content = append(r.Content, sdk.ToolResultBlockParamContentUnion{OfToolReference: &sdk.ToolReferenceBlockParam{ToolName: n}})
		}
	} else if strings.TrimSpace(msg.Content) != "" {
		r.Content = []sdk.ToolResultBlockParamContentUnion{{OfText: &sdk.TextBlockParam{Text: msg.Content}}}
	}
	return sdk.ContentBlockParamUnion{OfToolResult: &r}
}

// references reads the tools a client-side search loaded, if msg answers
// one and every name is a deferred tool offered in this request (the API
// rejects a reference to a tool it was not given).
func (m *Model) references(msg agent.Message, offered map[string]bool) ([]string, bool) {
	if m.deferred == nil || m.search != ClientSearch || msg.ToolName != m.deferred.SearchName() {
		return nil, false
	}
	names, ok := deferred.ParseReferences(msg.Content)
	if !ok {
		return nil, false
	}
	for _, n := range names {
		if !m.deferred.Deferred(n) || !offered[n] {
			return nil, false
		}
	}
	return names, true
}
