package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/pflag"
)

// command is one toolgen subcommand with the text its --help prints.
type command struct {
	name     string
	synopsis string // flags and arguments after "toolgen NAME"
	summary  string // one line, for the command list
	example  string // one or more example invocations, one per line
	run      func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// exitCodes is the exit code table command name's help ends with: what
// 1 means differs (check: drift too; diff: breaking changes too), and
// version and help have no input to fail on.
func exitCodes(name string) string {
	one := "1 input errors"
	switch name {
	case "check":
		one = "1 input errors or generated files out of date"
	case "diff":
		one = "1 input errors or breaking changes"
	case "version", "help":
		return "Exit codes: 0 success, 2 usage errors."
	}
	return "Exit codes: 0 success, " + one + ",\n2 usage errors, 3 internal errors (a bug in toolgen; please report it)."
}

func commands() []command {
	return []command{
		{"generate", "[-c FILE] [-o DIR] [-p NAME] [--lenient] [--stubs FILE] [-q] [--force] [INPUT ...]",
			"generate the Go package from tool definitions",
			"toolgen generate -c toolgen.yaml --stubs handlers.go", runGenerate},
		{"check", "[-c FILE] [-o DIR] [-p NAME] [--lenient] [INPUT ...]",
			"fail with a diff when generated files are out of date",
			"toolgen check -c toolgen.yaml", runCheck},
		{"diff", "[-c FILE] [--lenient] [--format text|json] OLD NEW",
			"classify the changes between two versions of the definitions as breaking or compatible",
			"toolgen diff HEAD~1:tools.json tools.json", runDiff},
		{"inspect", "[-c FILE] [--lenient] [--format table|json] [--tool NAME] [INPUT ...]",
			"show the op taxonomy, kinds and extracted policies",
			"toolgen inspect -c toolgen.yaml --format json", runInspect},
		{"tokens", "[-c FILE] [--lenient] [--format table|json] [--show SURFACE] [INPUT ...]",
			"count the boot-time tokens of every surface",
			"toolgen tokens -c toolgen.yaml", runTokens},
		{"search-eval", "--cases FILE.jsonl [--match all|any] [--tokens] [-c FILE] [--lenient] [--format table|json] [INPUT ...]",
			"measure tool_search recall on query cases",
			"toolgen search-eval -c toolgen.yaml --cases search_cases.jsonl", runSearchEval},
		{"new", "[-o DIR] NAME",
			"scaffold a new tool family",
			"toolgen new billing", runNew},
		{"version", "",
			"print toolgen's module version and VCS revision",
			"toolgen version", runVersion},
		{"help", "[COMMAND]",
			"show the command list, or one command's help",
			"toolgen help generate", nil},
	}
}

func lookup(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

// newFlagSet returns the flag set of command name: parse errors are
// returned (parseFlags reports them on stderr), --help prints the
// command's help on stdout.
func newFlagSet(name string, stdout, stderr io.Writer) *pflag.FlagSet {
	fs := pflag.NewFlagSet(name, pflag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.SortFlags = false
	fs.Usage = func() { printHelp(stdout, name, fs) }
	return fs
}

// printHelp writes a command's manual: usage line, summary, flags, example
// and exit codes.
func printHelp(w io.Writer, name string, fs *pflag.FlagSet) {
	c, _ := lookup(name)
	fmt.Fprintf(w, "usage: toolgen %s\n\n%s.\n", strings.TrimSpace(name+" "+c.synopsis), upperFirst(c.summary))
	if fs != nil && fs.HasFlags() {
		fmt.Fprintln(w, "\nFlags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
	}
	if c.example != "" {
		fmt.Fprintln(w, "\nExample:")
		for _, l := range strings.Split(c.example, "\n") {
			fmt.Fprintf(w, "  %s\n", l)
		}
	}
	fmt.Fprintf(w, "\n%s\n", exitCodes(name))
}

// shortUsage is what a usage error prints after the error itself.
func shortUsage(w io.Writer, name string) {
	c, _ := lookup(name)
	fmt.Fprintf(w, "usage: toolgen %s\nRun 'toolgen help %s' for details.\n", strings.TrimSpace(name+" "+c.synopsis), name)
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseFlags parses args; it returns done=true with the exit code when the
// command must stop (usage error, or --help).
func parseFlags(fs *pflag.FlagSet, args []string) (code int, done bool) {
	if err := fs.Parse(args); err != nil {
		if err == pflag.ErrHelp {
			return exitOK, true
		}
		fmt.Fprintf(fs.Output(), "toolgen %s: %v\n", fs.Name(), err)
		shortUsage(fs.Output(), fs.Name())
		return exitUsage, true
	}
	return 0, false
}

// runHelp implements toolgen help [COMMAND].
func runHelp(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	switch len(args) {
	case 0:
		usage(stdout)
		return exitOK
	case 1:
		if args[0] == "-h" || args[0] == "--help" || args[0] == "-help" {
			// toolgen help --help: help's own help, as every command's.
			printHelp(stdout, "help", nil)
			return exitOK
		}
		c, ok := lookup(args[0])
		if !ok {
			unknownCommand(stderr, "toolgen help", args[0])
			return exitUsage
		}
		if c.run == nil { // help itself: it has no flags
			printHelp(stdout, c.name, nil)
			return exitOK
		}
		return c.run([]string{"--help"}, stdin, stdout, stderr)
	}
	fmt.Fprintln(stderr, "toolgen help: takes at most one command name")
	return exitUsage
}
