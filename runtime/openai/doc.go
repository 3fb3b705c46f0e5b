// Package openai connects toolgen surfaces to OpenAI's Chat Completions and
// Responses APIs through the official SDK (github.com/openai/openai-go/v3).
//
// Data flow: any surface's []runtime.Tool (flat Tools(h), Gateway(h),
// Facades(h), a prompt's section tools, a deferred.Surface) → ChatTools or
// ResponseTools → the SDK's tool params. Chat and Responses implement
// agent.Model: each turn they send the conversation with the tools the loop
// offers (so facades unfolding and sections opening show in the next
// request's tool list) and return the model's function calls; tool
// messages go back as role "tool" messages (Chat) or function_call_output
// items (Responses).
//
// # Deferred loading
//
// Responses' WithDeferred sends the tools of a deferred.Surface as one
// namespace per op group whose functions carry defer_loading, ungrouped
// ones as deferred top-level functions, and adds the hosted tool_search
// tool. OpenAI runs the search; its tool_search_call and tool_search_output
// items, like every other output item, are sent back verbatim
// (agent.Message.Native). A function named as the surface's search tool
// (Surface.SearchName: tool_search, unless a tool of the family has that
// name) among the offered tools (the surface's own SearchTool, or a
// gateway's tool_search) is an error there: the model would see two
// search tools. A family tool named tool_search is deferred as any other.
// Chat Completions has no deferred loading.
//
// # Decisions
//
// Function tools are sent with strict false: generated schemas keep
// optional properties, which strict mode rejects. A schema's top-level
// members are sent as they came, nested values byte for byte; a root
// without "type" or "properties" gets "type":"object" or "properties":{},
// as OpenAI refuses the whole request over one function without them (MCP
// no-argument tools are {"type":"object"}). A root of another type, or
// whose properties are not an object or required not an array of strings,
// is an error naming the tool, before any request. A root oneOf, anyOf,
// allOf, enum or not, which OpenAI refuses there, is sent as an
// equivalent or looser schema (rootschema.Flatten: allOf merged into the
// root, a union as the union of its branches' properties and a line of
// the description, enum and not left out), as the tool's own validation
// applies the original and its error tells the model; one that cannot be
// loosened so (a branch with a $ref to another document) is an error
// naming the tool. System messages become the Responses instructions
// (after any configured ones) and Chat system messages. A Chat assistant
// message without tool calls carries its content even when empty (a
// conversation carried on after an empty answer), as the API refuses one
// with neither.
//
// A call the loop could not answer is an error, as no surface offers its
// tool: a Chat tool call of a type other than function or a legacy
// function_call; a Responses item other than a function call that asks
// the caller for its output (custom_tool_call, computer_call,
// local_shell_call, apply_patch_call, mcp_approval_request, a
// tool_search_call the client is to run, a shell_call in a local
// environment). So is a Responses function_call without a call_id: the
// loop would give the call an id the item, sent back as returned, would
// not carry.
//
// Why a turn ended maps to agent.Stop. Chat: finish_reason stop and
// tool_calls are StopComplete (tool_calls with no call is an error: the
// text is not a final answer), length StopLength, content_filter
// StopFiltered; a message's refusal is StopRefusal, its words the turn's
// text (content is null then). Responses: status completed is
// StopComplete; incomplete is StopLength for max_output_tokens,
// StopFiltered for content_filter; a refusal content part is StopRefusal,
// its words the text; failed is an error carrying the response's error.
// A reason or status this package does not know (a background response
// still queued) is passed on as the API's word. The loop ends the run
// with agent.ErrIncomplete on all but StopComplete.
package openai
