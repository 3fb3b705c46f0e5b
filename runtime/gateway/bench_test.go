package gateway

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// The benchmark tool: what a generated tool does per call (decode the
// arguments into the params struct, validate, call the typed handler) with
// a trivial handler, so the figures measure the call path, not the work.
type itemParams struct {
	ID      string `json:"id" jsonschema:"item id"`
	Verbose bool   `json:"verbose,omitempty"`
}

type itemResult struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Count int    `json:"count"`
}

func itemTool() runtime.Tool {
	decode := func(args json.RawMessage) (any, error) {
		var p itemParams
		if err := json.Unmarshal(args, &p); err != nil {
			return nil, &runtime.ValidationError{Fields: []runtime.FieldError{{Code: "type", Message: err.Error()}}}
		}
		if p.ID == "" {
			return nil, &runtime.ValidationError{Fields: []runtime.FieldError{{Path: "/id", Code: "required", Message: "id is required"}}}
		}
		return &p, nil
	}
	return runtime.Tool{
		Name: "get_item", Description: "Get an item.", Decode: decode,
		Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"verbose":{"type":"boolean"}},"required":["id"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			p, err := decode(args)
			if err != nil {
				return runtime.Result{}, err
			}
			return runtime.Result{Value: itemResult{ID: p.(*itemParams).ID, Name: "widget", Count: 3}, Success: true}, nil
		},
	}
}

const benchArgs = `{"op":"store.item.get","args":{"id":"it_42"}}`

// BenchmarkExec is tool_exec end to end as an agent loop drives it:
// runtime.Dispatch of tool_exec (envelope parse, op lookup, checks, the
// tool's decode+validate+handler, envelope build) and rendering the text
// the model reads.
func BenchmarkExec(b *testing.B) {
	g, err := New(Registry{Version: "b", Ops: []Op{{Path: "store.item.get", Tool: "get_item", Kind: runtime.OpRead}}}, []runtime.Tool{itemTool()})
	if err != nil {
		b.Fatal(err)
	}
	exec := g.Tools()[2]
	tc := runtime.NewToolContext(runtime.ContextParts{})
	ctx := context.Background()
	args := json.RawMessage(benchArgs)
	b.ReportAllocs()
	for b.Loop() {
		res, _ := runtime.Dispatch(ctx, exec, tc, args)
		if len(runtime.RenderResult(res)) == 0 {
			b.Fatal("empty answer")
		}
	}
}

// BenchmarkDirect is the same tool called directly, without the gateway:
// the cost of the tool itself.
func BenchmarkDirect(b *testing.B) {
	tool := itemTool()
	tc := runtime.NewToolContext(runtime.ContextParts{})
	ctx := context.Background()
	args := json.RawMessage(`{"id":"it_42"}`)
	b.ReportAllocs()
	for b.Loop() {
		res, _ := runtime.Dispatch(ctx, tool, tc, args)
		if len(runtime.RenderResult(res)) == 0 {
			b.Fatal("empty answer")
		}
	}
}

// mcpSession connects an in-memory client to server and returns the
// client session.
func mcpSession(b *testing.B, server *mcp.Server) *mcp.ClientSession {
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = cs.Close() })
	return cs
}

// BenchmarkMCPTyped serves the same tool with the go-sdk's typed
// mcp.AddTool (schema inferred from the structs, input validated, output
// marshalled to structured content) and calls it through an in-memory
// client/server pair.
func BenchmarkMCPTyped(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	mcp.AddTool(server, &mcp.Tool{Name: "get_item", Description: "Get an item."},
		func(_ context.Context, _ *mcp.CallToolRequest, in itemParams) (*mcp.CallToolResult, itemResult, error) {
			return nil, itemResult{ID: in.ID, Name: "widget", Count: 3}, nil
		})
	benchMCP(b, server, "get_item")
}

// BenchmarkMCPFloor is the transport floor of BenchmarkMCPTyped: a raw
// go-sdk tool that neither decodes nor validates nor marshals a value.
// BenchmarkMCPTyped minus this is the go-sdk's typed per-call overhead.
func BenchmarkMCPFloor(b *testing.B) {
	server := mcp.NewServer(&mcp.Implementation{Name: "bench", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "raw", Description: "Raw.", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "{}"}}}, nil
		})
	benchMCP(b, server, "raw")
}

func benchMCP(b *testing.B, server *mcp.Server, name string) {
	cs := mcpSession(b, server)
	ctx := context.Background()
	params := &mcp.CallToolParams{Name: name, Arguments: json.RawMessage(`{"id":"it_42"}`)}
	b.ReportAllocs()
	for b.Loop() {
		res, err := cs.CallTool(ctx, params)
		if err != nil || res.IsError {
			b.Fatal(err, res)
		}
	}
}

func BenchmarkHelpCached(b *testing.B) {
	h := newHarness(b)
	req := helpRequest{Path: "onto.task.create"}
	b.ReportAllocs()
	for b.Loop() {
		h.g.help(runtime.ToolContext{}, req)
	}
}

func BenchmarkHelpUncached(b *testing.B) {
	h := newHarness(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, fail := h.g.helpDoc("onto.task.create", false, true, false); fail != nil {
			b.Fatal(fail.Message)
		}
	}
}

func BenchmarkSearch(b *testing.B) {
	ix := NewIndex(embeddedPool(b))
	b.ReportAllocs()
	for b.Loop() {
		ix.Search("move the API spec doc under the engineering folder", 5)
	}
}
