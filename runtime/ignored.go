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

// maxDropWork bounds the bytes compileDrop decodes, per byte of the
// schema, on top of dropWorkFloor. Each level of nesting decodes its
// subschema again (the schema, then its properties or union branches),
// and each reference its target, which references may share under other
// spellings ("~" and "~0" read alike) or nest one in another: unbounded,
// a schema of 64 KB cost thousands of times its size, seconds on the
// call that reads it first. What is left when the budget is spent is not
// judged (nothing is said of it).
const (
	maxDropWork   = 2 * maxDropDepth
	dropWorkFloor = 1 << 20
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
	// budget is what is left of the bytes it may decode (maxDropWork).
	budget int
}

// decode is json.Unmarshal(raw, v), false when it fails or would take
// more than what is left of the budget.
func (c *dropCompiler) decode(raw json.RawMessage, v any) bool {
	if c.budget -= len(raw); c.budget < 0 {
		return false
	}
	return json.Unmarshal(raw, v) == nil
}

// compileDrop reads a tool's parameters schema, nil when nothing is
// judged in it.
func compileDrop(schema json.RawMessage) *dropNode {
	c := &dropCompiler{root: schema, local: true, budget: maxDropWork*len(schema) + dropWorkFloor}
	for _, k := range []string{`"$id"`, `"$anchor"`, `"$dynamicAnchor"`, `"$recursiveAnchor"`} {
		if bytes.Contains(schema, []byte(k)) {
			c.local = false
		}
	}
	return c.compile(schema, 0)
}

// compile reads schema, nil when nothing is judged in it: keywords are
// read by their exact names, and an object drops undeclared members when
// it lists properties without saying additionalProperties; when it says
// true or {}, the generated type keeps them in its Extra map. A local $ref with nothing but annotations
// beside it is judged as its target, and a union of one schema and null
// (an optional object: {"anyOf":[{"$ref":…},{"type":"null"}]}) as that
// schema.
func (c *dropCompiler) compile(schema json.RawMessage, depth int) *dropNode {
	var s map[string]json.RawMessage
	if depth > maxDropDepth || !c.decode(schema, &s) {
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
			if b := c.nonNullBranch(branches); b != nil {
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
	if c.decode(s["properties"], &props) && len(props) > 0 {
		names := make([]string, 0, len(props))
		for name := range props {
			names = append(names, name)
		}
		sort.Strings(names) // references are followed in one order (maxDropRefs)
		if _, ok := s["additionalProperties"]; !ok {
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
func (c *dropCompiler) nonNullBranch(raw json.RawMessage) json.RawMessage {
	var branches []json.RawMessage
	if !c.decode(raw, &branches) {
		return nil
	}
	var other json.RawMessage
	for _, b := range branches {
		var s map[string]json.RawMessage
		if c.decode(b, &s) && string(bytes.TrimSpace(s["type"])) == `"null"` && onlyBeside(s, "type") {
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
	if !c.local || !c.decode(raw, &ref) || !strings.HasPrefix(ref, "#") {
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
	target, ok := c.resolvePointer(ptr)
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

// resolvePointer is the value of the schema at the JSON pointer ptr.
func (c *dropCompiler) resolvePointer(ptr string) (json.RawMessage, bool) {
	doc := c.root
	if ptr == "" {
		return doc, true
	}
	if !strings.HasPrefix(ptr, "/") {
		return nil, false
	}
	for _, tok := range strings.Split(ptr[1:], "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		var obj map[string]json.RawMessage
		if c.decode(doc, &obj) {
			v, ok := obj[tok]
			if !ok {
				return nil, false
			}
			doc = v
			continue
		}
		var arr []json.RawMessage
		i, err := strconv.Atoi(tok)
		if !c.decode(doc, &arr) || err != nil || i < 0 || i >= len(arr) || tok != strconv.Itoa(i) {
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

// MaxArgsDepth is how deep the arrays and objects of a tool call's
// arguments may nest: past it a generated decoder (runtime/wire) refuses
// the arguments whole, and the walk for ignored arguments stops. It bounds
// the stack hostile input can take.
const MaxArgsDepth = 512

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

// argsWalk reads a call's arguments once, front to back, for the members
// the tool drops, in the order they come. Each byte is stepped over once,
// in a value it judges or in one it skips whole (text.SkipValue), so the
// work is linear in the arguments whatever their nesting; nothing but the
// path is allocated until a dropped member is found.
type argsWalk struct {
	b []byte
	// path are the steps to the value being read, depth the arrays and
	// objects open (those the walk judges; it skips the others whole).
	path  []step
	depth int
	// visited counts the bytes stepped over: at most len(b).
	visited int
	// found are the first keep dropped members, more counts the others.
	found []ignored
	keep  int
	more  int
	// seen holds each dropped member met by the id of the path to its
	// object and its name: a member sent twice (at one pointer, in one
	// object or in two) is one.
	seen map[seenMember]struct{}
	// ids are the path ids of path's leading steps, ids[k] that of
	// path[:k+1], found when a dropped member needs them; edges numbers
	// the paths met so far by their parent's id and last token, so that
	// equal pointers have equal ids.
	ids   []int
	edges map[pathEdge]int
}

type seenMember struct {
	at   int
	name string
}

type pathEdge struct {
	parent int
	token  string
}

// walk reads the arguments, judged by root. It is false when it cannot
// read them or they nest past MaxArgsDepth: a decoder refused them, and
// nothing was ignored.
func (w *argsWalk) walk(root *dropNode) bool {
	_, ok := w.value(root, w.blanks(0))
	return ok
}

// value reads the value at b[i] (not a blank), judged by n (nil judges
// nothing), and returns the offset past it.
func (w *argsWalk) value(n *dropNode, i int) (int, bool) {
	if n != nil && i < len(w.b) {
		switch {
		case w.b[i] == '{' && (n.props != nil || n.children != nil):
			return w.object(n, i)
		case w.b[i] == '[' && n.items != nil:
			return w.array(n.items, i)
		}
	}
	return w.skip(i)
}

// object reads the object at b[i], whose members n judges.
func (w *argsWalk) object(n *dropNode, i int) (int, bool) {
	if w.depth++; w.depth > MaxArgsDepth {
		return 0, false
	}
	w.visited++ // '{'
	if i = w.blanks(i + 1); i < len(w.b) && w.b[i] == '}' {
		return w.close(i)
	}
	for {
		if i >= len(w.b) || w.b[i] != '"' {
			return 0, false
		}
		kEnd, ok := w.str(i)
		if !ok {
			return 0, false
		}
		key := w.b[i+1 : kEnd-1]
		if i = w.blanks(kEnd); i >= len(w.b) || w.b[i] != ':' {
			return 0, false
		}
		w.visited++ // ':'
		v := w.blanks(i + 1)
		var vEnd int
		if n.props != nil && !declares(n.props, key) {
			if vEnd, ok = w.skip(v); ok {
				w.dropped(n.props, key)
			}
		} else if c := n.child(key); c != nil {
			w.path = append(w.path, step{key: key})
			vEnd, ok = w.value(c, v)
			w.pop()
		} else {
			vEnd, ok = w.skip(v)
		}
		if !ok {
			return 0, false
		}
		if i = w.blanks(vEnd); i < len(w.b) && w.b[i] == ',' {
			w.visited++
			i = w.blanks(i + 1)
			continue
		}
		if i < len(w.b) && w.b[i] == '}' {
			return w.close(i)
		}
		return 0, false
	}
}

// array reads the array at b[i], whose items items judges.
func (w *argsWalk) array(items *dropNode, i int) (int, bool) {
	if w.depth++; w.depth > MaxArgsDepth {
		return 0, false
	}
	w.visited++ // '['
	if i = w.blanks(i + 1); i < len(w.b) && w.b[i] == ']' {
		return w.close(i)
	}
	for index := 0; ; index++ {
		w.path = append(w.path, step{index: index})
		end, ok := w.value(items, i)
		w.pop()
		if !ok {
			return 0, false
		}
		if i = w.blanks(end); i < len(w.b) && w.b[i] == ',' {
			w.visited++
			i = w.blanks(i + 1)
			continue
		}
		if i < len(w.b) && w.b[i] == ']' {
			return w.close(i)
		}
		return 0, false
	}
}

// close steps over the '}' or ']' at b[i] that ends the innermost array
// or object.
func (w *argsWalk) close(i int) (int, bool) {
	w.visited++
	w.depth--
	return i + 1, true
}

// child is the node of the member whose raw name is key, nil when n does
// not judge it.
func (n *dropNode) child(key []byte) *dropNode {
	if n.children == nil {
		return nil
	}
	if bytes.IndexByte(key, '\\') >= 0 {
		return n.children[unquote(key)]
	}
	return n.children[string(key)]
}

// pop leaves the last step of the path.
func (w *argsWalk) pop() {
	w.path = w.path[:len(w.path)-1]
	if len(w.ids) > len(w.path) {
		w.ids = w.ids[:len(w.path)]
	}
}

// blanks steps over the whitespace from b[i].
func (w *argsWalk) blanks(i int) int {
	j := text.SkipBlanks(w.b, i)
	w.visited += j - i
	return j
}

// str steps over the string at b[i].
func (w *argsWalk) str(i int) (int, bool) {
	end, ok := text.SkipString(w.b, i)
	if !ok {
		w.visited += len(w.b) - i
		return 0, false
	}
	w.visited += end - i
	return end, true
}

// skip steps over the value at b[i], which nothing is judged in.
func (w *argsWalk) skip(i int) (int, bool) {
	end, ok := text.SkipValue(w.b, i)
	if !ok {
		w.visited += len(w.b) - i
		return 0, false
	}
	w.visited += end - i
	return end, true
}

// dropped notes the member whose raw name is key, in the object at path,
// which declares props.
func (w *argsWalk) dropped(props []string, key []byte) {
	m := seenMember{at: w.pathID(), name: unquote(key)}
	if _, ok := w.seen[m]; ok {
		return
	}
	if w.seen == nil {
		w.seen = map[seenMember]struct{}{}
	}
	w.seen[m] = struct{}{}
	if len(w.found) < w.keep {
		w.found = append(w.found, ignored{at: pointer(w.path), name: m.name, props: props})
		return
	}
	w.more++
}

// pathID is the id of path, 0 for the arguments. Each step gets its id
// once while it is on the path, so finding ids costs at most one reading
// of the names on the way.
func (w *argsWalk) pathID() int {
	for k := len(w.ids); k < len(w.path); k++ {
		var e pathEdge
		if k > 0 {
			e.parent = w.ids[k-1]
		}
		if s := w.path[k]; s.key == nil {
			e.token = strconv.Itoa(s.index)
		} else {
			e.token = unquote(s.key)
		}
		id, ok := w.edges[e]
		if !ok {
			if w.edges == nil {
				w.edges = map[pathEdge]int{}
			}
			id = len(w.edges) + 1
			w.edges[e] = id
		}
		w.ids = append(w.ids, id)
	}
	if len(w.path) == 0 {
		return 0
	}
	return w.ids[len(w.path)-1]
}

// Warnings returns one sentence per member of args the tool dropped,
// naming owner (the tool or op) and the nearest declared name, in the
// order they come in args, at most five (then a count of the rest). failure
// is the call's error, nil on success: a decoder's refusal that may name
// undeclared members (an additionalProperties error, or errors left out)
// means they were refused, not ignored, and gives none; so does one of the
// whole arguments (invalid JSON, or nested past the decoder's limit), and
// arguments the walk cannot read or that nest past that limit give none
// whatever failure says.
func (ia *IgnoredArgs) Warnings(owner string, args json.RawMessage, failure error) []string {
	if ia == nil || refused(failure) {
		return nil
	}
	ia.once.Do(func() { ia.root = compileDrop(ia.schema) })
	if ia.root == nil {
		return nil
	}
	w := argsWalk{b: args, keep: maxIgnoredWarnings}
	if !w.walk(ia.root) || len(w.found) == 0 {
		return nil
	}
	out := make([]string, 0, len(w.found)+1)
	for _, f := range w.found {
		name := text.Truncate(f.name, 64)
		s := fmt.Sprintf("%q is not an argument of %s and was ignored", name, owner)
		if f.at != "" {
			// The pointer's tokens are declared names: a definition's.
			s = fmt.Sprintf("%q at %s is not a member %s takes there and was ignored", name, showBreaks(text.Truncate(f.at, 128)), owner)
		}
		if c := text.Closest(f.name, f.props); c != "" {
			s += fmt.Sprintf(" (did you mean %q?)", c)
		} else if c := text.Respelled(f.name, f.props); c != "" {
			s += fmt.Sprintf(" (did you mean %q?)", c)
		}
		out = append(out, s)
	}
	if w.more > 0 {
		out = append(out, fmt.Sprintf("%d more arguments that %s does not take were ignored", w.more, owner))
	}
	return out
}

// refused reports a decoder's refusal of the whole arguments ("syntax":
// invalid JSON; "maxDepth": nested past its limit; "maxWork": unions too
// costly to try) or one that may name arguments it does not take. A
// generated decoder whose schema drops them never refuses them; a
// hand-written one may.
func refused(err error) bool {
	if err == nil {
		return false // a success: nothing for errors.As to allocate
	}
	var ve *ValidationError
	if !errors.As(err, &ve) || ve == nil { // a handler may wrap a nil one
		return false
	}
	return ve.Omitted > 0 || slices.ContainsFunc(ve.Fields, func(f FieldError) bool {
		return f.Code == "additionalProperties" || f.Code == "syntax" || f.Code == "maxDepth" || f.Code == "maxWork"
	})
}
