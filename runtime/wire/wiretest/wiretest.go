// Package wiretest holds test helpers for packages toolgen generates: the
// properties their decoders must keep, for fuzz targets over a family's
// DecodeArgs, and the hostile seeds those targets start from.
package wiretest

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/wire"
)

// DecodeFunc is a generated package's DecodeArgs.
type DecodeFunc func(tool string, args []byte) (any, error)

// MaxErrorBytes bounds the text of an error a decoder returns, whatever
// the arguments: a model reads it.
const MaxErrorBytes = 64 << 10

// RoundTrip checks the properties every generated decoder keeps on any
// input:
//
//   - what decode accepts for tool is what a handler may be called with:
//     it passes its own Validate, its arguments were valid UTF-8 (invalid
//     Unicode is rejected, never replaced), and it survives a JSON round
//     trip: the decoded params marshal, the encoding is accepted again
//     and decodes to an equal value, or else to one that keeps every
//     value the first held and marshals to the same bytes as the first
//     (the encoding is a fixed point after one trip). An anyOf union
//     keeps every branch its value matches, and the first decode may
//     match fewer branches than its encoding does: {"a":"x","b":"s"}
//     matches {"a":string} but not {"b":integer}, and its encoding
//     {"a":"x"} matches both;
//   - what it rejects gets a bounded error: at most wire.MaxErrors field
//     errors and MaxErrorBytes of text.
//
// Decoding must also not panic, which the fuzzer reports by itself.
//
//	f.Fuzz(func(t *testing.T, args []byte) {
//		wiretest.RoundTrip(t, quickstart.DecodeArgs, "create_todo", args)
//	})
func RoundTrip(tb testing.TB, decode DecodeFunc, tool string, args []byte) {
	tb.Helper()
	v, err := decode(tool, args)
	if err != nil {
		if msg := err.Error(); len(msg) > MaxErrorBytes {
			tb.Fatalf("%s: the error for %.200q is %d bytes", tool, args, len(msg))
		}
		var ve *runtime.ValidationError
		if errors.As(err, &ve) && len(ve.Fields) > wire.MaxErrors {
			tb.Fatalf("%s: %d field errors for %.200q", tool, len(ve.Fields), args)
		}
		return
	}
	if !utf8.Valid(args) {
		tb.Fatalf("%s: accepted arguments that are not valid UTF-8: %q", tool, args)
	}
	if val, ok := v.(interface{ Validate() error }); ok {
		if err := val.Validate(); err != nil {
			tb.Fatalf("%s: accepted %s, which fails its own Validate: %v", tool, args, err)
		}
	}
	again, err := json.Marshal(v)
	if err != nil {
		tb.Fatalf("%s: accepted %s but cannot marshal it back: %v", tool, args, err)
	}
	w, err := decode(tool, again)
	if err != nil {
		tb.Fatalf("%s: accepted %s but rejects its own encoding %s: %v", tool, args, again, err)
	}
	if reflect.DeepEqual(v, w) {
		return
	}
	if !keeps(reflect.ValueOf(v), reflect.ValueOf(w)) {
		tb.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v", tool, args, v, again, w)
	}
	twice, err := json.Marshal(w)
	if err != nil {
		tb.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v, which cannot marshal: %v", tool, args, v, again, w, err)
	}
	if !bytes.Equal(twice, again) {
		tb.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v, which encodes as %s", tool, args, v, again, w, twice)
	}
}

// keeps reports whether w, the decode of v's encoding, holds every value
// v holds: equal, but for a nil pointer, slice, map or interface of v,
// which w may have set (a union branch the first decode did not match).
func keeps(v, w reflect.Value) bool {
	if !v.IsValid() || !w.IsValid() {
		return v.IsValid() == w.IsValid()
	}
	if v.Type() != w.Type() {
		return false
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return true
		}
		return !w.IsNil() && keeps(v.Elem(), w.Elem())
	case reflect.Slice, reflect.Array:
		if v.Kind() == reflect.Slice && v.IsNil() {
			return true
		}
		if v.Kind() == reflect.Slice && w.IsNil() || v.Len() != w.Len() {
			return false
		}
		for i := range v.Len() {
			if !keeps(v.Index(i), w.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if v.IsNil() {
			return true
		}
		if w.IsNil() || v.Len() != w.Len() {
			return false
		}
		for it := v.MapRange(); it.Next(); {
			if e := w.MapIndex(it.Key()); !e.IsValid() || !keeps(it.Value(), e) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := range v.NumField() {
			if !keeps(v.Field(i), w.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Func:
		return v.IsNil() && w.IsNil()
	}
	return v.Equal(w)
}

// Fuzz is the fuzz target of a generated family's decoders: it seeds f
// with every seed and every Hostile input for each of tools, then checks
// each input with RoundTrip against the tool its first value picks.
//
//	func FuzzDecodeArgs(f *testing.F) {
//		wiretest.Fuzz(f, quickstart.DecodeArgs, []string{"create_todo"}, `{"title":"x"}`)
//	}
func Fuzz(f *testing.F, decode DecodeFunc, tools []string, seeds ...string) {
	if len(tools) == 0 {
		f.Fatal("wiretest.Fuzz: no tools")
	}
	for _, seed := range seeds {
		for i := range tools {
			f.Add(uint8(i), []byte(seed))
		}
	}
	for _, seed := range Hostile() {
		for i := range tools {
			f.Add(uint8(i), seed)
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		RoundTrip(t, decode, tools[int(which)%len(tools)], args)
	})
}

// Hostile returns seed arguments for fuzz targets over generated decoders:
// the hostile inputs of issue 8 (invalid UTF-8 in values and keys,
// unpaired surrogate escapes, nesting past the decoder's limit, huge and
// numerous unknown keys, huge numbers, duplicate keys, NUL bytes).
func Hostile() [][]byte {
	deep := strings.Repeat(`{"a":`, 600) + "1" + strings.Repeat("}", 600)
	var many strings.Builder
	many.WriteString("{")
	for i := range 300 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`"k` + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + `":` + "[1]")
	}
	many.WriteString("}")
	out := []string{
		"{\"x\":\"a\xffb\"}",
		"{\"\xc3\":1}",
		`{"x":"\ud800"}`,
		`{"x":"\udc00\ud800"}`,
		`{"x":["ok","\ud83d"]}`,
		deep,
		strings.Repeat("[", 600) + strings.Repeat("]", 600),
		`{"` + strings.Repeat("k", 10<<10) + `":1}`,
		many.String(),
		`{"x":1e400,"y":-1e400,"z":100000000000000000000000000000}`,
		`{"a":1,"a":"two","a":null}`,
		"{\"x\":\"\x00\"}",
		"{\"x\":\"\\u0000\"}",
		"\xef\xbb\xbf{}",
	}
	seeds := make([][]byte, len(out))
	for i, s := range out {
		seeds[i] = []byte(s)
	}
	return seeds
}
