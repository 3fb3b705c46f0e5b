package github_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/github"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, github.DecodeArgs, []string{"list_issues", "create_issue", "search_code"}, `{"owner":"o","repo":"r","state":"open","labels":["a"],"since":"2024-01-01T00:00:00Z","page":1,"perPage":30}`, `{"owner":"o","repo":"r","title":"t","milestone":null,"assignees":["x"]}`, `{"q":"x","order":"asc"}`)
}
