// Package compat classifies the differences between two versions of a tool
// family as breaking or compatible for the callers of its tools: a change
// is breaking when some call that was valid before is refused after (or
// reaches another tool), compatible otherwise. It reads only the IR
// (schema/ir), after compilation and taxonomy, so what it compares is
// exactly what the generated code checks.
//
// Breaking: a tool removed, an op renamed, a required argument added, an
// optional argument made required, an argument removed, a type narrowed or
// changed, null no longer accepted, an enum value removed, a constraint
// added or tightened (bounds, lengths, counts, pattern, format, unknown
// properties refused), an alternative removed from a union, an anyOf made
// a oneOf or an alternative added to or widened in a oneOf (unless its
// alternatives are disjoint: a value matching two is refused).
// Compatible: a tool added, an optional argument added, a required
// argument made optional, a description changed, a type widened, an enum
// value added, a constraint removed or loosened, an alternative added to
// an anyOf, alternatives reordered, a oneOf made an anyOf. Union
// alternatives are paired by what they accept, not by their place (see
// union.go).
//
// A tool's result (its output schema) is read the other way round, by
// those who consume it: a change is breaking when the result may now hold
// something it did not promise before, or lacks a field it had. A field
// removed, made optional or typed wider, a value or alternative added, a
// constraint loosened, the result type removed: breaking. A field added,
// made always present or typed narrower, a constraint tightened, a result
// type added: compatible.
package compat

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Class is whether a change breaks existing callers.
type Class string

// Classes of change.
const (
	Breaking   Class = "breaking"
	Compatible Class = "compatible"
)

// Change is one classified difference.
type Change struct {
	Class Class `json:"class"`
	// Kind names the rule ("tool_removed", "required_added", ...).
	Kind string `json:"kind"`
	Tool string `json:"tool"`
	// Op is the op path in the new family (the old one when removed).
	Op string `json:"op,omitempty"`
	// Path is the JSON pointer of the argument inside the params ("" for
	// the tool itself), or of the field inside the result when Result.
	Path string `json:"path,omitempty"`
	// Result is whether the change is to the tool's result.
	Result  bool   `json:"result,omitempty"`
	Message string `json:"message"`
}

// Report is the comparison of two families.
type Report struct {
	OldRegistryVersion string   `json:"old_registry_version"`
	NewRegistryVersion string   `json:"new_registry_version"`
	Changes            []Change `json:"changes"`
	Breaking           int      `json:"breaking"`
	Compatible         int      `json:"compatible"`
}

// Compare classifies every difference from before to after, tools in name
// order and arguments in schema order.
func Compare(before, after *ir.Family) *Report {
	r := &Report{OldRegistryVersion: before.RegistryVersion, NewRegistryVersion: after.RegistryVersion, Changes: []Change{}}
	oldOps, newOps := opsByTool(before), opsByTool(after)
	newTools := map[string]*ir.Tool{}
	for _, t := range after.Tools {
		newTools[t.Name] = t
	}
	oldTools := map[string]bool{}
	sh := newShared()
	for _, t := range sortedTools(before) {
		oldTools[t.Name] = true
		c := &cmp{r: r, tool: t.Name, op: oldOps[t.Name], seen: map[[2]*ir.Type]bool{}, sh: sh}
		nt := newTools[t.Name]
		if nt == nil {
			c.add(Breaking, "tool_removed", "", "tool removed")
			continue
		}
		c.op = newOps[t.Name]
		if oldOps[t.Name] != newOps[t.Name] {
			c.add(Breaking, "op_renamed", "", fmt.Sprintf("op renamed from %s to %s", oldOps[t.Name], newOps[t.Name]))
		}
		if t.Description != nt.Description {
			c.add(Compatible, "description_changed", "", "tool description changed")
		}
		c.types("", t.Params, nt.Params)
		c.result = true
		switch {
		case t.Result != nil && nt.Result == nil:
			c.add(Breaking, "result_removed", "", "result type removed")
		case t.Result == nil && nt.Result != nil:
			c.add(Compatible, "result_added", "", "result type added")
		default:
			c.types("", t.Result, nt.Result)
		}
	}
	for _, t := range sortedTools(after) {
		if !oldTools[t.Name] {
			c := &cmp{r: r, tool: t.Name, op: newOps[t.Name]}
			c.add(Compatible, "tool_added", "", "tool added")
		}
	}
	for _, ch := range r.Changes {
		if ch.Class == Breaking {
			r.Breaking++
		} else {
			r.Compatible++
		}
	}
	return r
}

func opsByTool(f *ir.Family) map[string]string {
	m := map[string]string{}
	for _, op := range f.Ops {
		m[op.Tool.Name] = op.Path
	}
	return m
}

func sortedTools(f *ir.Family) []*ir.Tool {
	ts := append([]*ir.Tool(nil), f.Tools...)
	sort.Slice(ts, func(i, j int) bool { return ts[i].Name < ts[j].Name })
	return ts
}

// cmp compares the params of one tool, then its result.
type cmp struct {
	r        *Report
	tool, op string
	seen     map[[2]*ir.Type]bool
	// result is whether the types compared are the result's: a change is
	// classed for its consumers.
	result bool
	// sh is what the comparisons of one Compare share.
	sh *shared
	// dry is whether c only tries a pairing of union alternatives: its
	// report is scratch, and its work is bounded by sh.budget.
	dry bool
	// depth is how deep compare is in the types compared, and maxDepth
	// how deep a trial reads (0: all).
	depth, maxDepth int
}

func (c *cmp) add(class Class, kind, path, msg string) {
	if c.result {
		class, msg = resultClass(class, kind, msg)
	}
	c.push(class, kind, path, msg)
}

func (c *cmp) push(class Class, kind, path, msg string) {
	if c.dry && kind == "description_changed" {
		return // a trial pairing alternatives reads what they accept
	}
	c.r.Changes = append(c.r.Changes, Change{Class: class, Kind: kind, Tool: c.tool, Op: c.op, Path: path, Message: msg, Result: c.result})
}

// verdict is a change's class and wording.
type verdict struct {
	class Class
	msg   string
}

// addField adds a change of a field: as the params' rules find it, or as
// the result's consumers see it when the field is the result's.
func (c *cmp) addField(kind, path string, params, result verdict) {
	v := params
	if c.result {
		v = result
	}
	c.push(v.class, kind, path, v.msg)
}

// resultClass classes a change of a value found by the params' rules for
// a result's consumers: what the params' rules call tightening (fewer
// values accepted) the result's consumers can only gain from, and the
// other way round; a description or a changed type are the same for both.
// (Fields added, removed or made optional are worded by addField.)
func resultClass(class Class, kind, msg string) (Class, string) {
	switch kind {
	case "description_changed", "type_changed", "result_removed", "result_added":
		return class, msg
	}
	if class == Breaking {
		return Compatible, msg
	}
	return Breaking, msg
}

// types compares the old and new type of the value at path.
func (c *cmp) types(path string, o, n *ir.Type) {
	c.compare(path, o, n, false, false)
}

// compare compares the old and new type of the value at path; noNull
// leaves null out (an alternative of a union, whose null the union's
// own Nullable says), noDoc the description (a type compared with an
// alternative of a union it became or was, whose description was
// compared with the union's).
func (c *cmp) compare(path string, o, n *ir.Type, noNull, noDoc bool) {
	if o == nil || n == nil {
		return
	}
	key := [2]*ir.Type{o, n}
	if c.seen[key] {
		return // recursive types: each pair once
	}
	c.seen[key] = true
	if c.dry {
		if c.sh.budget <= 0 || (c.maxDepth > 0 && c.depth >= c.maxDepth) {
			return
		}
		c.sh.budget--
		c.depth++
		defer func() { c.depth-- }()
	}
	if o.Doc != n.Doc && path != "" && !noDoc {
		c.add(Compatible, "description_changed", path, "description changed")
	}
	switch {
	case noNull:
	case o.Nullable && !n.Nullable:
		c.add(Breaking, "type_narrowed", path, "null no longer accepted")
	case !o.Nullable && n.Nullable:
		c.add(Compatible, "type_widened", path, "null now accepted")
	}
	if o.Kind != n.Kind {
		c.kindChange(path, o, n)
		return
	}
	switch o.Kind {
	case ir.KindObject:
		c.fields(path, o, n)
	case ir.KindArray:
		c.types(path+"/items", o.Elem, n.Elem)
	case ir.KindMap:
		c.types(path+"/additionalProperties", o.Elem, n.Elem)
	case ir.KindTuple:
		c.tuple(path, o, n)
	case ir.KindUnion:
		c.union(path, o, n, 0)
	case ir.KindConst:
		if !bytes.Equal(o.Const, n.Const) {
			c.add(Breaking, "type_changed", path, fmt.Sprintf("const changed from %s to %s", o.Const, n.Const))
		}
	}
	c.enum(path, o, n)
	c.constraints(path, o, n)
}

// widens lists the kind changes that accept every value the old kind did.
var widens = map[[2]ir.Kind]bool{
	{ir.KindInteger, ir.KindNumber}: true,
	{ir.KindEnum, ir.KindString}:    true,
	{ir.KindConst, ir.KindString}:   true,
	{ir.KindConst, ir.KindEnum}:     true,
}

func (c *cmp) kindChange(path string, o, n *ir.Type) {
	ok, nk := kindName(o.Kind), kindName(n.Kind)
	switch {
	case n.Kind == ir.KindAny || widens[[2]ir.Kind{o.Kind, n.Kind}]:
		c.add(Compatible, "type_widened", path, fmt.Sprintf("type widened from %s to %s", ok, nk))
	case o.Kind == ir.KindAny || widens[[2]ir.Kind{n.Kind, o.Kind}]:
		c.add(Breaking, "type_narrowed", path, fmt.Sprintf("type narrowed from %s to %s", ok, nk))
	case o.Kind == ir.KindUnion && c.union(path, o, single(n), wrappedNew):
	case n.Kind == ir.KindUnion && c.union(path, single(o), n, wrappedOld):
	case objectKind(o.Kind) && objectKind(n.Kind):
		// A map is an object that declares no property: what it
		// declares, and what it says of the others, are compared.
		c.fields(path, asObject(o), asObject(n))
		c.enum(path, o, n)
		c.constraints(path, o, n)
	default:
		c.add(Breaking, "type_changed", path, fmt.Sprintf("type changed from %s to %s", ok, nk))
	}
}

func objectKind(k ir.Kind) bool { return k == ir.KindObject || k == ir.KindMap }

// asObject is map t as an object that declares no property.
func asObject(t *ir.Type) *ir.Type {
	if t.Kind != ir.KindMap {
		return t
	}
	o := *t
	o.Kind, o.Extra = ir.KindObject, !t.AdditionalFalse
	return &o
}

// tuple compares the items of two tuples, position by position, then
// those past the positions either lists (items).
func (c *cmp) tuple(path string, o, n *ir.Type) {
	item := func(t *ir.Type, i int) (*ir.Type, bool) {
		switch {
		case i < len(t.Prefix):
			return t.Prefix[i], true
		case t.RestForbidden:
			return nil, false
		}
		return t.Elem, true
	}
	for i := range max(len(o.Prefix), len(n.Prefix)) {
		p := fmt.Sprintf("%s/%d", path, i)
		ot, oOK := item(o, i)
		nt, nOK := item(n, i)
		switch {
		case !oOK:
			c.add(Compatible, "constraint_loosened", p, fmt.Sprintf("item %d now accepted", i))
		case !nOK:
			c.add(Breaking, "constraint_tightened", p, fmt.Sprintf("item %d now refused (items: false)", i))
		default:
			c.types(p, ot, nt)
		}
	}
	past := max(len(o.Prefix), len(n.Prefix))
	switch {
	case o.RestForbidden && n.RestForbidden:
	case n.RestForbidden:
		c.add(Breaking, "constraint_tightened", path, fmt.Sprintf("items past the first %d are now refused (items: false)", past))
	case o.RestForbidden:
		c.add(Compatible, "constraint_loosened", path, fmt.Sprintf("items past the first %d are now accepted", past))
	default:
		c.types(path+"/items", o.Elem, n.Elem)
	}
}

// anyValue reports whether t accepts every value (nil: none said).
func anyValue(t *ir.Type) bool {
	return t == nil || (t.Kind == ir.KindAny && t.Delegated == nil && len(t.Enum) == 0 && t.Const == nil)
}

var kindNames = [...]string{"any", "never", "boolean", "integer", "number", "string", "enum", "const", "array", "tuple", "object", "map", "union"}

func kindName(k ir.Kind) string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind %d", k)
}

func (c *cmp) fields(path string, o, n *ir.Type) {
	nf := map[string]*ir.Field{}
	for _, f := range n.Fields {
		nf[f.JSONName] = f
	}
	of := map[string]bool{}
	for _, f := range o.Fields {
		of[f.JSONName] = true
		p := path + "/" + escape(f.JSONName)
		g := nf[f.JSONName]
		switch {
		case g == nil:
			c.addField("argument_removed", p, verdict{Breaking, removedArgument(n)}, verdict{Breaking, "result field removed"})
			continue
		case !f.Required && g.Required:
			c.addField("required_added", p, verdict{Breaking, "argument is now required"}, verdict{Compatible, "result field is now always present"})
		case f.Required && !g.Required:
			c.addField("required_removed", p, verdict{Compatible, "argument is now optional"}, verdict{Breaking, "result field may now be absent"})
		}
		c.types(p, f.Type, g.Type)
	}
	for _, f := range n.Fields {
		if of[f.JSONName] {
			continue
		}
		p := path + "/" + escape(f.JSONName)
		if f.Required {
			c.addField("required_added", p, verdict{Breaking, "required argument added"}, verdict{Compatible, "result field added, always present"})
		} else {
			c.addField("argument_added", p, verdict{Compatible, "optional argument added"}, verdict{Compatible, "optional result field added"})
			if o.Extra {
				// The old object took it among its additional
				// properties: what these accepted is what it did.
				c.types(p, o.Elem, f.Type)
			}
		}
	}
	if !o.AdditionalFalse && n.AdditionalFalse {
		c.add(Breaking, "constraint_tightened", path, "unknown properties are now refused (additionalProperties: false)")
	} else if o.AdditionalFalse && !n.AdditionalFalse {
		c.add(Compatible, "constraint_loosened", path, "unknown properties are now accepted")
	}
	// What additionalProperties says of the properties not declared.
	switch {
	case o.Extra && n.Extra:
		c.types(path+"/additionalProperties", o.Elem, n.Elem)
	case n.Extra && !o.AdditionalFalse && !anyValue(n.Elem):
		c.add(Breaking, "constraint_tightened", path, "unknown properties must now match additionalProperties")
	case o.Extra && !n.AdditionalFalse && !anyValue(o.Elem):
		c.add(Compatible, "constraint_loosened", path, "unknown properties are no longer checked against additionalProperties")
	}
}

// removedArgument says what becomes of a call that still sends an
// argument n, the new object type, no longer declares: what n says of
// properties it does not declare decides.
func removedArgument(n *ir.Type) string {
	switch {
	case n.AdditionalFalse:
		return "argument removed: calls that send it are now refused (additionalProperties: false)"
	case len(n.PatternProperties) > 0 || n.Delegated != nil:
		return "argument removed: calls that send it are now judged by the object's other keywords (patternProperties, unevaluatedProperties, ...) and may be refused"
	case n.Extra:
		return "argument removed: calls that send it are accepted only when it fits additionalProperties, and it then reaches the handler among the additional properties"
	}
	return "argument removed: calls that send it are still accepted, and it no longer reaches the handler"
}

func (c *cmp) enum(path string, o, n *ir.Type) {
	if len(o.Enum) == 0 && len(n.Enum) == 0 {
		return
	}
	if len(o.Enum) == 0 {
		c.add(Breaking, "constraint_tightened", path, "enum added")
		return
	}
	if len(n.Enum) == 0 {
		c.add(Compatible, "constraint_loosened", path, "enum removed")
		return
	}
	has := func(vs []ir.EnumValue) map[string]bool {
		m := map[string]bool{}
		for _, v := range vs {
			m[string(v.JSON)] = true
		}
		return m
	}
	ov, nv := has(o.Enum), has(n.Enum)
	for _, v := range o.Enum {
		if !nv[string(v.JSON)] {
			c.add(Breaking, "enum_value_removed", path, fmt.Sprintf("enum value %s removed", v.JSON))
		}
	}
	for _, v := range n.Enum {
		if !ov[string(v.JSON)] {
			c.add(Compatible, "enum_value_added", path, fmt.Sprintf("enum value %s added", v.JSON))
		}
	}
}

func (c *cmp) constraints(path string, o, n *ir.Type) {
	oc, nc := o.ConstraintsValue(), n.ConstraintsValue()
	// Lower bounds: raising one tightens; upper bounds: lowering one does.
	c.bound(path, "minimum", oc.Minimum, nc.Minimum, true)
	c.bound(path, "exclusiveMinimum", oc.ExclusiveMinimum, nc.ExclusiveMinimum, true)
	c.bound(path, "maximum", oc.Maximum, nc.Maximum, false)
	c.bound(path, "exclusiveMaximum", oc.ExclusiveMaximum, nc.ExclusiveMaximum, false)
	c.count(path, "minLength", oc.MinLength, nc.MinLength, true)
	c.count(path, "maxLength", oc.MaxLength, nc.MaxLength, false)
	c.count(path, "minItems", oc.MinItems, nc.MinItems, true)
	c.count(path, "maxItems", oc.MaxItems, nc.MaxItems, false)
	c.count(path, "minProperties", oc.MinProperties, nc.MinProperties, true)
	c.count(path, "maxProperties", oc.MaxProperties, nc.MaxProperties, false)
	c.count(path, "minContains", oc.MinContains, nc.MinContains, true)
	c.count(path, "maxContains", oc.MaxContains, nc.MaxContains, false)
	c.text(path, "pattern", oc.Pattern, nc.Pattern)
	c.text(path, "format", o.Format, n.Format)
	if oc.MultipleOf != nil || nc.MultipleOf != nil {
		c.text(path, "multipleOf", numText(oc.MultipleOf), numText(nc.MultipleOf))
	}
	// Keywords the embedded validator checks (not, if/then/else, a oneOf
	// of required lists, minProperties and the like on an object) are
	// compared as text: a change in them may tighten.
	c.text(path, "delegated keywords", string(o.Delegated), string(n.Delegated))
	if !oc.UniqueItems && nc.UniqueItems {
		c.add(Breaking, "constraint_tightened", path, "items must now be unique")
	} else if oc.UniqueItems && !nc.UniqueItems {
		c.add(Compatible, "constraint_loosened", path, "items need no longer be unique")
	}
}

func numText(n *ir.Number) string {
	if n == nil {
		return ""
	}
	return string(*n)
}

// text compares a constraint whose values cannot be ordered: adding or
// changing one tightens, removing one loosens.
func (c *cmp) text(path, name, o, n string) {
	switch {
	case o == n:
	case o == "":
		c.add(Breaking, "constraint_tightened", path, fmt.Sprintf("%s %q added", name, n))
	case n == "":
		c.add(Compatible, "constraint_loosened", path, fmt.Sprintf("%s %q removed", name, o))
	default:
		c.add(Breaking, "constraint_tightened", path, fmt.Sprintf("%s changed from %q to %q", name, o, n))
	}
}

func (c *cmp) bound(path, name string, o, n *ir.Number, lower bool) {
	d := 0
	if o != nil && n != nil {
		d, _ = n.Cmp(*o)
	}
	show := func(x *ir.Number) string {
		if x == nil {
			return ""
		}
		return string(*x)
	}
	c.order(path, name, show(o), show(n), d, lower)
}

func (c *cmp) count(path, name string, o, n *int64, lower bool) {
	var os, ns string
	d := 0
	if o != nil {
		os = strconv.FormatInt(*o, 10)
	}
	if n != nil {
		ns = strconv.FormatInt(*n, 10)
	}
	if o != nil && n != nil {
		d = compareInt(*n, *o)
	}
	c.order(path, name, os, ns, d, lower)
}

func compareInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// order classifies a change of an ordered bound from o to n ("" when
// absent), d comparing n with o; lower tells a lower bound (raising it
// tightens) from an upper one (lowering it tightens).
func (c *cmp) order(path, name, o, n string, d int, lower bool) {
	switch {
	case o == "" && n == "":
	case o == "":
		c.add(Breaking, "constraint_tightened", path, fmt.Sprintf("%s %s added", name, n))
	case n == "":
		c.add(Compatible, "constraint_loosened", path, fmt.Sprintf("%s %s removed", name, o))
	case d == 0:
	case (d > 0) == lower:
		c.add(Breaking, "constraint_tightened", path, fmt.Sprintf("%s tightened from %s to %s", name, o, n))
	default:
		c.add(Compatible, "constraint_loosened", path, fmt.Sprintf("%s loosened from %s to %s", name, o, n))
	}
}

// escape encodes a property name as a JSON pointer token.
func escape(s string) string {
	var b bytes.Buffer
	for _, r := range s {
		switch r {
		case '~':
			b.WriteString("~0")
		case '/':
			b.WriteString("~1")
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
