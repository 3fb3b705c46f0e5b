package wire

import (
	"encoding/json"
	"math"
	"strconv"
	"unsafe"
)

// String reads a string, or records a type error and returns "".
//
// The string never aliases the input. Strings are copied or decoded into
// an arena the decoder allocates on demand (sized by the input still to
// read, at most arenaChunk bytes), so the strings of one decode share an
// allocation and keep it alive; a string longer than arenaChunk/4 gets an
// allocation of its own.
func (d *Decoder) String() string {
	if d.Peek() != String {
		d.Mismatch("string")
		return ""
	}
	spare := d.spare()
	b, plain, _ := d.readStringTo(spare, false)
	if d.badText {
		d.badUnicode("string")
	}
	if plain {
		return d.intern(b)
	}
	if len(b) == 0 {
		return ""
	}
	if len(b) <= cap(spare) && &b[0] == &spare[:1][0] {
		// Decoded into the arena's free space: claim it.
		d.arena = d.arena[:len(d.arena)+len(b)]
	}
	// Otherwise b is a fresh buffer nothing else references or writes.
	return unsafe.String(&b[0], len(b))
}

// arenaChunk bounds the arena String copies strings into.
const arenaChunk = 2048

// spare returns the arena's free space (empty, with capacity), starting a
// new arena when there is none.
func (d *Decoder) spare() []byte {
	if len(d.arena) == cap(d.arena) {
		d.grow(0)
	}
	return d.arena[len(d.arena):len(d.arena)]
}

// grow starts a new arena with room for n bytes and the strings still to
// read, which fit in what is left of the input.
func (d *Decoder) grow(n int) {
	size := n + len(d.data) - d.pos
	if size > arenaChunk {
		size = arenaChunk
	}
	if d.branch && size > n+64 {
		size = n + 64
	}
	if size < 16 {
		size = 16
	}
	d.arena = make([]byte, 0, size)
}

// intern returns a copy of b, which aliases the input, as a string.
func (d *Decoder) intern(b []byte) string {
	n := len(b)
	if n == 0 {
		return ""
	}
	if cap(d.arena)-len(d.arena) < n {
		if n > arenaChunk/4 {
			return string(b)
		}
		d.grow(n)
	}
	off := len(d.arena)
	// Reslicing within capacity stores only the length: no write barrier.
	d.arena = d.arena[:off+n]
	copy(d.arena[off:], b)
	return unsafe.String(&d.arena[off], n)
}

// Bool reads a boolean, or records a type error and returns false.
func (d *Decoder) Bool() bool {
	if d.Peek() != Bool {
		d.Mismatch("boolean")
		return false
	}
	v, _ := d.readBool()
	return v
}

// Null consumes a null and reports true, or reports false and consumes
// nothing.
func (d *Decoder) Null() bool {
	if d.Peek() != Null {
		return false
	}
	return d.readLiteral("null")
}

// Int reads an integer: a number without a fractional part (1.0 and 1e2
// count). A fraction, or a value outside int64, is recorded as an error
// (never rounded or overflowed) and 0 is returned.
func (d *Decoder) Int() int64 {
	if d.Peek() != Number {
		d.Mismatch("integer")
		return 0
	}
	start := d.pos
	text, ok := d.readNumber()
	if !ok {
		return 0
	}
	v, st := parseInt(text)
	switch st {
	case intFraction:
		d.record(start, "type", "expected integer, received number "+truncate(string(text)), "integer", string(text), "")
	case intRange:
		d.record(start, "type", "integer "+truncate(string(text))+" is outside the 64-bit range", "integer between -9223372036854775808 and 9223372036854775807", string(text), "")
	}
	return v
}

// Float reads a number; a number too large for float64 is recorded as an
// error and 0 is returned.
func (d *Decoder) Float() float64 {
	if d.Peek() != Number {
		d.Mismatch("number")
		return 0
	}
	start := d.pos
	text, ok := d.readNumber()
	if !ok {
		return 0
	}
	return d.float(start, text)
}

// exactNumber reads a number as Float does, except an integer float64
// cannot hold exactly (beyond ±2^53, within int64), which it returns as
// an int64.
func (d *Decoder) exactNumber() any {
	start := d.pos
	text, ok := d.readNumber()
	if !ok {
		return 0.0
	}
	if v, st := parseInt(text); st == intOK && (v > 1<<53 || v < -1<<53) {
		return v
	}
	return d.float(start, text)
}

// float converts the number text read at start, recording an error for
// one beyond float64's range.
func (d *Decoder) float(start int, text []byte) float64 {
	if f, ok := smallInt(text); ok {
		return f
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil || math.IsInf(f, 0) || f == 0 && nonzero(text) {
		// 1e-400 would be read as 0 (and -1e-400 pass minimum 0): the
		// handler would not see the number the model sent.
		d.record(start, "type", "number "+truncate(string(text))+" is outside the 64-bit floating point range", "number", string(text), "")
		return 0
	}
	return f
}

// nonzero reports whether the JSON number text has a nonzero digit before
// its exponent.
func nonzero(text []byte) bool {
	for _, c := range text {
		switch {
		case c == 'e' || c == 'E':
			return false
		case c >= '1' && c <= '9':
			return true
		}
	}
	return false
}

// NumberText reads a number and returns its text, or records a type error
// and returns "".
func (d *Decoder) NumberText() string {
	if d.Peek() != Number {
		d.Mismatch("number")
		return ""
	}
	text, _ := d.readNumber()
	return d.intern(text)
}

// Raw reads any value and returns a copy of its JSON text (nil after a
// syntax error).
func (d *Decoder) Raw() json.RawMessage {
	b := d.RawBytes()
	if b == nil {
		return nil
	}
	return append(json.RawMessage(nil), b...)
}

// RawBytes reads any value and returns its JSON text as a subslice of the
// input (nil after a syntax error).
func (d *Decoder) RawBytes() []byte {
	if d.Peek() == Invalid {
		d.Skip()
		return nil
	}
	start := d.pos
	d.Skip()
	if d.err != nil {
		return nil
	}
	return d.data[start:d.pos]
}

// Any reads any value into its generic form: nil, bool, float64, string,
// []any or map[string]any. Numbers outside the float64 range are recorded
// as errors.
func (d *Decoder) Any() any {
	switch d.Peek() {
	case Null:
		d.readLiteral("null")
		return nil
	case Bool:
		v, _ := d.readBool()
		return v
	case Number:
		if d.exactInts {
			return d.exactNumber()
		}
		return d.Float()
	case String:
		return d.String()
	case Array:
		d.pos++
		if !d.push(true) {
			return nil
		}
		out := []any{}
		for d.More() {
			out = append(out, d.Any())
		}
		return out
	case Object:
		d.pos++
		if !d.push(false) {
			return nil
		}
		out := map[string]any{}
		for d.More() {
			k := d.keyString()
			out[k] = d.Any()
		}
		return out
	}
	d.Skip()
	return nil
}

// keyString returns the key of the member More advanced to as a string
// that does not alias the input.
func (d *Decoder) keyString() string {
	if d.kesc {
		// A fresh buffer decoded by More, never written.
		return unsafe.String(unsafe.SliceData(d.ekey), len(d.ekey))
	}
	return d.intern(d.data[d.ks:d.ke])
}

// smallInt converts number text that is an integer of at most 15 digits,
// which float64 holds exactly, without strconv.
func smallInt(text []byte) (float64, bool) {
	neg := len(text) > 0 && text[0] == '-'
	digits := text
	if neg {
		digits = text[1:]
	}
	if len(digits) == 0 || len(digits) > 15 {
		return 0, false
	}
	var n int64
	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int64(c-'0')
	}
	f := float64(n)
	if neg {
		f = -f
	}
	return f, true
}

// Outcomes of parseInt.
const (
	intOK = iota
	intFraction
	intRange
)

// parseInt converts RFC 8259 number text to int64 exactly: the
// significant digits times a power of ten.
func parseInt(text []byte) (int64, int) {
	neg := len(text) > 0 && text[0] == '-'
	if neg {
		text = text[1:]
	}
	intEnd := 0
	for intEnd < len(text) && text[intEnd] >= '0' && text[intEnd] <= '9' {
		intEnd++
	}
	intPart, frac, rest := text[:intEnd], []byte(nil), text[intEnd:]
	if len(rest) > 0 && rest[0] == '.' {
		n := 1
		for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
			n++
		}
		frac, rest = rest[1:n], rest[n:]
	}
	exp := 0
	if len(rest) > 0 {
		eneg := false
		rest = rest[1:]
		if len(rest) > 0 && (rest[0] == '+' || rest[0] == '-') {
			eneg = rest[0] == '-'
			rest = rest[1:]
		}
		for _, c := range rest {
			if exp < 1_000_000 {
				exp = exp*10 + int(c-'0')
			}
		}
		if eneg {
			exp = -exp
		}
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	exp -= len(frac)
	// digit(i) walks intPart then frac as one digit string.
	n := len(intPart) + len(frac)
	digit := func(i int) byte {
		if i < len(intPart) {
			return intPart[i]
		}
		return frac[i-len(intPart)]
	}
	lo := 0
	for lo < n && digit(lo) == '0' {
		lo++
	}
	if lo == n {
		return 0, intOK
	}
	hi := n
	for digit(hi-1) == '0' {
		hi--
		exp++
	}
	if exp < 0 {
		return 0, intFraction
	}
	if hi-lo+exp > 19 {
		return 0, intRange
	}
	var mant uint64
	for i := lo; i < hi; i++ {
		mant = mant*10 + uint64(digit(i)-'0')
	}
	for ; exp > 0; exp-- {
		mant *= 10
	}
	if neg {
		if mant > 1<<63 {
			return 0, intRange
		}
		return -int64(mant-1) - 1, intOK
	}
	if mant > math.MaxInt64 {
		return 0, intRange
	}
	return int64(mant), intOK
}
