package codemode_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode"
	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// TestBindingShapes: an op named like its group, an op with children,
// segments that are not identifiers and segments named like Object.prototype
// members all bind as own properties; Object.prototype is untouched.
func TestBindingShapes(t *testing.T) {
	paths := []string{"g", "g.item.get", "g.item", "g.__proto__.list", "g.constructor", "g.create-x", "g.toString"}
	var reg gateway.Registry
	var tools []runtime.Tool
	var decls tsdecl.Decls
	decls.Groups = []tsdecl.Group{{Name: "g", Ident: "g"}}
	for i, p := range paths {
		name := "t" + string(rune('a'+i))
		op := p
		tools = append(tools, runtime.Tool{Name: name, Parameters: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{Success: true, Value: op}, nil
			}})
		reg.Ops = append(reg.Ops, gateway.Op{Path: p, Tool: name, Group: "g"})
		var key []string
		if p != "g" {
			key = splitKey(p[2:])
		}
		decls.Ops = append(decls.Ops, tsdecl.Op{Path: p, Group: "g", Key: key, Sig: "(): Promise<string>"})
	}
	m, err := codemode.New(reg, tools, &decls)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(context.Background(), runtime.ToolContext{}, `
return [await g(), await g.item(), await g.item.get(), await (g as any)["__proto__"].list(), await (g as any).constructor(),
  await (g as any)["create-x"](), await (g as any).toString(), typeof ({} as any).list, Object.getPrototypeOf(g.item) === Function.prototype]`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `["g","g.item","g.item.get","g.__proto__.list","g.constructor","g.create-x","g.toString","undefined",true]`; !out.OK || string(out.Result) != want {
		t.Errorf("outcome %s\nwant result %s", out.Render(), want)
	}
}

func splitKey(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

type propagating struct{}

func (propagating) Error() string             { return "expand sections" }
func (propagating) PropagateThroughDispatch() {}

// TestPropagatingError: a handler error that must propagate (as
// open_sections' does) ends the script and comes out of Run and of
// tool_code's handler untouched.
func TestPropagatingError(t *testing.T) {
	reg := gateway.Registry{Ops: []gateway.Op{{Path: "g.x", Tool: "tx", Group: "g"}}}
	tools := []runtime.Tool{{Name: "tx", Parameters: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{}, propagating{}
		}}}
	decls := tsdecl.Decls{Groups: []tsdecl.Group{{Name: "g", Ident: "g"}}, Ops: []tsdecl.Op{{Path: "g.x", Group: "g", Key: []string{"x"}, Sig: "(): Promise<unknown>"}}}
	m, err := codemode.New(reg, tools, &decls)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(context.Background(), runtime.ToolContext{}, `try { await g.x() } catch (e) {} return "went on"`)
	if _, ok := err.(propagating); !ok || out.OK {
		t.Errorf("err = %v, outcome %s", err, out.Render())
	}
	res, err := m.Tools()[0].Handler(context.Background(), runtime.ToolContext{}, json.RawMessage(`{"script":"await g.x()"}`))
	if _, ok := err.(propagating); !ok || res.Success {
		t.Errorf("tool_code: err = %v, result %+v", err, res)
	}
}

// TestRoundedIntegers: an op result holding an integer beyond ±2^53 is
// read by the script as JSON.parse reads it, a float64, rounded
// (9007199254740993 as 9007199254740992): the value stays the number its
// declaration promises, and the outcome says which op's integers were
// rounded, once per op, so that the model does not pass a rounded ID on
// as the op's. Integers a script shows with the op's digits (2^53, 1e20
// written out), fractions and strings of digits are not noted.
func TestRoundedIntegers(t *testing.T) {
	results := map[string]string{
		"g.big":   `{"id":9007199254740993,"s":"9007199254740993"}`,
		"g.neg":   `[-12345678901234567891]`,
		"g.exact": `{"a":9007199254740992,"b":100000000000000000000,"d":0.30000000000000004,"e":1e300,"f":"12345678901234567891","g":-9007199254740992}`,
	}
	var reg gateway.Registry
	var tools []runtime.Tool
	decls := tsdecl.Decls{Groups: []tsdecl.Group{{Name: "g", Ident: "g"}}}
	for _, p := range []string{"g.big", "g.neg", "g.exact"} {
		res := results[p]
		name := "t" + p[2:]
		tools = append(tools, runtime.Tool{Name: name, Parameters: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{Success: true, Value: json.RawMessage(res)}, nil
			}})
		reg.Ops = append(reg.Ops, gateway.Op{Path: p, Tool: name, Group: "g"})
		decls.Ops = append(decls.Ops, tsdecl.Op{Path: p, Group: "g", Key: []string{p[2:]}, Sig: "(): Promise<unknown>"})
	}
	m, err := codemode.New(reg, tools, &decls)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Run(context.Background(), runtime.ToolContext{}, `
const a: any = await g.big(), b: any = await g.big(), c: any = await g.neg(), d: any = await g.exact();
return [a.id, typeof a.id, a.s, b.id === a.id, c[0], d.a]`)
	if err != nil {
		t.Fatal(err)
	}
	if want := `[9007199254740992,"number","9007199254740993",true,-12345678901234567000,9007199254740992]`; !out.OK || string(out.Result) != want {
		t.Errorf("outcome %s\nwant result %s", out.Render(), want)
	}
	want := []string{
		"g.big returned integers beyond ±2^53, which a script reads rounded (9007199254740993 as 9007199254740992): their last digits are not the op's",
		"g.neg returned integers beyond ±2^53, which a script reads rounded (-12345678901234567891 as -12345678901234567000): their last digits are not the op's",
	}
	if len(out.Notes) != len(want) || out.Notes[0] != want[0] || out.Notes[1] != want[1] {
		t.Errorf("notes %q\nwant %q", out.Notes, want)
	}
}
