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
//	err = mcpserver.ServeStdio(ctx, server)
//
// or, to add the tools to a server you configure yourself:
//
//	err := mcpserver.Register(server, quickstart.Tools(store), mcpserver.WithBus(bus))
//
// # Transports
//
// The caller chooses: ServeStdio(ctx, server) for hosts that spawn the
// server, or ServeHTTP / ListenAndServeHTTP for the streamable HTTP
// transport (the SDK's handler) at a path, "/mcp" by default. Both stop
// gracefully when ctx is done: HTTP stops accepting, ends clients' event
// streams at once, lets calls in flight finish (HTTPOptions.ShutdownTimeout)
// and returns nil. The HTTP handler refuses browsers' cross-site requests
// (and, by the SDK, DNS-rebound requests to localhost) and closes sessions
// idle for HTTPOptions.SessionTimeout (30 minutes by default). It bounds
// what a client can hold: a request's body must arrive within BodyTimeout,
// each write to it complete within WriteTimeout, at most MaxSessions
// sessions are open at once, and ServeHTTP closes connections idle for
// IdleTimeout (see HTTPOptions for the defaults). HTTPOptions.AllowedHosts
// refuses requests naming another host, which a server on a private
// network address needs against DNS rebinding.
//
// On stdio (StdioTransport, NewLineTransport) a line that is not a JSON-RPC
// 2.0 message — not JSON, no "jsonrpc":"2.0", an id of the wrong type, an
// empty batch, over MaxLineLength — is answered with a JSON-RPC error
// (-32700 or -32600) and the session goes on; the SDK's own stdio
// transport stops reading there, and the server exits. A batch (protocol
// versions before 2025-06-18) is served a message at a time and answered
// with one array, an answer per request in the batch's order: an item
// that is not a message, or a request whose id is taken, gets an error
// there and the others are served (the SDK's batch handling ended or
// stalled the session on a repeated id or on notifications in a batch).
// An id that is neither a string nor a 64-bit integer (1.5, 1e3, 2^64),
// and a request's null id, are refused with -32600 on stdio and with
// HTTP 400 and that error over HTTP: the SDK read 1.5 as 1, the id of
// another request, and a null id as a notification left unanswered. Over
// HTTP, so is a batch giving two requests one id: the SDK answered one
// and dropped the other. A
// request the client cancels (notifications/cancelled) is not answered,
// and its id stays taken until its handler returns: a request reusing it
// before then is refused instead of getting the cancelled call's answer.
// When the input ends (the client closes it, or a file of requests piped
// in is read to its end), every request read is still answered, those
// running finishing first, and then Run returns nil: the SDK took the end
// of its input as the end of the session and dropped every answer not
// written yet, often all of them. A call the server makes to the client
// meanwhile fails with mcp.ErrConnectionClosed. The wait is bounded:
// after a grace period (WithDrainTimeout, 10 s by default) the requests
// still running are abandoned unanswered, their contexts cancelled, a
// line on the log (WithStdioLog, stderr by default) says how many and
// which, and the session ends; a handler that ignored its context kept
// the process alive after its client had gone. Server.Run still waits
// for such a handler to return (the SDK waits for every handler);
// ServeStdio does not, and also bounds its wait after a stop through its
// context the same way. Pass those options to ServeStdio, StdioTransport
// or NewLineTransport.
//
// A request for a method the server does not handle is answered with
// -32601 (method not found) and its id on both transports; over HTTP with
// status 200 and a JSON body (the SDK refused it with HTTP 400 and a line
// of text), and a notification of such a method is accepted (202) and not
// answered. So are the other messages the SDK refuses over HTTP before
// dispatching them: a request for a notification method, a request
// without the params its method requires, and one whose id a request of
// the session not answered yet has, are answered with -32600 (invalid
// request) and their ids, in the words of the stdio transport; a
// notification of a request method, or without its params, is accepted
// and ignored, as on stdio. Which methods a server handles is the SDK's
// to say (the standard ones, and those added with
// mcp.AddReceivingCustomMethod): this package keeps no list of its own.
// A request sent before initialize, other than ping (and the few more the
// SDK serves then), is answered with -32600, its id and a message saying
// to send initialize first (the SDK's error had code 0); over HTTP, where
// such a request is one without a session (no Mcp-Session-Id header) to a
// server with sessions, with status 400, as MCP asks. A second initialize
// request in a session is answered with -32600 (invalid request), its id
// and a message saying that the session is already initialized (the SDK's
// error had code 0), on servers built by NewServer or NewSectionsServer or
// given tools with Register.
//
// # Definitions
//
// Each tool is registered with Server.AddTool under its own name, title and
// description, with its Parameters as the raw input schema: the SDK derives
// nothing by reflection and validates nothing; the generated code does both
// when the handler runs. A tool without Parameters gets {"type":"object"}
// (MCP requires an input schema). Register refuses, before adding anything,
// tools whose schema is not a JSON object of type "object" (the SDK would
// panic on them), tools whose schemas are not UTF-8 (the SDK would send
// them as they are), tools with invalid names and duplicated names.
//
// runtime.Tool.Annotations become the MCP annotations: generated tools
// carry readOnlyHint from their op's kind, destructiveHint and
// idempotentHint from the verb of write ops, openWorldHint and the title
// when the definitions or the manifest say so (toolgen.yaml ops.<op>.title
// and ops.<op>.annotations override each). tool_help, tool_search and
// open_sections (by whatever name the prompt gives it) are read-only. A
// tool whose ResultSchema is an object schema gets it as outputSchema.
//
// # Calls
//
// A tools/call runs runtime.Dispatch with a runtime.ToolContext carrying the
// call (a call id unique within the process, the tool name, the arguments;
// absent or null arguments become {}; arguments that are not a JSON object
// are refused as the call's error, before the handler), the event bus
// given with WithBus and the session chosen by WithSession (by default the
// *mcp.ServerSession of the calling client, whose ID identifies it). The answer is one text content
// holding runtime.RenderResult of the result, exactly what a provider adapter
// sends to a model, plus the value as structuredContent when it is a JSON
// object (a tool with an output schema that returns anything else answers
// with an error result, as clients reject a success without it). When a
// generated tool accepted and dropped arguments its schema does not
// declare (runtime.IgnoredArgs), a second text content says so ("note:
// "per_pag" is not an argument of search_code and was ignored (did you
// mean "perPage"?)"); the first stays as rendered. A failed
// result (handler error, validation error, gateway envelope with ok false)
// sets isError and carries the message, so the model reads it and can
// correct its call; none is a protocol error. A panic, in the handler or
// while rendering its value, never reaches the SDK: the call is an error
// result and the server keeps serving.
//
// Errors that propagate through Dispatch (runtime.Propagator) expect an
// orchestrator that acts and retries the turn. An MCP server has none: the
// call answers with isError and a text saying that the tool asked its host to
// re-render the prompt, which this server cannot do — except on a sections
// server, below.
//
// # Sections over MCP
//
// Decision: the sections surface is served by NewSectionsServer. An MCP
// server does not own the client's prompt, so the rendered prompt — full
// sections and the summaries of the others, with the open_sections hint —
// becomes the server's instructions (hosts show them to the model at
// initialization), and the tools are those of the sections shown in full
// plus open_sections. open_sections opens sections on the server itself:
// it re-renders the prompt with them opened, adds the tools that became
// visible (the SDK sends notifications/tools/list_changed) and answers with
// the opened sections' re-rendered text and the names of their tools
// (numbered as in the instructions, subsections included), so a model whose
// client ignores the notification still reads the sections and can call
// the tools by name. The rest of the prompt is not sent again, so opening
// every section one by one answers about the prompt's size in all, not
// the prompt once per opening. Nothing is closed again, and open_sections
// accepts every section the instructions show summarized for as long as
// the server runs: a section already opened (by another session of a
// shared server, or in an earlier conversation on a connection the host
// keeps) is answered with its text again, and open_sections stays listed
// once every section is open, since the instructions still name it.
// Sections were not made MCP prompts or resources: those are chosen by the
// user in most hosts, not by the model, so they cannot stand in for
// open_sections.
//
// # Facades
//
// A facade unfolds by changing which tools a loop offers; over MCP that
// means changing the server's tool list. By default a successful unfolding
// call adds the unfolded tools to the server (the SDK then sends
// notifications/tools/list_changed). Not every client honours the
// notification, so the facade stays registered: its answer lists its inner
// tools' usage and its shortcut call {"tool":"<inner>","args":{...}} runs
// any tool of its subtree directly, with every client. Nothing is ever
// removed. Tools belong to the server, not to a session: over HTTP, give
// ServeHTTP a function that builds a server per session so that one
// client's unfolding is not shown to the others. FoldedFacades keeps the
// tool list fixed.
package mcpserver
