package check

import (
	"math"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// Received is text.Received: v as compact JSON cut to ReceivedLimit.
// Validators call it on every violation, so the values they check most
// (strings of printable ASCII, integers, booleans, plain floats) are
// written directly, byte for byte as encoding/json writes them; other
// values go through text.Received.
func Received(v any) string {
	switch v := v.(type) {
	case string:
		return ReceivedString(v)
	case int64:
		return ReceivedInt(v)
	case int:
		return strconv.Itoa(v)
	case bool:
		return strconv.FormatBool(v)
	case float64:
		return ReceivedNumber(v)
	case nil:
		return "null"
	}
	return text.Received(v)
}

// ReceivedString is Received of a string; generated validators call it
// (and ReceivedInt, ReceivedNumber) on values of known type, which then
// need no interface conversion.
func ReceivedString(s string) string {
	if q, ok := receivedString(s); ok {
		return q
	}
	return text.Received(s)
}

// ReceivedInt is Received of an integer.
func ReceivedInt(n int64) string { return strconv.FormatInt(n, 10) }

// ReceivedNumber is Received of a number.
func ReceivedNumber(f float64) string {
	// encoding/json writes plain decimals in this range, exponents outside.
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		return text.Truncate(strconv.FormatFloat(f, 'f', -1, 64), ReceivedLimit)
	}
	return text.Received(f)
}

// receivedString quotes s when JSON needs no escape in it (printable
// ASCII without '"' and '\\'), cut like text.Received cuts it; ok is false
// otherwise.
func receivedString(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	if len(s)+2 <= ReceivedLimit {
		return `"` + s + `"`, true
	}
	// ASCII: one byte per code point. text.Truncate keeps the first
	// ReceivedLimit-1 code points of the JSON (the quote and
	// ReceivedLimit-2 bytes of s) and marks the cut.
	return `"` + s[:ReceivedLimit-2] + "…", true
}
