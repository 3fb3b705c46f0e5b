package check

import (
	"math"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// The fast paths of Received write what text.Received writes.
func TestReceivedMatchesText(t *testing.T) {
	values := []any{
		"", "a", "hello world", `quote"`, `back\slash`, "tab\t", "<html>&", "é", "\u2028", "\xff",
		strings.Repeat("x", 77), strings.Repeat("x", 78), strings.Repeat("x", 79), strings.Repeat("y", 500),
		int64(0), int64(-42), int64(math.MaxInt64), int64(math.MinInt64), 7,
		true, false, nil,
		0.0, math.Copysign(0, -1), 1.5, 0.25, 1e-6, 9.99e-7, 1e20, 1e21, 123456789.125, -3.75, math.MaxFloat64, math.SmallestNonzeroFloat64,
		[]any{"a", 1.0}, map[string]any{"k": "v"},
	}
	for _, v := range values {
		want := text.Received(v)
		if got := Received(v); got != want {
			t.Errorf("Received(%#v) = %q, text.Received gives %q", v, got, want)
		}
		var got string
		switch v := v.(type) {
		case string:
			got = ReceivedString(v)
		case int64:
			got = ReceivedInt(v)
		case float64:
			got = ReceivedNumber(v)
		default:
			continue
		}
		if got != want {
			t.Errorf("typed Received of %#v = %q, text.Received gives %q", v, got, want)
		}
	}
}

func BenchmarkReceived(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_ = ReceivedString("GB1000")
		_ = ReceivedInt(10001)
		_ = ReceivedNumber(1.5)
	}
}
