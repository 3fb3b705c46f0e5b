package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
)

// codeServedRef is the code of the warnings that a $ref of a served
// schema could not be made to resolve within it.
const codeServedRef = "served-ref"

// served.go makes each schema toolgen serves (a tool's parameters and
// output schema, sent to the model and to clients one tool at a time)
// self-contained: a $ref that leaves it (to another input file, to its
// file's top-level $defs, to a schema by $id, into another tool) would
// reach nothing once the schema travels alone. Each schema such a $ref
// reaches is copied under the served schema's own $defs (definitions in
// a draft-07 schema), and the $ref points at the copy; references inside
// the copies are rewritten alike. The rest of the schema is served as
// written: nodes are copied only on the way from the root to a rewritten
// $ref, so a schema without such references is served as it was parsed.

// bundler rewrites one served schema.
type bundler struct {
	c    *compiler
	root *jsonpos.Node // the schema as written
	res  *resource     // root's resource
	// defsKey is where copies go: "$defs", or "definitions" in draft 7.
	defsKey string
	keys    map[*jsonpos.Node]string // a copied target's key
	taken   map[string]bool          // keys in use, the schema's own included
	next    map[string]int           // the suffix a name tries next (key)
	defs    []jsonpos.Member         // the copies, in the order found
	pending []*jsonpos.Node          // targets whose copies are not written yet
	warned  bool
	anchors map[string]bool          // anchor names declared, once asked (anchor)
	local   map[*jsonpos.Node]string // a $ref to a schema within root, by target
}

// bundle returns root as it is served: root itself when no $ref in it
// leaves it, else a copy whose such $refs point at copies of their
// targets under its $defs. root must be indexed. Resolution errors are
// left to the compile, which reports them; their $refs are served as
// written.
func (c *compiler) bundle(root *jsonpos.Node) *jsonpos.Node {
	res := c.resOf[root]
	if !c.refs || res == nil || root.Kind != jsonpos.ObjectNode || c.servedLeft < 0 {
		return root
	}
	b := &bundler{c: c, root: root, res: res, defsKey: "$defs", keys: map[*jsonpos.Node]string{}, taken: map[string]bool{}, next: map[string]int{}}
	if res.draft == 7 {
		b.defsKey = "definitions"
	}
	own := root.Get(b.defsKey)
	if own != nil && own.Kind != jsonpos.ObjectNode {
		return root // the compile refuses it
	}
	if own != nil {
		for _, m := range own.Members {
			b.taken[m.Key] = true
		}
	}
	out := b.schema(root, true)
	if len(b.pending) == 0 {
		return out
	}
	for i := 0; i < len(b.pending); i++ {
		b.defs[i].Value = b.schema(b.pending[i], false)
	}
	// The copies join the schema's own $defs, after them.
	if out == root {
		cp := *root
		cp.Members = append([]jsonpos.Member(nil), root.Members...)
		out = &cp
	}
	defs := &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: root.Pos}
	defs.Pos.Pointer += "/" + b.defsKey
	for i, m := range out.Members {
		if m.Key == b.defsKey {
			defs.Members = append(append(defs.Members, m.Value.Members...), b.defs...)
			out.Members[i].Value = defs
			return out
		}
	}
	defs.Members = b.defs
	out.AddMember(jsonpos.Member{Key: b.defsKey, Value: defs})
	return out
}

// dropped are the keywords a copy does without: its $refs point into the
// served schema by JSON pointer, so it needs no base URI or anchor (and
// two copies declaring one would clash), and $schema may only be said at
// a resource's root. Its own $defs are not copied: a $ref into them gets
// a copy of its own.
var dropped = map[string]bool{
	"$id": true, "id": true, "$anchor": true, "$schema": true,
	"$defs": true, "definitions": true,
}

// schema returns n with its $refs rewritten, n itself when none is; inRoot
// says n is part of the root schema rather than of a copy.
func (b *bundler) schema(n *jsonpos.Node, inRoot bool) *jsonpos.Node {
	if n == nil || n.Kind != jsonpos.ObjectNode || b.c.external[n] {
		return n
	}
	res := b.c.resOf[n]
	if res == nil {
		return n
	}
	var members []jsonpos.Member // nil until a member changes
	change := func(i int) {
		if members == nil {
			members = make([]jsonpos.Member, i, len(n.Members))
			copy(members, n.Members[:i])
		}
	}
	for i, m := range n.Members {
		v := m.Value
		switch {
		case !inRoot && dropped[m.Key]:
			change(i)
			continue
		case m.Key == "$ref" && v.Kind == jsonpos.StringNode:
			// A rewritten $ref may be longer than the one written (a
			// pointer to a schema under a long property name, reached
			// by a short anchor): the growth is charged like the copies.
			if ref, ok := b.ref(v, res, inRoot); ok && b.charge(v, len(ref)-len(v.Str)) {
				v = &jsonpos.Node{Kind: jsonpos.StringNode, Pos: v.Pos, Str: ref}
			}
		case !inRoot && m.Key == "$dynamicAnchor" && v.Kind == jsonpos.StringNode && !b.anchor(v.Str):
			// The copies join the served schema's resource, where an
			// anchor may be declared once.
			b.warn(v, "a $dynamicAnchor %q in a schema copied from outside the tool's schema is declared in it already; the copy is served without it", v.Str)
			change(i)
			continue
		case inRoot && m.Key == "$dynamicRef" && v.Kind == jsonpos.StringNode:
			// One reaching outside was served as written, reaching
			// nothing; it reaches the copy of its target as a $ref
			// would (its dynamic scope is the tool's schema alone).
			if ref, ok := b.ref(v, res, inRoot); ok && b.charge(v, len(ref)-len(v.Str)) {
				b.warn(v, "this $dynamicRef reaches outside the tool's schema, which is sent alone; it is served pointing at a copy of its target, as a $ref")
				v = &jsonpos.Node{Kind: jsonpos.StringNode, Pos: v.Pos, Str: ref}
			}
		case m.Key == "$dynamicRef" || m.Key == "$recursiveRef":
			if !inRoot {
				b.warn(v, "a %s in a schema copied from outside the tool's schema is served as written; it may reach nothing there", m.Key)
			}
		default:
			v = mapSlot(slotOf(m.Key), v, func(s *jsonpos.Node) *jsonpos.Node { return b.schema(s, inRoot) })
		}
		if v != m.Value {
			change(i)
		}
		if members != nil {
			m.Value = v
			members = append(members, m)
		}
	}
	if !inRoot && res.draft != b.res.draft {
		if m, ok := redraft(members, n.Members, res.draft); ok {
			// Keys renamed: the key index would not hold.
			return &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: n.Pos, Members: m}
		}
	}
	if members == nil {
		return n
	}
	// The copy shares n's key index, which Get checks against the
	// members (a dropped member leaves it unused).
	cp := *n
	cp.Members = members
	return &cp
}

// redraft writes the members of a schema of draft from (the members
// rewritten, nil when none is, else orig) as the other draft says them:
// draft 7 ignores the siblings of a $ref, and 2020-12 writes draft 7's
// items array as prefixItems (its additionalItems as items) and its
// dependencies as dependentSchemas and dependentRequired; the other way
// around, a $ref with siblings goes into an allOf. ok is false when no
// member changes.
func redraft(members, orig []jsonpos.Member, from int) (out []jsonpos.Member, ok bool) {
	if members == nil {
		members = orig
	}
	get := func(key string) *jsonpos.Node {
		for _, m := range members {
			if m.Key == key {
				return m.Value
			}
		}
		return nil
	}
	ref, items, prefix := get("$ref"), get("items"), get("prefixItems")
	siblings := false
	for _, m := range members {
		siblings = siblings || m.Key != "$ref" && !annotation[m.Key]
	}
	if from == 7 {
		tuple := items != nil && items.Kind == jsonpos.ArrayNode
		var req, deps *jsonpos.Node
		for _, m := range members {
			switch {
			case ref != nil && m.Key != "$ref" && !annotation[m.Key]:
				continue // ignored beside $ref
			case m.Key == "items" && tuple:
				m.Key = "prefixItems"
			case m.Key == "additionalItems":
				if !tuple {
					continue // ignored without an items array
				}
				m.Key = "items"
			case m.Key == "dependencies" && m.Value.Kind == jsonpos.ObjectNode:
				for _, d := range m.Value.Members {
					to := &deps
					if d.Value.Kind == jsonpos.ArrayNode {
						to = &req
					}
					if *to == nil {
						*to = &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: m.Value.Pos}
					}
					(*to).Members = append((*to).Members, d)
				}
				continue
			}
			out = append(out, m)
		}
		if req != nil {
			out = append(out, jsonpos.Member{Key: "dependentRequired", Value: req})
		}
		if deps != nil {
			out = append(out, jsonpos.Member{Key: "dependentSchemas", Value: deps})
		}
		return out, ref != nil && siblings || tuple || get("additionalItems") != nil || get("dependencies") != nil
	}
	var deps *jsonpos.Node
	var allOf *jsonpos.Member
	for _, m := range members {
		switch {
		case m.Key == "$ref" && siblings:
			continue // into the allOf, below
		case m.Key == "prefixItems" && m.Value.Kind == jsonpos.ArrayNode:
			m.Key = "items"
		case m.Key == "items" && prefix != nil:
			m.Key = "additionalItems"
		case (m.Key == "dependentSchemas" || m.Key == "dependentRequired") && m.Value.Kind == jsonpos.ObjectNode:
			if deps == nil {
				deps = &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: m.Value.Pos}
				out = append(out, jsonpos.Member{Key: "dependencies", Value: deps})
			}
			deps.Members = append(deps.Members, m.Value.Members...)
			continue
		case m.Key == "allOf" && m.Value.Kind == jsonpos.ArrayNode:
			out = append(out, m)
			allOf = &out[len(out)-1]
			continue
		}
		out = append(out, m)
	}
	if ref != nil && siblings {
		wrapped := &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: ref.Pos, Members: []jsonpos.Member{{Key: "$ref", Value: ref}}}
		if allOf != nil {
			cp := *allOf.Value
			cp.Items = append(slices.Clip(cp.Items), wrapped)
			allOf.Value = &cp
		} else {
			out = append(out, jsonpos.Member{Key: "allOf", Value: &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: ref.Pos, Items: []*jsonpos.Node{wrapped}}})
		}
	}
	return out, ref != nil && siblings || prefix != nil || deps != nil
}

// annotation are keywords that assert nothing.
var annotation = map[string]bool{
	"title": true, "description": true, "$comment": true, "examples": true,
	"default": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// ref is the text a $ref of the served schema takes, ok false to keep
// it as written.
func (b *bundler) ref(ref *jsonpos.Node, from *resource, inRoot bool) (string, bool) {
	if b.c.servedLeft < 0 {
		return "", false // reported; the compile fails
	}
	target, to, err := b.c.resolveRef(ref, from)
	if err != nil || b.c.external[target] {
		return "", false
	}
	if to.doc() == b.res {
		// Within the served schema: kept when it says so itself, a
		// fragment of the root's own base (or, inside an embedded $id
		// resource, any reference a validator resolves by that $id).
		if inRoot && (strings.HasPrefix(ref.Str, "#") || from != b.res) {
			return "", false
		}
		rel, ok := strings.CutPrefix(target.Pos.Pointer, b.root.Pos.Pointer)
		if !ok || rel != "" && rel[0] != '/' {
			return "", false
		}
		if s, ok := b.local[target]; ok {
			return s, true
		}
		if b.local == nil {
			b.local = map[*jsonpos.Node]string{}
		}
		b.local[target] = "#" + fragmentEscape(rel)
		return b.local[target], true
	}
	if inRoot && from != b.res {
		// A "#/$defs/..." written inside an embedded $id resource would
		// be read against that resource's base.
		b.warn(ref, "this $ref inside an embedded $id resource reaches outside the tool's schema, which is sent alone; it is served as written and may reach nothing there: move the schema it reaches into the tool's schema")
		return "", false
	}
	if to.draft != b.res.draft {
		b.warn(ref, "this $ref reaches a schema of another draft (its document's $schema); it is copied into the tool's schema written in the tool's draft (items, dependencies, a $ref beside other keywords), and keywords the tool's draft lacks (unevaluatedProperties, $dynamicRef …) are served as written")
	}
	return "#/" + b.defsKey + "/" + b.key(target, ref), true
}

// key names the copy of target under the served schema's $defs, after
// the reference's own name (the $defs key or anchor it names), kept to
// characters no JSON pointer or URI fragment escapes.
func (b *bundler) key(target, ref *jsonpos.Node) string {
	if k, ok := b.keys[target]; ok {
		return k
	}
	name := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '.' {
			return r
		}
		return '_'
	}, refName(ref.Str))
	if len(name) > 64 {
		name = name[:64]
	}
	if name == "" {
		name = "def"
	}
	// Suffixes count on from the last one a name took: 20,000 targets
	// named alike tried 200 million keys (2.5 minutes).
	k, i := name, max(b.next[name], 2)
	for ; b.taken[k]; i++ {
		k = name + "_" + strconv.Itoa(i)
	}
	b.next[name] = i
	b.taken[k] = true
	b.keys[target] = k
	b.charge(ref, b.c.servedSize(target))
	b.defs = append(b.defs, jsonpos.Member{Key: k})
	b.pending = append(b.pending, target)
	return k
}

// charge takes n bytes that serving adds from the budget the served
// schemas share, reporting at ref when they exceed it; false when they
// do (then or before).
func (b *bundler) charge(ref *jsonpos.Node, n int) bool {
	if n <= 0 || b.c.servedLeft < 0 {
		return b.c.servedLeft >= 0
	}
	if b.c.servedLeft -= int64(n); b.c.servedLeft < 0 {
		b.c.errorf(ref, "the schemas this $ref and others reach outside their tools' schemas are copied into each tool that uses them (a tool's schema is sent to the model alone), and the copies exceed the output limit: %s", limits.Hint("max_output_bytes", b.c.limits.OutputBytes))
		return false
	}
	return true
}

// anchor claims a dynamic anchor name for a copy: false when the served
// schema's resource (or an earlier copy) declares it already.
func (b *bundler) anchor(name string) bool {
	if b.anchors == nil {
		b.anchors = map[string]bool{}
		for a := range b.res.anchors {
			b.anchors[a] = true
		}
	}
	if b.anchors[name] {
		return false
	}
	b.anchors[name] = true
	return true
}

// servedSize is the size of n's JSON, counted once per node.
func (c *compiler) servedSize(n *jsonpos.Node) int {
	if s, ok := c.servedSizes[n]; ok {
		return s
	}
	if c.servedSizes == nil {
		c.servedSizes = map[*jsonpos.Node]int{}
	}
	s := len(n.AppendJSON(nil))
	c.servedSizes[n] = s
	return s
}

// warn says once per served schema why one of its $refs is served as
// written.
func (b *bundler) warn(at *jsonpos.Node, format string, args ...any) {
	if b.warned {
		return
	}
	b.warned = true
	b.c.warnf(at, codeServedRef, format, args...)
}

// fragmentEscape writes a JSON pointer as a URI fragment: characters a
// fragment may not hold are percent-encoded.
func fragmentEscape(ptr string) string {
	var sb strings.Builder
	sb.Grow(len(ptr))
	for i := 0; i < len(ptr); i++ {
		ch := ptr[i]
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@/?", ch) >= 0 {
			sb.WriteByte(ch)
			continue
		}
		fmt.Fprintf(&sb, "%%%02X", ch)
	}
	return sb.String()
}
