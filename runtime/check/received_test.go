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
		strings.Repeat("é", 79), strings.Repeat("é", 81), strings.Repeat("\n", 50), strings.Repeat("\xff", 100),
		strings.Repeat("x", 70) + "\"" + strings.Repeat("y", 500), strings.Repeat("🙂", 90),
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
		var got, appended string
		prefix := []byte("x")
		switch v := v.(type) {
		case string:
			got, appended = ReceivedString(v), string(AppendReceivedString(prefix, v))
		case int64:
			got, appended = ReceivedInt(v), string(AppendReceivedInt(prefix, v))
		case float64:
			got, appended = ReceivedNumber(v), string(AppendReceivedNumber(prefix, v))
		default:
			continue
		}
		if got != want {
			t.Errorf("typed Received of %#v = %q, text.Received gives %q", v, got, want)
		}
		if appended != "x"+want {
			t.Errorf("Append of %#v = %q, want x%q", v, appended, want)
		}
	}
}

// AppendTruncated cuts as text.Truncate does, reading a bounded prefix.
func TestAppendTruncated(t *testing.T) {
	for _, s := range []string{"", "short", strings.Repeat("a", 80), strings.Repeat("a", 81), strings.Repeat("é", 80),
		strings.Repeat("é", 81), strings.Repeat("🙂", 80), strings.Repeat("🙂", 81), strings.Repeat("🙂", 79) + "\xff\xff",
		strings.Repeat("\xff", 400), strings.Repeat("x", 1<<20)} {
		want := text.Truncate(s, ReceivedLimit)
		if got := string(AppendTruncated(nil, s)); got != want {
			t.Errorf("AppendTruncated(%.20q…) = %q, want %q", s, got, want)
		}
		if got := string(AppendTruncated([]byte("p"), []byte(s))); got != "p"+want {
			t.Errorf("AppendTruncated(p, %.20q…) = %q, want p%q", s, got, want)
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
