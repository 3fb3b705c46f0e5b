package matryoshka

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Call is a decoded facade call: unfold (optionally one category), or run
// Tool of the facade's subtree with Args.
type Call struct {
	// Facade is the facade the call is for.
	Facade   *FacadeDef      `json:"-"`
	Category string          `json:"category,omitempty"`
	Tool     string          `json:"tool,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
}

var callKeys = []string{"args", "category", "tool"}

// decode reads a facade call from the model's raw arguments. Empty input and
// null mean {}. Every violation is reported, each with its JSON pointer.
func (d *FacadeDef) decode(raw json.RawMessage) (*Call, error) {
	c := &Call{Facade: d}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return c, nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return nil, &runtime.ValidationError{Tool: d.name, Fields: []runtime.FieldError{{
			Code: "type", Message: "arguments must be a JSON object", Expected: "object", Received: text.Truncate(string(raw), text.ReceivedLimit),
		}}}
	}
	// encoding/json keeps the last value of a repeated member (a log or an
	// approval prompt reading the call's text may show the first tool) and
	// decodes invalid Unicode as U+FFFD (the name looked up is not the one
	// sent). The whole text is checked once, args included: its members are
	// the facade's arguments too, and the pointer of a problem there
	// (/args/...) locates it in what the model sent. Args sent as a string
	// holding an object are checked once decoded, below.
	if p, ok := text.StrictProblem(raw); ok {
		return nil, &runtime.ValidationError{Tool: d.name, Fields: []runtime.FieldError{{
			Path: p.Path, Code: p.Code, Message: p.Message,
		}}}
	}
	var errs []runtime.FieldError
	unknown, omitted := 0, 0
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := obj[k]
		switch k {
		case "category", "tool":
			var s *string
			if err := json.Unmarshal(v, &s); err != nil {
				errs = append(errs, runtime.FieldError{
					Path: "/" + k, Code: "type", Message: k + " must be a string",
					Expected: "string", Received: text.Truncate(string(v), text.ReceivedLimit),
				})
				continue
			}
			if s == nil {
				continue
			}
			if k == "tool" {
				c.Tool = *s
			} else {
				c.Category = *s
			}
		case "args":
			a, ok := objectArgs(v)
			if !ok {
				errs = append(errs, runtime.FieldError{
					Path: "/args", Code: "type", Message: "args must be an object of arguments for tool",
					Expected: "object", Received: text.Truncate(string(v), text.ReceivedLimit),
				})
				continue
			}
			if a != nil && bytes.HasPrefix(bytes.TrimSpace(v), []byte(`"`)) {
				// Sent as a string: the check of the whole text saw one
				// string, not the members it holds.
				if p, ok := text.StrictProblem(a); ok {
					return nil, &runtime.ValidationError{Tool: d.name, Fields: []runtime.FieldError{{
						Path: "/args" + p.Path, Code: p.Code, Message: p.Message,
					}}}
				}
			}
			c.Args = a
		default:
			if unknown++; unknown > maxUnknownErrors {
				omitted++ // counted, not built: see maxUnknownErrors
				continue
			}
			errs = append(errs, runtime.FieldError{
				Path: "/" + text.PointerToken(text.Truncate(k, text.ReceivedLimit)), Code: "additionalProperties",
				Message:    fmt.Sprintf("unknown argument %q; facade arguments are category, tool and args", text.Truncate(k, text.ReceivedLimit)),
				Suggestion: closest(k, callKeys)[0],
			})
		}
	}
	if c.Category != "" && c.Tool == "" && !d.hasCategory(c.Category) {
		fe := runtime.FieldError{Path: "/category", Code: "enum", Received: text.Truncate(c.Category, text.ReceivedLimit)}
		if len(d.categories) == 0 {
			fe.Message = "this facade has no categories; omit category"
		} else {
			fe.Message = "unknown category"
			fe.Expected = fmt.Sprintf("one of %q", d.Categories())
			fe.Suggestion = closest(c.Category, d.Categories())[0]
		}
		errs = append(errs, fe)
	}
	if c.Args != nil && c.Tool == "" {
		errs = append(errs, runtime.FieldError{
			Path: "/tool", Code: "required", Message: "args given without tool; name the tool to run",
		})
	}
	if len(errs) > 0 {
		return nil, &runtime.ValidationError{Tool: d.name, Fields: errs, Omitted: omitted}
	}
	return c, nil
}

// maxUnknownErrors bounds the unknown arguments one call's error lists;
// the rest are counted in Omitted. An error was built for each (with its
// closest argument name): 300,000 unknown members, 3.5 MB of arguments,
// took 2.6 s and 356 MB, to render twenty of them.
const maxUnknownErrors = 20

// objectArgs accepts an object, null, or a string holding an object (some
// models double-encode nested arguments).
func objectArgs(v json.RawMessage) (json.RawMessage, bool) {
	v = bytes.TrimSpace(v)
	if bytes.Equal(v, []byte("null")) {
		return nil, true
	}
	if len(v) > 0 && v[0] == '"' {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, false
		}
		v = bytes.TrimSpace([]byte(s))
	}
	if len(v) == 0 || v[0] != '{' || !json.Valid(v) {
		return nil, false
	}
	return v, true
}

func (d *FacadeDef) hasCategory(name string) bool {
	for _, c := range d.categories {
		if c.name == name {
			return true
		}
	}
	return false
}

// schema is the facade's parameters: an optional category enum (when
// categories exist), and the shortcut pair tool + args.
func (d *FacadeDef) schema() json.RawMessage {
	type prop struct {
		Type        string   `json:"type"`
		Enum        []string `json:"enum,omitempty"`
		Description string   `json:"description"`
	}
	type props struct {
		Category *prop `json:"category,omitempty"`
		Tool     prop  `json:"tool"`
		Args     prop  `json:"args"`
	}
	p := props{
		Tool: prop{Type: "string", Description: "Run this tool of the group directly instead of unfolding it; pass its arguments in args."},
		Args: prop{Type: "object", Description: "Arguments for tool."},
	}
	if len(d.categories) > 0 {
		p.Category = &prop{Type: "string", Enum: d.Categories(), Description: "Unfold only the tools of this category; omit to unfold all."}
	}
	s := struct {
		Type                 string `json:"type"`
		Properties           props  `json:"properties"`
		AdditionalProperties bool   `json:"additionalProperties"`
	}{"object", p, false}
	b, _ := json.Marshal(s) // strings, bools and maps of them cannot fail
	return b
}
