package mcpserver_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// Serve the quickstart family's facade and run a tool through its shortcut,
// with an in-memory client standing in for an MCP host (a real server runs
// server.Run(ctx, &mcp.StdioTransport{})).
func ExampleNewServer() {
	ctx := context.Background()
	server, err := mcpserver.NewServer("todo", "v1", quickstart.Facades(&quickstart.Store{}))
	if err != nil {
		panic(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		panic(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		panic(err)
	}
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{
		Name:      "todo",
		Arguments: json.RawMessage(`{"tool":"create_todo","args":{"title":"Renew passport"}}`),
	})
	if err != nil {
		panic(err)
	}
	fmt.Println(res.IsError)
	fmt.Println(res.Content[0].(*mcp.TextContent).Text)
	// Output:
	// false
	// created td_1
	//
	// {"id":"td_1","title":"Renew passport","done":false}
}
