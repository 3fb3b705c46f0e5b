// Command bench-scale measures toolgen on large catalogues (make
// bench-scale): for each input it runs toolgen generate and then go build
// on the generated package alone, reporting wall time and peak RSS of
// both, and generated lines per tool; then it runs go-jsonschema
// (github.com/atombender/go-jsonschema) on the same schemas, each tool's
// parameters as one $defs entry, for a ratio.
//
// Inputs: synthetic catalogues (package scale) of the -sizes given, one
// object with -wide properties, the ACEBench tools of
// ../shared/corpus/search when present, and with -acebench-repo all of
// ACEBench's tools, English and Chinese, read from a checkout of its
// repository (aceBenchAll). Each input is generated with a manifest that
// lifts limits.max_output_bytes and limits.max_properties, so that an
// oversized package or object is measured rather than refused. Before go
// build, a file with a fresh comment joins the package so that a rerun
// never reads a cached build of it (the runtime is built first, outside
// the measure). Timings are wall-clock on this machine; run it on an idle
// machine.
package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/toolgen-go/toolgen/golden/bench/scale"
)

// measureChild is the first argument of the re-executed harness that runs
// one measured command (see timed).
const measureChild = "-measure-child"

func main() {
	if len(os.Args) > 3 && os.Args[1] == measureChild {
		os.Exit(runMeasured(os.Args[2], os.Args[3], os.Args[4:]))
	}
	sizes := flag.String("sizes", "100,1000,10000", "synthetic catalogue sizes, comma-separated")
	buildUpTo := flag.Int("build-up-to", 10000, "go build the generated package only for inputs with at most this many tools (0: never)")
	wide := flag.Int("wide", 5000, "properties of the wide-object input (0: skip)")
	rival := flag.String("rival", "github.com/atombender/go-jsonschema@v0.24.1", "go-jsonschema module@version to compare with (empty: skip)")
	acebench := flag.String("acebench", "../../../shared/corpus/search/acebench.tools.json", "ACEBench tools file (skipped when absent)")
	aceRepo := flag.String("acebench-repo", "", "a checkout of github.com/chenchen0103/ACEBench: also measure all its tools, English and Chinese (empty: skip)")
	flag.Parse()
	if err := run(*sizes, *buildUpTo, *wide, *rival, *acebench, *aceRepo); err != nil {
		fmt.Fprintln(os.Stderr, "bench-scale:", err)
		os.Exit(1)
	}
}

// measure is one command's wall time and peak resident memory.
type measure struct {
	wall time.Duration
	rss  int64 // bytes
}

func (m measure) String() string {
	if m.wall == 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f s, %d MB", m.wall.Seconds(), m.rss>>20)
}

// input is one catalogue to measure.
type input struct {
	name  string
	tools int
	data  []byte
	// lenient generates with --lenient (the definitions use BFCL's type
	// names).
	lenient bool
}

type row struct {
	input
	generate, build, rival measure
	lines, rivalLines      int
	err                    string
}

func run(sizes string, buildUpTo, wide int, rivalMod, acebench, aceRepo string) error {
	work, err := os.MkdirTemp("", "bench-scale-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	root, err := repoRoot()
	if err != nil {
		return err
	}
	toolgen := filepath.Join(work, "bin", "toolgen")
	if _, err := timed(root, nil, "go", "build", "-o", toolgen, "./cmd/toolgen"); err != nil {
		return fmt.Errorf("building toolgen: %w", err)
	}
	rivalBin := ""
	if rivalMod != "" {
		if _, err := timed(work, []string{"GOBIN=" + filepath.Join(work, "bin")}, "go", "install", rivalMod); err != nil {
			fmt.Fprintf(os.Stderr, "bench-scale: skipping go-jsonschema (%v)\n", err)
		} else {
			rivalBin = filepath.Join(work, "bin", "go-jsonschema")
		}
	}
	var inputs []input
	for _, s := range strings.Split(sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			return fmt.Errorf("bad size %q", s)
		}
		inputs = append(inputs, input{name: fmt.Sprintf("synthetic %d", n), tools: n, data: scale.Catalogue(n, 1)})
	}
	if data, err := os.ReadFile(acebench); err == nil {
		var tools []json.RawMessage
		if json.Unmarshal(data, &tools) == nil {
			inputs = append(inputs, input{name: "ACEBench (visible set)", tools: len(tools), data: data})
		}
	}
	if aceRepo != "" {
		data, n, err := aceBenchAll(aceRepo)
		if err != nil {
			return err
		}
		inputs = append(inputs, input{name: "ACEBench, all tools (en + zh)", tools: n, data: data, lenient: true})
	}
	if wide > 0 {
		inputs = append(inputs, input{name: fmt.Sprintf("%d properties in one object", wide), tools: 1, data: scale.WideObject(wide)})
	}
	var rows []row
	for i, in := range inputs {
		fmt.Fprintf(os.Stderr, "bench-scale: %s ...\n", in.name)
		dir := filepath.Join(work, fmt.Sprintf("case%d", i))
		rows = append(rows, measureInput(root, dir, toolgen, rivalBin, in, in.tools <= buildUpTo || in.tools == 1))
	}
	print(rows)
	return nil
}

// manifest generates tools.json into pkg with the limits the inputs pass
// lifted: the output size, and the properties of one object (1,000 by
// default) for the wide input.
const manifest = `package: pkg
inputs: [tools.json]
output: pkg
limits:
  max_output_bytes: 4294967296
  max_properties: 1000000
`

func measureInput(root, dir, toolgen, rivalBin string, in input, build bool) row {
	r := row{input: in}
	pkg := filepath.Join(dir, "pkg")
	if err := os.MkdirAll(pkg, 0o755); err != nil {
		r.err = err.Error()
		return r
	}
	src := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(src, in.data, 0o644); err != nil {
		r.err = err.Error()
		return r
	}
	if err := os.WriteFile(filepath.Join(dir, "toolgen.yaml"), []byte(manifest), 0o644); err != nil {
		r.err = err.Error()
		return r
	}
	args := []string{"generate", "-q", "-c", "toolgen.yaml"}
	if in.lenient {
		args = append(args, "--lenient")
	}
	m, err := timed(dir, nil, toolgen, args...)
	if err != nil {
		r.err = "generate: " + firstLine(err.Error())
		return r
	}
	r.generate = m
	r.lines = goLines(pkg)
	if build {
		gosum, _ := os.ReadFile(filepath.Join(root, "go.sum"))
		mod := fmt.Sprintf("module scalecase\n\ngo 1.26.0\n\nrequire github.com/toolgen-go/toolgen v0.0.0\n\nreplace github.com/toolgen-go/toolgen => %s\n", root)
		_ = os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644)
		_ = os.WriteFile(filepath.Join(dir, "go.sum"), gosum, 0o644)
		// Build the runtime once first so only the generated package is
		// measured.
		env := []string{"GOFLAGS=-mod=mod"}
		_, _ = timed(dir, env, "go", "build", "github.com/toolgen-go/toolgen/runtime/...")
		nonce := fmt.Sprintf("package pkg\n\n// bench-scale run %d: this package misses the build cache.\n", time.Now().UnixNano())
		_ = os.WriteFile(filepath.Join(pkg, "benchscale_nonce.go"), []byte(nonce), 0o644)
		if m, err := timed(dir, env, "go", "build", "./pkg"); err != nil {
			r.err = "go build: " + firstLine(err.Error())
		} else {
			r.build = m
		}
	}
	if rivalBin != "" {
		r.rival, r.rivalLines = runRival(dir, rivalBin, in.data)
	}
	return r
}

// runRival gives go-jsonschema every tool's parameters as one $defs entry
// of a single schema whose properties reference them all.
func runRival(dir, bin string, data []byte) (measure, int) {
	var tools []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if json.Unmarshal(data, &tools) != nil {
		return measure{}, 0
	}
	defs := map[string]json.RawMessage{}
	props := map[string]any{}
	for _, t := range tools {
		if t.Function.Name == "" || len(t.Function.Parameters) == 0 {
			continue
		}
		defs[t.Function.Name] = t.Function.Parameters
		props[t.Function.Name] = map[string]string{"$ref": "#/$defs/" + t.Function.Name}
	}
	doc, _ := json.Marshal(map[string]any{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": props, "$defs": defs})
	src := filepath.Join(dir, "rival.schema.json")
	if os.WriteFile(src, doc, 0o644) != nil {
		return measure{}, 0
	}
	out := filepath.Join(dir, "rival", "types.go")
	_ = os.MkdirAll(filepath.Dir(out), 0o755)
	m, err := timed(dir, nil, bin, "-p", "rival", "-o", out, src)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bench-scale: go-jsonschema: %s\n", firstLine(err.Error()))
		return measure{}, 0
	}
	return m, goLines(filepath.Dir(out))
}

// timed runs a command and returns its wall time and peak RSS (of the
// largest process in its tree).
//
// The command runs under a fresh copy of this program (runMeasured), not
// directly: on Linux a child's peak RSS starts at its parent's when it is
// forked, and the harness's own peak (it holds the catalogues) would
// otherwise be reported for every small command.
func timed(dir string, env []string, name string, args ...string) (measure, error) {
	self, err := os.Executable()
	if err != nil {
		return measure{}, err
	}
	report, err := os.CreateTemp("", "bench-scale-measure-")
	if err != nil {
		return measure{}, err
	}
	report.Close()
	defer os.Remove(report.Name())
	cmd := exec.Command(self, append([]string{measureChild, report.Name(), name}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	runErr := cmd.Run()
	var m measure
	var wall int64
	if data, err := os.ReadFile(report.Name()); err == nil {
		if _, err := fmt.Sscan(string(data), &wall, &m.rss); err == nil {
			m.wall = time.Duration(wall)
		}
	}
	if runErr != nil {
		return m, fmt.Errorf("%v: %s", runErr, strings.TrimSpace(stderr.String()))
	}
	if m.wall == 0 {
		return m, fmt.Errorf("%s: no measure reported", name)
	}
	return m, nil
}

// runMeasured runs name with args (inheriting the standard streams),
// writes "WALL_NS PEAK_RSS_BYTES" to the file report and returns the
// command's exit code.
func runMeasured(report, name string, args []string) int {
	cmd := exec.Command(name, args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var rss int64
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		rss = ru.Maxrss << 10 // Linux reports KiB
	}
	if err := os.WriteFile(report, fmt.Appendf(nil, "%d %d\n", wall.Nanoseconds(), rss), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return cmd.ProcessState.ExitCode()
}

func goLines(dir string) int {
	n := 0
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") {
			return err
		}
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			n++
		}
		return nil
	})
	return n
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// repoRoot is the toolgen module root (the bench module sits in
// golden/bench).
func repoRoot() (string, error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/toolgen-go/toolgen").Output()
	if err != nil {
		return "", fmt.Errorf("locating the toolgen module: %w", err)
	}
	return strings.TrimSpace(string(out)), nil
}

func print(rows []row) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "| input\t| tools\t| generate\t| lines/tool\t| go build (package alone)\t| go-jsonschema\t| its lines/tool\t| time ratio\t| lines ratio\t|")
	fmt.Fprintln(tw, "|---\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|--:\t|")
	for _, r := range rows {
		perTool := func(lines int) string {
			if lines == 0 {
				return "—"
			}
			return fmt.Sprintf("%d", lines/max(r.tools, 1))
		}
		ratio := "—"
		if r.rival.wall > 0 && r.generate.wall > 0 {
			ratio = fmt.Sprintf("%.1f×", r.generate.wall.Seconds()/r.rival.wall.Seconds())
		}
		linesRatio := "—"
		if r.rivalLines > 0 && r.lines > 0 {
			linesRatio = fmt.Sprintf("%.1f×", float64(r.lines)/float64(r.rivalLines))
		}
		build := r.build.String()
		if r.err != "" {
			build = "error: " + r.err
		}
		fmt.Fprintf(tw, "| %s\t| %d\t| %s\t| %s\t| %s\t| %s\t| %s\t| %s\t| %s\t|\n", r.name, r.tools, r.generate, perTool(r.lines), build, r.rival, perTool(r.rivalLines), ratio, linesRatio)
	}
	_ = tw.Flush()
	fmt.Println("\nratios = toolgen / go-jsonschema (which emits types only; toolgen also emits decoders, validators, registry and surfaces)")
	// Growth between successive synthetic sizes: linear growth is a
	// ratio close to the size ratio.
	var prev *row
	for i := range rows {
		r := &rows[i]
		if !strings.HasPrefix(r.name, "synthetic ") || r.generate.wall == 0 {
			continue
		}
		if prev != nil {
			fmt.Printf("growth %d → %d tools (%.0f×): generate time %.1f×, peak RSS %.1f×\n", prev.tools, r.tools,
				float64(r.tools)/float64(prev.tools), r.generate.wall.Seconds()/prev.generate.wall.Seconds(), float64(r.generate.rss)/float64(prev.generate.rss))
		}
		prev = r
	}
}
