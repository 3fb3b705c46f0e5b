// Package cli implements the toolgen command. Run is the whole program;
// main only wires it to the process.
package cli

import (
	"fmt"
	"io"
)

// Version is toolgen's version.
const Version = "0.1.0-dev"

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // input errors or drift
	exitUsage = 2
)

// Run executes toolgen with args (without the program name) and returns the
// process exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: toolgen <command> [flags]; run 'toolgen help'")
		return exitUsage
	}
	switch args[0] {
	case "version":
		fmt.Fprintln(stdout, "toolgen", Version)
		return exitOK
	}
	fmt.Fprintf(stderr, "toolgen: unknown command %q; run 'toolgen help'\n", args[0])
	return exitUsage
}
