// Command ontology-mcp serves the BuildOS ontology tool family
// (examples/ontology) over the Model Context Protocol, backed by SQLite.
//
// Usage:
//
//	go run ./examples/ontology/cmd/ontology-mcp [--db FILE] [--seed] [--surface flat|gateway|facades|sections] [--allow-writes] [--http ADDR]
//
// By default it speaks MCP over stdin and stdout (for hosts that spawn
// their servers); with --http it serves the streamable HTTP transport at
// http://ADDR/mcp. --db names the SQLite database, created and migrated
// when needed (--seed adds the demo project when missing); without --db
// the server runs on a temporary database seeded with the demo project
// and deleted on exit. --surface chooses how the tools are offered:
// every tool (flat, the default), the four gateway tools (tool_help,
// tool_search, tool_exec, tool_batch), one facade per group, or the
// prompt sections (summaries as instructions, opened by open_sections).
// Writes fail with PERMISSION_DENIED unless --allow-writes is given.
// SIGINT and SIGTERM stop the server gracefully.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stderr)
	stop()
	os.Exit(code)
}

const version = "v1"

const instructions = "Tools over a BuildOS project ontology: projects, tasks, goals, plans, documents in a tree, " +
	"milestones, risks, requirements and the edges between them. Search before creating; ids are UUIDs."

// run parses args, opens the database and serves until ctx is done or the
// client goes away; it returns the exit code.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	fs := flag.NewFlagSet("ontology-mcp", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "", "SQLite database `file` (default: a temporary database with the demo project)")
	seed := fs.Bool("seed", false, "add the demo project to --db when it is missing")
	surface := fs.String("surface", "flat", "tool surface: flat, gateway, facades or sections")
	allowWrites := fs.Bool("allow-writes", false, "allow tools that change the ontology")
	httpAddr := fs.String("http", "", "serve streamable HTTP at `addr` (path /mcp) instead of stdio")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0 // -h asked for the usage it printed
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "ontology-mcp: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	switch *surface {
	case "flat", "gateway", "facades", "sections":
	default:
		fmt.Fprintf(stderr, "ontology-mcp: unknown surface %q (flat, gateway, facades or sections)\n", *surface)
		return 2
	}

	path := *dbPath
	if path == "" {
		dir, err := os.MkdirTemp("", "ontology-mcp-")
		if err != nil {
			fmt.Fprintln(stderr, "ontology-mcp:", err)
			return 1
		}
		defer os.RemoveAll(dir)
		path, *seed = filepath.Join(dir, "ontology.db"), true
	}
	store, err := ontology.OpenStore(path)
	if err == nil && *seed {
		err = store.Seed()
	}
	if err != nil {
		fmt.Fprintln(stderr, "ontology-mcp:", err)
		return 1
	}
	defer store.Close()
	store.SetReadOnly(!*allowWrites)

	newServer, err := servers(store, *surface, *allowWrites)
	if err == nil {
		_, err = newServer()
	}
	if err != nil {
		fmt.Fprintln(stderr, "ontology-mcp:", err)
		return 1
	}
	if *httpAddr == "" {
		s, _ := newServer()
		if err := mcpserver.ServeStdio(ctx, s); err != nil && !errors.Is(err, io.EOF) {
			fmt.Fprintln(stderr, "ontology-mcp:", err)
			return 1
		}
		return 0
	}
	ln, err := net.Listen("tcp", *httpAddr)
	if err != nil {
		fmt.Fprintln(stderr, "ontology-mcp:", err)
		return 1
	}
	fmt.Fprintf(stderr, "ontology-mcp: serving %s on http://%s/mcp (database %s)\n", *surface, ln.Addr(), path)
	// One server per session: a facade or section one client opens is not
	// shown to the others.
	err = mcpserver.ServeHTTP(ctx, ln, func(*http.Request) *mcp.Server {
		s, _ := newServer()
		return s
	}, mcpserver.HTTPOptions{Path: "/mcp"})
	if err != nil {
		fmt.Fprintln(stderr, "ontology-mcp:", err)
		return 1
	}
	return 0
}

// server builds the MCP server of one surface over store.
func server(store *ontology.Store, surface string, writes bool) (*mcp.Server, error) {
	mk, err := servers(store, surface, writes)
	if err != nil {
		return nil, err
	}
	return mk()
}

// servers builds a surface's tools once (the gateway's search index takes
// tens of milliseconds) and returns a function making a server over them,
// called once per session.
func servers(store *ontology.Store, surface string, writes bool) (func() (*mcp.Server, error), error) {
	opts := []mcpserver.Option{mcpserver.WithServerOptions(&mcp.ServerOptions{Instructions: instructions})}
	var tools []runtime.Tool
	switch surface {
	case "gateway":
		tools = ontology.Gateway(store, gateway.WithWrites(writes), gateway.WithIdempotencyStore(store.IdempotencyStore()))
	case "facades":
		tools = ontology.Facades(store)
	case "sections":
		p, err := prompt.New("ontology", "tools", "", ontology.Sections(store)...)
		if err != nil {
			return nil, err
		}
		return func() (*mcp.Server, error) { return mcpserver.NewSectionsServer("ontology", version, p, nil) }, nil
	default:
		tools = ontology.Tools(store)
	}
	return func() (*mcp.Server, error) { return mcpserver.NewServer("ontology", version, tools, opts...) }, nil
}
