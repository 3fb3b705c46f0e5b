package check

import (
	"testing"
	"unicode/utf8"
)

// FuzzFormat: no string makes a format check panic (they judge a
// model's arguments); the time parsers accept exactly what their formats
// do, and the regex format exactly what Compile takes.
func FuzzFormat(f *testing.F) {
	for _, s := range []string{
		"2016-12-31T15:59:60-08:00", "2024-02-29", "23:59:60Z", "P1Y2M3DT4H5M6S", "P3W",
		`"a b"@[IPv6:::1]`, "실례@실례.테스트", "xn--9n2bp8q.xn--9t4b11yi5a", "a\u00b7l.com", "\u05d0\u05f3.il",
		"::ffff:1.2.3.4", "https://u@[v1.x]:80/p?q#f", "/パス?\ue000", "/users/{id}{?q,limit:10}",
		"123e4567-e89b-12d3-a456-426614174000", "/a~1b", "0#", "^(?<n>a)\\k<n>$", "[\\p{L}]",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range FormatNames() {
			Format(name, s)
		}
		if _, ok := ParseDateTime(s); ok != DateTime(s) {
			t.Fatalf("ParseDateTime(%q) ok %v, DateTime %v", s, ok, !ok)
		}
		if _, ok := ParseDate(s); ok != Date(s) {
			t.Fatalf("ParseDate(%q) ok %v, Date %v", s, ok, !ok)
		}
		if len(s) <= 256 && utf8.ValidString(s) {
			_, err := Compile(s)
			if Regex(s) != (err == nil) {
				t.Fatalf("Regex(%q) = %v, Compile: %v", s, Regex(s), err)
			}
		}
	})
}
