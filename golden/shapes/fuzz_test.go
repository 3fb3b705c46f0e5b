package shapes_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/shapes"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, shapes.DecodeArgs, []string{"get_air_quality", "ping", "get_weather", "get_forecast"}, `{}`, `{"location":"Paris","unit":"celsius"}`, `{"city":"Oslo","pollutant":"PM10"}`, `{"location":"x","days":3}`)
}
