package cli

import (
	"fmt"
	"io"
	"maps"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// largeCatalogue is the number of tools from which generate prints a
// progress line per phase and lists op counts instead of every op.
const largeCatalogue = 200

// listOpsUpTo is the number of ops generate's summary lists one by one.
const listOpsUpTo = 30

// bootTokens starts counting the boot tokens of f's surfaces (which takes
// a large part of a second on a large catalogue) while the caller goes on
// generating, and returns a function that waits for the count or the
// error that stopped it. Both only read the family. A panic while
// counting (a bug) is raised again by the function that waits, with the
// counting goroutine's stack.
func bootTokens(f *ir.Family) func() (*tokensReport, error) {
	type counted struct {
		rep      *tokensReport
		err      error
		panicked any
	}
	done := make(chan counted, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- counted{panicked: fmt.Sprintf("%v\n\n(on the goroutine counting boot tokens:)\n%s", v, debug.Stack())}
			}
		}()
		rep, err := countTokens(f)
		done <- counted{rep: rep, err: err}
	}()
	return sync.OnceValues(func() (*tokensReport, error) {
		c := <-done
		if c.panicked != nil {
			panic(c.panicked)
		}
		return c.rep, c.err
	})
}

// printSummary tells a user what generate made: the package and its
// files, the tools and ops with their kinds, and each surface's boot
// tokens (from bootTokens).
func printSummary(w io.Writer, p *project, written int, tokens func() (*tokensReport, error)) {
	f := p.family
	kinds := map[string]int{}
	for _, op := range f.Ops {
		kinds[string(op.Kind)]++
	}
	var kindParts []string
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		kindParts = append(kindParts, fmt.Sprintf("%d %s", kinds[k], k))
	}
	fmt.Fprintf(w, "package %s in %s: %s (%d written, %d up to date)\n",
		f.Package, p.outDir, plural(len(p.files), "file"), written, len(p.files)-written)
	fmt.Fprintf(w, "%s -> %s (%s) in %s\n", plural(len(f.Tools), "tool"), plural(len(f.Ops), "op"),
		strings.Join(kindParts, ", "), plural(len(f.Groups), "group"))
	if len(f.Ops) <= listOpsUpTo {
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, op := range f.Ops {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", op.Path, op.Kind, op.Tool.Name)
		}
		_ = tw.Flush()
	} else {
		fmt.Fprintln(w, "  (run toolgen inspect to list them)")
	}
	rep, err := tokens()
	if err != nil {
		fmt.Fprintf(w, "boot tokens: not counted: %v\n", err)
		return
	}
	var parts []string
	for _, s := range rep.Surfaces {
		part := fmt.Sprintf("%s %d", s.Name, s.Tokens)
		if s.Name != "flat" {
			part += fmt.Sprintf(" (%.1f%%)", s.PercentOfFlat)
		}
		parts = append(parts, part)
	}
	fmt.Fprintf(w, "boot tokens (%s): %s\n", rep.Tokenizer, strings.Join(parts, ", "))
}

// plural is "1 tool", "2 tools".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
