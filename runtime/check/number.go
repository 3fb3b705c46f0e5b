package check

import (
	"math"
	"math/big"
	"math/bits"
	"strconv"
	"strings"
)

// MultipleOf reports whether v is an integer multiple of the decimal divisor
// (the schema's multipleOf text, e.g. "0.01"). v is taken as the shortest
// decimal that round-trips to it — the number the JSON text spelled — so
// 0.07 is a multiple of 0.01 and 0.075 is not. Infinities, NaN and a divisor
// that is not a positive number give false. Generated code parses its
// divisors once (NewDivisor) and calls Divisor.Of.
func MultipleOf(v float64, divisor string) bool {
	d := NewDivisor(divisor)
	return d.Of(v)
}

// Divisor is a multipleOf divisor parsed once, for checks that run on
// every call: generated code declares one per divisor
// (var divisor0 = check.NewDivisor("0.01")).
type Divisor struct {
	text string
	// m·10^e is the divisor when exact is set; otherwise it has more
	// than 19 significant digits, or is not a positive number, and Of
	// takes the exact slow path through text.
	m     uint64
	e     int
	exact bool
	// big is the mantissa, times 10^e, of a divisor of more than 19
	// significant digits, parsed once: parsing it on every check (as
	// multipleOfBig does) took 60-170µs for 1.0000000000000000001e-9999.
	big *big.Int
}

// NewDivisor parses the multipleOf text divisor.
func NewDivisor(divisor string) Divisor {
	d := Divisor{text: divisor}
	d.m, d.e, d.exact = parseDecimal(divisor)
	d.exact = d.exact && d.m != 0
	if !d.exact {
		d.big, d.e = parseBigDecimal(divisor)
		if d.big != nil && d.big.IsUint64() {
			// Significant digits but for trailing zeros (0.30000000000000000000).
			d.m, d.exact, d.big = d.big.Uint64(), true, nil
		}
	}
	return d
}

// Of reports whether v is an integer multiple of d (see MultipleOf).
func (d *Divisor) Of(v float64) bool {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return false
	}
	if d.big != nil {
		if v == 0 {
			return true
		}
		var buf [32]byte
		vm, ve, _ := parseDecimalBytes(strconv.AppendFloat(buf[:0], math.Abs(v), 'e', -1, 64))
		return bigMultiple(vm, ve, d.big, d.e)
	}
	if !d.exact {
		return multipleOfBig(v, d.text)
	}
	if v == 0 {
		return true
	}
	if r, re, multiple, ok := scaled(math.Abs(v), d.e); ok {
		return multiple && decimalMultiple(r, re, d.m, d.e)
	}
	return multipleOfShortest(v, d.text, d.m, d.e)
}

// OfInt reports whether v is an integer multiple of d (see MultipleOf).
func (d *Divisor) OfInt(v int64) bool {
	if !d.exact && d.big == nil {
		return multipleOfBig(float64(v), d.text)
	}
	if v == 0 {
		return true
	}
	m := uint64(v)
	if v < 0 {
		m = uint64(-(v + 1)) + 1
	}
	if d.big != nil {
		return bigMultiple(m, 0, d.big, d.e)
	}
	return decimalMultiple(m, 0, d.m, d.e)
}

// parseBigDecimal parses a positive JSON number of more than 19
// significant digits as mant·10^exp, mant not a multiple of ten, within
// the bounds multipleOfBig keeps (400 bytes, an exponent of at most four
// digits); mant is nil otherwise.
func parseBigDecimal(s string) (mant *big.Int, exp int) {
	if len(s) > 400 || hugeExponent(s) {
		return nil, 0
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok || r.Sign() <= 0 || s[0] == '-' {
		return nil, 0
	}
	// The digits before the exponent, without the point, are the
	// mantissa; the exponent less the digits after the point is exp.
	digits, e, _ := strings.Cut(strings.ToLower(s), "e")
	whole, frac, _ := strings.Cut(digits, ".")
	if e != "" {
		n, err := strconv.Atoi(e)
		if err != nil {
			return nil, 0
		}
		exp = n
	}
	exp -= len(frac)
	mant, ok = new(big.Int).SetString(whole+frac, 10)
	if !ok || mant.Sign() <= 0 {
		return nil, 0
	}
	ten, q, m := big.NewInt(10), new(big.Int), new(big.Int)
	for {
		q.QuoRem(mant, ten, m)
		if m.Sign() != 0 {
			return mant, exp
		}
		mant.Set(q)
		exp++
	}
}

// bigMultiple reports whether vm·10^ve is an integer multiple of
// dm·10^de, all exactly. vm and dm are nonzero.
func bigMultiple(vm uint64, ve int, dm *big.Int, de int) bool {
	n := ve - de
	// vm must be divisible by 10^-n, then the quotient by dm.
	for ; n < 0; n++ {
		if vm%10 != 0 {
			return false
		}
		vm /= 10
	}
	// (vm·10^n) mod dm, 10^n by squaring.
	r := new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(n)), dm)
	r.Mul(r, new(big.Int).SetUint64(vm))
	return r.Mod(r, dm).Sign() == 0
}

// multipleOfShortest is MultipleOf through the shortest decimal of v,
// formatted: the general way, for values scaled cannot decide.
func multipleOfShortest(v float64, divisor string, dm uint64, de int) bool {
	var buf [32]byte
	vm, ve, ok := parseDecimalBytes(strconv.AppendFloat(buf[:0], math.Abs(v), 'e', -1, 64))
	if !ok {
		return multipleOfBig(v, divisor)
	}
	return decimalMultiple(vm, ve, dm, de)
}

// exactPow10 are the powers of ten a float64 holds exactly.
var exactPow10 = [...]float64{1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
	1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22}

// scaled decides, without formatting a (> 0), whether a's shortest decimal
// is a multiple of 10^-k, k being the divisor's decimal places (divisor
// exponent de, or 0), and if so gives it as r·10^-k. Let s be a·10^k
// rounded. When a's shortest decimal is r·10^-k with r < 2^50, the product
// a·10^k is within a quarter of r, so s = r, and r/10^k — one correctly
// rounded division of exact operands — gives back a. Conversely, when
// s < 2^50 and s/10^k gives back a, s·10^-k round-trips to a, and a's
// rounding interval, narrower than a quarter of 10^-k, holds no other
// multiple of 10^-k and no shorter decimal that is not one: the shortest
// decimal is s·10^-k. So below 2^50 the test decides both ways; ok is false
// above it, or for more decimal places than float64 powers of ten hold.
func scaled(a float64, de int) (r uint64, exp int, multiple, ok bool) {
	k := max(-de, 0)
	if k >= len(exactPow10) {
		return 0, 0, false, false
	}
	p := exactPow10[k]
	s := math.Round(a * p)
	if s >= 1<<50 {
		return 0, 0, false, false
	}
	if s == 0 || s/p != a {
		return 0, 0, false, true
	}
	return uint64(s), -k, true, true
}

// MultipleOfInt reports whether v is an integer multiple of the decimal
// divisor (see MultipleOf).
func MultipleOfInt(v int64, divisor string) bool {
	d := NewDivisor(divisor)
	return d.OfInt(v)
}

// decimalMultiple reports whether vm·10^ve is an integer multiple of
// dm·10^de, all exactly. vm and dm are nonzero.
func decimalMultiple(vm uint64, ve int, dm uint64, de int) bool {
	// vm·10^ve / (dm·10^de) = vm·10^n / dm with n = ve-de.
	n := ve - de
	if n < 0 {
		// vm must be divisible by 10^-n, then the quotient by dm.
		for ; n < 0; n++ {
			if vm%10 != 0 {
				return false
			}
			vm /= 10
		}
		return vm%dm == 0
	}
	// (vm·10^n) mod dm, computed without overflow, 10^n by squaring: n
	// is as large as the divisor's exponent is small (1e-999999).
	return mulMod(vm%dm, powMod(10, n, dm), dm) == 0
}

// mulMod is a·b mod m, for a, b < m.
func mulMod(a, b, m uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	_, r := bits.Div64(hi, lo, m)
	return r
}

// powMod is b^n mod m, for n ≥ 0 and m > 0.
func powMod(b uint64, n int, m uint64) uint64 {
	r, b := 1%m, b%m
	for ; n > 0; n >>= 1 {
		if n&1 == 1 {
			r = mulMod(r, b, m)
		}
		b = mulMod(b, b, m)
	}
	return r
}

// parseDecimal parses a JSON number as mantissa·10^exp with the mantissa's
// trailing zeros moved into the exponent; ok is false when the mantissa
// does not fit in 19 digits or the text is not a number. Negative divisors
// are rejected (ok false).
func parseDecimal(s string) (mant uint64, exp int, ok bool) {
	var buf [64]byte
	if len(s) > len(buf) {
		return 0, 0, false
	}
	return parseDecimalBytes(append(buf[:0], s...))
}

// addDigit appends the decimal digit d to the mantissa mant of digits
// significant digits; leading zeros are not significant. It reports false
// past 19 significant digits, which a uint64 may not hold.
func addDigit(mant uint64, digits int, d byte) (uint64, int, bool) {
	if mant == 0 && d == '0' {
		return 0, digits, true
	}
	if digits == 19 {
		return 0, 0, false
	}
	return mant*10 + uint64(d-'0'), digits + 1, true
}

func parseDecimalBytes(s []byte) (mant uint64, exp int, ok bool) {
	i := 0
	digits := 0
	sawDigit := false
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		sawDigit = true
		if mant, digits, ok = addDigit(mant, digits, s[i]); !ok {
			return 0, 0, false
		}
	}
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			sawDigit = true
			exp--
			if mant, digits, ok = addDigit(mant, digits, s[i]); !ok {
				return 0, 0, false
			}
		}
	}
	if !sawDigit {
		return 0, 0, false
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		neg := false
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			neg = s[i] == '-'
			i++
		}
		e := 0
		start := i
		for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
			if e > 1<<40 {
				return 0, 0, false // beyond every number's exponent and far from overflow
			}
			e = e*10 + int(s[i]-'0')
		}
		if i == start {
			return 0, 0, false
		}
		if neg {
			e = -e
		}
		exp += e
	}
	if i != len(s) {
		return 0, 0, false
	}
	if mant == 0 {
		return 0, 0, true
	}
	for mant%10 == 0 {
		mant /= 10
		exp++
	}
	return mant, exp, true
}

// multipleOfBig is the exact slow path for divisors with more than 19
// significant digits or absurd exponents.
func multipleOfBig(v float64, divisor string) bool {
	if math.IsInf(v, 0) || math.IsNaN(v) || len(divisor) > 400 || hugeExponent(divisor) {
		return false
	}
	d, ok := new(big.Rat).SetString(divisor)
	if !ok || d.Sign() <= 0 {
		return false
	}
	x, ok := new(big.Rat).SetString(strconv.FormatFloat(v, 'g', -1, 64))
	if !ok {
		return false
	}
	return x.Quo(x, d).IsInt()
}

// hugeExponent reports an exponent of five or more digits, which big.Rat
// would expand into an enormous integer.
func hugeExponent(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == 'e' || s[i] == 'E' {
			j := i + 1
			if j < len(s) && (s[j] == '+' || s[j] == '-') {
				j++
			}
			return len(s)-j > 4
		}
	}
	return false
}
