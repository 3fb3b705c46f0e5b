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
// (agent.Message.Native). Chat Completions has no deferred loading.
//
// # Decisions
//
// Function tools are sent with strict false: generated schemas keep
// optional properties, which strict mode rejects. A schema's top-level
// members are sent as they came, nested values byte for byte. System
// messages become the Responses instructions (after any configured ones)
// and Chat system messages.
package openai
