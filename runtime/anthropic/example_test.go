package anthropic_test

import (
	"context"
	"fmt"

	anthropicsdk "github.com/anthropics/anthropic-sdk-go"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
)

// The README's loop: every op deferred, toolgen's index answering the
// model's searches with tool_reference blocks.
//
// It is compiled, not run: it needs ANTHROPIC_API_KEY and the network.
func Example() {
	ctx := context.Background()
	store := &quickstart.Store{}
	surface := quickstart.Deferred(store)
	model := anthropic.New(anthropicsdk.NewClient(), anthropicsdk.MessageNewParams{
		Model: anthropicsdk.ModelClaudeSonnet5_5, MaxTokens: 4096,
	}, anthropic.WithDeferred(surface, anthropic.ClientSearch)) // or anthropic.BM25, anthropic.Regex
	a := agent.New(model, agent.WithTools(append(surface.Tools(), surface.SearchTool())...))
	out, err := a.Run(ctx, agent.User("Remind me to call mum"))
	fmt.Println(out.Text, err)
}
