// Command todo-mcp serves the quickstart todo tools over MCP on stdin and
// stdout, with an in-memory store that lives as long as the process.
//
//	todo-mcp [-surface flat|gateway|facades|code] [-writes=false] [-unfold]
//
// -surface picks what the client sees: flat (the five todo tools, the
// default), gateway (tool_help, tool_search, tool_exec, tool_batch; -writes=false
// refuses create, update and delete) or facades (one "todo" tool that lists
// the others and runs them with {"tool":"create_todo","args":{...}}; -unfold
// also adds the listed tools to the server and announces them with
// tools/list_changed, for clients that honour it) or code (tool_code runs a
// TypeScript script calling the ops, tool_code_help shows their
// declarations; -writes=false refuses the write ops). The sections surface is not
// offered: it needs an orchestrator that re-renders the prompt, which an MCP
// server is not (see runtime/mcpserver).
//
// Install it and add it to an MCP client's configuration (Claude Desktop's
// claude_desktop_config.json, a project's .mcp.json, Cursor's mcp.json, ...):
//
//	go install github.com/toolgen-go/toolgen/examples/quickstart/cmd/todo-mcp@latest
//
//	{
//	  "mcpServers": {
//	    "todo": {
//	      "command": "todo-mcp",
//	      "args": ["-surface", "gateway"]
//	    }
//	  }
//	}
//
// From a clone, "command": "go" with "args": ["run",
// "./examples/quickstart/cmd/todo-mcp", "-surface", "gateway"] and "cwd" set
// to the clone works too. Diagnostics go to stderr; stdout carries only the
// protocol.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/codemode"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

const version = "v0.1.0"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stderr, nil)
	switch {
	case errors.Is(err, flag.ErrHelp):
	case errors.Is(err, errUsage):
		os.Exit(2)
	case err != nil && !errors.Is(err, context.Canceled):
		fmt.Fprintln(os.Stderr, "todo-mcp:", err)
		os.Exit(1)
	}
}

var errUsage = errors.New("usage error")

// run parses args, builds the server and serves it on transport (stdin
// and stdout when nil) until the client disconnects or ctx ends.
func run(ctx context.Context, args []string, stderr io.Writer, transport mcp.Transport) error {
	server, err := newServer(args, stderr)
	if err != nil {
		return err
	}
	if transport == nil {
		// Bounded at the end of the input: requests still running after
		// mcpserver.DefaultDrainTimeout are cancelled and named on stderr.
		return mcpserver.ServeStdio(ctx, server)
	}
	return server.Run(ctx, transport)
}

// newServer parses args and returns the server they describe.
func newServer(args []string, stderr io.Writer) (*mcp.Server, error) {
	fs := flag.NewFlagSet("todo-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	surface := fs.String("surface", "flat", "tool surface: flat, gateway, facades or code")
	writes := fs.Bool("writes", true, "gateway: allow create, update and delete")
	unfold := fs.Bool("unfold", false, "facades: add unfolded tools to the server and send tools/list_changed")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		return nil, errUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "todo-mcp: unexpected argument %q\n", fs.Arg(0))
		fs.Usage()
		return nil, errUsage
	}
	store := &quickstart.Store{}
	var (
		tools []runtime.Tool
		opts  []mcpserver.Option
	)
	switch *surface {
	case "flat":
		tools = quickstart.Tools(store)
	case "gateway":
		tools = quickstart.Gateway(store, gateway.WithWrites(*writes))
	case "facades":
		tools = quickstart.Facades(store)
		if *unfold {
			opts = append(opts, mcpserver.UnfoldFacades())
		} else {
			opts = append(opts, mcpserver.FoldedFacades())
		}
	case "code":
		tools = quickstart.Code(store, codemode.WithWrites(*writes))
	default:
		fmt.Fprintf(stderr, "todo-mcp: -surface %q: want flat, gateway, facades or code\n", *surface)
		fs.Usage()
		return nil, errUsage
	}
	opts = append(opts, mcpserver.WithServerOptions(&mcp.ServerOptions{
		Instructions: "Track the user's todo items: list, create, update and delete them.",
	}))
	return mcpserver.NewServer("todo-mcp", version, tools, opts...)
}
