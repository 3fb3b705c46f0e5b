// Package manifest reads toolgen.yaml, the file that says what one run of
// toolgen reads and writes and how tools map to ops.
//
// Load (or Decode, which also returns what it could read) takes YAML or
// JSON and returns a Manifest: package, inputs, output and stubs (paths
// relative to the manifest; Resolve joins them), default_group and groups,
// ops (kind, policy, examples, notes, dry-run default, result schema, tool
// annotations), overrides (tool → op path), surfaces, lenient, formats and
// limits. Every problem is a located jsonpos.Error at the YAML line and
// column with a JSON pointer into the manifest; an unknown key gets a
// did-you-mean (runtime/text.Closest, the one nearest-name rule). A YAML
// syntax error is located as exactly as yaml.v3 allows: its line (column 0
// where yaml.v3 knows none), or the character itself for a tab in the
// indentation, a control character, bytes that are not UTF-8 and an alias
// of an unknown anchor. The manifest is one YAML document (a second one is
// an error); every key is written out, once, in a schema or example
// arguments too (an alias or a merge key << as a key is an error); paths
// are slash-separated, each input listed once. Schemas and example
// arguments are bounded as input files are (numbers of at most
// jsonpos.MaxNumberLen characters, JSON pointers within a budget linear in
// the manifest's size, aliases standing for at most 100,000 values); a
// JSON manifest may use every JSON escape, those YAML lacks too (a
// surrogate pair, "\/"). Schema is
// the manifest's published JSON Schema; a test keeps it and the decoder in
// agreement, and docs/MANIFEST.md is generated from it
// (TestManifestReference).
//
// The manifest owns two settings the rest of the schema side reads:
//
//   - Limits (the limits.Limits type, decoded from limits: by LimitKeys)
//     bound the work one generation does on hostile input (schema depth,
//     properties, enum size, $ref expansions, identifier length); every
//     limit ends in a located error naming the key that raises it
//     (limits.Hint), and JSONDepth bounds the JSON nesting the loader parses.
//   - Formats maps JSON Schema formats to Go representations
//     (FormatTargets: date-time and date may become time.Time);
//     CheckFormats reports a mapping the compiler cannot apply.
//
// ValidOpPath is the grammar of dotted op paths.
package manifest
