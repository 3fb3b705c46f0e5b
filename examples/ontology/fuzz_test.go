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
	var names []string
	for _, tool := range ontology.Tools(ontology.NewStore()) {
		names = append(names, tool.Name)
	}
	wiretest.Fuzz(f, ontology.DecodeArgs, names,
		`{}`, `{"project_id":"p","limit":5,"state_key":"todo"}`, `{"task_id":"t","due_at":null,"priority":2}`,
		`{"project_id":"p","title":"T","priority":3}`, `{"moves":[{"entity_id":"a","new_parent_id":"b"}],"project_id":"p"}`,
		`{"query":"x","types":["task","plan"]}`, `{"project_id":"p","document_id":"d","new_parent_id":null,"position":0}`,
	)
}
