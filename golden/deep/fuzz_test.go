package deep_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/deep"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders of
// a schema at the depth limits (unions 20 anyOf deep, 60 arrays): they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, deep.DecodeArgs, []string{"get_deep"}, `{"arrays":[[["leaf"]]],"unions":7,"refs":{"a":"x"}}`, `{"unions":"s"}`, `{"refs":{"a":{"b":"x"}}}`)
}
