package conformance

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

var report = flag.Bool("conformance.report", false, "print the pass rate of every keyword file")

// tables runs the suite through runtime/shape tables wherever the
// interpreter covers an object (generator.TablesAlways).
var tables = flag.Bool("conformance.tables", false, "decode and validate every object the runtime/shape interpreter covers through its table")

// wrap runs each case's schema below the tool's parameters, in the place
// the flag names, and each datum there: the suite's verdicts hold there
// too, and those places take other paths through the generated decoder
// (a required property's null, for one) than the parameters themselves.
// Cases whose schema refers into its document ($ref, $id, anchors) are
// left out, since the wrapper moves the document's root; so the pass
// floors are not checked.
var wrap = flag.String("conformance.wrap", "", "run every schema (cases with references left out) as: required (property v, required), optional (property v), items (the items of required array v), values (the additionalProperties of required object v)")

// wrappers are the parameters and arguments of each -conformance.wrap
// place, around a schema and a datum.
var wrappers = map[string][2]func(string) string{
	"required": {func(s string) string { return `{"type":"object","properties":{"v":` + s + `},"required":["v"]}` },
		func(d string) string { return `{"v":` + d + `}` }},
	"optional": {func(s string) string { return `{"type":"object","properties":{"v":` + s + `}}` },
		func(d string) string { return `{"v":` + d + `}` }},
	"items": {func(s string) string {
		return `{"type":"object","properties":{"v":{"type":"array","items":` + s + `}},"required":["v"]}`
	}, func(d string) string { return `{"v":[` + d + `]}` }},
	"values": {func(s string) string {
		return `{"type":"object","properties":{"v":{"type":"object","additionalProperties":` + s + `}},"required":["v"]}`
	}, func(d string) string { return `{"v":{"k":` + d + `}}` }},
}

// tableMode is the generator's table mode for -conformance.tables.
func tableMode() generator.TableMode {
	if *tables {
		return generator.TablesAlways
	}
	return generator.TablesAuto
}

// excluded lists the required keyword files that are not run, with the
// reason; the README repeats it.
var excluded = map[string]string{
	"format.json":     "toolgen asserts formats (a model must be told its date is malformed); the required format tests expect annotation-only behaviour, so the optional/format files for the asserted formats are run instead",
	"vocabulary.json": "custom metaschemas with $vocabulary are out of scope: tool schemas use the standard dialect",
}

// suiteCase is one case of a suite file.
type suiteCase struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []suiteTest     `json:"tests"`
}

type suiteTest struct {
	Description string          `json:"description"`
	Data        json.RawMessage `json:"data"`
	Valid       bool            `json:"valid"`
}

// fileResult is the outcome of one keyword file.
type fileResult struct {
	draft, file   string
	passed, total int
	rejected      int // cases the compiler rejected with a located error
	buildFailure  string
	failures      []string
}

// remotes are the suite's documents served at http://localhost:1234 in
// its own runs (remotes/), by URI: every case compiles with them as extra
// documents (schema.SchemaOptions.Resources), so refRemote.json and the
// remote $dynamicRef cases resolve without a server.
func remotes(t *testing.T, suite string) map[string]*jsonpos.Node {
	t.Helper()
	dir := filepath.Join(suite, "..", "remotes")
	out := map[string]*jsonpos.Node{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		n, err := jsonpos.Parse("remotes/"+rel, data)
		if err != nil {
			return err
		}
		out["http://localhost:1234/"+rel] = n
		return nil
	})
	if err != nil {
		t.Fatalf("remotes: %v", err)
	}
	return out
}

func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("conformance compiles ~80 generated packages; skipped in -short mode")
	}
	suite := corpus.Dir(t, "jsonschema-test-suite", "tests")
	// Each run works in its own folder inside the module (generated
	// packages must import the runtime), so concurrent runs don't collide.
	if err := os.MkdirAll("_work", 0o755); err != nil {
		t.Fatal(err)
	}
	work, err := os.MkdirTemp("_work", "run-")
	if err != nil {
		t.Fatal(err)
	}
	if work, err = filepath.Abs(work); err != nil {
		t.Fatal(err)
	}
	if !*report {
		t.Cleanup(func() { os.RemoveAll(work) })
	}
	var results []*fileResult
	docs := remotes(t, suite)
	for _, draft := range []string{"draft2020-12", "draft7"} {
		results = append(results, runDraft(t, suite, work, draft, draft, "*.json", docs)...)
	}
	// The formats toolgen asserts, from the optional tests.
	optional := runDraft(t, suite, work, "draft2020-12/optional/format", "format2020", "{date-time,date,time,email,hostname,ipv4,ipv6,uri,uuid}.json", docs)
	passed, total := 0, 0
	var lines []string
	for _, r := range results {
		passed += r.passed
		total += r.total
		status := ""
		if r.buildFailure != "" {
			status = " BUILD FAILED"
		}
		lines = append(lines, fmt.Sprintf("%-13s %-28s %4d/%-4d %6.1f%%  rejected cases: %d%s", r.draft, r.file, r.passed, r.total, pct(r.passed, r.total), r.rejected, status))
	}
	if *report {
		for _, l := range lines {
			t.Log(l)
		}
		for _, r := range results {
			for _, f := range r.failures {
				t.Log("  FAIL " + f)
			}
			if r.buildFailure != "" {
				t.Logf("  BUILD %s/%s: %s", r.draft, r.file, r.buildFailure)
			}
		}
	}
	t.Logf("JSON Schema Test Suite (required): %d/%d tests pass (%.1f%%)", passed, total, pct(passed, total))
	fp, ft := 0, 0
	for _, r := range optional {
		fp += r.passed
		ft += r.total
		if *report {
			t.Logf("optional/format %-20s %4d/%-4d %6.1f%%", r.file, r.passed, r.total, pct(r.passed, r.total))
			for _, f := range r.failures {
				t.Log("  FAIL " + f)
			}
		}
	}
	t.Logf("JSON Schema Test Suite (optional/format, asserted formats): %d/%d tests pass (%.1f%%)", fp, ft, pct(fp, ft))
	// The floors ratchet: raise them when the pass counts rise, never lower
	// them to make a change pass.
	if *wrap != "" {
		return
	}
	if passed < requiredFloor {
		t.Errorf("required tests: %d pass, fewer than the %d that passed before; run make conformance to see the failures", passed, requiredFloor)
	}
	if fp < formatFloor {
		t.Errorf("optional format tests: %d pass, fewer than the %d that passed before", fp, formatFloor)
	}
}

// Pass counts reached so far (required tests, optional format tests); a
// change that loses a passing test fails TestConformance. Every required
// test of the files run passes.
const (
	requiredFloor = 1986
	formatFloor   = 409
)

// expandBraces expands one {a,b,c} group in a glob pattern.
func expandBraces(p string) []string {
	i, j := strings.IndexByte(p, '{'), strings.IndexByte(p, '}')
	if i < 0 || j < i {
		return []string{p}
	}
	var out []string
	for _, alt := range strings.Split(p[i+1:j], ",") {
		out = append(out, p[:i]+alt+p[j+1:])
	}
	return out
}

func pct(a, b int) float64 {
	if b == 0 {
		return 100
	}
	return 100 * float64(a) / float64(b)
}

// runDraft generates one package per keyword file of a draft, a driver
// that runs every datum, builds and runs it, and collects the results.
func runDraft(t *testing.T, suite, work, dir, draft, pattern string, docs map[string]*jsonpos.Node) []*fileResult {
	var files []string
	for _, p := range expandBraces(pattern) {
		m, _ := filepath.Glob(filepath.Join(suite, dir, p))
		files = append(files, m...)
	}
	sort.Strings(files)
	draftDir := filepath.Join(work, draft)
	var results []*fileResult
	var pkgs []pkgInfo
	for _, path := range files {
		base := filepath.Base(path)
		if _, skip := excluded[base]; skip {
			continue
		}
		r, filePkgs := generateFile(t, path, draft, draftDir, docs)
		results = append(results, r)
		pkgs = append(pkgs, filePkgs...)
	}
	out, broken, err := runDriver(draftDir, pkgs)
	if err != nil {
		t.Errorf("%s driver: %v", draft, err)
		for _, r := range results {
			if r.buildFailure == "" {
				r.buildFailure = "driver did not run"
			}
		}
		return results
	}
	byFile := map[string]*fileResult{}
	for _, r := range results {
		byFile[r.file] = r
	}
	for _, p := range pkgs {
		if msg, bad := broken[p.name]; bad {
			r := byFile[p.file]
			r.buildFailure = "generated code does not compile"
			for _, tc := range p.c.Tests {
				r.failures = append(r.failures, fmt.Sprintf("%s/%s case %q test %q: build: %s", draft, p.file, p.c.Description, tc.Description, msg))
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var o outcome
		if json.Unmarshal([]byte(line), &o) != nil {
			continue
		}
		r := byFile[o.File]
		if r == nil {
			continue
		}
		if o.Got == o.Want {
			r.passed++
		} else {
			r.failures = append(r.failures, fmt.Sprintf("%s/%s case %q test %q: want valid=%v, got %v %s", draft, o.File, o.Case, o.Test, o.Want, o.Got, o.Err))
		}
	}
	return results
}

// outcome is one line the driver prints.
type outcome struct {
	File string `json:"file"`
	Case string `json:"case"`
	Test string `json:"test"`
	Want bool   `json:"want"`
	Got  bool   `json:"got"`
	Err  string `json:"err,omitempty"`
}

// pkgInfo is one generated package: one case of a keyword file.
type pkgInfo struct {
	name, file string
	c          suiteCase
	// tool is the tool the driver calls ("check" when empty).
	tool string
}

// generateFile compiles every case of one keyword file into its own
// generated package (a tool named "check" whose params are the case's
// schema), so a case the compiler rejects or the generator gets wrong only
// fails its own tests.
func generateFile(t *testing.T, path, draft, draftDir string, docs map[string]*jsonpos.Node) (*fileResult, []pkgInfo) {
	base := filepath.Base(path)
	r := &fileResult{draft: draft, file: base}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var cases []suiteCase
	if err := json.Unmarshal(data, &cases); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	for _, c := range cases {
		r.total += len(c.Tests)
	}
	root, err := jsonpos.Parse(base, data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var pkgs []pkgInfo
	for i, item := range root.Items {
		pkg := fmt.Sprintf("%s%d", packageFor(base), i)
		fail := func(why string) {
			for _, tc := range cases[i].Tests {
				r.failures = append(r.failures, fmt.Sprintf("%s/%s case %q test %q: %s", draft, base, cases[i].Description, tc.Description, why))
			}
		}
		sch := item.Get("schema")
		if *wrap != "" {
			w, ok := wrappers[*wrap]
			if !ok {
				t.Fatalf("-conformance.wrap=%s: choose required, optional, items or values", *wrap)
			}
			text := string(sch.JSON())
			if strings.Contains(text, `"$ref"`) || strings.Contains(text, `"$dynamicRef"`) || strings.Contains(text, `"$recursiveRef"`) ||
				strings.Contains(text, `"$id"`) || strings.Contains(text, `"$anchor"`) || strings.Contains(text, `"$dynamicAnchor"`) {
				r.total -= len(cases[i].Tests)
				continue
			}
			wrapped, err := jsonpos.Parse(base, []byte(w[0](text)))
			if err != nil {
				t.Fatalf("%s: wrapping case %d: %v", path, i, err)
			}
			sch = wrapped
		}
		typ, fam, err := schema.CompileSchema(base, sch, schema.SchemaOptions{Name: "Check", Draft7: draft == "draft7", Resources: docs})
		if err != nil {
			r.rejected++
			fail("rejected: " + firstLine(err.Error()))
			continue
		}
		fam.Package = pkg
		if typ.GoName == "" {
			// Tool params are always a named type; a bare schema of a
			// scalar kind gets one here.
			typ.GoName = "CheckParams"
			fam.Types = append([]*ir.Type{typ}, fam.Types...)
		}
		fam.Tools = []*ir.Tool{{Name: "check", GoName: "Check", Description: cases[i].Description, Params: typ, ParamsSchema: sch.JSON(), Pos: sch.Pos}}
		files, err := generator.Generate(fam, generator.Options{Package: pkg, Sources: []string{base}, Tables: tableMode()})
		if err != nil {
			r.rejected++
			fail("generate: " + firstLine(err.Error()))
			continue
		}
		dir := filepath.Join(draftDir, pkg)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if err := os.WriteFile(filepath.Join(dir, f.Path), f.Bytes, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		pkgs = append(pkgs, pkgInfo{name: pkg, file: base, c: cases[i]})
	}
	return r, pkgs
}

func packageFor(file string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(strings.TrimSuffix(file, ".json")) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			b.WriteRune(r)
		}
	}
	return "k" + b.String()
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// runDriver builds every generated package once (go build keeps going past
// a broken package and names each one), writes a main package that runs
// every datum of the packages that built through their DecodeArgs, and
// runs it. It returns the driver's output and the build errors of the
// packages left out, by package name.
func runDriver(draftDir string, pkgs []pkgInfo) (string, map[string]string, error) {
	return runDriverIn(draftDir, "github.com/toolgen-go/toolgen/golden/conformance/_work/"+filepath.Base(filepath.Dir(draftDir))+"/", pkgs)
}

// runDriverIn is runDriver for packages whose folder's parent has the
// import path modPath (ending in a slash).
func runDriverIn(draftDir, modPath string, pkgs []pkgInfo) (string, map[string]string, error) {
	cmd := exec.Command("go", "build", "./"+filepath.Base(draftDir)+"/...")
	cmd.Dir = filepath.Dir(draftDir)
	out, err := cmd.CombinedOutput()
	broken := map[string]string{}
	if err != nil {
		broken = brokenPackages(string(out))
		if len(broken) == 0 {
			return "", nil, fmt.Errorf("go build: %v\n%s", err, out)
		}
	}
	var keep []pkgInfo
	for _, p := range pkgs {
		if _, bad := broken[p.name]; !bad {
			keep = append(keep, p)
		}
	}
	if err := writeDriver(draftDir, modPath, keep); err != nil {
		return "", nil, err
	}
	run := exec.Command("go", "run", "./"+filepath.Base(draftDir)+"/driver")
	run.Dir = filepath.Dir(draftDir)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		return "", nil, fmt.Errorf("driver: %v\n%s", err, stderr.String())
	}
	return stdout.String(), broken, nil
}

// brokenPackages reads go build's output: a "# import/path" line starts the
// errors of each package that failed.
func brokenPackages(out string) map[string]string {
	broken := map[string]string{}
	cur := ""
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "# ") {
			cur = path.Base(strings.TrimSpace(strings.TrimPrefix(line, "# ")))
			broken[cur] = ""
			continue
		}
		if cur != "" && broken[cur] == "" && strings.TrimSpace(line) != "" {
			broken[cur] = strings.TrimSpace(line)
		}
	}
	return broken
}

func writeDriver(draftDir, modPath string, pkgs []pkgInfo) error {
	var b strings.Builder
	b.WriteString("// Code generated by the conformance test. DO NOT EDIT.\n\npackage main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n\t\"os\"\n")
	imported := map[string]bool{}
	for _, p := range pkgs {
		if imported[p.name] {
			continue
		}
		imported[p.name] = true
		fmt.Fprintf(&b, "\t%s %q\n", p.name, modPath+filepath.Base(draftDir)+"/"+p.name)
	}
	b.WriteString(")\n\ntype outcome struct {\n\tFile string `json:\"file\"`\n\tCase string `json:\"case\"`\n\tTest string `json:\"test\"`\n\tWant bool `json:\"want\"`\n\tGot bool `json:\"got\"`\n\tErr string `json:\"err,omitempty\"`\n}\n\n")
	b.WriteString("func run(file, c, test string, want bool, decode func(string, []byte) (any, error), tool string, data string) {\n\tvar got bool\n\tvar msg string\n\tfunc() {\n\t\tdefer func() {\n\t\t\tif r := recover(); r != nil {\n\t\t\t\tgot, msg = !want, fmt.Sprint(\"panic: \", r)\n\t\t\t}\n\t\t}()\n\t\t_, err := decode(tool, []byte(data))\n\t\tgot = err == nil\n\t\tif err != nil {\n\t\t\tmsg = err.Error()\n\t\t}\n\t}()\n\tout, _ := json.Marshal(outcome{file, c, test, want, got, msg})\n\tos.Stdout.Write(append(out, '\\n'))\n}\n\nfunc main() {\n")
	for _, p := range pkgs {
		for _, tc := range p.c.Tests {
			tool := p.tool
			if tool == "" {
				tool = "check"
			}
			data := string(tc.Data)
			if *wrap != "" && p.tool == "" {
				data = wrappers[*wrap][1](data)
			}
			fmt.Fprintf(&b, "\trun(%q, %q, %q, %v, %s.DecodeArgs, %q, %q)\n", p.file, p.c.Description, tc.Description, tc.Valid, p.name, tool, data)
		}
	}
	b.WriteString("}\n")
	dir := filepath.Join(draftDir, "driver")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	src, err := format.Source([]byte(b.String()))
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.go"), src, 0o644)
}
