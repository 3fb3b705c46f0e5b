package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serve runs the command with args on an in-memory transport (never stdin)
// and returns a connected client; the server stops when the test ends.
func serve(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, &bytes.Buffer{}, st) }()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cs.Close()
		cancel()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("server did not stop")
		}
	})
	return cs
}

func TestSurfaces(t *testing.T) {
	for _, tc := range []struct {
		args  []string
		tools []string
		call  string
		input string
		want  string
	}{
		{nil, []string{"create_todo", "delete_todo", "get_todo", "list_todos", "update_todo"},
			"create_todo", `{"title":"Renew passport"}`, "created td_1"},
		{[]string{"-surface", "gateway"}, []string{"tool_batch", "tool_exec", "tool_help", "tool_search"},
			"tool_exec", `{"op":"todo.create","args":{"title":"Renew passport"},"dry_run":false}`, `"ok":true`},
		{[]string{"-surface", "facades"}, []string{"todo"},
			"todo", `{"tool":"create_todo","args":{"title":"Renew passport"}}`, "created td_1"},
		{[]string{"-surface=facades", "-unfold"}, []string{"todo"},
			"todo", `{}`, "todo unfolded into 5 tools"},
		{[]string{"-surface", "code"}, []string{"tool_code", "tool_code_help"},
			"tool_code", `{"script":"const t = await todo.create({title: \"Renew passport\"}); return t.id"}`, `{"ok":true,"result":"td_1","op_calls":1}`},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			cs := serve(t, tc.args...)
			ctx := context.Background()
			if got := cs.InitializeResult().ServerInfo.Name; got != "todo-mcp" {
				t.Errorf("server name %q", got)
			}
			var names []string
			for tool, err := range cs.Tools(ctx, nil) {
				if err != nil {
					t.Fatal(err)
				}
				names = append(names, tool.Name)
			}
			if slices.Sort(names); !slices.Equal(names, tc.tools) {
				t.Errorf("tools %v, want %v", names, tc.tools)
			}
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tc.call, Arguments: json.RawMessage(tc.input)})
			if err != nil {
				t.Fatal(err)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			if res.IsError || !strings.Contains(text, tc.want) {
				t.Errorf("%s(%s) answered (error %v) %s", tc.call, tc.input, res.IsError, text)
			}
		})
	}
}

func TestGatewayReadOnly(t *testing.T) {
	cs := serve(t, "-surface", "gateway", "-writes=false")
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "tool_exec",
		Arguments: json.RawMessage(`{"op":"todo.create","args":{"title":"Renew passport"},"dry_run":false}`)})
	if err != nil {
		t.Fatal(err)
	}
	if text := res.Content[0].(*mcp.TextContent).Text; !strings.Contains(text, "PERMISSION_DENIED") {
		t.Errorf("write with -writes=false answered %s", text)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"-surface", "sections"}, {"-nope"}, {"extra"}} {
		var stderr bytes.Buffer
		// A usage error returns before serving: the transport is never used.
		err := run(context.Background(), args, &stderr, nil)
		if !errors.Is(err, errUsage) || !strings.Contains(stderr.String(), "-surface") {
			t.Errorf("%v: %v, stderr:\n%s", args, err, stderr.String())
		}
	}
	var stderr bytes.Buffer
	if err := run(context.Background(), []string{"-h"}, &stderr, nil); !errors.Is(err, flag.ErrHelp) {
		t.Errorf("-h: %v", err)
	}
}
