package mcp_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/mcp"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"read_file", "write_file"}
	for _, seed := range []string{`{"path":"a","head":3}`, `{"path":"a","content":"c","mode":"0600"}`} {
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
		wiretest.RoundTrip(t, mcp.DecodeArgs, tool, args)
	})
}
