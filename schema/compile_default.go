package schema

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

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
	if !fits(t, d.value, 0) {
		c.warnf(d.value, "default-mismatch", "default %s does not match the schema (%s); not applied", describe(d.value), kindWord(t))
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

// fits reports whether value n has the shape of type t (kinds, enum and
// const members, required fields); other assertions are left to Validate.
func fits(t *ir.Type, n *jsonpos.Node, depth int) bool {
	if t == nil || depth > 64 {
		return true
	}
	if n.Kind == jsonpos.NullNode && t.Nullable {
		return true
	}
	if len(t.Enum) > 0 {
		for _, e := range t.Enum {
			if m, err := jsonpos.Parse("", e.JSON); err == nil && jsonEqual(m, n) {
				return true
			}
		}
		return false
	}
	switch t.Kind {
	case ir.KindAny:
		return true
	case ir.KindNever:
		return false
	case ir.KindBool:
		return n.Kind == jsonpos.BoolNode
	case ir.KindInteger:
		return n.Kind == jsonpos.NumberNode && jsonKind(n) == "integer" && goNumber(n, true) && numberFits(t.ConstraintsValue(), n)
	case ir.KindNumber:
		return n.Kind == jsonpos.NumberNode && goNumber(n, false) && numberFits(t.ConstraintsValue(), n)
	case ir.KindString, ir.KindEnum:
		if t.Repr == ir.ReprTime && (n.Kind != jsonpos.StringNode || !timeText(t.Format, n.Str)) {
			return false // the decoder could not parse it
		}
		return n.Kind == jsonpos.StringNode && stringFits(t.ConstraintsValue(), n.Str)
	case ir.KindConst:
		m, err := jsonpos.Parse("", t.Const)
		return err == nil && jsonEqual(m, n)
	case ir.KindArray:
		if n.Kind != jsonpos.ArrayNode {
			return false
		}
		for _, it := range n.Items {
			if !fits(t.Elem, it, depth+1) {
				return false
			}
		}
		return true
	case ir.KindTuple:
		if n.Kind != jsonpos.ArrayNode {
			return false
		}
		for i, it := range n.Items {
			switch {
			case i < len(t.Prefix):
				if !fits(t.Prefix[i], it, depth+1) {
					return false
				}
			case t.RestForbidden:
				return false
			case !fits(t.Elem, it, depth+1):
				return false
			}
		}
		return true
	case ir.KindMap:
		if n.Kind != jsonpos.ObjectNode {
			return false
		}
		for _, m := range n.Members {
			if !fits(t.Elem, m.Value, depth+1) {
				return false
			}
		}
		return true
	case ir.KindObject:
		if n.Kind != jsonpos.ObjectNode {
			return false
		}
		for _, f := range t.Fields {
			v := n.Get(f.JSONName)
			if v == nil {
				if f.Required {
					return false
				}
				continue
			}
			if !fits(f.Type, v, depth+1) {
				return false
			}
		}
		return true
	case ir.KindUnion:
		for _, b := range t.Branches {
			if fits(b, n, depth+1) {
				return true
			}
		}
		return false
	}
	return true
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

// numberFits checks a number against the numeric keywords, exactly.
func numberFits(cs ir.Constraints, n *jsonpos.Node) bool {
	x, ok := numRat(n)
	if !ok {
		return true
	}
	cmp := func(b *ir.Number) (int, bool) {
		if b == nil {
			return 0, false
		}
		r, ok := new(big.Rat).SetString(string(*b))
		if !ok {
			return 0, false
		}
		return x.Cmp(r), true
	}
	if c, ok := cmp(cs.Minimum); ok && c < 0 {
		return false
	}
	if c, ok := cmp(cs.Maximum); ok && c > 0 {
		return false
	}
	if c, ok := cmp(cs.ExclusiveMinimum); ok && c <= 0 {
		return false
	}
	if c, ok := cmp(cs.ExclusiveMaximum); ok && c >= 0 {
		return false
	}
	if cs.MultipleOf != nil {
		if m, ok := new(big.Rat).SetString(string(*cs.MultipleOf)); ok && m.Sign() > 0 {
			if !new(big.Rat).Quo(x, m).IsInt() {
				return false
			}
		}
	}
	return true
}

// stringFits checks a string against the string keywords.
func stringFits(cs ir.Constraints, s string) bool {
	n := int64(utf8.RuneCountInString(s))
	if (cs.MinLength != nil && n < *cs.MinLength) || (cs.MaxLength != nil && n > *cs.MaxLength) {
		return false
	}
	if cs.Pattern != "" {
		if m := patternMatcher(cs.Pattern); m != nil {
			if matched, ok := m(s); !matched || !ok {
				return false // undecided in time: not applied either
			}
		}
	}
	return true
}
