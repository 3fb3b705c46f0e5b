package generator

import (
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestEnumMessageListsEveryValue: the message of a value outside an enum
// lists every value the schema allows, null too, whether the check is
// generated as code or read from a table; a value the type refuses
// ("max" for an integer) is not one of them.
func TestEnumMessageListsEveryValue(t *testing.T) {
	const tools = `[{"type":"function","function":{"name":"set_state","description":"Set the state.",
	"parameters":{"type":"object","properties":{
	  "state":{"type":["string","null"],"enum":["open","closed",null]},
	  "level":{"type":"integer","enum":[1,2,"max"]}},
	"required":["state","level"]}}}]`
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: tools}}, schema.BuildOptions{Package: "enums"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	wants := []string{
		strconv.Quote(`must be one of "open", "closed", null`),
		strconv.Quote(`must be one of 1, 2`),
	}
	for _, mode := range []TableMode{TablesNever, TablesAlways} {
		files, err := Generate(fam, Options{Package: "enums", Sources: fam.Sources, Tables: mode})
		if err != nil {
			t.Fatal(err)
		}
		var all strings.Builder
		for _, f := range files {
			all.Write(f.Bytes)
		}
		for _, want := range wants {
			if !strings.Contains(all.String(), want) {
				t.Errorf("tables %v: no file holds the message %s", mode, want)
			}
		}
	}
}
