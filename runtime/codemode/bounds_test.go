package codemode

import (
	"context"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
)

// TestHeapWatch: the memory watch stops a run whose heap objects leapt
// past the limit faster than a collection could measure them (a string
// doubled in one step), without waiting for the collection, and not a run
// whose garbage stays about the collector's goal. The figures, in MiB,
// are those the runtime's metrics read in runs of the limit 256 MiB.
func TestHeapWatch(t *testing.T) {
	const mib = 1 << 20
	type reading struct{ live, objects, gogc uint64 }
	tests := []struct {
		name     string
		readings []reading // the last decides
		want     bool
	}{
		{"live heap past the limit", []reading{{300, 310, 100}}, true},
		{"live heap within it", []reading{{200, 250, 100}}, false},
		// s += s: the live heap the last collection measured is 145 MiB,
		// and the step since allocated a string of 192 MiB at once (the
		// run went on doubling to 673 MiB before a collection measured it).
		{"a doubling past the limit", []reading{{73, 169, 100}, {145, 337, 100}}, true},
		{"a doubling within the limit", []reading{{73, 169, 100}, {97, 225, 100}}, false},
		// 190 MiB kept and garbage made by steps: the objects stay about
		// the goal (380).
		{"garbage about the goal", []reading{{190, 257, 100}, {190, 335, 100}}, false},
		// A collection measured 136 MiB live; what it found dead is freed
		// lazily, the objects still hold it: the goal of 190 holds.
		{"garbage a collection has not freed yet", []reading{{190, 330, 100}, {136, 335, 100}}, false},
		{"the collector off", []reading{{145, 337, 1<<64 - 1}}, false},
		{"GOGC 0", []reading{{145, 337, 0}}, false},
		{"a high GOGC", []reading{{145, 337, 200}}, false},
	}
	for _, tt := range tests {
		w := newHeapWatch(1*mib, 256*mib)
		var got bool
		for _, r := range tt.readings {
			got = w.over(r.live*mib, r.objects*mib, r.gogc)
		}
		if got != tt.want {
			t.Errorf("%s: over = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSearchString: indexOf, lastIndexOf and includes of a long string,
// made by searchString, answer as the built-ins do, for every start.
func TestSearchString(t *testing.T) {
	const script = `(function () {
const L = "x".repeat(300), M = "x".repeat(299) + "y", out = [];
const arrays = [[], [L], [M, L, M, L], [L, , L], [1, L, undefined, null, L + ""], new Array(5), [M, M]];
const sparse = [L]; sparse[9] = L; arrays.push(sparse);
const like = {length: 3, 0: L, 2: L};
const froms = [undefined, 0, 1, 2, -1, -2, -3, -100, 100, 1.5, -1.5, NaN, Infinity, -Infinity, "1", null];
for (const a of [...arrays, like]) for (const f of froms) for (const m of ["indexOf", "lastIndexOf", "includes"]) {
	const args = f === undefined ? [L] : [L, f];
	out.push(Array.prototype[m].apply(a, args));
}
return JSON.stringify(out);
})()`
	defer func(b int64) { searchBudget = b }(searchBudget)
	searchBudget = 0
	want, err := goja.New().RunString(script)
	if err != nil {
		t.Fatal(err)
	}
	r := &run{m: &Mode{decls: &tsdecl.Decls{}}, ctx: context.Background(), lim: Limits{}.withDefaults(), vm: goja.New()}
	if err := r.setup(); err != nil {
		t.Fatal(err)
	}
	got, err := r.vm.RunString(script)
	if err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("searchString answers\n%s\nthe built-ins\n%s", got, want)
	}
}

// TestSearchStopped: indexOf, lastIndexOf and includes of a long string
// end once a limit has stopped the run, where the built-in compared on
// in Go (a string of 2^20 characters among 2^18 copies of one that
// differed in its last: 8.7 s past a 1 s limit).
func TestSearchStopped(t *testing.T) {
	r := &run{m: &Mode{decls: &tsdecl.Decls{}}, ctx: context.Background(), lim: Limits{}.withDefaults(), vm: goja.New()}
	if err := r.setup(); err != nil {
		t.Fatal(err)
	}
	// 2^20 copies of a string of 2^8 characters: 2^28, the budget.
	if _, err := r.vm.RunString(`var L = "x".repeat(257), arr = new Array(1 << 20).fill(L), search = L.slice(1) + "y"`); err != nil {
		t.Fatal(err)
	}
	// Stopped as a limit stops a run, the engine not interrupted: the
	// search itself must end.
	r.hit = &limitHit{name: LimitWallTime, msg: "test"}
	for _, m := range []string{"indexOf", "lastIndexOf", "includes"} {
		if v, err := r.vm.RunString(`arr.` + m + `(search)`); err == nil || !strings.Contains(err.Error(), "stopped") {
			t.Errorf("%s of a long string in a stopped run: %v, %v", m, v, err)
		}
	}
}
