package text

// ValidJSON reports whether b is one JSON value, with only blanks around
// it: json.Valid's answer, including its nesting limit, in one pass over
// the bytes. A server checks the parameters schema of every tool of a
// catalogue when it starts, and encoding/json's scanner takes a call per
// byte.
func ValidJSON(b []byte) bool {
	var c compactor
	_, ok := c.run(nil, b, false, false)
	return ok
}

// AppendCompactJSON appends src to dst without the blanks between tokens,
// byte for byte what json.Marshal writes for a json.RawMessage (with
// escapeHTML) or json.Compact (without): with escapeHTML, <, > and & become
// \u003c, \u003e and \u0026, and U+2028 and U+2029 become \u2028 and
// \u2029. When src is not one JSON value (ValidJSON), it returns dst
// unchanged and false.
func AppendCompactJSON(dst, src []byte, escapeHTML bool) ([]byte, bool) {
	var c compactor
	return c.run(dst, src, true, escapeHTML)
}

// maxJSONDepth is encoding/json's nesting limit: arrays and objects may
// nest this deep, and no deeper.
const maxJSONDepth = 10000

// Bits of jsonByte: what a byte inside a JSON string needs.
const (
	strEnd    = 1 << iota // ends the string or starts an escape: '"', '\\'
	strCtl                // a control byte, not allowed unescaped
	strEscape             // escaped when compacting with escapeHTML: <, >, &, and 0xE2 (U+2028, U+2029 start with it)
)

var jsonByte = func() (t [256]uint8) {
	for c := range 0x20 {
		t[c] = strCtl
	}
	t['"'], t['\\'] = strEnd, strEnd
	t['<'], t['>'], t['&'], t[0xE2] = strEscape, strEscape, strEscape, strEscape
	return t
}()

// compactor scans one JSON value and, when writing, copies it to dst in
// runs: src[start:] is the part read and not yet copied.
type compactor struct {
	src, dst      []byte
	start         int
	write, escape bool
}

// flush copies the part read up to i.
func (c *compactor) flush(i int) {
	if c.write && c.start < i {
		c.dst = append(c.dst, c.src[c.start:i]...)
	}
	c.start = i
}

// blanks skips the blanks from i and returns the index after them; a
// compacting scan leaves them out.
func (c *compactor) blanks(i int) int {
	j := SkipBlanks(c.src, i)
	if j > i {
		c.flush(i)
		c.start = j
	}
	return j
}

// run scans src from the start; see ValidJSON and AppendCompactJSON.
func (c *compactor) run(dst, src []byte, write, escape bool) ([]byte, bool) {
	*c = compactor{src: src, dst: dst, write: write, escape: write && escape}
	orig := len(dst)
	var small [64]byte
	stack := small[:0] // '{' or '[' per open container
	i := c.blanks(0)
	for {
		// A value starts at i.
		if i >= len(src) {
			return c.dst[:orig], false
		}
		switch b := src[i]; {
		case b == '{' || b == '[':
			stack = append(stack, b)
			if len(stack) > maxJSONDepth {
				return c.dst[:orig], false
			}
			i = c.blanks(i + 1)
			if i < len(src) && src[i] == b+2 { // '}' is '{'+2, ']' is '['+2
				stack = stack[:len(stack)-1]
				i++
				break
			}
			if b == '{' {
				if i = c.key(i); i < 0 {
					return c.dst[:orig], false
				}
			}
			continue
		case b == '"':
			i = c.str(i)
		case b == '-' || b-'0' < 10:
			i = number(src, i)
		case b == 't':
			i = literal(src, i, "true")
		case b == 'f':
			i = literal(src, i, "false")
		case b == 'n':
			i = literal(src, i, "null")
		default:
			i = -1
		}
		if i < 0 {
			return c.dst[:orig], false
		}
		// After a value: close containers, or go on to the next member.
		for {
			i = c.blanks(i)
			if len(stack) == 0 {
				if i != len(src) {
					return c.dst[:orig], false
				}
				c.flush(i)
				return c.dst, true
			}
			if i >= len(src) {
				return c.dst[:orig], false
			}
			open := stack[len(stack)-1]
			if src[i] == open+2 {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			if src[i] != ',' {
				return c.dst[:orig], false
			}
			i = c.blanks(i + 1)
			if open == '{' {
				if i = c.key(i); i < 0 {
					return c.dst[:orig], false
				}
			}
			break
		}
	}
}

// key reads an object member's key and colon from i and returns the index
// of its value (after blanks), or -1.
func (c *compactor) key(i int) int {
	if i >= len(c.src) || c.src[i] != '"' {
		return -1
	}
	if i = c.str(i); i < 0 {
		return -1
	}
	i = c.blanks(i)
	if i >= len(c.src) || c.src[i] != ':' {
		return -1
	}
	return c.blanks(i + 1)
}

// str reads the string starting at i (its opening quote) and returns the
// index after it, or -1.
func (c *compactor) str(i int) int {
	src := c.src
	mask := uint8(strEnd | strCtl)
	if c.escape {
		mask |= strEscape
	}
	for j := i + 1; j < len(src); {
		b := src[j]
		if jsonByte[b]&mask == 0 {
			j++
			continue
		}
		switch {
		case b == '"':
			return j + 1
		case b == '\\':
			if j+1 >= len(src) {
				return -1
			}
			switch src[j+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				j += 2
			case 'u':
				if _, ok := Hex4(src, j+2); !ok {
					return -1
				}
				j += 6
			default:
				return -1
			}
		case b < 0x20:
			return -1
		case b == 0xE2:
			if j+2 < len(src) && src[j+1] == 0x80 && src[j+2]&^1 == 0xA8 {
				c.flush(j)
				c.dst = append(c.dst, '\\', 'u', '2', '0', '2', "0123456789abcdef"[src[j+2]&0xF])
				c.start = j + 3
				j += 3
				continue
			}
			j++
		default: // <, >, &
			c.flush(j)
			c.dst = append(c.dst, '\\', 'u', '0', '0', "0123456789abcdef"[b>>4], "0123456789abcdef"[b&0xF])
			c.start = j + 1
			j++
		}
	}
	return -1
}

// number reads the number starting at i and returns the index after it,
// or -1.
func number(src []byte, i int) int {
	if src[i] == '-' {
		i++
	}
	switch {
	case i >= len(src):
		return -1
	case src[i] == '0':
		i++
	case src[i]-'1' < 9:
		i = digits(src, i+1)
	default:
		return -1
	}
	if i < len(src) && src[i] == '.' {
		j := digits(src, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(src, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

func digits(src []byte, i int) int {
	for i < len(src) && src[i]-'0' < 10 {
		i++
	}
	return i
}

// literal reads lit at i and returns the index after it, or -1.
func literal(src []byte, i int, lit string) int {
	if len(src)-i < len(lit) || string(src[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}
