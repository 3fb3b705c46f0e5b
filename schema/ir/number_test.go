package ir

import (
	"math/big"
	"testing"
)

// Rat is exact within float64's range and stands in for numbers beyond it
// (or nearer zero) by ±1e400 (±1e-400), whose exact value it never builds.
func TestNumberRat(t *testing.T) {
	cases := []struct {
		n    Number
		want string // big.Rat's RatString, or "" when not a number
	}{
		{"0", "0"},
		{"-0", "0"},
		{"0.1", "1/10"},
		{"1.5e3", "1500"},
		{"-2.50", "-5/2"},
		{"123456789012345678901234567890", "123456789012345678901234567890"},
		{"1e308", "1" + zeros(308)},
		{"1e999999", "1" + zeros(400)},
		{"-1e999999999", "-1" + zeros(400)},
		{"1e-999999", "1/1" + zeros(400)},
		{"-5e-999999999", "-1/1" + zeros(400)},
		{"0e999999999", "0"},
		{"0.000e-999999999", "0"},
		{"x", ""},
		{"", ""},
	}
	for _, c := range cases {
		r, ok := c.n.Rat()
		switch {
		case c.want == "" && ok:
			t.Errorf("%q: %v, want not a number", c.n, r)
		case c.want != "" && (!ok || r.RatString() != c.want):
			t.Errorf("%q: %v (ok %v), want %s", c.n, r, ok, c.want)
		}
	}
	// the stand-ins order as the numbers do against every float64
	huge, _ := Number("1e999999").Rat()
	tiny, _ := Number("1e-999999").Rat()
	maxF := new(big.Rat).SetFloat64(1.7976931348623157e308)
	minF := new(big.Rat).SetFloat64(5e-324)
	if huge.Cmp(maxF) <= 0 || tiny.Cmp(minF) >= 0 || tiny.Sign() <= 0 {
		t.Errorf("stand-ins %v, %v do not order beyond the float64s", huge.FloatString(0)[:5], tiny)
	}
}

func zeros(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
	}
	return string(b)
}
