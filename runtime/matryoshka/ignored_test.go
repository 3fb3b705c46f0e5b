package matryoshka_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/golden/github/githubtest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/matryoshka"
)

// TestShortcutIgnoredArguments: a tool run through a facade's shortcut
// says which arguments its generated decoder accepted and dropped, after
// its own message and before its value, as the flat surfaces do.
func TestShortcutIgnoredArguments(t *testing.T) {
	facade := matryoshka.Facade("code", "Search code.", github.Tools(githubtest.Echo{Message: "found"}))
	run := func(args string) string {
		res, err := runtime.Dispatch(context.Background(), facade, runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(args))
		if err != nil {
			t.Fatal(err)
		}
		return runtime.RenderResult(res)
	}
	want := "found\n\nnote: \"per_pag\" is not an argument of search_code and was ignored (did you mean \"perPage\"?)\n\n" +
		`{"q":"x","order":"desc","page":1,"perPage":30}`
	if got := run(`{"tool":"search_code","args":{"q":"x","per_pag":5}}`); got != want {
		t.Errorf("answer\n%s\nwant\n%s", got, want)
	}
	if got := run(`{"tool":"search_code","args":{"q":"x","perPage":5}}`); got != "found\n\n"+`{"q":"x","order":"desc","page":1,"perPage":5}` {
		t.Errorf("answer without an ignored argument: %s", got)
	}
}
