package text

import (
	"strconv"
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

// TestSentenceEndAbbreviations: an abbreviation is recognised whatever
// its case and only as a word of its own, and telling one costs a look at
// the few bytes before the period, not a lowered copy of the text so far:
// a description of abbreviations followed by capitals ("e.g. A e.g. A …")
// cost time and memory quadratic in its length (BenchmarkFirstSentence).
func TestSentenceEndAbbreviations(t *testing.T) {
	cases := []struct {
		in   string
		want int
	}{
		{"See E.G. Paris. Then", len("See E.G. Paris.")},
		{"(i.e. Rome) runs. Then", len("(i.e. Rome) runs.")},
		{"Red vs. Blue. Then", len("Red vs. Blue.")},
		{"Canvs. Blue", len("Canvs.")}, // "vs." ends a word, not one of its own
		{"No. Then", -1},
		{"\xffe.g. A", len("\xffe.g.")},
		{"Approx. Ten", -1},
	}
	for _, c := range cases {
		if got := SentenceEnd(c.in); got != c.want {
			t.Errorf("SentenceEnd(%q) = %d, want %d", c.in, got, c.want)
		}
	}
	long := strings.Repeat("e.g. A ", 10000)
	if got := FirstSentence(long, 200); len(got) > 200+len("…") {
		t.Errorf("FirstSentence(long) = %d bytes", len(got))
	}
	if n := testing.AllocsPerRun(3, func() { SentenceEnd(long) }); n > 0 {
		t.Errorf("SentenceEnd over %d abbreviations allocated %v times; want none", 10000, n)
	}
}

func BenchmarkFirstSentence(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		s := strings.Repeat("e.g. A ", n)
		b.Run(strconv.Itoa(len(s)), func(b *testing.B) {
			b.SetBytes(int64(len(s)))
			for b.Loop() {
				FirstSentence(s, 200)
			}
		})
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

// TestDistanceAtMost checks the banded distance against the full one on
// every pair of short strings over a small alphabet, for every limit.
func TestDistanceAtMost(t *testing.T) {
	var words []string
	var gen func(prefix string, n int)
	gen = func(prefix string, n int) {
		words = append(words, prefix)
		if n == 0 {
			return
		}
		for _, c := range []string{"a", "b", "é"} {
			gen(prefix+c, n-1)
		}
	}
	gen("", 4)
	for _, a := range words {
		for _, b := range words {
			full := Distance(a, b)
			for limit := 0; limit <= 5; limit++ {
				want := min(full, limit+1)
				if got := DistanceAtMost(a, b, limit); got != want {
					t.Fatalf("DistanceAtMost(%q, %q, %d) = %d, want %d", a, b, limit, got, want)
				}
			}
		}
	}
}

// TestSuggestionsHostile holds issue 8: a suggestion for a huge string is
// not computed at all, and a bounded distance over huge strings stops at
// the length check.
func TestSuggestionsHostile(t *testing.T) {
	huge := strings.Repeat("a", 50<<20)
	if got := Closest(huge, []string{"alpha", strings.Repeat("a", 300)}); got != "" {
		t.Errorf("Closest(50 MB) = %q, want none", Truncate(got, 10))
	}
	if got := DistanceAtMost(huge, "task", 3); got != 4 {
		t.Errorf("DistanceAtMost(50 MB, task, 3) = %d, want 4", got)
	}
	if got := DistanceAtMost(huge, huge[:len(huge)-1], 3); got != 1 {
		t.Errorf("DistanceAtMost(50 MB, 50 MB-1, 3) = %d, want 1", got)
	}
}

func TestRank(t *testing.T) {
	cands := []string{"bb", "a", "ccc", "b", "dddd"}
	byLen := func(c string) (int, bool) { return len(c), len(c) < 4 }
	if got, want := strings.Join(Rank(cands, -1, byLen), ","), "a,b,bb,ccc"; got != want {
		t.Errorf("Rank(all) = %s, want %s (ties in given order, dddd rejected)", got, want)
	}
	if got, want := strings.Join(Rank(cands, 2, byLen), ","), "a,b"; got != want {
		t.Errorf("Rank(2) = %s, want %s", got, want)
	}
	if got := Rank(nil, 3, byLen); len(got) != 0 {
		t.Errorf("Rank(nil) = %v, want empty", got)
	}
}

func TestRespelled(t *testing.T) {
	props := []string{"title", "task_id", "due.date"}
	for in, want := range map[string]string{
		"taskId": "task_id", "task-id": "task_id", "TaskID": "task_id",
		"dueDate": "due.date", "Title": "title", "task": "", "": "",
	} {
		if got := Respelled(in, props); got != want {
			t.Errorf("Respelled(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestJSONNesting(t *testing.T) {
	for s, want := range map[string]int{
		``: 0, `1`: 0, `[]`: 1, `{"a":[{}]}`: 3, `["[[[", "\"[["]`: 1, `[[]][[[]]]`: 3,
	} {
		if got := JSONNesting(s); got != want {
			t.Errorf("JSONNesting(%s) = %d, want %d", s, got, want)
		}
		if got := JSONNesting([]byte(s)); got != want {
			t.Errorf("JSONNesting([]byte(%s)) = %d, want %d", s, got, want)
		}
	}
}
