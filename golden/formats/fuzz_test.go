package formats_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/formats"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, formats.DecodeArgs, []string{"schedule_event"}, `{}`, `{"at":"2026-11-22T10:00:00Z","on":"2026-11-22"}`, `{"at":"2026-11-22T10:00:00.5+02:00"}`, `{"at":"bad"}`)
}
