package compat

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"hash"
	"slices"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Union alternatives (anyOf, oneOf, a list of types) are paired by what
// they hold, not by their place: an alternative inserted at the front of
// an anyOf widens it, and shifts the others without changing them. Old
// and new alternatives are paired first when they are the same (their
// shapes, descriptions aside, hash the same), then by the same
// discriminator value, then objects by the same property names, then by
// kind (of the first few, the object sharing the most property names,
// then the best by a shallow trial comparison), then by a kind that
// widens or narrows the old one. An
// old alternative left over is removed (breaking), unless a new one
// accepts every value it did; a new one left over is added.
//
// A oneOf refuses a value that matches two of its alternatives or more:
// an anyOf made a oneOf, an alternative added to a oneOf, or one widened
// in it, may refuse values accepted before, unless the alternatives are
// disjoint (of different JSON types, or of different values of a
// property they all require). When that cannot be shown, the change is
// breaking, and says that calls may be refused.

// shared is what the comparisons of one Compare share: the bounded work
// of trial comparisons, and the shapes' hashes.
type shared struct {
	// budget is how many more pairs of types trial comparisons may visit;
	// past it, alternatives are paired by kind and order alone.
	budget int
	shapes map[*ir.Type][32]byte
}

// Bounds of the work spent pairing union alternatives: type pairs the
// trial comparisons of one Compare visit; alternatives tried per old
// alternative; nodes hashed per shape; pairs of alternatives and
// properties read to tell whether a union's alternatives are disjoint.
const (
	trialBudget    = 1 << 17
	trialDepth     = 2
	maxTries       = 8
	shapeNodes     = 256
	disjointBudget = 1 << 12
)

func newShared() *shared {
	return &shared{budget: trialBudget, shapes: map[*ir.Type][32]byte{}}
}

// wrapping says which side of a union comparison is a type that is no
// union, compared as a union of one alternative.
type wrapping int

const (
	wrappedNone wrapping = iota
	// wrappedOld: the old type became a union.
	wrappedOld
	// wrappedNew: the old union became one type.
	wrappedNew
)

// single is t as a union of one alternative.
func single(t *ir.Type) *ir.Type {
	return &ir.Type{Kind: ir.KindUnion, Branches: []*ir.Type{t}, Nullable: t.Nullable}
}

// nonNil is union u, with a type of any value for each nil alternative
// (the compiler makes none).
func nonNil(u *ir.Type) *ir.Type {
	for i, b := range u.Branches {
		if b == nil {
			v := *u
			v.Branches = append([]*ir.Type(nil), u.Branches...)
			for j := i; j < len(v.Branches); j++ {
				if v.Branches[j] == nil {
					v.Branches[j] = &ir.Type{Kind: ir.KindAny}
				}
			}
			return &v
		}
	}
	return u
}

// keyword is the keyword a union's alternatives are listed under (a
// list of types is an anyOf of them).
func keyword(u *ir.Type) string {
	if u.OneOf {
		return "oneOf"
	}
	return "anyOf"
}

// union compares the alternatives of unions o and n at path. With wrap,
// one side is a type made or unmade a union: union then returns false,
// having reported nothing, when that type is paired with no alternative
// of the other side (the caller reports a type changed).
func (c *cmp) union(path string, o, n *ir.Type, wrap wrapping) bool {
	o, n = nonNil(o), nonNil(n)
	m := c.pair(o, n)
	if (wrap == wrappedOld && m.oldTo[0] < 0) || (wrap == wrappedNew && m.newFrom[0] < 0) {
		return false
	}
	oldPath := func(i int) string {
		if wrap == wrappedOld {
			return path
		}
		return fmt.Sprintf("%s/%s/%d", path, keyword(o), i)
	}
	newPath := func(j int) string {
		if wrap == wrappedNew {
			return path
		}
		return fmt.Sprintf("%s/%s/%d", path, keyword(n), j)
	}
	var nOver []bool
	if n.OneOf {
		nOver = overlaps(n)
	}
	switch {
	case !o.OneOf && n.OneOf && anyTrue(nOver):
		was := "anyOf became oneOf"
		if wrap == wrappedOld {
			was = "type became a oneOf"
		}
		c.addField("type_narrowed", path,
			verdict{Breaking, was + ", and its alternatives are not disjoint by type: a value that matches two of them is refused, so calls may be refused"},
			verdict{Compatible, was + ": the result no longer holds a value that matches two alternatives"})
	case o.OneOf && !n.OneOf && anyTrue(overlaps(o)):
		now := "oneOf became anyOf"
		if wrap == wrappedNew {
			now = "oneOf became one type"
		}
		c.addField("type_widened", path,
			verdict{Compatible, now + ": a value that matches two of its alternatives is now accepted"},
			verdict{Breaking, now + ": the result may hold a value that matches two of its alternatives"})
	}
	for i, ob := range o.Branches {
		j := m.oldTo[i]
		switch {
		case j >= 0:
			mark := len(c.r.Changes)
			c.compare(newPath(j), ob, n.Branches[j], true, wrap != wrappedNone)
			if o.OneOf && n.OneOf && nOver[j] && !c.result && widened(c.r.Changes[mark:]) {
				c.add(Breaking, "type_narrowed", newPath(j), "alternative widened in a oneOf whose alternatives are not disjoint by type: a value that now matches two of them is refused, so calls may be refused")
			}
		case m.merged[i] >= 0:
			c.push(Compatible, "type_widened", oldPath(i), fmt.Sprintf("alternative removed: %s accepts every value it did", newPath(m.merged[i])))
		default:
			c.add(Breaking, "type_narrowed", oldPath(i), "alternative removed")
		}
	}
	for j := range n.Branches {
		switch {
		case m.newFrom[j] >= 0:
		case m.covered[j] >= 0:
			c.push(Compatible, "type_widened", newPath(j), fmt.Sprintf("alternative added: %s held every value it holds", oldPath(m.covered[j])))
		case n.OneOf && nOver[j]:
			c.addField("type_widened", newPath(j),
				verdict{Breaking, "alternative added to a oneOf, and it is not disjoint by type from the others: a value that matches two of them is refused, so calls may be refused"},
				verdict{Breaking, "alternative added"})
		default:
			c.add(Compatible, "type_widened", newPath(j), "alternative added")
		}
	}
	return true
}

func anyTrue(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

// widened reports whether changes (found by the params' rules) accept
// values that were refused.
func widened(changes []Change) bool {
	for _, ch := range changes {
		switch ch.Kind {
		case "type_widened", "constraint_loosened", "enum_value_added", "required_removed":
			return true
		}
	}
	return false
}

// pairing pairs the alternatives of two unions: oldTo[i] is the new
// alternative paired with old one i, newFrom[j] the old one paired with
// new one j (-1: none). merged[i] is a new alternative that accepts
// every value old alternative i, paired with none, did (the params');
// covered[j] an old one that held every value new alternative j,
// paired with none, holds (the result's).
type pairing struct {
	oldTo, newFrom, merged, covered []int
}

func none(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = -1
	}
	return s
}

func (c *cmp) pair(o, n *ir.Type) pairing {
	ob, nb := o.Branches, n.Branches
	m := pairing{oldTo: none(len(ob)), newFrom: none(len(nb)), merged: none(len(ob)), covered: none(len(nb))}
	link := func(i, j int) { m.oldTo[i], m.newFrom[j] = j, i }
	// The same shape: at the same place, else the first one unpaired.
	same := map[[32]byte][]int{}
	for j, b := range nb {
		s := c.sh.shape(b)
		same[s] = append(same[s], j)
	}
	for i, b := range ob {
		s := c.sh.shape(b)
		if i < len(nb) && m.newFrom[i] < 0 && c.sh.shape(nb[i]) == s {
			link(i, i)
			continue
		}
		if j := first(same, s, m.newFrom); j >= 0 {
			link(i, j)
		}
	}
	// The same discriminator value.
	if od, nd := o.Discriminator, n.Discriminator; od != nil && nd != nil && od.Property == nd.Property {
		byValue := map[string]int{}
		for _, v := range nd.Values {
			byValue[v.Value] = v.Branch
		}
		for _, v := range od.Values {
			i := v.Branch
			j, ok := byValue[v.Value]
			if ok && i >= 0 && i < len(ob) && j >= 0 && j < len(nb) && m.oldTo[i] < 0 && m.newFrom[j] < 0 {
				link(i, j)
			}
		}
	}
	// Objects of the same property names.
	names := map[string][]int{}
	for j, b := range nb {
		if m.newFrom[j] < 0 && b.Kind == ir.KindObject {
			k := fieldNames(b)
			names[k] = append(names[k], j)
		}
	}
	for i, b := range ob {
		if m.oldTo[i] < 0 && b.Kind == ir.KindObject {
			if j := first(names, fieldNames(b), m.newFrom); j >= 0 {
				link(i, j)
			}
		}
	}
	// The same kind: of the first few, the object sharing the most
	// property names, then the one whose trial comparison (a shallow one:
	// what is deeper says how much changed, not which is the same) finds
	// the fewest breaking changes, then the fewest changes.
	byKind := map[ir.Kind][]int{}
	for j, b := range nb {
		if m.newFrom[j] < 0 {
			byKind[b.Kind] = append(byKind[b.Kind], j)
		}
	}
	for i, b := range ob {
		if m.oldTo[i] >= 0 {
			continue
		}
		cands := unpaired(byKind, b.Kind, m.newFrom, maxTries)
		if len(cands) == 0 {
			continue
		}
		best := cands[0]
		if len(cands) > 1 {
			var bestScore trial
			for k, j := range cands {
				s := c.try(b, nb[j], trialDepth)
				s.shared = sharedNames(b, nb[j])
				if k == 0 || s.better(bestScore) {
					best, bestScore = j, s
				}
			}
		}
		link(i, best)
	}
	// A kind that widens the old one, then one that narrows it.
	for _, wider := range []bool{true, false} {
		for i, b := range ob {
			if m.oldTo[i] >= 0 {
				continue
			}
			for _, k := range related(b.Kind, wider) {
				if cands := unpaired(byKind, k, m.newFrom, 1); len(cands) > 0 {
					link(i, cands[0])
					break
				}
			}
		}
	}
	// Left over: what the other side accepts or held already.
	all := func(bs []*ir.Type) map[ir.Kind][]int {
		idx := map[ir.Kind][]int{}
		for j, b := range bs {
			if len(idx[b.Kind]) < maxTries {
				idx[b.Kind] = append(idx[b.Kind], j)
			}
		}
		return idx
	}
	if !c.result {
		var nk map[ir.Kind][]int
		for i, b := range ob {
			if m.oldTo[i] >= 0 {
				continue
			}
			if nk == nil {
				nk = all(nb)
			}
			m.merged[i] = c.cover(b, nb, append([]ir.Kind{b.Kind}, related(b.Kind, true)...), nk, false)
		}
	} else {
		var ok map[ir.Kind][]int
		for j, b := range nb {
			if m.newFrom[j] >= 0 {
				continue
			}
			if ok == nil {
				ok = all(ob)
			}
			m.covered[j] = c.cover(b, ob, append([]ir.Kind{b.Kind}, related(b.Kind, true)...), ok, true)
		}
	}
	return m
}

// cover returns the first of the alternatives bs of the given kinds
// (byKind indexes bs) that a trial comparison with t finds no breaking
// change to, -1 when none: t is compared with it as the old type, or as
// the new one when reversed.
func (c *cmp) cover(t *ir.Type, bs []*ir.Type, kinds []ir.Kind, byKind map[ir.Kind][]int, reversed bool) int {
	for _, k := range kinds {
		for _, j := range byKind[k] {
			o, n := t, bs[j]
			if reversed {
				o, n = n, o
			}
			if s := c.try(o, n, 0); s.complete && s.breaking == 0 {
				return j
			}
		}
	}
	return -1
}

// first returns the first index listed under s that is unpaired, -1
// when none; the paired ones before it are dropped from the list.
func first[K comparable](lists map[K][]int, s K, paired []int) int {
	l := lists[s]
	for len(l) > 0 && paired[l[0]] >= 0 {
		l = l[1:]
	}
	lists[s] = l
	if len(l) == 0 {
		return -1
	}
	return l[0]
}

// unpaired returns up to max of the unpaired indexes listed under k (of
// the first 2*max listed once the paired ones in front are dropped).
func unpaired(lists map[ir.Kind][]int, k ir.Kind, paired []int, max int) []int {
	l := lists[k]
	for len(l) > 0 && paired[l[0]] >= 0 {
		l = l[1:]
	}
	lists[k] = l
	var out []int
	for n, j := range l {
		if n >= 2*max || len(out) == max {
			break
		}
		if paired[j] < 0 {
			out = append(out, j)
		}
	}
	return out
}

// related lists the kinds that accept every value of kind k (wider) or
// whose every value k accepts (narrower), any among them.
func related(k ir.Kind, wider bool) []ir.Kind {
	var out []ir.Kind
	for pair := range widens {
		if wider && pair[0] == k {
			out = append(out, pair[1])
		} else if !wider && pair[1] == k {
			out = append(out, pair[0])
		}
	}
	// Map order is random: the pairing must not be.
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	if k != ir.KindAny && wider {
		out = append(out, ir.KindAny)
	}
	return out
}

// trial is what a trial comparison found.
type trial struct {
	// shared counts the property names two objects share.
	shared int
	// complete is whether it compared all (within the budget).
	complete        bool
	breaking, total int
}

func (s trial) better(t trial) bool {
	if s.shared != t.shared {
		return s.shared > t.shared
	}
	if s.complete != t.complete {
		return s.complete
	}
	if s.breaking != t.breaking {
		return s.breaking < t.breaking
	}
	return s.total < t.total
}

// try compares o with n as alternatives of unions, in a scratch report,
// depth types deep at most (0: all; it is then complete only when the
// budget lasted).
func (c *cmp) try(o, n *ir.Type, depth int) trial {
	if c.sh.budget <= 0 {
		return trial{}
	}
	d := &cmp{r: &Report{}, tool: c.tool, op: c.op, seen: map[[2]*ir.Type]bool{}, result: c.result, sh: c.sh, dry: true, maxDepth: depth}
	d.compare("", o, n, true, false)
	s := trial{complete: c.sh.budget > 0}
	for _, ch := range d.r.Changes {
		if ch.Class == Breaking {
			s.breaking++
		}
		s.total++
	}
	return s
}

// fieldNames lists the property names of object t.
func fieldNames(t *ir.Type) string {
	ns := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		ns[i] = f.JSONName
	}
	slices.Sort(ns)
	b, _ := json.Marshal(ns)
	return string(b)
}

// sharedNames counts the property names objects a and b share.
func sharedNames(a, b *ir.Type) int {
	if a.Kind != ir.KindObject || b.Kind != ir.KindObject {
		return 0
	}
	in := map[string]bool{}
	for _, f := range b.Fields {
		in[f.JSONName] = true
	}
	n := 0
	for _, f := range a.Fields {
		if in[f.JSONName] {
			n++
		}
	}
	return n
}

// shape hashes what t accepts (descriptions aside), read to
// shapeNodes types deep at most: two types of one shape are paired as
// the same alternative (a pair hashed the same though they differ past
// that is still compared whole).
func (sh *shared) shape(t *ir.Type) [32]byte {
	if s, ok := sh.shapes[t]; ok {
		return s
	}
	w := &shapeWriter{h: sha256.New(), nodes: shapeNodes}
	w.typ(t)
	var s [32]byte
	copy(s[:], w.h.Sum(nil))
	sh.shapes[t] = s
	return s
}

type shapeWriter struct {
	h     hash.Hash
	nodes int
	stack []*ir.Type
}

func (w *shapeWriter) typ(t *ir.Type) {
	if t == nil {
		fmt.Fprint(w.h, "nil;")
		return
	}
	for i, s := range w.stack {
		if s == t {
			fmt.Fprintf(w.h, "^%d;", len(w.stack)-i)
			return
		}
	}
	if w.nodes <= 0 {
		fmt.Fprint(w.h, "...;")
		return
	}
	w.nodes--
	w.stack = append(w.stack, t)
	defer func() { w.stack = w.stack[:len(w.stack)-1] }()
	fmt.Fprintf(w.h, "(%d %t %t %t %t %t %t %d %q %q %q %q", t.Kind, t.Nullable, t.Extra, t.AdditionalFalse,
		t.RestForbidden, t.OneOf, t.DelegatedNull, t.Repr, t.Format, t.Const, t.Delegated, t.Default)
	for _, e := range t.Enum {
		fmt.Fprintf(w.h, " e%q", e.JSON)
	}
	if t.Constraints != nil {
		k := *t.Constraints
		k.Contains, k.PropertyNames = nil, nil
		b, _ := json.Marshal(k)
		fmt.Fprintf(w.h, " k%q", b)
		w.typ(t.Constraints.Contains)
		w.typ(t.Constraints.PropertyNames)
	}
	for _, f := range t.Fields {
		fmt.Fprintf(w.h, " f%q %t %q", f.JSONName, f.Required, f.Default)
		w.typ(f.Type)
	}
	fmt.Fprint(w.h, " elem")
	w.typ(t.Elem)
	for _, p := range t.PatternProperties {
		fmt.Fprintf(w.h, " p%q", p.Pattern)
		w.typ(p.Type)
	}
	for _, p := range t.Prefix {
		fmt.Fprint(w.h, " prefix")
		w.typ(p)
	}
	for _, b := range t.Branches {
		fmt.Fprint(w.h, " branch")
		w.typ(b)
	}
	fmt.Fprint(w.h, ")")
}

// JSON types, as a set.
type jsonTypes uint8

const (
	jsonNull jsonTypes = 1 << iota
	jsonBoolean
	jsonNumber
	jsonString
	jsonArray
	jsonObject
	jsonAll = 1<<iota - 1
)

// jsonTypesOf is the set of JSON types of the values t may accept.
func jsonTypesOf(t *ir.Type, depth int) jsonTypes {
	if t == nil {
		return jsonAll
	}
	var s jsonTypes
	if t.Nullable {
		s = jsonNull
	}
	switch t.Kind {
	case ir.KindNever:
	case ir.KindBool:
		s |= jsonBoolean
	case ir.KindInteger, ir.KindNumber:
		s |= jsonNumber
	case ir.KindString, ir.KindEnum:
		s |= jsonString
	case ir.KindConst:
		s |= literalType(t.Const)
	case ir.KindArray, ir.KindTuple:
		s |= jsonArray
	case ir.KindObject, ir.KindMap:
		s |= jsonObject
	case ir.KindUnion:
		if depth > 8 {
			return jsonAll
		}
		for _, b := range t.Branches {
			s |= jsonTypesOf(b, depth+1)
		}
	default:
		return jsonAll
	}
	return s
}

// literalType is the JSON type of a canonical JSON literal.
func literalType(v json.RawMessage) jsonTypes {
	if len(v) == 0 {
		return jsonAll
	}
	switch v[0] {
	case 'n':
		return jsonNull
	case 't', 'f':
		return jsonBoolean
	case '"':
		return jsonString
	case '[':
		return jsonArray
	case '{':
		return jsonObject
	}
	return jsonNumber
}

// literals returns the values t accepts when they are few and can be
// told apart by their canonical JSON (strings, booleans and null: not
// numbers, whose spellings differ, nor arrays or objects).
func literals(t *ir.Type) (map[string]bool, bool) {
	var vs []json.RawMessage
	switch {
	case t.Kind == ir.KindConst:
		vs = append(vs, t.Const)
	case len(t.Enum) > 0 && t.Kind != ir.KindAny:
		for _, e := range t.Enum {
			vs = append(vs, e.JSON)
		}
	default:
		return nil, false
	}
	if t.Nullable {
		vs = append(vs, json.RawMessage("null"))
	}
	set := map[string]bool{}
	for _, v := range vs {
		if literalType(v)&(jsonString|jsonBoolean|jsonNull) == 0 {
			return nil, false
		}
		set[string(v)] = true
	}
	return set, true
}

// overlaps reports, for each alternative of union u, whether a value
// may match it and another (true when that cannot be shown not to).
func overlaps(u *ir.Type) []bool {
	bs := u.Branches
	out := make([]bool, len(bs))
	if u.Match == ir.MatchDiscriminator && u.Discriminator != nil && len(u.Discriminator.Values) == len(bs) {
		// Every alternative requires the property, fixed to a string
		// of its own.
		return out
	}
	types := make([]jsonTypes, len(bs))
	count := map[jsonTypes]int{}
	for i, b := range bs {
		types[i] = jsonTypesOf(b, 0)
		for t := jsonTypes(1); t <= jsonObject; t <<= 1 {
			if types[i]&t != 0 {
				count[t]++
			}
		}
	}
	budget := disjointBudget
	for i, b := range bs {
		shared := false
		for t := jsonTypes(1); t <= jsonObject; t <<= 1 {
			shared = shared || (types[i]&t != 0 && count[t] > 1)
		}
		if !shared {
			continue
		}
		for j, x := range bs {
			if budget--; budget < 0 {
				out[i] = true
				break
			}
			if j != i && types[i]&types[j] != 0 && !disjoint(b, x, &budget, 0) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// disjoint reports whether no value can be valid against both a and b,
// when that can be shown from their JSON types, their values (const,
// enum), or a property both objects require whose types are disjoint.
// It spends budget on what it reads, and says false when it is spent.
func disjoint(a, b *ir.Type, budget *int, depth int) bool {
	if a == nil || b == nil || depth > 4 || *budget < 0 {
		return false
	}
	ta, tb := jsonTypesOf(a, 0), jsonTypesOf(b, 0)
	if ta&tb == 0 {
		return true
	}
	if la, ok := literals(a); ok {
		if lb, ok := literals(b); ok {
			*budget -= len(la) + len(lb)
			for v := range la {
				if lb[v] {
					return false
				}
			}
			return true
		}
	}
	for _, u := range [2][2]*ir.Type{{a, b}, {b, a}} {
		if u[0].Kind == ir.KindUnion {
			if u[0].Nullable && jsonTypesOf(u[1], 0)&jsonNull != 0 {
				return false
			}
			for _, x := range u[0].Branches {
				if *budget--; !disjoint(x, u[1], budget, depth+1) {
					return false
				}
			}
			return true
		}
	}
	if a.Kind != ir.KindObject || b.Kind != ir.KindObject || ta&tb != jsonObject {
		return false
	}
	if closedWithout(a, b, budget) || closedWithout(b, a, budget) {
		return true
	}
	fb := map[string]*ir.Field{}
	for _, f := range b.Fields {
		if *budget--; f.Required {
			fb[f.JSONName] = f
		}
	}
	for _, f := range a.Fields {
		if *budget--; *budget < 0 {
			return false
		}
		if g := fb[f.JSONName]; f.Required && g != nil && disjoint(f.Type, g.Type, budget, depth+1) {
			return true
		}
	}
	return false
}

// closedWithout reports whether object a refuses every property it does
// not declare, and b requires one a does not declare.
func closedWithout(a, b *ir.Type, budget *int) bool {
	if !a.AdditionalFalse || a.Extra || len(a.PatternProperties) > 0 || a.Delegated != nil {
		return false
	}
	declared := map[string]bool{}
	for _, f := range a.Fields {
		*budget--
		declared[f.JSONName] = true
	}
	for _, f := range b.Fields {
		if *budget--; f.Required && !declared[f.JSONName] {
			return true
		}
	}
	return false
}
