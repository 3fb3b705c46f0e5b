package text

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
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
// (strings quoted), truncated to ReceivedLimit code points. An array or
// object in generic form ([]any, map[string]any) is rendered only as far
// as the truncated text needs: marshaling it whole cost each violation
// the size of its value (400 violations nested in one megabyte of
// arguments took 6.5 s to word).
func Received(v any) string {
	switch v.(type) {
	case []any, map[string]any:
		r := genericRenderer{}
		if r.value(v) {
			return Truncate(string(r.b), ReceivedLimit)
		}
	}
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

// receivedBytes is how much of a value Received renders: more than
// ReceivedLimit code points of it (a code point is at most four bytes).
const receivedBytes = 4 * (ReceivedLimit + 1)

// genericRenderer writes a value in generic form as Marshal does, and
// stops once it has written more than receivedBytes bytes.
type genericRenderer struct {
	b    []byte
	done bool // b holds more than Received shows
}

// value appends v; false for a value of another type than the generic
// forms (Marshal then renders the whole value).
func (r *genericRenderer) value(v any) bool {
	if r.done = r.done || len(r.b) > receivedBytes; r.done {
		return true
	}
	switch x := v.(type) {
	case nil:
		r.b = append(r.b, "null"...)
	case bool:
		r.b = strconv.AppendBool(r.b, x)
	case string:
		r.string(x)
	case []any:
		r.b = append(r.b, '[')
		for i, e := range x {
			if i > 0 {
				r.b = append(r.b, ',')
			}
			if !r.value(e) {
				return false
			}
			if r.done {
				return true
			}
		}
		r.b = append(r.b, ']')
	case map[string]any:
		r.b = append(r.b, '{')
		for i, k := range r.keys(x) {
			if i > 0 {
				r.b = append(r.b, ',')
			}
			if r.string(k); r.done {
				return true
			}
			r.b = append(r.b, ':')
			if !r.value(x[k]) {
				return false
			}
			if r.done {
				return true
			}
		}
		r.b = append(r.b, '}')
	case float64, float32, int, int64, int32, uint64, json.Number:
		m, err := Marshal(x)
		if err != nil {
			return false
		}
		r.b = append(r.b, m...)
	default:
		return false
	}
	return true
}

// string appends s quoted as Marshal quotes it: its first code points
// only, and done, when the rest would not be shown.
func (r *genericRenderer) string(s string) {
	n := 0
	for i := range s {
		if n++; n > receivedBytes {
			s, r.done = s[:i], true
			break
		}
	}
	m, _ := Marshal(s) // a string always marshals
	if r.done {
		m = m[:len(m)-1] // not closed: the rest follows
	}
	r.b = append(r.b, m...)
}

// keys returns the keys of x in the order Marshal writes them, sorted, or
// as many of the first of them as r can still write: each key written
// takes at least four bytes ("":0), so a map of a million members needs
// its first thousand or so, found in one pass (a heap of them) rather
// than by sorting all of its keys for each violation that shows it.
func (r *genericRenderer) keys(x map[string]any) []string {
	k := max(receivedBytes-len(r.b), 0)/4 + 2
	if len(x) <= 2*k {
		return slices.Sorted(maps.Keys(x))
	}
	h := make([]string, 0, k) // a max-heap of the k smallest keys seen
	for key := range x {
		switch {
		case len(h) < k:
			h = append(h, key)
			for i := len(h) - 1; i > 0 && h[(i-1)/2] < h[i]; i = (i - 1) / 2 {
				h[i], h[(i-1)/2] = h[(i-1)/2], h[i]
			}
		case key < h[0]:
			h[0] = key
			for i := 0; ; {
				c := 2*i + 1
				if c >= len(h) {
					break
				}
				if c+1 < len(h) && h[c+1] > h[c] {
					c++
				}
				if h[i] >= h[c] {
					break
				}
				h[i], h[c] = h[c], h[i]
				i = c
			}
		}
	}
	slices.Sort(h)
	return h
}
