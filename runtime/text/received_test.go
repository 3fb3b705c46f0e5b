package text

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestClosest(t *testing.T) {
	statuses := []string{"open", "closed", "in_progress", "blocked"}
	args := []string{"target_id", "title", "description", "due_date"}
	tests := []struct {
		s          string
		candidates []string
		want       string
	}{
		{"opne", statuses, "open"},
		{"Open", statuses, "open"},
		{"close", statuses, "closed"},
		{"in-progress", statuses, "in_progress"},
		{"inprogress", statuses, "in_progress"},
		{"archived", statuses, ""},
		{"x", statuses, ""},
		{"targetId", args, "target_id"},
		{"target", args, "target_id"},
		{"descripton", args, "description"},
		{"dueDate", args, "due_date"},
		{"zzz", args, ""},
		{"", args, ""},
		{"open", statuses, ""}, // an exact match needs no suggestion
		{"ab", []string{"ba", "ab_"}, "ba"},
	}
	for _, tc := range tests {
		if got := Closest(tc.s, tc.candidates); got != tc.want {
			t.Errorf("Closest(%q) = %q, want %q", tc.s, got, tc.want)
		}
	}
}

func TestTruncateAndReceived(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"hello", 10, "hello"},
		{"hello", 5, "hello"},
		{"hello world", 6, "hello…"},
		{"ééééé", 3, "éé…"},
		{"abc", 0, ""},
		{"abc", 1, "…"},
	}
	for _, tc := range tests {
		if got := Truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
	recv := []struct {
		v    any
		want string
	}{
		{"opne", `"opne"`},
		{nil, "null"},
		{map[string]any{"b": []any{json.Number("1"), json.Number("2")}, "a": "<x>"}, `{"a":"<x>","b":[1,2]}`},
		{json.RawMessage(` { "k" : 1 } `), `{"k":1}`},
		{strings.Repeat("x", 200), `"` + strings.Repeat("x", 78) + "…"},
	}
	for _, tc := range recv {
		if got := Received(tc.v); got != tc.want {
			t.Errorf("Received(%v) = %q, want %q", tc.v, got, tc.want)
		}
	}
	if got := utf8.RuneCountInString(Received(strings.Repeat("é", 500))); got != ReceivedLimit {
		t.Errorf("Received length %d, want %d", got, ReceivedLimit)
	}
}

func TestMarshal(t *testing.T) {
	got, err := Marshal(map[string]any{"a": "<b>&"})
	if err != nil || string(got) != `{"a":"<b>&"}` {
		t.Errorf("Marshal = %s, %v; want {\"a\":\"<b>&\"} without HTML escapes or newline", got, err)
	}
	if _, err := Marshal(func() {}); err == nil {
		t.Error("Marshal(func) succeeded")
	}
}
