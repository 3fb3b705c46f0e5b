package refs_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/refs"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, refs.DecodeArgs, []string{"save_tree"}, `{"root":{"name":"a","children":[{"name":"b","parent":null}]},"doc":{"title":"t","paragraphs":[{"text":"p","subsections":[{"title":"s"}]}]},"owner":{"name":"n","email":"a@b.co"}}`, `{"root":{"name":"x"}}`)
}
