package gateway

import (
	"fmt"
	"strings"
	"testing"
)

func TestStem(t *testing.T) {
	// Words that must meet, and words that must stay apart.
	same := [][]string{
		{"calculate", "calculator", "calculation", "calculating", "calculated", "calculations"},
		{"reserve", "reservation", "reserving", "reserved", "reservations"},
		{"recommend", "recommendation", "recommendations", "recommended"},
		{"book", "booking", "books", "booked"},
		{"query", "queries", "queried"},
		{"retrieve", "retrieval", "retrieving"},
		{"available", "availability"},
		{"hop", "hopping", "hops"},
		{"hope", "hoping", "hoped"},
		{"convert", "converter", "converts"},
		{"status", "statuses"},
		{"translate", "translation", "translator"},
		{"fly", "flying"},
	}
	for _, g := range same {
		for _, w := range g[1:] {
			if stem(w) != stem(g[0]) {
				t.Errorf("stem(%q) = %q, stem(%q) = %q: want them equal", w, stem(w), g[0], stem(g[0]))
			}
		}
	}
	apart := [][2]string{{"news", "new"}, {"hope", "hop"}, {"ring", "r"}, {"species", "specie"}, {"finder", "fin"}}
	for _, p := range apart {
		if stem(p[0]) == stem(p[1]) {
			t.Errorf("stem(%q) = stem(%q) = %q: want them apart", p[0], p[1], stem(p[0]))
		}
	}
	// Short, non-ASCII and mixed words are kept.
	for _, w := range []string{"api", "gas", "café", "v2x", "ab", strings.Repeat("y", 1<<20), strings.Repeat("ational", 100)} {
		if stem(w) != w {
			t.Errorf("stem(%.40q) = %.40q, want it kept", w, stem(w))
		}
	}
}

func TestMeasure(t *testing.T) {
	cases := map[string]int{"tr": 0, "ee": 0, "tree": 0, "y": 0, "by": 0, "trouble": 1, "oats": 1, "trees": 1, "ivy": 1,
		"troubles": 2, "private": 2, "oaten": 2, "orrery": 2}
	for w, want := range cases {
		if got := measure(w); got != want {
			t.Errorf("measure(%q) = %d, want %d", w, got, want)
		}
	}
}

func TestWordTable(t *testing.T) {
	wt := newWordTable(1) // grows many times
	const n = 5000
	for i := range n {
		w := fmt.Sprintf("w%d", i)
		if _, ok := wordGet(wt, w); ok {
			t.Fatalf("%s found before it was added", w)
		}
		wordPut(wt, []byte(w), int32(i))
	}
	for i := range n {
		w := fmt.Sprintf("w%d", i)
		if v, ok := wordGet(wt, []byte(w)); !ok || v != int32(i) {
			t.Fatalf("wordGet(%s) = %d, %v; want %d", w, v, ok, i)
		}
	}
	if _, ok := wordGet(wt, "w5000"); ok {
		t.Error("w5000 found, never added")
	}
	long := strings.Repeat("x", maxWordLen+1)
	wordPut(wt, long, 1)
	if _, ok := wordGet(wt, long); ok {
		t.Error("a word longer than maxWordLen was kept")
	}
}

func BenchmarkStem(b *testing.B) {
	words := []string{"calculations", "reservation", "booking", "weather", "availability", "hopping", "generate", "retrieve"}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		stem(words[i%len(words)])
		i++
	}
}

// A definition holding a long blob (an encoded image in a description)
// indexes and searches like any other word.
func TestIndexLongWord(t *testing.T) {
	blob := strings.Repeat("ab", 1<<17)
	ops := []Op{{Path: "img.put", Tool: "put_image", Description: "Store an image: " + blob},
		{Path: "img.get", Tool: "get_image", Description: "Read an image."}}
	ix := NewIndex(ops)
	if h := ix.Search("store image "+blob[:1000], 2); len(h) == 0 || h[0].Tool != "put_image" {
		t.Errorf("Search = %v, want put_image first", h)
	}
}

// Two query words the family writes as one meet its word.
func TestSearchJoinsWords(t *testing.T) {
	ops := []Op{{Path: "todo.item.add", Tool: "todo_add_item", Description: "Put an entry on the todo list."},
		{Path: "shop.list.add", Tool: "shop_add_to_list", Description: "Put a product on the shopping list."}}
	ix := NewIndex(ops)
	if h := ix.Search("put it on my to-do list", 2); len(h) == 0 || h[0].Tool != "todo_add_item" {
		t.Errorf("Search = %v, want todo_add_item first", h)
	}
}
