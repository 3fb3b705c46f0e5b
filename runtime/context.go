package runtime

import "encoding/json"

// PromptInfo is what a ToolContext exposes of the prompt being evaluated;
// runtime/prompt's Prompt implements it.
type PromptInfo interface {
	Namespace() string
	Key() string
	Name() string
}

// RenderedPromptInfo is what a ToolContext exposes of the rendered prompt;
// runtime/prompt's Rendered implements it.
type RenderedPromptInfo interface {
	Text() string
}

// Adapter is the provider adapter orchestrating the outer request.
type Adapter interface {
	Name() string
}

// Session is the active session that records the evaluation's events.
type Session interface {
	ID() string
}

// ToolCall identifies the call a handler is serving.
type ToolCall struct {
	ID   string
	Name string
	Args json.RawMessage
}

// ToolContext is the immutable snapshot of the surrounding runtime handed to
// every handler. It is built per call (NewToolContext) and never reused.
type ToolContext struct {
	prompt   PromptInfo
	rendered RenderedPromptInfo
	adapter  Adapter
	session  Session
	bus      *EventBus
	call     ToolCall
}

// ContextParts are the pieces a ToolContext is built from; any may be nil.
type ContextParts struct {
	Prompt   PromptInfo
	Rendered RenderedPromptInfo
	Adapter  Adapter
	Session  Session
	Bus      *EventBus
	Call     ToolCall
}

// NewToolContext builds the context for one call.
func NewToolContext(p ContextParts) ToolContext {
	return ToolContext{prompt: p.Prompt, rendered: p.Rendered, adapter: p.Adapter, session: p.Session, bus: p.Bus, call: p.Call}
}

// Prompt is the prompt being evaluated, or nil.
func (c ToolContext) Prompt() PromptInfo { return c.prompt }

// RenderedPrompt is the rendered prompt, or nil when not rendered yet.
func (c ToolContext) RenderedPrompt() RenderedPromptInfo { return c.rendered }

// Adapter is the provider adapter, or nil.
func (c ToolContext) Adapter() Adapter { return c.adapter }

// Session is the active session, or nil.
func (c ToolContext) Session() Session { return c.session }

// Bus is the in-process event bus, or nil.
func (c ToolContext) Bus() *EventBus { return c.bus }

// Call is the tool call being served.
func (c ToolContext) Call() ToolCall { return c.call }
