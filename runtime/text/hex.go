package text

// Hex4 reads the four hexadecimal digits of a JSON \uXXXX escape at
// b[p:p+4]; ok is false when there are fewer than four or one is not a
// hex digit. The gateway's argument scan, the wire decoder and the
// positioned JSON reader of the schema side share it.
func Hex4[T ~string | ~[]byte](b T, p int) (r rune, ok bool) {
	if p < 0 || p+4 > len(b) {
		return 0, false
	}
	for i := p; i < p+4; i++ {
		c := b[i]
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
