package schema

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// pendingDefault is a default value checked once every type is complete:
// of a type (t set), or of a field (field set; value nil means the field
// takes its type's default).
type pendingDefault struct {
	t     *ir.Type
	field *ir.Field
	value *jsonpos.Node
}

// checkDefault applies a default that fits its schema and warns about one
// that does not.
func (c *compiler) checkDefault(d pendingDefault) {
	t := d.t
	if d.field != nil {
		t = d.field.Type
		if d.value == nil {
			d.field.Default = t.Default
			return
		}
	}
	if d.value.Kind == jsonpos.NumberNode && t != nil && (t.Kind == ir.KindInteger || t.Kind == ir.KindNumber) && !goNumber(d.value, t.Kind == ir.KindInteger) {
		goType := "float64"
		if t.Kind == ir.KindInteger {
			goType = "int64"
		}
		c.warnf(d.value, "default-mismatch", "default %s is outside the range of the Go type of this field (%s); not applied", describe(d.value), goType)
		return
	}
	if replaced(d.value) {
		c.warnf(d.value, "default-mismatch", "default %s holds an unpaired surrogate escape, which no argument can (one that does is refused); not applied", describe(d.value))
		return
	}
	if why := c.misfit(t, d.value, 0); why != "" {
		c.warnf(d.value, "default-mismatch", "default %s does not match the schema: %s; not applied", describe(d.value), why)
		return
	}
	if d.field != nil {
		d.field.Default = canonical(d.value)
	} else {
		t.Default = canonical(d.value)
	}
}

// goNumber reports whether number n is a value of the Go type holding it
// (int64 for integers, float64 otherwise): a default beyond them cannot be
// written in generated code.
func goNumber(n *jsonpos.Node, integer bool) bool {
	if integer {
		_, err := strconv.ParseInt(strings.TrimSpace(n.Num), 10, 64)
		if err == nil {
			return true
		}
		// 1.0 and 1e3 are integers too.
		f, err := strconv.ParseFloat(n.Num, 64)
		return err == nil && f >= math.MinInt64 && f < math.MaxInt64
	}
	f, err := strconv.ParseFloat(n.Num, 64)
	return err == nil && !math.IsInf(f, 0)
}

// misfit returns why value n is not an instance of type t ("" when it
// is): its kind, enum and const members, required fields and the
// keywords of each kind, formats included, and the delegated keywords
// checked by the embedded validator. A default that misfits is not
// applied, so a call that leaves the value out is never refused for a
// value the model did not send.
//
// Each type and value is judged once (misfits): types are shared (a $ref
// names one), and a value was judged again on every path to its type, so
// that 20 levels of two-branch unions over one $ref took 12 s for one
// default, each level doubling it.
func (c *compiler) misfit(t *ir.Type, n *jsonpos.Node, depth int) string {
	if t == nil || depth > 64 {
		return ""
	}
	if n.Kind == jsonpos.NullNode && t.Nullable {
		return ""
	}
	key := misfitKey{t, n}
	if why, ok := c.misfits[key]; ok {
		return why
	}
	why := c.kindMisfit(t, n, depth)
	if why == "" && t.Delegated != nil && len(t.Resources) == 0 {
		why = c.schemaMisfit(string(t.Delegated), n)
	}
	if c.misfits == nil {
		c.misfits = map[misfitKey]string{}
	}
	c.misfits[key] = why
	return why
}

// misfitKey is a type and a value misfit judged.
type misfitKey struct {
	t *ir.Type
	n *jsonpos.Node
}

// schemaMisfit returns why the embedded validator refuses value n
// against the schema text ("" when it takes it, or the schema does not
// compile alone).
func (c *compiler) schemaMisfit(schemaJSON string, n *jsonpos.Node) string {
	s, _ := c.compiledSchema(schemaJSON)
	if s == nil {
		return ""
	}
	var g any
	dec := json.NewDecoder(bytes.NewReader(n.JSON()))
	dec.UseNumber()
	if dec.Decode(&g) != nil {
		return ""
	}
	if found := s.Validate(g, ""); len(found) > 0 {
		return found[0].Message
	}
	return ""
}

// kindMisfit is misfit without the delegated keywords.
func (c *compiler) kindMisfit(t *ir.Type, n *jsonpos.Node, depth int) string {
	if len(t.Enum) > 0 {
		for _, e := range t.Enum {
			if m, err := jsonpos.Parse("", e.JSON); err == nil && jsonEqual(m, n) {
				return ""
			}
		}
		shown := make([]string, 0, 4)
		for i, e := range t.Enum {
			if i == 3 {
				shown = append(shown, "…")
				break
			}
			shown = append(shown, string(e.JSON))
		}
		return "not one of " + strings.Join(shown, ", ")
	}
	cs := t.ConstraintsValue()
	switch t.Kind {
	case ir.KindAny:
		return ""
	case ir.KindNever:
		return "no value is allowed"
	case ir.KindBool:
		return expect(n.Kind == jsonpos.BoolNode, t)
	case ir.KindInteger:
		if n.Kind != jsonpos.NumberNode || jsonKind(n) != "integer" || !goNumber(n, true) {
			return expect(false, t)
		}
		return numberMisfit(cs, n)
	case ir.KindNumber:
		if n.Kind != jsonpos.NumberNode || !goNumber(n, false) {
			return expect(false, t)
		}
		return numberMisfit(cs, n)
	case ir.KindString, ir.KindEnum:
		if n.Kind != jsonpos.StringNode {
			return expect(false, t)
		}
		if t.Repr == ir.ReprTime && !timeText(t.Format, n.Str) {
			return "not a valid " + t.Format // the decoder could not parse it
		}
		if t.Format != "" && !check.Format(t.Format, n.Str) {
			return "not a valid " + t.Format
		}
		return c.stringMisfit(cs, n.Str)
	case ir.KindConst:
		if m, err := jsonpos.Parse("", t.Const); err != nil || !jsonEqual(m, n) {
			return "not the const value " + string(t.Const)
		}
		return ""
	case ir.KindArray, ir.KindTuple:
		if n.Kind != jsonpos.ArrayNode {
			return expect(false, t)
		}
		for i, it := range n.Items {
			var why string
			switch {
			case t.Kind == ir.KindTuple && i < len(t.Prefix):
				why = c.misfit(t.Prefix[i], it, depth+1)
			case t.Kind == ir.KindTuple && t.RestForbidden:
				why = "more items than prefixItems allows"
			default:
				why = c.misfit(t.Elem, it, depth+1)
			}
			if why != "" {
				return "item " + strconv.Itoa(i) + ": " + why
			}
		}
		return c.arrayMisfit(cs, n, depth)
	case ir.KindMap:
		if n.Kind != jsonpos.ObjectNode {
			return expect(false, t)
		}
		for _, m := range n.Members {
			if why := c.misfit(t.Elem, m.Value, depth+1); why != "" {
				return strconv.Quote(m.Key) + ": " + why
			}
		}
		return objectMisfit(cs, n)
	case ir.KindObject:
		if n.Kind != jsonpos.ObjectNode {
			return expect(false, t)
		}
		for _, f := range t.Fields {
			v := n.Get(f.JSONName)
			if v == nil {
				if f.Required {
					return "missing required property " + strconv.Quote(f.JSONName)
				}
				continue
			}
			if why := c.misfit(f.Type, v, depth+1); why != "" {
				return strconv.Quote(f.JSONName) + ": " + why
			}
		}
		return objectMisfit(cs, n)
	case ir.KindUnion:
		matched := 0
		for _, b := range t.Branches {
			if c.misfit(b, n, depth+1) == "" {
				matched++
			}
		}
		switch {
		case matched == 0:
			return "matches no branch of " + map[bool]string{true: "oneOf", false: "anyOf"}[t.OneOf]
		case matched > 1 && t.OneOf:
			return "matches more than one branch of oneOf"
		}
		return ""
	}
	return ""
}

// expect is the misfit of a value of the wrong kind ("" when ok).
func expect(ok bool, t *ir.Type) string {
	if ok {
		return ""
	}
	return "expected " + kindWord(t)
}

// arrayMisfit checks an array against minItems, maxItems, uniqueItems and
// contains.
func (c *compiler) arrayMisfit(cs ir.Constraints, n *jsonpos.Node, depth int) string {
	items := int64(len(n.Items))
	switch {
	case cs.MinItems != nil && items < *cs.MinItems:
		return "fewer items than minItems " + strconv.FormatInt(*cs.MinItems, 10)
	case cs.MaxItems != nil && items > *cs.MaxItems:
		return "more items than maxItems " + strconv.FormatInt(*cs.MaxItems, 10)
	}
	if cs.UniqueItems {
		for j := range n.Items {
			for i := range j {
				if jsonEqual(n.Items[i], n.Items[j]) {
					return "items " + strconv.Itoa(i) + " and " + strconv.Itoa(j) + " are equal (uniqueItems)"
				}
			}
		}
	}
	if cs.Contains != nil {
		hits := int64(0)
		for _, it := range n.Items {
			if c.misfit(cs.Contains, it, depth+1) == "" {
				hits++
			}
		}
		lo := int64(1)
		if cs.MinContains != nil {
			lo = *cs.MinContains
		}
		if hits < lo || (cs.MaxContains != nil && hits > *cs.MaxContains) {
			return "contains " + strconv.FormatInt(hits, 10) + " matching items, outside minContains/maxContains"
		}
	}
	return ""
}

// objectMisfit checks an object against minProperties, maxProperties and
// dependentRequired.
func objectMisfit(cs ir.Constraints, n *jsonpos.Node) string {
	members := int64(len(n.Members))
	switch {
	case cs.MinProperties != nil && members < *cs.MinProperties:
		return "fewer members than minProperties " + strconv.FormatInt(*cs.MinProperties, 10)
	case cs.MaxProperties != nil && members > *cs.MaxProperties:
		return "more members than maxProperties " + strconv.FormatInt(*cs.MaxProperties, 10)
	}
	for _, d := range cs.DependentRequired {
		if n.Get(d.Property) == nil {
			continue
		}
		for _, r := range d.Requires {
			if n.Get(r) == nil {
				return strconv.Quote(d.Property) + " requires " + strconv.Quote(r) + " (dependentRequired)"
			}
		}
	}
	return ""
}

// kindWord names a type's kind for messages.
func kindWord(t *ir.Type) string {
	w := map[ir.Kind]string{
		ir.KindAny: "any", ir.KindNever: "no value", ir.KindBool: "boolean",
		ir.KindInteger: "integer", ir.KindNumber: "number", ir.KindString: "string",
		ir.KindEnum: "enum", ir.KindConst: "const", ir.KindArray: "array",
		ir.KindTuple: "tuple", ir.KindObject: "object", ir.KindMap: "object",
		ir.KindUnion: "union",
	}[t.Kind]
	if t.Nullable {
		w += " or null"
	}
	return w
}

// numberMisfit checks a number against the numeric keywords, exactly.
func numberMisfit(cs ir.Constraints, n *jsonpos.Node) string {
	x, ok := numRat(n)
	if !ok {
		return ""
	}
	cmp := func(b *ir.Number) (int, bool) {
		if b == nil {
			return 0, false
		}
		return ir.Number(n.Num).Cmp(*b)
	}
	if c, ok := cmp(cs.Minimum); ok && c < 0 {
		return "less than minimum " + string(*cs.Minimum)
	}
	if c, ok := cmp(cs.Maximum); ok && c > 0 {
		return "greater than maximum " + string(*cs.Maximum)
	}
	if c, ok := cmp(cs.ExclusiveMinimum); ok && c <= 0 {
		return "not greater than exclusiveMinimum " + string(*cs.ExclusiveMinimum)
	}
	if c, ok := cmp(cs.ExclusiveMaximum); ok && c >= 0 {
		return "not less than exclusiveMaximum " + string(*cs.ExclusiveMaximum)
	}
	if cs.MultipleOf != nil {
		if m, ok := cs.MultipleOf.Rat(); ok && m.Sign() > 0 {
			if !new(big.Rat).Quo(x, m).IsInt() {
				return "not a multiple of " + string(*cs.MultipleOf)
			}
		}
	}
	return ""
}

// stringMisfit checks a string against the string keywords.
func (c *compiler) stringMisfit(cs ir.Constraints, s string) string {
	n := int64(utf8.RuneCountInString(s))
	switch {
	case cs.MinLength != nil && n < *cs.MinLength:
		return "shorter than minLength " + strconv.FormatInt(*cs.MinLength, 10)
	case cs.MaxLength != nil && n > *cs.MaxLength:
		return "longer than maxLength " + strconv.FormatInt(*cs.MaxLength, 10)
	}
	if cs.Pattern != "" {
		// A pattern no engine takes is reported where it is compiled.
		if re, _ := c.regexp(cs.Pattern); re != nil {
			if matched, err := re.Match(s, nil); !matched || err != nil {
				return "does not match the pattern " + cs.Pattern // undecided in time: not applied either
			}
		}
	}
	return ""
}

// replaced reports whether n or a string inside it had an unpaired
// surrogate escape (jsonpos.Node.Replaced).
func replaced(n *jsonpos.Node) bool {
	switch n.Kind {
	case jsonpos.StringNode:
		return n.Replaced
	case jsonpos.ArrayNode:
		return slices.ContainsFunc(n.Items, replaced)
	case jsonpos.ObjectNode:
		for _, m := range n.Members {
			if replaced(m.Value) {
				return true
			}
		}
	}
	return false
}
