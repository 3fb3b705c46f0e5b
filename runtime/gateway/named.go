package gateway

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// A question that writes a tool's identifier ("use the lawsuit_search
// function", "tools.hotel.book") asks for that tool by name, whatever its
// near-duplicates score. Only identifiers count, not plain words: a tool
// named "add" is not named by "add 5 to 3", and "lawsuit_search" is no
// English word a question would use for anything else.

// nameTable maps the case-folded hash of each op's tool name and path to
// the op, for the names shaped like identifiers; a key two ops share maps
// to -1. Hashes, not strings: the index allocates no lowercased copy of
// every name, and a hit is confirmed against the op's own names.
type nameTable struct {
	ops []Op
	ids map[uint64]int32
}

func newNameTable(ops []Op) nameTable {
	t := nameTable{ops: ops, ids: make(map[uint64]int32, 2*len(ops))}
	for i := range ops {
		for _, s := range [...]string{ops[i].Tool, ops[i].Path} {
			if !identifier(s) {
				continue
			}
			k := foldHash(s)
			if j, ok := t.ids[k]; ok && j != int32(i) {
				t.ids[k] = -1
				continue
			}
			t.ids[k] = int32(i)
		}
	}
	return t
}

// foldHash is the FNV-1a hash of s with ASCII letters lowercased.
func foldHash(s string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

// lookup is the op named tok (-1: none, or several).
func (t nameTable) lookup(tok string) (int, bool) {
	d, ok := t.ids[foldHash(tok)]
	if !ok {
		return -1, false
	}
	if d < 0 {
		return -1, true
	}
	if op := &t.ops[d]; !strings.EqualFold(tok, op.Tool) && !strings.EqualFold(tok, op.Path) {
		return -1, false // another string with the same hash
	}
	return int(d), true
}

// identifier reports whether s reads as a program's identifier rather
// than a word: letters and digits joined by '_', '.' or '-', or written
// in camel case ("getWeather").
func identifier(s string) bool {
	joined := false
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case (c == '_' || c == '.' || c == '-') && i+1 < len(s) && wordByte(s[i-1]) && wordByte(s[i+1]):
			joined = true
		case 'A' <= c && c <= 'Z' && 'a' <= s[i-1] && s[i-1] <= 'z':
			joined = true
		}
	}
	return joined
}

func wordByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
}

// namedOp is the one op whose tool name or path query writes as a whole
// token, or -1 when it names none or several (a list of functions names
// no one of them).
func (t nameTable) namedOp(query string) int {
	if len(t.ids) == 0 {
		return -1
	}
	found := -1
	for len(query) > 0 {
		i := strings.IndexFunc(query, isTokenRune)
		if i < 0 {
			break
		}
		query = query[i:]
		j := strings.IndexFunc(query, func(r rune) bool { return !isTokenRune(r) })
		if j < 0 {
			j = len(query)
		}
		tok := strings.TrimRight(query[:j], ".-")
		query = query[j:]
		if !identifier(tok) {
			continue
		}
		d, ok := t.lookup(tok)
		switch {
		case !ok:
		case d < 0 || found >= 0 && found != d:
			return -1
		default:
			found = d
		}
	}
	return found
}

// isTokenRune: the runes of an identifier token in a question.
func isTokenRune(r rune) bool {
	return r == '_' || r == '.' || r == '-' || unicode.IsLetter(r) || unicode.IsDigit(r)
}
