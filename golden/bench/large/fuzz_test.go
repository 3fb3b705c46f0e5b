package large

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoder: it
// never panics, and what it accepts survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	f.Add(benchCase.Valid)
	f.Add(benchCase.Invalid)
	f.Add([]byte(`{}`))
	f.Fuzz(func(t *testing.T, args []byte) {
		v, err := DecodeArgs("update_listing", args)
		if err != nil {
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("accepted %s but cannot marshal it back: %v", args, err)
		}
		w, err := DecodeArgs("update_listing", again)
		if err != nil {
			t.Fatalf("accepted %s but rejects its own encoding %s: %v", args, again, err)
		}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("%s decodes to %#v, its encoding %s to %#v", args, v, again, w)
		}
	})
}
