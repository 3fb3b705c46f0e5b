package schema

import (
	"fmt"
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
	defs    []jsonpos.Member         // the copies, in the order found
	pending []*jsonpos.Node          // targets whose copies are not written yet
	warned  bool
}

// servedBudget is what the copies of all served schemas may add up to,
// in bytes of JSON: the generated files hold each served schema (twice:
// the flat tool list and the registry), so a 1 MB definition that 10,000
// tools reach would be 20 GB of output. The limit is the output limit.
func (c *compiler) servedBudget() *int64 {
	if c.served == nil {
		b := c.limits.OutputBytes
		c.served = &b
	}
	return c.served
}

// bundle returns root as it is served: root itself when no $ref in it
// leaves it, else a copy whose such $refs point at copies of their
// targets under its $defs. root must be indexed. Resolution errors are
// left to the compile, which reports them; their $refs are served as
// written.
func (c *compiler) bundle(root *jsonpos.Node) *jsonpos.Node {
	res := c.resOf[root]
	if !c.refs || res == nil || root.Kind != jsonpos.ObjectNode || *c.servedBudget() < 0 {
		return root
	}
	b := &bundler{c: c, root: root, res: res, defsKey: "$defs", keys: map[*jsonpos.Node]string{}, taken: map[string]bool{}}
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
			if ref, ok := b.ref(v, res, inRoot); ok {
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
	if members == nil {
		return n
	}
	// The copy shares n's key index, which Get checks against the
	// members (a dropped member leaves it unused).
	cp := *n
	cp.Members = members
	return &cp
}

// ref is the text a $ref of the served schema takes, ok false to keep
// it as written.
func (b *bundler) ref(ref *jsonpos.Node, from *resource, inRoot bool) (string, bool) {
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
		return "#" + fragmentEscape(rel), true
	}
	if inRoot && from != b.res {
		// A "#/$defs/..." written inside an embedded $id resource would
		// be read against that resource's base.
		b.warn(ref, "this $ref inside an embedded $id resource reaches outside the tool's schema, which is sent alone; it is served as written and may reach nothing there: move the schema it reaches into the tool's schema")
		return "", false
	}
	if to.draft != b.res.draft {
		b.warn(ref, "this $ref reaches a schema of another draft (its document's $schema); it is copied into the tool's schema and read under the tool's draft")
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
	k := name
	for i := 2; b.taken[k]; i++ {
		k = fmt.Sprintf("%s_%d", name, i)
	}
	b.taken[k] = true
	b.keys[target] = k
	budget := b.c.servedBudget()
	*budget -= int64(b.c.servedSize(target))
	if *budget < 0 {
		b.c.errorf(ref, "the schemas this $ref and others reach outside their tools' schemas are copied into each tool that uses them (a tool's schema is sent to the model alone), and the copies exceed the output limit: %s", limits.Hint("max_output_bytes", b.c.limits.OutputBytes))
	}
	b.defs = append(b.defs, jsonpos.Member{Key: k})
	b.pending = append(b.pending, target)
	return k
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
