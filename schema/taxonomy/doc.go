// Package taxonomy turns the compiled tools of a family into ops: the
// registry the gateway, the facades and the other surfaces serve.
//
// Derive gives every tool of an ir.Family one ir.Op (spec 004 §3, §5): a
// dotted path (list_onto_tasks → onto.task.list) read from the tool name's
// verb, entity and group words, a kind (runtime.OpRead or runtime.OpWrite)
// from the verb, the description's leading verb or the MCP annotations, the
// group list with one-line summaries, and the MCP hints an op's kind and
// verb imply. The manifest (schema/manifest) corrects any of it: groups
// with prefixes and infixes, per-op kind, policy, examples, notes and
// dry-run default, and overrides from tool to op path. docs/TAXONOMY.md
// gives the rules with figures on real families.
//
// Derive also fills what the generator and the runtime read and never
// re-derive: the argument summaries (ir.Op.Arguments, from OpArgs: name,
// type label, required, default, first sentence of the description), the
// usage line (Usage: "onto.task.list project_id:string [limit:integer=20]"),
// a ready-to-run example from the required arguments when the manifest
// gives none (SynthesizeExample), the do/dont/edge-case policy
// ExtractPolicy reads from each description, and the registry version, a
// hash of all of it (RegistryVersion).
//
// Manifest problems (an override naming an unknown tool, an op no tool
// maps to, two tools on one path) are located jsonpos errors; names whose
// verb is unknown are warnings, which SummarizeWarnings folds into one line
// for the command.
package taxonomy
