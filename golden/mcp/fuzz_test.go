package mcp_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/mcp"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, mcp.DecodeArgs, []string{"read_file", "write_file"}, `{"path":"a","head":3}`, `{"path":"a","content":"c","mode":"0600"}`)
}
