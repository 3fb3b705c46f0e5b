package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A manifest listing thousands of inputs that do not exist is reported
// without reading the folder and comparing with each of its files once
// per input: the first maxPrintedErrors inputs, all that are printed,
// suggest a file, the others do not. 20,000 such inputs beside 2,000
// files took 107 s.
func TestMissingInputsSuggestionsBounded(t *testing.T) {
	dir := t.TempDir()
	n := maxPrintedErrors + 20
	var y strings.Builder
	y.WriteString("inputs:\n")
	for i := range n {
		writeTestFile(t, filepath.Join(dir, fmt.Sprintf("tools%d.json", i)), "[]", 0o644)
		fmt.Fprintf(&y, "  - tool%d.json\n", i)
	}
	manifest := filepath.Join(dir, "toolgen.yaml")
	writeTestFile(t, manifest, y.String(), 0o644)
	code, _, stderr := run(t, runInspect, "-c", manifest)
	if code != exitFail || !strings.Contains(stderr, fmt.Sprintf("%d errors", n)) {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	_, err := loadProject(genFlags{config: manifest, readOnly: true}, nil, nil)
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	suggested := 0
	for _, l := range lines {
		if strings.Contains(l, "did you mean") {
			suggested++
		}
	}
	if suggested != maxPrintedErrors || !strings.Contains(lines[0], `cannot read tool0.json: no such file or directory; did you mean "tools0.json"?`) {
		t.Errorf("%d of %d errors suggest a file, want %d; first: %s", suggested, len(lines), maxPrintedErrors, lines[0])
	}
	if _, err := os.Stat(filepath.Join(dir, "types_gen.go")); err == nil {
		t.Error("inspect wrote a file")
	}
}
