// Package mcpserver serves toolgen tools over the Model Context Protocol with
// the official Go SDK (github.com/modelcontextprotocol/go-sdk). It is an
// adapter in its own package so that the runtime core stays free of
// dependencies.
//
// Any surface that is a []runtime.Tool can be served: the flat tools
// (Tools(h)), the gateway (Gateway(h, ...)) and the facades (Facades(h)):
//
//	server, err := mcpserver.NewServer("todo", "v1", quickstart.Gateway(store, gateway.WithWrites(true)))
//	if err != nil { ... }
//	err = server.Run(ctx, &mcp.StdioTransport{})
//
// or, to add the tools to a server you configure yourself:
//
//	err := mcpserver.Register(server, quickstart.Tools(store), mcpserver.WithBus(bus))
//
// # Definitions
//
// Each tool is registered with Server.AddTool under its own name and
// description, with its Parameters as the raw input schema: the SDK derives
// nothing by reflection and validates nothing; the generated code does both
// when the handler runs. A tool without Parameters gets {"type":"object"}
// (MCP requires an input schema). Register refuses, before adding anything,
// tools whose schema is not a JSON object of type "object" (the SDK would
// panic on them), tools with invalid names and duplicated names.
//
// # Calls
//
// A tools/call runs runtime.Dispatch with a runtime.ToolContext carrying the
// call (a call id unique within the process, the tool name, the arguments;
// absent or null arguments become {}), the event bus given with WithBus and
// the session chosen by WithSession (by default the *mcp.ServerSession of the
// calling client, whose ID identifies it). The answer is one text content
// holding runtime.RenderResult of the result, exactly what a provider adapter
// sends to a model; a failed result (handler error, validation error, panic)
// sets IsError, so the model reads the message and can correct its call. A
// handler panic never reaches the SDK: the server keeps serving.
//
// Errors that propagate through Dispatch (runtime.Propagator) expect an
// orchestrator that acts and retries the turn. An MCP server has none: the
// call answers with IsError and a text saying that the tool asked its host to
// re-render the prompt, which this server cannot do.
//
// # Sections over MCP
//
// The sections surface (Sections(h), prompt sections opened by open_sections)
// depends on exactly such a retry: open_sections returns
// prompt.VisibilityExpansionRequired and the orchestrator re-renders the
// prompt with more tools. An MCP server does not own the client's prompt, so
// serving a rendered prompt's tools offers only what is open at render time,
// and open_sections always answers with the error above. Serve the gateway or
// the facades over MCP instead; both reach every tool in band. (A prompt's
// Prompt.Tools returns every tool of its sections, which is the flat surface.)
//
// # Facades
//
// A facade unfolds by changing which tools a loop offers; over MCP that means
// changing the server's tool list and relying on notifications/tools/list_changed,
// which not every client honours. By default Register therefore adds only the
// facades themselves: a facade answers with its inner tools' usage, and the
// shortcut call {"tool":"<inner>","args":{...}} runs any tool of its subtree
// directly, with every client.
//
// With UnfoldFacades, a successful unfolding call also adds the unfolded
// tools to the server (the SDK then sends tools/list_changed to every
// connected client). The facade stays registered, so its shortcut keeps
// working for clients that ignore the notification, and nothing is ever
// removed. Tools belong to the server, not to a session: one client's
// unfolding shows the tools to every client of the same server.
package mcpserver
