package taxonomy_test

import (
	"os"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestACEBenchUsageNamesItsOwnOp builds the 2,307 tools of ACEBench
// (../shared/corpus/search, skipped without it), where tools such as
// book_hotel and hotel_book claim one op path, and checks that every
// usage line, argument summary and synthesised example names the op's own
// final path.
func TestACEBenchUsageNamesItsOwnOp(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 2,307 tools")
	}
	p := corpus.Dir(t, "search", "acebench.tools.json")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	f, err := schema.BuildFamily([]load.Input{{Name: "acebench.tools.json", Data: string(data)}}, schema.BuildOptions{Package: "acebench"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	moved := 0
	for _, w := range f.Warnings {
		if w.Code == "op-collision" {
			moved++
			t.Log(w.Message)
		}
	}
	paths := map[string]bool{}
	for _, op := range f.Ops {
		if paths[op.Path] {
			t.Errorf("op %s twice", op.Path)
		}
		paths[op.Path] = true
		checkOwnOp(t, op)
	}
	t.Logf("%d ops, %d moved by a collision; every usage line names its own op", len(f.Ops), moved)
	if moved == 0 {
		t.Error("no collisions: the test no longer covers moved ops")
	}
}

// checkOwnOp reports an op whose usage line, argument summary or
// synthesised example names another op.
func checkOwnOp(t *testing.T, op *ir.Op) {
	t.Helper()
	if op.Usage != op.Path && !strings.HasPrefix(op.Usage, op.Path+" ") {
		t.Errorf("tool %s, op %s: usage %q does not start with its own op", op.Tool.Name, op.Path, op.Usage)
	}
	if op.Usage != strings.TrimSpace(op.Path+" "+op.Args) {
		t.Errorf("op %s: usage %q is not the op and its args %q", op.Path, op.Usage, op.Args)
	}
	for _, ex := range op.Examples {
		if strings.HasPrefix(ex.Description, "Call ") && !strings.HasPrefix(ex.Description, "Call "+op.Path+" ") && ex.Description != "Call "+op.Path {
			t.Errorf("op %s: example %q names another op", op.Path, ex.Description)
		}
	}
}
