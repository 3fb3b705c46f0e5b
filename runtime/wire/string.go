package wire

import (
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// readString consumes a string token (d.data[d.pos] is '"') and returns its
// decoded content. When the text holds no escapes and is valid UTF-8 the
// content is a subslice of the input and plain is true; otherwise it is a
// fresh buffer the caller may keep (nil with check set, which only checks
// the syntax). Invalid UTF-8 bytes and unpaired surrogate escapes decode
// to U+FFFD, as encoding/json does.
func (d *Decoder) readString(check bool) (b []byte, plain, ok bool) {
	data := d.data
	start := d.pos + 1
	p := start
	// Fast path: plain ASCII up to the closing quote, eight bytes at a
	// time while no byte of the word can end the run.
	for p+8 <= len(data) && plainWord(data[p:p+8]) {
		p += 8
	}
	for p < len(data) {
		c := data[p]
		if c == '"' {
			d.pos = p + 1
			return data[start:p], true, true
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p++
	}
	// buf holds the decoded text once it differs from the input; until
	// then the result is a subslice.
	var buf []byte
	changed := false
	begin := func() {
		if !check && !changed {
			buf = append(make([]byte, 0, p-start+16), data[start:p]...)
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
				r1, ok := hex4(data, p+2)
				if !ok {
					d.pos = p
					d.syntax(p, "invalid \\u escape in string")
					return nil, false, false
				}
				p += 6
				if utf16.IsSurrogate(r1) {
					if r2, ok := hex4(data, p+2); ok && p+1 < len(data) && data[p] == '\\' && data[p+1] == 'u' {
						if dec := utf16.DecodeRune(r1, r2); dec != utf8.RuneError {
							p += 6
							if !check {
								buf = utf8.AppendRune(buf, dec)
							}
							continue
						}
					}
					r1 = utf8.RuneError
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

// plainWord reports whether none of the eight bytes of w is a quote, a
// backslash, a control character or a non-ASCII byte.
func plainWord(w []byte) bool {
	x := binary.LittleEndian.Uint64(w)
	const (
		lo = 0x0101010101010101
		hi = 0x8080808080808080
	)
	// A byte of x is flagged when it is >= 0x80, < 0x20, '"' or '\\'
	// (the classic "has a zero byte" trick on x, x^'"' and x^'\\').
	bad := x | (x - lo*0x20) | ((x ^ lo*'"') - lo) | ((x ^ lo*'\\') - lo)
	return bad&hi == 0
}

func hex4(data []byte, p int) (rune, bool) {
	if p+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[p : p+4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}
