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
	// BigInt is removed (its operators compute in Go, unbounded), so no
	// script makes one: the marshaler's refusal stays for a host value.
	out, _ := runScript(t, newMode(t, false), `(BigInt.prototype as any).toJSON = function () { return String(this) }; return [Object(2n), 3n]`)
	if out.OK || out.Error == nil || !strings.Contains(out.Error.Message, "BigInt is not defined") {
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
		// A regular expression's own exec answers captures of any length:
		// bounded by the subject ("ab"), this made 180,002 characters (and
		// 157,286,402 at the default limits, 300 answers of 2^19).
		`const big = "x".repeat(60000); let n = 0; const re: any = /a/g; re.exec = function () { return n++ < 3 ? {0: "", 1: big, index: 0, length: 2} : null }; return "ab".replace(re, "$1").length`,
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
		// An object built by a loop has as many members as its
		// properties: with 2^20 of them, getOwnPropertyDescriptors ran 5 s
		// in one step, Object.entries 2.7 s, Object.assign 2.3 s (the
		// guard counted strings and arrays only).
		`const o: any = {}; for (let i = 0; i < 5000; i++) o["k" + i] = i; return Object.entries(o).length`,
		`const o: any = {}; for (let i = 0; i < 5000; i++) o["k" + i] = i; return Object.keys(Object.assign({}, o)).length`,
		`const o: any = {}; for (let i = 0; i < 5000; i++) o["k" + i] = i; return Object.getOwnPropertyDescriptors(new Proxy(o, {}))`,
		`const a: any[] = []; for (let i = 0; i < 5000; i++) a[i * 1000] = i; return Object.values(a).length`,
		`return Object.freeze(new String("x".repeat(5000))).length`,
		`const o: any = {}; for (let i = 0; i < 5000; i++) o["k" + i] = i; return Object.seal(o) === o`,
		`const d: any = {}; for (let i = 0; i < 5000; i++) d["k" + i] = {value: i}; return Object.defineProperties({}, d)`,
		`const d: any = {}; for (let i = 0; i < 5000; i++) d["k" + i] = {value: i}; return Object.create(null, d)`,
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
		// A sparse array counts the elements it has, not its length: one
		// element at 1e6 or at 4e9-2 was refused as a million members.
		{`const a: any[] = []; a[1e6] = 1; const b: any[] = []; b[4e9 - 2] = 2; return [Object.entries(a), Object.values(b), Object.assign({}, a), Object.keys(Object.getOwnPropertyDescriptors(b)), Object.isFrozen(Object.freeze(a))]`,
			`[[["1000000",1]],[2],{"1000000":1},["3999999998","length"],true]`},
		{`const o: any = {}; for (let i = 0; i < 4000; i++) o["k" + i] = {value: i, enumerable: true}; return [Object.keys(Object.create(null, o)).length, Object.keys(Object.defineProperties({}, o)).length, Object.entries(Object.seal(o)).length]`, `[4000,4000,4000]`},
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

// TestReplaceExact: a replace whose bound passes Limits.Length is made
// with the replacement counted as it is inserted, and refused only when
// what it makes passes the limit: "x".repeat(2000).replace(/(x)/g, "$1")
// was refused at the default limits (a bound of 4,008,002 characters for
// a result of 2,000), and so was any replace of a subject of more than
// about a thousand characters by a regular expression with a $1 in the
// replacement (TestSubstitute: the expansion is the engine's).
func TestReplaceExact(t *testing.T) {
	m := newModeLimits(t, false, codemode.Limits{})
	for _, tt := range []struct{ script, want string }{
		{`return "x".repeat(2000).replace(/(x)/g, "$1").length`, `2000`},
		{`return "ab1 cd22 ".repeat(1000).replace(/(\d+)/g, "<$1>").length`, `13000`},
		{`return "a".repeat(100000).replace(/b/g, "0123456789ab").length`, `100000`},
		{`return "k=v;".repeat(2000).replace(/(?<k>\w)=(\w)/g, "$2=$<k>").slice(0, 8)`, `"v=k;v=k;"`},
		{`return "a".repeat(100000).replaceAll("a", "$&").length`, `100000`},
		{"return \"ab\".repeat(50000).replace(/b$/, \"[$`]\").length", `200000`},
		// The subject of a RegExp's Symbol.replace is read once: converted
		// again by the built-in, it was bounded as "a" and replaced as
		// 60,000 letters (120,000 characters made).
		{`let n = 0; const o: any = {toString: () => n++ ? "a".repeat(60000) : "a"}; return (/a/g as any)[Symbol.replace](o, "$&$&").length`, `2`},
		// replaceAll of "" in a subject that is not ASCII: the engine's
		// search for "" found it past the end again and again, and the
		// process died out of memory (fatal, no recover).
		{"return [\"é\".replaceAll(\"\", \"x\"), \"ab\".replaceAll(\"\", \"[$`|$'|$&]\"), \"éa\".replaceAll(\"\", (m: string, p: number) => `<${m}${p}>`), \"é\".replaceAll([] as any, \"-\"), \"é\".replaceAll({toString: () => \"\"} as any, \"-\")]",
			`["xéx","[|ab|]a[a|b|]b[ab||]","<0>é<1>a<2>","-é-","-é-"]`},
		// The pattern's Symbol.replace is read once, and replaceAll refuses
		// a regular expression that is not global, as the built-in does.
		{`let n = 0; const p: any = {get [Symbol.replace]() { return n++ ? undefined : () => "custom" }, toString: () => ""}; return ["é".replaceAll(p, "x"), n]`, `["custom",1]`},
		{`try { "a".replaceAll(/a/, "b"); return "no error" } catch (e: any) { return e.name }`, `"TypeError"`},
		// Numbers stand for their strings (a number replacement ended the
		// run as an engine failure once).
		{`return ["abc".replace(/b/, 5 as any), "a5c".replace(5 as any, "b"), String.prototype.replace.call({toString: () => 12345} as any, "3", "x"), "abc".replace("b", {toString: () => 7} as any), "aXbX".replaceAll("X", 0 as any), "a1".replace(/\d/, () => 2 as any)]`, `["a5c","abc","12x45","a7c","a0b0","a2"]`},
		{`return ["a.b.c".replaceAll(".", "-"), "aXbX".replace({toString: () => "X"} as any, "$&$&"), "abc".replace({[Symbol.replace]: (s: string, r: string) => s + r} as any, "!")]`, `["a-b-c","aXXbX","abc!"]`},
	} {
		out, _ := runScript(t, m, tt.script)
		if !out.OK || string(out.Result) != tt.want {
			t.Errorf("%s: %.300s, want %s", tt.script, out.Render(), tt.want)
		}
	}
}
