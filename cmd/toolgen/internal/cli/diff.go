package cli

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/toolgen-go/toolgen/schema/compat"
)

// runDiff implements toolgen diff OLD NEW: every difference between two
// versions of a family's definitions, classified as breaking or compatible
// for the tools' callers; exit 1 when something breaks.
func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var fl genFlags
	var format string
	fs := newFlagSet("diff", stdout, stderr)
	fs.StringVarP(&fl.config, "config", "c", "", "manifest `FILE` applied to both versions (default: toolgen.yaml in the current directory, if present)")
	fs.BoolVar(&fl.lenient, "lenient", false, "rewrite non-standard type names (dict, float, ...) with a warning instead of failing")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text or json")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "toolgen diff: takes two inputs, OLD and NEW (files or REV:FILE git revisions)")
		shortUsage(stderr, "diff")
		return exitUsage
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(stderr, "toolgen diff: --format must be text or json, not %q\n", format)
		return exitUsage
	}
	var sides [2]*project
	for i, name := range fs.Args() {
		p, err := loadProject(fl, []string{name}, stdin)
		if err != nil {
			printError(stderr, err)
			return exitFail
		}
		sides[i] = p
	}
	rep := compat.Compare(sides[0].family, sides[1].family)
	if format == "json" {
		if code := writeJSON(stdout, stderr, rep); code != exitOK {
			return code
		}
	} else {
		printDiff(stdout, rep)
	}
	if rep.Breaking > 0 {
		return exitFail
	}
	return exitOK
}

func printDiff(w io.Writer, rep *compat.Report) {
	if rep.OldRegistryVersion == rep.NewRegistryVersion {
		fmt.Fprintf(w, "registry version %s (unchanged)\n", rep.NewRegistryVersion)
	} else {
		fmt.Fprintf(w, "registry version %s -> %s\n", rep.OldRegistryVersion, rep.NewRegistryVersion)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, c := range rep.Changes {
		where := c.Op
		if where == "" {
			where = c.Tool
		}
		if c.Path != "" {
			where += " " + c.Path
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Class, where, c.Message)
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "%d breaking, %d compatible\n", rep.Breaking, rep.Compatible)
}
