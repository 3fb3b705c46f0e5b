package enums_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/enums"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, enums.DecodeArgs, []string{"set_levels"}, `{"mode":"fast","priority":2,"mixed":0,"choice":null,"color":null,"version":2,"kind":"levels","ratio":0.25,"big":5}`, `{"mode":"safe","mixed":"auto","choice":"auto","color":"red"}`, `{"mode":"full-scan","mixed":true,"choice":0,"ratio":1}`)
}
