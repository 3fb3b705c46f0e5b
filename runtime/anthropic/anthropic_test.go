package anthropic_test

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

var update = flag.Bool("update", false, "record the requests of testdata/*.json")

// model returns a Model whose client talks to the replay of fixture.
func model(t *testing.T, fixture string, opts ...anthropic.Option) *anthropic.Model {
	t.Helper()
	srv := replaytest.Serve(t, filepath.Join("testdata", fixture), *update)
	client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
	return anthropic.New(client, sdk.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024}, opts...)
}

// seeded returns a store holding one open item, td_1.
func seeded(t *testing.T) *quickstart.Store {
	t.Helper()
	s := &quickstart.Store{}
	create := runtime.Pick(quickstart.Tools(s), "create_todo")[0]
	res, err := runtime.Dispatch(context.Background(), create, runtime.ToolContext{}, json.RawMessage(`{"title":"water the plants"}`))
	if err != nil || !res.Success {
		t.Fatalf("seeding: %v %+v", err, res)
	}
	return s
}

// Two tool_use blocks in one turn run in order; their results go back as
// two tool_result blocks of one user message.
func TestFlatSeveralCallsInOneTurn(t *testing.T) {
	m := model(t, "flat_two_calls.json")
	out, err := agent.New(m, agent.WithTools(quickstart.Tools(seeded(t))...)).
		Run(t.Context(), agent.User("Add 'buy milk' and show my open todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Added. You have 2 open todos: buy milk and water the plants." || out.Turns != 2 {
		t.Errorf("outcome %q after %d turns", out.Text, out.Turns)
	}
}

// The facade unfolds: the second request offers the inner tools instead.
func TestFacadeUnfolds(t *testing.T) {
	m := model(t, "facade_unfolds.json")
	out, err := agent.New(m, agent.WithTools(quickstart.Facades(seeded(t))...)).
		Run(t.Context(), agent.User("What is on my list?"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"list_todos", "get_todo", "create_todo", "update_todo", "delete_todo"}, out.Tools); diff != "" {
		t.Errorf("toolbox (-want +got):\n%s", diff)
	}
}

// open_sections halts the turn; the loop re-renders the system prompt with
// the section open and asks again, now offering the section's tools.
func TestOpenSectionsRetry(t *testing.T) {
	p, err := prompt.New("agents/todo", "assistant", "", append([]prompt.Section{
		{Key: "role", Title: "Role", Template: "You keep the user's todo list."},
	}, quickstart.Sections(seeded(t))...)...)
	if err != nil {
		t.Fatal(err)
	}
	m := model(t, "open_sections.json")
	out, err := agent.New(m, agent.WithPrompt(p)).Run(t.Context(), agent.User("Anything due?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 || out.Turns != 3 {
		t.Errorf("retries %d, turns %d; want 1, 3", out.Retries, out.Turns)
	}
}

// The gateway surface goes through unchanged: four tools, ops inside.
func TestGateway(t *testing.T) {
	gw, err := gateway.Tools(quickstart.Registry, quickstart.Tools(seeded(t)),
		gateway.WithTraceIDs(func() string { return "tr_1" }), gateway.WithClock(func() time.Time { return time.Unix(0, 0) }))
	if err != nil {
		t.Fatal(err)
	}
	m := model(t, "gateway.json")
	out, err := agent.New(m, agent.WithTools(gw...)).Run(t.Context(), agent.User("List my todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "You have one open todo: water the plants." {
		t.Errorf("text %q", out.Text)
	}
}

// family is quickstart's todo group plus a notes group of one hand-written
// tool, so that the deferred surface has two groups.
func family(t *testing.T) *deferred.Surface {
	t.Helper()
	notes := runtime.MustTool("search_notes", "Search the user's notes by words.",
		json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`),
		func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Value: []string{"milk is in the fridge"}}, nil
		})
	reg := quickstart.Registry
	reg.Groups = append(append([]gateway.Group(nil), reg.Groups...), gateway.Group{Name: "notes", Summary: "Read the user's notes."})
	reg.Ops = append(append([]gateway.Op(nil), reg.Ops...), gateway.Op{Op: "notes.search", Tool: "search_notes", Group: "notes", Kind: gateway.KindRead,
		Entity: "note", Action: "search", Description: notes.Description, Parameters: notes.Parameters})
	s, err := deferred.New(reg, append(quickstart.Tools(seeded(t)), notes))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Server-side BM25 search: every tool is deferred, Anthropic searches and
// loads create_todo, and the server tool blocks go back verbatim.
func TestDeferredServerSearch(t *testing.T) {
	s := family(t)
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
	s := family(t)
	m := model(t, "deferred_client.json", anthropic.WithDeferred(s, anthropic.ClientSearch))
	out, err := agent.New(m, agent.WithTools(append(s.Tools(), s.SearchTool())...)).Run(t.Context(), agent.User("Delete the plants todo."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Turns != 3 {
		t.Errorf("turns %d", out.Turns)
	}
	search := out.Messages[2]
	if search.ToolName != deferred.SearchToolName || !strings.HasPrefix(search.Content, `{"tool_references":["delete_todo"`) {
		t.Errorf("search result %+v", search)
	}
}
