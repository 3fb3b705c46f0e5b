package codemode

import (
	"context"
	"testing"

	"github.com/dop251/goja"

	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
)

// TestSubstitute: a string replacement that a replace makes through
// countedReplacement (a replace whose bound passes the limit) is expanded
// as the engine expands it, for every kind of $ reference, with and
// without captures and named groups, found or not.
func TestSubstitute(t *testing.T) {
	r := &run{m: &Mode{decls: &tsdecl.Decls{}}, ctx: context.Background(), lim: Limits{}.withDefaults(), vm: goja.New()}
	if err := r.setup(); err != nil {
		t.Fatal(err)
	}
	if err := r.vm.Set("counted", func(call goja.FunctionCall) goja.Value {
		return r.countedReplacement(nil, call.Argument(0).(goja.String), 1000, "test")
	}); err != nil {
		t.Fatal(err)
	}
	v, err := r.vm.RunString("(function () {" + "" + `
const subjects = ["a-b_ab aab \u00e9a\ud83d\ude00b bb a", "xxAxxBxxAB--aa--", "no match here", ""];
const patterns = [/(a)(b)?/g, /(?<x>a)(?<y>b)?/g, /(a)(?=(b*))/g, /q/g, /(?:)/g, /(a)|(b)/g, /(a)/, /a/y, /(((((((((((a)))))))))))/g, /(?<x>a)/, "a", "ab", "", "zz"];
const templates = ["$1-$2", "$&$&", "$` + "`" + `|$'", "$$", "$", "a$", "$0", "$00", "$01", "$10", "$11", "$99", "$<x>", "$<y>", "$<x", "$<>", "$ <x>", "[$<x>$<z>]", "\u00e9$1\u00fc", "\ud800$1", "$$1", "plain", "$2$1$&", ""];
const bad = [];
for (const s of subjects) for (const p of patterns) for (const t of templates) {
	const calls = [["replace", p]];
	if (typeof p === "string" || p.global) calls.push(["replaceAll", p]);
	for (const [m, p] of calls) {
		// A sticky pattern starts where its last match ended.
		if (typeof p !== "string") p.lastIndex = 0;
		const want = s[m](p, t);
		if (typeof p !== "string") p.lastIndex = 0;
		const got = s[m](p, counted(t));
		if (got !== want) bad.push([s, String(p), m, t, got, want]);
	}
}
return JSON.stringify(bad.slice(0, 10)) + " " + bad.length;
})()`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "[] 0" {
		t.Errorf("the counted replacements differ from the engine's ([subject, pattern, method, replacement, got, want]): %s", got)
	}
}
