package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// IgnoredArgs finds the arguments of a call that a generated tool accepted
// and dropped. A schema that lists its properties without saying
// additionalProperties accepts a member it does not declare, as JSON
// Schema says; the generated params type has no field for it, so the
// handler never sees it. A model that misspells an optional argument
// ("per_pag" for "perPage") would otherwise believe it was sent. Surfaces
// with a channel for it (tool_exec's warnings, a second MCP content block)
// say so with Warnings.
//
// Only top-level members are judged. The zero value and a nil
// *IgnoredArgs find none.
type IgnoredArgs struct {
	once   sync.Once
	schema json.RawMessage
	props  []string // sorted; nil when the tool drops nothing
}

// NewIgnoredArgs returns the IgnoredArgs of t. It reads t.Parameters on
// first use, not here: a family of thousands of tools pays only for the
// tools that are called. Tools without Decode (hand-written ones, which
// see their raw arguments) drop nothing.
func NewIgnoredArgs(t Tool) *IgnoredArgs {
	if t.Decode == nil {
		return nil
	}
	return &IgnoredArgs{schema: t.Parameters}
}

// dropped returns the sorted property names of a schema whose decoder
// drops undeclared members, nil otherwise: the schema lists properties,
// allows others (additionalProperties absent or true) with no schema to
// keep them by, and no other keyword (patternProperties, a union, allOf,
// a reference, a conditional, dependentSchemas, unevaluatedProperties)
// keeps them or may declare more. Keywords are read by their exact names.
func dropped(schema json.RawMessage) []string {
	var s map[string]json.RawMessage
	if json.Unmarshal(schema, &s) != nil {
		return nil
	}
	for _, k := range []string{"patternProperties", "anyOf", "oneOf", "allOf", "$ref", "$dynamicRef", "if", "dependentSchemas", "unevaluatedProperties"} {
		if _, ok := s[k]; ok {
			return nil
		}
	}
	if ap, ok := s["additionalProperties"]; ok && string(bytes.TrimSpace(ap)) != "true" {
		return nil
	}
	var props map[string]json.RawMessage
	if json.Unmarshal(s["properties"], &props) != nil || len(props) == 0 {
		return nil
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// maxIgnoredWarnings bounds the warnings of one call.
const maxIgnoredWarnings = 5

// Warnings returns one sentence per top-level member of args the tool
// dropped, naming owner (the tool or op) and the nearest declared
// argument, in name order and at most five (then a count of the rest).
// failure is the call's error, nil on success: a decoder's refusal that
// may name undeclared members (an additionalProperties error, or errors
// left out) means they were refused, not ignored, and gives none.
func (ia *IgnoredArgs) Warnings(owner string, args json.RawMessage, failure error) []string {
	if ia == nil || refusesUndeclared(failure) {
		return nil
	}
	ia.once.Do(func() { ia.props = dropped(ia.schema) })
	if ia.props == nil {
		return nil
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(args, &members) != nil {
		return nil
	}
	var names []string
	for k := range members {
		if _, found := slices.BinarySearch(ia.props, k); !found {
			names = append(names, k)
		}
	}
	sort.Strings(names)
	var out []string
	for i, k := range names {
		if i == maxIgnoredWarnings {
			out = append(out, fmt.Sprintf("%d more arguments that %s does not take were ignored", len(names)-i, owner))
			break
		}
		w := fmt.Sprintf("%q is not an argument of %s and was ignored", text.Truncate(k, 64), owner)
		if s := text.Closest(k, ia.props); s != "" {
			w += fmt.Sprintf(" (did you mean %q?)", s)
		} else if s := text.Respelled(k, ia.props); s != "" {
			w += fmt.Sprintf(" (did you mean %q?)", s)
		}
		out = append(out, w)
	}
	return out
}

// refusesUndeclared reports a decoder's refusal that may name arguments it
// does not take. A generated decoder whose schema drops them never
// refuses them; a hand-written one may.
func refusesUndeclared(err error) bool {
	var ve *ValidationError
	if !errors.As(err, &ve) {
		return false
	}
	return ve.Omitted > 0 || slices.ContainsFunc(ve.Fields, func(f FieldError) bool { return f.Code == "additionalProperties" })
}
