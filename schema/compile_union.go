package schema

import (
	"bytes"
	"slices"
	"strconv"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/names"
)

// compileUnion fills t from a view with oneOf or anyOf. The view's other
// assertions apply to every branch, so they are merged into each. It
// returns the subschemas to delegate.
func (c *compiler) compileUnion(t *ir.Type, v *view, nm naming, root rootKind) []*jsonpos.Node {
	key, list, deleg := c.unionKeyword(v)
	if list.Kind != jsonpos.ArrayNode || len(list.Items) == 0 {
		c.errorf(list, "%s must be a non-empty array of schemas", key)
		t.Kind = ir.KindAny
		return deleg
	}
	rest := c.unionRest(v)
	if alt := c.requiredAlternatives(list); alt != nil {
		return c.compileRequiredUnion(t, v, nm, root, unionParts{key, list, rest, deleg}, alt)
	}
	branches, nullOnly := c.unionBranches(list, rest)
	// Null matching two branches or more fails a oneOf, though each of
	// them admits it. Branches of a type list refuse it together when the
	// union is not nullable; a union of fewer, or with a branch of any
	// kind (which takes null itself), is no Go type that says so: only
	// null-only branches match nothing, otherwise the embedded validator
	// checks the whole schema.
	nullTwice, untyped := false, false
	if key == "oneOf" && root == notRoot {
		nullTwice, untyped = c.nullMatchesTwice(branches, nullOnly)
	}
	if nullTwice && (len(branches) < 2 || untyped) {
		if len(branches) == 0 {
			t.Kind = ir.KindNever
			return deleg
		}
		t.Kind = ir.KindAny
		return []*jsonpos.Node{v.src}
	}
	nullable := nullOnly > 0
	switch len(branches) {
	case 0:
		if nullable {
			t.Kind, t.Const, t.Nullable = ir.KindConst, []byte("null"), true
		} else {
			t.Kind = ir.KindNever
		}
		return deleg
	case 1:
		// Keywords delegated beside the union must stay with this type:
		// compile the branch into it rather than alias its type.
		if root != notRoot || len(deleg) > 0 || v.unevaluated {
			c.compileView(t, branches[0].v, nm, root)
			t.Nullable = t.Nullable || nullable
			return append(deleg, branches[0].v.deleg...)
		}
		target := c.compile(branches[0].node, nm)
		c.aliases = append(c.aliases, alias{t: t, target: target, nullable: nullable, at: v.src})
		return deleg
	}
	t.Kind = ir.KindUnion
	t.OneOf = key == "oneOf"
	t.Nullable = nullable
	c.declare(t, nm.name)
	hints := c.matchBranches(t, branches)
	nulls := nullOnly // branches that admit null
	for i, b := range branches {
		bt := c.compile(b.node, nm.child(hints[i]))
		t.Branches = append(t.Branches, bt)
		if bt.Nullable {
			nulls++
		}
	}
	// Null is a value of the union when a branch admits it (exactly one,
	// for oneOf); the branches are then left unset.
	t.Nullable = !nullTwice && nulls > 0 && (!t.OneOf || nulls == 1)
	if t.OneOf {
		c.warnSameBranches(t, list)
	}
	return deleg
}

// unionParts are what compileUnion reads from its view: the keyword
// compiled (oneOf or anyOf), its list, the shared assertions (or nil) and
// the subschemas to delegate.
type unionParts struct {
	key   string
	list  *jsonpos.Node
	rest  *jsonpos.Node
	deleg []*jsonpos.Node
}

// unionBranch is one branch of a union with its shared assertions merged
// in, and its view.
type unionBranch struct {
	node *jsonpos.Node
	v    *view
}

// unionKeyword picks the keyword compiled into the union: oneOf when the
// view has it, and then anyOf beside it is delegated; else anyOf.
func (c *compiler) unionKeyword(v *view) (key string, list *jsonpos.Node, deleg []*jsonpos.Node) {
	deleg = v.deleg
	key, other := "oneOf", "anyOf"
	if v.get("oneOf") == nil {
		key, other = "anyOf", "oneOf"
	}
	list = v.get(key)
	if o := v.get(other); o != nil && list != nil && key == "oneOf" {
		deleg = append(deleg, c.synth(v.src, []jsonpos.Member{{Key: other, Value: o}}))
	}
	return key, list, deleg
}

// unionRest is the view's assertions beside oneOf/anyOf (annotations
// aside) as one synthetic schema, made once per source node; nil when
// there are none.
func (c *compiler) unionRest(v *view) *jsonpos.Node {
	var rest []jsonpos.Member
	for _, m := range v.kws {
		if k := m.Key; k == "oneOf" || k == "anyOf" || isAnnotation(k) {
			continue
		}
		rest = append(rest, jsonpos.Member{Key: m.Key, Value: m.Value})
	}
	if len(rest) == 0 {
		return nil
	}
	n := c.restNodes[v.src]
	if n == nil {
		n = c.synth(v.src, rest)
		c.restNodes[v.src] = n
	}
	return n
}

// compileRequiredUnion compiles branches that differ only in required as
// one object (alt is their shared schema), and delegates the
// alternatives to the embedded validator.
func (c *compiler) compileRequiredUnion(t *ir.Type, v *view, nm naming, root rootKind, u unionParts, alt *jsonpos.Node) []*jsonpos.Node {
	base := u.rest
	if len(alt.Members) > 0 {
		if base == nil {
			base = alt
		} else {
			base = c.allOfNode(base, alt)
		}
	}
	bv := &view{src: v.src, res: v.res}
	if base != nil {
		bv = c.view(base, false)
	}
	for _, k := range []string{"description", "title", "default"} {
		if x := v.get(k); x != nil {
			bv.set(k, x)
		}
	}
	c.compileView(t, bv, nm, root)
	var reqs []*jsonpos.Node
	for _, b := range u.list.Items {
		var ms []jsonpos.Member
		if r := b.Get("required"); r != nil {
			ms = append(ms, jsonpos.Member{Key: "required", Value: r})
		}
		reqs = append(reqs, &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: b.Pos, Members: ms})
	}
	alts := c.synth(u.list, []jsonpos.Member{{Key: u.key, Value: &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: u.list.Pos, Items: reqs}}})
	return append(append(u.deleg, bv.deleg...), alts)
}

// unionBranches distributes the shared assertions (rest) into each
// branch and drops the branches that match nothing; a branch that
// matches only null makes the union nullable instead (nullOnly counts
// them).
func (c *compiler) unionBranches(list, rest *jsonpos.Node) (branches []unionBranch, nullOnly int) {
	shared := sharedItems(rest)
	for _, b := range list.Items {
		n := b
		if rest != nil {
			n = c.allOfNode(rest, b)
			c.lenient[n] = true
		}
		bv := c.view(n, true)
		// Each branch gets its own copy of the shared properties, to be
		// compiled into its own struct: a branch costs as many expansions
		// as the properties merged into it, and the required names and
		// enum values shared with it, so that branches × shared members
		// stays within the budget (30,000 branches over 999 properties,
		// 2 MB of input, took 20 s and 2 GB; 3,000 over 999 required
		// names, 200 KB, 130 s and 25 GB).
		if rest != nil && !c.spendN(b, mergedMembers(bv)+shared) {
			break
		}
		if bv.never || (bv.isBool && !bv.boolVal) {
			continue
		}
		if isNullOnly(bv) {
			nullOnly++
			continue
		}
		branches = append(branches, unionBranch{n, bv})
	}
	return branches, nullOnly
}

// mergedMembers counts the properties and patternProperties of view v.
func mergedMembers(v *view) int {
	n := 0
	for _, k := range []string{"properties", "patternProperties"} {
		if i := v.find(k); i >= 0 && v.kws[i].Value.Kind == jsonpos.ObjectNode {
			n += len(v.kws[i].Value.Members)
		}
	}
	return n
}

// sharedItems counts the required names and enum values of a union's
// shared assertions (rest, nil when none): every branch checks each with
// code of its own.
func sharedItems(rest *jsonpos.Node) int {
	n := 0
	for _, k := range []string{"required", "enum"} {
		if l := rest.Get(k); l != nil && l.Kind == jsonpos.ArrayNode {
			n += len(l.Items)
		}
	}
	return n
}

// nullMatchesTwice reports whether null matches more than one branch of
// a union (nullOnly branches admit only null), and whether a branch
// without a type keyword admits it.
func (c *compiler) nullMatchesTwice(branches []unionBranch, nullOnly int) (twice, untyped bool) {
	n := nullOnly
	for _, b := range branches {
		if c.admitsNull(b) {
			n++
			untyped = untyped || b.v.isBool || b.v.get("type") == nil
		}
	}
	return n > 1, untyped
}

// admitsNull reports whether null is sure to be valid against union
// branch b: a boolean true, or a schema whose type, const and enum allow
// null and whose other keywords all let null through (those of one kind
// do). A branch that delegates keywords or holds a union is not read
// (false): only what is certain changes the union.
func (c *compiler) admitsNull(b unionBranch) bool {
	v := b.v
	if v.isBool {
		return v.boolVal
	}
	if len(v.deleg) > 0 || v.unevaluated || v.get("oneOf") != nil || v.get("anyOf") != nil {
		return false
	}
	if ty := v.get("type"); ty != nil && !slices.Contains(typeNames(ty), "null") {
		return false
	}
	if k := v.get("const"); k != nil {
		return k.Kind == jsonpos.NullNode
	}
	if e := v.get("enum"); e != nil {
		return e.Kind == jsonpos.ArrayNode && slices.ContainsFunc(e.Items, func(x *jsonpos.Node) bool { return x.Kind == jsonpos.NullNode })
	}
	return true
}

// matchBranches sets how the union's decoder tells its branches apart (a
// discriminator property, the JSON kind, or trying them in order) and
// returns the Go name hint of each branch.
func (c *compiler) matchBranches(t *ir.Type, branches []unionBranch) []string {
	views := make([]*view, len(branches))
	for i, b := range branches {
		views[i] = b.v
	}
	hints := make([]string, len(branches))
	if prop, values := c.discriminator(views); prop != "" {
		t.Match = ir.MatchDiscriminator
		t.Discriminator = &ir.Discriminator{Property: prop}
		for i, val := range values {
			t.Discriminator.Values = append(t.Discriminator.Values, ir.DiscriminatorValue{Value: val, Branch: i})
			hints[i] = names.GoName(val)
		}
	} else if kinds := branchKinds(views); kinds != nil {
		t.Match = ir.MatchKind
		for i, k := range kinds {
			hints[i] = names.GoName(k)
		}
	} else {
		t.Match = ir.MatchInOrder
		for i, bv := range views {
			if title := bv.get("title"); title != nil && title.Kind == jsonpos.StringNode && title.Str != "" {
				hints[i] = names.GoName(title.Str)
			} else {
				hints[i] = "Option" + strconv.Itoa(i+1)
			}
		}
	}
	return hints
}

// warnSameBranches warns of a oneOf listing one schema twice: no value
// can pass it.
func (c *compiler) warnSameBranches(t *ir.Type, list *jsonpos.Node) {
	first := map[*ir.Type]int{}
	for i, b := range t.Branches {
		if j, dup := first[b]; dup {
			c.warnf(list, codeUnsatisfiable, "oneOf lists the same schema as branches %d and %d: a value that matches it matches both, so it never passes", j, i)
			continue
		}
		first[b] = i
	}
}

// requiredAlternatives returns the branch schema shared by every branch
// (without required and annotations) when the branches differ only in
// required, else nil.
func (c *compiler) requiredAlternatives(list *jsonpos.Node) *jsonpos.Node {
	if len(list.Items) < 2 {
		return nil
	}
	var first []byte
	var shared *jsonpos.Node
	hasRequired := false
	for i, b := range list.Items {
		if b.Kind != jsonpos.ObjectNode {
			return nil
		}
		var ms []jsonpos.Member
		for _, m := range b.Members {
			switch {
			case m.Key == "required":
				hasRequired = true
			case m.Key == "description" || m.Key == "title" || m.Key == "$comment":
			default:
				ms = append(ms, m)
			}
		}
		s := &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: b.Pos, Members: ms}
		js := s.JSON()
		if i == 0 {
			first, shared = js, s
			c.resOf[s] = c.resOf[b]
		} else if !bytes.Equal(first, js) {
			return nil
		}
	}
	if !hasRequired {
		return nil
	}
	return shared
}

// isNullOnly reports a branch that only admits null.
func isNullOnly(v *view) bool {
	if v.isBool {
		return false
	}
	if k := v.get("const"); k != nil {
		return k.Kind == jsonpos.NullNode
	}
	if e := v.get("enum"); e != nil && e.Kind == jsonpos.ArrayNode {
		for _, x := range e.Items {
			if x.Kind != jsonpos.NullNode {
				return false
			}
		}
		return len(e.Items) > 0
	}
	ty := v.get("type")
	if ty == nil {
		return false
	}
	names := typeNames(ty)
	for _, n := range names {
		if n != "null" {
			return false
		}
	}
	return len(names) > 0
}

// discriminator finds a property every branch object fixes to a distinct
// string (const or single-value enum).
func (c *compiler) discriminator(views []*view) (string, []string) {
	objProps := func(v *view) *jsonpos.Node {
		if v.isBool {
			return nil
		}
		if ty := v.get("type"); ty != nil {
			ns := typeNames(ty)
			if len(ns) != 1 || ns[0] != "object" {
				return nil
			}
		}
		p := v.get("properties")
		if p == nil || p.Kind != jsonpos.ObjectNode {
			return nil
		}
		return p
	}
	first := objProps(views[0])
	if first == nil {
		return "", nil
	}
candidates:
	for _, m := range first.Members {
		var values []string
		taken := map[string]bool{}
		for _, v := range views {
			props := objProps(v)
			p := props.Get(m.Key)
			if p == nil || !requires(v, m.Key) {
				// A branch that does not require the tag takes values
				// without it: the tag cannot tell it apart.
				continue candidates
			}
			pv := c.view(p, true)
			s, ok := fixedString(pv)
			if !ok {
				continue candidates
			}
			if taken[s] {
				continue candidates
			}
			taken[s] = true
			values = append(values, s)
		}
		return m.Key, values
	}
	return "", nil
}

// requires reports whether view v's required lists name.
func requires(v *view, name string) bool {
	r := v.get("required")
	if r == nil || r.Kind != jsonpos.ArrayNode {
		return false
	}
	for _, it := range r.Items {
		if it.Kind == jsonpos.StringNode && it.Str == name {
			return true
		}
	}
	return false
}

// fixedString returns the only string a schema admits (const or one-value
// enum).
func fixedString(v *view) (string, bool) {
	if v.isBool {
		return "", false
	}
	if k := v.get("const"); k != nil {
		return k.Str, k.Kind == jsonpos.StringNode
	}
	if e := v.get("enum"); e != nil && e.Kind == jsonpos.ArrayNode && len(e.Items) == 1 {
		return e.Items[0].Str, e.Items[0].Kind == jsonpos.StringNode
	}
	return "", false
}

// branchKinds returns each branch's single JSON kind (integer and number
// count as one) when all are distinct, else nil.
func branchKinds(views []*view) []string {
	var out []string
	for _, v := range views {
		k := viewKind(v)
		if k == "" {
			return nil
		}
		for _, x := range out {
			if x == k {
				return nil
			}
		}
		out = append(out, k)
	}
	return out
}

// viewKind is the one JSON kind a schema admits, or "".
func viewKind(v *view) string {
	if v.isBool {
		return ""
	}
	if ty := v.get("type"); ty != nil {
		var ks []string
		for _, n := range typeNames(ty) {
			if n == "integer" {
				n = "number"
			}
			if n != "null" && !slices.Contains(ks, n) {
				ks = append(ks, n)
			}
		}
		if len(ks) == 1 {
			return ks[0]
		}
		return ""
	}
	var vals []*jsonpos.Node
	if k := v.get("const"); k != nil {
		vals = []*jsonpos.Node{k}
	} else if e := v.get("enum"); e != nil && e.Kind == jsonpos.ArrayNode {
		vals = e.Items
	}
	if len(vals) > 0 {
		k := ""
		for _, x := range vals {
			xk := jsonKind(x)
			if xk == "integer" {
				xk = "number"
			}
			if k != "" && k != xk {
				return ""
			}
			k = xk
		}
		return k
	}
	switch {
	case v.get("properties") != nil || v.get("patternProperties") != nil:
		return "object"
	case v.get("items") != nil || v.get("prefixItems") != nil:
		return "array"
	}
	return ""
}
