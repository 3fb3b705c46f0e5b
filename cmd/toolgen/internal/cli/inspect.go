package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/spf13/pflag"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// familyFlags are the flags of the commands that only read a family
// (inspect, tokens, search-eval).
type familyFlags struct {
	gen    genFlags
	format string
	// inputLimit is the most bytes an input may hold (the manifest's
	// limits.max_input_bytes, else its default), set by loadFamily: the
	// bound of search-eval's cases file too.
	inputLimit int64
}

func (fl *familyFlags) register(fs *pflag.FlagSet) {
	fs.StringVarP(&fl.gen.config, "config", "c", "", "manifest `FILE` (default: toolgen.yaml in the current directory, if present)")
	fs.BoolVar(&fl.gen.lenient, "lenient", false, "rewrite non-standard type names (dict, float, ...) and tool names providers reject (geo.distance as geo_distance) with a warning instead of failing")
	fs.StringVar(&fl.format, "format", "table", "output `FORMAT`: table or json")
}

// loadFamily parses the flags of a read-only command and loads the family
// with its taxonomy, printing warnings and errors. On failure it returns
// nil and the exit code.
func loadFamily(name string, extra func(*pflag.FlagSet), args []string, stdin io.Reader, stdout, stderr io.Writer) (*ir.Family, *familyFlags, int) {
	var fl familyFlags
	fs := newFlagSet(name, stdout, stderr)
	fl.register(fs)
	if extra != nil {
		extra(fs)
	}
	if code, done := parseFlags(fs, args); done {
		return nil, nil, code
	}
	if fl.format != "table" && fl.format != "json" {
		fmt.Fprintf(stderr, "toolgen %s: --format must be table or json, not %q\n", name, fl.format)
		return nil, nil, exitUsage
	}
	fl.gen.readOnly = true
	p, err := loadProject(fl.gen, fs.Args(), stdin)
	if err != nil {
		printError(stderr, err)
		return nil, nil, exitFail
	}
	fl.inputLimit = p.limits.InputBytes
	if name == "inspect" {
		// inspect is where a user reads every warning, one per tool.
		printAllWarnings(stderr, p.family.Warnings)
	} else {
		printWarnings(stderr, p.family.Warnings)
	}
	return p.family, &fl, exitOK
}

// inspectOp is one op in toolgen inspect's JSON output.
type inspectOp struct {
	Op   string         `json:"op"`
	Tool string         `json:"tool"`
	Kind runtime.OpKind `json:"kind"`
	// KindUndecided marks a kind no evidence decided (no known verb, no
	// annotation, no telling description): write until the manifest says.
	KindUndecided bool       `json:"kind_undecided,omitempty"`
	Group         string     `json:"group"`
	Entity        string     `json:"entity,omitempty"`
	Action        string     `json:"action"`
	Source        string     `json:"source"`
	Usage         string     `json:"usage"`
	DryRunDefault bool       `json:"dry_run_default,omitempty"`
	Policy        *ir.Policy `json:"policy,omitempty"`
}

// inspectReport is toolgen inspect's JSON output.
type inspectReport struct {
	RegistryVersion string      `json:"registry_version"`
	Ops             []inspectOp `json:"ops"`
	Warnings        []string    `json:"warnings"`
}

// runInspect implements toolgen inspect: the derived op taxonomy with
// kinds, sources and extracted policies, so users can correct them in the
// manifest.
func runInspect(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var tool string
	f, fl, code := loadFamily("inspect", func(fs *pflag.FlagSet) {
		fs.StringVar(&tool, "tool", "", "show one tool `NAME`: its generated Go types, help entry and usage line")
	}, args, stdin, stdout, stderr)
	if f == nil {
		return code
	}
	if tool != "" {
		return inspectTool(f, tool, fl.format, stdout, stderr)
	}
	rep := inspectReport{RegistryVersion: f.RegistryVersion, Ops: []inspectOp{}, Warnings: []string{}}
	undecided := map[string]bool{}
	for _, w := range f.Warnings {
		if tool, _, ok := taxonomy.UnknownVerb(w); ok {
			undecided[tool] = true
		}
	}
	for _, op := range f.Ops {
		rep.Ops = append(rep.Ops, inspectOp{
			Op: op.Path, Tool: op.Tool.Name, Kind: op.Kind, KindUndecided: undecided[op.Tool.Name],
			Group: op.Group, Entity: op.Entity,
			Action: op.Action, Source: op.Source, Usage: op.Usage, DryRunDefault: op.DryRunDefault, Policy: op.Policy,
		})
	}
	for _, w := range f.Warnings {
		rep.Warnings = append(rep.Warnings, (&jsonpos.Error{Pos: w.Pos, Message: w.Message}).Error())
	}
	if fl.format == "json" {
		return writeJSON(stdout, stderr, rep)
	}
	fmt.Fprintf(stdout, "registry %s: %s in %s\n\n", f.RegistryVersion, plural(len(f.Ops), "op"), plural(len(f.Groups), "group"))
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	// Table cells carry definition text (the source of a kind quotes a
	// description; policies are sentences of it): escaped for the terminal.
	v := jsonpos.Visible
	fmt.Fprintln(tw, "OP\tTOOL\tKIND\tSOURCE")
	for _, op := range rep.Ops {
		kind := string(op.Kind)
		if op.KindUndecided {
			kind += " (no evidence)"
		}
		if op.DryRunDefault {
			kind += " (dry-run)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", v(op.Op), v(op.Tool), kind, v(op.Source))
	}
	_ = tw.Flush()
	for _, op := range rep.Ops {
		if op.Policy == nil {
			continue
		}
		fmt.Fprintf(stdout, "\npolicy %s:\n", v(op.Op))
		for _, part := range []struct {
			label string
			items []string
		}{{"do", op.Policy.Do}, {"dont", op.Policy.Dont}, {"edge", op.Policy.EdgeCases}} {
			for _, it := range part.items {
				fmt.Fprintf(stdout, "  %-4s  %s\n", part.label, v(it))
			}
		}
	}
	return exitOK
}

// writeJSON prints v as indented JSON.
func writeJSON(stdout, stderr io.Writer, v any) int {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		fmt.Fprintf(stderr, "toolgen: %v\n", err)
		return exitFail
	}
	if _, err := io.WriteString(stdout, b.String()); err != nil {
		return outputFailed(stdout, stderr, err)
	}
	return exitOK
}
