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
var mayDeclareMore = []string{"patternProperties", "anyOf", "oneOf", "allOf", "$ref", "$dynamicRef", "$recursiveRef", "if", "dependentSchemas", "dependencies", "unevaluatedProperties"}

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
	// Items after a prefixItems tuple are not all the array's items.
	if items, ok := s["items"]; ok && s["prefixItems"] == nil {
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

// step is one step of the path walk is at: a member name (raw JSON string
// contents) or an array index.
type step struct {
	key   []byte
	index int
}

// pointer renders path as a JSON pointer.
func pointer(path []step) string {
	var b []byte
	for _, s := range path {
		b = append(b, '/')
		if s.key == nil {
			b = fmt.Appendf(b, "%d", s.index)
			continue
		}
		b = append(b, text.PointerToken(unquote(s.key))...)
	}
	return string(b)
}

// unquote is the text of raw JSON string contents.
func unquote(key []byte) string {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key)
	}
	var s string
	if json.Unmarshal(append(append([]byte{'"'}, key...), '"'), &s) != nil {
		return string(key)
	}
	return s
}

// declares reports whether the sorted props hold the member whose raw
// string contents are key.
func declares(props []string, key []byte) bool {
	if bytes.IndexByte(key, '\\') >= 0 {
		_, found := slices.BinarySearch(props, unquote(key))
		return found
	}
	lo, hi := 0, len(props)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if props[mid] < string(key) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	return lo < len(props) && props[lo] == string(key)
}

// walk adds to out the members of the JSON value b that n drops, and
// those of its judged values below, in the order they come. It reads b
// once without allocating until it finds one; on JSON it cannot read it
// stops (the decoder refused such arguments already).
func (n *dropNode) walk(b []byte, path *[]step, out *[]ignored) {
	i := skipSpace(b, 0)
	switch {
	case i < len(b) && b[i] == '{' && (n.props != nil || n.children != nil):
		i++
		for {
			i = skipSpace(b, i)
			if i >= len(b) || b[i] != '"' {
				return // '}' or not JSON
			}
			kEnd, ok := skipString(b, i)
			if !ok {
				return
			}
			key := b[i+1 : kEnd-1]
			i = skipSpace(b, kEnd)
			if i >= len(b) || b[i] != ':' {
				return
			}
			v := skipSpace(b, i+1)
			vEnd, ok := skipValue(b, v)
			if !ok {
				return
			}
			switch {
			case n.props != nil && !declares(n.props, key):
				f := ignored{at: pointer(*path), name: unquote(key), props: n.props}
				// A member sent twice is one warning.
				if !slices.ContainsFunc(*out, func(g ignored) bool { return g.at == f.at && g.name == f.name }) {
					*out = append(*out, f)
				}
			case n.children != nil:
				c := n.children[string(key)]
				if bytes.IndexByte(key, '\\') >= 0 {
					c = n.children[unquote(key)]
				}
				if c != nil {
					*path = append(*path, step{key: key})
					c.walk(b[v:vEnd], path, out)
					*path = (*path)[:len(*path)-1]
				}
			}
			i = skipSpace(b, vEnd)
			if i >= len(b) || b[i] != ',' {
				return
			}
			i++
		}
	case i < len(b) && b[i] == '[' && n.items != nil:
		i++
		for index := 0; ; index++ {
			i = skipSpace(b, i)
			if i >= len(b) || b[i] == ']' {
				return
			}
			vEnd, ok := skipValue(b, i)
			if !ok {
				return
			}
			*path = append(*path, step{index: index})
			n.items.walk(b[i:vEnd], path, out)
			*path = (*path)[:len(*path)-1]
			i = skipSpace(b, vEnd)
			if i >= len(b) || b[i] != ',' {
				return
			}
			i++
		}
	}
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the offset past the JSON string starting at b[i].
func skipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// skipValue returns the offset past the JSON value starting at b[i]
// (nested values counted, not checked).
func skipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := skipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for ; j < len(b); j++ {
		if c := b[j]; c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
	}
	return j, j > i
}

// Warnings returns one sentence per member of args the tool dropped,
// naming owner (the tool or op) and the nearest declared name, in the
// order they come in args, at most five (then a count of the rest). failure
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
	var path []step
	ia.root.walk(args, &path, &found)
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
