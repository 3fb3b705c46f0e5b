package enums_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/golden/enums"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"set_levels"}
	for _, seed := range []string{`{"mode":"fast","priority":2,"mixed":0,"color":null,"version":2,"kind":"levels","ratio":0.25,"big":5}`, `{"mode":"safe","mixed":"auto","color":"red"}`, `{"mode":"full-scan","mixed":true,"ratio":1}`} {
		for i := range tools {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)]
		v, err := enums.DecodeArgs(tool, args)
		if err != nil {
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: accepted %s but cannot marshal it back: %v", tool, args, err)
		}
		w, err := enums.DecodeArgs(tool, again)
		if err != nil {
			t.Fatalf("%s: accepted %s but rejects its own encoding %s: %v", tool, args, again, err)
		}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v", tool, args, v, again, w)
		}
	})
}
