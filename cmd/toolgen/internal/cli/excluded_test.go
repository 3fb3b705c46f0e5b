package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// TestExcludedFromBuild: a file no platform builds (//go:build ignore, a
// tools.go) is left out of the package; one some platform builds is the
// package's on every platform, so that generate reads the same package
// wherever it runs (//go:build windows was left out on Linux).
func TestExcludedFromBuild(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		constraint string
		want       bool
	}{
		{"ignore", true},
		{"tools && !windows", true},
		{"windows", false},
		{"linux", false},
		{"darwin && arm64", false},
		{"!cgo", false},
		{"linux || darwin || windows", false},
		{"windows && linux", true},
	} {
		name := "f.go"
		src := []byte("//go:build " + c.constraint + "\n\npackage p\n")
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			t.Fatal(err)
		}
		if got := excludedFromBuild(dir, name, src); got != c.want {
			t.Errorf("//go:build %s: excludedFromBuild = %v, want %v", c.constraint, got, c.want)
		}
	}
}
