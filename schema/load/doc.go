// Package load recognises the tool definitions in toolgen's input files.
//
// Tools (or Decode, which also returns what it could read) parses each
// Input with jsonpos, bounded by the manifest's limits, and accepts a file
// that holds an array of tools or an object with a "tools" array, each
// tool in one of four shapes: OpenAI chat ({"type":"function","function":
// {...}}), OpenAI responses ({"type":"function","name":...}), Anthropic
// ({"name","input_schema"}) or MCP ({"name","inputSchema","outputSchema",
// "annotations"}). The result is a Document: one ToolDef per tool (name,
// description, parameters and output schemas as positioned nodes, MCP
// annotations) and the parsed roots, which the compiler needs for
// cross-file $refs.
//
// On the way it checks what would break later: tool names against the
// providers' rule (runtime.CheckName, the one copy), duplicate names,
// schema type names and required lists. With Options.Lenient it rewrites
// the common non-standard type names ("str", "int", "bool", "dict", …)
// and reports each rewrite as one summarised warning instead of an error;
// a misspelt type gets a did-you-mean (runtime/text.Closest). Every
// problem is a located jsonpos.Error, all of them together in an ErrorList.
package load
