package ontology_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to every generated decoder of the
// family, as a model could: decoding never panics, and accepted arguments
// survive a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := ontology.Tools(ontology.NewStore())
	for _, seed := range []string{
		`{}`, `{"project_id":"p","limit":5,"state_key":"todo"}`, `{"task_id":"t","due_at":null,"priority":2}`,
		`{"project_id":"p","title":"T","priority":3}`, `{"moves":[{"entity_id":"a","new_parent_id":"b"}],"project_id":"p"}`,
		`{"query":"x","types":["task","plan"]}`, `{"project_id":"p","document_id":"d","new_parent_id":null,"position":0}`,
	} {
		for i := range tools {
			f.Add(uint8(i), []byte(seed))
		}
	}
	for _, seed := range wiretest.Hostile() {
		for i := range tools {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)].Name
		wiretest.RoundTrip(t, ontology.DecodeArgs, tool, args)
	})
}
