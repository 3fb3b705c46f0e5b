package schema

import (
	"os"
	"path/filepath"
	"testing"
)

// readRepoFile reads a file relative to the module root.
func readRepoFile(t *testing.T, rel string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), rel))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
