package taxonomy

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// TestReservedToolNames keeps the names spelled out in reservedToolNames
// equal to the runtime's.
func TestReservedToolNames(t *testing.T) {
	want := map[string]string{"sections": prompt.OpenSectionsName, "deferred": deferred.SearchToolName}
	for _, r := range reservedToolNames {
		if want[r.surface] != r.name {
			t.Errorf("surface %s: reserved name %q, runtime's %q", r.surface, r.name, want[r.surface])
		}
		delete(want, r.surface)
	}
	if len(want) > 0 {
		t.Errorf("surfaces without a reserved name: %v", want)
	}
}
