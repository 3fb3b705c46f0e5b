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
// schema type names and required lists. Nothing in a definition is
// dropped without a word: a schema under another format's key than the
// tool's own (an Anthropic "input_schema" in an OpenAI tool) is an error,
// as the tool would take no arguments; members of the tool element, of
// its "function" object and of MCP annotations that are not read get a
// warning, one per member name however many tools have it (unknown ones
// with a did-you-mean, and provider members the generated package does
// not carry: OpenAI's strict, Anthropic's cache_control, MCP's _meta);
// an unpaired surrogate escape ("\ud800"), which the parser reads as
// U+FFFD, is an error at the escape, as invalid UTF-8 is (but in a
// schema's default, which the compiler reports and does not apply). With Options.Lenient it rewrites
// the common non-standard type names ("str", "int", "bool", "dict", …)
// (an alias of a type a type array lists already is dropped, and "any"
// in one removes the type), in the tools' schemas and in the $defs of a
// file's top-level object (which other files' $refs reach), and reports
// each rewrite as one summarised warning instead of an error;
// a misspelt type gets a did-you-mean (runtime/text.Closest). Every
// problem is a located jsonpos.Error, all of them together in an ErrorList.
package load
