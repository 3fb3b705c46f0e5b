// Package anthropic connects toolgen surfaces to the Anthropic Messages API
// through the official SDK (github.com/anthropics/anthropic-sdk-go).
//
// Data flow: any surface's []runtime.Tool (flat Tools(h), Gateway(h),
// Facades(h), a prompt's section tools, a deferred.Surface) → Tools →
// []anthropic.ToolUnionParam. Model implements agent.Model: each turn it
// sends the conversation (system text, user text, assistant content blocks,
// tool_result blocks) with the tools the loop offers, and returns the
// response's tool_use blocks as calls, so facades unfolding and sections
// opening show in the next request's tool list.
//
// # Deferred loading
//
// WithDeferred marks every tool of a deferred.Surface with defer_loading
// and adds a search tool: the server tools tool_search_tool_bm25_20251119
// or tool_search_tool_regex_20251119 (Anthropic searches and answers with
// server_tool_use and tool_search_tool_result blocks, sent back verbatim),
// or ClientSearch: the surface's own tool_search, ranked by gateway.Index,
// whose tool_result carries one tool_reference block per tool found.
//
// # Decisions
//
// A tool's parameters schema is sent as input_schema member for member;
// members other than properties and required travel as extra fields. A
// schema whose type is not "object" is an error, as the API requires one.
// A root oneOf, anyOf or allOf, which the API refuses, is sent as an
// equivalent or looser schema (rootschema.Flatten: allOf merged into the
// root, a union as the union of its branches' properties and a line of
// the description), as the tool's own validation applies the original
// and its error tells the model; one that cannot be loosened so (a branch
// with a $ref to another document) is an error naming the tool.
// An assistant turn is sent back from the blocks the API returned
// (agent.Message.Native), so server tool blocks and thinking survive; a
// turn without them is rebuilt from its text and calls, a call's missing
// or null arguments as {} (the API takes only an object), any other
// arguments that are not an object an error. An assistant turn of no
// block at all (an empty answer) is left out: the API refuses a message
// without content, and takes the user turns around it as one. Consecutive tool
// messages become one user message of tool_result blocks, in call order.
// A tool_use block whose id is empty or not of the characters the API
// takes back ([a-zA-Z0-9_-]) is an error before its call runs: the loop
// would give an empty id one of its own, which the block, sent back as
// returned, would not carry, and the API refuses the next request. So is
// a tool_use block whose input is not a JSON object.
// A pause_turn stop is continued within the same Next, as Anthropic
// documents: the content so far goes back as the assistant message (one
// message, every response's blocks in order), with the container the turn
// used, at most MaxContinuations times; a turn still paused then comes
// back with agent.StopPaused. Every other stop_reason maps to agent.Stop:
// end_turn, tool_use and stop_sequence to StopComplete (tool_use with no
// tool use block of any kind is an error: the text is not a final
// answer), max_tokens to
// StopLength, model_context_window_exceeded to StopContextWindow, refusal
// to StopRefusal; one this package does not know is passed on as its own
// word. The loop ends the run with agent.ErrIncomplete on all but
// StopComplete.
package anthropic
