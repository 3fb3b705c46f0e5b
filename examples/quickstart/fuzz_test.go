package quickstart_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/examples/quickstart"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to every generated decoder, as a
// model could: decoding never panics, and accepted arguments survive a JSON
// round trip unchanged (what the decoder accepts, MarshalJSON writes back).
func FuzzDecodeArgs(f *testing.F) {
	var names []string
	for _, tool := range quickstart.Tools(&quickstart.Store{}) {
		names = append(names, tool.Name)
	}
	wiretest.Fuzz(f, quickstart.DecodeArgs, names,
		`{}`, `{"state":"done","limit":5,"tag":"x"}`, `{"todo_id":"td_1"}`,
		`{"title":"Renew passport","due":"2026-12-01","priority":1,"tags":["admin"]}`,
		`{"todo_id":"td_1","due":null,"done":true}`, `{"title":""}`, `[1]`, `{"todo_id":7}`,
	)
}
