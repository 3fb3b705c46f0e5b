package openai_test

import (
	"context"
	"encoding/json"
	"flag"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/agent"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/internal/replaytest"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/prompt"
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

// Chat: two tool calls in one turn, answered by two tool messages.
func TestChatSeveralCallsInOneTurn(t *testing.T) {
	out, err := agent.New(chat(t, "chat_two_calls.json"), agent.WithTools(quickstart.Tools(seeded(t))...)).
		Run(t.Context(), agent.User("Add 'buy milk' and show my open todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "Added. You have 2 open todos." || out.Turns != 2 {
		t.Errorf("outcome %q after %d turns", out.Text, out.Turns)
	}
}

// Chat: the facade unfolds into the next request's tools.
func TestChatFacadeUnfolds(t *testing.T) {
	out, err := agent.New(chat(t, "chat_facade.json"), agent.WithTools(quickstart.Facades(seeded(t))...)).
		Run(t.Context(), agent.User("What is on my list?"))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"list_todos", "get_todo", "create_todo", "update_todo", "delete_todo"}, out.Tools); diff != "" {
		t.Errorf("toolbox (-want +got):\n%s", diff)
	}
}

// Responses: gateway tools, two calls in one turn, function_call_output
// items back.
func TestResponsesGateway(t *testing.T) {
	gw, err := gateway.Tools(quickstart.Registry, quickstart.Tools(seeded(t)),
		gateway.WithTraceIDs(func() string { return "tr_1" }), gateway.WithClock(func() time.Time { return time.Unix(0, 0) }))
	if err != nil {
		t.Fatal(err)
	}
	out, err := agent.New(resp(t, "responses_gateway.json"), agent.WithTools(gw...)).Run(t.Context(), agent.User("List my todos."))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "You have one open todo: water the plants." {
		t.Errorf("text %q", out.Text)
	}
}

// Responses: open_sections halts the turn and the retried request carries
// the open section in instructions and its tools.
func TestResponsesOpenSections(t *testing.T) {
	p, err := prompt.New("agents/todo", "assistant", "", append([]prompt.Section{
		{Key: "role", Title: "Role", Template: "You keep the user's todo list."},
	}, quickstart.Sections(seeded(t))...)...)
	if err != nil {
		t.Fatal(err)
	}
	out, err := agent.New(resp(t, "responses_sections.json"), agent.WithPrompt(p)).Run(t.Context(), agent.User("Anything due?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Retries != 1 || out.Turns != 3 {
		t.Errorf("retries %d, turns %d; want 1, 3", out.Retries, out.Turns)
	}
}

// family is quickstart's todo group plus a notes group of one tool.
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

// Responses: the deferred surface as namespaces with defer_loading plus
// the hosted tool_search; the search items come back verbatim.
func TestResponsesDeferred(t *testing.T) {
	s := family(t)
	out, err := agent.New(resp(t, "responses_deferred.json", openai.WithDeferred(s)), agent.WithTools(s.Tools()...)).
		Run(t.Context(), agent.User("Where did I put the milk?"))
	if err != nil {
		t.Fatal(err)
	}
	if out.Text != "In the fridge." || out.Turns != 2 {
		t.Errorf("outcome %q after %d turns", out.Text, out.Turns)
	}
}
