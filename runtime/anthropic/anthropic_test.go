package anthropic_test

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
)

var update = flag.Bool("update", false, "record the requests of testdata/*.json")

// model returns a Model whose client talks to the replay of fixture.
func model(t *testing.T, fixture string, opts ...anthropic.Option) *anthropic.Model {
	t.Helper()
	srv := replaytest.Serve(t, filepath.Join("testdata", fixture), *update)
	client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	return anthropic.New(client, sdk.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024}, opts...)
}

// Two tool_use blocks in one turn run in order; their results go back as
// two tool_result blocks of one user message.
func TestFlatSeveralCallsInOneTurn(t *testing.T) {
	m := model(t, "flat_two_calls.json")
	out, err := agent.New(m, agent.WithTools(replaytest.NewFamily().Tools()...)).
		Run(t.Context(), agent.User("Add 'buy milk' and show my todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Added. You have 2 todos: buy milk and water the plants." || out.Turns != 2 {
		t.Errorf("outcome %q after %d turns", out.Text, out.Turns)
	}
}

// The facade unfolds: the second request offers the inner tools instead.
func TestFacadeUnfolds(t *testing.T) {
	m := model(t, "facade_unfolds.json")
	out, err := agent.New(m, agent.WithTools(replaytest.NewFamily().Facades()...)).
		Run(t.Context(), agent.User("What is on my list?"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"list_todos", "create_todo", "delete_todo", "notes"}, out.Tools); diff != "" {
		t.Errorf("toolbox (-want +got):\n%s", diff)
	}
}

// open_sections halts the turn; the loop re-renders the system prompt with
// the section open and asks again, now offering the section's tools.
func TestOpenSectionsRetry(t *testing.T) {
	m := model(t, "open_sections.json")
	out, err := agent.New(m, agent.WithPrompt(replaytest.NewFamily().Prompt())).Run(t.Context(), agent.User("Anything left to do?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 || out.Turns != 3 {
		t.Errorf("retries %d, turns %d; want 1, 3", out.Retries, out.Turns)
	}
}

// The gateway surface goes through unchanged: four tools, ops inside.
func TestGateway(t *testing.T) {
	m := model(t, "gateway.json")
	out, err := agent.New(m, agent.WithTools(replaytest.NewFamily().Gateway()...)).Run(t.Context(), agent.User("List my todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "You have one todo: water the plants. Your notes say the milk is in the fridge." {
		t.Errorf("text %q", out.Text)
	}
}

// Server-side BM25 search: every tool is deferred, Anthropic searches and
// loads create_todo, and the server tool blocks go back verbatim.
func TestDeferredServerSearch(t *testing.T) {
	s := replaytest.NewFamily().Deferred()
	m := model(t, "deferred_bm25.json", anthropic.WithDeferred(s, anthropic.BM25))
	out, err := agent.New(m, agent.WithTools(s.Tools()...)).Run(t.Context(), agent.User("Remind me to call mum."))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(out.Text, "Done") {
		t.Errorf("text %q", out.Text)
	}
}

// Client-side search: toolgen's index answers tool_search, and the
// tool_result carries tool_reference blocks.
func TestDeferredClientSearch(t *testing.T) {
	s := replaytest.NewFamily().Deferred()
	m := model(t, "deferred_client.json", anthropic.WithDeferred(s, anthropic.ClientSearch))
	out, err := agent.New(m, agent.WithTools(append(s.Tools(), s.SearchTool())...)).Run(t.Context(), agent.User("Delete the plants todo."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Turns != 3 {
		t.Errorf("turns %d", out.Turns)
	}
	search := out.Messages[2]
	if search.ToolName != deferred.SearchToolName || search.Content != `{"tool_references":["delete_todo"]}` {
		t.Errorf("search result %+v", search)
	}
}
