package agent

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// searchTool is the name of the runtime's search tools.
func TestSearchToolName(t *testing.T) {
	for _, name := range []string{deferred.SearchToolName, gateway.SearchTool} {
		if name != searchTool {
			t.Errorf("searchTool is %q, a search tool is named %q", searchTool, name)
		}
	}
}
