package main

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/toolgen-go/toolgen/schema/load"
)

// TestACEBenchAll reads a checkout-shaped fixture: names made
// provider-safe, the first definition of a name kept per language, a
// name another language took renamed, answers not read, and the result
// loads as tool definitions with --lenient.
func TestACEBenchAll(t *testing.T) {
	data, n, err := aceBenchAll("testdata/acebench")
	if err != nil {
		t.Fatal(err)
	}
	var tools []struct {
		Function struct {
			Name        string          `json:"name"`
			Description string          `json:"description"`
			Parameters  json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(data, &tools); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools {
		names = append(names, tl.Function.Name)
	}
	want := []string{
		"weather_get",
		"no_args",
		"ThisNameIsFarLongerThanAnyProviderAcceptsBecauseItGoesOnAndOnFor",
		"turn_on_wifi",
		"weather_get_zh",
		"tool_zh_1",
	}
	if !slices.Equal(names, want) || n != len(want) {
		t.Fatalf("names %q (n %d), want %q", names, n, want)
	}
	if tools[0].Function.Description != "Weather now." {
		t.Errorf("first definition not kept: %q", tools[0].Function.Description)
	}
	if string(tools[1].Function.Parameters) != `{"type":"object","properties":{}}` {
		t.Errorf("no arguments: parameters %s", tools[1].Function.Parameters)
	}
	if want := `{"type":"dict","required":[],"properties":{"ssid":{"type":"string"}}}`; string(tools[3].Function.Parameters) != want {
		t.Errorf("parameters key: %s, want %s", tools[3].Function.Parameters, want)
	}
	doc, err := load.Tools([]load.Input{{Name: "tools.json", Data: string(data)}}, load.Options{Lenient: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Tools) != len(want) {
		t.Errorf("loaded %d tools, want %d", len(doc.Tools), len(want))
	}
}

func TestACEBenchAllMissing(t *testing.T) {
	if _, _, err := aceBenchAll(t.TempDir()); err == nil {
		t.Fatal("no error for a folder without ACEBench data")
	}
}
