// Package githubtest serves the generated golden/github package for tests
// of the surfaces that run it.
package githubtest

import (
	"context"
	"encoding/json"

	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/runtime"
)

// Echo serves search_code with the params it decoded, as JSON, and
// Message; the other tools are not implemented.
type Echo struct {
	github.UnimplementedHandlers
	Message string
}

// SearchCode answers with p.
func (e Echo) SearchCode(_ context.Context, _ runtime.ToolContext, p *github.SearchCodeParams) (runtime.ToolResult[github.SearchCodeResult], error) {
	b, err := json.Marshal(p)
	return runtime.OK(github.SearchCodeResult(b), e.Message), err
}
