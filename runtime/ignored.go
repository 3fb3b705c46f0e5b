package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sort"
	"sync"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// IgnoredArgs finds the arguments of a call that a generated tool accepted
// and dropped. A schema that lists an object's properties without saying
// additionalProperties accepts a member it does not declare, as JSON
// Schema says; the generated Go type has no field for it, so the handler
// never sees it. A model that misspells an optional argument ("per_pag"
// for "perPage") would otherwise believe it was sent. The surfaces say so
// with Warnings: tool_exec's warnings, a second MCP content block, a note
// ending the agent loop's tool message or a facade's shortcut answer.
//
// Objects are judged at the top level and inside declared properties and
// array items, wherever the schema says what they hold; nothing is judged
// under a keyword that may keep or declare more members (an
// additionalProperties schema, patternProperties, a union, allOf, a
// reference, a conditional, dependentSchemas, unevaluatedProperties). A
// nil *IgnoredArgs finds none.
type IgnoredArgs struct {
	once   sync.Once
	schema json.RawMessage
	root   *dropNode // nil when the tool drops nothing
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

// dropNode is what one schema says of the members a value may hold.
type dropNode struct {
	// props are the declared property names, sorted, when the object
	// drops the others; nil when it drops none.
	props []string
	// children judge the values of properties, items those of an array.
	children map[string]*dropNode
	items    *dropNode
}

// mayDeclareMore are the keywords under which the members an object keeps
// are not (only) its properties.
var mayDeclareMore = []string{"patternProperties", "anyOf", "oneOf", "allOf", "$ref", "$dynamicRef", "if", "dependentSchemas", "unevaluatedProperties"}

// maxDropDepth bounds the nesting compileDrop follows.
const maxDropDepth = 32

// compileDrop reads schema, nil when nothing is judged in it: keywords
// are read by their exact names, and an object drops undeclared members
// when it lists properties and allows others (additionalProperties
// absent or true) with no schema to keep them by.
func compileDrop(schema json.RawMessage, depth int) *dropNode {
	var s map[string]json.RawMessage
	if depth > maxDropDepth || json.Unmarshal(schema, &s) != nil {
		return nil
	}
	for _, k := range mayDeclareMore {
		if _, ok := s[k]; ok {
			return nil
		}
	}
	n := &dropNode{}
	var props map[string]json.RawMessage
	if json.Unmarshal(s["properties"], &props) == nil && len(props) > 0 {
		ap, ok := s["additionalProperties"]
		if !ok || string(bytes.TrimSpace(ap)) == "true" {
			for name := range props {
				n.props = append(n.props, name)
			}
			sort.Strings(n.props)
		}
		for name, sub := range props {
			if c := compileDrop(sub, depth+1); c != nil {
				if n.children == nil {
					n.children = map[string]*dropNode{}
				}
				n.children[name] = c
			}
		}
	}
	if items, ok := s["items"]; ok {
		n.items = compileDrop(items, depth+1)
	}
	if n.props == nil && n.children == nil && n.items == nil {
		return nil
	}
	return n
}

// ignored is one dropped member: where its object is (a JSON pointer,
// "" for the arguments) and its name, with the names the object declares.
type ignored struct {
	at, name string
	props    []string
}

// maxIgnoredWarnings bounds the warnings of one call.
const maxIgnoredWarnings = 5

// walk adds the members of raw that n drops to out, in name order, and
// those of its judged values below.
func (n *dropNode) walk(at string, raw json.RawMessage, out *[]ignored) {
	raw = bytes.TrimSpace(raw)
	switch {
	case len(raw) > 0 && raw[0] == '{' && (n.props != nil || n.children != nil):
		var members map[string]json.RawMessage
		if json.Unmarshal(raw, &members) != nil {
			return
		}
		for _, k := range slices.Sorted(maps.Keys(members)) {
			if n.props != nil {
				if _, found := slices.BinarySearch(n.props, k); !found {
					*out = append(*out, ignored{at: at, name: k, props: n.props})
					continue
				}
			}
			if c := n.children[k]; c != nil {
				c.walk(at+"/"+text.PointerToken(k), members[k], out)
			}
		}
	case len(raw) > 0 && raw[0] == '[' && n.items != nil:
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return
		}
		for i, item := range items {
			n.items.walk(fmt.Sprintf("%s/%d", at, i), item, out)
		}
	}
}

// Warnings returns one sentence per member of args the tool dropped,
// naming owner (the tool or op) and the nearest declared name: depth
// first in name order, at most five (then a count of the rest). failure
// is the call's error, nil on success: a decoder's refusal that may name
// undeclared members (an additionalProperties error, or errors left out)
// means they were refused, not ignored, and gives none.
func (ia *IgnoredArgs) Warnings(owner string, args json.RawMessage, failure error) []string {
	if ia == nil || refusesUndeclared(failure) {
		return nil
	}
	ia.once.Do(func() { ia.root = compileDrop(ia.schema, 0) })
	if ia.root == nil {
		return nil
	}
	var found []ignored
	ia.root.walk("", args, &found)
	var out []string
	for i, f := range found {
		if i == maxIgnoredWarnings {
			out = append(out, fmt.Sprintf("%d more arguments that %s does not take were ignored", len(found)-i, owner))
			break
		}
		name := text.Truncate(f.name, 64)
		w := fmt.Sprintf("%q is not an argument of %s and was ignored", name, owner)
		if f.at != "" {
			w = fmt.Sprintf("%q at %s is not a member %s takes there and was ignored", name, text.Truncate(f.at, 128), owner)
		}
		if s := text.Closest(f.name, f.props); s != "" {
			w += fmt.Sprintf(" (did you mean %q?)", s)
		} else if s := text.Respelled(f.name, f.props); s != "" {
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
