package formats_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/formats"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
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
	for _, seed := range wiretest.Hostile() {
		for i := range tools {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)]
		wiretest.RoundTrip(t, formats.DecodeArgs, tool, args)
	})
}
