package ir

import (
	"errors"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Rat returns the value of n exactly, or, for a number beyond every
// float64 (1e999999) or nonzero and nearer zero than every float64
// (1e-999999), a stand-in of its sign that compares with every float64
// as n does: ±1e400 or ±1e-400. Two such numbers compare as equal. The
// exact value of one would be built digit by digit (53 ms for 1e999999),
// so that a schema of a few thousand would take minutes to compile; any
// other number's exponent is bounded by the length of its text. ok is
// false for text that is not a JSON number.
func (n Number) Rat() (r *big.Rat, ok bool) {
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return nil, false
	}
	stand := ""
	switch {
	case math.IsInf(f, 0):
		stand = "1e400"
	case f == 0 && NonzeroDigits(string(n)):
		stand = "1e-400"
	default:
		return new(big.Rat).SetString(string(n))
	}
	r, _ = new(big.Rat).SetString(stand)
	if math.Signbit(f) {
		r.Neg(r)
	}
	return r, true
}

// NonzeroDigits reports whether the digits of a JSON number's text s
// before its exponent are not all zero: when they are not and its float64
// is 0, the number is nearer zero than every float64 (as
// wire.Decoder.Float judges a number read as 0).
func NonzeroDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

// Cmp compares the values of n and m exactly, as -1, 0 or +1, without
// building them: 1e999999 < 2e999999, and 1.0 == 1 == 10e-1. ok is false
// when either is not a JSON number.
func (n Number) Cmp(m Number) (c int, ok bool) {
	a, ok1 := parseDecimal(string(n))
	b, ok2 := parseDecimal(string(m))
	if !ok1 || !ok2 {
		return 0, false
	}
	return a.cmp(b), true
}

// decimal is a JSON number as ±0.digits × 10^exp: digits has no leading
// or trailing zeros, and is empty for zero.
type decimal struct {
	neg    bool
	digits string
	exp    *big.Int
}

// parseDecimal reads a JSON number's text.
func parseDecimal(s string) (decimal, bool) {
	var d decimal
	if !isJSONNumber(s) {
		return d, false
	}
	if s != "" && s[0] == '-' {
		d.neg, s = true, s[1:]
	}
	mant, e, hasExp := s, "", false
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			mant, e, hasExp = s[:i], s[i+1:], true
			break
		}
	}
	whole, frac := mant, ""
	for i := 0; i < len(mant); i++ {
		if mant[i] == '.' {
			whole, frac = mant[:i], mant[i+1:]
			break
		}
	}
	d.exp = big.NewInt(int64(len(whole)))
	if hasExp {
		x, ok := new(big.Int).SetString(strings.TrimPrefix(e, "+"), 10)
		if !ok {
			return d, false
		}
		d.exp.Add(d.exp, x)
	}
	digits := whole + frac
	lead := len(digits) - len(strings.TrimLeft(digits, "0"))
	d.digits = strings.TrimRight(digits[lead:], "0")
	d.exp.Sub(d.exp, big.NewInt(int64(lead)))
	if d.digits == "" {
		d.neg = false
	}
	return d, true
}

// isJSONNumber reports whether s is a number in JSON's grammar.
func isJSONNumber(s string) bool {
	i := 0
	digits := func() int {
		j := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - j
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	if n := digits(); n == 0 || (n > 1 && s[i-n] == '0') {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

func (a decimal) cmp(b decimal) int {
	switch {
	case a.digits == "" && b.digits == "":
		return 0
	case a.digits == "":
		return b.sign() * -1
	case b.digits == "":
		return a.sign()
	case a.neg != b.neg:
		return a.sign()
	}
	c := a.exp.Cmp(b.exp)
	if c == 0 {
		c = strings.Compare(a.digits, b.digits)
	}
	if a.neg {
		c = -c
	}
	return c
}

func (a decimal) sign() int {
	if a.neg {
		return -1
	}
	return 1
}
