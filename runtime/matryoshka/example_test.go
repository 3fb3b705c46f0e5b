package matryoshka_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
)

func echo(name, params string) runtime.Tool {
	return runtime.Tool{Name: name, Description: "Runs " + name + ".", Parameters: json.RawMessage(params),
		Handler: func(_ context.Context, _ runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Message: name + " got " + string(args)}, nil
		}}
}

// A facade over a group unfolds into its inner tools; the toolbox puts them
// where the facade was.
func ExampleFacade() {
	files := matryoshka.Facade("file_operations", "File operations. Invoke to reveal them.", []runtime.Tool{
		echo("read_file", `{"type":"object","properties":{"path":{"type":"string"}},"required":["path"]}`),
		echo("write_file", `{"type":"object","properties":{"path":{"type":"string"},"text":{"type":"string"}},"required":["path","text"]}`),
	}, matryoshka.Category("read", "read_file"), matryoshka.Category("write", "write_file"))

	tb, _ := matryoshka.NewToolbox(echo("ping", `{}`), files)
	call := runtime.ToolCall{ID: "1", Name: "file_operations", Args: json.RawMessage(`{"category":"write"}`)}
	res, _ := runtime.Dispatch(context.Background(), files, runtime.NewToolContext(runtime.ContextParts{Call: call}), call.Args)
	tb.Apply(matryoshka.Unfold{}.Evaluate(matryoshka.InjectionContext{Toolbox: tb, Call: call, Result: res}))

	fmt.Println(runtime.RenderResult(res))
	fmt.Println(tb.Names())

	// Clients that never refresh their tool list call through the facade.
	res, _ = runtime.Dispatch(context.Background(), files, runtime.ToolContext{}, json.RawMessage(`{"tool":"read_file","args":{"path":"a.txt"}}`))
	fmt.Println(res.Message)
	// Output:
	// file_operations unfolded into 1 "write" tool:
	// - write_file(path: string, text: string) — Runs write_file.
	// If these tools are not offered to you, call file_operations with {"tool": "<name>", "args": {...}} to run one directly.
	// [ping write_file]
	// read_file got {"path":"a.txt"}
}
