package golden

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// tscDir holds package.json and package-lock.json pinning the TypeScript
// compiler; the test installs it there (npm ci) when node_modules is absent.
const tscDir = "testdata/tsc"

// TestTypeScript type-checks the code-mode declarations of every golden case
// and of the examples with tsc --noEmit --strict. Each case's declarations
// are written as one module (export {} appended) so that all cases check in
// one compiler run. It skips only when node is not installed.
func TestTypeScript(t *testing.T) {
	tsc := tscBinary(t)
	tmp := t.TempDir()
	var files []string
	write := func(name, text string) {
		path := filepath.Join(tmp, name)
		if err := os.WriteFile(path, []byte(text+"\nexport {};\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	for _, dir := range caseDirs(t) {
		fam, _, err := caseFamily(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		write(strings.ReplaceAll(dir, string(filepath.Separator), "_")+".d.ts", generator.TypeScript(fam))
	}
	for _, dir := range []string{"../examples/ontology", "../examples/quickstart"} {
		fam, err := exampleFamily(dir)
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		write(filepath.Base(dir)+".d.ts", generator.TypeScript(fam))
	}
	// The hostile family: comment terminators, line separators, quotes and
	// backslashes in descriptions, property names and enum values.
	hostile := hostileTypeScript(t)
	write("hostile.d.ts", hostile)
	// The ontology story's script type-checks against the declarations.
	onto, err := exampleFamily("../examples/ontology")
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile("../examples/ontology/testdata/three_ops.ts")
	if err != nil {
		t.Fatal(err)
	}
	write("three_ops.ts", generator.TypeScript(onto)+"\nasync function script() {\n"+string(script)+"\n}")
	runTSC(t, tsc, files...)
}

// hostileJSON is a tool set whose strings try to end comments and string
// literals of the declarations.
const hostileJSON = `[{"type":"function","function":{"name":"list_evil_items",
 "description":"Lists. */ declare const pwned: number; /* \u2028 line\u2029sep \u0000 \u202e rtl",
 "parameters":{"type":"object","properties":{
  "*/x":{"type":"string","description":"*/ interface Pwned {} /**"},
  "quote\"back\\slash\nnl":{"type":"integer"},
  "mode":{"enum":["a\"b","c\\d","e\nf","*/","\u2028",null,1.5,true]},
  "tuple":{"type":"array","prefixItems":[{"type":"string"},{"type":"number"}],"minItems":1,"items":false},
  "map":{"type":"object","additionalProperties":{"type":["string","null"]}},
  "either":{"anyOf":[{"type":"string"},{"type":"array","items":{"type":"integer"}}]},
  "const":{"const":"*/"}
 },"required":["*/x"]}}},
 {"type":"function","function":{"name":"delete_evil_item","description":"/** @type {never} */","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}]`

func hostileTypeScript(t *testing.T) string {
	t.Helper()
	fam, err := schema.Build([]load.Input{{Name: "hostile.json", Data: hostileJSON}}, schema.BuildOptions{Package: "hostile"})
	if err != nil {
		t.Fatal(err)
	}
	if err := taxonomy.Derive(fam, nil); err != nil {
		t.Fatal(err)
	}
	ts := generator.TypeScript(fam)
	for _, bad := range []string{"*/ declare", "*/ interface", "*/ /**"} {
		if strings.Contains(ts, bad) {
			t.Errorf("declarations contain %q:\n%s", bad, ts)
		}
	}
	for _, raw := range []string{"\u2028", "\u2029", "\x00", "\u202e"} {
		if strings.Contains(ts, raw) {
			t.Errorf("declarations contain the raw character %q", raw)
		}
	}
	return ts
}

// tscBinary returns the path of the pinned tsc, installing it with npm ci
// when needed; it skips the test when node is absent.
func tscBinary(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the TypeScript declarations are not type-checked")
	}
	tsc, err := filepath.Abs(filepath.Join(tscDir, "node_modules", "typescript", "bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		npm, err := exec.LookPath("npm")
		if err != nil {
			t.Fatalf("node is installed but npm is not; cannot install typescript: %v", err)
		}
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = tscDir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("npm ci in %s: %v\n%s", tscDir, err, out)
		}
	}
	return tsc
}

func runTSC(t *testing.T, tsc string, files ...string) {
	t.Helper()
	args := append([]string{tsc, "--noEmit", "--strict", "--target", "es2020", "--lib", "es2020", "--pretty", "false"}, files...)
	cmd := exec.Command("node", args...)
	if out, err := cmd.CombinedOutput(); err != nil {
		msg := string(out)
		for _, f := range files {
			if data, rerr := os.ReadFile(f); rerr == nil && strings.Contains(msg, filepath.Base(f)) && len(data) < 200000 {
				t.Logf("%s:\n%s", filepath.Base(f), numbered(string(data)))
			}
		}
		t.Fatalf("tsc: %v\n%s", err, msg)
	}
}

func numbered(s string) string {
	var b strings.Builder
	for i, l := range strings.Split(s, "\n") {
		b.WriteString(strings.Repeat(" ", 5-len(itoa(i+1))) + itoa(i+1) + "  " + l + "\n")
	}
	return b.String()
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// exampleFamily builds the family of an example folder from its manifest.
func exampleFamily(dir string) (*ir.Family, error) {
	path := filepath.Join(dir, "toolgen.yaml")
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	m, err := manifest.Load(path, data)
	if err != nil {
		return nil, err
	}
	var inputs []load.Input
	for _, n := range m.InputPaths() {
		b, err := os.ReadFile(n)
		if err != nil {
			return nil, err
		}
		inputs = append(inputs, load.Input{Name: n, Data: string(b)})
	}
	return schema.BuildFamily(inputs, schema.BuildOptions{Package: m.Package, Formats: m.Formats}, m)
}
