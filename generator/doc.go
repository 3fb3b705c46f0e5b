// Package generator turns a compiled tool family (schema/ir) into the Go
// source files of a generated package.
//
// Data flow: schema.Compile and taxonomy.Derive produce an ir.Family;
// Generate walks it once per output file and returns the formatted sources
// in memory (Stream hands them over one at a time, in order, each rendering
// while the next is emitted; registry_gen.go and surfaces_gen.go, which only
// read the generator's state, are emitted alongside the others) — it never
// touches the disk, holds no package-level state and is deterministic, so
// the CLI can compare its output with what is on disk (toolgen check) and
// tests can run in parallel. Code is built with
// jennifer and laid out by go/format; what is data or one line, one per
// tool, op or type (registry_gen.go, handlers_gen.go, Tools, Facades, type
// declarations and aliases, enum constants, runtime/shape tables and
// checks (litdata.go), one-line UnmarshalJSON and Validate methods), is
// written directly in gofmt's layout (srcfile.go), which on a large
// catalogue is most of the output and was most of the time.
//
// One file per concern: types.go (params/result structs, enums, unions,
// tuples, JSON encoding), decode.go (decoders driven by runtime/wire),
// validate.go (Validate methods), handlers.go (the Handlers interface) and
// tools.go (the flat tool surface and DecodeArgs); registry*.go and
// surfaces*.go add the taxonomy-driven files; tables.go writes, for large
// families and long objects, static runtime/shape tables and one-line
// decode and validate methods in place of generated bodies. shapes.go finds the named
// types that repeat an earlier type's shape: they become aliases of it and
// share its code, so a catalogue's generated size grows with its distinct
// shapes rather than its tools. A family of more than 200 tools (asData)
// declares its static definitions as data: its ops, tool definitions,
// facades and sections are one record string each (gateway.EncodeOp,
// runtime.EncodeTool, matryoshka.EncodeFacade, prompt.EncodeSection) that
// the runtime reads back, since the compiler keeps a string as it is and
// spends hundreds of megabytes on thousands of composite literals and
// calls.
package generator
