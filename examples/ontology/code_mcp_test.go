package ontology_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime/agent/agenttest"
	"github.com/toolgen-go/toolgen/runtime/codemode"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// TestCodeOverMCP: the code surface served over MCP like any other: two
// tools listed, the three-op script run by tools/call, the op handlers'
// ToolInvoked events on the server's bus.
func TestCodeOverMCP(t *testing.T) {
	ctx := context.Background()
	rec := agenttest.NewRecorder()
	server, err := mcpserver.NewServer("ontology", "v1", ontology.Code(ontology.NewStore(), codemode.WithWrites(true)), mcpserver.WithBus(rec.Bus()))
	if err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "host", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 2 || list.Tools[0].Name != codemode.CodeTool || list.Tools[1].Name != codemode.HelpTool {
		t.Fatalf("tools: %+v", list.Tools)
	}
	args, _ := json.Marshal(map[string]string{"script": threeOps(t)})
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: codemode.CodeTool, Arguments: json.RawMessage(args)})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if o := decodeOutcome(t, text); res.IsError || !o.OK || o.OpCalls != 3 {
		t.Errorf("isError %v: %s", res.IsError, text)
	}
	rec.Expect(t, searchStaging, getStaging, doneStaging)
}
