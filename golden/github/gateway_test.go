package github_test

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/golden/github/githubtest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// TestGatewayIgnoredArguments: search_code's schema does not say
// additionalProperties, so its generated decoder accepts an argument it
// does not declare and drops it (JSON Schema's rule; the Go type has no
// field for it). tool_exec says so in a warning, with the nearest
// argument: a misspelt per-page size would otherwise leave the default
// while the model believes it asked for 5. list_issues refuses unknown
// arguments (additionalProperties: false): its error names them, and no
// warning calls them ignored.
func TestGatewayIgnoredArguments(t *testing.T) {
	var exec, batch runtime.Tool
	for _, tool := range github.Gateway(githubtest.Echo{}, gateway.WithWrites(true)) {
		switch tool.Name {
		case gateway.ExecTool:
			exec = tool
		case gateway.BatchTool:
			batch = tool
		}
	}
	call := func(tool runtime.Tool, args string) map[string]any {
		t.Helper()
		res, err := runtime.Dispatch(context.Background(), tool, runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		var env map[string]any
		if err := json.Unmarshal([]byte(runtime.RenderResult(res)), &env); err != nil {
			t.Fatal(err)
		}
		return env
	}
	warnings := func(env map[string]any) []string {
		var out []string
		meta, _ := env["meta"].(map[string]any)
		ws, _ := meta["warnings"].([]any)
		for _, w := range ws {
			out = append(out, w.(string))
		}
		return out
	}

	env := call(exec, `{"op":"code.search","args":{"q":"x","per_pag":5}}`)
	want := `"per_pag" is not an argument of code.search and was ignored (did you mean "perPage"?)`
	if env["ok"] != true || !slices.Contains(warnings(env), want) {
		t.Errorf("misspelt argument: want the warning %q\n%v", want, env)
	}
	if got := env["result"].(map[string]any)["perPage"]; got != 30.0 {
		t.Errorf("perPage = %v, want the default 30 (the misspelt argument is not kept)", got)
	}
	if env := call(exec, `{"op":"code.search","args":{"q":"x","perPage":5}}`); len(warnings(env)) != 0 {
		t.Errorf("declared arguments only: warnings %v", warnings(env))
	}

	env = call(exec, `{"op":"issue.list","args":{"owner":"o","repo":"r","per_pag":5}}`)
	if env["ok"] != false || !strings.Contains(env["error"].(map[string]any)["message"].(string), "per_pag") || len(warnings(env)) != 0 {
		t.Errorf("refused argument: want an error naming it and no warning\n%v", env)
	}

	env = call(batch, `{"items":[{"tool":"exec","op":"code.search","args":{"q":"x","sortt":"indexed"}}]}`)
	item := env["result"].(map[string]any)["results"].([]any)[0].(map[string]any)
	if !slices.Contains(warnings(item), `"sortt" is not an argument of code.search and was ignored (did you mean "sort"?)`) {
		t.Errorf("batch item: %v", item)
	}
}
