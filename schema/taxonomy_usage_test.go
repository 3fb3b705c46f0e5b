package schema

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestUsageNamesItsOwnOp checks that every op's usage line, argument
// summary and synthesised example name the op's final path, also for ops
// moved to a new path by a collision (hotel_book and book_hotel claim one
// op; list_user and list_users too).
func TestUsageNamesItsOwnOp(t *testing.T) {
	f := family("book_hotel", "hotel_book", "list_user", "list_users", "get_weather")
	for _, tool := range f.Tools {
		tool.ParamsSchema = json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)
	}
	if err := Taxonomy(f, nil); err != nil {
		t.Fatal(err)
	}
	paths := map[string]bool{}
	for _, op := range f.Ops {
		if paths[op.Path] {
			t.Errorf("op %s twice", op.Path)
		}
		paths[op.Path] = true
		if op.Usage != op.Path+" "+op.Args {
			t.Errorf("tool %s, op %s: usage %q does not start with its own op", op.Tool.Name, op.Path, op.Usage)
		}
		for _, ex := range op.Examples {
			if strings.HasPrefix(ex.Description, "Call ") && !strings.HasPrefix(ex.Description, "Call "+op.Path+" ") && ex.Description != "Call "+op.Path {
				t.Errorf("op %s: example %q names another op", op.Path, ex.Description)
			}
		}
	}
	if len(f.Ops) != 5 {
		t.Fatalf("%d ops, want 5", len(f.Ops))
	}
}
