package openai_test

import (
	"errors"
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime"
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

// A turn the model did not finish is not a success: the run fails with
// ErrIncomplete and the reason, the partial text (for a Chat refusal with
// null content, the refusal's words) kept.
func TestIncompleteAnswers(t *testing.T) {
	for _, tt := range []struct {
		fixture string
		model   func(t *testing.T, fixture string) agent.Model
		stop    agent.Stop
		text    string
	}{
		{"chat_refusal.json", func(t *testing.T, f string) agent.Model { return chat(t, f) }, agent.StopRefusal, "I'm sorry, I can't help with that."},
		{"chat_length.json", func(t *testing.T, f string) agent.Model { return chat(t, f) }, agent.StopLength, "The answer is"},
		{"responses_incomplete.json", func(t *testing.T, f string) agent.Model { return resp(t, f) }, agent.StopLength, ""},
	} {
		t.Run(tt.fixture, func(t *testing.T) {
			out, err := agent.New(tt.model(t, tt.fixture)).Run(t.Context(), agent.User("What is the answer?"))
			if !errors.Is(err, agent.ErrIncomplete) {
				t.Fatalf("err = %v, want ErrIncomplete", err)
			}
			if out.Stop != tt.stop || out.Text != tt.text {
				t.Errorf("outcome stop %q, text %q", out.Stop, out.Text)
			}
		})
	}
}

// serve answers every request with body.
func serve(t *testing.T, body string) sdk.Client {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(srv.Close)
	return sdk.NewClient(option.WithBaseURL(srv.URL), option.WithAPIKey("test-key"), option.WithMaxRetries(0))
}

// Every finish_reason, status and incomplete reason maps to the loop's
// Stop; one the adapter does not know is passed on as the API's word.
func TestStopReasons(t *testing.T) {
	req := agent.Request{Messages: []agent.Message{agent.User("hi")}}
	for reason, want := range map[string]agent.Stop{
		"stop": agent.StopComplete, "length": agent.StopLength,
		"content_filter": agent.StopFiltered, "something_new": "something_new",
	} {
		c := serve(t, fmt.Sprintf(`{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"x","refusal":null},"finish_reason":%q}]}`, reason))
		got, err := openai.NewChat(c, sdk.ChatCompletionNewParams{Model: "gpt-4.1"}).Next(t.Context(), req)
		if err != nil || got.Stop != want {
			t.Errorf("chat %s: stop %q, err %v; want %q", reason, got.Stop, err, want)
		}
	}
	for status, want := range map[string]agent.Stop{
		`"completed","incomplete_details":null`:                            agent.StopComplete,
		`"incomplete","incomplete_details":{"reason":"max_output_tokens"}`: agent.StopLength,
		`"incomplete","incomplete_details":{"reason":"content_filter"}`:    agent.StopFiltered,
		`"incomplete","incomplete_details":{"reason":"max_messages"}`:      "max_messages",
		`"queued","incomplete_details":null`:                               "queued",
	} {
		c := serve(t, `{"id":"r","object":"response","created_at":1,"model":"gpt-5.4","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"output_text","text":"x","annotations":[]}]}],"status":`+status+`}`)
		got, err := openai.NewResponses(c, responses.ResponseNewParams{Model: "gpt-5.4"}).Next(t.Context(), req)
		if err != nil || got.Stop != want || got.Text != "x" {
			t.Errorf("responses %s: stop %q, text %q, err %v; want %q", status, got.Stop, got.Text, err, want)
		}
	}
}

// finish_reason tool_calls with no tool call is an error: the turn's text
// is not a final answer (it ended the run as one).
func TestChatToolCallsMissing(t *testing.T) {
	req := agent.Request{Messages: []agent.Message{agent.User("hi")}}
	for _, calls := range []string{``, `,"tool_calls":[]`, `,"tool_calls":null`} {
		c := serve(t, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":"Let me check.","refusal":null`+calls+`},"finish_reason":"tool_calls"}]}`)
		got, err := openai.NewChat(c, sdk.ChatCompletionNewParams{Model: "gpt-4.1"}).Next(t.Context(), req)
		if want := "openai: finish_reason tool_calls without tool calls"; err == nil || err.Error() != want {
			t.Errorf("tool_calls%s: text %q, err %v; want %s", calls, got.Text, err, want)
		}
	}
	c := serve(t, `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"list_todos","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`)
	if got, err := openai.NewChat(c, sdk.ChatCompletionNewParams{Model: "gpt-4.1"}).Next(t.Context(), req); err != nil || got.Stop != agent.StopComplete || len(got.ToolCalls) != 1 {
		t.Errorf("tool_calls with a call: %+v, %v", got, err)
	}
}

// A Responses refusal part is the turn's text, the turn StopRefusal; a
// failed response is an error.
func TestResponsesRefusalAndFailure(t *testing.T) {
	req := agent.Request{Messages: []agent.Message{agent.User("hi")}}
	c := serve(t, `{"id":"r","object":"response","created_at":1,"model":"gpt-5.4","status":"completed","output":[{"type":"message","id":"m","role":"assistant","status":"completed","content":[{"type":"refusal","refusal":"I can't help with that."}]}]}`)
	got, err := openai.NewResponses(c, responses.ResponseNewParams{Model: "gpt-5.4"}).Next(t.Context(), req)
	if err != nil || got.Stop != agent.StopRefusal || got.Text != "I can't help with that." {
		t.Errorf("refusal: %+v, %v", got, err)
	}
	c = serve(t, `{"id":"r","object":"response","created_at":1,"model":"gpt-5.4","status":"failed","error":{"code":"server_error","message":"boom"},"output":[]}`)
	if _, err := openai.NewResponses(c, responses.ResponseNewParams{Model: "gpt-5.4"}).Next(t.Context(), req); err == nil ||
		err.Error() != "openai: response r failed: server_error: boom" {
		t.Errorf("failed response: err = %v", err)
	}
}

// The surface's own tool_search next to the hosted one WithDeferred adds
// is refused before any request.
func TestResponsesDeferredRefusesClientSearch(t *testing.T) {
	s := replaytest.NewFamily().Deferred()
	m := openai.NewResponses(serve(t, `{}`), responses.ResponseNewParams{Model: "gpt-5.4"}, openai.WithDeferred(s))
	_, err := agent.New(m, agent.WithTools(append(s.Tools(), s.SearchTool())...)).Run(t.Context(), agent.User("Where is the milk?"))
	want := `agent: model: openai: tool "tool_search" is offered as a function, but deferred tools are searched with the hosted tool_search tool, which WithDeferred adds; offer the surface's Tools() without its SearchTool()`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
}

// A call the caller would have to answer but no surface offers (Chat's
// legacy function_call; a Responses custom, computer, shell, patch,
// approval or client-run search call) is an error, not passed over: the
// call would go unanswered, and a turn of nothing else would end the run
// as an empty final answer.
func TestUnanswerableCalls(t *testing.T) {
	req := agent.Request{Messages: []agent.Message{agent.User("hi")}}
	chatBody := `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"function_call":{"name":"list_todos","arguments":"{}"}},"finish_reason":"function_call"}]}`
	got, err := openai.NewChat(serve(t, chatBody), sdk.ChatCompletionNewParams{Model: "gpt-4.1"}).Next(t.Context(), req)
	if want := `openai: legacy function_call "list_todos"; only tools are offered, and its answer could not be paired with it`; err == nil || err.Error() != want {
		t.Errorf("chat function_call: text %q, calls %v, err = %v\nwant %s", got.Text, got.ToolCalls, err, want)
	}
	// a custom call's id and type are the provider's: cut short in the error
	long := strings.Repeat("z", 1<<16)
	chatBody = `{"id":"c","object":"chat.completion","created":1,"model":"gpt-4.1","choices":[{"index":0,"message":{"role":"assistant","content":null,"refusal":null,"tool_calls":[{"id":"` + long + `","type":"` + long + `","custom":{"name":"raw","input":"x"}}]},"finish_reason":"tool_calls"}]}`
	_, err = openai.NewChat(serve(t, chatBody), sdk.ChatCompletionNewParams{Model: "gpt-4.1"}).Next(t.Context(), req)
	cut := strings.Repeat("z", 63) + "…"
	if want := fmt.Sprintf("openai: tool call %q of type %q; only function tools are offered", cut, cut); err == nil || err.Error() != want {
		t.Errorf("chat custom call with a long id: err (%d bytes) = %.200v\nwant %s", len(fmt.Sprint(err)), err, want)
	}
	for _, tt := range []struct{ item, want string }{
		{`{"type":"custom_tool_call","id":"ctc_1","call_id":"call_1","name":"raw","input":"x"}`,
			`openai: output item "call_1" of type "custom_tool_call" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"computer_call","id":"cu_1","call_id":"call_2","action":{"type":"screenshot"},"pending_safety_checks":[],"status":"completed"}`,
			`openai: output item "call_2" of type "computer_call" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"local_shell_call","id":"ls_1","call_id":"call_3","action":{"type":"exec","command":["ls"],"env":{}},"status":"completed"}`,
			`openai: output item "call_3" of type "local_shell_call" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"apply_patch_call","id":"ap_1","call_id":"call_4","operation":{"type":"delete_file","path":"x"},"status":"completed"}`,
			`openai: output item "call_4" of type "apply_patch_call" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"mcp_approval_request","id":"mcpr_1","name":"x","arguments":"{}","server_label":"s"}`,
			`openai: output item "mcpr_1" of type "mcp_approval_request" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"tool_search_call","id":"tsc_1","call_id":"call_5","execution":"client","status":"completed","arguments":{"query":"x"}}`,
			`openai: output item "call_5" of type "tool_search_call" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"shell_call","id":"sh_1","call_id":"call_6","action":{"commands":["ls"]},"environment":{"type":"local"},"status":"completed"}`,
			`openai: output item "call_6" of type "shell_call" asks for an answer from the caller; only function tools are offered`},
		{`{"type":"shell_call","id":"sh_2","call_id":"call_7","action":{"commands":["ls"]},"environment":{"type":"container_reference","container_id":"c"},"status":"completed"}`, ``},
		{`{"type":"tool_search_call","id":"tsc_1","call_id":null,"execution":"server","status":"completed","arguments":{"paths":["notes"]}}`, ``},
	} {
		body := `{"id":"r","object":"response","created_at":1,"model":"gpt-5.4","status":"completed","output":[` + tt.item + `]}`
		got, err := openai.NewResponses(serve(t, body), responses.ResponseNewParams{Model: "gpt-5.4"}).Next(t.Context(), req)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%s: err = %v", tt.item, err)
		case tt.want != "" && (err == nil || err.Error() != tt.want):
			t.Errorf("%s: text %q, calls %v, err = %v\nwant %s", tt.item, got.Text, got.ToolCalls, err, tt.want)
		}
	}
}

// A Responses function_call without a call_id is refused before it runs:
// the loop would give the call an id of its own, which the item, sent back
// as the API returned it, would not carry, so the next request would pair
// no output with it.
func TestResponsesCallWithoutID(t *testing.T) {
	for _, tt := range []struct{ output, want string }{
		{`{"type":"function_call","id":"fc_1","call_id":"","name":"create_todo","arguments":"{\"title\":\"milk\"}","status":"completed"}`,
			`agent: model: openai: function_call item 1 (create_todo) has no call_id; its output could not be paired with it`},
		{`{"type":"reasoning","id":"rs_1","summary":[]},{"type":"function_call","id":"fc_1","name":"create_todo","arguments":"{}","status":"completed"}`,
			`agent: model: openai: function_call item 2 (create_todo) has no call_id; its output could not be paired with it`},
	} {
		c := serve(t, `{"id":"r","object":"response","created_at":1,"model":"gpt-5.4","status":"completed","output":[`+tt.output+`]}`)
		a := agent.New(openai.NewResponses(c, responses.ResponseNewParams{Model: "gpt-5.4"}), agent.WithTools(replaytest.NewFamily().Tools()...))
		ran := 0
		a.Bus().Subscribe(func(runtime.Event) { ran++ })
		_, err := a.Run(t.Context(), agent.User("Add 'milk'."))
		if err == nil || err.Error() != tt.want || ran != 0 {
			t.Errorf("%s: err = %v, %d calls ran\nwant %s", tt.output, err, ran, tt.want)
		}
	}
}

// A failed response without an error says so, rather than ending in
// empty fields.
func TestResponsesFailedWithoutError(t *testing.T) {
	req := agent.Request{Messages: []agent.Message{agent.User("hi")}}
	for _, tt := range []struct{ error, want string }{
		{`null`, "openai: response r failed, without an error saying why"},
		{`{"code":"","message":""}`, "openai: response r failed, without an error saying why"},
	} {
		c := serve(t, `{"id":"r","object":"response","created_at":1,"model":"gpt-5.4","status":"failed","error":`+tt.error+`,"output":[]}`)
		if _, err := openai.NewResponses(c, responses.ResponseNewParams{Model: "gpt-5.4"}).Next(t.Context(), req); err == nil || err.Error() != tt.want {
			t.Errorf("error %s: err = %v\nwant %s", tt.error, err, tt.want)
		}
	}
}
