package anthropic_test

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
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

// A turn still paused after MaxContinuations continuations ends the run
// with ErrIncomplete and StopPaused instead of passing as an answer; every
// continuation sends the content so far as one assistant message, with the
// container the turn used.
func TestPauseTurnLimit(t *testing.T) {
	m := model(t, "pause_turn_limit.json")
	out, err := agent.New(m).Run(t.Context(), agent.User("Search the web."))
	if !errors.Is(err, agent.ErrIncomplete) || err.Error() != "agent: turn 1 stopped early (paused): model turn incomplete" {
		t.Fatalf("err = %v, want ErrIncomplete", err)
	}
	if out.Stop != agent.StopPaused || out.Text != strings.Repeat("Searching…", anthropic.MaxContinuations+1) {
		t.Errorf("outcome stop %q, text %q", out.Stop, out.Text)
	}
}

// A final answer cut off at max_tokens, or refused, is not a success: the
// run fails with ErrIncomplete and the reason, the text kept.
func TestIncompleteAnswers(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		stop    agent.Stop
		text    string
	}{
		{"max_tokens.json", agent.StopLength, "I will now create the to"},
		{"refusal.json", agent.StopRefusal, "I can't help with that."},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			out, err := agent.New(model(t, tt.fixture)).Run(t.Context(), agent.User("Add 'buy milk'."))
			if !errors.Is(err, agent.ErrIncomplete) {
				t.Fatalf("err = %v, want ErrIncomplete", err)
			}
			if out.Stop != tt.stop || out.Text != tt.text {
				t.Errorf("outcome stop %q, text %q", out.Stop, out.Text)
			}
		})
	}
}

// A tool_use block cut off at max_tokens is not run.
func TestMaxTokensInToolUse(t *testing.T) {
	a := agent.New(model(t, "max_tokens_tool_use.json"), agent.WithTools(replaytest.NewFamily().Tools()...))
	ran := 0
	a.Bus().Subscribe(func(runtime.Event) { ran++ })
	out, err := a.Run(t.Context(), agent.User("Add 'buy milk'."))
	if !errors.Is(err, agent.ErrIncomplete) || ran != 0 {
		t.Fatalf("err = %v, %d calls ran", err, ran)
	}
	if out.Stop != agent.StopLength || out.Text != "Creating it." {
		t.Errorf("outcome stop %q, text %q", out.Stop, out.Text)
	}
}

// Every stop_reason maps to the loop's Stop; one the adapter does not know
// is passed on as the API's word.
func TestStopReasons(t *testing.T) {
	for reason, want := range map[string]agent.Stop{
		"end_turn":                      agent.StopComplete,
		"stop_sequence":                 agent.StopComplete,
		"max_tokens":                    agent.StopLength,
		"model_context_window_exceeded": agent.StopContextWindow,
		"refusal":                       agent.StopRefusal,
		"compaction":                    "compaction",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"text","text":"x"}],"stop_reason":%q,"stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, reason)
		}))
		client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
		resp, err := anthropic.New(client, sdk.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024}).
			Next(t.Context(), agent.Request{Messages: []agent.Message{agent.User("hi")}})
		srv.Close()
		if err != nil || resp.Stop != want {
			t.Errorf("%s: stop %q, err %v; want %q", reason, resp.Stop, err, want)
		}
	}
}

// stop_reason tool_use without a tool use block is an error: the turn's
// text is not a final answer (it ended the run as one). A server tool's
// block counts as one.
func TestToolUseMissing(t *testing.T) {
	for _, tt := range []struct{ content, want string }{
		{`{"type":"text","text":"Let me check."}`, "anthropic: stop_reason tool_use without a tool_use block"},
		{``, "anthropic: stop_reason tool_use without a tool_use block"},
		{`{"type":"text","text":"Searching."},{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"x"}}`, ""},
		{`{"type":"tool_use","id":"toolu_1","name":"create_todo","input":{"title":"milk"}}`, ""},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[%s],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, tt.content)
		}))
		client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
		resp, err := anthropic.New(client, sdk.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024}).
			Next(t.Context(), agent.Request{Messages: []agent.Message{agent.User("hi")}})
		srv.Close()
		if got := fmt.Sprint(err); (tt.want == "" && err != nil) || (tt.want != "" && got != tt.want) {
			t.Errorf("%s: text %q, err %v; want %q", tt.content, resp.Text, err, tt.want)
		}
		if tt.want == "" && resp.Stop != agent.StopComplete {
			t.Errorf("%s: stop %q", tt.content, resp.Stop)
		}
	}
}

// A tool_use block without an id, or with one the API refuses in a
// request (^[a-zA-Z0-9_-]+$), or whose input is not a JSON object, is
// refused before its call runs: the loop would give an empty id one of its
// own, which the block, sent back as the API returned it, would not carry,
// and the next request would fail after the call ran.
func TestToolUseRefused(t *testing.T) {
	const tail = `, which the API would not take back (ids are [a-zA-Z0-9_-]+); its result could not be paired with it`
	for _, tt := range []struct{ content, want string }{
		{`{"type":"tool_use","id":"","name":"create_todo","input":{"title":"milk"}}`,
			`agent: model: anthropic: tool_use block 1 (create_todo) has the id ""` + tail},
		{`{"type":"text","text":"Adding."},{"type":"tool_use","name":"create_todo","input":{"title":"milk"}}`,
			`agent: model: anthropic: tool_use block 2 (create_todo) has the id ""` + tail},
		{`{"type":"tool_use","id":"call.1|x","name":"create_todo","input":{"title":"milk"}}`,
			`agent: model: anthropic: tool_use block 1 (create_todo) has the id "call.1|x"` + tail},
		{`{"type":"tool_use","id":"toolu_1","name":"create_todo","input":"milk"}`,
			`agent: model: anthropic: tool_use block 1 (create_todo) has the input "milk" where the API takes back only a JSON object`},
		{`{"type":"tool_use","id":"toolu_1","name":"create_todo","input":null}`,
			`agent: model: anthropic: tool_use block 1 (create_todo) has no input where the API takes back only a JSON object`},
		{`{"type":"tool_use","id":"toolu_1","name":"create_todo"}`,
			`agent: model: anthropic: tool_use block 1 (create_todo) has no input where the API takes back only a JSON object`},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"id":"msg_01","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[%s],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1}}`, tt.content)
		}))
		client := sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
		a := agent.New(anthropic.New(client, sdk.MessageNewParams{Model: "claude-sonnet-4-5", MaxTokens: 1024}),
			agent.WithTools(replaytest.NewFamily().Tools()...))
		ran := 0
		a.Bus().Subscribe(func(runtime.Event) { ran++ })
		_, err := a.Run(t.Context(), agent.User("Add 'milk'."))
		srv.Close()
		if err == nil || err.Error() != tt.want || ran != 0 {
			t.Errorf("%s: err = %v, %d calls ran\nwant %s", tt.content, err, ran, tt.want)
		}
	}
}
