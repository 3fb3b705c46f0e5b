package ir

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"
)

func TestNumberCmp(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"1", "1.0", 0},
		{"1", "10e-1", 0},
		{"0.001", "1e-3", 0},
		{"100", "1E2", 0},
		{"100", "1e+2", 0},
		{"0", "-0", 0},
		{"0.0", "0e999999", 0},
		{"1", "2", -1},
		{"-1", "-2", 1},
		{"-1", "1", -1},
		{"0", "1e-999999", -1},
		{"0", "-1e-999999", 1},
		{"1e999999", "2e999999", -1},
		{"2e999999", "1e1000000", -1},
		{"-1e999999", "-2e999999", 1},
		{"1e-999999", "2e-999999", -1},
		{"1e-999999", "1e-1000000", 1},
		{"12", "123", -1},
		{"0.12", "0.120", 0},
		{"9007199254740993", "9007199254740992", 1},
		{"123456789012345678901234567890", "123456789012345678901234567891", -1},
		{"1e99999999999999999999999", "1e99999999999999999999998", 1},
		{"1.5", "1.25", 1},
	}
	for _, tc := range cases {
		got, ok := Number(tc.a).Cmp(Number(tc.b))
		if !ok || got != tc.want {
			t.Errorf("Cmp(%s, %s) = %d, %v; want %d", tc.a, tc.b, got, ok, tc.want)
		}
		back, _ := Number(tc.b).Cmp(Number(tc.a))
		if back != -tc.want {
			t.Errorf("Cmp(%s, %s) = %d; want %d", tc.b, tc.a, back, -tc.want)
		}
		// Where both are within reach of big.Rat, Cmp agrees with it.
		if !huge(tc.a) && !huge(tc.b) {
			ra, _ := new(big.Rat).SetString(tc.a)
			rb, _ := new(big.Rat).SetString(tc.b)
			if ra.Cmp(rb) != tc.want {
				t.Errorf("big.Rat disagrees on %s, %s", tc.a, tc.b)
			}
		}
	}
	for _, bad := range []string{"", "x", "1e", "--1", "1.2.3", "0x10", ".5", "1.", "01", "+1", "Inf", "NaN", "1_000", "1e+", " 1"} {
		if _, ok := Number(bad).Cmp("1"); ok {
			t.Errorf("Cmp(%q, 1): ok for text that is not a JSON number", bad)
		}
	}
}

func huge(s string) bool {
	for i := range len(s) {
		if (s[i] == 'e' || s[i] == 'E') && len(s)-i > 4 {
			return true
		}
	}
	return false
}

// FuzzNumberCmp: Cmp accepts exactly the text encoding/json reads as one
// number, and agrees with big.Rat where big.Rat can build both values.
func FuzzNumberCmp(f *testing.F) {
	for _, s := range [][2]string{{"1", "1.0"}, {"-0", "0e5"}, {"1e999999", "2e999999"}, {"0.12", "0.120"}, {"01", "1"}, {"1.", "1"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		c, ok := Number(a).Cmp(Number(b))
		if want := jsonNumber(a) && jsonNumber(b); ok != want {
			t.Fatalf("Cmp(%q, %q): ok %v, want %v", a, b, ok, want)
		}
		if !ok || huge(a) || huge(b) {
			return
		}
		ra, _ := new(big.Rat).SetString(a)
		rb, _ := new(big.Rat).SetString(b)
		if want := ra.Cmp(rb); c != want {
			t.Fatalf("Cmp(%q, %q) = %d, big.Rat says %d", a, b, c, want)
		}
	})
}

// jsonNumber reports whether encoding/json reads s as one number.
func jsonNumber(s string) bool {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil || d.More() {
		return false
	}
	n, ok := v.(json.Number)
	return ok && string(n) == s
}
