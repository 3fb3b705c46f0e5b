package golden

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"gopkg.in/yaml.v3"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// The hostile-string corpus (issue 8): every string a definition can carry
// is written by a stranger. Each hostile string below is put in every
// position a definition string can reach, in each input shape; the
// generated packages must compile (go vet) with no declaration, init
// function or directive the generator did not intend, and every string must
// round-trip exactly to what the model sees (checked at run time inside the
// generated package by hostileBehaviour).

// hostileWork is the gitignored folder the hostile packages are written to
// (inside the module, so they import the runtime; "_" keeps it out of ./...).
const hostileWork = "_hostile"

// hostileStrings are the attacks. JSON cannot carry invalid UTF-8 (the
// parser rejects it with a located error; a lone surrogate escape decodes
// to U+FFFD), so raw invalid bytes are covered by the generator-level test
// TestHostileIRBytes and gotext's fuzz target.
var hostileStrings = quoteMeta([]struct{ name, s string }{
	{"block-init", "x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/"},
	{"close-block", "*/"},
	{"open-block", "/*"},
	{"go-generate", "//go:generate touch /tmp/x"},
	{"line", "//line evil.go:1:1"},
	{"export", "//export Evil"},
	{"plus-build", "// +build ignore"},
	{"go-build", "//go:build ignore"},
	{"linkname", "//go:linkname f runtime.f"},
	{"embed", "//go:embed *"},
	{"directives-in-lines", "ok\n//go:generate touch /tmp/x\n// +build ignore\n+build ignore\n//line x.go:1\n//export E\n\t//go:build never\n\u00a0+build x"},
	{"nul", "a\x00b\x00"},
	{"bom", "\ufeffbom\ufeff //go:generate x"},
	{"bidi", "access\u202e \u2066check\u2069 \u202a\u202b\u202c\u202d\u2067\u2068 \u200b\u200e\u200f"},
	{"cr", "a\rb\r//go:generate touch /tmp/x\r/*"},
	{"crlf", "a\r\n//go:generate touch /tmp/x\r\n*/"},
	{"separators", "a\u2028//go:generate x\u2029/*\u0085*/"},
	{"controls", "\x01\x02\x07\x08\t\x0b\x0c\x1b[31m\x1f\x7f\u0080\u009b\u00ad"},
	{"backquote", "`; func init() { panic(1) }; var _ = `"},
	{"quote", "\"; func init() { panic(1) }; var _ = \""},
	{"backslash", `\"\n\\` + "\\"},
	{"replacement", "\ufffd\uffff"},
	{"go-code", "package main\n\nimport \"os\"\n\nfunc init() { os.Exit(1) }\n\ntype T struct{}\nvar X = 1\nconst C = 2"},
	{"keywords", "func type var const import package go defer chan select"},
	{"format-verbs", "%s %d %v %!(EXTRA) %%"},
	{"template", "{{.}} $x $$ ${y} <script>&amp;</script>"},
	{"long", strings.Repeat("*/ /* //go:generate x `\" ", 120)},
	{"unicode", "日本語 é 𝄞 \U0001f600 \U000e0041"},
})

// hostileString is one attack and its regexp.QuoteMeta form (its pattern).
type hostileString struct{ name, s, quoted string }

func quoteMeta(list []struct{ name, s string }) []hostileString {
	out := make([]hostileString, len(list))
	for i, x := range list {
		out[i] = hostileString{x.name, x.s, regexp.QuoteMeta(x.s)}
	}
	return out
}

// hostileSources are input file names carrying attacks too (they reach the
// header comment).
var hostileSources = []string{"tools\n//go:build ignore\n// +build ignore\n.json", "b\x00\ufeff*/.json"}

// hostileShape is one input shape: how a tool definition is written.
type hostileShape struct {
	pkg  string
	tool func(name, desc string, h string, params map[string]any) map[string]any
	// manifest reports whether the package also gets a manifest with the
	// hostile strings in group summaries, notes, examples and policies.
	manifest bool
	// catalogue pads the family with plain tools past
	// generator.DataTools tools, where the generated package declares its
	// ops, tool definitions, facades and sections as data (records).
	catalogue bool
}

// chatTool is a tool in the OpenAI chat completions form.
func chatTool(name, desc, h string, params map[string]any) map[string]any {
	return map[string]any{"type": "function", "function": map[string]any{"name": name, "description": desc, "parameters": params}}
}

var hostileShapes = []hostileShape{
	{"hostile_openai_chat", chatTool, true, false},
	{"hostile_catalogue", chatTool, true, true},
	{"hostile_openai_responses", func(name, desc, h string, params map[string]any) map[string]any {
		return map[string]any{"type": "function", "name": name, "description": desc, "parameters": params, "strict": false}
	}, false, false},
	{"hostile_anthropic", func(name, desc, h string, params map[string]any) map[string]any {
		return map[string]any{"name": name, "description": desc, "input_schema": params}
	}, false, false},
	{"hostile_mcp", func(name, desc, h string, params map[string]any) map[string]any {
		return map[string]any{"name": name, "title": h, "description": desc, "inputSchema": params,
			"outputSchema": map[string]any{"type": "object", "title": h, "description": h, "x-" + h: h,
				"properties": map[string]any{
					"r":  map[string]any{"type": "string", "description": h, "enum": []any{h, "plain"}},
					"r2": map[string]any{"const": h, "title": h},
					h:    map[string]any{"type": "integer", "description": h},
				}},
			"annotations": map[string]any{"title": h, "readOnlyHint": true}}
	}, false, false},
}

// hostileParams is the parameters schema of the tool carrying h: h as
// every annotation, enum value, const, default, example, pattern (quoted
// to match itself), format, property name and x- key.
func hostileParams(h string) map[string]any {
	str := func(extra map[string]any) map[string]any {
		m := map[string]any{"type": "string", "description": h}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}
	return map[string]any{
		"type": "object", "title": h, "description": h, "$comment": h, "x-" + h: h, "x-note": []any{h, map[string]any{h: h}},
		"additionalProperties": false,
		"$defs": map[string]any{
			"d": map[string]any{"type": "object", "title": h, "description": h,
				"properties": map[string]any{"v": str(map[string]any{"title": h})}},
		},
		"properties": map[string]any{
			"s": str(map[string]any{"title": h, "default": h, "examples": []any{h}, "pattern": "^" + regexp.QuoteMeta(h) + "$"}),
			"f": str(map[string]any{"format": h}),
			"e": str(map[string]any{"enum": []any{h, "plain"}, "title": h}),
			"c": map[string]any{"const": h, "description": h},
			"d": map[string]any{"$ref": "#/$defs/d"},
			h:   str(nil),
			"n": map[string]any{"type": "integer", "default": 1, "description": h, "examples": []any{1}},
			"u": map[string]any{"anyOf": []any{map[string]any{"type": "string", "enum": []any{h}}, map[string]any{"type": "integer"}}, "description": h},
			"m": map[string]any{"type": "object", "additionalProperties": str(nil), "description": h},
			"o": map[string]any{"type": "object", "title": h, "description": h, "properties": map[string]any{"k": map[string]any{"const": h}}},
			"t": map[string]any{"type": "array", "prefixItems": []any{str(map[string]any{"enum": []any{h}})}, "items": false, "description": h},
			"v": map[string]any{"oneOf": []any{
				map[string]any{"type": "object", "description": h, "properties": map[string]any{"kind": map[string]any{"const": h}, "a": str(nil)}, "required": []any{"kind"}},
				map[string]any{"type": "object", "properties": map[string]any{"kind": map[string]any{"const": "other"}}, "required": []any{"kind"}},
			}},
			// (with a declared property: issue 8 reports patternProperties
			// alone unenforced on nested objects, another section's fix)
			"p": map[string]any{"type": "object", "properties": map[string]any{"z": str(nil)}, "patternProperties": map[string]any{"^" + regexp.QuoteMeta(h) + "$": str(nil)}, "description": h},
			"l": map[string]any{"type": "array", "items": str(nil), "default": []any{h}, "description": h},
			"x": str(map[string]any{"not": map[string]any{"const": h + "!"}}),
			// A lookahead RE2 cannot run: the ECMA fallback engine.
			"y": str(map[string]any{"pattern": "^(?=" + regexp.QuoteMeta(h) + "$)"}),
		},
		"dependentRequired": map[string]any{h: []any{"e"}},
	}
}

// hostileExpect is what the model must see for one tool, and arguments its
// validation must accept and reject (written to expect.json).
type hostileExpect struct {
	Name        string            `json:"name"`
	Description string            `json:"description"`
	Parameters  json.RawMessage   `json:"parameters"`
	OK          []json.RawMessage `json:"ok"`
	Bad         []json.RawMessage `json:"bad"`
	Notes       []string          `json:"notes,omitempty"`
	Example     string            `json:"example,omitempty"`
	Title       string            `json:"title,omitempty"`
}

func mustJSON(t testing.TB, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// hostileInputs builds one shape's tools file, manifest and expectations;
// benign replaces every attack by a plain string of the same role, for the
// baseline the declarations are compared with.
func hostileInputs(t testing.TB, sh hostileShape, benign bool) (tools []byte, manifest []byte, want []hostileExpect) {
	var list []any
	var groups = map[string]any{}
	overrides := map[string]any{}
	ops := map[string]any{}
	for i, hs := range hostileStrings {
		h := hs.s
		if benign {
			h = fmt.Sprintf("benign%d", i)
		}
		name := fmt.Sprintf("get_h%d", i)
		params := hostileParams(h)
		list = append(list, sh.tool(name, h, h, params))
		ok := map[string]any{"s": h, "e": h, "c": h, h: "v", "n": 2, "u": h, "d": map[string]any{"v": h}, "m": map[string]any{h: h}, "o": map[string]any{"k": h},
			"t": []any{h}, "v": map[string]any{"kind": h, "a": h}, "p": map[string]any{h: h}, "l": []any{h, h}, "x": h, "y": h}
		bad := []any{
			map[string]any{"t": []any{h + "!"}},
			map[string]any{"v": map[string]any{"kind": h + "!"}},
			map[string]any{"p": map[string]any{h: 1}},
			map[string]any{"x": h + "!"},
			map[string]any{"y": "!" + h},
			map[string]any{h: "v"},
			map[string]any{"e": h + "!"},
			map[string]any{"c": h + "!"},
			map[string]any{"s": h + "!"},
			map[string]any{"o": map[string]any{"k": "!" + h}},
			map[string]any{"x" + h: 1},
		}
		e := hostileExpect{Name: name, Description: h, Parameters: mustJSON(t, params), OK: []json.RawMessage{mustJSON(t, ok), json.RawMessage(`{}`)}}
		if sh.pkg == "hostile_mcp" {
			e.Title = h // the MCP title reaches runtime.Tool.Title
		}
		for _, b := range bad {
			e.Bad = append(e.Bad, mustJSON(t, b))
		}
		if sh.manifest {
			path := fmt.Sprintf("g%d.h%d.get", i, i)
			group := fmt.Sprintf("g%d", i)
			groups[group] = map[string]any{"summary": h}
			overrides[name] = path
			args := map[string]any{"s": h}
			if len(h) < 1000 {
				// YAML limits implicit keys to 1024 characters. The
				// property named h requires e (dependentRequired): the
				// example is a valid call, as manifest examples must be.
				args[h] = h
				args["e"] = h
			}
			ops[path] = map[string]any{
				"notes":    []any{h},
				"examples": []any{map[string]any{"description": h, "args": args}},
				"policy":   map[string]any{"do": []any{h}, "dont": []any{h}, "edge_cases": []any{h}},
				"result_schema": map[string]any{"type": "object", "title": h, "description": h,
					"properties": map[string]any{"r": map[string]any{"type": "string", "enum": []any{h, "plain"}, "description": h}, "k": map[string]any{"const": h}}},
			}
			e.Notes, e.Example = []string{h}, h
		}
		want = append(want, e)
	}
	for i := len(list); sh.catalogue && i <= generator.DataTools; i++ {
		name, params := fmt.Sprintf("pad_tool_%d", i), map[string]any{"type": "object"}
		list = append(list, sh.tool(name, "Pad tool.", "", params))
		want = append(want, hostileExpect{Name: name, Description: "Pad tool.", Parameters: mustJSON(t, params), OK: []json.RawMessage{json.RawMessage(`{}`)}})
	}
	tools = mustJSON(t, map[string]any{"tools": list})
	if sh.manifest {
		// JSON is YAML: the manifest carries the strings escaped (YAML
		// refuses raw C1 controls and noncharacters even in strings).
		manifest = asciiJSON(mustJSON(t, map[string]any{"package": sh.pkg, "groups": groups, "overrides": overrides, "ops": ops,
			"surfaces": []any{"flat", "gateway", "facades", "sections", "code"}}))
	}
	return tools, manifest, want
}

// asciiJSON escapes every character of a JSON text other than printable
// ASCII as \uXXXX or \UXXXXXXXX, YAML's escapes (they only occur inside
// strings; YAML refuses raw controls and has no surrogate pairs).
func asciiJSON(b []byte) []byte {
	var out bytes.Buffer
	for _, r := range string(b) {
		switch {
		case r >= 0x20 && r < 0x7f:
			out.WriteRune(r)
		case r > 0xffff:
			fmt.Fprintf(&out, `\U%08x`, r)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
	}
	return out.Bytes()
}

// generateHostile runs the whole pipeline over one shape's inputs.
func generateHostile(t testing.TB, sh hostileShape, tools, manifestText []byte) []generator.File {
	t.Helper()
	inputs := []load.Input{{Name: "tools.json", Data: string(tools)}}
	var m *manifest.Manifest
	if manifestText != nil {
		var err error
		if m, err = manifest.Load("toolgen.yaml", manifestText); err != nil {
			t.Fatalf("%s: manifest: %v", sh.pkg, err)
		}
	}
	fam, err := schema.BuildFamily(inputs, schema.BuildOptions{Package: sh.pkg}, m)
	if err != nil {
		t.Fatalf("%s: build: %v", sh.pkg, err)
	}
	files, err := generator.Generate(fam, generator.Options{Package: sh.pkg, Sources: hostileSources})
	if err != nil {
		t.Fatalf("%s: generate: %v", sh.pkg, err)
	}
	return files
}

// declShape summarises a file's top-level declarations for comparing a
// hostile generation with its benign baseline: functions and methods by
// name (their names never come from definition strings), types, vars and
// consts by count (theirs may). MarshalJSON methods are left out: a struct
// whose property names a struct tag cannot spell gets one by design.
func declShape(f *ast.File) map[string]int {
	out := map[string]int{}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				if d.Name.Name != "MarshalJSON" {
					out["method "+d.Name.Name]++
				}
			} else {
				out["func "+d.Name.Name]++
			}
		case *ast.GenDecl:
			out[d.Tok.String()] += len(d.Specs)
		}
	}
	return out
}

// directiveLine matches a source line any Go tool reads as a directive or a
// build constraint, or one opening a block comment.
var directiveLine = regexp.MustCompile(`^\s*(//(go:|line |export |extern |sys)|/\*|//\s*\+build)`)

// checkHostileFile parses one generated file and fails on anything the
// generator did not intend: an init or main function, block comments,
// directive-like comments or lines, and a declaration shape that differs from
// the benign baseline's.
func checkHostileFile(t *testing.T, name string, src []byte, base map[string]int) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
	if err != nil {
		t.Errorf("%s does not parse: %v", name, err)
		return
	}
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && (fd.Name.Name == "init" || fd.Name.Name == "main") {
			t.Errorf("%s: declares func %s at %s", name, fd.Name.Name, fset.Position(fd.Pos()))
		}
	}
	if got := declShape(f); fmt.Sprint(got) != fmt.Sprint(base) {
		t.Errorf("%s: declarations %v, the benign baseline has %v", name, got, base)
	}
	for _, cg := range f.Comments {
		for _, c := range cg.List {
			txt := c.Text
			if !strings.HasPrefix(txt, "//") {
				t.Errorf("%s: block comment at %s", name, fset.Position(c.Pos()))
				continue
			}
			if len(txt) > 2 && txt[2] != ' ' && txt[2] != '\t' {
				t.Errorf("%s: directive comment %.80q at %s", name, txt, fset.Position(c.Pos()))
			}
		}
	}
	for i, line := range strings.Split(string(src), "\n") {
		if directiveLine.MatchString(line) {
			t.Errorf("%s:%d: directive-like line %.80q", name, i+1, line)
		}
		// No hidden character reaches the file: a reviewer (or a diff in
		// a terminal) sees every character of it as itself.
		if !utf8.ValidString(line) {
			t.Errorf("%s:%d: invalid UTF-8", name, i+1)
		}
		for _, r := range line {
			if r < 0x20 && r != '\t' || r >= 0x7f && r <= 0x9f || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
				t.Errorf("%s:%d: hidden character %U", name, i+1, r)
				break
			}
		}
	}
	if !bytes.HasPrefix(src, []byte(header+"\n// Source: ")) || bytes.Count(src[:bytes.Index(src, []byte("\npackage "))], []byte("\n")) != 2 {
		t.Errorf("%s: header is not the two generated-code lines:\n%.300s", name, src)
	}
}

// TestHostileStrings is the hostile-string corpus: for each input shape,
// one package whose tools carry every attack in every position. It checks
// the generated sources statically, then compiles and vets the packages and
// runs hostileBehaviour inside each (one go test for all of them).
func TestHostileStrings(t *testing.T) {
	root, err := corpus.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	work := filepath.Join(root, "golden", hostileWork)
	var pkgs []string
	positions := 0
	for _, sh := range hostileShapes {
		btools, bman, _ := hostileInputs(t, sh, true)
		base := map[string]map[string]int{}
		for _, f := range generateHostile(t, sh, btools, bman) {
			pf, err := parser.ParseFile(token.NewFileSet(), f.Path, f.Bytes, 0)
			if err != nil {
				t.Fatalf("%s/%s (benign): %v", sh.pkg, f.Path, err)
			}
			base[f.Path] = declShape(pf)
		}
		tools, man, want := hostileInputs(t, sh, false)
		positions += countPositions(t, tools, man)
		files := generateHostile(t, sh, tools, man)
		for _, f := range files {
			checkHostileFile(t, sh.pkg+"/"+f.Path, f.Bytes, base[f.Path])
		}
		expect := generator.File{Path: "expect.json", Bytes: mustJSON(t, want)}
		behaviour := generator.File{Path: "hostile_test.go", Bytes: []byte(strings.Replace(hostileBehaviour, "package p", "package "+sh.pkg, 1))}
		if err := syncPackage(filepath.Join(work, sh.pkg), append(files, expect, behaviour)); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, "./golden/"+hostileWork+"/"+sh.pkg)
	}
	t.Logf("hostile corpus: %d strings, %d shapes, %d string positions in all (%d per string and shape on average)",
		len(hostileStrings), len(hostileShapes), positions, positions/(len(hostileStrings)*len(hostileShapes)))
	if t.Failed() || testing.Short() {
		return
	}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Minute)
	defer cancel()
	// One go test for all shapes: it compiles the packages, runs every vet
	// check on them (buildtag and directive among them) and runs the round
	// trips.
	cmd := exec.CommandContext(ctx, "go", append([]string{"test", "-count=1", "-vet=all"}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go test: %v\n%s", err, cut(string(out), 20000))
	}
	// go generate reads directives textually, strings included: it must
	// find none to run.
	cmd = exec.CommandContext(ctx, "go", append([]string{"generate", "-n"}, pkgs...)...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Fatalf("go generate -n: %v\n%s", err, cut(string(out), 20000))
	}
}

// countPositions counts the string values and object keys of the inputs
// that hold an attack (the corpus size reported in the log).
func countPositions(t *testing.T, docs ...[]byte) int {
	n := 0
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			if hostileIn(v) {
				n++
			}
		case []any:
			for _, x := range v {
				walk(x)
			}
		case map[string]any:
			for k, x := range v {
				if hostileIn(k) {
					n++
				}
				walk(x)
			}
		}
	}
	for i, d := range docs {
		if d == nil {
			continue
		}
		var v any
		// The manifest is YAML with YAML escapes.
		if err := (map[bool]func([]byte, any) error{false: json.Unmarshal, true: yaml.Unmarshal})[i > 0](d, &v); err != nil {
			t.Fatal(err)
		}
		walk(v)
	}
	return n
}

func hostileIn(s string) bool {
	for _, hs := range hostileStrings {
		if strings.Contains(s, hs.s) || strings.Contains(s, hs.quoted) {
			return true
		}
	}
	return false
}

func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "\n…"
}

// TestHostileToolNames: a tool name is the one string the provider rule
// restricts, so every attack as a name is a located error that quotes it
// (no control character reaches the terminal), never generated code.
func TestHostileToolNames(t *testing.T) {
	for _, hs := range hostileStrings {
		tools := mustJSON(t, []any{map[string]any{"type": "function", "function": map[string]any{"name": hs.s, "description": "d", "parameters": map[string]any{"type": "object"}}}})
		_, err := schema.Build([]load.Input{{Name: "tools.json", Data: string(tools)}}, schema.BuildOptions{Package: "x"})
		if err == nil {
			t.Errorf("%s: tool name %q accepted", hs.name, hs.s)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "tools.json:1:") || !strings.Contains(msg, "/0/function/name") {
			t.Errorf("%s: error not located at the name: %.200s", hs.name, msg)
		}
		for _, r := range msg {
			if r < 0x20 && r != '\n' || r == 0x7f || r >= 0x80 && r <= 0x9f || r == '\ufeff' || r >= '\u202a' && r <= '\u202e' {
				t.Errorf("%s: error carries control character %U: %.200q", hs.name, r, msg)
				break
			}
		}
	}
}

// hostileBehaviour runs inside each generated package: what the model sees
// (Tools, Definitions, Registry) equals the input strings exactly, and the
// generated validation accepts the hostile enum values, consts, patterns and
// property names and rejects near misses.
const hostileBehaviour = `package p

import (
	"bytes"
	"encoding/json"
	"os"
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
)

type expect struct {
	Name        string            ` + "`json:\"name\"`" + `
	Description string            ` + "`json:\"description\"`" + `
	Parameters  json.RawMessage   ` + "`json:\"parameters\"`" + `
	OK          []json.RawMessage ` + "`json:\"ok\"`" + `
	Bad         []json.RawMessage ` + "`json:\"bad\"`" + `
	Notes       []string          ` + "`json:\"notes\"`" + `
	Example     string            ` + "`json:\"example\"`" + `
	Title       string            ` + "`json:\"title\"`" + `
}

func sameJSON(t *testing.T, what string, got, want []byte) {
	t.Helper()
	var g, w any
	for _, x := range []struct {
		b []byte
		v *any
	}{{got, &g}, {want, &w}} {
		d := json.NewDecoder(bytes.NewReader(x.b))
		d.UseNumber()
		if err := d.Decode(x.v); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s differs:\n got %.300s\nwant %.300s", what, got, want)
	}
}

func TestHostileRoundTrip(t *testing.T) {
	data, err := os.ReadFile("expect.json")
	if err != nil {
		t.Fatal(err)
	}
	var want []expect
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatal(err)
	}
	tools := Tools(UnimplementedHandlers{})
	byName := map[string]runtime.Tool{}
	for _, tl := range tools {
		byName[tl.Name] = tl
	}
	var defs []struct {
		Function struct {
			Name        string
			Description string
			Parameters  json.RawMessage
		}
	}
	if err := json.Unmarshal(runtime.Definitions(tools), &defs); err != nil {
		t.Fatal(err)
	}
	if len(defs) != len(want) || len(tools) != len(want) {
		t.Fatalf("%d tools, %d definitions, want %d", len(tools), len(defs), len(want))
	}
	for i, w := range want {
		tl, ok := byName[w.Name]
		if !ok {
			t.Errorf("no tool %q", w.Name)
			continue
		}
		if tl.Title != w.Title {
			t.Errorf("%s: Tools title %q, want %q", w.Name, tl.Title, w.Title)
		}
		if tl.Description != w.Description {
			t.Errorf("%s: Tools description %q, want %q", w.Name, tl.Description, w.Description)
		}
		sameJSON(t, w.Name+" Tools parameters", tl.Parameters, w.Parameters)
		if d := defs[i].Function; d.Name != w.Name || d.Description != w.Description {
			t.Errorf("%s: definition %q %q, want %q", w.Name, d.Name, d.Description, w.Description)
		} else {
			sameJSON(t, w.Name+" definition parameters", d.Parameters, w.Parameters)
		}
		found := false
		for _, op := range Registry.Ops {
			if op.Tool != w.Name {
				continue
			}
			found = true
			if op.Description != w.Description {
				t.Errorf("%s: registry description %q", w.Name, op.Description)
			}
			sameJSON(t, w.Name+" registry parameters", op.Parameters, w.Parameters)
			if w.Notes != nil && !reflect.DeepEqual(op.Notes, w.Notes) {
				t.Errorf("%s: notes %q, want %q", w.Name, op.Notes, w.Notes)
			}
			if w.Example != "" {
				if len(op.Examples) != 1 || op.Examples[0].Description != w.Example {
					t.Errorf("%s: examples %+v", w.Name, op.Examples)
				}
				if op.Policy == nil || len(op.Policy.Do) != 1 || op.Policy.Do[0] != w.Example || op.Policy.Dont[0] != w.Example || op.Policy.EdgeCases[0] != w.Example {
					t.Errorf("%s: policy %+v", w.Name, op.Policy)
				}
			}
		}
		if !found {
			t.Errorf("%s: not in Registry", w.Name)
		}
		for _, a := range w.OK {
			if _, err := DecodeArgs(w.Name, a); err != nil {
				t.Errorf("%s: valid arguments %.200s rejected: %v", w.Name, a, err)
			}
		}
		for _, a := range w.Bad {
			if _, err := DecodeArgs(w.Name, a); err == nil {
				t.Errorf("%s: invalid arguments %.200s accepted", w.Name, a)
			}
		}
	}
	// Every tool is inside one facade and carried by one section, with
	// its own definition.
	inFacade, inSection := map[string]int{}, map[string]int{}
	for _, f := range Facades(UnimplementedHandlers{}) {
		def, ok := matryoshka.Of(f)
		if !ok {
			t.Fatalf("facade %q is not a matryoshka facade", f.Name)
		}
		for _, tl := range def.Inner() {
			inFacade[tl.Name]++
			if tl.Description != byName[tl.Name].Description {
				t.Errorf("facade %q: tool %q description %q", f.Name, tl.Name, tl.Description)
			}
		}
	}
	for _, sec := range Sections(UnimplementedHandlers{}) {
		for _, tl := range sec.Tools {
			inSection[tl.Name]++
		}
	}
	for _, w := range want {
		if inFacade[w.Name] != 1 || inSection[w.Name] != 1 {
			t.Errorf("%s: in %d facades and %d sections, want 1 and 1", w.Name, inFacade[w.Name], inSection[w.Name])
		}
	}
}
`

// issue8Examples are the exact attacks of issue 8 as tool files (also
// FuzzPipeline seeds).
var issue8Examples = []struct{ name, tools string }{
	{"schema title opens a block comment", `[{"type":"function","function":{"name":"get_x","description":"Get x.","parameters":{"type":"object","title":"x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/","properties":{"a":{"type":"string"}}}}}]`},
	{"$defs description opens a block comment", `[{"type":"function","function":{"name":"get_x","parameters":{"type":"object","$defs":{"d":{"type":"object","description":"x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/","properties":{"v":{"type":"string"}}}},"properties":{"a":{"$ref":"#/$defs/d"}}}}}]`},
	{"go:generate in a description", `[{"type":"function","function":{"name":"get_x","description":"Get x.\n//go:generate touch /tmp/x","parameters":{"type":"object","properties":{"a":{"type":"string","description":"A.\n//go:generate touch /tmp/x"}}}}}]`},
	{"MCP outputSchema description", `{"tools":[{"name":"get_x","description":"d","inputSchema":{"type":"object"},"outputSchema":{"type":"object","description":"x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/\n//go:generate touch /tmp/x","properties":{"r":{"type":"string","description":"*/ func init() {} /*"}}}}]}`},
	{"directives of every form", `[{"name":"get_x","description":"d","input_schema":{"type":"object","description":"d\n//line a.go:1\n//export X\n// +build ignore\n//go:build ignore\n//go:linkname x y\n//go:embed *"}}]`},
	{"NUL and U+FEFF", `[{"type":"function","name":"get_x","description":"a\u0000b\ufeffc","parameters":{"type":"object","properties":{"a":{"type":"string","enum":["\u0000","\ufeff"],"description":"\ufeff\u0000"}}}}]`},
	{"raw U+FEFF inside a string", "[{\"type\":\"function\",\"name\":\"get_x\",\"description\":\"a\uFEFFb\",\"parameters\":{\"type\":\"object\",\"properties\":{\"a\":{\"const\":\"\uFEFF\"}}}}]"},
}

// TestHostileIssueExamples are the exact attacks of issue 8, through the
// whole pipeline: each generates, and the files hold no init function, no
// block comment and no directive line (TestHostileStrings compiles the same
// attacks in every position).
func TestHostileIssueExamples(t *testing.T) {
	for _, tc := range issue8Examples {
		t.Run(tc.name, func(t *testing.T) {
			fam, err := schema.Build([]load.Input{{Name: "tools.json", Data: tc.tools}}, schema.BuildOptions{Package: "x"})
			if err != nil {
				t.Fatal(err)
			}
			if err := taxonomy.Derive(fam, nil); err != nil {
				t.Fatal(err)
			}
			files, err := generator.Generate(fam, generator.Options{Package: "x", Sources: []string{"tools.json"}})
			if err != nil {
				t.Fatalf("generate: %v", err)
			}
			for _, f := range files {
				fset := token.NewFileSet()
				pf, err := parser.ParseFile(fset, f.Path, f.Bytes, parser.ParseComments)
				if err != nil {
					t.Fatalf("%s: %v", f.Path, err)
				}
				for _, d := range pf.Decls {
					if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && fd.Name.Name == "init" {
						t.Errorf("%s: func init at %s", f.Path, fset.Position(fd.Pos()))
					}
				}
				for i, line := range strings.Split(string(f.Bytes), "\n") {
					if directiveLine.MatchString(line) {
						t.Errorf("%s:%d: directive-like line %q", f.Path, i+1, line)
					}
				}
			}
		})
	}
}

// TestHostileInvalidUTF8: raw invalid UTF-8 in a definition (JSON cannot
// escape it) is a located error naming the string; a lone surrogate escape
// decodes to U+FFFD and generates (TestHostileStrings, "replacement").
func TestHostileInvalidUTF8(t *testing.T) {
	for _, in := range []string{
		"[{\"type\":\"function\",\"function\":{\"name\":\"a\",\"description\":\"x\xffy\",\"parameters\":{\"type\":\"object\"}}}]",
		"[{\"type\":\"function\",\"function\":{\"name\":\"a\",\"parameters\":{\"type\":\"object\",\"properties\":{\"p\xc3\":{\"type\":\"string\"}}}}}]",
	} {
		_, err := schema.Build([]load.Input{{Name: "tools.json", Data: in}}, schema.BuildOptions{Package: "x"})
		if err == nil || !strings.HasPrefix(err.Error(), "tools.json:1:") || !strings.Contains(err.Error(), "UTF-8") {
			t.Errorf("%q: err = %v", in, err)
		}
	}
}

// terminalControl returns the first rune of s a terminal would act on
// rather than show (other than the line breaks and tabs of toolgen's own
// layout): C0 and C1 controls, DEL, format characters (bidi overrides and
// isolates, zero-width characters) and the line and paragraph separators.
func terminalControl(s string) (rune, bool) {
	for _, r := range s {
		if r == '\n' || r == '\t' {
			continue
		}
		if unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			return r, true
		}
	}
	return 0, false
}

// hostileDiagnosticsTools is one tool whose property names are the
// attacks, each with a refused default and an unknown keyword (warnings
// that quote the name and the value), and, when invalid, a pattern that
// does not compile (an error that echoes it).
func hostileDiagnosticsTools(t *testing.T, invalid bool) string {
	props := map[string]any{}
	for _, hs := range hostileStrings {
		p := map[string]any{"type": "integer", "default": hs.s, "maxlengthx": 1, "format": hs.s}
		if invalid {
			p = map[string]any{"type": "string", "pattern": "[" + hs.s}
		}
		props[hs.s] = p
	}
	return string(mustJSON(t, []any{chatTool("get_w", "Get w.", "", map[string]any{"type": "object", "properties": props})}))
}

// TestHostileDiagnostics: located errors and warnings name property names
// in their pointers and echo definition text in their messages (a pattern,
// a default); printed, they hold no control or bidi character, each is
// one line, and the attack still reads in escaped form.
func TestHostileDiagnostics(t *testing.T) {
	_, err := schema.Build([]load.Input{{Name: "tools.json", Data: hostileDiagnosticsTools(t, true)}}, schema.BuildOptions{Package: "x"})
	var list jsonpos.ErrorList
	if !errors.As(err, &list) || len(list) < len(hostileStrings)/2 {
		t.Fatalf("invalid patterns: err = %.300v", err)
	}
	for _, e := range list {
		msg := e.Error()
		if r, bad := terminalControl(msg); bad || strings.Contains(msg, "\n") {
			t.Errorf("error carries %U: %.300q", r, msg)
		}
	}
	fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: hostileDiagnosticsTools(t, false)}}, schema.BuildOptions{Package: "x"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fam.Warnings) < len(hostileStrings) {
		t.Fatalf("%d warnings, want at least one per attack", len(fam.Warnings))
	}
	for _, w := range fam.Warnings {
		msg := (&jsonpos.Error{Pos: w.Pos, Message: "warning: " + w.Message}).Error()
		if r, bad := terminalControl(msg); bad || strings.Contains(msg, "\n") {
			t.Errorf("warning carries %U: %.300q", r, msg)
		}
	}
	for _, op := range fam.Ops {
		for _, a := range op.Arguments {
			if a.Default != "" {
				t.Errorf("usage advertises the refused default %.100s of %q", a.Default, a.Name)
			}
		}
	}
}

// TestHostileTerminal runs the toolgen command on the hostile corpus and
// reads what it prints for a terminal: warnings and errors (generate),
// the op table with the manifest's policies (inspect), each tool's usage
// line, Go types and help (inspect --tool) and the changes between a
// hostile and a benign version (diff). None holds a control or bidi
// character.
func TestHostileTerminal(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the toolgen command")
	}
	root, err := corpus.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "toolgen")
	build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/toolgen")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sh := hostileShapes[0] // chat tools with a manifest
	tools, man, _ := hostileInputs(t, sh, false)
	benign, _, _ := hostileInputs(t, sh, true)
	files := map[string]string{
		"tools.json": string(tools), "hostile.yaml": string(man), "benign.json": string(benign),
		"warn.json": hostileDiagnosticsTools(t, false), "bad.json": hostileDiagnosticsTools(t, true),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(wantFail bool, args ...string) {
		t.Helper()
		cmd := exec.CommandContext(t.Context(), bin, args...)
		cmd.Dir = dir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		if (err != nil) != wantFail {
			t.Errorf("toolgen %s: err = %v, want failure %v\n%s", strings.Join(args, " "), err, wantFail, cut(stderr.String(), 2000))
		}
		for what, out := range map[string]string{"stdout": stdout.String(), "stderr": stderr.String()} {
			if r, bad := terminalControl(out); bad {
				i := strings.IndexRune(out, r)
				t.Errorf("toolgen %s: %s carries %U: …%q…", strings.Join(args, " "), what, r, out[max(0, i-80):min(len(out), i+80)])
			}
		}
	}
	run(false, "generate", "-o", "out_warn", "-p", "w", "warn.json")
	run(true, "generate", "-o", "out_bad", "-p", "b", "bad.json")
	run(false, "inspect", "-c", "hostile.yaml", "tools.json")
	run(false, "inspect", "warn.json")
	run(false, "inspect", "--tool", "get_w", "warn.json")
	for i := range hostileStrings {
		run(false, "inspect", "-c", "hostile.yaml", "--tool", fmt.Sprintf("get_h%d", i), "tools.json")
	}
	run(true, "diff", "tools.json", "benign.json")
	run(true, "diff", "benign.json", "tools.json")
}
