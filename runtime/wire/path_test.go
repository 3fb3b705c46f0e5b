package wire_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/wire"
)

// failAt is never true; it keeps the error path reachable so escape
// analysis sees the same calls a generated Validate has.
var failAt = -1

// Generated validators build paths on the stack and only turn them into
// strings when they record an error: on valid input nothing allocates.
func TestPathsStayOnTheStack(t *testing.T) {
	items := []string{"a", "b", "c"}
	var e wire.Errors
	root := wire.At("")
	allocs := testing.AllocsPerRun(100, func() {
		c := root.Key("labels")
		for i := range items {
			c1 := c.Index(i)
			if i == failAt {
				e.Add(&c1, "minLength", "too short", "", "", "")
			}
		}
		if failAt == 0 {
			e.Add(&c, "maxItems", "too many", "", "", "")
		}
	})
	if allocs != 0 {
		t.Fatalf("building paths on valid input allocates %v times", allocs)
	}
	if e.Len() != 0 {
		t.Fatal("no error was expected")
	}
}
