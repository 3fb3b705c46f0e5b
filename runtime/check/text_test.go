package check

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFirstSentence(t *testing.T) {
	cases := []struct{ in, want string }{
		{"Get a task. Then more.", "Get a task."},
		{"Line one\nline two", "Line one"},
		{"e.g. short", "e.g. short"},
		{"A, e.g. B. C", "A, e.g. B."},
		{"v1. then on", "v1. then on"},
		{strings.Repeat("é", 30), strings.Repeat("é", 5) + "…"},
	}
	for _, c := range cases {
		got := FirstSentence(c.in, 11)
		if got != c.want || !utf8.ValidString(got) {
			t.Errorf("FirstSentence(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"", "abc", 3},
		{"task", "task", 0},
		{"task", "tasks", 1},
		{"taks", "task", 1}, // a transposition is one edit
		{"kitten", "sitting", 3},
		{"日本語", "日本", 1}, // code points, not bytes
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.b, c.a, got, c.want)
		}
	}
}

func TestPointerToken(t *testing.T) {
	for in, want := range map[string]string{"name": "name", "a/b": "a~1b", "a~b": "a~0b", "~/": "~0~1", "": ""} {
		if got := PointerToken(in); got != want {
			t.Errorf("PointerToken(%q) = %q, want %q", in, got, want)
		}
	}
}
