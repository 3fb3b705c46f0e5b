package text

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

// manyKeys is a map of n members whose keys start with prefix.
func manyKeys(n int, prefix string) map[string]any {
	m := make(map[string]any, n)
	for i := range n {
		m[prefix+strconv.Itoa(i*7919%n)] = float64(i)
	}
	return m
}

// TestReceivedGeneric checks that Received renders arrays and objects in
// generic form as Truncate of their whole compact JSON reads, and that it
// renders only what that shows: the value after a long first item is not
// visited (a channel there, which Marshal refuses, is not reached), so a
// violation deep in a large value costs no more than a small one.
func TestReceivedGeneric(t *testing.T) {
	long := strings.Repeat("é\"<\u2028\x01", 200)
	values := []any{
		[]any{},
		map[string]any{},
		[]any{nil, true, false, 1.5, 1e21, math.Copysign(0, -1), 7.0, int64(1) << 60, json.Number("12.50"), "a<b>&c"},
		map[string]any{"b": 1.0, "a": []any{"x", map[string]any{"z": nil, "y": "\xff\u2029"}}, "": "e"},
		[]any{long},
		map[string]any{long: long},
		map[string]any{"k": long, "a": 1.0},
		[]any{[]any{[]any{[]any{strings.Repeat("x", 79)}}}, "after"},
		[]any{strings.Repeat("y", 78), "z"},
		[]any{float32(0.1), 3, int32(-4), uint64(1) << 63},
		manyKeys(5000, ""), manyKeys(5000, strings.Repeat("k", 300)),
	}
	for _, v := range values {
		b, err := Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Received(v), Truncate(string(b), ReceivedLimit); got != want {
			t.Errorf("Received(%.40q…) = %q, want %q", b, got, want)
		}
	}
	v := []any{strings.Repeat("a", 1000), make(chan int)}
	if got, want := Received(v), `["`+strings.Repeat("a", ReceivedLimit-3)+"…"; got != want {
		t.Errorf("Received of a long array = %q, want %q", got, want)
	}
	v = []any{map[string]any{"k": make(chan int)}}
	if got := Received(v); !strings.Contains(got, "unsupported type") {
		t.Errorf("Received of an array holding a channel = %q, want Marshal's error", got)
	}
}

// BenchmarkReceivedManyKeys renders an object of a million members, as
// each violation showing it does: it needs its first keys only.
func BenchmarkReceivedManyKeys(b *testing.B) {
	m := manyKeys(1<<20, "")
	for b.Loop() {
		Received(m)
	}
}
