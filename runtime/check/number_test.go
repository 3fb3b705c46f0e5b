package check

import (
	"math"
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
