package check

import (
	"fmt"
	"strings"
	"testing"
)

// TestAlternatives: past MaxAlternatives branches are counted, not
// named, so a union of thousands of branches has a message of a line.
func TestAlternatives(t *testing.T) {
	desc := func(i int) string { return fmt.Sprintf("B%d", i) }
	for _, tc := range []struct {
		n    int
		conj string
		want string
	}{
		{0, "or", ""},
		{1, "or", "B0"},
		{2, "and", "B0 and B1"},
		{MaxAlternatives, "or", "B0 or B1 or B2 or B3 or B4 or B5"},
		{MaxAlternatives + 1, "or", "B0 or B1 or B2 or B3 or B4 or B5 or 1 more"},
		{5000, "or", "B0 or B1 or B2 or B3 or B4 or B5 or 4994 more"},
	} {
		if got := Alternatives(tc.n, desc, tc.conj); got != tc.want {
			t.Errorf("Alternatives(%d, %q) = %q, want %q", tc.n, tc.conj, got, tc.want)
		}
	}
}

// TestNearest: the branch an object is one member away from (missing,
// unknown to a closed branch, or misspelt), and none when the value's
// names fit a branch, when two branches are as near, or when every
// branch is further.
func TestNearest(t *testing.T) {
	email := Alt{Desc: "E", Object: true, Closed: true, Required: []string{"email"}, Known: []string{"email"}}
	id := Alt{Desc: "I", Object: true, Closed: true, Required: []string{"user_id"}, Known: []string{"user_id"}}
	openAB := Alt{Desc: "AB", Object: true, Required: []string{"a", "b"}, Known: []string{"a", "b"}}
	openName := Alt{Desc: "N", Object: true, Required: []string{"name"}, Known: []string{"name"}}
	openID := Alt{Desc: "D", Object: true, Required: []string{"id"}, Known: []string{"id"}}
	str := Alt{Desc: "string"}
	// Past maxNearestWork lookups the branch one member away is not
	// looked for.
	far := make([]Alt, maxNearestWork/maxNearestKeys)
	for i := range far {
		far[i] = Alt{Desc: "F", Object: true, Closed: true, Required: []string{"f"}, Known: []string{"f"}}
	}
	many := strings.Split(strings.Repeat("x,", maxNearestKeys-2)+"email", ",")
	for _, tc := range []struct {
		name       string
		alts       []Alt
		keys       []string
		want, what string
		suggestion string
	}{
		{"misspelt", []Alt{email, id}, []string{"emial"}, "E", `unknown property "emial"`, "email"},
		{"unknown", []Alt{email, id}, []string{"user_id", "x"}, "I", `unknown property "x"`, ""},
		{"missing", []Alt{openAB, id, str}, []string{"a"}, "AB", `missing required property "b"`, ""},
		// An open branch takes other members: a misspelling is told
		// from a missing member by the member it leaves undeclared.
		{"misspelt in an open branch", []Alt{openID, openName}, []string{"nam"}, "N", `unknown property "nam"`, "name"},
		{"names fit", []Alt{email, id}, []string{"user_id"}, "", "", ""},
		{"tie", []Alt{email, id}, []string{}, "", "", ""},
		{"tie of unknowns", []Alt{email, id}, []string{"email", "user_id"}, "", "", ""},
		{"two away", []Alt{openAB, id}, []string{"c"}, "", "", ""},
		{"no object branch", []Alt{str}, []string{"a"}, "", "", ""},
		{"within the work bound", append(far[:10:10], Alt{Desc: "M", Object: true, Required: []string{"email", "y"}, Known: []string{"email"}}), many, "M", `missing required property "y"`, ""},
		{"past the work bound", append(far, Alt{Desc: "M", Object: true, Required: []string{"email", "y"}, Known: []string{"email"}}), many, "", "", ""},
		{"too many members", []Alt{email}, strings.Split(strings.Repeat("x,", maxNearestKeys)+"email", ","), "", "", ""},
	} {
		i, what, suggestion, ok := Nearest(tc.alts, tc.keys)
		got := ""
		if ok {
			got = tc.alts[i].Desc
		}
		if got != tc.want || what != tc.what || suggestion != tc.suggestion {
			t.Errorf("%s: got %q, %q, %q; want %q, %q, %q", tc.name, got, what, suggestion, tc.want, tc.what, tc.suggestion)
		}
	}
}

// BenchmarkNearestHostile: a value of 64 members that matches none of
// 2,000 closed branches declaring 50 members and requiring 30 each.
func BenchmarkNearestHostile(b *testing.B) {
	alts := make([]Alt, 2000)
	for i := range alts {
		a := Alt{Desc: "object", Object: true, Closed: true}
		for j := range 50 {
			name := fmt.Sprintf("m%03d_%04d", j, i)
			a.Known = append(a.Known, name)
			if j < 30 {
				a.Required = append(a.Required, name)
			}
		}
		alts[i] = a
	}
	keys := make([]string, maxNearestKeys)
	for i := range keys {
		keys[i] = fmt.Sprintf("m%03d_0000x", i)
	}
	b.ReportAllocs()
	for b.Loop() {
		NoneMatched(alts, keys)
	}
}
