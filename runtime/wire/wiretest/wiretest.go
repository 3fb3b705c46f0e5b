// Package wiretest holds test helpers for packages toolgen generates: the
// properties their decoders must keep, for fuzz targets over a family's
// DecodeArgs.
package wiretest

import (
	"encoding/json"
	"reflect"
	"testing"
)

// DecodeFunc is a generated package's DecodeArgs.
type DecodeFunc func(tool string, args []byte) (any, error)

// RoundTrip checks that what decode accepts for tool survives a JSON round
// trip: the decoded params marshal, the encoding is accepted again, and it
// decodes to an equal value. Rejected arguments pass (decoding them must
// only not panic, which the fuzzer reports by itself).
//
//	f.Fuzz(func(t *testing.T, args []byte) {
//		wiretest.RoundTrip(t, quickstart.DecodeArgs, "create_todo", args)
//	})
func RoundTrip(tb testing.TB, decode DecodeFunc, tool string, args []byte) {
	tb.Helper()
	v, err := decode(tool, args)
	if err != nil {
		return
	}
	again, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("%s: accepted %s but cannot marshal it back: %v", tool, args, err)
	}
	w, err := decode(tool, again)
	if err != nil {
		tb.Fatalf("%s: accepted %s but rejects its own encoding %s: %v", tool, args, again, err)
	}
	if !reflect.DeepEqual(v, w) {
		tb.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v", tool, args, v, again, w)
	}
}
