package codemode_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode"
)

// createCall is an onto.task.create call with args and the given options
// text (appended after the args, so "" is no options).
func createCall(opts string) string {
	return `onto.task.create({project_id: "` + ontology.DemoProjectID + `", title: "a"}` + opts + `)`
}

// TestCallOptions: an op call's options are undefined or an object with
// dry_run and idempotency_key only. A misspelt option (read as no option,
// a dry run became a real write) or a second argument of another kind
// rejects the call, naming what is wrong, and nothing runs.
func TestCallOptions(t *testing.T) {
	refused := []struct {
		name, call, msg string
	}{
		{"camelCase dry run", createCall(`, {dryRun: true} as any`), `no member "dryRun" (did you mean "dry_run"?)`},
		{"misspelt dry run", createCall(`, {dry_rnu: true} as any`), `did you mean "dry_run"?`},
		{"misspelt key", createCall(`, {idempotencyKey: "k"} as any`), `did you mean "idempotency_key"?`},
		{"unknown with a known one", createCall(`, {dry_run: true, force: true} as any`), `no member "force"`},
		{"non-enumerable member", createCall(`, Object.defineProperty({}, "dryRun", {value: true}) as any`), `"dryRun"`},
		{"a number", `onto.task.list(undefined, 5 as any)`, "must be an object, got 5"},
		{"a string", `onto.task.list({}, "dry_run" as any)`, "must be an object"},
		{"null", `onto.task.list({}, null as any)`, "must be an object"},
		{"an array", `onto.task.list({}, [] as any)`, "must be an object, got an array"},
		{"a function", `onto.task.list({}, (() => 1) as any)`, "must be an object, got a function"},
		{"three arguments", `(onto.task.list as any)({}, {}, {})`, "got 3 arguments"},
		{"trailing undefined", `(onto.task.list as any)({}, undefined, undefined)`, "got 3 arguments"},
		{"dry run not a boolean", createCall(`, {dry_run: "yes"} as any`), "dry_run of onto.task.create must be a boolean"},
		// Options are read once, from own data members: an inherited
		// member escaped the check of own names (an inherited dryRun ran a
		// real write), a getter or a Proxy could answer the check and the
		// read differently.
		{"inherited camelCase dry run", createCall(`, Object.create({dryRun: true}) as any`), "got one that inherits from another prototype"},
		{"inherited dry run", createCall(`, Object.create({dry_run: true}) as any`), "must be a plain object"},
		{"inherited dry run false", createCall(`, Object.create({dry_run: false}) as any`), "must be a plain object"},
		{"class instance", createCall(`, new (class { dry_run = true })() as any`), "a class instance"},
		{"class getter", createCall(`, new (class { get dry_run() { return true } })() as any`), "a class instance"},
		{"a date", createCall(`, new Date() as any`), "must be a plain object"},
		{"getter", createCall(`, {get dry_run() { return true }} as any`), "options.dry_run of onto.task.create is a getter or setter"},
		{"getter answering differently", createCall(`, ((n = 0) => ({get dry_run() { return n++ > 0 }}))() as any`), "is a getter or setter"},
		{"setter", createCall(`, {set idempotency_key(v: string) {}} as any`), "options.idempotency_key of onto.task.create is a getter or setter"},
		{"non-enumerable dry run", createCall(`, Object.defineProperty({}, "dry_run", {value: true}) as any`), "options.dry_run of onto.task.create is not enumerable"},
		{"proxy hiding its members", createCall(`, new Proxy({}, {ownKeys: () => [], get: (t, k) => k === "dry_run" ? false : undefined}) as any`), "must be a plain object, got a Proxy"},
		{"proxy whose traps throw", createCall(`, new Proxy({dry_run: true}, {get() { throw new Error("trap") }, ownKeys() { throw new Error("trap") }}) as any`), "got a Proxy"},
		{"revoked proxy", createCall(`, ((p = Proxy.revocable({}, {})) => (p.revoke(), p.proxy))() as any`), "got a Proxy"},
		{"proxy of a function", `onto.task.list({}, new Proxy(() => 1, {}) as any)`, "got a Proxy"},
		{"dry run on Object.prototype", createCall(`, ((Object.prototype as any).dry_run = true, {})`), `would inherit "dry_run" from Object.prototype`},
		{"dry run getter on Object.prototype", createCall(`, (Object.defineProperty(Object.prototype, "dry_run", {get() { throw new Error("getter ran") }, configurable: true}), {})`), `would inherit "dry_run" from Object.prototype; options are read from own members only`},
		{"key on Object.prototype", createCall(`, ((Object.prototype as any).idempotency_key = "k", {dry_run: false})`), `would inherit "idempotency_key"`},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			// Uncaught, the run fails with the reason.
			out, calls := runScript(t, newMode(t, true), `await `+tt.call+`; return "ran"`)
			if out.OK || out.Error == nil || out.Error.Code != codemode.CodeScript || !strings.Contains(out.Error.Message, tt.msg) {
				t.Errorf("outcome %s, want SCRIPT_ERROR with %q", out.Render(), tt.msg)
			}
			if len(calls) != 0 {
				t.Errorf("the handler ran: %v", calls)
			}
			// The call returns a rejected promise: catch and .catch see it.
			out, calls = runScript(t, newMode(t, true), `
let caught = "";
try { await `+tt.call+` } catch (e: any) { caught = e.message }
const viaCatch = await `+tt.call+`.then(() => "resolved", (e: any) => e.message);
return [caught, viaCatch]`)
			var got []string
			if err := json.Unmarshal(out.Result, &got); !out.OK || err != nil || len(got) != 2 || !strings.Contains(got[0], tt.msg) || got[1] != got[0] {
				t.Errorf("caught: %s", out.Render())
			}
			if len(calls) != 0 {
				t.Errorf("the handler ran: %v", calls)
			}
		})
	}
	// What stays accepted.
	for _, opts := range []string{``, `, undefined`, `, {}`, `, {dry_run: true}`, `, {dry_run: undefined}`, `, {dry_run: false, idempotency_key: "k1"}`,
		`, Object.assign(Object.create(null), {dry_run: false})`, `, Object.freeze({dry_run: false})`, `, {...{dry_run: false}}`, `, {[Symbol("s")]: 1, dry_run: false} as any`,
		`, ((Object.prototype as any).helper = 1, (Object.prototype as any).dryRun = true, {})`} {
		out, calls := runScript(t, newMode(t, true), `return (await `+createCall(opts)+` as any).title`)
		if !out.OK || string(out.Result) != `"a"` || len(calls) != 1 {
			t.Errorf("options %q: %s, %d calls", opts, out.Render(), len(calls))
		}
	}
	// An object without a prototype counts as plain: its dry_run holds.
	out, _ := runScript(t, newMode(t, true), `await `+createCall(`, Object.assign(Object.create(null), {dry_run: true})`)+`; return 1`)
	if !out.OK || !strings.Contains(strings.Join(out.Notes, "\n"), "dry run") {
		t.Errorf("prototype-less dry_run: %s", out.Render())
	}
}

// TestCallOptionsRunNoCode: reading an op call's options runs none of the
// script's code: a getter is never called, a Proxy's traps never run.
func TestCallOptionsRunNoCode(t *testing.T) {
	out, calls := runScript(t, newMode(t, true), `
let reads = 0;
const count = (v: any) => { reads++; return v };
const handler = {get: (t: any, k: any) => count(t[k]), ownKeys: (t: any) => count(Reflect.ownKeys(t)),
  getOwnPropertyDescriptor: (t: any, k: any) => count(Reflect.getOwnPropertyDescriptor(t, k)), getPrototypeOf: () => count(Object.prototype)};
for (const opts of [{get dry_run() { return count(true) }}, new Proxy({dry_run: true}, handler)]) {
  try { await `+createCall(`, opts as any`)+` } catch (e) {}
}
return reads`)
	if !out.OK || string(out.Result) != "0" || len(calls) != 0 {
		t.Errorf("outcome %s, %d calls", out.Render(), len(calls))
	}
}

// TestLoneSurrogates: a string of an op's args holding an unpaired
// surrogate (which the engine would export as U+FFFD) fails the call with
// an "encoding" field error at its JSON pointer, as the wire decoder
// refuses invalid Unicode; the handler never runs. Paired surrogates and
// a real U+FFFD pass as they are.
func TestLoneSurrogates(t *testing.T) {
	bad := []struct{ args, path string }{
		{`{search: "a\ud800"}`, "/search"},
		{`{search: "\udc00b"}`, "/search"},
		{`{search: "x", project_id: "\ud83d"}`, "/project_id"},
		{`{search: "😀".slice(1)}`, "/search"},
		{`{search: "ok", ["k\ud800"]: 1}`, "/k\ufffd"},
		{`{search: "ok", nested: {list: ["fine", "\udfff"]}}`, "/nested/list/1"},
		{`{search: new String("a\ud800b")}`, "/search"},
		{`{search: {toJSON: () => "\ud800"}}`, "/search"},
	}
	for _, tt := range bad {
		out, calls := runScript(t, newMode(t, false), `
try { await onto.task.search(`+tt.args+` as any) } catch (e: any) { return [e.code, e.field_errors[0].path, e.field_errors[0].code, e.message] }
return "ran"`)
		var got []string
		if err := json.Unmarshal(out.Result, &got); !out.OK || err != nil || len(got) != 4 ||
			got[0] != string(runtime.CodeValidation) || got[1] != tt.path || got[2] != "encoding" || !strings.Contains(got[3], "not valid Unicode") {
			t.Errorf("%s: %s, want encoding error at %q", tt.args, out.Render(), tt.path)
		}
		if len(calls) != 0 {
			t.Errorf("%s: the handler ran: %v", tt.args, calls)
		}
	}
	// A String object is its string (it was left out of the args).
	out, calls := runScript(t, newMode(t, false), `await onto.task.search({search: new String("staging") as any}); return JSON.stringify({a: new String("x")})`)
	if !out.OK || string(out.Result) != `"{\"a\":\"x\"}"` || len(calls) != 1 || calls[0].Params.(*ontology.SearchOntoTasksParams).Search != "staging" {
		t.Errorf("String object: %s %v", out.Render(), calls)
	}
	// Uncaught, the run fails with the op's envelope.
	out, _ = runScript(t, newMode(t, false), `return await onto.task.search({search: "a\ud800"})`)
	if out.OK || out.Error.OpError == nil || out.Error.OpError.Details.FieldErrors[0].Code != "encoding" {
		t.Errorf("uncaught: %s", out.Render())
	}
	out, calls = runScript(t, newMode(t, false), `await onto.task.search({search: "a\ufffd \ud83d\ude00 é"}); return 1`)
	if !out.OK || len(calls) != 1 {
		t.Fatalf("well-formed text: %s %v", out.Render(), calls)
	}
	if p := calls[0].Params.(*ontology.SearchOntoTasksParams); p.Search != "a\ufffd 😀 é" {
		t.Errorf("the handler got %q", p.Search)
	}
}

// TestUnhandledRejection: an op call that fails while the script neither
// awaits nor catches it leaves a note naming the op and its error; the
// run still succeeds. A failure the script handles, even late, does not.
func TestUnhandledRejection(t *testing.T) {
	out, _ := runScript(t, newMode(t, false), `onto.task.get({task_id: 42 as any}); return "done"`)
	if !out.OK || string(out.Result) != `"done"` || len(out.Notes) != 1 ||
		!strings.Contains(out.Notes[0], "onto.task.get failed and the script did not await or catch it: VALIDATION_ERROR") {
		t.Errorf("outcome %s", out.Render())
	}
	// A write refused (writes are off), in a chain nothing handles.
	out, _ = runScript(t, newMode(t, false), createCall(``)+`.then(() => 1); return 1`)
	if !out.OK || len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "onto.task.create failed") || !strings.Contains(out.Notes[0], "PERMISSION_DENIED") {
		t.Errorf("outcome %s", out.Render())
	}
	// A refused option, not awaited.
	out, calls := runScript(t, newMode(t, true), createCall(`, {dryRun: true} as any`)+`; return 1`)
	if !out.OK || len(out.Notes) != 1 || !strings.Contains(out.Notes[0], `"dryRun"`) || len(calls) != 0 {
		t.Errorf("outcome %s", out.Render())
	}
	// Many: the first three are described, the rest counted.
	out, _ = runScript(t, newMode(t, false), `for (let i = 0; i < 5; i++) onto.task.get({task_id: i as any}); return 1`)
	if !out.OK || len(out.Notes) != 3+1 || out.Notes[3] != "2 more promises were rejected and not awaited or caught" {
		t.Errorf("outcome %s", out.Render())
	}
	// Another promise rejected and left alone.
	out, _ = runScript(t, newMode(t, false), `Promise.reject(new Error("lost")); return 1`)
	if !out.OK || len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "Error: lost") {
		t.Errorf("outcome %s", out.Render())
	}
	for _, script := range []string{
		`try { await onto.task.get({task_id: 42 as any}) } catch (e) {} return 1`,
		`const p = onto.task.get({task_id: 42 as any}); await onto.task.list({}); try { await p } catch (e) {} return 1`,
		`onto.task.get({task_id: 42 as any}).catch(() => 0); return 1`,
		`await Promise.allSettled([onto.task.get({task_id: 42 as any}), onto.task.list({})]); return 1`,
	} {
		out, _ := runScript(t, newMode(t, false), script)
		if !out.OK || len(out.Notes) != 0 {
			t.Errorf("%s: %s", script, out.Render())
		}
	}
	// The script's own failure is its error, not a note.
	out, _ = runScript(t, newMode(t, false), `await onto.task.get({task_id: 42 as any})`)
	if out.OK || len(out.Notes) != 0 {
		t.Errorf("failed run: %s", out.Render())
	}
}

// TestResultCutKeepsMost: a return value holding one long string is cut
// inside the string, so the model sees nearly the output limit of it (it
// saw `{"a":`, "cut after 5 bytes").
func TestResultCutKeepsMost(t *testing.T) {
	for _, lim := range []int{testLimits.Output, codemode.DefaultOutput} {
		l := testLimits
		l.Output = lim
		for script, prefix := range map[string]string{
			`return {a: "x".repeat(20000), b: [1, 2, 3]}`: `{"a":"xxxx`,
			`return [1, "é".repeat(20000)]`:               `[1,"éé`,
			`return {a: "\"".repeat(20000)}`:              `{"a":"\"\"`,
		} {
			out, _ := runScript(t, newModeLimits(t, false, l), script)
			var s string
			if err := json.Unmarshal(out.Result, &s); !out.OK || err != nil || len(out.Notes) != 1 || !strings.Contains(out.Notes[0], "result cut after") {
				t.Fatalf("limit %d, %s: %.200s notes %v", lim, script, out.Render(), out.Notes)
			}
			if len(out.Result) > lim+2 || len(out.Result) < lim*9/10 {
				t.Errorf("limit %d, %s: result of %d bytes: %.100s", lim, script, len(out.Result), out.Result)
			}
			if !strings.HasPrefix(s, prefix) {
				t.Errorf("limit %d, %s: shown %.40q", lim, script, s)
			}
		}
	}
	// A logged value too long for the output is cut too, not shown as its
	// first bytes without a note.
	out, _ := runScript(t, newMode(t, false), `console.log({a: "x".repeat(20000)}); return 1`)
	if out.Error == nil || out.Error.Limit != codemode.LimitOutput || len(out.Console) < testLimits.Output*9/10 {
		t.Errorf("console: %.200s", out.Render())
	}
}

// TestArgsConversion: an op call's args are converted to JSON once, and
// that JSON is what the op validates and runs. A Proxy anywhere in them is
// refused before its traps run (its keys were read twice, once for the
// JSON and once for the Unicode check, and could differ; a revoked one
// threw out of the call instead of rejecting it), args with no JSON form
// are refused instead of read as no args, and a symbol is left out as
// JSON.stringify leaves it out (the engine handed its description over as
// a string). No handler runs for a refused call.
func TestArgsConversion(t *testing.T) {
	refused := []struct{ name, args, msg string }{
		{"proxy", `new Proxy({search: "x"}, {})`, "args of onto.task.search: a Proxy cannot be sent"},
		{"nested proxy", `{search: new Proxy({}, {})}`, "args of onto.task.search: /search: a Proxy cannot be sent"},
		{"revoked proxy", `{search: "x", tags: [((p = Proxy.revocable({}, {})) => (p.revoke(), p.proxy))()]}`, "/tags/0: a Proxy cannot be sent"},
		{"proxy changing its keys", `((n = 0) => new Proxy({search: "x"}, {
  ownKeys: (t) => n++ === 0 ? ["search", "k\ud800"] : ["search"],
  getOwnPropertyDescriptor: (t, k) => ({value: 1, enumerable: true, configurable: true}),
  get: (t: any, k) => k === "search" ? "x" : 1}))()`, "a Proxy cannot be sent"},
		{"proxy whose traps throw", `new Proxy({}, {get() { throw new Error("trap") }, ownKeys() { throw new Error("trap") }})`, "a Proxy cannot be sent"},
		{"function", `(() => ({search: "x"}))`, "args of onto.task.search: they have no JSON form (a function); pass an object"},
		{"symbol", `Symbol("staging")`, "no JSON form (a symbol)"},
		{"toJSON giving nothing", `{search: "x", toJSON: () => undefined}`, "no JSON form (its toJSON gave none)"},
	}
	for _, tt := range refused {
		t.Run(tt.name, func(t *testing.T) {
			out, calls := runScript(t, newMode(t, false), `
let caught = "";
try { await onto.task.search(`+tt.args+` as any) } catch (e: any) { caught = e.message }
return caught`)
			var got string
			if err := json.Unmarshal(out.Result, &got); !out.OK || err != nil || !strings.Contains(got, tt.msg) {
				t.Errorf("outcome %s, want a rejection with %q", out.Render(), tt.msg)
			}
			if len(calls) != 0 {
				t.Errorf("the handler ran: %v", calls)
			}
		})
	}
	// A symbol member is left out: search is missing, not "staging".
	out, calls := runScript(t, newMode(t, false), `return await onto.task.search({search: Symbol("staging")} as any)`)
	if out.OK || out.Error.OpError == nil || !strings.Contains(out.Error.Message, "needs search") || len(calls) != 0 {
		t.Errorf("symbol member: %s %v", out.Render(), calls)
	}
	// A getter is read once, and the value read is the value run.
	out, calls = runScript(t, newMode(t, false), `
let reads = 0;
await onto.task.search({get search() { return reads++ === 0 ? "staging" : 42 as any }});
return reads`)
	if !out.OK || string(out.Result) != "1" || len(calls) != 1 || calls[0].Params.(*ontology.SearchOntoTasksParams).Search != "staging" {
		t.Errorf("getter: %s %v", out.Render(), calls)
	}
	// JSON.stringify leaves symbols out too.
	out, _ = runScript(t, newMode(t, false), `return JSON.stringify({a: Symbol("x"), b: [Symbol("y")], c: 1})`)
	if !out.OK || string(out.Result) != `"{\"b\":[null],\"c\":1}"` {
		t.Errorf("JSON.stringify: %s", out.Render())
	}
}
