package gatewaytest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/gateway/gatewaytest"
)

// greetTool stands for a generated tool: it needs a name.
var greetTool = runtime.Tool{
	Name:       "greet",
	Parameters: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`),
	Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
		var p struct{ Name string }
		if err := json.Unmarshal(args, &p); err != nil {
			return runtime.Result{}, err
		}
		return runtime.OK("hello "+p.Name, "").Untyped(), nil
	},
}

var greetRegistry = gateway.Registry{
	Groups: []gateway.Group{{Name: "demo", Summary: "Demo tools."}},
	Ops: []gateway.Op{{Path: "demo.greet", Tool: "greet", Description: "Greet someone.", Group: "demo", Kind: runtime.OpRead,
		Parameters: greetTool.Parameters}},
}

// printTB stands in for the *testing.T of a test: it prints failures.
type printTB struct{ testing.TB }

func (printTB) Helper()                           {}
func (printTB) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }

// exec calls tool_exec as a model would and returns the text it reads.
func exec(tools []runtime.Tool, args string) string {
	res, _ := runtime.Dispatch(context.Background(), runtime.Pick(tools, gateway.ExecTool)[0],
		runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(args))
	return runtime.RenderResult(res)
}

func Example() {
	tools, err := gateway.Tools(greetRegistry, []runtime.Tool{greetTool})
	if err != nil {
		panic(err)
	}
	var t testing.TB = printTB{} // in a test: t *testing.T

	// A call without the required argument fails and points to the op's help.
	e := gatewaytest.ExpectFail(t, exec(tools, `{"op":"demo.greet","args":{}}`), "demo.greet", runtime.CodeValidation)
	fmt.Println(e.Details.Required)

	env := gatewaytest.ExpectOK(t, exec(tools, `{"op":"demo.greet","args":{"name":"Ada"}}`), "demo.greet", "hello Ada")
	fmt.Println(string(env.Result))

	// A result lacking an expected substring fails the test.
	gatewaytest.ExpectOK(t, exec(tools, `{"op":"demo.greet","args":{"name":"Bob"}}`), "demo.greet", "hello Ada")
	// Output:
	// [name]
	// "hello Ada"
	// FAIL: demo.greet result lacks "hello Ada": "hello Bob"
}
