package check

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// The one-pass Hostname and dot-atom checks against plain readings of the
// rules they implement: split at dots and check each label; decode runes
// and look each one up.

func hostnameBySplit(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	for _, label := range strings.Split(s, ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range []byte(label) {
			if !(isASCIILetter(c) || c >= '0' && c <= '9' || c == '-') {
				return false
			}
		}
		if hasACEPrefix(label) {
			if !aLabel(label) {
				return false
			}
		} else if len(label) >= 4 && label[2] == '-' && label[3] == '-' {
			return false
		}
	}
	return true
}

func dotAtomByRunes(l string, idn bool) bool {
	if l[0] == '.' || l[len(l)-1] == '.' || strings.Contains(l, "..") {
		return false
	}
	for _, r := range l {
		if r >= utf8.RuneSelf {
			if !idn || r == utf8.RuneError {
				return false
			}
			continue
		}
		if !(isASCIILetter(byte(r)) || r >= '0' && r <= '9' || r == '.' || strings.ContainsRune("!#$%&'*+-/=?^_`{|}~", r)) {
			return false
		}
	}
	return true
}

func agreeOnePass(t *testing.T, s string) {
	t.Helper()
	if got, want := Hostname(s), hostnameBySplit(s); got != want {
		t.Errorf("Hostname(%q) = %v, the rule says %v", s, got, want)
	}
	if s == "" || len(s) >= 2 && s[0] == '"' && s[len(s)-1] == '"' {
		return // quoted local parts take the other branch
	}
	for _, idn := range []bool{false, true} {
		if got, want := localPart(s, idn), dotAtomByRunes(s, idn); got != want {
			t.Errorf("localPart(%q, %v) = %v, the rule says %v", s, idn, got, want)
		}
	}
}

// TestOnePassMatrix tries every string of up to four symbols from bytes
// each rule treats differently.
func TestOnePassMatrix(t *testing.T) {
	symbols := []string{"a", "X", "1", "-", ".", "x", "n", "!", "~", " ", "@", "é", "\xff", "\uFFFD", "_"}
	var walk func(prefix string, depth int)
	walk = func(prefix string, depth int) {
		agreeOnePass(t, prefix)
		agreeOnePass(t, "xn--"+prefix)
		if depth == 4 {
			return
		}
		for _, s := range symbols {
			walk(prefix+s, depth+1)
		}
	}
	walk("", 0)
	agreeOnePass(t, strings.Repeat("a", 63)+".b")
	agreeOnePass(t, strings.Repeat("a", 64)+".b")
	agreeOnePass(t, strings.Repeat("a.", 126)+"b")
	agreeOnePass(t, strings.Repeat("a.", 127)+"b")
}

func FuzzOnePass(f *testing.F) {
	for _, s := range []string{"api.example.com", "xn--9n2bp8q.xn--9t4b11yi5a", "a..b", "joe.bloggs", "실례", "ab--c"} {
		f.Add(s)
	}
	f.Fuzz(agreeOnePass)
}
