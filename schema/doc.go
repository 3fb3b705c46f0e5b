// Package schema compiles tool definitions into toolgen's IR (schema/ir),
// and offers the pipeline that gets them there in one call.
//
// The schema side of toolgen is five packages, each with one job:
//
//	schema/jsonpos   positioned JSON: every value knows its file, line,
//	                 column and JSON pointer; located errors
//	schema/load      the input shapes (OpenAI chat and responses,
//	                 Anthropic, MCP), tool-name and type-name checks
//	schema/manifest  toolgen.yaml: inputs, output, groups, ops, overrides,
//	                 surfaces, formats and limits
//	schema           this package: JSON Schema → ir types
//	schema/taxonomy  ops, kinds, groups, usage lines, argument summaries,
//	                 examples, policies and the registry version
//
// Build runs load.Decode and Compile; BuildFamily also runs
// taxonomy.Derive with the manifest, so the family it returns is what the
// generator reads. Every problem found on the way is a located
// jsonpos.Error (file:line:col: /json/pointer: message), and all of them
// are reported together as one jsonpos.ErrorList in source order.
//
// Compile turns the JSON Schemas of a loaded Document into ir types with
// Go names decided by schema/names: $refs (local, cross-file, $id and
// $anchor, $dynamicRef) are resolved, allOf conjuncts merged into one
// view per schema, anyOf/oneOf compiled to unions (discriminated when a
// property every branch requires tells them apart), recursion that cannot be
// represented in place reported, defaults checked against their types,
// and every keyword the generated code does not check in Go delegated,
// per subschema, to the embedded validator: never dropped. The manifest's
// limits bound the work on hostile input. CompileSchema compiles one
// standalone schema (the conformance suite uses it).
//
// Formats stay strings checked by the generated Validate unless the
// manifest's formats: key (Manifest.Formats, passed as
// BuildOptions.Formats) maps them: {date-time: time, date: time} makes such
// string types time.Time values (ir.ReprTime), wherever they occur (fields,
// items, map values, union branches). The generated decoder parses them
// (RFC 3339 as runtime/check.DateTime accepts it; a date is midnight UTC)
// and reports malformed text as a located format error; MarshalJSON writes
// the same format back (a date as YYYY-MM-DD). manifest.FormatTargets
// lists what may be mapped.
package schema
