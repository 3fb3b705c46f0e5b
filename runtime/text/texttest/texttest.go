// Package texttest holds test helpers for readers of model arguments: Loss,
// an oracle for text.StrictProblem built on encoding/json's token stream
// alone, so that a test of a strict reader does not check it against
// itself.
package texttest

import (
	"bytes"
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Loss says how encoding/json would decode the JSON text b with a loss,
// "" when it finds no loss (or b is not JSON text): a member named twice
// in one object, at any depth (names compared decoded); invalid UTF-8; a
// string, key or value, decoded with U+FFFD the text does not send as
// such. The last is found only in a text that sends no U+FFFD itself
// (neither the character nor a \ufffd escape): there, any U+FFFD decoded
// is a replacement, of an unpaired surrogate escape or of invalid UTF-8.
func Loss(b []byte) string {
	if !json.Valid(b) {
		return ""
	}
	if !utf8.Valid(b) {
		return "invalid UTF-8"
	}
	sendsFFFD := strings.Contains(strings.ToLower(string(b)), `\ufffd`) || bytes.ContainsRune(b, utf8.RuneError)
	type frame struct {
		object, keyNext bool
		names           map[string]bool
	}
	var stack []*frame
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	for {
		tok, err := dec.Token()
		if err != nil {
			return "" // the end of the text (json.Valid held)
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top != nil && top.object {
					top.keyNext = true // this container is top's member's value
				}
				stack = append(stack, &frame{object: d == '{', keyNext: true, names: map[string]bool{}})
			default:
				stack = stack[:len(stack)-1]
			}
			continue
		}
		s, isString := tok.(string)
		if isString && !sendsFFFD && strings.ContainsRune(s, utf8.RuneError) {
			return "U+FFFD in place of an unpaired surrogate escape"
		}
		switch {
		case top == nil || !top.object:
		case top.keyNext:
			if top.names[s] {
				return "member " + s + " sent twice"
			}
			top.names[s] = true
			top.keyNext = false
		default:
			top.keyNext = true
		}
	}
}
