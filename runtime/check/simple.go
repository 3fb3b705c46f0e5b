package check

import "strconv"

// simple is a pattern anchored at both ends whose atoms are ASCII
// character classes with counts, such as ^[A-Z]{2}[0-9]{3,6}$: the common
// shape of codes, identifiers and slugs in tool schemas. Matching it needs
// no regular-expression engine: the positions a prefix of the input can
// end at are carried from one atom to the next, so the result is exact
// (what a backtracking engine would find) in time proportional to the
// input times the atoms. Any other construct, or a negated class, leaves
// the pattern to the engine.
type simple struct {
	atoms []simpleAtom
}

// simpleAtom is one class, repeated min to max times (max < 0: unbounded).
type simpleAtom struct {
	set      [2]uint64 // ASCII members
	min, max int
}

func (a *simpleAtom) has(c byte) bool {
	return c < 128 && a.set[c>>6]&(1<<(c&63)) != 0
}

// simpleMax is the longest input simple matches itself (its positions are
// a bit set in one word); longer input goes to the engine.
const simpleMax = 63

// parseSimple returns the simple form of an ECMA-262 pattern, or false.
func parseSimple(p string) (*simple, bool) {
	if len(p) < 2 || p[0] != '^' || p[len(p)-1] != '$' || len(p) > 2 && p[len(p)-2] == '\\' {
		return nil, false
	}
	body := p[1 : len(p)-1]
	var s simple
	for i := 0; i < len(body); {
		var a simpleAtom
		switch c := body[i]; {
		case c == '[':
			end, ok := parseClass(body, i+1, &a)
			if !ok {
				return nil, false
			}
			i = end
		case c == '\\':
			if i+1 >= len(body) || !escapeInto(body[i+1], &a) {
				return nil, false
			}
			i += 2
		case c < 128 && !isMeta(c):
			a.add(c)
			i++
		default:
			return nil, false
		}
		a.min, a.max = 1, 1
		if i < len(body) {
			n, ok := parseQuantifier(body, i, &a)
			if !ok {
				return nil, false
			}
			i = n
		}
		s.atoms = append(s.atoms, a)
	}
	return &s, len(s.atoms) > 0
}

func (a *simpleAtom) add(c byte) { a.set[c>>6] |= 1 << (c & 63) }

// isMeta reports the characters that are not literals outside a class.
func isMeta(c byte) bool {
	switch c {
	case '^', '$', '\\', '.', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '/':
		return true
	}
	return c < ' ' || c == 127
}

// escapeInto adds the members of the escape \c (a digit class or an
// escaped punctuation character) to a; false for any other escape.
func escapeInto(c byte, a *simpleAtom) bool {
	switch {
	case c == 'd':
		for d := byte('0'); d <= '9'; d++ {
			a.add(d)
		}
	case c < 128 && isMeta(c) && c >= ' ' && c != 127, c == '-':
		a.add(c)
	default:
		return false
	}
	return true
}

// parseClass reads a class body from s[i:] (after '[') into a and returns
// the index after its ']'. Negated classes and non-ASCII members are not
// simple.
func parseClass(s string, i int, a *simpleAtom) (int, bool) {
	if i < len(s) && (s[i] == '^' || s[i] == ']') {
		return 0, false
	}
	for i < len(s) && s[i] != ']' {
		lo, n, ok := classChar(s, i)
		if !ok {
			return 0, false
		}
		if lo < 0 { // \d
			escapeInto('d', a)
			i = n
			continue
		}
		i = n
		if i+1 < len(s) && s[i] == '-' && s[i+1] != ']' {
			hi, n2, ok := classChar(s, i+1)
			if !ok || hi < lo {
				return 0, false
			}
			for c := lo; c <= hi; c++ {
				a.add(byte(c))
			}
			i = n2
			continue
		}
		a.add(byte(lo))
	}
	if i >= len(s) {
		return 0, false
	}
	return i + 1, true
}

// classChar reads one member of a class at s[i]: its byte, or -1 for \d,
// and the index after it.
func classChar(s string, i int) (int, int, bool) {
	c := s[i]
	switch {
	case c == '\\':
		if i+1 >= len(s) {
			return 0, 0, false
		}
		e := s[i+1]
		switch {
		case e == 'd':
			return -1, i + 2, true
		case e < 128 && (isMeta(e) || e == '-') && e >= ' ' && e != 127:
			return int(e), i + 2, true
		}
		return 0, 0, false
	case c >= 128 || c < ' ' || c == 127 || c == '[':
		return 0, 0, false
	}
	return int(c), i + 1, true
}

// parseQuantifier reads an optional quantifier at s[i] into a.
func parseQuantifier(s string, i int, a *simpleAtom) (int, bool) {
	switch s[i] {
	case '*':
		a.min, a.max = 0, -1
		i++
	case '+':
		a.min, a.max = 1, -1
		i++
	case '?':
		a.min, a.max = 0, 1
		i++
	case '{':
		end := i + 1
		for end < len(s) && s[end] != '}' {
			end++
		}
		if end >= len(s) {
			return 0, false
		}
		lo, hi, ok := counts(s[i+1 : end])
		if !ok {
			return 0, false
		}
		a.min, a.max = lo, hi
		i = end + 1
	default:
		return i, true
	}
	// A lazy or second quantifier is not simple.
	if i < len(s) && (s[i] == '?' || s[i] == '*' || s[i] == '+' || s[i] == '{') {
		return 0, false
	}
	return i, true
}

// counts parses "n", "n," or "n,m" (digits only, n <= m).
func counts(q string) (int, int, bool) {
	num := func(t string) (int, bool) {
		if t == "" || len(t) > 4 || len(t) > 1 && t[0] == '0' {
			// Leading zeros stay with the engine (whose translation reads
			// them as Go's syntax does).
			return 0, false
		}
		for j := 0; j < len(t); j++ {
			if t[j] < '0' || t[j] > '9' {
				return 0, false
			}
		}
		n, err := strconv.Atoi(t)
		return n, err == nil
	}
	lo, rest, comma := q, "", false
	for j := 0; j < len(q); j++ {
		if q[j] == ',' {
			lo, rest, comma = q[:j], q[j+1:], true
			break
		}
	}
	n, ok := num(lo)
	if !ok {
		return 0, 0, false
	}
	if !comma {
		return n, n, true
	}
	if rest == "" {
		return n, -1, true
	}
	m, ok := num(rest)
	if !ok || m < n {
		return 0, 0, false
	}
	return n, m, true
}

// match reports whether s matches, and false for ok when s is longer than
// simpleMax (the engine decides).
func (p *simple) match(s string) (matched, ok bool) {
	if len(s) > simpleMax {
		return false, false
	}
	// ends has bit k set when the atoms so far can consume s[:k].
	ends := uint64(1)
	for i := range p.atoms {
		a := &p.atoms[i]
		// run[k] is how many characters from k on are in the class.
		var next uint64
		for k := 0; k <= len(s); k++ {
			if ends&(1<<k) == 0 {
				continue
			}
			n := 0
			for k+n < len(s) && (a.max < 0 || n < a.max) && a.has(s[k+n]) {
				n++
			}
			for c := a.min; c <= n; c++ {
				next |= 1 << (k + c)
			}
		}
		if ends = next; ends == 0 {
			return false, true
		}
	}
	return ends&(1<<len(s)) != 0, true
}
