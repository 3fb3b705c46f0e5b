package taxonomy

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
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

// moduleRoot returns the module's root directory.
func moduleRoot(t testing.TB) string {
	t.Helper()
	root, err := corpus.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}
