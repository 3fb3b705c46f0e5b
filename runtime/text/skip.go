package text

import "bytes"

// Steps over JSON text without decoding it: the runtime's readers of
// arguments and schemas find where members and values end with these.

// SkipBlanks returns the offset of the first byte at or after b[i] that is
// not JSON whitespace (space, tab, newline, carriage return).
func SkipBlanks(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// SkipString returns the offset past the JSON string starting at b[i]
// (its opening quote), and false when it is not terminated. Escapes are
// stepped over, not checked.
func SkipString(b []byte, i int) (int, bool) {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1, true
		}
	}
	return 0, false
}

// SkipValue returns the offset past the JSON value starting at b[i]
// (nested values counted, not checked), and false when it does not end.
// On text ValidJSON accepted, it finds each value's end.
func SkipValue(b []byte, i int) (int, bool) {
	if i >= len(b) {
		return 0, false
	}
	switch b[i] {
	case '"':
		return SkipString(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end, ok := SkipString(b, j)
				if !ok {
					return 0, false
				}
				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, true
				}
			}
		}
		return 0, false
	}
	j := i
	for ; j < len(b); j++ {
		if c := b[j]; c == ',' || c == ']' || c == '}' || c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			break
		}
	}
	return j, j > i
}

// JSONNesting is how deep the arrays and objects of the JSON text s nest
// (a quick reading: strings are skipped, nothing else is checked), for
// refusing texts a recursive decoder would take too deep.
func JSONNesting[T ~string | ~[]byte](s T) int {
	depth, deepest := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[', '{':
			depth++
			deepest = max(deepest, depth)
		case ']', '}':
			depth = max(depth-1, 0)
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
		}
	}
	return deepest
}

// RepeatedMember returns the first member name the JSON object obj (text
// ValidJSON accepted) has twice at its top level, decoded, and whether
// there is one, at a cost linear in obj however many members it has.
// encoding/json keeps the last value of a repeated member, while a reader
// of the text (a log, an approval prompt) may show the first. (Generated
// decoders refuse repeated members themselves, at any depth:
// runtime/wire.)
func RepeatedMember(obj []byte) (string, bool) {
	n, size := CountMembers(obj)
	if n < 2 {
		return "", false
	}
	if n <= smallObject {
		// Compared in place, one with another: the names are not copied
		// (but for escaped ones), however long.
		var seen [smallObject][]byte
		r := NewMemberReader(obj)
		for i := range n {
			m, _ := r.Next()
			if !Unescaped(m.Quoted[1 : len(m.Quoted)-1]) {
				m.Name = bytes.Clone(m.Name) // decoded in the reader's buffer
			}
			for _, s := range seen[:i] {
				if bytes.Equal(s, m.Name) {
					return string(m.Name), true
				}
			}
			seen[i] = m.Name
		}
		return "", false
	}
	set := NewNameSet(n, size)
	for r := NewMemberReader(obj); ; {
		m, ok := r.Next()
		if !ok {
			return "", false
		}
		if _, added := set.Add(m.Name); !added {
			return string(m.Name), true
		}
	}
}

// smallObject is the number of members up to which RepeatedMember
// compares names one with another rather than through a NameSet.
const smallObject = 8

// Members calls fn with the name and the value's text of each member at
// the top level of the JSON object obj (text ValidJSON accepted), in
// order, until fn returns false. A name is decoded as encoding/json
// decodes it (escapes; invalid UTF-8 as U+FFFD), and is valid only during
// the call; callers match names exactly, where encoding/json matches them
// up to case.
func Members(obj []byte, fn func(name, value []byte) bool) {
	for r := NewMemberReader(obj); ; {
		m, ok := r.Next()
		if !ok || !fn(m.Name, m.Value) {
			return
		}
	}
}

// Items calls fn with the text of each item of the JSON array arr (text
// ValidJSON accepted), in order, until fn returns false: Members for
// arrays. It reports whether arr is an array.
func Items(arr []byte, fn func(value []byte) bool) bool {
	i := SkipBlanks(arr, 0)
	if i >= len(arr) || arr[i] != '[' {
		return false
	}
	for i = SkipBlanks(arr, i+1); i < len(arr) && arr[i] != ']'; {
		end, ok := SkipValue(arr, i)
		if !ok || !fn(arr[i:end]) {
			return true
		}
		if i = SkipBlanks(arr, end); i < len(arr) && arr[i] == ',' {
			i = SkipBlanks(arr, i+1)
		}
	}
	return true
}
