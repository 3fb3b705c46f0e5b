// Package cli is the toolgen command; the user's manual is the package
// documentation of cmd/toolgen ("go doc ./cmd/toolgen"). Run is the whole
// program; main only wires it to the process, so every behaviour is
// testable in-process.
//
// Data flow: loadProject (project.go) reads the manifest and the inputs and
// runs schema.BuildFamily (load, compile and taxonomy); buildProject
// adds its warnings. project.generate then streams the files from
// generator.Stream one at a time: generate and new write each to a
// temporary file and rename them into place only when every file rendered
// (files.go), while check compares each with the disk. inspect, tokens and search-eval (loadFamily)
// stop after the taxonomy and measure it with the runtime's gateway,
// facades and sections. help.go holds the command table and every
// command's --help text.
package cli
