// Package corpus locates the third-party test data shared with the project
// (../shared/corpus beside the module root: real tool definitions and the
// JSON Schema Test Suite) for tests in any package. Tests that use it skip
// cleanly when the folder is absent, so the module's own tests pass on a
// fresh clone.
package corpus

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// ModuleRoot returns the directory holding go.mod at or above the working
// directory.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found above the working directory")
		}
		dir = parent
	}
}

// Find returns the path of elem inside the corpus and whether it exists.
func Find(elem ...string) (string, bool) {
	root, err := ModuleRoot()
	if err != nil {
		return "", false
	}
	p := filepath.Join(append([]string{root, "..", "shared", "corpus"}, elem...)...)
	if _, err := os.Stat(p); err != nil {
		return "", false
	}
	return p, true
}

// Dir returns the path of elem inside the corpus, or skips the test with a
// message when it is absent.
func Dir(tb testing.TB, elem ...string) string {
	tb.Helper()
	p, ok := Find(elem...)
	if !ok {
		tb.Skipf("shared corpus not found (../shared/corpus/%s beside the module root); skipping", filepath.Join(elem...))
	}
	return p
}
