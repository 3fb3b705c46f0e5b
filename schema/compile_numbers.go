package schema

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// Generated code reads "type": "integer" into an int64 and "type":
// "number" into a float64, and the runtime refuses with an error an
// argument those cannot hold (wire.Decoder Int and Float): an integer
// beyond 64 bits, a number beyond float64's finite range, a nonzero number
// nearer zero than every float64 (it would read as 0). The handler always
// sees the number the model sent. An unbounded integer is the common case
// and says nothing; a schema whose numeric keywords explicitly allow or
// name such a value gets a located warning here, so the author learns at
// generate time what a model would learn at call time.

// codeNumberRange is the warning code of numeric keywords beyond the Go
// type of the value.
const codeNumberRange = "number-range"

// goType is a Go type generated code reads numbers into, for messages.
type goType struct{ name, span string }

var (
	int64Type   = goType{"int64", "-9223372036854775808 to 9223372036854775807"}
	float64Type = goType{"float64", "0 and magnitudes from 5e-324 to 1.7976931348623157e308"}
)

// refused ends every warning: what happens to such an argument.
const refused = "an argument outside that range is refused with an error at call time"

// num is a JSON number read against the Go types generated code reads
// numbers into, without building huge numbers.
type num struct {
	// f is the nearest float64 (±Inf beyond every float64).
	f float64
	// tiny reports a nonzero number nearer zero than every float64: it
	// reads as 0.
	tiny bool
	// r is the exact value; nil when tiny or when |f| is beyond 2^64
	// (so beyond int64 too: the sign of f tells which side).
	r *big.Rat
}

// two64 is 2^64, past which a number is not built exactly.
const two64 = 1 << 64

// readNum reads number node n (ok is false for anything else).
func readNum(n *jsonpos.Node) (x num, ok bool) {
	if n == nil || n.Kind != jsonpos.NumberNode {
		return x, false
	}
	if v, ok := plainInt(n); ok {
		return num{f: float64(v), r: new(big.Rat).SetInt64(v)}, true
	}
	f, err := strconv.ParseFloat(n.Num, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return x, false
	}
	x.f = f
	switch {
	case math.IsInf(f, 0) || math.Abs(f) > two64:
		return x, true
	case f == 0 && ir.NonzeroDigits(n.Num):
		x.tiny = true
		return x, true
	}
	r, ok := new(big.Rat).SetString(n.Num)
	if !ok {
		return x, false
	}
	x.r = r
	return x, true
}

// inInt64 reports whether x is an integer int64 holds.
func (x num) inInt64() bool {
	return x.r != nil && x.r.IsInt() && x.r.Num().IsInt64()
}

// inFloat64 reports whether float64 holds x (maybe rounded, as every
// float64 does).
func (x num) inFloat64() bool {
	return !x.tiny && !math.IsInf(x.f, 0)
}

// readsAs is the shortest decimal of the float64 x reads as when that is
// not x's own value ("" when float64 holds x exactly, or it is out of
// range): 9007199254740993 reads as 9007199254740992, and a model that
// sends either passes the same checks.
func (x num) readsAs() string {
	if x.r == nil || !x.inFloat64() {
		return ""
	}
	s := strconv.FormatFloat(x.f, 'g', -1, 64)
	if r, ok := new(big.Rat).SetString(s); ok && r.Cmp(x.r) == 0 {
		return ""
	}
	if x.r.IsInt() && math.Abs(x.f) < 1e21 {
		s = strconv.FormatFloat(x.f, 'f', -1, 64)
	}
	return s
}

// constIsInt reports whether generated code reads a numeric const
// literal into an int64 (one written without fraction or exponent) rather
// than a float64.
func constIsInt(lit []byte) bool {
	return !strings.ContainsAny(strings.TrimSpace(string(lit)), ".eE")
}

// checkNumbers warns about the numeric keywords of a view compiled as an
// integer or a number type t: bounds, multipleOf and enum members beyond
// what t's Go type holds.
func (c *compiler) checkNumbers(t *ir.Type, v *view) {
	integer := t.Kind == ir.KindInteger
	for _, b := range []struct {
		key              string
		lower, exclusive bool
	}{
		{"minimum", true, false},
		{"exclusiveMinimum", true, true},
		{"maximum", false, false},
		{"exclusiveMaximum", false, true},
	} {
		if integer {
			c.checkIntBound(v.get(b.key), b.key, b.lower, b.exclusive)
		} else {
			c.checkFloatBound(v.get(b.key), b.key, b.lower, b.exclusive)
		}
	}
	c.checkMultipleOf(v.get("multipleOf"), integer)
	if e := v.get("enum"); e != nil && len(t.Enum) > 0 && e.Kind == jsonpos.ArrayNode {
		for _, it := range e.Items {
			if it.Kind != jsonpos.NumberNode || integer && jsonKind(it) != "integer" {
				continue // not a value of t (compileEnum left it out)
			}
			c.checkValue(it, "enum member", integer, true)
		}
	}
}

// checkIntBound warns about a bound of an integer whose inclusive integer
// limit (minimum 1.5 is 2, exclusiveMaximum 10 is 9) lies beyond int64.
func (c *compiler) checkIntBound(n *jsonpos.Node, key string, lower, exclusive bool) {
	x, ok := readNum(n)
	if !ok || x.tiny {
		return // near 0: the limit is -1, 0 or 1
	}
	above := x.f > 0
	if x.r != nil {
		b := intLimit(x.r, lower, exclusive)
		if b.IsInt64() {
			return
		}
		above = b.Sign() > 0
	}
	c.boundWarning(n, key, "integers", int64Type, lower, exclusive, above)
}

// checkFloatBound warns about a bound of a number beyond float64's finite
// range, or nonzero and nearer zero than every float64.
func (c *compiler) checkFloatBound(n *jsonpos.Node, key string, lower, exclusive bool) {
	x, ok := readNum(n)
	switch {
	case !ok:
	case x.tiny:
		c.warnf(n, codeNumberRange, "%s %s is nonzero but nearer to zero than any float64, so it allows numbers the generated float64 cannot hold (they would read as 0): such an argument is refused with an error at call time",
			key, describe(n))
	case math.IsInf(x.f, 0):
		c.boundWarning(n, key, "numbers", float64Type, lower, exclusive, x.f > 0)
	}
}

// boundWarning words a bound beyond Go type g: a lower bound above it (or
// an upper one below it) leaves no argument that passes, the other way
// round it allows arguments g cannot hold.
func (c *compiler) boundWarning(n *jsonpos.Node, key, what string, g goType, lower, exclusive, above bool) {
	if lower == above {
		side := "below"
		if above {
			side = "above"
		}
		c.warnf(n, codeNumberRange, "%s %s allows only %s %s the range of the generated %s (%s), and %s: no argument passes",
			key, describe(n), what, side, g.name, g.span, refused)
		return
	}
	reach := map[[2]bool]string{
		{true, false}: "down to", {true, true}: "above",
		{false, false}: "up to", {false, true}: "below",
	}[[2]bool{lower, exclusive}]
	c.warnf(n, codeNumberRange, "%s %s allows %s %s %s, but the generated %s holds %s: %s",
		key, describe(n), what, reach, describe(n), g.name, g.span, refused)
}

// checkMultipleOf warns about a multipleOf whose every multiple but 0 is
// beyond the Go type.
func (c *compiler) checkMultipleOf(n *jsonpos.Node, integer bool) {
	x, ok := readNum(n)
	if !ok || x.tiny || x.f <= 0 {
		return
	}
	g := float64Type
	if integer {
		// The least positive integer multiple of p/q is p; -2^63 is the
		// one int64 multiple of 2^63.
		if x.r != nil && x.r.Num().Cmp(new(big.Int).Lsh(big.NewInt(1), 63)) <= 0 {
			return
		}
		g = int64Type
	} else if !math.IsInf(x.f, 0) {
		return
	}
	c.warnf(n, codeNumberRange, "multipleOf %s: every multiple of it but 0 is outside the range of the generated %s (%s): %s, so only 0 passes",
		describe(n), g.name, g.span, refused)
}

// checkValue warns about a value a schema names (an enum member or a
// const) that the Go type of its value cannot hold, or, for a float64,
// cannot hold exactly. others reports that other values pass (an enum).
func (c *compiler) checkValue(n *jsonpos.Node, what string, integer, others bool) {
	x, ok := readNum(n)
	if !ok {
		return
	}
	outcome := "the one argument it allows is refused with an error at call time, so no argument passes"
	if others {
		outcome = "an argument of this value is refused with an error at call time"
	}
	switch {
	case integer && !x.inInt64():
		c.warnf(n, codeNumberRange, "%s %s is outside the range of the generated int64 (%s): %s",
			what, describe(n), int64Type.span, outcome)
	case integer:
	case x.tiny:
		c.warnf(n, codeNumberRange, "%s %s is nonzero but nearer to zero than any float64, so the generated float64 cannot hold it (it would read as 0): %s",
			what, describe(n), outcome)
	case !x.inFloat64():
		c.warnf(n, codeNumberRange, "%s %s is outside the range of the generated float64 (%s): %s",
			what, describe(n), float64Type.span, outcome)
	default:
		if s := x.readsAs(); s != "" {
			c.warnf(n, codeNumberRange, "%s %s is read into a float64, which cannot hold it exactly: it reads as %s, and an argument of %s passes as the same float64%s",
				what, describe(n), s, s, exactHint(x, what))
		}
	}
}

// exactHint says how to get an exact int64 for an integer a float64
// cannot hold.
func exactHint(x num, what string) string {
	if !x.inInt64() {
		return ""
	}
	if what == "const" {
		return "; written without fraction or exponent (" + x.r.Num().String() + ") it is read into an exact int64"
	}
	return "; \"type\": \"integer\" reads it into an exact int64"
}

// checkConst warns about a numeric const the Go type generated code reads
// it into cannot hold: an int64 for a literal without fraction or
// exponent, a float64 otherwise (whatever the type keyword says).
func (c *compiler) checkConst(k *jsonpos.Node) {
	if k.Kind == jsonpos.NumberNode {
		c.checkValue(k, "const", constIsInt(k.JSON()), false)
	}
}

// defaultHeld reports whether every number in default d lands on a Go
// type (int64, float64) that holds it. One that does not is warned about
// and must not be applied: generated code would not compile
// (-9223372036854775809.0 as an int64 literal), would read a different
// value (1e-400 as 0), or would refuse every call that leaves the value
// out. checkDefault words the defaults goNumber tells apart already.
func (c *compiler) defaultHeld(d pendingDefault) bool {
	t := d.t
	if d.field != nil {
		t = d.field.Type
	}
	if d.value == nil {
		return true
	}
	bad, integer := c.unheld(t, d.value, 0)
	if bad == nil {
		return true
	}
	goType := "float64"
	if integer {
		goType = "int64"
	}
	x, _ := readNum(bad)
	where := "the Go type of this field"
	if t.Kind == ir.KindUnion {
		where = "the Go type of the union branch it fits"
	}
	switch {
	case bad == d.value && x.tiny:
		c.warnf(d.value, "default-mismatch", "default %s is nonzero but nearer to zero than any float64 (%s), so it would read as 0; not applied", describe(d.value), where)
	case bad == d.value:
		c.warnf(d.value, "default-mismatch", "default %s is outside the range of %s (%s); not applied", describe(d.value), where, goType)
	case x.tiny:
		c.warnf(d.value, "default-mismatch", "default %s holds %s, which is nonzero but nearer to zero than any float64 (the Go type holding it), so it would read as 0; not applied", describe(d.value), describe(bad))
	default:
		c.warnf(d.value, "default-mismatch", "default %s holds %s, which is outside the range of the Go type holding it (%s); not applied", describe(d.value), describe(bad), goType)
	}
	return false
}

// unheld returns the first number of value n, a default of type t, that
// lands on an int64 or a float64 that cannot hold it (nil when none) and
// whether that is an int64. Numbers goNumber refuses are left to
// checkDefault, which words them; so are values that do not fit t.
func (c *compiler) unheld(t *ir.Type, n *jsonpos.Node, depth int) (bad *jsonpos.Node, integer bool) {
	if t == nil || n == nil || depth > 64 {
		return nil, false
	}
	switch t.Kind {
	case ir.KindInteger, ir.KindNumber:
		integer = t.Kind == ir.KindInteger
		if n.Kind != jsonpos.NumberNode || !goNumber(n, integer) || integer && jsonKind(n) != "integer" {
			return nil, false
		}
	case ir.KindConst:
		if n.Kind != jsonpos.NumberNode || !constKindNumber(t.Const) {
			return nil, false
		}
		integer = constIsInt(t.Const)
		if integer && jsonKind(n) != "integer" {
			return nil, false
		}
	case ir.KindArray, ir.KindTuple:
		if n.Kind != jsonpos.ArrayNode {
			return nil, false
		}
		for i, it := range n.Items {
			elem := t.Elem
			if t.Kind == ir.KindTuple && i < len(t.Prefix) {
				elem = t.Prefix[i]
			}
			if bad, integer := c.unheld(elem, it, depth+1); bad != nil {
				return bad, integer
			}
		}
		return nil, false
	case ir.KindMap, ir.KindObject:
		if n.Kind != jsonpos.ObjectNode {
			return nil, false
		}
		for _, m := range n.Members {
			elem := t.Elem
			if t.Kind == ir.KindObject {
				if !t.Extra {
					elem = nil // not kept
				}
				for _, f := range t.Fields {
					if f.JSONName == m.Key {
						elem = f.Type
					}
				}
			}
			if bad, integer := c.unheld(elem, m.Value, depth+1); bad != nil {
				return bad, integer
			}
		}
		return nil, false
	case ir.KindUnion:
		// The branch the value is decoded as: the first it fits.
		for _, b := range t.Branches {
			if c.misfit(b, n, depth+1) == "" {
				return c.unheld(b, n, depth+1)
			}
		}
		return nil, false
	default:
		return nil, false
	}
	x, ok := readNum(n)
	if !ok || integer && x.inInt64() || !integer && x.inFloat64() {
		return nil, false
	}
	return n, integer
}

// constKindNumber reports whether a const literal is a number.
func constKindNumber(lit []byte) bool {
	s := strings.TrimSpace(string(lit))
	return s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9')
}

// intLimit turns a bound into the inclusive limit an integer must respect
// (minimum 1.5 is 2, exclusiveMaximum 10 is 9), as generated code does.
func intLimit(r *big.Rat, lower, exclusive bool) *big.Int {
	floor := new(big.Int).Quo(r.Num(), r.Denom()) // truncated toward zero
	if r.Sign() < 0 && !r.IsInt() {
		floor.Sub(floor, big.NewInt(1))
	}
	one := big.NewInt(1)
	switch {
	case lower && (exclusive || !r.IsInt()):
		return floor.Add(floor, one)
	case !lower && exclusive && r.IsInt():
		return floor.Sub(floor, one)
	}
	return floor
}
