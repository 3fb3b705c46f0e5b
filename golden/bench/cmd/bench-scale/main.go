// Command bench-scale measures toolgen on large catalogues (make
// bench-scale): for each input it runs toolgen generate and then go build
// on the generated package alone, reporting wall time and peak RSS of
// both, and generated lines per tool; then it runs go-jsonschema
// (github.com/atombender/go-jsonschema) on the same schemas, each tool's
// parameters as one $defs entry, for a ratio.
//
// Inputs: synthetic catalogues (package scale) of the -sizes given, one
// object with -wide properties, and the ACEBench tools of
// ../shared/corpus/search when present. Timings are wall-clock on this
// machine; run it on an idle machine.
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

func main() {
	sizes := flag.String("sizes", "100,1000,10000", "synthetic catalogue sizes, comma-separated")
	buildUpTo := flag.Int("build-up-to", 1000, "go build the generated package only for inputs with at most this many tools (0: never)")
	wide := flag.Int("wide", 5000, "properties of the wide-object input (0: skip)")
	rival := flag.String("rival", "github.com/atombender/go-jsonschema@v0.24.1", "go-jsonschema module@version to compare with (empty: skip)")
	acebench := flag.String("acebench", "../../../shared/corpus/search/acebench.tools.json", "ACEBench tools file (skipped when absent)")
	flag.Parse()
	if err := run(*sizes, *buildUpTo, *wide, *rival, *acebench); err != nil {
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
}

type row struct {
	input
	generate, build, rival measure
	lines, rivalLines      int
	err                    string
}

func run(sizes string, buildUpTo, wide int, rivalMod, acebench string) error {
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
		inputs = append(inputs, input{fmt.Sprintf("synthetic %d", n), n, scale.Catalogue(n, 1)})
	}
	if data, err := os.ReadFile(acebench); err == nil {
		var tools []json.RawMessage
		if json.Unmarshal(data, &tools) == nil {
			inputs = append(inputs, input{"ACEBench (visible set)", len(tools), data})
		}
	}
	if wide > 0 {
		inputs = append(inputs, input{fmt.Sprintf("%d properties in one object", wide), 1, scale.WideObject(wide)})
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
	m, err := timed(dir, nil, toolgen, "generate", "-q", "-p", "pkg", "-o", pkg, src)
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
		_, _ = timed(dir, []string{"GOFLAGS=-mod=mod"}, "go", "build", "github.com/toolgen-go/toolgen/runtime/...")
		if m, err := timed(dir, []string{"GOFLAGS=-mod=mod"}, "go", "build", "./pkg"); err != nil {
			r.err = "go build: " + firstLine(err.Error())
		} else {
			r.build = m
		}
	}
	if rivalBin != "" && in.tools > 1 {
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

// timed runs a command and returns its wall time and peak RSS.
func timed(dir string, env []string, name string, args ...string) (measure, error) {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	m := measure{wall: time.Since(start)}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		m.rss = ru.Maxrss << 10 // Linux reports KiB
	}
	if err != nil {
		return m, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return m, nil
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
	fmt.Fprintln(tw, "| input\t| tools\t| generate\t| lines/tool\t| go build (package alone)\t| go-jsonschema\t| its lines/tool\t| time ratio\t|")
	fmt.Fprintln(tw, "|---\t|---\t|---\t|---\t|---\t|---\t|---\t|---\t|")
	for _, r := range rows {
		perTool := func(lines int) string {
			if lines == 0 {
				return "—"
			}
			return fmt.Sprintf("%d", lines/max(r.tools, 1))
		}
		ratio := "—"
		if r.rival.wall > 0 && r.generate.wall > 0 {
			ratio = fmt.Sprintf("%.2f×", r.generate.wall.Seconds()/r.rival.wall.Seconds())
		}
		build := r.build.String()
		if r.err != "" {
			build = "error: " + r.err
		}
		fmt.Fprintf(tw, "| %s\t| %d\t| %s\t| %s\t| %s\t| %s\t| %s\t| %s\t|\n", r.name, r.tools, r.generate, perTool(r.lines), build, r.rival, perTool(r.rivalLines), ratio)
	}
	_ = tw.Flush()
	fmt.Println("\ntime ratio = toolgen generate / go-jsonschema (types only; toolgen also emits decoders, validators, registry and surfaces)")
}
