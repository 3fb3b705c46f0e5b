package mcp_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/golden/mcp"
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
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)]
		v, err := mcp.DecodeArgs(tool, args)
		if err != nil {
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: accepted %s but cannot marshal it back: %v", tool, args, err)
		}
		w, err := mcp.DecodeArgs(tool, again)
		if err != nil {
			t.Fatalf("%s: accepted %s but rejects its own encoding %s: %v", tool, args, again, err)
		}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v", tool, args, v, again, w)
		}
	})
}
