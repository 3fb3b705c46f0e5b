package codemode

import (
	"context"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
)

// TestIteratorsStopped: the iterators that a spread consumes in Go (of an
// array's values, keys and entries, a string, a Set, a Map, and the
// unwrapped values an arguments object holds) end once a
// limit has stopped the run, so that the interrupt reaches a spread into
// a call's arguments, which takes time quadratic in their number (a
// million keys of an array ran 19 s past a 5 s limit). The stop is
// recorded without interrupting the engine, as when the watch stops the
// run while Go code runs: only the iterator can see it.
func TestIteratorsStopped(t *testing.T) {
	tests := []string{
		`Math.max(...a)`,
		`Math.max(...a.keys())`,
		`[...a.entries()].length`,
		`Math.max(...s)`,
		`Math.max(...set)`,
		`Math.max(...set.keys())`,
		`[...set.entries()].length`,
		`[...map].length`,
		`Math.max(...map.values())`,
		`[...map.keys()].length`,
		`Math.max(...{[Symbol.iterator]: () => argValues.call(a)})`,
	}
	for _, expr := range tests {
		r := &run{m: &Mode{decls: &tsdecl.Decls{}}, ctx: context.Background(), lim: Limits{}.withDefaults(), vm: goja.New()}
		if err := r.setup(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.vm.RunString(`var a = Array.from({length: 10000}, (_, i) => i), s = "1".repeat(10000), set = new Set(a), map = new Map(a.map(x => [x, x])), argValues = (function () { return arguments[Symbol.iterator] })()`); err != nil {
			t.Fatal(err)
		}
		r.hit = &limitHit{name: LimitWallTime, msg: "stopped"}
		_, err := r.vm.RunString(expr)
		if err == nil || !strings.Contains(err.Error(), "the run was stopped") {
			t.Errorf("%s: %v, want the run stopped", expr, err)
		}
	}
}

// TestRegexpStopped: the matches of one replace, match, matchAll or split
// run in Go, each up to RegexpMatchTimeout; once a limit has stopped the
// run, the next match ends it (a hundred matches of a backtracking pattern
// ran 5.7 s past a 2 s limit). As in TestIteratorsStopped, the stop is
// recorded without interrupting the engine.
func TestRegexpStopped(t *testing.T) {
	tests := []string{
		`s.replace(/a(?!z)/g, "b")`,
		`s.replaceAll(/a/g, "b")`,
		`s.match(/a/g)`,
		`[...s.matchAll(/a/g)]`,
		`s.split(/a(?=a)/)`,
	}
	for _, expr := range tests {
		r := &run{m: &Mode{decls: &tsdecl.Decls{}}, ctx: context.Background(), lim: Limits{}.withDefaults(), vm: goja.New()}
		if err := r.setup(); err != nil {
			t.Fatal(err)
		}
		if _, err := r.vm.RunString(`var s = "a".repeat(1000)`); err != nil {
			t.Fatal(err)
		}
		r.hit = &limitHit{name: LimitWallTime, msg: "stopped"}
		_, err := r.vm.RunString(expr)
		if err == nil || !strings.Contains(err.Error(), "the run was stopped") {
			t.Errorf("%s: %v, want the run stopped", expr, err)
		}
	}
}
