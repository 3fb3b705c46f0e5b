package refs_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/refs"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"save_tree"}
	for _, seed := range []string{`{"root":{"name":"a","children":[{"name":"b","parent":null}]},"doc":{"title":"t","paragraphs":[{"text":"p","subsections":[{"title":"s"}]}]},"owner":{"name":"n","email":"a@b.co"}}`, `{"root":{"name":"x"}}`} {
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
		tool := tools[int(which)%len(tools)]
		wiretest.RoundTrip(t, refs.DecodeArgs, tool, args)
	})
}
