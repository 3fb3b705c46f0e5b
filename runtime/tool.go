package runtime

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// Handler executes one tool call. args is the raw JSON arguments object the
// model sent. Generated code supplies handlers that decode and validate args
// into the tool's params type before calling the user's typed method.
//
// A Handler reports failures through the returned Result (Success false) or
// by returning an error; Dispatch turns errors and panics into failed Results,
// except errors that implement Propagator.
type Handler func(ctx context.Context, tc ToolContext, args json.RawMessage) (Result, error)

// Tool is a callable affordance advertised to a model.
type Tool struct {
	// Name is the wire name (^[a-zA-Z0-9_-]{1,64}$, unique per prompt).
	Name string
	// Description is the text the model reads to choose the tool.
	Description string
	// Parameters is the JSON Schema of the arguments object.
	Parameters json.RawMessage
	// Handler runs the tool; nil for tools that are only documented.
	Handler Handler
	// AcceptsOverrides reports whether override pipelines may rewrite the
	// tool's description and parameter docs. NewTool sets it to true;
	// framework builtins such as open_sections set it to false.
	AcceptsOverrides bool
	// Decode, when set, decodes and validates raw arguments into the tool's
	// typed params value without running the handler (used by gateways and
	// dry runs). Generated tools set it.
	Decode func(args json.RawMessage) (any, error)
	// Title is a human-readable name for user interfaces (MCP title).
	Title string
	// Annotations are hints about the tool's behaviour for hosts (MCP
	// tool annotations); nil when unknown.
	Annotations *Annotations
	// ResultSchema is the JSON Schema of the result value, when the
	// definitions or the manifest give one (MCP outputSchema).
	ResultSchema json.RawMessage
}

// Annotations are hints about what a tool does, as MCP tool annotations
// carry them. A nil hint is unknown, and hosts assume the cautious
// default (not read-only, destructive, not idempotent, open world).
type Annotations struct {
	// ReadOnly: the tool does not change its environment.
	ReadOnly *bool
	// Destructive: a write may remove or overwrite state (otherwise it only
	// adds).
	Destructive *bool
	// Idempotent: repeating a call with the same arguments changes nothing
	// more.
	Idempotent *bool
	// OpenWorld: the tool reaches entities outside a closed domain (the
	// web, third-party systems).
	OpenWorld *bool
}

// LookupAnnotations are the hints of a builtin tool that only looks
// things up in what it was built from (tool_help, tool_search,
// open_sections): read-only, closed world. Each call returns new ones.
func LookupAnnotations() *Annotations {
	return &Annotations{ReadOnly: Hint(true), OpenWorld: Hint(false)}
}

// Hint returns a pointer to b, for Annotations literals. Not inlined: a
// catalogue's Tools calls it up to four times per tool.
//
//go:noinline
func Hint(b bool) *bool { return &b }

// Bind completes a generated tool's definition t: Decode decodes and
// validates arguments with decode, and Handler does so before calling
// call. P is a pointer to the params type (one GC shape for every tool),
// R the result type.
//
// Bind is not inlined on purpose: inlined, each of a catalogue's tools
// would get two closures of its own for the compiler to build.
//
//go:noinline
func Bind[P, R any](t Tool, decode func(tool string, args []byte) (P, error), call func(context.Context, ToolContext, P) (ToolResult[R], error)) Tool {
	name := t.Name
	t.AcceptsOverrides = true
	t.Decode = func(args json.RawMessage) (any, error) {
		return decode(name, args)
	}
	t.Handler = func(ctx context.Context, tc ToolContext, args json.RawMessage) (Result, error) {
		p, err := decode(name, args)
		if err != nil {
			return Result{}, err
		}
		r, err := call(ctx, tc, p)
		if err == nil && r.Success {
			if verr := validateResult(&r.Value); verr != nil {
				// MCP clients refuse structured content that does not
				// match the output schema, as an exception rather than a
				// failed call: the handler's bug is answered as one.
				err = &ResultSchemaError{Tool: name, Err: verr}
				return Result{Message: err.Error(), Err: err, Params: p}, nil
			}
		}
		return r.WithParams(p), err
	}
	return t
}

// validateResult checks a handler's result value with its generated
// Validate method, when its type has one (a result with an output
// schema).
func validateResult[R any](v *R) error {
	if x, ok := any(v).(interface{ Validate() error }); ok {
		return x.Validate()
	}
	// A result of pointer type the handler left nil has nothing to check.
	if x, ok := any(*v).(interface{ Validate() error }); ok && !isNil(any(*v)) {
		return x.Validate()
	}
	return nil
}

// ResultSchemaError is a handler's successful result that does not match
// the tool's output schema: a bug in the handler, answered as a failure
// (code INTERNAL). It does not unwrap to the violations: they are not the
// caller's to fix, as a *ValidationError's are.
type ResultSchemaError struct {
	Tool string
	Err  error
}

func (e *ResultSchemaError) Error() string {
	return "tool " + e.Tool + " returned a result that does not match its output schema (a bug in the tool, not in the call): " + e.Err.Error()
}

// NewTool builds a hand-written tool and checks it against the strict rules
// of the tool runtime spec: lowercase name, ASCII description of 1–200
// characters, a parameters schema that is a JSON object.
func NewTool(name, description string, parameters json.RawMessage, h Handler) (Tool, error) {
	t := Tool{Name: name, Description: description, Parameters: parameters, Handler: h, AcceptsOverrides: true}
	if err := t.Check(true); err != nil {
		return Tool{}, err
	}
	return t, nil
}

// MustTool is NewTool that panics on error, for package-level tool tables.
func MustTool(name, description string, parameters json.RawMessage, h Handler) Tool {
	t, err := NewTool(name, description, parameters, h)
	if err != nil {
		panic(err)
	}
	return t
}

// Check validates the tool's definition. With strict set it applies the
// spec's rules for hand-written tools (see NewTool); otherwise only what
// providers accept, as generated tools keep their definitions' names and
// descriptions: a name matching ^[a-zA-Z0-9_-]{1,64}$. Either way a
// parameters schema, when present, must be a JSON object.
func (t Tool) Check(strict bool) error {
	if strict {
		if err := CheckStrictName(t.Name); err != nil {
			return &ToolDefinitionError{Tool: t.Name, Reason: err.Error()}
		}
		if err := CheckDescription(t.Description); err != nil {
			return &ToolDefinitionError{Tool: t.Name, Reason: err.Error()}
		}
	} else if err := CheckName(t.Name); err != nil {
		return &ToolDefinitionError{Tool: t.Name, Reason: err.Error()}
	}
	if len(t.Parameters) > 0 && !isObject(t.Parameters) {
		return &ToolDefinitionError{Tool: t.Name, Reason: "parameters must be a JSON Schema object"}
	}
	return nil
}

// isObject reports whether raw is one valid JSON object. It checks in one
// pass, without decoding: a server checks every tool of a catalogue of
// thousands when it starts.
func isObject(raw json.RawMessage) bool {
	return text.ValidJSON(raw) && bytes.TrimLeft(raw, " \t\r\n")[0] == '{'
}

// CheckUnique reports tools sharing a name: a *DuplicateToolError naming
// every duplicated name, in order of first duplication, or nil.
func CheckUnique(tools []Tool) error {
	seen := make(map[string]int, len(tools))
	var dup []string
	for _, t := range tools {
		seen[t.Name]++
		if seen[t.Name] == 2 {
			dup = append(dup, t.Name)
		}
	}
	if dup == nil {
		return nil
	}
	return &DuplicateToolError{Names: dup}
}

// DuplicateToolError reports tool names that occur more than once in one
// prompt or tool list.
type DuplicateToolError struct {
	Names []string
}

func (e *DuplicateToolError) Error() string {
	var b strings.Builder
	if len(e.Names) == 1 {
		b.WriteString("duplicate tool name ")
	} else {
		b.WriteString("duplicate tool names ")
	}
	for i, n := range e.Names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(n))
	}
	return b.String()
}

// ToolDefinitionError reports a tool that breaks the naming or description
// rules; it names the tool.
type ToolDefinitionError struct {
	Tool   string
	Reason string
}

func (e *ToolDefinitionError) Error() string {
	return "tool " + quote(e.Tool) + ": " + e.Reason
}

// Pick returns the tools named, in the order named; a name without a tool
// is skipped. Generated surfaces and toolgen tokens select a group's tools
// with it.
func Pick(tools []Tool, names ...string) []Tool {
	out := make([]Tool, 0, len(names))
	if len(names) > 8 && len(tools) > 8 {
		// A facade of a large catalogue picks thousands of tools: index
		// them once rather than scanning them for every name.
		first := make(map[string]int, len(tools))
		for i := len(tools) - 1; i >= 0; i-- {
			first[tools[i].Name] = i
		}
		for _, n := range names {
			if i, ok := first[n]; ok {
				out = append(out, tools[i])
			}
		}
		return out
	}
	for _, n := range names {
		for _, t := range tools {
			if t.Name == n {
				out = append(out, t)
				break
			}
		}
	}
	return out
}

// Definitions returns tools as the JSON array of OpenAI chat tool
// definitions a provider receives:
// [{"type":"function","function":{"name":…,"description":…,"parameters":…}}].
// A tool without a parameters schema has no "parameters" member. The bytes
// are json.Marshal's (HTML escaped, parameters compacted), written without
// reflection: the flat list of ten thousand tools is 16 MB. A Parameters
// value that is not JSON makes the list "[]", as json.Marshal's error did.
func Definitions(tools []Tool) json.RawMessage {
	n := 2
	for _, t := range tools {
		n += len(`{"type":"function","function":{"name":"","description":"","parameters":}},`) +
			len(t.Name) + len(t.Description) + len(t.Parameters)
	}
	b := make([]byte, 0, n+n/16) // room for some escapes

	b = append(b, '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"type":"function","function":{"name":`...)
		b = text.AppendJSONString(b, t.Name, true)
		b = append(b, `,"description":`...)
		b = text.AppendJSONString(b, t.Description, true)
		if len(t.Parameters) > 0 {
			b = append(b, `,"parameters":`...)
			var ok bool
			if b, ok = text.AppendCompactJSON(b, t.Parameters, true); !ok {
				return json.RawMessage("[]")
			}
		}
		b = append(b, '}', '}')
	}
	return append(b, ']')
}
