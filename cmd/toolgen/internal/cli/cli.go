package cli

import (
	"fmt"
	"io"
)

// Version is toolgen's version.
const Version = "0.1.0"

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // input errors or drift
	exitUsage = 2
)

// command is one toolgen subcommand.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"generate", "generate the Go package from tool definitions", runGenerate},
		{"check", "fail with a diff when generated files are out of date", runCheck},
		{"inspect", "show the op taxonomy, kinds and extracted policies", runInspect},
		{"tokens", "count the boot-time tokens of every surface", runTokens},
		{"search-eval", "measure tool_search recall on query cases", runSearchEval},
		{"new", "scaffold a new tool family", runNew},
		{"version", "print toolgen's version", runVersion},
	}
}

// Run executes toolgen with args (without the program name) and returns the
// process exit code.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "--help":
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args[1:], stdin, stdout, stderr)
		}
	}
	fmt.Fprintf(stderr, "toolgen: unknown command %q\n", name)
	usage(stderr)
	return exitUsage
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: toolgen <command> [flags] [INPUT ...]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'toolgen <command> --help' for a command's flags.")
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "toolgen: version takes no arguments")
		return exitUsage
	}
	fmt.Fprintln(stdout, "toolgen", Version)
	return exitOK
}
