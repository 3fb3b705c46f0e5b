package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/toolgen-go/toolgen/schema/compat"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// runDiff implements toolgen diff OLD NEW: every difference between two
// versions of a family's definitions, classified as breaking or compatible
// for the tools' callers; exit 1 when something breaks.
func runDiff(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var fl genFlags
	var format string
	fs := newFlagSet("diff", stdout, stderr)
	fs.StringVarP(&fl.config, "config", "c", "", "manifest `FILE` (default: toolgen.yaml in the current directory, if present); OLD as REV:path reads it as of REV when it is there")
	fs.BoolVar(&fl.lenient, "lenient", false, "rewrite non-standard type names (dict, float, ...) and tool names providers reject (geo.distance as geo_distance) with a warning instead of failing")
	fs.StringVar(&format, "format", "text", "output `FORMAT`: text or json")
	if code, done := parseFlags(fs, args); done {
		return code
	}
	if fs.NArg() != 2 {
		fmt.Fprintln(stderr, "toolgen diff: takes two inputs, OLD and NEW (files or REV:FILE git revisions)")
		shortUsage(stderr, "diff")
		return exitUsage
	}
	if isStdin(fs.Arg(0)) && isStdin(fs.Arg(1)) {
		fmt.Fprintln(stderr, "toolgen diff: standard input can be one side only (-, or /dev/stdin): name the other side's file")
		return exitUsage
	}
	if format != "text" && format != "json" {
		fmt.Fprintf(stderr, "toolgen diff: --format must be text or json, not %q\n", format)
		return exitUsage
	}
	// One input is a part of a family with several: the manifest's ops
	// for the others are not errors.
	fl.partial, fl.readOnly = true, true
	var sides [2]*project
	for i, name := range fs.Args() {
		side := fl
		rev, path, isRev := revisionOf(name)
		if isRev {
			// The manifest as of the same revision (ops added with new
			// tools were errors on the old side), else today's.
			if m := manifestPath(fl.config); m != "" {
				data, err := gitShow(rev, m, maxManifestBytes)
				var ue *unreadableError
				if errors.As(err, &ue) {
					printError(stderr, &unreadableError{path: rev + ":" + m, why: manifestLimitWhy()})
					return exitFail
				}
				if err == nil {
					side.manifestData = data
				}
			}
		}
		// git is asked for a REV:PATH once, by the load itself; its
		// answer that the revision lacks the file is read from the
		// load's error, not asked for again before.
		p, err := loadProject(side, []string{name}, stdin)
		if isRev && missingAtRevision(err, name) {
			if _, serr := os.Stat(path); serr != nil {
				// Neither then nor now: a mistyped path, or one written
				// from another folder, would otherwise compare as no
				// tools and pass the check for good.
				fmt.Fprintf(stderr, "toolgen diff: %s is not in %s, and there is no such file here either: check the path (in REV:PATH, PATH is relative to the current directory)\n", jsonpos.Visible(path), jsonpos.Visible(rev))
				return exitFail
			}
			// A file added since the revision: a family that did not
			// exist then.
			fmt.Fprintf(stderr, "toolgen diff: %s is not in %s: compared as no tools\n", path, rev)
			p, err = loadProject(side, []string{"-"}, strings.NewReader("[]"))
		}
		if err != nil {
			if i == 0 && len(fs.Args()) == 2 {
				fmt.Fprintf(stderr, "toolgen diff: reading OLD (%s):\n", name)
			}
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
		if c.Result {
			where += " result"
		}
		if c.Path != "" {
			where += " " + c.Path
		}
		// Paths and messages carry property names and enum values from
		// the definitions: escaped for the terminal (a quoted value is
		// already escaped by strconv, but not of its bidi controls).
		fmt.Fprintf(tw, "%s\t%s\t%s\n", c.Class, jsonpos.Visible(where), jsonpos.Visible(jsonpos.Shorten(c.Message)))
	}
	_ = tw.Flush()
	fmt.Fprintf(w, "%d breaking, %d compatible\n", rep.Breaking, rep.Compatible)
}

// revisionOf splits a diff input that names a git revision of a file
// (REV:PATH, no such file on disk) into the two.
func revisionOf(name string) (rev, path string, ok bool) {
	if _, err := os.Stat(name); err == nil {
		return "", "", false
	}
	return splitRevision(name)
}

// manifestPath is the manifest -c names, else toolgen.yaml when present.
func manifestPath(config string) string {
	if config != "" {
		return config
	}
	if _, err := os.Stat(defaultManifest); err == nil {
		return defaultManifest
	}
	return ""
}

// missingAtRevision reports whether err is the error of reading name, a
// REV:PATH, because the revision exists but lacks the file: the error
// readFileOrRevision returns ("not a file, and not a git revision of
// one") with git's message after it.
func missingAtRevision(err error, name string) bool {
	if err == nil {
		return false
	}
	msg, ok := strings.CutPrefix(err.Error(), name+": not a file, and not a git revision of one: ")
	return ok && (strings.Contains(msg, "exists on disk, but not in") || strings.Contains(msg, "does not exist in"))
}
