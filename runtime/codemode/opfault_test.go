package codemode_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode"
)

// TestOpErrorOutOfReach: the envelope behind an op error is kept in Go,
// out of the script's reach. Stored on the error as a host object, it let
// a script call Go methods on it and rewrite its fields, and the outcome
// then reported a forged code and op ("FORGED" of onto.task.delete).
func TestOpErrorOutOfReach(t *testing.T) {
	const reach = `
let host = 0;
try { await onto.task.get({task_id: 7 as any}) } catch (e: any) {
	for (const k of Object.getOwnPropertyNames(e)) {
		const v = Object.getOwnPropertyDescriptor(e, k)!.value;
		if (v && typeof v === "object" && "Error" in v) {
			host++;
			v.Op = "onto.task.delete";
			if (v.Error) { v.Error.Code = "FORGED"; v.Error.Message = "forged" }
		}
	}
	console.log("host objects:", host);
	THROW;
}`
	tests := []struct {
		name, throw, code, op string
	}{
		{"rethrown", "throw e", string(runtime.CodeValidation), "onto.task.get"},
		// An object made to look like an op error is the script's own.
		{"copied", `const o: any = {code: "FORGED", op: "onto.task.delete"}; for (const k of Object.getOwnPropertyNames(e)) Object.defineProperty(o, k, Object.getOwnPropertyDescriptor(e, k)!); throw o`, codemode.CodeScript, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, _ := runScript(t, newMode(t, false), strings.Replace(reach, "THROW", tt.throw, 1))
			if out.OK || out.Error == nil || out.Error.Code != tt.code || out.Error.Op != tt.op || out.Console != "host objects: 0\n" {
				t.Fatalf("outcome: %s", out.Render())
			}
			if tt.op != "" && (out.Error.OpError == nil || out.Error.OpError.Code != runtime.CodeValidation || strings.Contains(out.Render(), "forged")) {
				t.Errorf("op error: %s", out.Render())
			}
		})
	}
}

// TestThrownReadsNoScriptCode: describing what a script threw runs no
// getter of the script's: a getter inherited from Object.prototype for
// "stack" (or for the op error mark) that threw ended the run as an
// engine failure (INTERNAL "the script engine failed: Error: x at get
// (%3Cstdin%3E:…)"), and one that logged wrote to the console after the
// script had ended.
func TestThrownReadsNoScriptCode(t *testing.T) {
	for _, name := range []string{"stack", "__toolgen_op_error"} {
		for _, body := range []string{`throw new Error("getter ran")`, `console.log("getter ran"); return 5`} {
			script := `Object.defineProperty(Object.prototype, "` + name + `", {get() { ` + body + ` }}); throw {a: 1}`
			out, _ := runScript(t, newMode(t, false), script)
			if out.OK || out.Error == nil || out.Error.Code != codemode.CodeScript || out.Error.Message != `uncaught: {"a":1}` || out.Console != "" {
				t.Errorf("%s: %s", script, out.Render())
			}
		}
	}
	// The own stack of an Error still locates it.
	out, _ := runScript(t, newMode(t, false), "const x = 1;\n  throw new Error(\"here\")")
	if out.OK || out.Error == nil || out.Error.Line != 2 || out.Error.Column != 8 {
		t.Errorf("located: %s", out.Render())
	}
}

// TestBigIntObject: a BigInt object (Object(1n)) has no JSON form, as a
// BigInt has none: JSON.stringify, the return value, console.log and op
// args wrote it as {} (an op got {"limit":{}}).
func TestBigIntObject(t *testing.T) {
	tests := []struct{ script, code, msg string }{
		{`return JSON.stringify({a: Object(1n)})`, codemode.CodeScript, "BigInt"},
		{`return [Object(1n)]`, codemode.CodeScript, "BigInt"},
		{`await onto.task.list({limit: Object(1n)} as any)`, codemode.CodeScript, "BigInt"},
	}
	for _, tt := range tests {
		out, calls := runScript(t, newMode(t, false), tt.script)
		if out.OK || out.Error == nil || out.Error.Code != tt.code || !strings.Contains(out.Error.Message, tt.msg) || len(calls) != 0 {
			t.Errorf("%s: %s", tt.script, out.Render())
		}
	}
	// A toJSON of its own still gives it one, as in JSON.stringify.
	out, _ := runScript(t, newMode(t, false), `(BigInt.prototype as any).toJSON = function () { return String(this) }; return [Object(2n), 3n]`)
	if !out.OK || string(out.Result) != `["2","3"]` {
		t.Errorf("toJSON: %s", out.Render())
	}
}

// TestSortOrder: the guarded sort orders as the built-in does: strings by
// UTF-16 code units, undefined and holes last, stable, a comparator's
// answer as given.
func TestSortOrder(t *testing.T) {
	tests := []struct{ script, want string }{
		{`return [10, 9, 1, -1, "b", "a", null, undefined, true].sort()`, `[-1,1,10,9,"a","b",null,true,null]`},
		{`return ["\uff61", "\ud83d\ude00", "a"].sort().map((s: string) => s.charCodeAt(0))`, `[97,55357,65377]`},
		{`const a = [3, , 1, undefined, 2]; a.sort(); return [a, a.length, 1 in a, 4 in a]`, `[[1,2,3,null,null],5,true,false]`},
		{`return [[2, "a"], [1, "b"], [2, "c"], [1, "d"]].sort((x: any, y: any) => x[0] - y[0]).map((x: any) => x[1]).join("")`, `"bdac"`},
		{`return [3, 1, 2].sort((x: number, y: number) => y - x)`, `[3,2,1]`},
		{`return [3, 1, 2].toSorted()`, `[1,2,3]`},
		{`return [{toString: () => "b"}, {toString: () => "a"}].sort().map(String)`, `["a","b"]`},
		{`try { [2, 1].sort(5 as any) } catch (e: any) { return e.name }`, `"TypeError"`},
		{`return Array.prototype.sort.call({length: 3, 0: "c", 1: "a", 2: "b"})`, `{"0":"a","1":"b","2":"c","length":3}`},
	}
	m := newMode(t, false)
	for _, tt := range tests {
		out, _ := runScript(t, m, tt.script)
		if !out.OK || string(out.Result) != tt.want {
			t.Errorf("%s: %s, want result %s", tt.script, out.Render(), tt.want)
		}
	}
}

// TestLengthInCharacters: Limits.Length counts characters (UTF-16 code
// units, as String.prototype.length), not the bytes of their UTF-8 form: a
// string of 40,000 "é" (80,000 bytes) was refused by a limit of 65,536
// characters, and the error named 3,145,728 characters for a repeat
// making 1,048,576 "\uffff" (in a limit of 1<<20).
func TestLengthInCharacters(t *testing.T) {
	m := newMode(t, false) // Length 1<<16
	for _, tt := range []struct{ script, want string }{
		{`return "é".repeat(40000).length`, `40000`},
		{`return "€".repeat(20000).padEnd(60000, "€").length`, `60000`},
		{`const s = "é".repeat(30000); return s.concat(s).length`, `60000`},
		{`return "é".repeat(30000).replace("é", "ü".repeat(30000)).length`, `59999`},
		{`return "éa".repeat(100).replace(/a/g, () => "ü".repeat(300)).length`, `30100`},
		{`return Array(3).fill("é".repeat(20000)).join("").length`, `60000`},
	} {
		out, _ := runScript(t, m, tt.script)
		if !out.OK || string(out.Result) != tt.want {
			t.Errorf("%s: %s, want %s", tt.script, out.Render(), tt.want)
		}
	}
	out, _ := runScript(t, m, `return "\uffff\uffff".repeat(40000).length`)
	if out.OK || out.Error == nil || !strings.Contains(out.Error.Message, "making 80000 characters") {
		t.Errorf("the figure: %s", out.Render())
	}
}

// TestReplaceBound: a replace is bounded by what it can make. A $` or $'
// in the replacement copies up to the whole subject at each match, and was
// counted once: "a".repeat(700).replaceAll("a", "$`".repeat(360)) made
// 88,074,000 characters against a limit of 1,048,576 (350 MB in one call).
// A function replacement's answer is converted once, the string counted
// being the one inserted (a toString answering "" to the count inserted
// 60,000 characters at each match). And a replace of a string pattern
// replaces once, or once per occurrence: a template filled with
// tpl.replace("{{body}}", body) was bounded as if every position matched,
// and refused.
func TestReplaceBound(t *testing.T) {
	m := newMode(t, false) // Length 1<<16
	refused := []string{
		"const s = \"a\".repeat(150); return s.replaceAll(\"a\", \"$`\".repeat(140)).length",
		"const s = \"a\".repeat(150); return s.replace(/a/g, \"$'\".repeat(140)).length",
		"const s = \"a\".repeat(150); return s.replace(/(a)(?=(a*))/g, \"$2\".repeat(140)).length",
		`let n = 0; const big = "b".repeat(60000); const o: any = {toString: () => n++ % 2 ? big : ""}; return "ab".repeat(20).replace(/a/g, () => o).length`,
	}
	for _, script := range refused {
		out, _ := runScript(t, m, script)
		if out.OK || out.Error == nil || out.Error.Limit != codemode.LimitMemory || !strings.Contains(out.Error.Message, "String.prototype.replace") {
			t.Errorf("%s: %.300s", script, out.Render())
		}
	}
	for _, tt := range []struct{ script, want string }{
		{`const tpl = "<p>{{body}}</p>".repeat(50); return tpl.replace("{{body}}", "x".repeat(3000)).length`, `3742`},
		{`return "{{a}} ".repeat(100).replaceAll("{{a}}", "y".repeat(500)).length`, `50100`},
		{"return [\"a-b\".replace(\"-\", \"$`$'$&$$$1$<x>\"), \"a-b\".replace(/(?<x>-)/, \"[$<x>$1$2$0$`$']\"), \"aXbX\".replaceAll(\"X\", \"$&$&\"), \"ab\".replace(\"b\", () => ({toString: () => \"c\"}) as any)]",
			`["aab-$$1$<x>b","a[--$2$0ab]b","aXXbXX","ac"]`},
	} {
		out, _ := runScript(t, m, tt.script)
		if !out.OK || string(out.Result) != tt.want {
			t.Errorf("%s: %s, want %s", tt.script, out.Render(), tt.want)
		}
	}
}

// TestSyntaxErrorBounded: a syntax error quotes the token it found, cut as
// other messages are: a script "x aaa…" of 60,000 letters answered 60 KB
// against an output limit of 16 KB.
func TestSyntaxErrorBounded(t *testing.T) {
	long := strings.Repeat("a", 3900)
	for _, script := range []string{"x " + long, "let " + long[:1900] + " = 1; let " + long[:1900] + " = 2", "import " + long} {
		out, _ := runScript(t, newMode(t, false), script)
		if out.OK || out.Error == nil || out.Error.Code != codemode.CodeSyntax || out.Error.Line != 1 || len(out.Render()) > testLimits.Output {
			t.Errorf("%.20s…: %d bytes: %.300s", script, len(out.Render()), out.Render())
		}
	}
}

// TestHelpPathBounded: tool_code_help's NOT_FOUND answer quotes the path
// cut: a path of 100,000 characters was quoted whole.
func TestHelpPathBounded(t *testing.T) {
	help := newMode(t, false).Tools()[1]
	for _, path := range []string{strings.Repeat("x", 100000), "onto.task." + strings.Repeat("y", 100000)} {
		raw, _ := json.Marshal(map[string]string{"path": path})
		res, err := help.Handler(context.Background(), runtime.ToolContext{}, raw)
		if err != nil {
			t.Fatal(err)
		}
		if text := runtime.RenderResult(res); res.Success || !strings.Contains(text, "NOT_FOUND") || len(text) > 2000 {
			t.Errorf("%d bytes: %.300s", len(text), text)
		}
	}
}

// TestMembersBounded: Object.entries, Object.values,
// Object.getOwnPropertyDescriptors and Object.assign make an array, a
// value or a property per member in one call in Go, where the wall-time
// interrupt does not reach, and a string or an array has a member per
// character or element and is cheap to make: with the default limits,
// Object.getOwnPropertyDescriptors("x".repeat(1<<20)) ran 22.7 s against a
// 5 s limit, Object.assign({}, s) 9.5 s, and Object.entries of it or of
// new Array(1<<20).fill(0) made 800 MB against 256 MiB. Such a call over
// more than Limits.Length/16 members is refused.
func TestMembersBounded(t *testing.T) {
	m := newMode(t, false) // Length 1<<16: 4096 members
	for _, script := range []string{
		`return Object.entries("x".repeat(5000)).length`,
		`return Object.values(new String("x".repeat(5000))).length`,
		`return Object.getOwnPropertyDescriptors("x".repeat(5000))`,
		`return Object.entries(new Array(5000).fill(0)).length`,
		`return Object.entries(new Proxy(new Proxy(new Array(5000).fill(0), {}), {})).length`,
		`return Object.keys(Object.assign({}, "x".repeat(3000), new Array(3000).fill(1))).length`,
	} {
		out, _ := runScript(t, m, script)
		if out.OK || out.Error == nil || out.Error.Limit != codemode.LimitMemory || !strings.Contains(out.Error.Message, "members") {
			t.Errorf("%s: %.300s", script, out.Render())
		}
	}
	for _, tt := range []struct{ script, want string }{
		{`return [Object.entries("ab"), Object.values(["x", "y"]), Object.keys(Object.getOwnPropertyDescriptors("a")), Object.assign({}, "ab", null, undefined, 5, {c: 1})]`,
			`[[["0","a"],["1","b"]],["x","y"],["0","length"],{"0":"a","1":"b","c":1}]`},
		// The length of an object that is neither a string nor an array
		// is not its member count.
		{`return [Object.entries({length: 1e9}).length, Object.keys(Object.assign({}, {length: 1e9})).length]`, `[1,1]`},
	} {
		out, _ := runScript(t, m, tt.script)
		if !out.OK || string(out.Result) != tt.want {
			t.Errorf("%s: %s, want %s", tt.script, out.Render(), tt.want)
		}
	}
}

// TestReturnValueRecursion: a toJSON or a getter of the return value that
// recurses without end hits the call depth limit, as it does anywhere else
// in the script: read after the script ended, it failed the run as an
// engine failure (INTERNAL "the script engine failed:  at f
// (%3Cstdin%3E:2:48(3))").
func TestReturnValueRecursion(t *testing.T) {
	for _, script := range []string{
		`return {toJSON() { function f(): any { return f() } return f() }}`,
		`return {get a() { function f(): any { return f() } return f() }}`,
		`return [{b: {get a(): any { return (this as any).a }}}]`,
	} {
		out, _ := runScript(t, newMode(t, false), script)
		if out.OK || out.Error == nil || out.Error.Code != codemode.CodeLimit || out.Error.Limit != codemode.LimitCallDepth || strings.Contains(out.Render(), "stdin") {
			t.Errorf("%s: %s", script, out.Render())
		}
	}
}
