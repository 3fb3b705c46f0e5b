package cli

import (
	"fmt"
	"io"
	"runtime/debug"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// Exit codes.
const (
	exitOK    = 0
	exitFail  = 1 // input errors or drift
	exitUsage = 2
	// exitInternal is a bug in toolgen: a panic, reported with its stack.
	exitInternal = 3
)

// Run executes toolgen with args (without the program name) and returns the
// process exit code. A command whose output could not be written (a full
// disk, a closed descriptor) fails, with the write's error on stderr,
// whatever it returned.
func Run(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	out := &outputWriter{w: stdout}
	defer func() {
		if out.err != nil && !out.reported {
			fmt.Fprintf(stderr, "toolgen: writing the output: %v\n", out.err)
		}
		if out.err != nil && code == exitOK {
			code = exitFail
		}
	}()
	return runCommand(args, stdin, out, stderr)
}

// outputWriter is a command's standard output: it keeps the first write
// error, after which every write fails at once.
type outputWriter struct {
	w   io.Writer
	err error
	// reported is set when the command printed the error itself
	// (outputFailed).
	reported bool
}

func (o *outputWriter) Write(p []byte) (int, error) {
	if o.err != nil {
		return 0, o.err
	}
	n, err := o.w.Write(p)
	if err == nil && n < len(p) {
		err = io.ErrShortWrite
	}
	o.err = err
	return n, err
}

// outputFailed reports err, an error writing to stdout, on stderr and
// returns exitFail.
func outputFailed(stdout, stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "toolgen: writing the output: %v\n", err)
	if o, ok := stdout.(*outputWriter); ok {
		o.reported = true
	}
	return exitFail
}

func runCommand(args []string, stdin io.Reader, stdout, stderr io.Writer) (code int) {
	defer func() {
		if v := recover(); v != nil {
			code = reportPanic(stderr, v, debug.Stack())
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "help", "-h", "--help":
		return runHelp(args[1:], stdin, stdout, stderr)
	case "--version", "-version":
		return runVersion(args[1:], stdin, stdout, stderr)
	}
	if c, ok := lookup(name); ok && c.run != nil {
		return c.run(args[1:], stdin, stdout, stderr)
	}
	unknownCommand(stderr, "toolgen", name)
	return exitUsage
}

// unknownCommand reports a command name toolgen does not have, with the
// closest one when a slip of the keyboard explains it, and the list.
func unknownCommand(w io.Writer, prefix, name string) {
	var names []string
	for _, c := range commands() {
		names = append(names, c.name)
	}
	if near := text.Closest(name, names); near != "" {
		fmt.Fprintf(w, "%s: unknown command %q (did you mean %q?)\n", prefix, name, near)
	} else {
		fmt.Fprintf(w, "%s: unknown command %q\n", prefix, name)
	}
	usage(w)
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: toolgen <command> [flags] [INPUT ...]")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "commands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "Run 'toolgen help <command>' or 'toolgen <command> --help' for a command's flags.")
}

func runVersion(args []string, _ io.Reader, stdout, stderr io.Writer) int {
	fs := newFlagSet("version", stdout, stderr)
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintln(stderr, "toolgen: version takes no arguments")
		return exitUsage
	}
	fmt.Fprintln(stdout, "toolgen", versionString())
	return exitOK
}

// versionString is toolgen's module version and VCS revision, read from
// the build information Go embeds in the binary: "v1.2.3" for an
// installed release, "(devel) rev abc1234 dirty" for a build from a
// checkout.
func versionString() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	return formatVersion(bi)
}

func formatVersion(bi *debug.BuildInfo) string {
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev == "" {
		return v
	}
	// A version the go command stamped from the checkout
	// (v0.0.0-20250102150405-a47a8f4187da+dirty) holds the revision and
	// the dirty mark already.
	if !strings.Contains(v, rev) {
		v += " rev " + rev
	}
	if modified == "true" && !strings.HasSuffix(v, "+dirty") {
		v += " dirty"
	}
	return v
}

// reportPanic tells the user that toolgen hit a bug (a panic on the
// command's goroutine, or raised there from a worker's) and returns
// exitInternal. Deferred clean-ups have run by then: an interrupted
// generate leaves no temporary file behind.
func reportPanic(w io.Writer, v any, stack []byte) int {
	fmt.Fprintf(w, "toolgen: internal error, a bug in toolgen (please report it with the input and this output): panic: %v\n\n%s", v, stack)
	return exitInternal
}
