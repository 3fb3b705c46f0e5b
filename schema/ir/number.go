package ir

import (
	"errors"
	"math"
	"math/big"
	"strconv"
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
