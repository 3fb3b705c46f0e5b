package names_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/names"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, names.DecodeArgs, []string{"name_torture"}, `{"type":"a","0-18":1,"PM2.5":2.5,"$ref":"r","Content-Type":"c","当前状态":"s","Validate":true,"target_id":"1","targetId":"2","TargetID":"3"}`)
}
