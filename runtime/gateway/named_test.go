package gateway

import (
	"math"
	"testing"
)

func TestIdentifier(t *testing.T) {
	for s, want := range map[string]bool{
		"lawsuit_search":       true,
		"tools.hotel.book":     true,
		"get-weather":          true,
		"getWeather":           true,
		"Weather_1_GetWeather": true,
		"add":                  false,
		"Add":                  false,
		"CNN":                  false,
		"_private":             false,
		"trailing_":            false,
		"a..b":                 false,
		"":                     false,
		"e.g":                  true, // shaped like one; no op is named so
	} {
		if got := identifier(s); got != want {
			t.Errorf("identifier(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestNamedOp: a question that writes one op's tool name or path as a
// token names it; plain words, parts of longer tokens and lists of
// several names do not.
func TestNamedOp(t *testing.T) {
	ops := []Op{
		{Path: "lawsuit.search", Tool: "lawsuit_search"},
		{Path: "lawsuit.details.find", Tool: "lawsuit_details_find"},
		{Path: "math.add", Tool: "add"},
		{Path: "weather.get", Tool: "Weather_1_GetWeather"},
	}
	tab := newNameTable(ops)
	for q, want := range map[string]int{
		"Can you use the lawsuit_search function to find lawsuits?": 0,
		"call `lawsuit_search`.":                                    0,
		"LAWSUIT_SEARCH for Google":                                 0,
		"run lawsuit.search, please":                                0,
		"weather_1_getweather in Paris":                             3,
		"lawsuit_search_v2 for Google":                              -1, // another token
		"my_lawsuit_search":                                         -1,
		"add 5 to 3":                                                -1, // a word, not an identifier
		"use lawsuit_search or lawsuit_details_find":                -1, // several
		"lawsuit_search, then lawsuit_search again":                 0,
		"find lawsuits against Google":                              -1,
		"":                                                          -1,
		"lawsuit_search\x00\xff_lawsuit_details_find ...":           0,
	} {
		if got := tab.namedOp(q); got != want {
			t.Errorf("namedOp(%q) = %d, want %d", q, got, want)
		}
	}
	// a name two ops share names neither
	shared := newNameTable([]Op{{Path: "a.b", Tool: "x_y"}, {Path: "x_y", Tool: "c_d"}})
	if got := shared.namedOp("use x_y"); got != -1 {
		t.Errorf("shared name: namedOp = %d, want -1", got)
	}
}

// TestSearchNamedFirst: the op a question names goes first even when a
// near-duplicate holds more of the question's words.
func TestSearchNamedFirst(t *testing.T) {
	ops := []Op{
		{Path: "lawsuit.details.find", Tool: "lawsuit_details_find", Description: "Find the details of lawsuits involving an entity in a county."},
		{Path: "lawsuit.search", Tool: "lawsuit_search", Description: "Search for lawsuits."},
		{Path: "weather.get", Tool: "get_weather", Description: "Current weather for a city."},
	}
	ix := NewIndex(ops)
	q := `Can you use the lawsuit_search function to retrieve the details of all lawsuits involving the entity "Google" in the county of Santa Clara?`
	if hs := ix.Search(q, 2); len(hs) != 2 || hs[0].Tool != "lawsuit_search" || hs[1].Tool != "lawsuit_details_find" {
		t.Errorf("Search(%q) = %v, want lawsuit_search first, then lawsuit_details_find", q, hs)
	}
	if hs := ix.Search("retrieve the details of all lawsuits involving Google in a county", 1); len(hs) != 1 || hs[0].Tool != "lawsuit_details_find" {
		t.Fatalf("without the name: %v; the test no longer shows the rule", hs)
	}
	// named, though no other word of the question matches it
	if hs := ix.Search("get_weather", 3); len(hs) == 0 || hs[0].Tool != "get_weather" {
		t.Errorf("Search(get_weather) = %v", hs)
	}
}

// TestSearchAnyLimit: a limit past the number of ops is all that match;
// the ranking made room for limit hits up front, and math.MaxInt ("no
// limit") panicked.
func TestSearchAnyLimit(t *testing.T) {
	ix := NewIndex([]Op{
		{Path: "todo.list", Tool: "list_todos", Description: "List todo items."},
		{Path: "todo.create", Tool: "create_todo", Description: "Create a todo item."},
	})
	all := ix.Search("todo item", 2)
	for _, limit := range []int{3, 1 << 40, math.MaxInt} {
		if got := ix.Search("todo item", limit); len(got) != len(all) {
			t.Errorf("Search(limit %d) = %v, want %v", limit, got, all)
		}
	}
	if got := NewIndex(nil).Search("todo", math.MaxInt); len(got) != 0 {
		t.Errorf("an empty index: %v", got)
	}
}
