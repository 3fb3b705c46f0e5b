package generator

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// testGenerated writes the files this package's core emitters generate
// for fam, with a behaviour test named testFile, into a fresh module
// under t.TempDir() that uses this checkout through a go.work file, then
// runs go vet and go test there: real JSON through the generated code.
func testGenerated(t *testing.T, fam *ir.Family, testFile string, behaviour []byte) {
	t.Helper()
	testGeneratedWith(t, fam, Options{Package: fam.Package, Sources: fam.Sources}, testFile, behaviour)
}

// testGeneratedWith is testGenerated with the files Generate makes with
// opts (runtime/shape tables always, say).
func testGeneratedWith(t *testing.T, fam *ir.Family, opts Options, testFile string, behaviour []byte) {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles a generated package")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	files := map[string][]byte{
		"go.mod":  []byte("module example.com/generated\n\ngo 1.26.0\n"),
		"go.work": []byte("go 1.26.0\n\nuse (\n\t.\n\t" + strings.ReplaceAll(root, `\`, `/`) + "\n)\n"),
		testFile:  behaviour,
	}
	generated, err := Generate(fam, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range generated {
		if ownFiles[f.Path] {
			files[f.Path] = f.Bytes
		}
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"vet", "."}, {"test", "-count=1", "."}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly -buildvcs=false")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}

// wantInFile reports each of wants that src, the generated file name,
// does not contain.
func wantInFile(t *testing.T, name, src string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(src, want) {
			t.Errorf("%s lacks %q:\n%s", name, want, src)
		}
	}
}
