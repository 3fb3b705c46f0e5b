package check

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestMultipleOf(t *testing.T) {
	tests := []struct {
		v       float64
		divisor string
		want    bool
	}{
		{0.07, "0.01", true},
		{0.075, "0.01", false},
		{19.99, "0.01", true},
		{4.5, "1.5", true},
		{35, "1.5", false},
		{0, "0.3", true},
		{-0.3, "0.1", true},
		{10, "2", true},
		{7, "2", false},
		{1e308, "2", true},
		{1e308, "3", false},
		{1.7976931348623157e308, "1e-300", true},
		{0.0075, "0.0001", true},
		{0.00751, "0.0001", false},
		{12391239123, "0.0001", true},
		{5e-324, "1e-400", true},
		{1e-5, "1e-5", true},
		{2e-5, "1E-5", true},
		{3, "0.123456789012345678901234", false},
		{math.Inf(1), "1", false},
		{math.NaN(), "1", false},
		{1, "0", false},
		{1, "-1", false},
		{1, "abc", false},
		{1, "1e99999999999", false},
		// exponents past the float64s: 0 is a multiple of every divisor,
		// and v·10^999999 of one whose mantissa divides it
		{0, "1e-999999999", true},
		{0.5, "1e-999999999", true},
		{1, "3e-999999", false},
		{3, "3e-999999", true},
		{0, "1e999999999", true},
		{5, "1e999999999", false},
	}
	for _, tc := range tests {
		if got := MultipleOf(tc.v, tc.divisor); got != tc.want {
			t.Errorf("MultipleOf(%v, %q) = %v, want %v", tc.v, tc.divisor, got, tc.want)
		}
	}
}

func TestMultipleOfInt(t *testing.T) {
	tests := []struct {
		v       int64
		divisor string
		want    bool
	}{
		{10, "5", true},
		{11, "5", false},
		{-15, "5", true},
		{math.MinInt64, "2", true},
		{math.MaxInt64, "7", true},
		{math.MaxInt64, "2", false},
		{3, "0.5", true},
		{3, "1.5", true},
		{3, "2.5", false},
		{100, "1e2", true},
		{100, "1e3", false},
		{0, "7", true},
		{9007199254740993, "3", true},
		{7, "1e-999999", true},
		{7, "7e-999999", true},
		{8, "7e-999999", false},
		{0, "1e999999999", true},
		{8, "1e999999999", false},
	}
	for _, tc := range tests {
		if got := MultipleOfInt(tc.v, tc.divisor); got != tc.want {
			t.Errorf("MultipleOfInt(%d, %q) = %v, want %v", tc.v, tc.divisor, got, tc.want)
		}
	}
}

func TestMultipleOfDoesNotAllocate(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { MultipleOf(19.99, "0.01") }); n != 0 {
		t.Errorf("MultipleOf allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { MultipleOfInt(1500, "25") }); n != 0 {
		t.Errorf("MultipleOfInt allocates %v times", n)
	}
}

func BenchmarkMultipleOf(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		MultipleOf(19.99, "0.01")
	}
}

// BenchmarkMultipleOfTinyDivisor: a divisor of a tiny exponent, whose
// power of ten is taken modulo its mantissa (the former loop took a step
// for each of the exponent's 999,999).
func BenchmarkMultipleOfTinyDivisor(b *testing.B) {
	d := NewDivisor("3e-999999")
	b.ReportAllocs()
	for b.Loop() {
		d.Of(1)
	}
}

func BenchmarkMultipleOfInt(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		MultipleOfInt(1500, "25")
	}
}

func FuzzMultipleOf(f *testing.F) {
	f.Add(0.07, "0.01")
	f.Add(1e308, "1e-5")
	f.Add(-3.5, "0.5")
	f.Fuzz(func(t *testing.T, v float64, divisor string) {
		got := MultipleOf(v, divisor)
		if math.IsNaN(v) || math.IsInf(v, 0) || hugeExponent(divisor) || len(divisor) > 64 {
			return
		}
		// The fast path must agree with the exact slow path.
		if want := multipleOfBig(v, divisor); got != want {
			t.Errorf("MultipleOf(%v, %q) = %v, exact answer %v", v, divisor, got, want)
		}
	})
}

// TestMultipleOfScaled: MultipleOf's unformatted path (scaled) answers as
// the formatted one does, on multiples of each divisor, on their float
// neighbours and on arbitrary values, positive and negative.
func TestMultipleOfScaled(t *testing.T) {
	divisors := []string{"0.01", "0.25", "0.1", "1", "3", "100", "0.0001", "1e-7", "2.5e-3", "0.3", "7", "1e-22", "1e-23", "5e2"}
	r := rand.New(rand.NewPCG(1, 2))
	values := []float64{0.07, 0.075, 19.99, 1e15, 1e16, 1 << 50, 1<<53 + 2, 1e-300, 5e-324, math.MaxFloat64, 0.1 + 0.2, 123456.789}
	for range 20000 {
		k := r.IntN(12)
		m := float64(r.Int64N(1 << uint(10+r.IntN(44))))
		v := m / math.Pow(10, float64(k))
		values = append(values, v, math.Nextafter(v, math.Inf(1)), math.Nextafter(v, 0), r.Float64()*math.Pow(10, float64(r.IntN(30)-15)))
	}
	for _, d := range divisors {
		dm, de, ok := parseDecimal(d)
		if !ok {
			t.Fatalf("divisor %s", d)
		}
		for _, v := range values {
			for _, v := range []float64{v, -v} {
				if got, want := MultipleOf(v, d), v == 0 || multipleOfShortest(v, d, dm, de); got != want {
					t.Fatalf("MultipleOf(%v, %s) = %v, formatted %v", v, d, got, want)
				}
			}
		}
	}
}

// TestMultipleOfLongDivisor: a divisor of more than 19 significant digits
// is parsed once (NewDivisor) and decided exactly, as multipleOfBig
// decides it, and an integer is not rounded to a float64 first:
// 9007199254740993 is no multiple of 2048 (as 9007199254740992 is).
func TestMultipleOfLongDivisor(t *testing.T) {
	floats := []struct {
		v       float64
		divisor string
		want    bool
	}{
		{1e40, "1180591620717411303424e-30", true}, // 2^70·10^-30
		{1e39, "1180591620717411303424e-30", false},
		{-1e40, "1180591620717411303424e-30", true},
		{0, "1.0000000000000000001e-9999", true},
		{1, "1.0000000000000000001e-9999", false},
		{3, "0.30000000000000000000", true},
		{3.1, "0.30000000000000000000", false},
		{10, "1.00000000000000000000e1", true},
		{1e308, "1.00000000000000000000e300", true},
		{5e-324, "5.00000000000000000000e-324", true},
		{1e-323, "5.00000000000000000001e-324", false},
		{1.5, "0.1234567890123456789012", false},
	}
	for _, tc := range floats {
		d := NewDivisor(tc.divisor)
		if got := d.Of(tc.v); got != tc.want {
			t.Errorf("Of(%v, %q) = %v, want %v", tc.v, tc.divisor, got, tc.want)
		}
		if want := multipleOfBig(tc.v, tc.divisor); want != tc.want {
			t.Errorf("multipleOfBig(%v, %q) = %v, the test wants %v", tc.v, tc.divisor, want, tc.want)
		}
	}
	ints := []struct {
		v       int64
		divisor string
		want    bool
	}{
		{9007199254740993, "2048.0000000000000000000", false},
		{9007199254740992, "2048.0000000000000000000", true},
		{9007199254740993, "1180591620717411303424e-60", false}, // 2^70·10^-60: multiples of 2^10
		{9007199254740992, "1180591620717411303424e-60", true},
		{-9007199254740992, "1180591620717411303424e-60", true},
		{10, "1.00000000000000000000e1", true},
		{0, "1.0000000000000000001e-9999", true},
		{7, "1.0000000000000000001e-9999", false},
	}
	for _, tc := range ints {
		if got := MultipleOfInt(tc.v, tc.divisor); got != tc.want {
			t.Errorf("MultipleOfInt(%d, %q) = %v, want %v", tc.v, tc.divisor, got, tc.want)
		}
	}
}

// BenchmarkMultipleOfLongDivisor: a divisor of 20 significant digits and
// a four-digit exponent, whose power of ten big.Rat expanded on every
// check.
func BenchmarkMultipleOfLongDivisor(b *testing.B) {
	d := NewDivisor("1.0000000000000000001e-9999")
	b.ReportAllocs()
	for b.Loop() {
		d.Of(123456.789)
	}
}
