package formats_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/golden/formats"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"schedule_event"}
	for _, seed := range []string{`{}`, `{"at":"2026-11-22T10:00:00Z","on":"2026-11-22"}`, `{"at":"2026-11-22T10:00:00.5+02:00"}`, `{"at":"bad"}`} {
		for i := range tools {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)]
		v, err := formats.DecodeArgs(tool, args)
		if err != nil {
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: accepted %s but cannot marshal it back: %v", tool, args, err)
		}
		w, err := formats.DecodeArgs(tool, again)
		if err != nil {
			t.Fatalf("%s: accepted %s but rejects its own encoding %s: %v", tool, args, again, err)
		}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v", tool, args, v, again, w)
		}
	})
}
