package wire

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// readString consumes a string token (d.data[d.pos] is '"') and returns its
// decoded content. When the text holds no escapes and is valid UTF-8 the
// content is a subslice of the input and plain is true; otherwise it is a
// fresh buffer the caller may keep (nil with check set, which only checks
// the syntax). Invalid UTF-8 bytes and unpaired surrogate escapes decode
// to U+FFFD, as encoding/json does, and set d.badText: the callers that
// consume values (String, Skip, More for keys) then record an "encoding"
// error, so that no handler runs on text the model did not send.
func (d *Decoder) readString(check bool) (b []byte, plain, ok bool) {
	return d.readStringTo(nil, check)
}

// readStringTo is readString decoding a string that is not plain by
// appending to dst (nil: a fresh buffer) when it has room; the result then
// shares dst's array.
func (d *Decoder) readStringTo(dst []byte, check bool) (b []byte, plain, ok bool) {
	data := d.data
	start := d.pos + 1
	p := start
	// Fast path: up to the closing quote, eight bytes at a time while no
	// byte of the word is a quote, a backslash or a control character;
	// non-ASCII text is then checked as a whole.
	var high uint64
	for p+8 <= len(data) {
		x := binary.LittleEndian.Uint64(data[p:])
		if m := specialMask(x); m != 0 {
			// The lowest flagged byte is the first special one; the
			// bytes before it are ordinary.
			i := bits.TrailingZeros64(m) / 8
			high |= x & (1<<(8*i) - 1)
			p += i
			break
		}
		high |= x
		p += 8
	}
	for p < len(data) {
		c := data[p]
		if c == '"' {
			if high&hi8 == 0 || utf8.Valid(data[start:p]) {
				d.pos = p + 1
				return data[start:p], true, true
			}
			break
		}
		if c == '\\' || c < 0x20 {
			break
		}
		high |= uint64(c)
		p++
	}
	if high&hi8 != 0 {
		// Decode from the start: non-ASCII text before p may be invalid.
		p = start
	}
	return d.readStringSlow(dst, check, start, p)
}

// readStringSlow decodes the rest of the string readStringTo started at
// start; the text before p is plain.
func (d *Decoder) readStringSlow(dst []byte, check bool, start, p int) (b []byte, plain, ok bool) {
	data := d.data
	// buf holds the decoded text once it differs from the input; until
	// then the result is a subslice.
	var buf []byte
	changed := false
	begin := func() {
		if !check && !changed {
			if dst == nil {
				dst = make([]byte, 0, p-start+16)
			}
			buf = append(dst, data[start:p]...)
		}
		changed = true
	}
	for p < len(data) {
		c := data[p]
		switch {
		case c == '"':
			d.pos = p + 1
			if !changed {
				return data[start:p], true, true
			}
			return buf, false, true
		case c < 0x20:
			d.pos = p
			d.syntax(p, "invalid control character "+quoteByte(c)+" in string")
			return nil, false, false
		case c == '\\':
			begin()
			if p+1 >= len(data) {
				d.pos = p + 1
				d.unexpected("in string escape")
				return nil, false, false
			}
			e := data[p+1]
			var r rune = -1
			switch e {
			case '"', '\\', '/':
				r = rune(e)
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				r1, ok := text.Hex4(data, p+2)
				if !ok {
					d.pos = p
					d.syntax(p, "invalid \\u escape in string")
					return nil, false, false
				}
				p += 6
				if utf16.IsSurrogate(r1) {
					if r2, ok := text.Hex4(data, p+2); ok && p+1 < len(data) && data[p] == '\\' && data[p+1] == 'u' {
						if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
							p += 6
							if !check {
								buf = utf8.AppendRune(buf, dec)
							}
							continue
						}
					}
					r1 = utf8.RuneError
					d.badText = true
				}
				if !check {
					buf = utf8.AppendRune(buf, r1)
				}
				continue
			default:
				d.pos = p
				d.syntax(p, "invalid escape '\\"+string(rune(e))+"' in string")
				return nil, false, false
			}
			if !check {
				buf = append(buf, byte(r))
			}
			p += 2
		case c < utf8.RuneSelf:
			if changed && !check {
				buf = append(buf, c)
			}
			p++
		default:
			r, size := utf8.DecodeRune(data[p:])
			if r == utf8.RuneError && size == 1 {
				d.badText = true
				begin()
				if !check {
					buf = utf8.AppendRune(buf, utf8.RuneError)
				}
			} else if changed && !check {
				buf = append(buf, data[p:p+size]...)
			}
			p += size
		}
	}
	d.pos = p
	d.unexpected("in string")
	return nil, false, false
}

const (
	lo8 = 0x0101010101010101
	hi8 = 0x8080808080808080
)

// specialMask flags (with its high bit) each byte of x, read little
// endian, that is a quote, a backslash or a control character (below
// 0x20), using the "has a byte less than n" test, (v - n·lo) & ^v & hi, on
// x for n = 0x20 and on x^'"' and x^'\\' for n = 1. The mask is nonzero
// exactly when x holds such a byte, and its lowest flagged byte is the
// first one: a borrow that may flag an ordinary byte only propagates
// upwards from a special one.
func specialMask(x uint64) uint64 {
	q := x ^ (lo8 * '"')
	b := x ^ (lo8 * '\\')
	return ((x-lo8*0x20)&^x | (q-lo8)&^q | (b-lo8)&^b) & hi8
}
