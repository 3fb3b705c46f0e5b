package runtime

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
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
// array items, wherever the schema says what they hold, through local
// references ("#/$defs/…", recursive ones too) and unions of one schema
// with null (pydantic's optional model); nothing is judged under a keyword
// that may keep or declare more members (an additionalProperties schema,
// patternProperties, a union of two schemas, allOf, a reference with
// constraints beside it or into another document, a conditional,
// dependentSchemas, unevaluatedProperties). A nil *IgnoredArgs finds none.
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
// are not (only) its properties. A $ref, anyOf or oneOf alone is followed
// (compileDrop); next to another of these it is not judged.
var mayDeclareMore = []string{"patternProperties", "anyOf", "oneOf", "allOf", "$ref", "$dynamicRef", "$recursiveRef", "if", "dependentSchemas", "dependencies", "unevaluatedProperties"}

// annotations are the keywords that say nothing of the members a value
// may hold (and the places definitions are kept): next to a followed $ref
// or union they change nothing.
var annotations = map[string]bool{"$comment": true, "title": true, "description": true, "default": true, "examples": true,
	"deprecated": true, "readOnly": true, "writeOnly": true, "type": true, "$schema": true, "$defs": true, "definitions": true}

// maxDropDepth bounds the nesting compileDrop follows, and maxDropRefs the
// distinct references it resolves (each reads the schema from its root).
const (
	maxDropDepth = 32
	maxDropRefs  = 64
)

// dropCompiler reads a tool's parameters schema into dropNodes.
type dropCompiler struct {
	root json.RawMessage
	// local is set when a "#…" reference resolves against root: no
	// subschema sets a base URI or anchor of its own.
	local bool
	// byRef are the nodes of the references followed so far, by JSON
	// pointer; a node being read is there already (empty until done), so
	// a recursive reference ends in it.
	byRef map[string]*dropNode
}

// compileDrop reads a tool's parameters schema, nil when nothing is
// judged in it.
func compileDrop(schema json.RawMessage) *dropNode {
	c := &dropCompiler{root: schema, local: true}
	for _, k := range []string{`"$id"`, `"$anchor"`, `"$dynamicAnchor"`, `"$recursiveAnchor"`} {
		if bytes.Contains(schema, []byte(k)) {
			c.local = false
		}
	}
	return c.compile(schema, 0)
}

// compile reads schema, nil when nothing is judged in it: keywords are
// read by their exact names, and an object drops undeclared members when
// it lists properties and allows others (additionalProperties absent or
// true) with no schema to keep them by. A local $ref with nothing but
// annotations beside it is judged as its target, and a union of one
// schema and null (an optional object: {"anyOf":[{"$ref":…},{"type":"null"}]})
// as that schema.
func (c *dropCompiler) compile(schema json.RawMessage, depth int) *dropNode {
	var s map[string]json.RawMessage
	if depth > maxDropDepth || json.Unmarshal(schema, &s) != nil {
		return nil
	}
	if ref, ok := s["$ref"]; ok {
		if !onlyBeside(s, "$ref") {
			return nil
		}
		return c.ref(ref, depth)
	}
	for _, union := range [...]string{"anyOf", "oneOf"} {
		if branches, ok := s[union]; ok {
			if !onlyBeside(s, union) {
				return nil
			}
			if b := nonNullBranch(branches); b != nil {
				return c.compile(b, depth+1)
			}
			return nil
		}
	}
	for _, k := range mayDeclareMore {
		if _, ok := s[k]; ok {
			return nil
		}
	}
	n := &dropNode{}
	var props map[string]json.RawMessage
	if json.Unmarshal(s["properties"], &props) == nil && len(props) > 0 {
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names) // references are followed in one order (maxDropRefs)
		if ap, ok := s["additionalProperties"]; !ok || string(bytes.TrimSpace(ap)) == "true" {
			n.props = names
		}
		for _, name := range names {
			if ch := c.compile(props[name], depth+1); ch != nil {
				if n.children == nil {
					n.children = map[string]*dropNode{}
				}
				n.children[name] = ch
			}
		}
	}
	// Items after a prefixItems tuple are not all the array's items.
	if items, ok := s["items"]; ok && s["prefixItems"] == nil {
		n.items = c.compile(items, depth+1)
	}
	if n.props == nil && n.children == nil && n.items == nil {
		return nil
	}
	return n
}

// onlyBeside reports whether every keyword of s but k is an annotation.
func onlyBeside(s map[string]json.RawMessage, k string) bool {
	for key := range s {
		if key != k && !annotations[key] {
			return false
		}
	}
	return true
}

// nonNullBranch is the one branch of a union that is not {"type":"null"}
// (with annotations), nil when there is not exactly one.
func nonNullBranch(raw json.RawMessage) json.RawMessage {
	var branches []json.RawMessage
	if json.Unmarshal(raw, &branches) != nil {
		return nil
	}
	var other json.RawMessage
	for _, b := range branches {
		var s map[string]json.RawMessage
		if json.Unmarshal(b, &s) == nil && string(bytes.TrimSpace(s["type"])) == `"null"` && onlyBeside(s, "type") {
			continue
		}
		if other != nil {
			return nil
		}
		other = b
	}
	return other
}

// ref is the node of the target of a local reference ("#" or "#/…", a
// JSON pointer into the tool's schema), nil for any other.
func (c *dropCompiler) ref(raw json.RawMessage, depth int) *dropNode {
	var ref string
	if !c.local || json.Unmarshal(raw, &ref) != nil || !strings.HasPrefix(ref, "#") {
		return nil
	}
	ptr, err := url.PathUnescape(ref[1:])
	if err != nil {
		return nil
	}
	if n, ok := c.byRef[ptr]; ok {
		// Read already, or being read: a recursive reference ends in the
		// node its target fills once read (empty, it judges nothing).
		return n
	}
	if len(c.byRef) >= maxDropRefs {
		return nil
	}
	target, ok := resolvePointer(c.root, ptr)
	if !ok {
		return nil
	}
	n := &dropNode{}
	if c.byRef == nil {
		c.byRef = map[string]*dropNode{}
	}
	c.byRef[ptr] = n
	if t := c.compile(target, depth+1); t != nil {
		*n = *t
		return n
	}
	return nil
}

// resolvePointer is the value of doc at the JSON pointer ptr.
func resolvePointer(doc json.RawMessage, ptr string) (json.RawMessage, bool) {
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var obj map[string]json.RawMessage
		if json.Unmarshal(doc, &obj) == nil {
			v, ok := obj[tok]
			if !ok {
				return nil, false
			}
			doc = v
			continue
		}
		var arr []json.RawMessage
		i, err := strconv.Atoi(tok)
		if json.Unmarshal(doc, &arr) != nil || err != nil || i < 0 || i >= len(arr) || tok != strconv.Itoa(i) {
			return nil, false
		}
		doc = arr[i]
	}
	return doc, true
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
	i := text.SkipBlanks(b, 0)
	switch {
	case i < len(b) && b[i] == '{' && (n.props != nil || n.children != nil):
		i++
		for {
			i = text.SkipBlanks(b, i)
			if i >= len(b) || b[i] != '"' {
				return // '}' or not JSON
			}
			kEnd, ok := text.SkipString(b, i)
			if !ok {
				return
			}
			key := b[i+1 : kEnd-1]
			i = text.SkipBlanks(b, kEnd)
			if i >= len(b) || b[i] != ':' {
				return
			}
			v := text.SkipBlanks(b, i+1)
			vEnd, ok := text.SkipValue(b, v)
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
			i = text.SkipBlanks(b, vEnd)
			if i >= len(b) || b[i] != ',' {
				return
			}
			i++
		}
	case i < len(b) && b[i] == '[' && n.items != nil:
		i++
		for index := 0; ; index++ {
			i = text.SkipBlanks(b, i)
			if i >= len(b) || b[i] == ']' {
				return
			}
			vEnd, ok := text.SkipValue(b, i)
			if !ok {
				return
			}
			*path = append(*path, step{index: index})
			n.items.walk(b[i:vEnd], path, out)
			*path = (*path)[:len(*path)-1]
			i = text.SkipBlanks(b, vEnd)
			if i >= len(b) || b[i] != ',' {
				return
			}
			i++
		}
	}
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
	ia.once.Do(func() { ia.root = compileDrop(ia.schema) })
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
