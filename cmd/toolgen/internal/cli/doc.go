// Package cli is the toolgen command. Run is the whole program; main only
// wires it to the process, so every behaviour is testable in-process.
//
// Data flow: loadProject (project.go) reads the manifest and the inputs and
// runs schema.Build (load and compile) and schema.Taxonomy; buildProject
// adds generator.Generate. All of it happens in memory: only when every
// step succeeded do generate and new write files (files.go), while check
// compares them with the disk. inspect, tokens and search-eval (loadFamily)
// stop after the taxonomy and measure it with the runtime's gateway,
// facades and sections.
//
// toolgen turns LLM tool definitions into a typed Go package:
//
//	toolgen generate [-c FILE] [-o DIR] [-p NAME] [--lenient] [--stubs FILE] [INPUT ...]
//	toolgen check    [-c FILE] [-o DIR] [-p NAME] [--lenient] [INPUT ...]
//	toolgen inspect  [-c FILE] [--format table|json] [INPUT ...]
//	toolgen tokens   [-c FILE] [--format table|json] [INPUT ...]
//	toolgen search-eval --cases FILE.jsonl [-c FILE] [--format table|json] [INPUT ...]
//	toolgen new      [-o DIR] NAME
//	toolgen version
//
// INPUT files hold tool definitions: a JSON array (or {"tools": [...]}) of
// OpenAI chat, OpenAI responses, Anthropic or MCP tool definitions; "-"
// reads standard input. Without INPUT arguments the manifest's inputs are
// used. The manifest (-c, default toolgen.yaml in the current directory when
// present) names groups, op overrides, policies, examples and surfaces.
//
// generate writes only files whose content changed and never touches files
// without toolgen's generated-code header. check regenerates in memory,
// prints a unified diff against the files on disk, reports stale generated
// files that no longer belong, and exits 1 on any difference: use it in CI.
//
// Typical use, from the package that holds the definitions:
//
//	//go:generate go run github.com/toolgen-go/toolgen/cmd/toolgen generate -c toolgen.yaml
//
// Errors are printed as FILE:LINE:COL: /json/pointer: message. Exit codes:
// 0 success, 1 input errors or drift, 2 usage errors.
package cli
