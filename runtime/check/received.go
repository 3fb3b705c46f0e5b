package check

import (
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// Received is text.Received: v as compact JSON cut to ReceivedLimit.
// Validators call it on every violation, so the values they check most
// (strings, integers, booleans, plain floats) are written directly, byte
// for byte as encoding/json writes them; other values go through
// text.Received.
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
	var buf [ReceivedLimit + 8]byte
	return string(AppendReceivedString(buf[:0], s))
}

// ReceivedInt is Received of an integer.
func ReceivedInt(n int64) string { return strconv.FormatInt(n, 10) }

// ReceivedNumber is Received of a number.
func ReceivedNumber(f float64) string {
	var buf [32]byte
	return string(AppendReceivedNumber(buf[:0], f))
}

// AppendReceivedString appends ReceivedString(s) to b. It reads at most
// ReceivedLimit code points of s, so a hostile megabyte costs no more
// than a short string.
func AppendReceivedString(b []byte, s string) []byte {
	if q, ok := plainJSON(s); ok {
		b = append(b, '"')
		if len(q)+2 <= ReceivedLimit {
			b = append(b, q...)
			return append(b, '"')
		}
		// One byte per code point: the quote, ReceivedLimit-2 bytes of s
		// and the mark of the cut, as text.Truncate cuts the JSON.
		b = append(b, q[:ReceivedLimit-2]...)
		return append(b, "…"...)
	}
	// Every code point of s (and every invalid byte) writes at least one
	// code point of JSON, so the first ReceivedLimit of them decide what
	// survives the cut.
	n := 0
	for i := range s {
		if n == ReceivedLimit {
			s = s[:i]
			break
		}
		n++
	}
	start := len(b)
	b = text.AppendJSONString(b, s, false)
	return cutCodePoints(b, start, ReceivedLimit)
}

// AppendReceivedInt appends ReceivedInt(n) to b.
func AppendReceivedInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendReceivedNumber appends ReceivedNumber(f) to b.
func AppendReceivedNumber(b []byte, f float64) []byte {
	// encoding/json writes plain decimals in this range, exponents outside.
	if a := math.Abs(f); a == 0 || (a >= 1e-6 && a < 1e21) {
		start := len(b)
		b = strconv.AppendFloat(b, f, 'f', -1, 64)
		return cutCodePoints(b, start, ReceivedLimit)
	}
	return append(b, text.Received(f)...)
}

// AppendTruncated appends text.Truncate(s, ReceivedLimit) to b, reading
// at most a few hundred bytes of s: raw JSON text of a value that does not
// fit, say, which may be megabytes long.
func AppendTruncated[T string | []byte](b []byte, s T) []byte {
	start := len(b)
	// ReceivedLimit code points take at most utf8.UTFMax bytes each; one
	// more byte tells whether s goes on.
	if n := ReceivedLimit*utf8.UTFMax + 1; len(s) > n {
		s = s[:n]
	}
	b = append(b, s...)
	return cutCodePoints(b, start, ReceivedLimit)
}

// cutCodePoints cuts what b holds after start to n code points the way
// text.Truncate cuts a string (an invalid byte counts as one).
func cutCodePoints(b []byte, start, n int) []byte {
	s := b[start:]
	if len(s) <= n || utf8.RuneCount(s) <= n {
		return b
	}
	cut, count := 0, 0
	for i := 0; i < len(s); {
		if count == n-1 {
			cut = i
			break
		}
		_, size := utf8.DecodeRune(s[i:])
		i += size
		count++
	}
	return append(b[:start+cut], "…"...)
}

// receivedString quotes s when JSON needs no escape in it (printable
// ASCII without '"' and '\\'), cut like text.Received cuts it; ok is false
// otherwise.
func receivedString(s string) (string, bool) {
	if _, ok := plainJSON(s); !ok {
		return "", false
	}
	if len(s)+2 <= ReceivedLimit {
		return `"` + s + `"`, true
	}
	// ASCII: one byte per code point. text.Truncate keeps the first
	// ReceivedLimit-1 code points of the JSON (the quote and
	// ReceivedLimit-2 bytes of s) and marks the cut.
	return `"` + s[:ReceivedLimit-2] + "…", true
}

// plainJSON returns the part of s that shows in a received value (at most
// ReceivedLimit bytes) and reports whether it is printable ASCII without
// '"' and '\\', which JSON writes as it is.
func plainJSON(s string) (string, bool) {
	if len(s) > ReceivedLimit {
		s = s[:ReceivedLimit]
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			return "", false
		}
	}
	return s, true
}
