package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const weatherTools = `[{"type": "function", "function": {"name": "get_weather", "description": "Get the weather.", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}]`

func weatherProject(t *testing.T, in, out string) *project {
	t.Helper()
	p, err := loadProject(genFlags{out: out, pkg: "weather"}, []string{in}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// dirNames lists a directory's entries ("" for none, "-" when it does not
// exist).
func dirNames(t *testing.T, dir string) string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return "-"
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return strings.Join(names, " ")
}

// TestWriteFilesAllOrNothing: files are streamed to temporary files and
// renamed only when all rendered, so a failed run leaves no trace.
func TestWriteFilesAllOrNothing(t *testing.T) {
	root := t.TempDir()
	out := filepath.Join(root, "a", "out")
	in := filepath.Join(root, "tools.json")
	if err := os.WriteFile(in, []byte(weatherTools), 0o644); err != nil {
		t.Fatal(err)
	}

	p := weatherProject(t, in, out)
	p.limits.OutputBytes = 2000 // passed by the first file or two
	if _, err := writeFiles(p); err == nil || !strings.Contains(err.Error(), "more than the limit") {
		t.Fatalf("writeFiles over the limit: %v", err)
	}
	if got := dirNames(t, filepath.Dir(out)); got != "-" {
		t.Fatalf("after the limit, %s holds %q, want no directory", filepath.Dir(out), got)
	}

	p = weatherProject(t, in, out)
	written, err := writeFiles(p)
	if err != nil || len(written) != len(p.files) || len(written) == 0 {
		t.Fatalf("writeFiles = %v, %v (files %v)", written, err, p.files)
	}
	want := dirNames(t, out)
	if written, err = writeFiles(weatherProject(t, in, out)); err != nil || len(written) != 0 {
		t.Fatalf("second writeFiles = %v, %v, want nothing written", written, err)
	}

	mine := filepath.Join(out, "types_gen.go")
	if err := os.WriteFile(mine, []byte("package weather\n\n// my own code\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(out, "tools_gen.go")); err != nil {
		t.Fatal(err)
	}
	if _, err := writeFiles(weatherProject(t, in, out)); err == nil || !strings.Contains(err.Error(), "refusing to overwrite") {
		t.Fatalf("writeFiles over a user's file: %v", err)
	}
	if got, keep := dirNames(t, out), strings.Replace(want, "tools_gen.go ", "", 1); got != keep {
		t.Errorf("after refusing, the directory holds %q, want %q", got, keep)
	}
}
