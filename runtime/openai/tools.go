package openai

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/rootschema"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// schemaMembers decodes a parameters schema into its top-level members,
// each kept as raw JSON; nil for a tool without parameters.
func schemaMembers(t runtime.Tool) (map[string]any, error) {
	if err := runtime.CheckName(t.Name); err != nil {
		return nil, fmt.Errorf("openai: tool %q: %w", t.Name, err)
	}
	if len(bytes.TrimSpace(t.Parameters)) == 0 {
		return nil, nil
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(t.Parameters, &members); err != nil || members == nil {
		return nil, fmt.Errorf("openai: tool %q: parameters: %w", t.Name, errors.New("not a JSON Schema object"))
	}
	if err := checkRoot(members); err != nil {
		return nil, fmt.Errorf("openai: tool %q: parameters: %w", t.Name, err)
	}
	flat, err := rootschema.Flatten(t.Parameters, rootschema.OpenAI)
	if err != nil {
		return nil, fmt.Errorf("openai: tool %q: parameters: %w", t.Name, refused(err))
	}
	members = nil
	if err := json.Unmarshal(flat, &members); err != nil {
		return nil, fmt.Errorf("openai: tool %q: parameters: %w", t.Name, err)
	}
	out := make(map[string]any, len(members)+2)
	for k, v := range members {
		out[k] = v
	}
	// OpenAI refuses the whole request over a root without "type" ('type:
	// "None"') or without "properties" ("object schema missing
	// properties"), as MCP no-argument tools have it ({"type":"object"}).
	if _, ok := members["type"]; !ok {
		out["type"] = "object"
	}
	if _, ok := members["properties"]; !ok {
		out["properties"] = json.RawMessage(`{}`)
	}
	return out, nil
}

// refused is the error of rootschema.Flatten, which sends a root OpenAI
// accepts ("schema must have type 'object' and not have 'oneOf'/'anyOf'/
// 'allOf'/'enum'/'not' at the top level") equivalent to or looser than
// the tool's, whose own validation still applies it: allOf merged into
// the root, a union as the union of its properties, enum and not left
// out. What it cannot loosen so is an error: left out, it could take
// properties the model needs to see.
func refused(err error) error {
	var e *rootschema.Error
	if !errors.As(err, &e) {
		return err
	}
	return fmt.Errorf("%s: OpenAI refuses %s at the root of a function's parameters, and it cannot be loosened into a schema OpenAI accepts: %s", e.Pointer, e.Keyword, e.Reason)
}

// checkRoot refuses a parameters root OpenAI refuses: a type other than
// "object", properties that are not an object, required that is not an
// array of strings.
func checkRoot(members map[string]json.RawMessage) error {
	if typ, ok := members["type"]; ok {
		if t := ""; json.Unmarshal(typ, &t) != nil || t != "object" {
			return fmt.Errorf(`/type: want "object", got %s`, text.Truncate(string(typ), 60))
		}
	}
	if props, ok := members["properties"]; ok {
		var m map[string]json.RawMessage
		if json.Unmarshal(props, &m) != nil || m == nil {
			return fmt.Errorf("/properties: want an object, got %s", text.Truncate(string(props), 60))
		}
	}
	if req, ok := members["required"]; ok {
		var names []string
		if json.Unmarshal(req, &names) != nil || names == nil {
			return fmt.Errorf("/required: want an array of strings, got %s", text.Truncate(string(req), 60))
		}
	}
	return nil
}

func description(s string) param.Opt[string] {
	if s == "" {
		return param.Opt[string]{}
	}
	return param.NewOpt(s)
}

// ChatTool converts a tool to a Chat Completions function tool.
func ChatTool(t runtime.Tool) (sdk.ChatCompletionToolUnionParam, error) {
	params, err := schemaMembers(t)
	if err != nil {
		return sdk.ChatCompletionToolUnionParam{}, err
	}
	return sdk.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
		Name: t.Name, Description: description(t.Description), Parameters: params,
	}), nil
}

// MaxChatTools is the most function tools Chat Completions accepts in one
// request ("A max of 128 functions are supported").
const MaxChatTools = 128

// ChatTools converts tools to Chat Completions function tools, in order.
// More than MaxChatTools is an error, which the API would answer too.
func ChatTools(tools []runtime.Tool) ([]sdk.ChatCompletionToolUnionParam, error) {
	if err := runtime.CheckUnique(tools); err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	if len(tools) > MaxChatTools {
		return nil, fmt.Errorf("openai: %d tools offered; Chat Completions accepts at most %d functions in a request: offer a surface with fewer tools (the gateway, facades or sections), or defer them with the Responses API (DeferredTools)", len(tools), MaxChatTools)
	}
	var out []sdk.ChatCompletionToolUnionParam // nil, not [], without tools
	for _, t := range tools {
		p, err := ChatTool(t)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// ResponseTool converts a tool to a Responses function tool (strict false).
func ResponseTool(t runtime.Tool) (responses.FunctionToolParam, error) {
	params, err := schemaMembers(t)
	if err != nil {
		return responses.FunctionToolParam{}, err
	}
	if params == nil {
		params = map[string]any{"type": "object", "properties": map[string]any{}}
	}
	return responses.FunctionToolParam{
		Name: t.Name, Description: description(t.Description), Parameters: params, Strict: param.NewOpt(false),
	}, nil
}

// ResponseTools converts tools to Responses function tools, in order.
func ResponseTools(tools []runtime.Tool) ([]responses.ToolUnionParam, error) {
	return responseTools(tools, nil)
}

// DeferredTools converts a deferred surface: one namespace per group of
// deferred functions, the ungrouped tools as deferred functions, and the
// hosted tool_search tool.
func DeferredTools(s *deferred.Surface) ([]responses.ToolUnionParam, error) {
	return responseTools(s.Tools(), s)
}

// responseTools converts tools: those s defers go into their group's
// namespace (or stay top-level when ungrouped) with defer_loading set,
// after the plain ones; tool_search comes last.
func responseTools(tools []runtime.Tool, s *deferred.Surface) ([]responses.ToolUnionParam, error) {
	if err := runtime.CheckUnique(tools); err != nil {
		return nil, fmt.Errorf("openai: %w", err)
	}
	if s != nil {
		for _, t := range tools {
			// The surface's own search tool; a tool of the family named
			// tool_search is deferred as any other (s.SearchName differs).
			if t.Name == s.SearchName() {
				return nil, fmt.Errorf("openai: tool %q is offered as a function, but deferred tools are searched with the hosted tool_search tool, which WithDeferred adds; offer the surface's Tools() without its SearchTool()", t.Name)
			}
		}
	}
	var out []responses.ToolUnionParam // nil, not [], without tools
	offered := map[string]bool{}
	for _, t := range tools {
		if s != nil && s.Deferred(t.Name) {
			offered[t.Name] = true
			continue
		}
		p, err := ResponseTool(t)
		if err != nil {
			return nil, err
		}
		out = append(out, responses.ToolUnionParam{OfFunction: &p})
	}
	if s == nil {
		return out, nil
	}
	for _, g := range s.Groups() {
		ns := responses.NamespaceToolParam{Name: g.Name, Description: g.Description}
		for _, t := range g.Tools {
			if !offered[t.Name] {
				continue
			}
			p, err := ResponseTool(t)
			if err != nil {
				return nil, err
			}
			ns.Tools = append(ns.Tools, responses.NamespaceToolToolUnionParam{OfFunction: &responses.NamespaceToolToolFunctionParam{
				Name: p.Name, Description: p.Description, Parameters: p.Parameters, Strict: p.Strict, DeferLoading: param.NewOpt(true),
			}})
		}
		if len(ns.Tools) > 0 {
			out = append(out, responses.ToolUnionParam{OfNamespace: &ns})
		}
	}
	for _, t := range s.Ungrouped() {
		if !offered[t.Name] {
			continue
		}
		p, err := ResponseTool(t)
		if err != nil {
			return nil, err
		}
		p.DeferLoading = param.NewOpt(true)
		out = append(out, responses.ToolUnionParam{OfFunction: &p})
	}
	out = append(out, responses.ToolUnionParam{OfToolSearch: &responses.ToolSearchToolParam{}})
	return out, nil
}
