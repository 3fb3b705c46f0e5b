// Toolgen turns LLM tool definitions into a typed Go package: params and
// result types with generated validation, a Handlers interface with stubs,
// an op taxonomy with help and policy blocks, and the tool surfaces (flat,
// gateway, facades, sections) linked against toolgen's runtime.
//
// Usage:
//
//	toolgen generate [-c FILE] [-o DIR] [-p NAME] [--lenient] [--stubs FILE] [-q] [--force] [INPUT ...]
//	toolgen check    [-c FILE] [-o DIR] [-p NAME] [--lenient] [INPUT ...]
//	toolgen inspect  [-c FILE] [--format table|json] [INPUT ...]
//	toolgen tokens   [-c FILE] [--format table|json] [INPUT ...]
//	toolgen search-eval --cases FILE.jsonl [--match all|any] [--tokens] [-c FILE] [--format table|json] [INPUT ...]
//	toolgen new      [-o DIR] NAME
//	toolgen version
//	toolgen help     [COMMAND]
//
// INPUT files hold tool definitions: a JSON array (or {"tools": [...]}) of
// OpenAI chat, OpenAI responses, Anthropic or MCP tool definitions; "-"
// (or /dev/stdin) reads standard input. Without INPUT arguments the
// manifest's inputs are used. The manifest (-c, default toolgen.yaml in the
// current directory when present) names groups, op overrides, policies,
// examples and surfaces; paths in it are relative to the manifest's folder.
//
// Inputs, the manifest and search-eval's cases are read only from regular
// files: a named pipe, a device or a process substitution (<(...)) is
// refused by name, since it may block or never end; pipe definitions to
// standard input instead ("-", or --cases - for search-eval's cases). An
// input, or the cases file, may hold at most 256 MiB (the manifest's
// limits.max_input_bytes raises it), a manifest at most 16 MiB.
//
// generate writes only files whose content changed, never touches files
// without toolgen's generated-code header, and prints what it made: the
// files, the tools and ops with their kinds, and each surface's boot
// tokens (-q prints only the files written). check regenerates in memory,
// prints a unified diff against the files on disk, reports stale generated
// files that no longer belong, and exits 1 on any difference: use it in CI.
//
// Typical use, from the package that holds the definitions, with toolgen
// recorded in go.mod by "go get -tool github.com/toolgen-go/toolgen/cmd/toolgen":
//
//	//go:generate go tool toolgen generate -q -c toolgen.yaml --stubs handlers.go
//
// Errors are printed as FILE:LINE:COL: /json/pointer: message, the first
// 100 of them, then how many more there are and the total. A command whose
// output cannot be written (a full disk) fails. Exit codes:
// 0 success, 1 input errors or drift, 2 usage errors, 3 internal errors (a
// bug in toolgen, printed with its stack trace). Every command's
// --help (or "toolgen help COMMAND") shows its flags and an example.
package main
