package openai_test

import (
	"context"
	"fmt"

	openaisdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/openai"
)

// The README's loops: Responses with the deferred surface, Chat
// Completions with facades.
//
// It is compiled, not run: it needs OPENAI_API_KEY and the network.
func Example() {
	ctx := context.Background()
	store := &quickstart.Store{}
	surface := quickstart.Deferred(store)
	client := openaisdk.NewClient()
	model := openai.NewResponses(client, responses.ResponseNewParams{Model: "gpt-5.4"},
		openai.WithDeferred(surface))
	chat := openai.NewChat(client, openaisdk.ChatCompletionNewParams{Model: openaisdk.ChatModelGPT5_4})
	out, err := agent.New(model, agent.WithTools(surface.Tools()...)).Run(ctx, agent.User("Remind me to call mum"))
	fmt.Println(out.Text, err)
	out, err = agent.New(chat, agent.WithTools(quickstart.Facades(store)...)).Run(ctx, agent.User("What is left?"))
	fmt.Println(out.Text, err)
}
