package text

import (
	"bytes"
	"encoding/json"
	"unicode/utf8"
)

// ReceivedLimit is the length, in code points, Received truncates to.
const ReceivedLimit = 80

// Truncate shortens s to at most n code points, marking a cut with "…"
// (which counts toward n). It never splits a UTF-8 sequence.
func Truncate(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n || utf8.RuneCountInString(s) <= n {
		return s
	}
	cut, count := 0, 0
	for i := range s {
		if count == n-1 {
			cut = i
			break
		}
		count++
	}
	return s[:cut] + "…"
}

// Marshal encodes v as compact JSON without HTML escaping ('<', '>' and
// '&' stay as they are, which is what a model should read).
func Marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Received renders a received value for an error message: compact JSON
// (strings quoted), truncated to ReceivedLimit code points.
func Received(v any) string {
	if raw, ok := v.(json.RawMessage); ok {
		var buf bytes.Buffer
		if err := json.Compact(&buf, raw); err != nil {
			return Truncate(string(raw), ReceivedLimit)
		}
		return Truncate(buf.String(), ReceivedLimit)
	}
	b, err := Marshal(v)
	if err != nil {
		return Truncate("<"+err.Error()+">", ReceivedLimit)
	}
	return Truncate(string(b), ReceivedLimit)
}
