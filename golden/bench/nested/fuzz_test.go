package nested

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoder: it
// never panics, and what it accepts survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	f.Add(benchCase.Valid)
	f.Add(benchCase.Invalid)
	f.Add([]byte(`{}`))
	for _, seed := range wiretest.Hostile() {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		wiretest.RoundTrip(t, DecodeArgs, "create_order", args)
	})
}
