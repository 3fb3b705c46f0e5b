// Package cli is the toolgen command; the user's manual is the package
// documentation of cmd/toolgen ("go doc ./cmd/toolgen"). Run is the whole
// program; main only wires it to the process, so every behaviour is
// testable in-process.
//
// Data flow: loadProject (project.go) reads the manifest and the inputs and
// runs schema.Build (load and compile) and schema.Taxonomy; buildProject
// adds generator.Generate. All of it happens in memory: only when every
// step succeeded do generate and new write files (files.go), while check
// compares them with the disk. inspect, tokens and search-eval (loadFamily)
// stop after the taxonomy and measure it with the runtime's gateway,
// facades and sections. help.go holds the command table and every
// command's --help text.
package cli
