package codemode

import (
	"context"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
)

// TestSortStopped: a sort compares in Go, where the wall-time interrupt
// does not reach: a sort of 2^20 numbers ran 12.7 s against a 5 s limit
// (comparing by their strings), and so would one whose comparator is a
// built-in. Once a limit has stopped the run, its comparisons end it. As
// in TestIteratorsStopped, the stop is recorded without interrupting the
// engine.
func TestSortStopped(t *testing.T) {
	tests := []string{
		`a.sort()`,
		`a.sort(Math.max)`,
		`a.sort((x, y) => x - y)`,
		`a.toSorted()`,
		`Array.prototype.sort.call(o)`,
	}
	for _, expr := range tests {
		r := &run{m: &Mode{decls: &tsdecl.Decls{}}, ctx: context.Background(), lim: Limits{}.withDefaults(), vm: goja.New()}
		if err := r.setup(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.vm.RunString(`var a = Array.from({length: 10000}, (_, i) => i * 7919 % 10007), o = {length: a.length}; a.forEach((x, i) => o[i] = x)`); err != nil {
			t.Fatal(err)
		}
		r.hit = &limitHit{name: LimitWallTime, msg: "stopped"}
		_, err := r.vm.RunString(expr)
		if err == nil || !strings.Contains(err.Error(), "the run was stopped") {
			t.Errorf("%s: %v, want the run stopped", expr, err)
		}
	}
}
