package schema

import (
	"bytes"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/names"
)

// Dynamic references.
//
// A $dynamicRef whose static target carries the $dynamicAnchor it names,
// where that anchor is declared by more than one resource, resolves by
// dynamic scope: to the outermost resource declaring the anchor on the
// path the evaluation took. Neither generated Go code nor the
// self-contained delegated form (which rewrites every reference to a
// static copy) can follow that path, so
//
//   - inside the family such a reference checks nothing: its type is any,
//     it is not merged into its schema's view, and in delegated subschemas
//     it points at a schema that accepts everything and evaluates every
//     property and item (so unevaluated* around it reject nothing);
//   - the root type of every schema that reaches one (tool params, output
//     schema, CompileSchema's root) delegates instead to the original
//     documents, kept intact ($id, $anchor, $dynamicAnchor):
//     Delegated is {"$ref": "<document URI>#<JSON pointer>"} and
//     ir.Type.Resources holds the documents, which the embedded validator
//     compiles as they are, so the whole value is checked with the dynamic
//     scope starting at the root.
type dynState struct {
	// refs caches dynamicRef by node.
	refs map[*jsonpos.Node]bool
	// anchors are the resources declaring each $dynamicAnchor name
	// (built on first use, once every input is indexed).
	anchors map[string]map[*resource]bool
	// evalAll is the placeholder a dynamic reference points at in
	// delegated subschemas.
	evalAll *jsonpos.Node
	// some caches anyDynamic: 0 not known yet, 1 no, 2 yes.
	some uint8
}

// dynamicRef reports whether the schema n holds a $dynamicRef that
// resolves by dynamic scope (see dynState).
func (c *compiler) dynamicRef(n *jsonpos.Node) bool {
	if n == nil || n.Kind != jsonpos.ObjectNode {
		return false
	}
	ref := n.Get("$dynamicRef")
	if ref == nil || ref.Kind != jsonpos.StringNode {
		return false
	}
	if d, ok := c.dyn.refs[n]; ok {
		return d
	}
	if c.dyn.refs == nil {
		c.dyn.refs = map[*jsonpos.Node]bool{}
	}
	d := c.isDynamic(n, ref)
	c.dyn.refs[n] = d
	return d
}

func (c *compiler) isDynamic(n, ref *jsonpos.Node) bool {
	res := c.resOf[n]
	if res == nil || res.draft == 7 {
		return false
	}
	_, frag, ok := refResolve(res.uri, ref.Str)
	if !ok || frag == "" || strings.HasPrefix(frag, "/") {
		return false
	}
	target, _, err := c.resolveRef(ref, res)
	if err != nil {
		return false
	}
	// The bookend: a target without the anchor makes it a plain $ref.
	if a := target.Get("$dynamicAnchor"); a == nil || a.Kind != jsonpos.StringNode || a.Str != frag {
		return false
	}
	return len(c.dynAnchors()[frag]) > 1
}

// dynAnchors are the resources declaring each $dynamicAnchor name, found
// on first use (once every input is indexed).
func (c *compiler) dynAnchors() map[string]map[*resource]bool {
	if c.dyn.anchors == nil {
		c.dyn.anchors = map[string]map[*resource]bool{}
		for node, r := range c.resOf {
			if a := node.Get("$dynamicAnchor"); a != nil && a.Kind == jsonpos.StringNode {
				if c.dyn.anchors[a.Str] == nil {
					c.dyn.anchors[a.Str] = map[*resource]bool{}
				}
				c.dyn.anchors[a.Str][r] = true
			}
		}
	}
	return c.dyn.anchors
}

// anyDynamic reports whether some $dynamicAnchor name is declared by more
// than one resource: without one, no $dynamicRef resolves by dynamic
// scope (isDynamic), and entrySchema need not walk a root's schemas.
func (c *compiler) anyDynamic() bool {
	if c.dyn.some == 0 {
		c.dyn.some = 1
		for _, rs := range c.dynAnchors() {
			if len(rs) > 1 {
				c.dyn.some = 2
				break
			}
		}
	}
	return c.dyn.some == 2
}

// evalAll is the schema a dynamic reference stands for in delegated
// subschemas: it accepts any value and evaluates all of it.
func (c *compiler) evalAll() *jsonpos.Node {
	if c.dyn.evalAll == nil {
		t := &jsonpos.Node{Kind: jsonpos.BoolNode, Bool: true}
		n := &jsonpos.Node{Kind: jsonpos.ObjectNode, Members: []jsonpos.Member{
			{Key: "unevaluatedProperties", Value: t},
			{Key: "unevaluatedItems", Value: t},
		}}
		c.external[n] = true
		c.dyn.evalAll = n
	}
	return c.dyn.evalAll
}

// entry returns the root type for the schema n compiled as t: t itself,
// unless n reaches a dynamic reference; then a type delegating to the
// original documents (see dynState). A t shared with other references to
// its schema is copied first, so only the root value is checked from the
// root of the dynamic scope; the copy takes name when t is named.
func (c *compiler) entry(t *ir.Type, n *jsonpos.Node, name string) *ir.Type {
	if t == nil || n == nil {
		return t
	}
	deleg, docs := c.entrySchema(n)
	if deleg == nil {
		return t
	}
	shared := false
	for k, v := range c.memo {
		if v == t && k != n {
			shared = true
			break
		}
	}
	if !shared {
		shared = c.reaches(t, t, map[*ir.Type]bool{})
	}
	if shared {
		w := *t
		w.ID = c.newType(n).ID
		if t.GoName != "" {
			w.GoName = c.types.Unique(names.GoName(name))
			c.named[w.GoName] = &w
		}
		t = &w
	}
	t.Delegated = deleg
	t.Resources = docs
	return t
}

// reaches reports whether target is a part of t's structure.
func (c *compiler) reaches(t, target *ir.Type, seen map[*ir.Type]bool) bool {
	for p := range t.Subtypes() {
		if seen[p] {
			continue
		}
		if p == target {
			return true
		}
		seen[p] = true
		if c.reaches(p, target, seen) {
			return true
		}
	}
	return false
}

// entrySchema walks the schemas n reaches (subschemas and reference
// targets, across documents). When one holds a dynamic reference it
// returns {"$ref": "<uri>#<pointer of n>"} and the documents reached, by
// URI; otherwise nil.
func (c *compiler) entrySchema(n *jsonpos.Node) (json.RawMessage, map[string]json.RawMessage) {
	res := c.resOf[n]
	if res == nil || !c.anyDynamic() {
		// Walking every root's schemas made a catalogue whose tools
		// share one large definition quadratic (2,000 tools: 2.5 s).
		return nil, nil
	}
	seen := map[*jsonpos.Node]bool{}
	var docs []*resource
	dynamic := false
	stack := []*jsonpos.Node{n}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[s] || s.Kind != jsonpos.ObjectNode || c.external[s] {
			continue
		}
		seen[s] = true
		r := c.resOf[s]
		if r == nil {
			continue
		}
		if d := r.doc(); !containsRes(docs, d) {
			docs = append(docs, d)
		}
		dynamic = dynamic || c.dynamicRef(s)
		for _, k := range []string{"$ref", "$dynamicRef", "$recursiveRef"} {
			if ref := s.Get(k); ref != nil && ref.Kind == jsonpos.StringNode {
				if target, _, err := c.resolveRef(ref, r); err == nil {
					stack = append(stack, target)
				}
			}
		}
		refSubschemas(s, func(sub *jsonpos.Node) { stack = append(stack, sub) })
	}
	if !dynamic {
		return nil, nil
	}
	home := res.doc()
	ptr, ok := strings.CutPrefix(n.Pos.Pointer, home.root.Pos.Pointer)
	if !ok || n.Pos.File != home.root.Pos.File || (ptr != "" && ptr[0] != '/') {
		return nil, nil
	}
	out := map[string]json.RawMessage{}
	for _, d := range docs {
		if _, dup := out[d.uri]; !dup {
			out[d.uri] = d.root.JSON()
		}
	}
	var b bytes.Buffer
	b.WriteString(`{"$ref":`)
	jsonpos.WriteString(&b, home.uri+"#"+(&url.URL{Fragment: ptr}).EscapedFragment())
	b.WriteByte('}')
	return b.Bytes(), out
}

func containsRes(list []*resource, r *resource) bool {
	for _, x := range list {
		if x == r {
			return true
		}
	}
	return false
}
