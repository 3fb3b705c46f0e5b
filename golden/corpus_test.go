package golden

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// corpusWork is the gitignored folder the corpus packages are written to;
// the leading underscore keeps it out of ./... patterns.
const corpusWork = "_corpus"

// corpusPackage turns a corpus file's path (relative to the tools folder)
// into a folder and package name: mcp_npm/server-memory.tools.json →
// mcp_npm_server_memory.
func corpusPackage(rel string) string {
	rel = strings.TrimSuffix(filepath.ToSlash(rel), ".tools.json")
	var b strings.Builder
	for _, r := range strings.ToLower(rel) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name == "" || name[0] >= '0' && name[0] <= '9' {
		name = "c" + name
	}
	return name
}

// corpusResult is what one corpus file produced.
type corpusResult struct {
	rel, pkg string
	tools    int
	lines    int
	lenient  string // the strict-mode error when only lenient mode built it
	err      error  // load, compile, taxonomy or generate error
}

// generateCorpusFile runs the pipeline over one corpus file, strictly first
// and leniently when strict mode rejects it (real tool sets carry
// non-standard type names such as "dict").
func generateCorpusFile(path, rel string) (corpusResult, []generator.File) {
	res := corpusResult{rel: rel, pkg: corpusPackage(rel)}
	data, err := os.ReadFile(path)
	if err != nil {
		res.err = err
		return res, nil
	}
	in := []load.Input{{Name: filepath.Base(path), Data: string(data)}}
	build := func(lenient bool) ([]generator.File, int, error) {
		fam, err := schema.Build(in, schema.BuildOptions{Package: res.pkg, Options: load.Options{Lenient: lenient}})
		if err != nil {
			return nil, 0, err
		}
		if err := taxonomy.Derive(fam, nil); err != nil {
			return nil, 0, fmt.Errorf("taxonomy: %w", err)
		}
		files, err := generator.Generate(fam, generator.Options{Package: res.pkg, Sources: []string{in[0].Name}})
		return files, len(fam.Tools), err
	}
	files, tools, err := build(false)
	if err != nil {
		strict := err
		if files, tools, err = build(true); err == nil {
			res.lenient = strict.Error()
		}
	}
	res.tools, res.err = tools, err
	for _, f := range files {
		res.lines += bytes.Count(f.Bytes, []byte("\n"))
	}
	return res, files
}

// TestCorpus generates a package from every ../shared/corpus/tools/**/*.tools.json,
// writes it under golden/_corpus/<name>/ and compiles and vets them all with
// one go vet subprocess. It fails naming each file that does not generate, compile or
// vet.
func TestCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("corpus compile test skipped in -short mode")
	}
	root, err := corpus.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	toolsDir := corpus.Dir(t, "tools")
	var paths []string
	err = filepath.WalkDir(toolsDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".tools.json") {
			paths = append(paths, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) == 0 {
		t.Skipf("no *.tools.json under %s", toolsDir)
	}
	sort.Strings(paths)

	// The work folder is updated in place (files replaced atomically, stale
	// ones removed) rather than recreated, so that concurrent runs in the
	// same tree see complete packages.
	work := filepath.Join(root, "golden", corpusWork)
	var results []corpusResult
	byPkg := map[string]*corpusResult{}
	for _, p := range paths {
		rel, _ := filepath.Rel(toolsDir, p)
		res, files := generateCorpusFile(p, rel)
		if res.err == nil {
			if err := syncPackage(filepath.Join(work, res.pkg), files); err != nil {
				t.Fatal(err)
			}
		}
		results = append(results, res)
	}
	for i := range results {
		byPkg[results[i].pkg] = &results[i]
	}
	if entries, err := os.ReadDir(work); err == nil {
		for _, e := range entries {
			if r := byPkg[e.Name()]; r == nil || r.err != nil {
				os.RemoveAll(filepath.Join(work, e.Name()))
			}
		}
	}

	// One go vet compiles and vets every package that generated. The
	// packages are named one by one: a ./... pattern skips folders starting
	// with "_", even at its root.
	var pkgs []string
	for _, r := range results {
		if r.err == nil {
			pkgs = append(pkgs, "./golden/"+corpusWork+"/"+r.pkg)
		}
	}
	vetOut, vetErr := goVet(t, root, pkgs)
	vetFailures := attributeVet(vetOut, byPkg)

	var files, tools, lines, generated int
	for _, r := range results {
		files++
		switch {
		case r.err != nil:
			t.Errorf("%s: does not generate: %v", r.rel, r.err)
			continue
		case vetFailures[r.pkg] != "":
			t.Errorf("%s: generated package golden/%s/%s does not compile or vet:\n%s", r.rel, corpusWork, r.pkg, vetFailures[r.pkg])
		}
		generated++
		tools += r.tools
		lines += r.lines
		if r.lenient != "" {
			t.Logf("%s: generated in lenient mode only (strict: %s)", r.rel, firstLine(r.lenient))
		}
	}
	if vetErr != nil && len(vetFailures) == 0 {
		t.Errorf("go vet of golden/%s failed: %v\n%s", corpusWork, vetErr, vetOut)
	}
	t.Logf("corpus: %d files, %d generated (%d tools, %d generated lines), %d failed to compile or vet",
		files, generated, tools, lines, len(vetFailures))
}

// syncPackage makes dir hold exactly files: changed files are written to a
// temporary name and renamed into place, other files are removed.
func syncPackage(dir string, files []generator.File) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	want := map[string]bool{}
	for _, f := range files {
		want[f.Path] = true
		path := filepath.Join(dir, f.Path)
		if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, f.Bytes) {
			continue
		}
		tmp, err := os.CreateTemp(dir, ".tmp-*")
		if err != nil {
			return err
		}
		_, err = tmp.Write(f.Bytes)
		if cerr := tmp.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = os.Rename(tmp.Name(), path)
		}
		if err != nil {
			os.Remove(tmp.Name())
			return err
		}
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !want[e.Name()] && !strings.HasPrefix(e.Name(), ".tmp-") {
			if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// goVet runs go vet over the packages and returns its combined output.
func goVet(t *testing.T, root string, pkgs []string) (string, error) {
	t.Helper()
	if len(pkgs) == 0 {
		return "", nil
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "go", append([]string{"vet"}, pkgs...)...)
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("go vet: %v", err)
	}
	return string(out), err
}

// attributeVet splits go vet output by package folder: each line naming
// golden/_corpus/<pkg>/ (a diagnostic) or ending in /_corpus/<pkg> (a
// "# import/path" header) goes to that package.
func attributeVet(out string, byPkg map[string]*corpusResult) map[string]string {
	failures := map[string]string{}
	marker := corpusWork + "/"
	current := ""
	for _, line := range strings.Split(out, "\n") {
		if line == "" {
			continue
		}
		if i := strings.Index(line, marker); i >= 0 {
			name, _, _ := strings.Cut(line[i+len(marker):], "/")
			name, _, _ = strings.Cut(name, ":")
			name = strings.TrimSpace(name)
			if _, ok := byPkg[name]; ok {
				current = name
			}
		}
		if current != "" {
			failures[current] += line + "\n"
		}
	}
	return failures
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func TestCorpusPackage(t *testing.T) {
	for rel, want := range map[string]string{
		"mcp_npm/server-memory.tools.json":         "mcp_npm_server_memory",
		"tau_bench/ALL.tools.json":                 "tau_bench_all",
		"gorilla_openfunctions_v1/test.tools.json": "gorilla_openfunctions_v1_test",
		"9lives.tools.json":                        "c9lives",
	} {
		if got := corpusPackage(rel); got != want {
			t.Errorf("corpusPackage(%q) = %q, want %q", rel, got, want)
		}
	}
}

func TestAttributeVet(t *testing.T) {
	out := "# github.com/toolgen-go/toolgen/golden/_corpus/a_b\n" +
		"vet: golden/_corpus/a_b/types_gen.go:2:12: declared and not used: x\n" +
		"golden/_corpus/c/tools_gen.go:9:2: unreachable code\n"
	got := attributeVet(out, map[string]*corpusResult{"a_b": {}, "c": {}, "d": {}})
	if len(got) != 2 || !strings.Contains(got["a_b"], "declared and not used") || !strings.Contains(got["c"], "unreachable") {
		t.Errorf("attributeVet = %q", got)
	}
}

// BenchmarkPipelineCorpus measures the whole generation pipeline (load,
// compile, taxonomy, emit and gofmt) on the largest corpus file: 133 MCP
// tools, ~24k generated lines.
func BenchmarkPipelineCorpus(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(corpus.Dir(b, "tools", "mcp_npm"), "ALL.tools.json"))
	if err != nil {
		b.Fatal(err)
	}
	inputs := []load.Input{{Name: "ALL.tools.json", Data: string(data)}}
	b.ReportAllocs()
	for b.Loop() {
		fam, err := schema.Build(inputs, schema.BuildOptions{Package: "all"})
		if err != nil {
			b.Fatal(err)
		}
		if err := taxonomy.Derive(fam, nil); err != nil {
			b.Fatal(err)
		}
		if _, err := generator.Generate(fam, generator.Options{Package: "all"}); err != nil {
			b.Fatal(err)
		}
	}
}
