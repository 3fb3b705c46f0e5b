package openai_test

import (
	"flag"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
	"github.com/toolgen-go/toolgen/runtime/openai"
)

var update = flag.Bool("update", false, "record the requests of testdata/*.json")

func client(t *testing.T, fixture string) sdk.Client {
	t.Helper()
	srv := replaytest.Serve(t, filepath.Join("testdata", fixture), *update)
	return sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

func chat(t *testing.T, fixture string) *openai.Chat {
	return openai.NewChat(client(t, fixture), sdk.ChatCompletionNewParams{Model: "gpt-4.1"})
}

func resp(t *testing.T, fixture string, opts ...openai.ResponsesOption) *openai.Responses {
	return openai.NewResponses(client(t, fixture), responses.ResponseNewParams{Model: "gpt-5.4"}, opts...)
}

// Chat: two tool calls in one turn, answered by two tool messages.
func TestChatSeveralCallsInOneTurn(t *testing.T) {
	out, err := agent.New(chat(t, "chat_two_calls.json"), agent.WithTools(replaytest.NewFamily().Tools()...)).
		Run(t.Context(), agent.User("Add 'buy milk' and show my todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Added. You have 2 todos." || out.Turns != 2 {
		t.Errorf("outcome %q after %d turns", out.Text, out.Turns)
	}
}

// Chat: the facade unfolds into the next request's tools.
func TestChatFacadeUnfolds(t *testing.T) {
	out, err := agent.New(chat(t, "chat_facade.json"), agent.WithTools(replaytest.NewFamily().Facades()...)).
		Run(t.Context(), agent.User("What is on my list?"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"list_todos", "create_todo", "delete_todo", "notes"}, out.Tools); diff != "" {
		t.Errorf("toolbox (-want +got):\n%s", diff)
	}
}

// Responses: gateway tools, two calls in one turn, function_call_output
// items back.
func TestResponsesGateway(t *testing.T) {
	out, err := agent.New(resp(t, "responses_gateway.json"), agent.WithTools(replaytest.NewFamily().Gateway()...)).Run(t.Context(), agent.User("List my todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "You have one todo: water the plants. Your notes say the milk is in the fridge." {
		t.Errorf("text %q", out.Text)
	}
}

// Responses: open_sections halts the turn and the retried request carries
// the open section in instructions and its tools.
func TestResponsesOpenSections(t *testing.T) {
	out, err := agent.New(resp(t, "responses_sections.json"), agent.WithPrompt(replaytest.NewFamily().Prompt())).Run(t.Context(), agent.User("Anything left to do?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 || out.Turns != 3 {
		t.Errorf("retries %d, turns %d; want 1, 3", out.Retries, out.Turns)
	}
}

// Responses: the deferred surface as namespaces with defer_loading plus
// the hosted tool_search; the search items come back verbatim.
func TestResponsesDeferred(t *testing.T) {
	s := replaytest.NewFamily().Deferred()
	out, err := agent.New(resp(t, "responses_deferred.json", openai.WithDeferred(s)), agent.WithTools(s.Tools()...)).
		Run(t.Context(), agent.User("Where did I put the milk?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "In the fridge." || out.Turns != 2 {
		t.Errorf("outcome %q after %d turns", out.Text, out.Turns)
	}
}
