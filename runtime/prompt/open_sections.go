package prompt

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// OpenSectionsName is the wire name of the builtin tool that opens
// summarized sections, unless a tool of the prompt's sections has it: then
// the builtin takes the first free one of open_sections_2,
// open_sections_3, ... (Prompt.OpenSectionsName).
const OpenSectionsName = "open_sections"

// MaxReasonLength is the longest reason open_sections accepts, in
// characters.
const MaxReasonLength = 256

// OpenSectionsParams are the arguments of open_sections.
type OpenSectionsParams struct {
	// SectionKeys are the dot paths of the sections to open, each once, in
	// the order the model first sent them: a key sent again asks for
	// nothing more, and is dropped.
	SectionKeys []string `json:"section_keys"`
	// Reason says why the model needs the full content.
	Reason string `json:"reason"`
}

// OpenSectionsDescription is open_sections's description where the
// caller re-renders the prompt (agent loops); an MCP server words it its
// own way.
const OpenSectionsDescription = "Open summarized prompt sections to see their full content and tools. " +
	"Halts this turn; the prompt is re-sent with the sections expanded."

// openSectionsSchema is the explicit parameters schema of open_sections.
var openSectionsSchema = json.RawMessage(`{"type":"object","properties":{` +
	`"section_keys":{"type":"array","items":{"type":"string"},"minItems":1,"description":"Section keys to open. Each key identifies a summarized section. Use the keys shown in section summaries. Nested sections use dot notation (e.g., 'parent.child')."},` +
	`"reason":{"type":"string","maxLength":256,"description":"Brief explanation of why these sections need to be expanded. Helps the caller understand the model's information needs."}},` +
	`"required":["section_keys","reason"],"additionalProperties":false}`)

var openSectionsDescs = paramDescriptions(openSectionsSchema)

// openSectionsTool builds the builtin bound to one rendering's view: keys
// are checked against the visibility the model saw.
func (p *Prompt) openSectionsTool(v *view) runtime.Tool {
	decode := func(args json.RawMessage) (*OpenSectionsParams, *VisibilityExpansionRequired, error) {
		params, at, err := decodeOpenSections(p.openName, args, v)
		if err != nil {
			return nil, nil, err
		}
		exp, err := p.expansion(v, params, at)
		if err != nil {
			return nil, nil, err
		}
		return params, exp, nil
	}
	return runtime.Tool{
		Name:        p.openName,
		Description: OpenSectionsDescription,
		Parameters:  openSectionsSchema,
		// It only looks sections up (an MCP host reads the hint).
		Annotations: runtime.LookupAnnotations(),
		Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			_, exp, err := decode(args)
			if err != nil {
				return runtime.Result{}, err
			}
			return runtime.Result{}, exp
		},
		AcceptsOverrides: false,
		Decode: func(args json.RawMessage) (any, error) {
			params, _, err := decode(args)
			if err != nil {
				return nil, err
			}
			return params, nil
		},
	}
}

// DecodeOpenSections decodes and validates open_sections arguments against
// the tool's schema. Failures are a *runtime.ValidationError listing every
// violation. As the gateway, it refuses a member sent twice (code
// duplicate) and a string that is not valid Unicode (code encoding), at
// any depth, instead of keeping the last value or U+FFFD. A section key
// sent twice is kept once (SectionKeys). The tool a rendering offers also
// refuses more distinct keys than the rendering has sections.
func DecodeOpenSections(args json.RawMessage) (*OpenSectionsParams, error) {
	params, _, err := decodeOpenSections(OpenSectionsName, args, nil)
	return params, err
}

// decodeOpenSections is DecodeOpenSections for the builtin named name (its
// errors name it); at is the index in the sent section_keys of each of
// params.SectionKeys, for the paths of errors about them. With a view,
// section_keys may name at most as many distinct keys as the view has
// sections: a key can only name one of them.
func decodeOpenSections(name string, args json.RawMessage, v *view) (params *OpenSectionsParams, at []int, err error) {
	var (
		fields []runtime.FieldError
		out    OpenSectionsParams
		obj    map[string]json.RawMessage
	)
	if len(strings.TrimSpace(string(args))) == 0 {
		args = json.RawMessage("{}")
	}
	if err := json.Unmarshal(args, &obj); err != nil || obj == nil {
		return nil, nil, invalid(name, runtime.FieldError{Code: "type", Message: "arguments must be a JSON object",
			Expected: "object", Received: text.Truncate(string(args), text.ReceivedLimit)})
	}
	if p, ok := text.StrictProblem(args); ok {
		return nil, nil, invalid(name, runtime.FieldError{Path: p.Path, Code: p.Code, Message: p.Message})
	}
	for _, k := range slices.Sorted(maps.Keys(obj)) {
		if k != "section_keys" && k != "reason" {
			if len(fields) >= maxFieldErrors {
				break
			}
			shown := text.Truncate(k, text.ReceivedLimit)
			fields = append(fields, runtime.FieldError{Path: "/" + text.PointerToken(shown), Code: "additionalProperties",
				Message:    fmt.Sprintf("unknown argument %q; %s takes section_keys and reason", shown, name),
				Suggestion: text.Closest(k, []string{"section_keys", "reason"})})
		}
	}
	if raw, ok := obj["section_keys"]; !ok {
		fields = append(fields, runtime.FieldError{Path: "/section_keys", Code: "required",
			Message: "section_keys is required", Expected: "array of section keys"})
	} else {
		// The items are read in place (the arguments are valid JSON): a
		// list of many items costs no copy of each.
		i, seen := 0, map[string]bool{}
		isArray := text.Items(raw, func(item []byte) bool {
			defer func() { i++ }()
			s, ok := plainString(item)
			if !ok && (json.Unmarshal(item, &s) != nil || string(item) == "null") {
				if len(fields) < maxFieldErrors {
					fields = append(fields, runtime.FieldError{Path: "/section_keys/" + strconv.Itoa(i), Code: "type",
						Message: "section key must be a string", Expected: "string", Received: text.Truncate(string(item), text.ReceivedLimit)})
				}
				return true
			}
			if seen[s] {
				return true
			}
			if v != nil && len(out.SectionKeys) == len(v.order) {
				// One key more than there are sections: one of them names
				// none. The rest are not read, so neither time nor the
				// request kept grows with them.
				n := len(v.order)
				fields = append(fields, runtime.FieldError{Path: "/section_keys", Code: "maxItems",
					Message: fmt.Sprintf("section_keys has more than %d different keys, and this prompt has only %d %s; keys to open: %s",
						n, n, plural(n, "section", "sections"), keyList(openable(v))),
					Expected: fmt.Sprintf("at most %d different keys", n)})
				out.SectionKeys, at = nil, nil
				return false
			}
			seen[s] = true
			out.SectionKeys = append(out.SectionKeys, s)
			at = append(at, i)
			return true
		})
		switch {
		case !isArray:
			fields = append(fields, runtime.FieldError{Path: "/section_keys", Code: "type",
				Message: "section_keys must be an array of strings", Expected: "array", Received: text.Truncate(string(raw), text.ReceivedLimit)})
		case i == 0:
			fields = append(fields, runtime.FieldError{Path: "/section_keys", Code: "minItems",
				Message: "section_keys must name at least one section", Expected: "at least 1 item", Received: "[]"})
		}
	}
	if raw, ok := obj["reason"]; !ok {
		fields = append(fields, runtime.FieldError{Path: "/reason", Code: "required",
			Message: "reason is required", Expected: "string"})
	} else if err := json.Unmarshal(raw, &out.Reason); err != nil || string(raw) == "null" {
		fields = append(fields, runtime.FieldError{Path: "/reason", Code: "type",
			Message: "reason must be a string", Expected: "string", Received: text.Truncate(string(raw), text.ReceivedLimit)})
	} else if n := utf8.RuneCountInString(out.Reason); n > MaxReasonLength {
		fields = append(fields, runtime.FieldError{Path: "/reason", Code: "maxLength",
			Message:  fmt.Sprintf("reason is %d characters long; at most %d are allowed", n, MaxReasonLength),
			Expected: "at most 256 characters", Received: text.Truncate(out.Reason, text.ReceivedLimit)})
	}
	if len(fields) > 0 {
		return nil, nil, invalid(name, fields...)
	}
	return &out, at, nil
}

// plainString is the JSON string item without escapes, as it decodes; ok
// is false for any other value. (The text is valid Unicode: the arguments
// passed text.StrictProblem.)
func plainString(item []byte) (string, bool) {
	if len(item) < 2 || item[0] != '"' || item[len(item)-1] != '"' || bytes.IndexByte(item, '\\') >= 0 {
		return "", false
	}
	return string(item[1 : len(item)-1]), true
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// expansion checks params against the rendering's view and builds the
// expansion request: each key must name an enabled section that is not
// already shown in full. Opening a section hidden under a summarized
// ancestor opens the ancestors too. at[i] is the index in the sent
// section_keys of params.SectionKeys[i].
func (p *Prompt) expansion(v *view, params *OpenSectionsParams, at []int) (*VisibilityExpansionRequired, error) {
	var fields []runtime.FieldError
	exp := &VisibilityExpansionRequired{
		RequestedOverrides: Overrides{},
		Reason:             params.Reason,
		SectionKeys:        slices.Clone(params.SectionKeys),
	}
	add := func(path string) {
		if _, ok := exp.RequestedOverrides[path]; !ok {
			exp.RequestedOverrides[path] = VisibilityFull
			exp.paths = append(exp.paths, path)
		}
	}
	targets := openable(v)
	keys := keyList(targets)
	omitted := 0
	walked := map[string]bool{}
	var up []string
	for j, key := range params.SectionKeys {
		i := j // the key's index as sent
		if j < len(at) {
			i = at[j]
		}
		st, ok := v.state[key]
		if bad := !ok || (st.shown && st.vis == VisibilityFull); bad && len(fields) >= maxFieldErrors {
			// Hostile arguments: count further errors, build no more.
			omitted++
			continue
		}
		shown := text.Truncate(key, text.ReceivedLimit)
		switch {
		case !ok:
			// A section left out of this rendering (Enabled) is answered
			// as a key naming none: the model is not told it exists.
			fields = append(fields, runtime.FieldError{Path: "/section_keys/" + strconv.Itoa(i), Code: "enum",
				Message:  fmt.Sprintf("no summarized section has key %q; keys to open: %s", shown, keys),
				Received: shown, Expected: "one of: " + keys, Suggestion: text.Closest(key, targets)})
			continue
		case st.shown && st.vis == VisibilityFull:
			fields = append(fields, runtime.FieldError{Path: "/section_keys/" + strconv.Itoa(i), Code: "already_open",
				Message:  fmt.Sprintf("section %q is already open; keys to open: %s", shown, keys),
				Received: shown,
				Expected: "one of: " + keys})
			continue
		}
		// The summarized ancestors, walked up to one an earlier key has
		// walked (its own were seen then), are opened top-down. Walking
		// every prefix of every key took time cubic in the depth of a
		// deep tree, each prefix hashed again.
		up = up[:0]
		for j := strings.LastIndexByte(key, '.'); j > 0; j = strings.LastIndexByte(key[:j], '.') {
			if walked[key[:j]] {
				break
			}
			walked[key[:j]] = true
			up = append(up, key[:j])
		}
		for k := len(up) - 1; k >= 0; k-- {
			if v.state[up[k]].vis == VisibilitySummary {
				add(up[k])
			}
		}
		add(key)
	}
	if len(fields) > 0 {
		e := invalid(p.openName, fields...)
		e.Omitted = omitted
		return nil, e
	}
	exp.state = make(map[string]string, len(v.order))
	for _, path := range v.order {
		st := v.state[path]
		switch {
		case !st.shown:
			exp.state[path] = "HIDDEN"
		default:
			exp.state[path] = st.vis.String()
		}
	}
	return exp, nil
}

// openable lists the keys open_sections accepts in a view.
func openable(v *view) []string {
	var out []string
	for _, path := range v.order {
		if st := v.state[path]; !st.shown || st.vis == VisibilitySummary {
			out = append(out, path)
		}
	}
	return out
}

// maxListedKeys bounds the keys an open_sections error lists: each of up
// to maxFieldErrors errors named every key to open twice (message and
// expected), so that a call with twenty wrong keys to a prompt of
// thousands of sections built megabytes of errors. The rendered prompt
// names every key, in each summarized section's note.
const maxListedKeys = 20

// keyList joins keys for an error, listing at most maxListedKeys of them.
func keyList(keys []string) string {
	if len(keys) <= maxListedKeys {
		return strings.Join(keys, ", ")
	}
	return strings.Join(keys[:maxListedKeys], ", ") + fmt.Sprintf(" and %d more named in the prompt", len(keys)-maxListedKeys)
}

// maxFieldErrors bounds the errors one open_sections call reports, so
// that hostile arguments cannot make the answer grow with their size.
const maxFieldErrors = 20

func invalid(tool string, fields ...runtime.FieldError) *runtime.ValidationError {
	return &runtime.ValidationError{Tool: tool, Fields: fields}
}

// VisibilityExpansionRequired is the error open_sections returns for a
// valid request. It halts the evaluation turn: runtime.Dispatch passes it
// through untouched (it implements runtime.Propagator), and the caller
// retries Render with Merge(callerOverrides, e.RequestedOverrides).
type VisibilityExpansionRequired struct {
	// RequestedOverrides maps each section path to open to VisibilityFull.
	RequestedOverrides Overrides
	// Reason is the model's stated reason.
	Reason string
	// SectionKeys are the keys as the model sent them, each once, in the
	// order it first sent them (at most one per section of the rendering).
	SectionKeys []string
	paths       []string          // RequestedOverrides keys in request order
	state       map[string]string // path → FULL, SUMMARY or HIDDEN at invocation
}

var _ runtime.Propagator = (*VisibilityExpansionRequired)(nil)

// Error returns "Visibility expansion required for sections: a, b.c.
// Reason: ..." (wording fixed by the progressive disclosure spec).
func (e *VisibilityExpansionRequired) Error() string {
	return "Visibility expansion required for sections: " + strings.Join(e.Paths(), ", ") + ". Reason: " + e.Reason
}

// PropagateThroughDispatch implements runtime.Propagator.
func (*VisibilityExpansionRequired) PropagateThroughDispatch() {}

// Paths returns the keys of RequestedOverrides in request order (ancestors
// opened on the way come before the section that needed them).
func (e *VisibilityExpansionRequired) Paths() []string {
	if e.paths == nil {
		return slices.Sorted(maps.Keys(e.RequestedOverrides))
	}
	return slices.Clone(e.paths)
}

// TelemetryMetadata returns what runtime.Dispatch copies into the
// ToolInvoked event: requested_sections ([]string), reason (string) and
// current_visibility_state (map[string]string of every enabled section path
// to FULL, SUMMARY or HIDDEN when the tool was called).
func (e *VisibilityExpansionRequired) TelemetryMetadata() map[string]any {
	return map[string]any{
		"requested_sections":       slices.Clone(e.SectionKeys),
		"reason":                   e.Reason,
		"current_visibility_state": maps.Clone(e.state),
	}
}
