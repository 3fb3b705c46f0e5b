package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/packages/respjson"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Chat implements agent.Model with Chat Completions.
type Chat struct {
	client sdk.Client
	params sdk.ChatCompletionNewParams
}

var _ agent.Model = (*Chat)(nil)

// NewChat returns a model sending params (model, sampling…) with each
// turn's messages and tools filled in.
func NewChat(client sdk.Client, params sdk.ChatCompletionNewParams) *Chat {
	return &Chat{client: client, params: params}
}

// Next implements agent.Model.
func (c *Chat) Next(ctx context.Context, req agent.Request) (agent.Response, error) {
	p, err := c.Params(req)
	if err != nil {
		return agent.Response{}, err
	}
	resp, err := c.client.Chat.Completions.New(ctx, p)
	if err != nil {
		return agent.Response{}, err
	}
	if len(resp.Choices) == 0 {
		return agent.Response{}, errors.New("openai: chat completion without choices")
	}
	choice := resp.Choices[0]
	msg := choice.Message
	out := agent.Response{Text: msg.Content, Stop: chatStop(choice.FinishReason)}
	if msg.Refusal != "" {
		out.Text = joinText(out.Text, msg.Refusal)
		out.Stop = agent.StopRefusal
	}
	if raw := msg.JSON.FunctionCall.Raw(); raw != respjson.Omitted && raw != respjson.Null {
		var fc struct{ Name string }
		_ = json.Unmarshal([]byte(raw), &fc) // the name, if any, for the error
		return agent.Response{}, fmt.Errorf("openai: legacy function_call %q; only tools are offered, and its answer could not be paired with it", text.Truncate(fc.Name, 64))
	}
	for _, tc := range msg.ToolCalls {
		if tc.Type != "function" {
			return agent.Response{}, fmt.Errorf("openai: tool call %q of type %q; only function tools are offered", text.Truncate(tc.ID, 64), text.Truncate(tc.Type, 64))
		}
		out.ToolCalls = append(out.ToolCalls, runtime.ToolCall{ID: tc.ID, Name: tc.Function.Name, Args: json.RawMessage(tc.Function.Arguments)})
	}
	if choice.FinishReason == "tool_calls" && len(out.ToolCalls) == 0 {
		// The model meant to call and the calls are missing: its text is
		// not a final answer.
		return agent.Response{}, errors.New("openai: finish_reason tool_calls without tool calls")
	}
	return out, nil
}

// chatStop maps a finish_reason to the loop's Stop; a reason this package
// does not know is passed on as the API's word, which the loop reads as an
// unfinished turn.
func chatStop(reason string) agent.Stop {
	switch reason {
	case "stop", "tool_calls", "function_call", "":
		return agent.StopComplete
	case "length":
		return agent.StopLength
	case "content_filter":
		return agent.StopFiltered
	}
	return agent.Stop(reason)
}

// joinText appends a refusal's words to a turn's text.
func joinText(text, more string) string {
	if text == "" {
		return more
	}
	return text + "\n\n" + more
}

// Params builds the request of one turn: the configured params with the
// conversation and tools of req.
func (c *Chat) Params(req agent.Request) (sdk.ChatCompletionNewParams, error) {
	p := c.params
	tools, err := ChatTools(req.Tools)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	p.Messages = append([]sdk.ChatCompletionMessageParamUnion(nil), c.params.Messages...)
	for i, m := range req.Messages {
		switch m.Role {
		case agent.RoleSystem:
			p.Messages = append(p.Messages, sdk.SystemMessage(m.Content))
		case agent.RoleUser:
			p.Messages = append(p.Messages, sdk.UserMessage(m.Content))
		case agent.RoleAssistant:
			a := sdk.ChatCompletionAssistantMessageParam{}
			if m.Content != "" || len(m.ToolCalls) == 0 {
				// Content may be left out only beside tool calls: an
				// empty answer goes back as "" (the API refuses null).
				a.Content.OfString = param.NewOpt(m.Content)
			}
			for _, tc := range m.ToolCalls {
				a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID: tc.ID, Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: tc.Name, Arguments: string(tc.Args)},
				}})
			}
			p.Messages = append(p.Messages, sdk.ChatCompletionMessageParamUnion{OfAssistant: &a})
		case agent.RoleTool:
			p.Messages = append(p.Messages, sdk.ToolMessage(m.Content, m.ToolCallID))
		default:
			return p, fmt.Errorf("openai: message %d: unknown role %q", i, m.Role)
		}
	}
	return p, nil
}

// Responses implements agent.Model with the Responses API.
type Responses struct {
	client   sdk.Client
	params   responses.ResponseNewParams
	deferred *deferred.Surface
}

var _ agent.Model = (*Responses)(nil)

// ResponsesOption configures a Responses model.
type ResponsesOption func(*Responses)

// WithDeferred defers the tools of s: namespaces per group, defer_loading,
// and the hosted tool_search tool. Offer the loop s.Tools() only: the
// surface's own search tool (s.SearchTool()) next to the hosted one makes
// Next fail.
func WithDeferred(s *deferred.Surface) ResponsesOption {
	return func(r *Responses) { r.deferred = s }
}

// NewResponses returns a model sending params (model, instructions,
// reasoning…) with each turn's input and tools filled in.
func NewResponses(client sdk.Client, params responses.ResponseNewParams, opts ...ResponsesOption) *Responses {
	r := &Responses{client: client, params: params}
	for _, o := range opts {
		o(r)
	}
	return r
}

// Next implements agent.Model.
func (r *Responses) Next(ctx context.Context, req agent.Request) (agent.Response, error) {
	p, err := r.Params(req)
	if err != nil {
		return agent.Response{}, err
	}
	resp, err := r.client.Responses.New(ctx, p)
	if err != nil {
		return agent.Response{}, err
	}
	if resp.Status == responses.ResponseStatusFailed {
		if resp.Error.Code == "" && resp.Error.Message == "" {
			return agent.Response{}, fmt.Errorf("openai: response %s failed, without an error saying why", resp.ID)
		}
		return agent.Response{}, fmt.Errorf("openai: response %s failed: %s: %s", resp.ID, resp.Error.Code, resp.Error.Message)
	}
	out := agent.Response{Stop: responseStop(resp)}
	items := make([]responses.ResponseInputItemUnionParam, 0, len(resp.Output))
	for _, item := range resp.Output {
		items = append(items, param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(item.RawJSON())))
		switch item.Type {
		case "message":
			for _, part := range item.Content {
				switch part.Type {
				case "output_text":
					out.Text += part.Text
				case "refusal":
					out.Text = joinText(out.Text, part.Refusal)
					if out.Stop == agent.StopComplete {
						out.Stop = agent.StopRefusal
					}
				}
			}
		case "function_call":
			fc := item.AsFunctionCall()
			if fc.CallID == "" {
				return agent.Response{}, fmt.Errorf("openai: function_call item %d (%s) has no call_id; its output could not be paired with it", len(items), text.Truncate(fc.Name, 64))
			}
			out.ToolCalls = append(out.ToolCalls, runtime.ToolCall{ID: fc.CallID, Name: fc.Name, Args: json.RawMessage(fc.Arguments)})
		default:
			if clientCall(item) {
				id := item.CallID
				if id == "" {
					id = item.ID
				}
				return agent.Response{}, fmt.Errorf("openai: output item %q of type %q asks for an answer from the caller; only function tools are offered", text.Truncate(id, 64), item.Type)
			}
		}
	}
	out.Native = items
	return out, nil
}

// clientCall reports whether item, not a function call, is one the
// caller must answer with an output item of its own (a custom tool call, a
// computer or local shell action, a patch to apply, an MCP approval, a
// tool search run by the client, a shell command in a local environment).
// No surface offers such tools, so none could be answered: passed over,
// the call would go unanswered, and a turn of nothing else would read as
// an empty final answer.
func clientCall(item responses.ResponseOutputItemUnion) bool {
	switch item.Type {
	case "custom_tool_call", "computer_call", "local_shell_call", "apply_patch_call", "mcp_approval_request":
		return true
	case "tool_search_call":
		return item.Execution == "client"
	case "shell_call":
		return item.Environment.Type == "local"
	}
	return false
}

// responseStop maps a response's status, and an incomplete one's reason,
// to the loop's Stop; a status or reason this package does not know (a
// background response still queued, say) is passed on as the API's word,
// which the loop reads as an unfinished turn.
func responseStop(resp *responses.Response) agent.Stop {
	switch resp.Status {
	case responses.ResponseStatusCompleted, "":
		return agent.StopComplete
	case responses.ResponseStatusIncomplete:
		switch r := resp.IncompleteDetails.Reason; r {
		case "max_output_tokens":
			return agent.StopLength
		case "content_filter":
			return agent.StopFiltered
		case "":
			return agent.Stop(resp.Status)
		default:
			return agent.Stop(r)
		}
	}
	return agent.Stop(resp.Status)
}

// Params builds the request of one turn: the configured params with the
// conversation as input items and the tools of req.
func (r *Responses) Params(req agent.Request) (responses.ResponseNewParams, error) {
	p := r.params
	tools, err := responseTools(req.Tools, r.deferred)
	if err != nil {
		return p, err
	}
	p.Tools = tools
	var system []string
	if r.params.Instructions.Valid() {
		system = append(system, r.params.Instructions.Value)
	}
	input := append(responses.ResponseInputParam(nil), r.params.Input.OfInputItemList...)
	if r.params.Input.OfString.Valid() {
		input = append(input, responses.ResponseInputItemParamOfMessage(r.params.Input.OfString.Value, responses.EasyInputMessageRoleUser))
	}
	for i, m := range req.Messages {
		switch m.Role {
		case agent.RoleSystem:
			system = append(system, m.Content)
		case agent.RoleUser:
			input = append(input, responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleUser))
		case agent.RoleAssistant:
			if items, ok := m.Native.([]responses.ResponseInputItemUnionParam); ok {
				input = append(input, items...)
				continue
			}
			if m.Content != "" {
				input = append(input, responses.ResponseInputItemParamOfMessage(m.Content, responses.EasyInputMessageRoleAssistant))
			}
			for _, tc := range m.ToolCalls {
				input = append(input, responses.ResponseInputItemParamOfFunctionCall(string(tc.Args), tc.ID, tc.Name))
			}
		case agent.RoleTool:
			item := responses.ResponseInputItemParamOfFunctionCallOutput(m.Content)
			item.OfFunctionCallOutput.CallID = param.NewOpt(m.ToolCallID)
			input = append(input, item)
		default:
			return p, fmt.Errorf("openai: message %d: unknown role %q", i, m.Role)
		}
	}
	if len(system) > 0 {
		p.Instructions = param.NewOpt(strings.Join(system, "\n\n"))
	}
	p.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: input}
	return p, nil
}
