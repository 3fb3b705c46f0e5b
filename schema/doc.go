// Package schema turns tool definition files into toolgen's IR.
//
// It is the first stage of the data flow: ParseJSON reads each input file
// into a Node tree that remembers the file, line, column and JSON pointer of
// every value; Load recognises the tool shapes (OpenAI chat and responses,
// Anthropic, MCP), checks tool names and schema type names (rewriting
// common non-standard ones when lenient) and returns a Document of ToolDefs;
// Compile turns their JSON Schemas into ir types with Go names decided by
// schema/names; Taxonomy derives ops, kinds and policies. Every problem found
// on the way is a located *Error (file:line:col: /json/pointer: message),
// and all of them are reported together as an ErrorList.
//
// The manifest (toolgen.yaml, LoadManifest and DecodeManifest) says what a
// run reads and writes and how tools map to ops: package, inputs, output,
// stubs, groups, ops, overrides, surfaces, formats and limits, decoded with
// located errors (an unknown key gets a did-you-mean); ManifestSchema is
// its published JSON Schema. Taxonomy turns the compiled
// tools into ops: a path and kind per tool from verb rules and the
// manifest, groups, usage lines, argument summaries (ir.Op.Arguments),
// examples, and the do/dont/edge-case policy ExtractPolicy reads from each
// description, then hashes them all into the registry version. The
// generator reads only the IR these steps fill (schema/ir), never this
// package.
//
// Formats stay strings checked by the generated Validate unless the
// manifest's formats: key (Manifest.Formats, passed as
// BuildOptions.Formats) maps them: {date-time: time, date: time} makes such
// string types time.Time values (ir.ReprTime), wherever they occur (fields,
// items, map values, union branches). The generated decoder parses them
// (RFC 3339 as runtime/check.DateTime accepts it; a date is midnight UTC)
// and reports malformed text as a located format error; MarshalJSON writes
// the same format back (a date as YYYY-MM-DD). FormatTargets lists what may
// be mapped.
package schema
