// Package deferred describes the deferred surface of a tool family: every
// op offered to the provider as a tool whose definition is loaded only when
// a search finds it (Anthropic's defer_loading, OpenAI Responses'
// tool_search), grouped by the family's op groups, plus toolgen's own
// client-side search tool.
//
// Data flow: generated Registry and Tools(h) → New → *Surface. The provider
// adapters (runtime/anthropic, runtime/openai) turn a Surface into their
// SDK's tool parameters: each tool with defer_loading set, one OpenAI
// namespace per group, and the provider's search tool (a server tool) or
// the Surface's SearchTool, which answers from gateway.Index with the names
// of the tools to load. The Anthropic adapter sends those names as
// tool_reference blocks, so the model gets toolgen's ranking with the
// provider's deferred loading.
//
// The search tool is named SearchToolName, tool_search, unless a tool of
// the family has that name: that tool is deferred as any other, and the
// search tool takes the first free one of tool_search_2, tool_search_3,
// ... (Surface.SearchName, runtime.FreeName), which the adapters and its
// own error messages use.
//
// The surface is provider-independent: its tools are ordinary runtime.Tools
// the agent loop dispatches, and a model that knows nothing of deferral can
// still call them all.
package deferred
