package check

import (
	"math/rand/v2"
	"testing"
)

// simplePatterns are patterns of the simple form, and near misses that
// must stay on the engine.
var simplePatterns = []string{
	`^[A-Z]{2}[0-9]{3,6}$`, `^[a-z0-9-]+$`, `^[a-z][a-z0-9_]*$`, `^\d{4}-\d{2}-\d{2}$`,
	`^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}$`, `^v?[0-9]+\.[0-9]+$`, `^[-a]{0,3}a{2,}$`,
	`^[a-]x?[\d-z]{1,2}$`, `^ab*c$`, `^[0-9a-fA-F]{8}$`, `^a{0}b$`, `^[$^]{1,}$`,
}

var notSimple = []string{
	`[a-z]+`, `^[a-z]+`, `[a-z]+$`, `^[^a-z]+$`, `^(ab)+$`, `^a|b$`, `^.+$`, `^\w+$`, `^a+?$`,
	`^a{2,1}$`, `^a{x}$`, `^é+$`, `^\$`, `^a**$`, `^[a-z$`, `^$`, `^\s+$`, `^[\w]+$`,
}

func TestSimpleParse(t *testing.T) {
	for _, p := range simplePatterns {
		if _, ok := parseSimple(p); !ok {
			t.Errorf("%s: not simple", p)
		}
	}
	for _, p := range notSimple {
		if _, ok := parseSimple(p); ok {
			t.Errorf("%s: simple", p)
		}
	}
}

// TestSimpleDifferential matches random and crafted strings with the
// simple matcher and with the engine: they must agree.
func TestSimpleDifferential(t *testing.T) {
	alphabet := "aAbBzZ09-_.@%+xc$^é\n "
	r := rand.New(rand.NewPCG(1, 2))
	for _, p := range simplePatterns {
		re, err := Compile(p)
		if err != nil {
			t.Fatal(err)
		}
		fast, _ := parseSimple(p)
		inputs := []string{"", "GB1000", "GB12", "GB1234567", "ab-c", "a_b", "2024-01-10", "x@y.io", "v1.2", "aaa", "-aaa", "ac", "abbbc", "deadBEEF", "b", "$^", "GB1000\n"}
		for range 3000 {
			n := r.IntN(12)
			b := make([]rune, n)
			as := []rune(alphabet)
			for i := range b {
				b[i] = as[r.IntN(len(as))]
			}
			inputs = append(inputs, string(b))
		}
		for _, s := range inputs {
			got, ok := fast.match(s)
			if !ok {
				continue
			}
			if want := re.re2.MatchString(s); got != want {
				t.Errorf("%s on %q: simple %v, engine %v", p, s, got, want)
			}
		}
	}
}

func FuzzSimple(f *testing.F) {
	for i, p := range simplePatterns {
		f.Add(p, []string{"GB1000", "ab-c", "x@y.io", "", "aaa"}[i%5])
	}
	for _, p := range notSimple {
		f.Add(p, "abc")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		fast, ok := parseSimple(pattern)
		if !ok {
			return
		}
		re, err := Compile(pattern)
		if err != nil {
			t.Fatalf("%q is simple but does not compile: %v", pattern, err)
		}
		if re.re2 == nil {
			return // counts past RE2's limit: the ECMAScript engine, without fast
		}
		if got, ok := fast.match(s); ok && got != re.re2.MatchString(s) {
			t.Errorf("%q on %q: simple %v, engine %v", pattern, s, got, !got)
		}
	})
}
