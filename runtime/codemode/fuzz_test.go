package codemode_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode"
)

// FuzzScript runs arbitrary script text: every run ends with an outcome
// (never a panic or a hang), a failed one says why, and the answer is
// valid JSON.
func FuzzScript(f *testing.F) {
	for _, s := range []string{
		`return 1`,
		`const r = await onto.task.list({limit: 2}); console.log(r); return r`,
		`while (true) {}`,
		`function f(): number { return f() } f()`,
		`"x".repeat(1e9)`,
		`throw {a: 1}`,
		`await onto.task.get({task_id: 1 as any})`,
		`await onto.task.update({task_id: "x"})`,
		`}); (async function () {`,
		"const a: Array<string> = [`${1}`]; return a",
		`import x from "y"`,
		"\x00\xff*/",
		`"ab".repeat(20).replace(/a/g, () => "b".repeat(60000))`,
		`let x: any = []; for (let i = 0; i < 300; i++) x = [x]; return String(x)`,
		`return /^(a+)+\1b$/.test("a".repeat(12))`,
		`Object.defineProperty(Object.prototype, "then", {get() { throw 1 }}); return await onto.task.list({})`,
		`return ["é".replaceAll("", "$&$'"), "a1b".replace(/(\d)/g, "<$1$<x>$2>"), "abc".replace(/b/, 5 as any)]`,
		`const re: any = /a/g; let n = 0; re.exec = () => n++ < 3 ? {0: "", 1: "x", index: 9, length: 2, groups: null} : null; return "ab".replace(re, "$1$<g>")`,
		`const o: any = {}; for (let i = 0; i < 9; i++) o[i * 1e6] = i; return [Object.entries(o), Object.values([, 1, , 2])]`,
	} {
		f.Add(s)
	}
	m, err := codemode.New(ontology.Registry, ontology.Tools(ontology.NewStore()), &ontology.CodeDeclarations,
		codemode.WithLimits(codemode.Limits{WallTime: 50 * time.Millisecond, OpCalls: 4, Output: 1024, Script: 2048, CallDepth: 32, Memory: 64 << 20, Length: 1 << 14}))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, script string) {
		hang := time.AfterFunc(10*time.Second, func() { panic(fmt.Sprintf("run did not end: %q", script)) })
		defer hang.Stop()
		out, err := m.Run(context.Background(), runtime.ToolContext{}, script)
		if err != nil {
			t.Fatalf("propagating error: %v", err)
		}
		if out == nil || (!out.OK && out.Error == nil) || (out.OK && out.Error != nil) {
			t.Fatalf("incoherent outcome: %+v", out)
		}
		if out.Error != nil && out.Error.Code == string(runtime.CodeInternal) && out.Error.Op == "" {
			t.Fatalf("the engine failed: %s", out.Render())
		}
		if out.Error != nil && out.Error.Code == codemode.CodeLimit && out.Error.Limit == "" {
			t.Fatalf("limit error without its name: %s", out.Render())
		}
		if !json.Valid([]byte(out.Render())) {
			t.Fatalf("answer is not JSON: %s", out.Render())
		}
		if len(out.Console) > 1024 {
			t.Fatalf("console past the limit: %d bytes", len(out.Console))
		}
	})
}
