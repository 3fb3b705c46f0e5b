package names_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/names"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"name_torture"}
	for _, seed := range []string{`{"type":"a","0-18":1,"PM2.5":2.5,"$ref":"r","Content-Type":"c","当前状态":"s","Validate":true,"target_id":"1","targetId":"2","TargetID":"3"}`} {
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
		wiretest.RoundTrip(t, names.DecodeArgs, tool, args)
	})
}
