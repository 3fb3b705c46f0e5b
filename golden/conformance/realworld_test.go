package conformance

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp/syntax"
	"slices"
	"sort"
	"strings"
	"testing"
	"text/template"

	"github.com/dlclark/regexp2"
	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// realWorldSets are the tool sets of the shared corpus the differential
// test runs: every tool of each, as the file gives it.
// The small sets run twice: with generated methods (what TablesAuto gives
// them) and through runtime/shape tables wherever the interpreter covers
// an object; ACEBench, a large family, is tabled already.
var realWorldSets = []struct {
	pkg, path string
	tables    generator.TableMode
}{
	{"rwgorilla", "tools/gorilla_openfunctions_v1/ALL.tools.json", generator.TablesAuto},
	{"rwgorillat", "tools/gorilla_openfunctions_v1/ALL.tools.json", generator.TablesAlways},
	{"rwmcp", "tools/mcp_npm/ALL.tools.json", generator.TablesAuto},
	{"rwmcpt", "tools/mcp_npm/ALL.tools.json", generator.TablesAlways},
	{"rwtau", "tools/tau_bench/ALL.tools.json", generator.TablesAuto},
	{"rwtaut", "tools/tau_bench/ALL.tools.json", generator.TablesAlways},
	{"rwacebench", "search/acebench.tools.json", generator.TablesAuto},
}

// TestRealWorldDifferential checks generated decode+validate against the
// reference validator on real tool definitions rather than on one keyword
// at a time: for every tool of the shared corpus it synthesises arguments
// from the tool's own schema (a plausible call, then that call with one
// thing wrong: a required argument left out, a value of another type, out
// of its bounds, too long or short, not in its enum, not of its format,
// each oneOf/anyOf branch, null, an unknown argument, the same at one
// level down), asks the
// reference validator (santhosh-tekuri/jsonschema, formats asserted,
// ECMA-262 patterns) for each verdict and requires the generated
// package's DecodeArgs to give the same one, or a difference by design
// (knownDifference). ACEBench's 2,307 tools make most of it: about 54,000
// of the 61,000 instances, and a generated package that takes half a
// minute and 1.5 GB to build.
func TestRealWorldDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generated packages")
	}
	root := filepath.Dir(corpus.Dir(t, "tools"))
	work := filepath.Join(tempModule(t), "realworld")
	var pkgs []pkgInfo
	schemas := map[string]any{} // file, tool: its parameters schema
	tools, instances := 0, 0
	for _, set := range realWorldSets {
		data, err := os.ReadFile(filepath.Join(root, set.path))
		if os.IsNotExist(err) {
			t.Logf("%s: not in the corpus; skipped", set.path)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		generateSet(t, filepath.Join(work, set.pkg), set.pkg, set.tables, data)
		for _, c := range referenceCases(t, set.pkg, data, schemas) {
			tools++
			instances += len(c.Tests)
			pkgs = append(pkgs, pkgInfo{name: set.pkg, file: set.pkg + ".json", c: c, tool: c.Description})
		}
	}
	out, err := runCaseDriver(work, pkgs)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []realWorldOutcome
	validBase := map[string]bool{} // file, tool: its plausible call is valid
	for line := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var o realWorldOutcome
		if err := json.Unmarshal([]byte(line), &o); err != nil {
			t.Fatalf("driver output %q: %v", line, err)
		}
		outcomes = append(outcomes, o)
		if o.Test == "plausible call" && o.Want && o.Got {
			validBase[o.File+"\x00"+o.Case] = true
		}
	}
	total, agree, valid, plausible, located, roundTrips, defaults := 0, 0, 0, 0, 0, 0, 0
	known := map[string]int{}
	var fails []string
	for _, o := range outcomes {
		total++
		if o.Want {
			valid++
			if o.Test == "plausible call" {
				plausible++
			}
		}
		if o.Got {
			roundTrips++
			if o.Lost != "" {
				fails = append(fails, fmt.Sprintf("%s: %s: %s: accepted, but the params encoded again lose what was sent: %s", o.File, o.Case, o.Test, o.Lost))
			}
			params := schemas[o.File+"\x00"+o.Case]
			var in, back any
			json.Unmarshal([]byte(o.Data), &in)
			json.Unmarshal([]byte(o.Back), &back)
			for _, a := range addedMembers(&synth{root: params}, params, in, back, "", &defaults) {
				fails = append(fails, fmt.Sprintf("%s: %s: %s: accepted, and the params hold what was not sent: %s", o.File, o.Case, o.Test, a))
			}
		}
		if o.Got == o.Want {
			agree++
			// A call that differs from a valid one at one place is
			// refused with an error located there or below.
			if ptr, _, ok := strings.Cut(o.Test, ": "); ok && !o.Want && validBase[o.File+"\x00"+o.Case] {
				located++
				if !strings.Contains(o.Err, ptr+": ") && !strings.Contains(o.Err, ptr+"/") {
					fails = append(fails, fmt.Sprintf("%s: %s: %s: the error does not name %s or a pointer below it: %s", o.File, o.Case, o.Test, ptr, o.Err))
				}
			}
			continue
		}
		if why := knownDifference(o.outcome); why != "" {
			known[why]++
			continue
		}
		fails = append(fails, fmt.Sprintf("%s: %s: %s: reference valid=%v, generated valid=%v %s", o.File, o.Case, o.Test, o.Want, o.Got, o.Err))
	}
	sort.Strings(fails)
	for _, f := range fails {
		t.Error(f)
	}
	t.Logf("real-world differential: %d tools (%d plausible calls valid by the reference), %d instances (%d valid); %d agree", tools, plausible, total, valid, agree)
	t.Logf("%d refused calls one change away from a valid one, each refused at the changed place", located)
	t.Logf("%d accepted calls decode into params that encode back to every declared member sent, unchanged, and to nothing else but %d defaults applied", roundTrips, defaults)
	for why, n := range known {
		t.Logf("%d differ by design: %s", n, why)
	}
	if total != instances {
		t.Errorf("driver ran %d instances, want %d", total, instances)
	}
}

// realWorldOutcome is an outcome of the case driver: with Lost, where the
// params of an accepted call, encoded again, lose a member sent.
type realWorldOutcome struct {
	outcome
	Lost string `json:"lost,omitempty"`
	// Data is the call; Back its params, when accepted, encoded again.
	Data string `json:"data"`
	Back string `json:"back,omitempty"`
}

// generateSet writes the package generated from a tool set (data) into dir.
func generateSet(t *testing.T, dir, pkg string, tables generator.TableMode, data []byte) {
	t.Helper()
	file := pkg + ".json"
	fam, err := schema.Build([]load.Input{{Name: file, Data: string(data)}}, schema.BuildOptions{Package: pkg})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	files, err := generator.Generate(fam, generator.Options{Package: pkg, Sources: []string{file}, Tables: tables})
	if err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.Path), f.Bytes, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// referenceCases returns one case per tool of the set (data): the
// synthesised calls, each with the reference validator's verdict.
func referenceCases(t *testing.T, pkg string, data []byte, schemas map[string]any) []suiteCase {
	t.Helper()
	var defs []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(data, &defs); err != nil {
		t.Fatalf("%s: %v", pkg, err)
	}
	rc := referenceCompiler()
	var cases []suiteCase
	for i, d := range defs {
		url := fmt.Sprintf("mem:///%s/%d.json", pkg, i)
		var params any
		if err := json.Unmarshal(d.Function.Parameters, &params); err != nil {
			t.Fatalf("%s: %s: %v", pkg, d.Function.Name, err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(d.Function.Parameters)))
		if err != nil {
			t.Fatal(err)
		}
		if err := rc.AddResource(url, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := rc.Compile(url)
		if err != nil {
			t.Errorf("%s: %s: the reference validator rejects the schema: %v", pkg, d.Function.Name, err)
			continue
		}
		schemas[pkg+".json\x00"+d.Function.Name] = params
		c := suiteCase{Description: d.Function.Name}
		for _, in := range synthesize(d.Function.Name, params) {
			v, err := jsonschema.UnmarshalJSON(strings.NewReader(in.data))
			if err != nil {
				t.Fatalf("instance %s: %v", in.data, err)
			}
			c.Tests = append(c.Tests, suiteTest{Description: in.label, Data: json.RawMessage(in.data), Valid: sch.Validate(v) == nil})
		}
		cases = append(cases, c)
	}
	return cases
}

// addedMembers compares the params of an accepted call, encoded again
// (back), with the call (in), below ptr: a member back holds that in did
// not send must be the default sch gives it. It returns the members that
// are not, and counts the defaults it saw applied.
func addedMembers(s *synth, sch, in, back any, ptr string, defaults *int) []string {
	m := s.resolve(sch)
	var out []string
	switch x := in.(type) {
	case map[string]any:
		b, _ := back.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		for k, v := range b {
			if sent, ok := x[k]; ok {
				out = append(out, addedMembers(s, props[k], sent, v, ptr+"/"+k, defaults)...)
				continue
			}
			def, ok := s.resolve(props[k])["default"]
			if ok && fmt.Sprint(def) == fmt.Sprint(v) {
				*defaults++
				continue
			}
			out = append(out, fmt.Sprintf("%s/%s: %v, not sent, is in the params (its default: %v)", ptr, k, v, def))
		}
	case []any:
		b, _ := back.([]any)
		for i := range min(len(x), len(b)) {
			out = append(out, addedMembers(s, m["items"], x[i], b[i], fmt.Sprintf("%s/%d", ptr, i), defaults)...)
		}
	}
	return out
}

// knownDifference names why a disagreement is by design, or returns "".
func knownDifference(o outcome) string {
	if o.Want && !o.Got && strings.Contains(o.Err, "is outside the 64-bit range") {
		return "an integer beyond int64 (JSON Schema allows it; the Go field is an int64, so it is refused with a located error rather than wrapped)"
	}
	return ""
}

// runCaseDriver builds the generated packages under work (one per
// pkgInfo name) with a driver that reads every case from a file, calls
// the package's DecodeArgs and prints one outcome per line: a data-driven
// driver, so that thousands of tools make a small program.
func runCaseDriver(work string, pkgs []pkgInfo) (string, error) {
	type driverCase struct {
		Pkg, File, Tool, Test, Data string
		Want                        bool
	}
	var cases []driverCase
	var names []string
	for _, p := range pkgs {
		if !slices.Contains(names, p.name) {
			names = append(names, p.name)
		}
		for _, tc := range p.c.Tests {
			cases = append(cases, driverCase{p.name, p.file, p.tool, tc.Description, string(tc.Data), tc.Valid})
		}
	}
	var imports []struct{ Name, Path string }
	for _, n := range names {
		imports = append(imports, struct{ Name, Path string }{n, "matrixwork/" + filepath.Base(work) + "/" + n})
	}
	tmpl, err := template.ParseFiles(filepath.Join("testdata", "realworld_driver.go.tmpl"))
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := tmpl.Execute(&b, imports); err != nil {
		return "", err
	}
	dir := filepath.Join(work, "driver")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(dir, "main.go"), []byte(b.String()), 0o644); err != nil {
		return "", err
	}
	casesFile := filepath.Join(work, "cases.json")
	data, err := json.Marshal(cases)
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(casesFile, data, 0o644); err != nil {
		return "", err
	}
	bin := filepath.Join(work, "driver.bin")
	build := exec.Command("go", "build", "-o", bin, "./"+filepath.Base(work)+"/driver")
	build.Dir = filepath.Dir(work)
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	run := exec.Command(bin, casesFile)
	var stdout, stderr bytes.Buffer
	run.Stdout, run.Stderr = &stdout, &stderr
	if err := run.Run(); err != nil {
		return "", fmt.Errorf("driver: %v\n%s", err, stderr.String())
	}
	return stdout.String(), nil
}

// referenceCompiler is the reference validator of the keyword matrix and
// the real-world differential: draft 2020-12 unless a schema says
// otherwise, formats asserted, patterns with ECMA-262 semantics.
func referenceCompiler() *jsonschema.Compiler {
	rc := jsonschema.NewCompiler()
	rc.DefaultDraft(jsonschema.Draft2020)
	rc.AssertFormat()
	rc.UseRegexpEngine(func(p string) (jsonschema.Regexp, error) {
		re, err := regexp2.Compile(p, regexp2.ECMAScript)
		if err != nil {
			return nil, err
		}
		return ecmaRegexp{re}, nil
	})
	return rc
}

// instance is one synthesised argument object and what was done to it.
type instance struct{ label, data string }

// maxInstances bounds the instances of one tool.
const maxInstances = 100

// synthesize returns arguments for a tool whose parameters schema is
// params: a plausible call built from the schema (seeded by the tool's
// name, so every run makes the same), then copies with one change each.
// Labels say what changed; whether each is valid is the reference
// validator's to say.
func synthesize(name string, params any) []instance {
	h := fnv.New64a()
	h.Write([]byte(name))
	s := &synth{r: rand.New(rand.NewPCG(h.Sum64(), 1)), root: params}
	base := s.value(params, 0)
	s.top = base
	var out []instance
	add := func(label string, v any) {
		if len(out) >= maxInstances {
			return
		}
		b, err := json.Marshal(v)
		if err != nil {
			panic(err)
		}
		for _, o := range out {
			if o.data == string(b) {
				return
			}
		}
		out = append(out, instance{label, string(b)})
	}
	add("plausible call", base)
	if obj, ok := base.(map[string]any); ok {
		// The optional arguments left out: their defaults apply.
		req := map[string]any{}
		m := s.resolve(params)
		rs, _ := m["required"].([]any)
		for _, r := range rs {
			if n, ok := r.(string); ok {
				if v, ok := obj[n]; ok {
					req[n] = v
				}
			}
		}
		add("only the required arguments", req)
	}
	add("no arguments", map[string]any{})
	add("not an object", []any{})
	s.mutate("", params, base, add, 0)
	return out
}

// synth builds values from JSON Schemas (decoded with encoding/json).
type synth struct {
	r    *rand.Rand
	root any
	// top is the plausible call the mutations start from.
	top any
}

// resolve follows local $refs ("#/$defs/X", "#/definitions/X").
func (s *synth) resolve(sch any) map[string]any {
	m, _ := sch.(map[string]any)
	for range 8 {
		ref, ok := m["$ref"].(string)
		if !ok || !strings.HasPrefix(ref, "#") {
			return m
		}
		var cur any = s.root
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#"), "/") {
			if tok == "" {
				continue
			}
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			cm, _ := cur.(map[string]any)
			cur = cm[tok]
		}
		m, _ = cur.(map[string]any)
	}
	return m
}

// types lists the schema's types, null last.
func types(m map[string]any) []string {
	var ts []string
	switch t := m["type"].(type) {
	case string:
		ts = []string{t}
	case []any:
		for _, x := range t {
			if s, ok := x.(string); ok {
				ts = append(ts, s)
			}
		}
	}
	sort.SliceStable(ts, func(i, j int) bool { return ts[j] == "null" && ts[i] != "null" })
	if len(ts) == 0 {
		if _, ok := m["properties"]; ok {
			return []string{"object"}
		}
		if _, ok := m["items"]; ok {
			return []string{"array"}
		}
	}
	return ts
}

func num(m map[string]any, key string) (float64, bool) {
	f, ok := m[key].(float64)
	return f, ok
}

// value builds a value meant to satisfy sch.
func (s *synth) value(sch any, depth int) any {
	m := s.resolve(sch)
	if m == nil || depth > 6 {
		return nil
	}
	if c, ok := m["const"]; ok {
		return c
	}
	if e, ok := m["enum"].([]any); ok && len(e) > 0 {
		return e[s.r.IntN(len(e))]
	}
	for _, key := range []string{"oneOf", "anyOf"} {
		if bs, ok := m[key].([]any); ok && len(bs) > 0 {
			return s.value(bs[s.r.IntN(len(bs))], depth+1)
		}
	}
	if bs, ok := m["allOf"].([]any); ok && len(bs) > 0 && len(types(m)) == 0 {
		return s.value(bs[0], depth+1)
	}
	ts := types(m)
	if len(ts) == 0 {
		return "x"
	}
	switch ts[0] {
	case "object":
		obj := map[string]any{}
		props, _ := m["properties"].(map[string]any)
		req := map[string]bool{}
		if rs, ok := m["required"].([]any); ok {
			for _, r := range rs {
				if n, ok := r.(string); ok {
					req[n] = true
				}
			}
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			if req[n] || s.r.IntN(2) == 0 {
				obj[n] = s.value(props[n], depth+1)
			}
		}
		for n := range req {
			if _, ok := obj[n]; !ok {
				obj[n] = "x"
			}
		}
		return obj
	case "array":
		lo, _ := num(m, "minItems")
		n := int(lo) + s.r.IntN(3)
		if hi, ok := num(m, "maxItems"); ok && float64(n) > hi {
			n = int(hi)
		}
		arr := []any{}
		prefix, _ := m["prefixItems"].([]any)
		if tuple, ok := m["items"].([]any); ok {
			prefix = tuple
		}
		for i := range n {
			switch {
			case i < len(prefix):
				arr = append(arr, s.value(prefix[i], depth+1))
			case m["items"] != nil && !isList(m["items"]):
				arr = append(arr, s.value(m["items"], depth+1))
			default:
				arr = append(arr, "x")
			}
		}
		if m["uniqueItems"] == true && len(arr) > 1 {
			arr = arr[:1]
		}
		return arr
	case "string":
		return s.str(m)
	case "integer", "number":
		return s.number(m, ts[0] == "integer")
	case "boolean":
		return s.r.IntN(2) == 0
	}
	return nil
}

func isList(v any) bool { _, ok := v.([]any); return ok }

// formatSamples are valid values of the formats tool schemas use.
var formatSamples = map[string]string{
	"date": "2024-03-15", "date-time": "2024-03-15T10:30:00Z", "time": "10:30:00Z",
	"email": "ana@example.com", "uri": "https://example.com/a", "url": "https://example.com/a",
	"uuid": "0b5f0a2c-7e1d-4c3b-9a8f-2d6e4f1a0c90", "ipv4": "192.0.2.1", "ipv6": "2001:db8::1",
	"hostname": "example.com", "duration": "P3D", "uri-reference": "/a/b",
}

func (s *synth) str(m map[string]any) string {
	v := "text"
	if f, ok := m["format"].(string); ok && formatSamples[f] != "" {
		v = formatSamples[f]
	}
	if p, ok := m["pattern"].(string); ok {
		if sample, ok := patternSample(p); ok {
			return sample
		}
	}
	if lo, ok := num(m, "minLength"); ok {
		for float64(len([]rune(v))) < lo {
			v += "a"
		}
	}
	if hi, ok := num(m, "maxLength"); ok && float64(len([]rune(v))) > hi {
		v = string([]rune(v)[:int(hi)])
	}
	return v
}

// patternSample returns a string that matches the RE2 pattern p, built
// from its syntax tree (each repeat at its minimum, at least once; the
// first character of each class), or false for a pattern RE2 cannot parse
// or one with a construct it does not build.
func patternSample(p string) (string, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	var build func(re *syntax.Regexp) bool
	build = func(re *syntax.Regexp) bool {
		switch re.Op {
		case syntax.OpLiteral:
			b.WriteString(string(re.Rune))
		case syntax.OpCharClass:
			if len(re.Rune) == 0 {
				return false
			}
			b.WriteRune(re.Rune[0])
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
		case syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
			syntax.OpWordBoundary, syntax.OpEmptyMatch:
		case syntax.OpCapture:
			return build(re.Sub[0])
		case syntax.OpStar, syntax.OpQuest:
		case syntax.OpPlus:
			return build(re.Sub[0])
		case syntax.OpRepeat:
			for range max(re.Min, 1) {
				if !build(re.Sub[0]) {
					return false
				}
			}
		case syntax.OpConcat:
			for _, sub := range re.Sub {
				if !build(sub) {
					return false
				}
			}
		case syntax.OpAlternate:
			return build(re.Sub[0])
		default:
			return false
		}
		return true
	}
	if !build(re) {
		return "", false
	}
	return b.String(), true
}

func (s *synth) number(m map[string]any, integer bool) any {
	lo, hasLo := num(m, "minimum")
	if x, ok := num(m, "exclusiveMinimum"); ok {
		lo, hasLo = x+1, true
	}
	hi, hasHi := num(m, "maximum")
	if x, ok := num(m, "exclusiveMaximum"); ok {
		hi, hasHi = x-1, true
	}
	v := float64(s.r.IntN(20))
	switch {
	case hasLo && hasHi && hi >= lo:
		v = lo + math.Floor((hi-lo)/2)
	case hasLo:
		v = lo + v
	case hasHi:
		v = hi - v
	}
	if step, ok := num(m, "multipleOf"); ok && step > 0 {
		v = math.Ceil(v/step) * step
	}
	if integer {
		v = math.Ceil(v)
	}
	return v
}

// mutate adds copies of the plausible call in which base, the object at
// ptr (property names, and 0 for the first item of an array of objects)
// that sch describes, has one thing wrong each, down to two levels.
func (s *synth) mutate(ptr string, sch any, base any, add func(string, any), depth int) {
	m := s.resolve(sch)
	obj, ok := base.(map[string]any)
	if m == nil || !ok || depth > 2 {
		return
	}
	props, _ := m["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for n := range props {
		names = append(names, n)
	}
	sort.Strings(names)
	with := func(label string, change func(o map[string]any)) {
		add(label, s.topOf(ptr, change))
	}
	if rs, ok := m["required"].([]any); ok {
		for _, r := range rs {
			if n, ok := r.(string); ok {
				with(ptr+"/"+n+": required, left out", func(o map[string]any) { delete(o, n) })
			}
		}
	}
	with(ptr+": an unknown argument", func(o map[string]any) { o["zz_unknown"] = 1 })
	for _, n := range names {
		p := s.resolve(props[n])
		if p == nil {
			continue
		}
		at := ptr + "/" + n
		with(at+": null", func(o map[string]any) { o[n] = nil })
		ts := types(p)
		kind := ""
		if len(ts) > 0 {
			kind = ts[0]
		}
		switch kind {
		case "string":
			with(at+": a number instead", func(o map[string]any) { o[n] = 7 })
			if hi, ok := num(p, "maxLength"); ok {
				with(at+": past maxLength", func(o map[string]any) { o[n] = strings.Repeat("b", int(hi)+1) })
			}
			if lo, ok := num(p, "minLength"); ok && lo > 0 {
				with(at+": under minLength", func(o map[string]any) { o[n] = strings.Repeat("b", int(lo)-1) })
			}
			if f, ok := p["format"].(string); ok {
				with(at+": not a "+f, func(o map[string]any) { o[n] = "not a " + f })
			}
			if _, ok := p["pattern"]; ok {
				with(at+": against the pattern", func(o map[string]any) { o[n] = "#%!" })
			}
		case "integer", "number":
			with(at+": a string instead", func(o map[string]any) { o[n] = "12" })
			with(at+": a fraction", func(o map[string]any) { o[n] = 2.5 })
			if lo, ok := num(p, "minimum"); ok {
				with(at+": under minimum", func(o map[string]any) { o[n] = lo - 1 })
			}
			if hi, ok := num(p, "maximum"); ok {
				with(at+": over maximum", func(o map[string]any) { o[n] = hi + 1 })
			}
			with(at+": huge", func(o map[string]any) { o[n] = 1e300 })
		case "boolean":
			with(at+": a string instead", func(o map[string]any) { o[n] = "true" })
		case "array":
			with(at+": an object instead", func(o map[string]any) { o[n] = map[string]any{} })
			with(at+": a wrong item", func(o map[string]any) { o[n] = []any{map[string]any{"zz": []any{}}} })
			if hi, ok := num(p, "maxItems"); ok {
				with(at+": past maxItems", func(o map[string]any) {
					items := make([]any, int(hi)+1)
					for i := range items {
						items[i] = s.value(p["items"], depth+1)
					}
					o[n] = items
				})
			}
		case "object":
			with(at+": a string instead", func(o map[string]any) { o[n] = "x" })
		}
		if _, ok := p["enum"]; ok {
			with(at+": not in the enum", func(o map[string]any) { o[n] = "zz_not_a_member" })
		}
		for _, key := range []string{"oneOf", "anyOf"} {
			branches, _ := p[key].([]any)
			for i, b := range branches[:min(len(branches), 4)] {
				v := s.value(b, depth+1)
				with(fmt.Sprintf("%s: %s branch %d", at, key, i), func(o map[string]any) { o[n] = v })
			}
			if len(branches) > 0 {
				with(at+": "+key+" of none (a boolean)", func(o map[string]any) { o[n] = true })
			}
		}
		switch child := obj[n].(type) {
		case map[string]any:
			s.mutate(at, props[n], child, add, depth+1)
		case []any:
			// The first item of an array of objects, as the item schema.
			if item, ok := p["items"]; ok && len(child) > 0 && !isList(item) {
				s.mutate(at+"/0", item, child[0], add, depth+1)
			}
		}
	}
}

// topOf returns a copy of the plausible call with change applied to the
// object at ptr (a path of property names below it).
func (s *synth) topOf(ptr string, change func(map[string]any)) any {
	top := deepCopy(s.top)
	if ptr == "" {
		o := top.(map[string]any)
		change(o)
		return o
	}
	cur := top
	for _, n := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[n]
		case []any:
			if n != "0" || len(c) == 0 {
				return top
			}
			cur = c[0]
		default:
			return top
		}
	}
	if o, ok := cur.(map[string]any); ok {
		change(o)
	}
	return top
}

func deepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		c := make(map[string]any, len(x))
		for k, e := range x {
			c[k] = deepCopy(e)
		}
		return c
	case []any:
		c := make([]any, len(x))
		for i, e := range x {
			c[i] = deepCopy(e)
		}
		return c
	}
	return v
}
