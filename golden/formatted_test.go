package golden

import (
	"bytes"
	"go/format"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

// TestFormatted holds every generated file of the golden cases, the
// hostile corpus and the examples to gofmt's layout: format.Source(out) ==
// out. The generator writes its data files (registry, handlers, the Tools
// and Facades lists) as text without go/format, so this is what keeps that
// text laid out as gofmt would lay it out.
func TestFormatted(t *testing.T) {
	check := func(t *testing.T, name string, src []byte) {
		t.Helper()
		out, err := format.Source(src)
		if err != nil {
			t.Errorf("%s does not format: %v", name, err)
			return
		}
		if !bytes.Equal(out, src) {
			t.Errorf("%s is not gofmt-ed:\n%s", name, diff.Diff(name, src, "gofmt", out))
		}
	}
	for _, dir := range caseDirs(t) {
		files, err := generate(dir)
		if err != nil {
			t.Fatalf("%s: generate: %v", dir, err)
		}
		for _, f := range files {
			check(t, filepath.Join(dir, f.Path), f.Bytes)
		}
	}
	for _, sh := range hostileShapes {
		tools, man, _ := hostileInputs(t, sh, false)
		for _, f := range generateHostile(t, sh, tools, man) {
			check(t, "hostile "+sh.pkg+"/"+f.Path, f.Bytes)
		}
	}
	examples, err := filepath.Glob("../examples/*/*_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range examples {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check(t, path, src)
	}
}
