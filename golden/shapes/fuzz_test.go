package shapes_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/shapes"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"get_air_quality", "ping", "get_weather", "get_forecast"}
	for _, seed := range []string{`{}`, `{"location":"Paris","unit":"celsius"}`, `{"city":"Oslo","pollutant":"PM10"}`, `{"location":"x","days":3}`} {
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
		wiretest.RoundTrip(t, shapes.DecodeArgs, tool, args)
	})
}
