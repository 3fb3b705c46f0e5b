package codemode_test

import (
	"context"
	"encoding/json"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/codemode"
)

// testLimits are small so that the hostile scripts end fast, but for the
// wall time: a script that should succeed must not fail on a slow machine
// or under the race detector. wallLimits are testLimits with a short
// wall time, for the scripts that the wall time is to stop.
var (
	testLimits = codemode.Limits{WallTime: 20 * time.Second, OpCalls: 5, Output: 2048, Script: 4096, CallDepth: 64, Memory: 128 << 20, Length: 1 << 16}
	wallLimits = withWallTime(testLimits, 300*time.Millisecond)
)

func withWallTime(l codemode.Limits, d time.Duration) codemode.Limits {
	l.WallTime = d
	return l
}

// newMode is the ontology family in code mode over a fresh store.
func newMode(t testing.TB, writes bool) *codemode.Mode {
	t.Helper()
	return newModeLimits(t, writes, testLimits)
}

func newModeLimits(t testing.TB, writes bool, lim codemode.Limits) *codemode.Mode {
	t.Helper()
	m, err := codemode.New(ontology.Registry, ontology.Tools(ontology.NewStore()), &ontology.CodeDeclarations,
		codemode.WithLimits(lim), codemode.WithWrites(writes))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// runScript runs script with a recorder on the bus and returns the outcome
// and the handler calls.
func runScript(t testing.TB, m *codemode.Mode, script string) (*codemode.Outcome, []agenttest.HandlerCall) {
	t.Helper()
	rec := agenttest.NewRecorder()
	tc := runtime.NewToolContext(runtime.ContextParts{Bus: rec.Bus(), Call: runtime.ToolCall{ID: "c1", Name: codemode.CodeTool}})
	out, err := m.Run(context.Background(), tc, script)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	return out, rec.Calls()
}

// TestHostileScripts: each script ends as a failed result naming what
// stopped it, and no handler runs with invalid params.
func TestHostileScripts(t *testing.T) {
	big := strings.Repeat("x", testLimits.Script+1)
	tests := []struct {
		name   string
		writes bool
		script string
		code   string // error code
		limit  string // limit name, for LIMIT_EXCEEDED
		calls  int    // handler calls expected
		msg    string // in the message
	}{
		{"flat of an array holding itself", false, `const a: any[] = [1]; a.push(a); return a.flat(Infinity).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "flat"},
		{"flat of arrays nested deep", false, `let x: any = [1]; for (let i = 0; i < 200000; i++) x = [x]; return x.flat(Infinity).length`, codemode.CodeLimit, "", 0, ""},
		{"infinite loop", false, `while (true) {}`, codemode.CodeLimit, codemode.LimitWallTime, 0, "longer than 300ms"},
		{"loop catching the interrupt", false, `for (;;) { try { while (true) {} } catch (e) {} }`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"async loop", false, `for (;;) { await null; }`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"deep recursion", false, `function f(n: number): number { return f(n + 1) + 1 } return f(0)`, codemode.CodeLimit, codemode.LimitCallDepth, 0, ""},
		{"recursion catching overflow", false, `function f(): any { try { return f() } catch (e) { return f() } } f()`, codemode.CodeLimit, codemode.LimitCallDepth, 0, ""},
		{"huge repeat", false, `return "x".repeat(2 ** 40).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "repeat"},
		{"huge padEnd", false, `return "x".padEnd(1e12).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "padEnd"},
		{"string doubling", false, `let s = "xxxxxxxxxxxxxxxx"; for (;;) s += s;`, codemode.CodeLimit, "", 0, ""},
		{"sparse array fill", false, `return new Array(4e9).fill(0).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "fill"},
		{"sparse array indexOf", false, `const a: number[] = []; a.length = 4e9; return a.indexOf(1)`, codemode.CodeLimit, codemode.LimitMemory, 0, "indexOf"},
		{"Array.from length", false, `return Array.from({length: 1e9}).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Array.from"},
		{"join of a big string", false, `const s = "y".repeat(60000); return Array(1000).fill(s).join("").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "join"},
		{"replaceAll blowup", false, `const s = "a".repeat(300); return s.replaceAll("a", s).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "replaceAll"},
		{"replace callback blowup", false, `const s = "b".repeat(60000); return "ab".repeat(20).replace(/a/g, () => s).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "replace"},
		{"array push loop", false, `const a: number[] = []; for (;;) a.push(1, 2, 3, 4, 5, 6, 7, 8);`, codemode.CodeLimit, "", 0, ""},
		{"catastrophic regexp", false, `return /^(a+)+\1b$/.test("a".repeat(28))`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"exponential JSON", false, `let x: any = ["x".repeat(100)]; for (let i = 0; i < 40; i++) x = [x, x]; return JSON.stringify(x).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "JSON.stringify"},
		{"deep JSON", false, `let x: any = {}; for (let i = 0; i < 2000; i++) x = {a: x}; return JSON.stringify(x).length`, codemode.CodeScript, "", 0, "nested deeper"},
		{"deep nested arrays to string", false, `let x: any = []; for (let i = 0; i < 2000; i++) x = [x]; return String(x).length`, codemode.CodeLimit, codemode.LimitCallDepth, 0, ""},
		{"deep return value", false, `let x: any = {}; for (let i = 0; i < 2000; i++) x = {a: x}; return x`, codemode.CodeScript, "", 0, "nested deeper"},
		{"circular return value", false, `const x: any = {}; x.self = x; return x`, codemode.CodeScript, "", 0, "circular"},
		{"typed arrays are gone", false, `return new Uint8Array(1e9).length`, codemode.CodeScript, "", 0, "Uint8Array"},
		{"console flood", false, `for (;;) console.log("spam ".repeat(50))`, codemode.CodeLimit, codemode.LimitOutput, 0, ""},
		{"op call flood", false, `for (;;) await onto.task.list({})`, codemode.CodeLimit, codemode.LimitOpCalls, 5, ""},
		{"script too big", false, big, codemode.CodeLimit, codemode.LimitScript, 0, ""},
		{"nonexistent op", false, `await onto.task.frobnicate({})`, codemode.CodeScript, "", 0, "frobnicate"},
		{"nonexistent group", false, `await billing.invoice.list({})`, codemode.CodeScript, "", 0, "billing"},
		{"invalid args", false, `await onto.task.get({task_id: 42, extra: true})`, string(runtime.CodeValidation), "", 0, "/task_id"},
		{"args not an object", false, `await onto.task.get("x" as any)`, string(runtime.CodeValidation), "", 0, "args must be"},
		{"missing required args", false, `await (onto.task.get as any)()`, string(runtime.CodeValidation), "", 0, "task_id"},
		{"bad enum", true, `await onto.task.update({task_id: "x", state_key: "finished" as any})`, string(runtime.CodeValidation), "", 0, "state_key"},
		{"bad options", true, `await onto.task.update({task_id: "x"}, {dry_run: "yes" as any})`, codemode.CodeScript, "", 0, "dry_run"},
		{"throw number", false, `throw 42`, codemode.CodeScript, "", 0, "uncaught: 42"},
		{"throw object", false, `throw {reason: "no"}`, codemode.CodeScript, "", 0, `{"reason":"no"}`},
		{"throw null", false, `throw null`, codemode.CodeScript, "", 0, "null"},
		{"throw undefined", false, `throw undefined`, codemode.CodeScript, "", 0, "undefined"},
		{"throw symbol", false, `throw Symbol("s")`, codemode.CodeScript, "", 0, "uncaught: Symbol(s)"},
		// Proxies and getters run script code wherever the host reads them:
		// the time limit stops a loop there, and a revoked Proxy or a
		// throwing trap fails the script, not the engine (a revoked Proxy
		// returned or thrown ended as INTERNAL "the script engine failed").
		{"args getter loops", false, `await onto.task.list({get limit(): number { while (true) {} }})`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"return a revoked Proxy", false, `const p = Proxy.revocable({}, {}); p.revoke(); return [p.proxy]`, codemode.CodeScript, "", 0, "revoked Proxy has no JSON form"},
		{"throw a revoked Proxy", false, `const p = Proxy.revocable({}, {}); p.revoke(); throw p.proxy`, codemode.CodeScript, "", 0, "uncaught"},
		{"throw a Proxy whose traps throw", false, `throw new Proxy({}, {get() { throw 1 }, ownKeys() { throw 1 }, getPrototypeOf() { throw 1 }})`, codemode.CodeScript, "", 0, "uncaught"},
		{"throw a Proxy whose traps loop", false, `throw new Proxy({}, {get() { while (true) {} }, ownKeys() { while (true) {} }})`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"reject string", false, `await Promise.reject("nope")`, codemode.CodeScript, "", 0, `"nope"`},
		{"throw getter bomb", false, `throw {get message(): string { while (true) {} }}`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"writes disabled", false, `await onto.task.update({task_id: "` + ontology.DemoTaskID + `", state_key: "done"})`, string(runtime.CodePermissionDenied), "", 0, "writes are not allowed"},
		{"never settles", false, `await new Promise(() => {})`, codemode.CodeScript, "", 0, "never settles"},
		{"no timers", false, `setTimeout(() => {}, 1)`, codemode.CodeScript, "", 0, "setTimeout"},
		{"no require", false, `require("fs")`, codemode.CodeScript, "", 0, "require"},
		{"no import", false, `import fs from "fs"`, codemode.CodeSyntax, "", 0, "no imports"},
		{"no dynamic import", false, `await import("fs")`, codemode.CodeScript, "", 0, ""},
		{"syntax error", false, "const a = 1;\nconst = 2", codemode.CodeSyntax, "", 0, ""},
		{"escape the wrapper", false, `}); while (true) {}; (async function () {`, codemode.CodeLimit, codemode.LimitWallTime, 0, ""},
		{"bigint result", false, `return 10n`, codemode.CodeScript, "", 0, "BigInt"},
		// A BigInt operator computes in Go in one step: 1n << (2n ** 40n)
		// asked for 128 GiB, a fatal out-of-memory error. Literals are
		// calls of BigInt after the transform, and BigInt is gone.
		{"no BigInt", false, `return [BigInt(3) ** BigInt(5)]`, codemode.CodeScript, "", 0, "BigInt is not defined"},
		{"no BigInt literal", false, `return [3n ** 5n]`, codemode.CodeScript, "", 0, "BigInt is not defined"},

		// Built-ins that turn an array-like into a list in Go by its length
		// (a 4e9 make was a fatal out-of-memory error, no recover).
		{"apply of a huge array-like", false, `return Math.max.apply(null, {length: 4e9} as any)`, codemode.CodeLimit, codemode.LimitMemory, 0, "apply"},
		{"Reflect.apply of a huge array-like", false, `return Reflect.apply(Math.max, null, {length: 4e9} as any)`, codemode.CodeLimit, codemode.LimitMemory, 0, "Reflect.apply"},
		{"Reflect.construct of a huge array-like", false, `return Reflect.construct(Array, {length: 4e9} as any).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Reflect.construct"},
		{"String.raw of a huge array-like", false, `return String.raw({raw: {length: 2e9}} as any).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "String.raw"},
		{"RegExp Symbol.replace blowup", false, `const s = "a".repeat(3e4), r = "b".repeat(3e4); return (/a/g as any)[Symbol.replace](s, r).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Symbol.replace"},
		// JSON.parse and the compiler recurse in Go: a deep enough text
		// overflowed the goroutine's stack (fatal).
		{"deep JSON.parse", false, `return JSON.parse("[".repeat(5000) + "]".repeat(5000)).length`, codemode.CodeScript, "", 0, "nests deeper"},
		{"no eval", false, `return eval("1")`, codemode.CodeScript, "", 0, "eval"},
		{"no Function constructor", false, `return new Function("return 1")()`, codemode.CodeScript, "", 0, "not a constructor"},
		{"no constructor of a function", false, `return (function () {}).constructor("return 1")()`, codemode.CodeScript, "", 0, "disabled"},
		{"no constructor of an async function", false, `return (async function () {}).constructor("return 1")()`, codemode.CodeScript, "", 0, "disabled"},
		{"deeply nested source", false, strings.Repeat("{", 1000) + strings.Repeat("}", 1000), codemode.CodeLimit, codemode.LimitScript, 0, "nests"},
		// A spread ran for minutes in Go, past the wall-time limit.
		{"spread of a sparse array", false, "let a: any[] = []; a.length = 1e7; return Math.max(...a)", codemode.CodeLimit, codemode.LimitMemory, 0, "Array.prototype.values over 10000000"},
		{"for-of over a sparse array", false, "let a: any[] = []; a.length = 1e7; let n = 0; for (const x of a) n++; return n", codemode.CodeLimit, codemode.LimitMemory, 0, "Array.prototype.values"},
		{"nesting inside a template literal", false, "return `${" + strings.Repeat("(", 200) + "1" + strings.Repeat(")", 200) + "}`", codemode.CodeLimit, codemode.LimitScript, 0, "nests"},
		// Compiling 30,000 of these took 7 s, transforming 30,000 commas 11 s,
		// all before the wall-time limit could stop anything.
		{"long operator chain", false, "return " + strings.Repeat("1+", 1500) + "1", codemode.CodeLimit, codemode.LimitScript, 0, "1500 operators or commas in a row"},
		{"long operator chain over lines", false, "return 1" + strings.Repeat("\n+1", 1200), codemode.CodeLimit, codemode.LimitScript, 0, "in a row"},
		{"long run of nots", false, "return " + strings.Repeat("!", 1500) + "1", codemode.CodeLimit, codemode.LimitScript, 0, "in a row"},
		{"long comma sequence", false, "let a = 1; return (" + strings.Repeat("a,", 1200) + "1)", codemode.CodeLimit, codemode.LimitScript, 0, "in a row"},
		{"long chain in a template literal", false, "return `${" + strings.Repeat("1+", 1200) + "1}`", codemode.CodeLimit, codemode.LimitScript, 0, "in a row"},
		// flat copies the nested arrays in Go: 200 copies of a 1<<20 array
		// were a fatal out-of-memory error, and a nested sparse array
		// looped over its length.
		{"flat of copies of a big array", false, `const b = new Array(60000).fill(0); return new Array(200).fill(b).flat().length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Array.prototype.flat"},
		{"flat of a nested sparse array", false, `const b: any[] = []; b.length = 4e9; return [b].flat().length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Array.prototype.flat"},
		{"deep flat of copies", false, `let b: any = new Array(300).fill(0); for (let i = 0; i < 3; i++) b = new Array(300).fill(b); return b.flat(Infinity).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Array.prototype.flat"},
		// Each nested array is joined by its toString, in Go: each join was
		// within the limit, their sum was not (13 s and 3 GB at 1 MB).
		{"join of nested arrays", false, `const a = ["y".repeat(60000)]; return new Array(1000).fill(a).join("").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "join"},
		// The lengths a built-in reads are the ones checked: a getter or
		// a Proxy answered the check 1 and indexOf 1e12, which looped in
		// Go past every limit.
		{"indexOf of a length getter", false, `let n = 0; const o: any = {get length() { return n++ === 0 ? 1 : 1e12 }}; return Array.prototype.indexOf.call(o, 1)`, codemode.CodeScript, "", 0, "not a getter or a Proxy"},
		{"indexOf of an inherited length getter", false, `let n = 0; const o: any = Object.create({get length() { return n++ === 0 ? 1 : 1e12 }}); return Array.prototype.indexOf.call(o, 1)`, codemode.CodeScript, "", 0, "not a getter or a Proxy"},
		{"indexOf of a Proxy", false, `let n = 0; const p: any = new Proxy([], {get: (t, k) => k === "length" ? (n++ === 0 ? 1 : 1e12) : undefined}); return Array.prototype.indexOf.call(p, 1)`, codemode.CodeScript, "", 0, "not a getter or a Proxy"},
		{"concat of a length getter", false, `let n = 0; const o: any = {[Symbol.isConcatSpreadable]: true, get length() { return n++ === 0 ? 1 : 1e12 }}; return [].concat(o).length`, codemode.CodeScript, "", 0, "not a getter or a Proxy"},
		{"join whose element grows the array", false, `const a: any[] = [""]; Object.defineProperty(a, 0, {get() { a.length = 4e9; return "" }}); return a.join("").length`, codemode.CodeScript, "", 0, "changed while it was measured"},
		{"flat whose element grows a nested array", false, `const b: any[] = []; const a: any[] = [b, 0]; Object.defineProperty(a, 1, {get() { b.length = 4e9; return 0 }}); return a.flat().length`, codemode.CodeScript, "", 0, "changed while it was measured"},
		{"flat of a Proxy", false, `return [new Proxy([], {get: (t, k) => k === "length" ? 1e12 : undefined})].flat().length`, codemode.CodeScript, "", 0, "Proxy"},
		// A this that is not a string counted 0 characters.
		{"replaceAll on an object", false, `const o: any = {toString: () => "a".repeat(60000)}; return String.prototype.replaceAll.call(o, "a", "bb").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "replaceAll"},
		// The Object built-ins that list keys make a string per member in
		// one call in Go: Object.keys of "x".repeat(1<<20) or of an array of
		// 2^20 elements made a million strings (0.2 s, 80 MB) in one step.
		{"Object.keys of a long string", false, `return Object.keys("x".repeat(1 << 16)).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Object.keys of more than 4096 members"},
		{"Object.keys of a big array", false, `return Object.keys(new Array(60000).fill(0)).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Object.keys"},
		{"Object.getOwnPropertyNames of a big array", false, `return Object.getOwnPropertyNames(new Array(60000).fill(0)).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Object.getOwnPropertyNames"},
		{"Reflect.ownKeys of a big object", false, `const o: any = {}; for (let i = 0; i < 5000; i++) o["k" + i] = i; return Reflect.ownKeys(o).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Reflect.ownKeys"},
		{"Object.keys through a Proxy", false, `return Object.keys(new Proxy(new Array(60000).fill(0), {})).length`, codemode.CodeLimit, codemode.LimitMemory, 0, "Object.keys"},
		// A split by a string makes a piece per occurrence in one call:
		// "".split of 2^25 characters made 2^25 strings, 9.6 s and 1.5 GB.
		{"split into characters", false, `return ("x".repeat(1 << 16) + "x").split("").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "String.prototype.split making 65537 pieces"},
		{"split of a doubled string", false, `let s = "x,".repeat(1 << 15); s += s; return s.split(",").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "split"},
		{"split by a lone surrogate", false, `let s = "\ud83d\ude00".repeat(1 << 15); s += s; return s.split("\ude00").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "split"},
		{"JSON.parse of a long text", false, `let s = "1,".repeat(1 << 15); s += s; return JSON.parse("[" + s + "1]").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "JSON.parse of a text of 131075 characters"},
		// NFKD makes 18 characters of U+FDFA, in one call in Go: 2^22 of
		// them ran 8.8 s past a 5 s limit.
		{"normalize expanding", false, `return "\ufdfa".repeat(4000).normalize("NFKD").length`, codemode.CodeLimit, codemode.LimitMemory, 0, "String.prototype.normalize making 65537 characters or more"},
		{"toString of nested arrays", false, `const a = ["y".repeat(60000)]; return String(new Array(1000).fill([a, a]))`, codemode.CodeLimit, codemode.LimitMemory, 0, "join"},
	}
	// The first run of a process initialises the engine and the compiler.
	runScript(t, newMode(t, false), `return 1`)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The limit named must be the one that stops the script,
			// even on a slow machine or under the race detector.
			lim := testLimits
			if tt.limit == codemode.LimitWallTime {
				lim = wallLimits
			}
			out, calls := runScript(t, newModeLimits(t, tt.writes, lim), tt.script)
			if out.OK || out.Error == nil {
				t.Fatalf("script succeeded: %s", out.Render())
			}
			if out.Error.Code != tt.code || (tt.limit != "" && out.Error.Limit != tt.limit) || !strings.Contains(out.Error.Message, tt.msg) ||
				(tt.code != codemode.CodeLimit && out.Error.Limit != "") {
				t.Errorf("error = %s, want code %s limit %q message with %q", out.Render(), tt.code, tt.limit, tt.msg)
			}
			if tt.code == codemode.CodeLimit && out.Error.Limit == "" {
				t.Errorf("a limit error must name its limit: %s", out.Render())
			}
			if len(calls) != tt.calls {
				t.Errorf("%d handler calls, want %d: %v", len(calls), tt.calls, calls)
			}
		})
	}
	// The process is healthy: a normal script still runs.
	debug.FreeOSMemory()
	out, calls := runScript(t, newMode(t, false), `return (await onto.task.list({limit: 1}) as any[]).length`)
	if !out.OK || string(out.Result) != "1" || len(calls) != 1 {
		t.Errorf("after the hostile scripts: %s", out.Render())
	}
}

// TestPrototypeTampering: a script that replaces built-ins still gets
// valid op calls, and what it broke is its own.
func TestPrototypeTampering(t *testing.T) {
	script := `
Object.defineProperty(Object.prototype, "task_id", {get() { throw new Error("inherited getter ran") }, configurable: true});
(Object.prototype as any).toJSON = () => ({evil: true});
(Array.prototype as any)[Symbol.iterator] = function* () { yield "evil" };
(globalThis as any).Error = function () { throw "replaced Error" };
(JSON as any).parse = () => ({evil: true});
(Promise.prototype as any).then = function () { throw "replaced then" };
try { await onto.task.get({task_id: 7 as any}) } catch (e: any) { console.log(e.code, e.field_errors[0].path) }
const t: any = await onto.task.get({task_id: "` + ontology.DemoTaskID + `"});
console.log(t.title);
return 1;`
	out, calls := runScript(t, newMode(t, false), script)
	// Promise.prototype.then is replaced, so await itself fails: the run
	// fails, but only after the valid call ran with valid params.
	t.Logf("outcome: %s", out.Render())
	for _, c := range calls {
		p, ok := c.Params.(*ontology.GetOntoTaskDetailsParams)
		if !ok || p.TaskID != ontology.DemoTaskID {
			t.Errorf("handler called with %v", c)
		}
	}
	if out.OpCalls < 1 {
		t.Errorf("no op call made: %s", out.Render())
	}

	// Tampering with what the bindings read: own-property args only,
	// results parsed with the original JSON.parse, errors built from the
	// original Error with own properties.
	script = `
Object.defineProperty(Object.prototype, "limit", {get() { return 1e9 }, enumerable: true, configurable: true});
(JSON as any).parse = () => ({evil: true});
(globalThis as any).Error = function () { throw "replaced Error" };
Object.defineProperty(Error.prototype, "code", {set() { throw "setter ran" }, configurable: true});
let code = "";
try { await onto.task.get({task_id: 7 as any}) } catch (e: any) { code = e.code }
const r: any = await onto.task.list({project_id: "` + ontology.DemoProjectID + `"});
return {code, n: r.length, evil: r.evil === true};`
	out, calls = runScript(t, newMode(t, false), script)
	if !out.OK || string(out.Result) != `{"code":"VALIDATION_ERROR","n":3,"evil":false}` {
		t.Errorf("outcome: %s", out.Render())
	}
	if len(calls) != 1 {
		t.Fatalf("calls: %v", calls)
	}
	if p := calls[0].Params.(*ontology.ListOntoTasksParams); p.Limit != 20 {
		t.Errorf("inherited limit leaked into the args: %+v", p)
	}
}

// TestFailedRunKeepsConsole: what was logged before the failure is
// returned.
func TestFailedRunKeepsConsole(t *testing.T) {
	out, _ := runScript(t, newModeLimits(t, false, wallLimits), `console.log("step 1", {a: 1}); console.log("step 2"); while (true) {}`)
	if out.OK || out.Console != "step 1 {\"a\":1}\nstep 2\n" || out.Error.Limit != codemode.LimitWallTime {
		t.Errorf("outcome: %s", out.Render())
	}
	out, _ = runScript(t, newMode(t, false), `console.log("before"); throw new TypeError("bad thing")`)
	if out.OK || out.Console != "before\n" || out.Error.Message != "uncaught: TypeError: bad thing" || out.Error.Line != 1 {
		t.Errorf("outcome: %s", out.Render())
	}
}

// TestResultCut: a return value past the output limit is cut with a note.
func TestResultCut(t *testing.T) {
	out, _ := runScript(t, newMode(t, false), `return Array.from({length: 500}, (_, i) => ({i, name: "item " + i}))`)
	if !out.OK || len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "result cut") || len(out.Result) > testLimits.Output+64 {
		t.Errorf("outcome: %.300s notes %v", out.Render(), out.Notes)
	}
	var s string
	if err := json.Unmarshal(out.Result, &s); err != nil || !strings.HasPrefix(s, `[{"i":0,"name":"item 0"}`) {
		t.Errorf("cut result is not the start as a string: %.200s", out.Result)
	}
}

// TestNothingReturned: a script that returns nothing has no result and no
// note (an empty result was reported as cut after 0 bytes).
func TestNothingReturned(t *testing.T) {
	for _, script := range []string{`const x = 1;`, `return undefined`} {
		out, _ := runScript(t, newMode(t, false), script)
		if !out.OK || len(out.Result) != 0 || len(out.Notes) != 0 {
			t.Errorf("%s: %s notes %v", script, out.Render(), out.Notes)
		}
	}
}

// TestArrayLikeReadOnce: an array-like handed to apply is copied with its
// length read once, so a getter cannot pass the check with a small length
// and then make the built-in loop over a huge one.
// TestSpreadInterrupted: a spread into a call's arguments runs in Go, in
// time quadratic in their number (a million took 9 s, uninterrupted); the
// wall-time limit stops it within a few hundred elements.
func TestSpreadInterrupted(t *testing.T) {
	lim := wallLimits
	lim.Length = 1 << 20
	start := time.Now()
	out, _ := runScript(t, newModeLimits(t, false, lim), `const a = new Array(1 << 20).fill(0); return Math.max(...a)`)
	if out.OK || out.Error == nil || out.Error.Limit != codemode.LimitWallTime {
		t.Fatalf("outcome: %s", out.Render())
	}
	// A bound for a hang, not a speed target: under -race on two loaded
	// cores the stop took 6.9 s once.
	if d := time.Since(start); d > 60*time.Second {
		t.Errorf("stopped after %v; the limit is %v", d, lim.WallTime)
	}
}

// Array iterators still behave: spreads, for-of, destructuring, a
// partly consumed iterator, entries and keys.
func TestArrayIterators(t *testing.T) {
	out, _ := runScript(t, newMode(t, false), `
let n = 0
for (const x of [1, 2, 3]) n += x
const it = [7, 8, 9].values()
const first = it.next().value
const [a, , c] = [4, 5, 6]
return [n, first, [...it], a, c, Math.max(...[1, 5, 2]), [...[1, 2].entries()], [...["x", "y"].keys()], Array.from(new Set([1, 1, 2]))]`)
	if want := `[6,7,[8,9],4,6,5,[[0,1],[1,2]],[0,1],[1,2]]`; !out.OK || string(out.Result) != want {
		t.Errorf("outcome: %s, want result %s", out.Render(), want)
	}
}

func TestArrayLikeReadOnce(t *testing.T) {
	out, _ := runScript(t, newMode(t, false), `let n = 0; const o: any = {get length() { return n++ === 0 ? 2 : 4e9 }, 0: 5, 1: 7}; return Math.max.apply(null, o)`)
	if !out.OK || string(out.Result) != "7" {
		t.Errorf("outcome: %s", out.Render())
	}
}

// TestToolCodeArgs: tool_code's own arguments are checked. Member names
// are exact, and a member it does not take is refused by name rather than
// ignored: {"script":…,"Script":…} is not one script or the other.
func TestToolCodeArgs(t *testing.T) {
	tools := newMode(t, false).Tools()
	code, help := tools[0], tools[1]
	call := func(tool runtime.Tool, raw string) (runtime.Result, string) {
		res, err := tool.Handler(context.Background(), runtime.ToolContext{}, json.RawMessage(raw))
		if err != nil {
			t.Fatalf("%s(%s): %v", tool.Name, raw, err)
		}
		return res, runtime.RenderResult(res)
	}
	for _, raw := range []string{`{}`, `{"script":5}`, `{"script":null}`, `[]`, `null`, `"x"`} {
		if res, text := call(code, raw); res.Success || !strings.Contains(text, `tool_code takes {\"script\"`) {
			t.Errorf("%s: %s", raw, text)
		}
	}
	for raw, member := range map[string]string{
		`{"Script":"return 1"}`:                     "Script",
		`{"script":"return 1","Script":"return 2"}`: "Script",
		`{"script":"return 1","timeout":5}`:         "timeout",
	} {
		if res, text := call(code, raw); res.Success || !strings.Contains(text, `\"`+member+`\" is not an argument; tool_code takes`) {
			t.Errorf("%s: %s", raw, text)
		}
	}
	// A member sent twice: encoding/json keeps the last, a log may show
	// the first.
	for _, c := range []struct {
		tool runtime.Tool
		raw  string
	}{
		{code, `{"script":"return 1","script":"return 2"}`},
		{code, `{"script":"return 1","scr\u0069pt":"return 2"}`},
		{help, `{"path":"onto","path":"onto.task"}`},
	} {
		if res, text := call(c.tool, c.raw); res.Success || !strings.Contains(text, `was sent twice; send each member once: `+c.tool.Name+` takes`) {
			t.Errorf("%s: %s", c.raw, text)
		}
	}
	if res, text := call(code, `{"script":"return 1"}`); !res.Success {
		t.Errorf("a plain script fails: %s", text)
	}
	if res, text := call(help, `{"Path":"todo"}`); res.Success || !strings.Contains(text, `"Path" is not an argument; tool_code_help takes`) {
		t.Errorf("tool_code_help with Path: %s", text)
	}
	for _, raw := range []string{``, `null`, `{}`, `{"path":null}`, `{"path":""}`} {
		if res, text := call(help, raw); !res.Success {
			t.Errorf("tool_code_help(%s) is not the root: %s", raw, text)
		}
	}
}

// TestSyntaxErrorAtEnd: a script cut short is located at the end of its
// last line, not on a line after it (the wrapper's).
func TestSyntaxErrorAtEnd(t *testing.T) {
	for script, want := range map[string][2]int{
		`return 1 +`:               {1, 11},
		"const a = 1;\nreturn a +": {2, 11},
		"return (1":                {1, 10},
		"return 1 +\n\n":           {1, 11},
		"return {a: 1":             {1, 13},
	} {
		out, _ := runScript(t, newMode(t, false), script)
		if out.OK || out.Error.Code != codemode.CodeSyntax || out.Error.Line != want[0] || out.Error.Column != want[1] ||
			strings.Contains(out.Error.Message, `found "`) || strings.Contains(out.Error.Message, `Unexpected "`) {
			t.Errorf("%q: %s, want line %d column %d", script, out.Render(), want[0], want[1])
		}
	}
}

// TestBuiltinResults: the guarded built-ins answer as the originals do.
func TestBuiltinResults(t *testing.T) {
	tests := []struct{ script, want string }{
		{`return [[1, [2, [3, [4]]]], 5].flat()`, `[1,[2,[3,[4]]],5]`},
		{`return [[1, [2, [3, [4]]]], 5].flat(2)`, `[1,2,[3,[4]],5]`},
		{`return [[1, [2, [3, [4]]]], 5].flat(Infinity)`, `[1,2,3,4,5]`},
		{`return [[1, [2]], 5].flat(0)`, `[[1,[2]],5]`},
		{`return [[1, [2]], 5].flat({valueOf: () => 1} as any)`, `[1,[2],5]`},
		{`return [1, [2, 3], [[4]]].join("-") + String([1, [2, [3]]])`, `"1-2,3-41,2,3"`},
		{`return [[1, 2], ["a"]].toLocaleString()`, `"1,2,a"`},
		{`return Math.max(..."123") + Math.max(...new Set([4, 9])) + Math.max(...[1, 7].keys()) + [...new Map([[1, 2]])].length`, `14`},
		{`return [[..."ab"], [...new Set([1]).entries()], [...new Map([[1, 2]]).keys()], [...new Map([[1, 2]]).values()]]`, `[["a","b"],[[1,1]],[1],[2]]`},
		// join reads its separator once.
		{`let n = 0; const sep: any = {toString: () => n++ ? "x".repeat(60000) : ""}; return new Array(2000).join(sep).length + n`, `1`},
		{`return Array.prototype.join.call({length: 2, 0: "a", 1: "b"}, "-") + Array.prototype.join.call(Object.create({length: 1, 0: "c"})) + Array.prototype.join.call("de", "+")`, `"a-bcd+e"`},
		// An array-like made into arguments keeps its holes undefined.
		{`return [((a = 5) => a).apply(null, new Array(1)), ((...a: any[]) => typeof a[0]).apply(null, {length: 1} as any), Reflect.apply((a: any) => typeof a, null, [,])]`, `[5,"undefined","undefined"]`},
		// Array.from reads a length once, and an iterator method once.
		{`let n = 0; return Array.from({get length() { return n++ ? 5e6 : 0 }} as any).length + n`, `1`},
		{`let n = 0; const o: any = {get [Symbol.iterator]() { n++; return function* () { yield 7; yield 8 } }}; return [Array.from(o), n]`, `[[7,8],1]`},
		{`return [Array.from({length: 2, 0: 1}, (x: any) => typeof x), Array.from([1, , 3], (x: any) => typeof x), Array.from("ab"), Array.from(new Map([[1, 2]])), Array.from({length: 2}, function (this: any, _: any, i: number) { return this.k + i }, {k: 10})]`,
			`[["number","undefined"],["number","undefined","number"],["a","b"],[[1,2]],[10,11]]`},
		// The sizes are computed from values read once, and the built-in
		// gets them: converted again by it, a valueOf or toString answered
		// the check 1 or "" and the built-in 5e6 or a thousand characters.
		{`let n = 0; return "x".repeat({valueOf: () => n++ ? 5e6 : 1} as any).length`, `1`},
		{`let n = 0; return "x".padEnd({valueOf: () => n++ ? 5e6 : 1} as any).length`, `1`},
		{`let n = 0; return "aaaa".repeat(10000).replaceAll("a", {toString: () => n++ ? "b".repeat(1000) : ""} as any).length`, `0`},
		// String methods read their arguments once, as the built-ins do.
		{`let n = 0; const c: any = {valueOf: () => ++n}; const f: any = {toString: () => (n++, "ab")}; return ["x".repeat(c), "x".padStart(c, f), "a".concat(c, f), "aXa".replace("X", f), "aXa".replaceAll("a", f), (/a/g as any)[Symbol.replace]("aa", f), String.prototype.repeat.call({toString: () => "yz"}, 2), n]`,
			`["x","ax","a[object Object]ab","aaba","abXab","abab","yzyz",7]`},
		// Regular expressions behave with exec guarded.
		{`return ["a1b22c".replace(/\d+/g, (m: string) => "<" + m + ">"), "a,b,,c".split(/,/), "xAyA".match(/A/g), [..."k1k2".matchAll(/k(\d)/g)].map((m: any) => m[1]), /(a)\1/.test("aa"), "aaa".replace(/(a)(?=a)/g, "$1-"), "ab".search(/b/)]`,
			`["a<1>b<22>c",["a","b","","c"],["A","A"],["1","2"],true,"a-a-a",1]`},
		// The key listings answer as the built-ins do, within the limit.
		{`let e = ""; try { Reflect.ownKeys("x" as any) } catch (x: any) { e = x.name } return [Object.keys("ab"), Object.getOwnPropertyNames([1]), Reflect.ownKeys({a: 1, [Symbol.iterator]: 0}).length, Object.keys(5), Object.keys(new Proxy({b: 2}, {})), e]`,
			`[["0","1"],["0","length"],2,[],["b"],"TypeError"]`},
		// Symbol.replace is read from an object pattern only (ecma262
		// #3009): a primitive's, on its prototype, is not called.
		{`let n = 0; (String.prototype as any)[Symbol.replace] = () => { n++; return "P" }; (Number.prototype as any)[Symbol.replace] = () => { n++; return "N" }; return ["aba".replace("b", "c"), "a1a".replaceAll(1 as any, "c"), "ab".replace({[Symbol.replace]: (s: string, r: string) => s + r} as any, "!"), n]`,
			`["aca","aca","ab!",0]`},
		// split answers as the built-in does, and reads its arguments once.
		{`return ["a,b,,c".split(","), "abc".split(""), "a1b".split(1 as any), "abc".split("", 2), "a,b".split(",", -1), "a,b".split(",", 2 ** 32 + 1), "ab".split({[Symbol.split]: (s: string, l: any) => [s, l]} as any, 3), String.prototype.split.call(123, 2 as any), "".split(""), "".split(",")]`,
			`[["a","b","","c"],["a","b","c"],["a","b"],["a","b"],["a","b"],["a"],["ab",3],["1","3"],[],[""]]`},
		{`let n = 0, a = "a".repeat(40000), x = "x".repeat(1 << 16); a += a; x += x; const sep: any = {toString: () => n++ ? "" : ","}; return [a.split(sep).length, n, ("x,".repeat(30000) + "x,".repeat(10000)).split(",").length, x.split("", 10).length]`, `[1,1,40001,10]`},
		{`let n = 0; const t: any = {toString: () => n++ ? "[1,2]" : "[1]"}; return [JSON.parse(t), n, JSON.parse("[1,[2]]", (k: string, v: any) => typeof v === "number" ? v * 10 : v)]`, `[[1],1,[10,[20]]]`},
		// normalize answers as the built-in does, its form read once.
		{`let n = 0; const f: any = {toString: () => n++ ? "NFKC" : "NFD"}; let e = ""; try { "a".normalize("X") } catch (x: any) { e = x.name } return ["\u00e9".normalize("NFD").length, "e\u0301".normalize().length, "\ufdfa".normalize("NFKD").length, "\ufdfa".repeat(3000).normalize("NFKD").length, "abc".normalize("NFKC"), "\u00e9".repeat(30000).normalize(f).length, n, e, String.prototype.normalize.call(12)]`,
			`[2,1,18,54000,"abc",60000,1,"RangeError","12"]`},
		// JSON.stringify writes -0 as 0, and so does the return value.
		{`return [JSON.stringify(-0), JSON.stringify([-0]), -0]`, `["0","[0]",0]`},
	}
	m := newMode(t, false)
	for _, tt := range tests {
		out, _ := runScript(t, m, tt.script)
		if !out.OK || string(out.Result) != tt.want {
			t.Errorf("%s: %s, want result %s", tt.script, out.Render(), tt.want)
		}
	}
}

// TestErrorMessagesBounded: a message made of script values is cut, as the
// console and the return value are: a getter throwing a megabyte made a
// megabyte answer.
func TestErrorMessagesBounded(t *testing.T) {
	for _, script := range []string{
		`return {get a() { throw "x".repeat(6e4) }}`,
		`return {toJSON() { throw new Error("x".repeat(6e4)) }}`,
	} {
		out, _ := runScript(t, newMode(t, false), script)
		if out.OK || out.Error == nil || !strings.Contains(out.Error.Message, "no JSON form") || len(out.Render()) > 2*testLimits.Output {
			t.Errorf("%s: %d bytes: %.300s", script, len(out.Render()), out.Render())
		}
	}
}
