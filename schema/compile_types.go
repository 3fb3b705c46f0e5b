package schema

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/names"
)

// newType starts a type for the schema at n.
func (c *compiler) newType(n *jsonpos.Node) *ir.Type {
	id := n.Pos.File + "#" + n.Pos.Pointer
	c.ids[id]++
	if k := c.ids[id]; k > 1 {
		id += "~" + strconv.Itoa(k)
	}
	return &ir.Type{ID: id, Pos: n.Pos}
}

// compile returns the type of the schema at n, compiling it once.
func (c *compiler) compile(n *jsonpos.Node, nm naming) *ir.Type {
	if t, ok := c.memo[n]; ok {
		if tn, busy := c.inProgress[t]; busy {
			c.cyclic[t] = tn
		}
		return t
	}
	if c.badRefs[n] || c.exhausted {
		t := c.unreadType(n)
		c.memo[n] = t
		return t
	}
	if c.external[n] {
		t := c.newType(n)
		t.Kind = ir.KindAny
		t.Delegated = n.JSON()
		c.memo[n] = t
		return t
	}
	if ref := c.pureRef(n); ref != nil {
		if c.badRefs[ref] || !c.spend(ref) {
			t := c.unreadType(n)
			c.memo[n] = t
			return t
		}
		if c.refStack.has(n) {
			c.errorf(ref, "circular $ref")
			return c.unreadType(n)
		}
		target, _, err := c.resolveRef(ref, c.resOf[n])
		if err != nil {
			c.errs = append(c.errs, err)
			t := c.unreadType(n)
			c.memo[n] = t
			return t
		}
		c.refStack.push(n)
		name := names.GoName(refName(ref.Str))
		t := c.compile(target, naming{name: name, stem: name})
		c.refStack.pop()
		c.memo[n] = t
		return t
	}
	t := c.newType(n)
	c.memo[n] = t
	c.inProgress[t] = nm
	// Only a chain of bare $refs can loop: structure in between breaks it.
	outer := c.refStack
	c.refStack = nodeStack{}
	c.compileView(t, c.view(n, c.lenient[n]), nm, notRoot)
	c.refStack = outer
	delete(c.inProgress, t)
	return t
}

// rootKind tells a tool's root schema from the schemas below it, and
// its parameters from its result: an open object reads differently at
// each (compileObject).
type rootKind uint8

const (
	// notRoot is a schema below a tool's root, or a bare schema.
	notRoot rootKind = iota
	// paramsRoot is a tool's parameters.
	paramsRoot
	// resultRoot is a tool's result (outputSchema, result_schema).
	resultRoot
)

// compileRoot compiles a tool's parameters or result schema (root):
// always a named object (or union of objects) type. what is the schema's
// key where the user wrote it (parameters, outputSchema, result_schema),
// for the error when it is not an object schema.
func (c *compiler) compileRoot(n *jsonpos.Node, nm naming, root rootKind, what string) *ir.Type {
	t := c.newType(n)
	t.GoName = nm.name
	c.named[t.GoName] = t
	c.memo[n] = t
	c.inProgress[t] = nm
	v := c.view(n, false)
	reported := len(c.errs)
	c.compileView(t, v, nm, root)
	delete(c.inProgress, t)
	// A schema left of any kind by an error reported in it (an unknown
	// type, an unresolvable $ref) is no object for want of a kind that
	// could be read: the error says what is wrong, and saying it is no
	// object would only repeat it.
	if !c.objectSchema(t, len(c.errs) > reported, map[*ir.Type]bool{}) {
		c.errorf(n, "%s must be an object schema", what)
	}
	return t
}

// objectSchema reports whether every value t admits, null aside, is a
// JSON object: t is an object (a struct, or a map when it declares no
// properties, as {"type":"object"} in a union's branch compiles), a union
// of such types or an alias of one (still of any kind until finish copies
// its target); a type of any kind is unread when an error left it so
// (unreadType: a circular schema, reported before the compile), or, with
// erred, when an error was reported in the schema (see compileRoot). A
// type met again through a cycle of unions or aliases is left to the
// others.
func (c *compiler) objectSchema(t *ir.Type, erred bool, seen map[*ir.Type]bool) bool {
	if seen[t] {
		return true
	}
	seen[t] = true
	switch t.Kind {
	case ir.KindObject, ir.KindMap:
		return true
	case ir.KindUnion:
		for _, b := range t.Branches {
			if !c.objectSchema(b, erred, seen) {
				return false
			}
		}
		return true
	case ir.KindAny:
		if target := c.aliasTarget(t); target != nil {
			return c.objectSchema(target, erred, seen)
		}
		return erred || c.unread[t]
	}
	return false
}

// unreadType is the type of the schema at n when an error, reported
// where it was found, leaves it unread (a $ref or applicator closing a
// cycle, an unresolvable or circular $ref, the expansion budget spent):
// any value, and no other error is said of it (objectSchema).
func (c *compiler) unreadType(n *jsonpos.Node) *ir.Type {
	t := &ir.Type{Kind: ir.KindAny, Pos: n.Pos}
	c.unread[t] = true
	return t
}

// aliasTarget is the type whose content t takes when the compile ends
// (finish), or nil when t is no alias.
func (c *compiler) aliasTarget(t *ir.Type) *ir.Type {
	for _, a := range c.aliases {
		if a.t == t {
			return a.target
		}
	}
	return nil
}

// kindNames are the JSON Schema type names.
var kindNames = []string{"null", "boolean", "object", "array", "number", "integer", "string"}

// compileView fills t from a merged view: the depth limit, boolean
// schemas, then the view's keywords (compileViewBody), then what every
// type gets (finishView).
func (c *compiler) compileView(t *ir.Type, v *view, nm naming, root rootKind) {
	c.depth++
	defer func() { c.depth-- }()
	if c.depth > c.limits.Depth {
		if c.depth == c.limits.Depth+1 {
			c.errorf(v.src, "schema nested more than %d levels deep (%s)", c.limits.Depth, limits.Hint("max_depth", int64(c.limits.Depth)))
		}
		t.Kind = ir.KindAny
		return
	}
	if v.isBool || v.never {
		if v.isBool && v.boolVal {
			t.Kind = ir.KindAny
			if root != notRoot {
				t.Kind = ir.KindObject
			}
		} else {
			t.Kind = ir.KindNever
		}
		return
	}
	t.Doc = docOf(v)
	c.finishView(t, v, c.compileViewBody(t, v, nm, root))
}

// constMisfit says why the const value k fails the other keywords of v
// (checked by the embedded validator on them alone), or "" when it
// passes or they cannot be read alone (a $ref among them).
func (c *compiler) constMisfit(v *view, k *jsonpos.Node) string {
	var members []jsonpos.Member
	for _, kw := range v.kws {
		// type is checked before (valueFits), and a const with a type
		// alone, the common case, costs no validator.
		if kw.Key != "const" && kw.Key != "type" && !isAnnotation(kw.Key) {
			members = append(members, jsonpos.Member{Key: kw.Key, Value: kw.Value})
		}
	}
	if len(members) == 0 {
		return ""
	}
	return c.schemaMisfit(string(c.synth(v.src, members).JSON()), k)
}

// compileViewBody compiles the view's union, const, enum or types into
// t and returns the subschemas to delegate.
func (c *compiler) compileViewBody(t *ir.Type, v *view, nm naming, root rootKind) []*jsonpos.Node {
	deleg := v.deleg
	if v.get("oneOf") != nil || v.get("anyOf") != nil {
		return c.compileUnion(t, v, nm, root)
	}
	types, nullable, ok := c.typeSet(v)
	if !ok {
		t.Kind = ir.KindAny
		return deleg
	}
	if k := v.get("const"); k != nil {
		if types != nil && !valueFits(k, types) && !(k.Kind == jsonpos.NullNode && nullable) {
			t.Kind = ir.KindNever
			return deleg
		}
		if why := c.constMisfit(v, k); why != "" {
			// The keywords beside const apply to its one value too (they
			// were dropped): when it fails them, nothing is valid.
			c.warnf(k, "const-unsatisfiable", "const %s does not satisfy the keywords beside it (%s): no value is valid here", describe(k), why)
			t.Kind = ir.KindNever
			return deleg
		}
		t.Kind = ir.KindConst
		t.Const = k.JSON()
		t.Nullable = k.Kind == jsonpos.NullNode
		c.checkConst(k)
		return deleg
	}
	if e := v.get("enum"); e != nil {
		c.compileEnum(t, v, e, types, nullable, nm)
		return deleg
	}
	t.Nullable = nullable
	t.DelegatedNull = nullable
	if types == nil && c.stringHint[v.src] {
		types = []string{"string"}
	}
	if types == nil {
		switch {
		case root != notRoot:
			types = []string{"object"}
		case v.hasKindKeywords():
			// Without type, object keywords apply only to objects, array
			// keywords only to arrays: any value, checked whole by the
			// embedded validator.
			t.Kind = ir.KindAny
			t.Nullable = false
			return []*jsonpos.Node{v.src}
		default:
			t.Kind = ir.KindAny
			if ms := v.assertions(); len(ms) > 0 {
				deleg = append(deleg, c.synth(v.src, ms))
			}
			return deleg
		}
	}
	c.compileKinds(t, v, types, nm, root)
	return deleg
}

// compileKinds compiles the non-null types the view allows: null alone,
// one kind, or a union matched by kind.
func (c *compiler) compileKinds(t *ir.Type, v *view, types []string, nm naming, root rootKind) {
	switch len(types) {
	case 0:
		t.Kind = ir.KindConst
		t.Const = []byte("null")
		t.Nullable = true
	case 1:
		c.compileKind(t, v, types[0], nm, root)
	default:
		t.Kind = ir.KindUnion
		t.Match = ir.MatchKind
		c.declare(t, nm.name)
		for _, k := range types {
			b := c.newType(v.src)
			c.compileKind(b, v, k, nm.child(names.GoName(k)), notRoot)
			if f := v.get("format"); f != nil && f.Kind == jsonpos.StringNode && k == "string" {
				// The format applies to the string branch of the kinds.
				b.Format = f.Str
				c.mapFormat(b)
			}
			t.Branches = append(t.Branches, b)
		}
	}
}

// finishView records what every compiled view gives its type: the
// delegated subschemas (the whole view when unevaluated* needs it), the
// default to check later, and the format.
func (c *compiler) finishView(t *ir.Type, v *view, deleg []*jsonpos.Node) {
	if v.unevaluated {
		deleg = []*jsonpos.Node{v.src}
	}
	// A type compiled in steps (a union's only branch) keeps the
	// subschemas delegated by each step.
	for _, n := range deleg {
		if !slices.Contains(c.delegNodes[t], n) {
			c.delegNodes[t] = append(c.delegNodes[t], n)
		}
	}
	t.Delegated = c.delegated(c.delegNodes[t])
	if d := v.get("default"); d != nil {
		c.defaults = append(c.defaults, pendingDefault{t: t, value: d})
	}
	if f := v.get("format"); f != nil {
		if f.Kind == jsonpos.StringNode {
			t.Format = f.Str
			c.mapFormat(t)
			if !check.KnownFormat(f.Str) {
				if s := text.Closest(f.Str, formatNames); s != "" {
					c.warnf(f, "unknown-format", "unknown format %q is not checked; did you mean %q?", f.Str, s)
				}
			}
		} else {
			c.errorf(f, "format must be a string")
		}
	}
}

// typeSet returns the non-null types the type keyword allows (nil when
// absent; integer is dropped when number is present) and whether null is
// allowed.
//
// JSON Schema requires a type array to be non-empty with unique items.
// Both are errors rather than guesses: an empty list read as it stands
// would allow nothing (or, read as an absent keyword, everything), and a
// repeated entry is most likely a slip for another type.
func (c *compiler) typeSet(v *view) ([]string, bool, bool) {
	n := v.get("type")
	if n == nil {
		return nil, false, true
	}
	var list []*jsonpos.Node
	switch n.Kind {
	case jsonpos.StringNode:
		list = []*jsonpos.Node{n}
	case jsonpos.ArrayNode:
		list = n.Items
		if len(list) == 0 {
			c.errorf(n, "type must be a type name or a non-empty array of them; [] allows no type")
			return nil, false, false
		}
	default:
		c.errorf(n, "type must be a string or an array of strings")
		return nil, false, false
	}
	has := map[string]bool{}
	for _, it := range list {
		if it.Kind != jsonpos.StringNode || !slices.Contains(kindNames, it.Str) {
			c.errorf(it, "unknown type %s", describe(it))
			return nil, false, false
		}
		if has[it.Str] {
			c.errorf(it, "type lists %q twice; the entries of a type array must be unique", it.Str)
			return nil, false, false
		}
		has[it.Str] = true
	}
	if has["number"] {
		has["integer"] = false
	}
	out := []string{}
	for _, k := range []string{"object", "array", "string", "integer", "number", "boolean"} {
		if has[k] {
			out = append(out, k)
		}
	}
	return out, has["null"], true
}

// compileKind fills t as a value of one JSON type.
func (c *compiler) compileKind(t *ir.Type, v *view, kind string, nm naming, root rootKind) {
	switch kind {
	case "string":
		t.Kind = ir.KindString
		c.stringConstraints(t, v)
	case "integer":
		t.Kind = ir.KindInteger
		c.numberConstraints(t, v)
		c.checkNumbers(t, v)
	case "number":
		t.Kind = ir.KindNumber
		c.numberConstraints(t, v)
		c.checkNumbers(t, v)
	case "boolean":
		t.Kind = ir.KindBool
	case "array":
		c.compileArray(t, v, nm)
	case "object":
		c.compileObject(t, v, nm, root)
	}
}

// constraints is t's constraints, allocated when the first is set: most
// types have none, and a nil Constraints keeps ir.Type small.
func constraints(t *ir.Type) *ir.Constraints {
	if t.Constraints == nil {
		t.Constraints = new(ir.Constraints)
	}
	return t.Constraints
}

func (c *compiler) stringConstraints(t *ir.Type, v *view) {
	if n := c.count(v, "minLength"); n != nil {
		constraints(t).MinLength = n
	}
	if n := c.count(v, "maxLength"); n != nil {
		constraints(t).MaxLength = n
	}
	c.checkRange(v, "minLength", "maxLength", false)
	if p := v.get("pattern"); p != nil {
		if c.checkPattern(p) && p.Str != "" {
			constraints(t).Pattern = p.Str
		}
	}
}

func (c *compiler) numberConstraints(t *ir.Type, v *view) {
	if n := c.number(v, "minimum"); n != nil {
		constraints(t).Minimum = n
	}
	if n := c.number(v, "maximum"); n != nil {
		constraints(t).Maximum = n
	}
	if n := c.number(v, "exclusiveMinimum"); n != nil {
		constraints(t).ExclusiveMinimum = n
	}
	if n := c.number(v, "exclusiveMaximum"); n != nil {
		constraints(t).ExclusiveMaximum = n
	}
	c.checkRange(v, "minimum", "maximum", false)
	c.checkRange(v, "exclusiveMinimum", "exclusiveMaximum", true)
	c.checkRange(v, "minimum", "exclusiveMaximum", true)
	c.checkRange(v, "exclusiveMinimum", "maximum", true)
	if m := c.number(v, "multipleOf"); m != nil {
		if r, ok := m.Rat(); !ok || r.Sign() <= 0 {
			c.errorf(v.get("multipleOf"), "multipleOf must be greater than 0")
		} else {
			constraints(t).MultipleOf = m
		}
	}
}

// count reads a non-negative integer keyword; values beyond int64 are
// clamped (no string or array is that long).
func (c *compiler) count(v *view, k string) *int64 {
	n := v.get(k)
	if n == nil {
		return nil
	}
	if x, ok := plainInt(n); ok && x >= 0 {
		return &x
	}
	r, ok := numRat(n)
	if !ok || !r.IsInt() || r.Sign() < 0 {
		c.errorf(n, "%s must be a non-negative integer", k)
		return nil
	}
	x := int64(math.MaxInt64)
	if r.Num().IsInt64() {
		x = r.Num().Int64()
	}
	return &x
}

// number reads a numeric keyword, exactly.
func (c *compiler) number(v *view, k string) *ir.Number {
	n := v.get(k)
	if n == nil {
		return nil
	}
	if n.Kind != jsonpos.NumberNode {
		c.errorf(n, "%s must be a number", k)
		return nil
	}
	x := ir.Number(n.Num)
	return &x
}

// codeUnsatisfiable is the warning code of schemas no value satisfies.
const codeUnsatisfiable = "unsatisfiable"

// checkRange warns when the lower bound lo of a view exceeds its upper
// bound hi (or equals it, when either is exclusive): no value fits.
func (c *compiler) checkRange(v *view, lo, hi string, exclusive bool) {
	a, b := v.get(lo), v.get(hi)
	d, ok := numCmp(a, b)
	if !ok {
		return
	}
	if d > 0 || (exclusive && d == 0) {
		rel := "greater than"
		if d == 0 {
			rel = "equal to"
		}
		c.warnf(a, codeUnsatisfiable, "%s %s is %s %s %s: no value can satisfy this schema", lo, a.Num, rel, hi, b.Num)
	}
}

// checkPattern reports whether a pattern node is a regular expression
// RE2 or the ECMA engine accepts, within the limit on patterns' size.
func (c *compiler) checkPattern(p *jsonpos.Node) bool {
	if p.Kind != jsonpos.StringNode {
		c.errorf(p, "pattern must be a string")
		return false
	}
	re, why := c.regexp(p.Str)
	if why != "" {
		c.errorf(p, "%s", why)
	}
	return re != nil
}

// compiledPattern is a pattern regexp compiled, or why it did not (empty
// when the limit on patterns' size, already reported, stopped it).
type compiledPattern struct {
	re  *check.Regexp
	why string
}

// regexp compiles pattern p as generated code will, once per distinct
// pattern of the run (catalogues repeat their patterns across tools). It
// returns nil and the reason when no engine accepts p, or when the RE2
// programs of the run's patterns would together pass limits.PatternSize
// (generated code compiles every pattern when it starts); that reason is
// given for the first pattern past the limit only.
func (c *compiler) regexp(p string) (*check.Regexp, string) {
	if cp, seen := c.patterns[p]; seen {
		return cp.re, cp.why
	}
	var cp compiledPattern
	if c.patternSizeSpent {
		// reported
	} else if len(p) > c.limits.PatternSize {
		// Not parsed: RE2's parser takes time growing faster than the
		// length (a 2 MB pattern took 16.7 s and 572 MB).
		c.patternSizeSpent = true
		cp.why = fmt.Sprintf("pattern is %d bytes long, more than the limit on patterns' size allows one pattern (%s)",
			len(p), limits.Hint("max_pattern_size", int64(c.limits.PatternSize)))
	} else if size := check.PatternSize(p); c.patternSize+size > c.limits.PatternSize {
		c.patternSizeSpent = true
		past := "more than the limit on patterns' size"
		if c.patternSize > 0 {
			past = "which brings the input's patterns past the limit on their total size"
		}
		cp.why = fmt.Sprintf("pattern expands to about %d RE2 instructions, %s (%s)",
			size, past, limits.Hint("max_pattern_size", int64(c.limits.PatternSize)))
	} else if re, err := check.Compile(p); err != nil {
		cp.why = err.Error()
	} else {
		cp.re = re
		c.patternSize += re.Size()
	}
	if c.patterns == nil {
		c.patterns = map[string]compiledPattern{}
	}
	c.patterns[p] = cp
	return cp.re, cp.why
}

// matcher is re's match function for patternMatcher.
func matcher(re *check.Regexp) func(string) (matched, ok bool) {
	return func(s string) (bool, bool) {
		m, err := re.Match(s, nil)
		return m, err == nil
	}
}

// matches reports whether the property name at pos matches p's pattern. A
// match not decided in time is a located error: which schemas the
// property answers to cannot be known.
func (c *compiler) matches(p patternProp, name string, pos ir.Pos) bool {
	if p.match == nil {
		return false
	}
	m, ok := p.match(name)
	if !ok {
		c.errs = append(c.errs, jsonpos.Errorf(pos, "pattern %q takes longer than %v to match the property name %q; simplify the pattern", p.Pattern, check.MatchTimeout, name))
	}
	return m
}

// compileEnum fills t from an enum keyword.
func (c *compiler) compileEnum(t *ir.Type, v *view, e *jsonpos.Node, types []string, nullAllowed bool, nm naming) {
	if e.Kind != jsonpos.ArrayNode {
		c.errorf(e, "enum must be an array")
		t.Kind = ir.KindAny
		return
	}
	if len(e.Items) > c.limits.Enum {
		c.errorf(e, "enum lists %d values, more than the limit (%s)", len(e.Items), limits.Hint("max_enum", int64(c.limits.Enum)))
		t.Kind = ir.KindAny
		return
	}
	var vals []*jsonpos.Node
	seen := make(map[string]bool, len(e.Items))
	for _, x := range e.Items {
		if x.Kind == jsonpos.NullNode {
			if types == nil || nullAllowed {
				t.Nullable = true
			}
			continue
		}
		if types != nil && !valueFits(x, types) {
			continue // can never validate
		}
		if k := canonKey(x); !seen[k] {
			seen[k] = true
			vals = append(vals, x)
		}
	}
	if len(vals) == 0 {
		if t.Nullable {
			t.Kind, t.Const = ir.KindConst, []byte("null")
		} else {
			t.Kind = ir.KindNever
			if len(e.Items) == 0 {
				c.warnf(e, codeUnsatisfiable, "enum is empty: no value can satisfy this schema")
			} else {
				c.warnf(e, codeUnsatisfiable, "no enum value has a type the schema allows: no value can satisfy this schema")
			}
		}
		return
	}
	kind := ""
	for _, x := range vals {
		k := jsonKind(x)
		if k == "integer" && (kind == "number" || (types != nil && !slices.Contains(types, "integer"))) {
			k = "number"
		}
		if kind == "integer" && k == "number" {
			kind = "number"
		}
		if kind == "" || kind == k || (kind == "number" && k == "integer") {
			if kind == "" {
				kind = k
			}
			continue
		}
		kind = "any"
	}
	for _, x := range vals {
		t.Enum = append(t.Enum, ir.EnumValue{JSON: x.JSON()})
	}
	switch kind {
	case "string":
		t.Kind = ir.KindEnum
		c.declare(t, nm.name)
		// Values whose constant names collide (a-b, a_b) are numbered in
		// sorted order of their JSON text, as fieldNames numbers property
		// names: reordering an enum never swaps its constants.
		order := make([]int, len(vals))
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return bytes.Compare(t.Enum[a].JSON, t.Enum[b].JSON) })
		for _, i := range order {
			t.Enum[i].GoName = c.types.Unique(names.EnumConstName(t.GoName, vals[i].Str))
		}
		c.stringConstraints(t, v)
	case "integer", "number", "boolean":
		c.compileKind(t, v, kind, nm, notRoot)
	default:
		t.Kind = ir.KindAny
	}
}

// jsonKind is the JSON Schema type of a value (integer for integral
// numbers).
func jsonKind(n *jsonpos.Node) string {
	if n.Kind == jsonpos.NumberNode {
		if _, ok := plainInt(n); ok {
			return "integer"
		}
		if r, ok := numRat(n); ok && r.IsInt() {
			return "integer"
		}
	}
	return n.Kind.String()
}

// valueFits reports whether a value's JSON type is among types.
func valueFits(n *jsonpos.Node, types []string) bool {
	k := jsonKind(n)
	return slices.Contains(types, k) || (k == "integer" && slices.Contains(types, "number"))
}

func isTrue(n *jsonpos.Node) bool {
	return (n.Kind == jsonpos.BoolNode && n.Bool) || (n.Kind == jsonpos.ObjectNode && len(n.Members) == 0)
}

// docOf is the description of a schema, else its title.
func docOf(v *view) string {
	for _, k := range []string{"description", "title"} {
		if d := v.get(k); d != nil && d.Kind == jsonpos.StringNode && d.Str != "" {
			return d.Str
		}
	}
	return ""
}

// nodeDoc is the description or title written on a schema node itself.
func nodeDoc(n *jsonpos.Node) string {
	for _, k := range []string{"description", "title"} {
		if d := n.Get(k); d != nil && d.Kind == jsonpos.StringNode && d.Str != "" {
			return d.Str
		}
	}
	return ""
}

// assertions are the compilable keywords of a view, for a type of no
// single kind (delegated as a whole).
func (v *view) assertions() []jsonpos.Member {
	var ms []jsonpos.Member
	for _, m := range v.kws {
		if m.Key == "format" || !slices.Contains(compileAssertions, m.Key) {
			continue
		}
		ms = append(ms, jsonpos.Member{Key: m.Key, Value: m.Value})
	}
	return ms
}

// compileObject fills t as an object (a struct) or a map.
func (c *compiler) compileObject(t *ir.Type, v *view, nm naming, root rootKind) {
	props := v.get("properties")
	if props != nil && props.Kind != jsonpos.ObjectNode {
		c.errorf(props, "properties must be an object")
		props = nil
	}
	required := c.stringList(v.get("required"), "required")
	c.repeatedRequired(v.get("required"))
	ap := v.get("additionalProperties")
	open := ap != nil && isTrue(ap)
	if open {
		ap = nil
	}
	patterns := c.patternProperties(v.get("patternProperties"), nm)
	for _, p := range patterns {
		t.PatternProperties = append(t.PatternProperties, p.PatternProperty)
	}

	closed := ap != nil && ap.Kind == jsonpos.BoolNode
	if root == notRoot && (props == nil || len(props.Members) == 0) && len(required) == 0 && !(closed && len(patterns) == 0) {
		t.Kind = ir.KindMap
		if len(patterns) > 0 {
			// A map whose members answer to different schemas by name:
			// its values stay generic (every member is kept for the
			// handler) and the embedded validator checks
			// patternProperties and additionalProperties together, so a
			// member matching no pattern meets additionalProperties.
			t.PatternProperties = nil
			t.Elem = &ir.Type{Kind: ir.KindAny, Pos: v.src.Pos}
			ms := []jsonpos.Member{{Key: "patternProperties", Value: v.get("patternProperties")}}
			if ap != nil {
				ms = append(ms, jsonpos.Member{Key: "additionalProperties", Value: ap})
			}
			c.delegNodes[t] = append(c.delegNodes[t], c.synth(v.src, ms))
			c.objectConstraints(t, v, nm)
			return
		}
		switch {
		case ap == nil:
			t.Elem = &ir.Type{Kind: ir.KindAny, Pos: v.src.Pos}
		case ap.Kind == jsonpos.BoolNode:
			t.AdditionalFalse = true
			t.Elem = &ir.Type{Kind: ir.KindAny, Pos: ap.Pos}
		default:
			t.Elem = c.compile(ap, nm.child("Value"))
		}
		c.objectConstraints(t, v, nm)
		return
	}
	t.Kind = ir.KindObject
	c.declare(t, nm.name)
	if props != nil && len(props.Members) > c.limits.Properties {
		c.errorf(props, "object declares %d properties, more than the limit (%s)",
			len(props.Members), limits.Hint("max_properties", int64(c.limits.Properties)))
		return
	}
	// A required name no property declares is a field too: the limit
	// counts them (a required list of 50,000 names made as many fields).
	declaredCount := 0
	if props != nil {
		declaredCount = len(props.Members)
	}
	if r := v.get("required"); r != nil && declaredCount+len(required) > c.limits.Properties {
		names := make(map[string]bool)
		if props != nil {
			for _, m := range props.Members {
				names[m.Key] = true
			}
		}
		for _, name := range required {
			names[name] = true
		}
		fields := len(names)
		if fields > c.limits.Properties {
			c.errorf(r, "object has %d fields (properties and required names without one), more than the limit (%s)",
				fields, limits.Hint("max_properties", int64(c.limits.Properties)))
			return
		}
	}
	goNames, extraName := c.fieldNames(props, v.get("required"))
	declared := map[string]bool{}
	if props != nil {
		for _, m := range props.Members {
			declared[m.Key] = true
			f := &ir.Field{
				JSONName: m.Key,
				GoName:   goNames[m.Key],
				Pos:      m.KeyPos(),
				Required: slices.Contains(required, m.Key),
			}
			pn := m.Value
			for _, p := range patterns {
				if c.matches(p, m.Key, m.KeyPos()) {
					pn = c.allOfNode(pn, p.node)
				}
			}
			if f.Required && m.Value.Kind == jsonpos.BoolNode && !m.Value.Bool {
				c.warnf(m.Value, codeUnsatisfiable, "property %q is required but its schema is false: no call can satisfy this object", m.Key)
			}
			f.Type = c.compile(pn, nm.child(f.GoName))
			f.Doc = nodeDoc(m.Value)
			if f.Doc == "" {
				f.Doc = f.Type.Doc
			}
			pd := pendingDefault{field: f}
			if c.pureRef(m.Value) != nil {
				pd.value = m.Value.Get("default")
			}
			c.fieldDefaults = append(c.fieldDefaults, pd)
			t.Fields = append(t.Fields, f)
		}
	}
	// Required names without a declared property still must be present.
	if r := v.get("required"); r != nil && r.Kind == jsonpos.ArrayNode {
		for _, it := range r.Items {
			if it.Kind != jsonpos.StringNode || declared[it.Str] {
				continue
			}
			declared[it.Str] = true
			f := &ir.Field{JSONName: it.Str, GoName: goNames[it.Str], Pos: it.Pos, Required: true}
			// Every pattern the name matches applies, as for a declared
			// property.
			var pn *jsonpos.Node
			for _, p := range patterns {
				if c.matches(p, it.Str, it.Pos) {
					if pn == nil {
						pn = p.node
					} else {
						pn = c.allOfNode(pn, p.node)
					}
				}
			}
			switch {
			case pn != nil:
				f.Type = c.compile(pn, nm.child(f.GoName))
			case ap != nil:
				// Not declared: additionalProperties judges it, and
				// false refuses it (the field's type takes no value).
				if ap.Kind == jsonpos.BoolNode && !ap.Bool {
					c.warnf(it, codeUnsatisfiable, "property %q is required but additionalProperties is false and no property declares it: no call can satisfy this object", it.Str)
				}
				f.Type = c.compile(ap, nm.child(f.GoName))
			default:
				f.Type = &ir.Type{Kind: ir.KindAny, Pos: it.Pos}
				c.requiredTypo(it, props)
			}
			t.Fields = append(t.Fields, f)
		}
	}
	switch {
	case len(t.PatternProperties) > 0:
		// The members a pattern matches are data the schema names: kept
		// for the handler with every other member (a struct has no field
		// for them, and they had been checked and dropped), generic, and
		// checked by the embedded validator, with additionalProperties
		// (which judges the members neither declared nor matched).
		keepMembers(t, extraName, v.src.Pos)
		t.PatternProperties = nil
		ms := []jsonpos.Member{{Key: "patternProperties", Value: v.get("patternProperties")}}
		if ap != nil {
			if props != nil && props.Kind == jsonpos.ObjectNode {
				// Only the names: additionalProperties judges the others,
				// and the properties' own schemas are checked in Go.
				names := make([]jsonpos.Member, len(props.Members))
				for i, m := range props.Members {
					names[i] = jsonpos.NewMember(m.Key, m.KeyPos(), &jsonpos.Node{Kind: jsonpos.BoolNode, Pos: m.Value.Pos, Bool: true})
				}
				ms = append(ms, jsonpos.Member{Key: "properties", Value: c.synthObject(props, names)})
			}
			ms = append(ms, jsonpos.Member{Key: "additionalProperties", Value: ap})
		}
		c.delegNodes[t] = append(c.delegNodes[t], c.synth(v.src, ms))
	case ap == nil:
		if keepsOthers(root, open, props) {
			keepMembers(t, extraName, v.src.Pos)
		}
	case ap.Kind == jsonpos.BoolNode:
		t.AdditionalFalse = true
	default:
		t.Extra = true
		t.ExtraGoName = extraName
		t.Elem = c.compile(ap, nm.child("Extra"))
	}
	c.objectConstraints(t, v, nm)
}

// keepsOthers reports whether an object struct, whose
// additionalProperties is true or {} (open) or absent, keeps the members
// it does not declare for the handler: when additionalProperties says so
// (free-form arguments or result members, at any depth), and when a
// result's root declares no properties ({"type": "object"}: an object
// with any members, which a struct without fields would drop). Parameters
// that declare none and do not say additionalProperties are MCP's way to
// write a tool without arguments, and an object that lists its properties
// without saying additionalProperties is read as a record of them
// (runtime.IgnoredArgs warns of the members a call sends beside them).
// Below the root, an object that declares no properties is a map
// (compileObject), not a struct.
func keepsOthers(root rootKind, open bool, props *jsonpos.Node) bool {
	switch {
	case open:
		return true
	case root == notRoot:
		return false
	}
	return root == resultRoot && (props == nil || len(props.Members) == 0)
}

// keepMembers makes object t keep the members it does not declare in its
// field extra, as values of any kind.
func keepMembers(t *ir.Type, extra string, pos ir.Pos) {
	t.Extra = true
	t.ExtraGoName = extra
	t.Elem = &ir.Type{Kind: ir.KindAny, Pos: pos}
}

// fieldNames gives the Go field names of an object's properties, of its
// required names without a property, and of its field for additional
// properties (extra). Names that collide (a_b, aB, AB) are resolved in
// sorted order of their JSON names, so the same set of names gets the same
// Go names whatever their order in the source. Catalogues repeat their
// property sets (owner, repo, page) across tools: each distinct set is
// named once, and its names are shared (read only).
func (c *compiler) fieldNames(props, required *jsonpos.Node) (fields map[string]string, extra string) {
	var keys []string
	if props != nil && props.Kind == jsonpos.ObjectNode {
		for _, m := range props.Members {
			keys = append(keys, m.Key)
		}
	}
	if required != nil && required.Kind == jsonpos.ArrayNode {
		for _, it := range required.Items {
			if it.Kind == jsonpos.StringNode {
				keys = append(keys, it.Str)
			}
		}
	}
	slices.Sort(keys)
	keys = slices.Compact(keys)
	var id strings.Builder
	for _, k := range keys {
		id.WriteString(strconv.Itoa(len(k)))
		id.WriteByte(':')
		id.WriteString(k)
	}
	if f, ok := c.fieldSets[id.String()]; ok {
		return f.names, f.extra
	}
	scope := names.NewScope(names.MethodNames...)
	scope.MaxLen = c.limits.IdentifierLength
	out := make(map[string]string, len(keys))
	for _, k := range keys {
		out[k] = scope.Declare(k)
	}
	extra = scope.Declare("extra")
	if c.fieldSets == nil {
		c.fieldSets = map[string]fieldSet{}
	}
	c.fieldSets[id.String()] = fieldSet{out, extra}
	return out, extra
}

// fieldSet is the Go names fieldNames gave one set of property names.
type fieldSet struct {
	names map[string]string
	extra string
}

// patternProp is a compiled patternProperties entry with its schema and a
// matcher (nil for a pattern no engine accepts).
type patternProp struct {
	ir.PatternProperty
	node  *jsonpos.Node
	match func(string) (matched, ok bool)
}

// patternProperties compiles patternProperties, remembering a matcher per
// pattern for declared properties.
func (c *compiler) patternProperties(pp *jsonpos.Node, nm naming) []patternProp {
	if pp == nil {
		return nil
	}
	if pp.Kind != jsonpos.ObjectNode {
		c.errorf(pp, "patternProperties must be an object")
		return nil
	}
	// Every declared property is matched against every pattern: the
	// patterns count as properties (10,000 patterns × 1,000 properties
	// took most of a second).
	if len(pp.Members) > c.limits.Properties {
		c.errorf(pp, "patternProperties declares %d patterns, more than the limit (%s)",
			len(pp.Members), limits.Hint("max_properties", int64(c.limits.Properties)))
		return nil
	}
	var out []patternProp
	for i, m := range pp.Members {
		var match func(string) (bool, bool)
		re, why := c.regexp(m.Key)
		if why != "" {
			c.errs = append(c.errs, jsonpos.Errorf(m.KeyPos(), "%s", why))
		}
		if re != nil {
			match = matcher(re)
		}
		ty := c.compile(m.Value, nm.child("Pattern"+strconv.Itoa(i+1)))
		out = append(out, patternProp{PatternProperty: ir.PatternProperty{Pattern: m.Key, Type: ty}, node: m.Value, match: match})
	}
	return out
}

// objectConstraints compiles the keywords over a whole object's members
// (minProperties, maxProperties, propertyNames, dependentRequired). A
// struct keeps only the members it declares and fills in defaults, so on
// one they are delegated: the embedded validator checks them on the
// object as sent (wire.Errors.Instance). A map holds every member as
// sent and checks the counts and names in Go, but a propertyNames schema
// no string satisfies in Go terms (a number type, false) and
// dependentRequired are delegated too.
func (c *compiler) objectConstraints(t *ir.Type, v *view, nm naming) {
	var deleg []jsonpos.Member
	whole := func(k string) bool {
		if t.Kind != ir.KindObject {
			return false
		}
		if n := v.get(k); n != nil {
			deleg = append(deleg, jsonpos.Member{Key: k, Value: n})
		}
		return true
	}
	if n := c.count(v, "minProperties"); n != nil && !whole("minProperties") {
		constraints(t).MinProperties = n
	}
	if n := c.count(v, "maxProperties"); n != nil && !whole("maxProperties") {
		constraints(t).MaxProperties = n
	}
	c.checkRange(v, "minProperties", "maxProperties", false)
	if pn := v.get("propertyNames"); pn != nil {
		c.stringHint[pn] = true // names are strings: a type-less schema is a string one
		names := c.compile(pn, nm.child("Name"))
		switch {
		case whole("propertyNames"):
		case !nameChecks(names):
			deleg = append(deleg, jsonpos.Member{Key: "propertyNames", Value: pn})
		default:
			constraints(t).PropertyNames = names
		}
	}
	if dr := v.get("dependentRequired"); dr != nil {
		// Always delegated: rare, and a map has no Go check of it.
		if dr.Kind != jsonpos.ObjectNode {
			c.errorf(dr, "dependentRequired must be an object")
		} else {
			for _, m := range dr.Members {
				c.stringList(m.Value, "dependentRequired") // its errors
			}
			if len(dr.Members) > 0 {
				deleg = append(deleg, jsonpos.Member{Key: "dependentRequired", Value: dr})
			}
		}
	}
	if len(deleg) > 0 {
		c.delegNodes[t] = append(c.delegNodes[t], c.synth(v.src, deleg))
	}
}

// nameChecks reports whether the generated Go checks of a member name (a
// string) cover propertyNames compiled as t: a string or string enum
// schema, or one without a type, and nothing delegated.
func nameChecks(t *ir.Type) bool {
	switch t.Kind {
	case ir.KindString, ir.KindEnum:
		return t.Delegated == nil
	case ir.KindAny:
		return t.Delegated == nil && len(t.Enum) == 0 && t.Const == nil
	}
	return false
}

// stringList reads an array of strings.
func (c *compiler) stringList(n *jsonpos.Node, k string) []string {
	if n == nil {
		return nil
	}
	if n.Kind != jsonpos.ArrayNode {
		c.errorf(n, "%s must be an array of strings", k)
		return nil
	}
	var out []string
	for _, it := range n.Items {
		if it.Kind != jsonpos.StringNode {
			c.errorf(it, "%s must be an array of strings", k)
			continue
		}
		out = append(out, it.Str)
	}
	return out
}

// requiredTypo warns of a required name, it, that no property declares
// when one declared in props is a near spelling of it ("userId" for
// user_id): the call must hold both, and help lists the declared one as
// optional.
func (c *compiler) requiredTypo(it, props *jsonpos.Node) {
	if props == nil || props.Kind != jsonpos.ObjectNode || len(props.Members) == 0 {
		return
	}
	names := make([]string, len(props.Members))
	for i, m := range props.Members {
		names[i] = m.Key
	}
	if near := text.Closest(it.Str, names); near != "" {
		c.warnf(it, "required-undeclared", "property %q is required but no property declares it (did you mean %q?): calls must send %q, with any value, and %q stays optional", it.Str, near, it.Str, near)
	}
}

// repeatedRequired warns of each name a required array r lists again:
// JSON Schema asks for unique names, and the definitions toolgen serves
// keep the array as written.
func (c *compiler) repeatedRequired(r *jsonpos.Node) {
	if r == nil || r.Kind != jsonpos.ArrayNode || len(r.Items) < 2 {
		return
	}
	seen := make(map[string]bool, len(r.Items))
	for _, it := range r.Items {
		if it.Kind != jsonpos.StringNode {
			continue
		}
		if seen[it.Str] {
			c.warnf(it, "repeated-required", "required lists %q again; JSON Schema asks for each name once", it.Str)
		}
		seen[it.Str] = true
	}
}

// compileArray fills t as an array or a tuple.
func (c *compiler) compileArray(t *ir.Type, v *view, nm naming) {
	items := v.get("items")
	if prefix := v.get("prefixItems"); prefix != nil {
		if prefix.Kind != jsonpos.ArrayNode {
			c.errorf(prefix, "prefixItems must be an array of schemas")
		} else {
			t.Kind = ir.KindTuple
			c.declare(t, nm.name)
			for i, it := range prefix.Items {
				t.Prefix = append(t.Prefix, c.compile(it, nm.child("Item"+strconv.Itoa(i))))
			}
			switch {
			case items == nil:
				t.Elem = &ir.Type{Kind: ir.KindAny, Pos: prefix.Pos}
			case items.Kind == jsonpos.BoolNode && !items.Bool:
				t.RestForbidden = true
			default:
				t.Elem = c.compile(items, nm.child("Rest"))
			}
		}
	}
	if t.Kind != ir.KindTuple {
		t.Kind = ir.KindArray
		if items == nil {
			t.Elem = &ir.Type{Kind: ir.KindAny, Pos: v.src.Pos}
		} else {
			t.Elem = c.compile(items, nm.child("Item"))
		}
	}
	if n := c.count(v, "minItems"); n != nil {
		constraints(t).MinItems = n
	}
	if n := c.count(v, "maxItems"); n != nil {
		constraints(t).MaxItems = n
	}
	c.checkRange(v, "minItems", "maxItems", false)
	if u := v.get("uniqueItems"); u != nil {
		if u.Kind != jsonpos.BoolNode {
			c.errorf(u, "uniqueItems must be a boolean")
		}
		switch {
		case u.Kind != jsonpos.BoolNode || !u.Bool:
		case structItems(t) || t.Kind == ir.KindTuple:
			// A struct keeps only the members an item declares and fills
			// in defaults: equal structs may stand for different items,
			// so the embedded validator compares the items as sent; it
			// does a tuple's too, whose positions are fields.
			c.delegNodes[t] = append(c.delegNodes[t], c.synth(v.src, []jsonpos.Member{{Key: "uniqueItems", Value: u}}))
		default:
			constraints(t).UniqueItems = true
		}
	}
	if ct := v.get("contains"); ct != nil && t.Kind == ir.KindTuple {
		// A tuple's positions are fields, not a list the generated
		// contains loop reads: the embedded validator checks it (it was
		// dropped).
		c.count(v, "minContains")
		c.count(v, "maxContains")
		c.checkRange(v, "minContains", "maxContains", false)
		members := []jsonpos.Member{{Key: "contains", Value: ct}}
		for _, k := range []string{"minContains", "maxContains"} {
			if n := v.get(k); n != nil {
				members = append(members, jsonpos.Member{Key: k, Value: n})
			}
		}
		c.delegNodes[t] = append(c.delegNodes[t], c.synth(v.src, members))
	} else if ct != nil {
		cs := constraints(t)
		cs.Contains = c.compile(ct, nm.child("Contains"))
		cs.ContainsSchema = c.delegated([]*jsonpos.Node{ct})
		cs.MinContains = c.count(v, "minContains")
		cs.MaxContains = c.count(v, "maxContains")
		c.checkRange(v, "minContains", "maxContains", false)
	}
}

// formatNames are the formats the generated code checks, for suggestions.
var formatNames = check.FormatNames()

// structItems reports whether an array or tuple holds items decoded
// into structs.
func structItems(t *ir.Type) bool {
	if t.Elem != nil && t.Elem.Kind == ir.KindObject {
		return true
	}
	for _, p := range t.Prefix {
		if p != nil && p.Kind == ir.KindObject {
			return true
		}
	}
	return false
}

// canonical is the compact JSON of a value.
func canonical(n *jsonpos.Node) []byte {
	return bytes.Clone(n.JSON())
}

// hasKindKeywords reports structural keywords of one JSON kind (object
// or array) in a view without type.
func (v *view) hasKindKeywords() bool {
	for _, k := range []string{"properties", "patternProperties", "additionalProperties", "required",
		"items", "prefixItems", "contains", "propertyNames", "dependentRequired"} {
		if x := v.get(k); x != nil {
			if k == "additionalProperties" && isTrue(x) {
				continue
			}
			return true
		}
	}
	return false
}
