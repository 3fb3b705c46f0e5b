package check

import (
	"runtime"
	"strings"
	"testing"
)

func TestRegexp(t *testing.T) {
	tests := []struct {
		pattern      string
		backtracking bool
		match        []string
		noMatch      []string
	}{
		{`^abc$`, false, []string{"abc"}, []string{"abc\n", "xabc"}},
		{`b`, false, []string{"abc"}, []string{"xyz"}}, // unanchored search
		{`^\d{3}-\d{4}$`, false, []string{"555-1234"}, []string{"٥٥٥-1234"}},
		{`^\s$`, false, []string{" ", "\u00a0", "\ufeff", "\u2029", "\v"}, []string{"x", "\u0001"}},
		{`^\S+$`, false, []string{"abc"}, []string{"a b", "a\u2003b"}},
		{`^[\s,]+$`, false, []string{" ,\u00a0"}, []string{"x"}},
		{`^.$`, false, []string{"a", "é", "😀"}, []string{"\n", "\r", "\u2028"}},
		{`^[^]$`, false, []string{"\n", "a"}, []string{"", "ab"}},
		{`^\cC$`, false, []string{"\x03"}, []string{"cC"}},
		{`^\u00e9\u{1F600}\uD83D\uDE00$`, false, []string{"é😀😀"}, []string{"e"}},
		{`^\x41\0$`, false, []string{"A\x00"}, []string{"A0"}},
		{`^\p{Letter}+$`, false, []string{"école"}, []string{"1"}},
		{`^\p{digit}+$`, false, []string{"৪২"}, []string{"x"}},
		{`^\p{Script=Greek}$`, false, []string{"α"}, []string{"a"}},
		{`^(?<year>\d{4})-[\b]$`, false, []string{"2024-\b"}, []string{"2024-b"}},
		{`^\/path\.json$`, false, []string{"/path.json"}, []string{"/pathxjson"}},
		{`^(?=.*\d)(?=.*[a-z]).{8,}$`, true, []string{"abcdefg1"}, []string{"abcdefgh", "1234567"}},
		{`^(a)\1$`, true, []string{"aa"}, []string{"ab"}},
		{`(?<!\$)\b\d+`, true, []string{"x 12"}, []string{"$12"}},
		{`^(?<q>["']).*\k<q>$`, true, []string{`"hi"`}, []string{`"hi'`}},
	}
	for _, tc := range tests {
		re, err := Compile(tc.pattern)
		if err != nil {
			t.Errorf("Compile(%q): %v", tc.pattern, err)
			continue
		}
		if re.Backtracking() != tc.backtracking {
			t.Errorf("Compile(%q): Backtracking() = %v, want %v", tc.pattern, re.Backtracking(), tc.backtracking)
		}
		if re.String() != tc.pattern {
			t.Errorf("String() = %q, want the source", re.String())
		}
		for _, s := range tc.match {
			if !re.MatchString(s) {
				t.Errorf("%q should match %q", tc.pattern, s)
			}
		}
		for _, s := range tc.noMatch {
			if re.MatchString(s) {
				t.Errorf("%q should not match %q", tc.pattern, s)
			}
		}
	}
}

func TestCompileRejectsNonECMA(t *testing.T) {
	for _, p := range []string{`(?i)abc`, `(?#c)a`, `\a`, `\z`, `[`, `a{2,1}`, `(`, `\`, `(?P<n>a)`} {
		re, err := Compile(p)
		if err == nil {
			t.Errorf("Compile(%q) = %v, want an error", p, re)
			continue
		}
		if !strings.HasPrefix(err.Error(), "invalid pattern ") {
			t.Errorf("Compile(%q) error %q lacks the pattern", p, err)
		}
	}
}

func TestMustCompilePanics(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustCompile did not panic on a bad pattern")
		}
	}()
	MustCompile(`(?i)x`)
}

func TestBacktrackingTimeout(t *testing.T) {
	re := MustCompile(`^(a+)+\1$`)
	if !re.Backtracking() {
		t.Skip("pattern runs on RE2")
	}
	if re.MatchString(strings.Repeat("a", 5000) + "!") {
		t.Error("catastrophic pattern matched")
	}
}

func TestRE2PathDoesNotAllocate(t *testing.T) {
	re := MustCompile(`^[a-z0-9_]{3,16}$`)
	if n := testing.AllocsPerRun(100, func() { re.MatchString("valid_name") }); n != 0 {
		t.Errorf("MatchString allocates %v times", n)
	}
}

func BenchmarkMatchStringRE2(b *testing.B) {
	re := MustCompile(`^[a-z0-9_]{3,16}\s?$`)
	b.ReportAllocs()
	for b.Loop() {
		re.MatchString("valid_name")
	}
}

func BenchmarkMatchStringECMA(b *testing.B) {
	re := MustCompile(`^(?=.*\d)[a-z0-9_]{3,16}$`)
	b.ReportAllocs()
	for b.Loop() {
		re.MatchString("valid_name1")
	}
}

func FuzzCompile(f *testing.F) {
	for _, s := range []string{`^abc$`, `\s\S.`, `[^]`, `(?=a)\1`, `\u{1F600}`, `\p{L}`, `[\b-\d]`, `(?<n>x)\k<n>`} {
		f.Add(s, "abc 123")
	}
	f.Fuzz(func(t *testing.T, pattern, s string) {
		re, err := Compile(pattern)
		if valid := validPattern(pattern); valid != (err == nil) {
			t.Fatalf("validPattern(%q) = %v, Compile's error %v", pattern, valid, err)
		}
		if err != nil {
			return
		}
		re.MatchString(s)
	})
}

// The regex format parses a model's pattern without compiling it: it
// agrees with Compile, and a short pattern of many counted repetitions,
// which RE2 expands into a program of millions of instructions (1.6 s and
// hundreds of megabytes for 17 kB), costs about what reading it does.
func TestRegexFormat(t *testing.T) {
	for _, p := range []string{`^abc$`, `\s\S.`, `[^]`, `(?=a)\1`, `\u{1F600}`, `\p{L}`, `(?<n>x)\k<n>`,
		`a{1001}`, `(?:a{1000}){1000}`, `(?i)a`, `a**`, `[z-a]`, `(`, `\q`, `x{2,1}`, strings.Repeat(`(?:a{1000})`, 20)} {
		_, err := Compile(p)
		if got := Regex(p); got != (err == nil) {
			t.Errorf("Regex(%q) = %v, Compile's error %v", p, got, err)
		}
	}
	p := strings.Repeat(`(?:a{1000})`, 370) // 4,070 bytes, under MaxRegexFormat
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if !Regex(p) {
		t.Fatal("a valid pattern of 370 counted repetitions is refused")
	}
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > 100*uint64(len(p)) {
		t.Errorf("checking a %d-byte pattern allocated %d bytes", len(p), n)
	}
}

func BenchmarkRegexFormatRepeats(b *testing.B) {
	p := strings.Repeat(`(?:a{1000})`, 370)
	b.ReportAllocs()
	for b.Loop() {
		Regex(p)
	}
}

// BenchmarkMatchLargeProgram: [a-z]{1000}x (1,003 RE2 instructions)
// against 100 kB of letters. On RE2 alone it took 1.4-1.9 s; past
// re2MaxWork it runs on the ECMAScript engine, whose time limit ends it.
func BenchmarkMatchLargeProgram(b *testing.B) {
	re := MustCompile(`[a-z]{1000}x`)
	s := strings.Repeat("a", 100_000)
	for b.Loop() {
		re.Match(s, nil)
	}
}
