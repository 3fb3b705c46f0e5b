package text

import (
	"bytes"
	"hash/maphash"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Reading the members of untrusted JSON objects (a model's arguments, a
// client's line) at a cost linear in the object whatever its members:
// nothing is allocated for a name without escapes, which is a subslice of
// the object, and a name with escapes is decoded into a buffer reused
// from member to member. A map of the members, or encoding/json decoding
// each escaped name, cost tens of times a megabyte of them.

// MemberReader reads the members of a JSON object at its top level, in
// order. On text that is not a JSON object it reads nothing, and on text
// that is not valid JSON it stops where the text stops making sense.
type MemberReader struct {
	obj []byte
	off int
	buf []byte // the decoded names' buffer
}

// Member is one member a MemberReader read.
type Member struct {
	Quoted []byte // the name as sent, quotes included
	Name   []byte // decoded as encoding/json decodes it; valid until the next member is read
	Value  []byte // the value's text
}

// NewMemberReader returns a reader of the members of the JSON object obj.
// It is a value, which stays on its caller's stack.
func NewMemberReader(obj []byte) MemberReader {
	return MemberReader{obj: obj, off: firstMember(obj)}
}

// firstMember is where the first member of the JSON object obj starts
// (len(obj) when obj is not an object).
func firstMember(obj []byte) int {
	i := SkipBlanks(obj, 0)
	if i < len(obj) && obj[i] == '{' {
		return SkipBlanks(obj, i+1)
	}
	return len(obj)
}

// MemberAt reads the one member of obj that starts at offset off (an
// Offset of a MemberReader of obj), decoding its name into buf, and
// returns buf for reuse.
func MemberAt(obj []byte, off int, buf []byte) (m Member, ok bool, reuse []byte) {
	r := MemberReader{obj: obj, off: off, buf: buf}
	m, ok = r.Next()
	return m, ok, r.buf
}

// Offset is where the next member starts (or where reading stopped).
func (r *MemberReader) Offset() int { return r.off }

// Next reads the next member; false at the end of the object.
func (r *MemberReader) Next() (Member, bool) {
	obj := r.obj
	if r.off >= len(obj) || obj[r.off] != '"' {
		return Member{}, false
	}
	end, ok := SkipString(obj, r.off)
	if !ok {
		r.off = len(obj)
		return Member{}, false
	}
	m := Member{Quoted: obj[r.off:end]}
	m.Name = m.Quoted[1 : len(m.Quoted)-1]
	if !Unescaped(m.Name) {
		r.buf = AppendUnquoted(r.buf[:0], m.Name)
		m.Name = r.buf
	}
	i := SkipBlanks(obj, end)
	if i >= len(obj) || obj[i] != ':' {
		r.off = len(obj)
		return Member{}, false
	}
	start := SkipBlanks(obj, i+1)
	if i, ok = SkipValue(obj, start); !ok {
		r.off = len(obj)
		return Member{}, false
	}
	m.Value = obj[start:i]
	if i = SkipBlanks(obj, i); i < len(obj) && obj[i] == ',' {
		i = SkipBlanks(obj, i+1)
	}
	r.off = i
	return m, true
}

// CountMembers returns the number of members of the JSON object obj and
// the size of their decoded names, for sizing a NameSet.
func CountMembers(obj []byte) (n, size int) {
	for r := NewMemberReader(obj); ; n++ {
		m, ok := r.Next()
		if !ok {
			return n, size
		}
		size += len(m.Name)
	}
}

// Unescaped reports whether the text between a JSON string's quotes is
// its decoded text: no escape, valid UTF-8.
func Unescaped(b []byte) bool {
	for i, c := range b {
		if c == '\\' {
			return false
		}
		if c >= utf8.RuneSelf {
			return bytes.IndexByte(b[i:], '\\') < 0 && utf8.Valid(b[i:])
		}
	}
	return true
}

// AppendUnquoted appends the decoded text of the JSON string whose text
// between the quotes is b, as encoding/json decodes it: escapes resolved,
// a surrogate pair joined, an unpaired surrogate escape and each byte of
// invalid UTF-8 read as U+FFFD. A malformed escape is kept as it is (the
// text is not JSON: nothing reads it further).
func AppendUnquoted(dst, b []byte) []byte {
	for i := 0; i < len(b); {
		c := b[i]
		if c >= utf8.RuneSelf {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n == 1 {
				dst = utf8.AppendRune(dst, utf8.RuneError)
			} else {
				dst = append(dst, b[i:i+n]...)
			}
			i += n
			continue
		}
		if c != '\\' || i+1 >= len(b) {
			dst = append(dst, c)
			i++
			continue
		}
		switch e := b[i+1]; e {
		case '"', '\\', '/', '\'':
			dst = append(dst, e)
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case 'n':
			dst = append(dst, '\n')
		case 'r':
			dst = append(dst, '\r')
		case 't':
			dst = append(dst, '\t')
		case 'u':
			r, ok := Hex4(b, i+2)
			if !ok {
				dst = append(dst, c, e)
				break
			}
			i += 6
			if utf16.IsSurrogate(r) {
				if i+1 < len(b) && b[i] == '\\' && b[i+1] == 'u' {
					if r2, ok := Hex4(b, i+2); ok {
						if d := utf16.DecodeRune(r, r2); d != unicode.ReplacementChar {
							dst = utf8.AppendRune(dst, d)
							i += 6
							continue
						}
					}
				}
				r = unicode.ReplacementChar
			}
			dst = utf8.AppendRune(dst, r)
			continue
		default:
			dst = append(dst, c, e)
		}
		i += 2
	}
	return dst
}

// NameSet is a set of member names of a JSON object, whatever their
// number at a cost linear in the object: each name is copied once, into
// one buffer, and found through an open-addressing table of indexes by
// seeded hash (an attacker cannot choose names that collide). It holds
// less than 4 GiB of names.
type NameSet struct {
	seed  maphash.Seed
	text  []byte   // the names, one after another
	ends  []uint32 // where each name ends in text
	slots []uint32 // 0: empty; else the index of a name, plus one
}

// NewNameSet returns a set sized for n names of size bytes in all
// (CountMembers).
func NewNameSet(n, size int) *NameSet {
	slots := 8
	for slots < n+n/3+1 { // at most three quarters full
		slots *= 2
	}
	return &NameSet{seed: maphash.MakeSeed(), text: make([]byte, 0, size), ends: make([]uint32, 0, n), slots: make([]uint32, slots)}
}

// Name is the i-th name added.
func (s *NameSet) Name(i int) []byte {
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return s.text[start:s.ends[i]]
}

// Len is the number of names in the set.
func (s *NameSet) Len() int { return len(s.ends) }

// Add adds name unless the set has it, and returns its index and whether
// it was added.
func (s *NameSet) Add(name []byte) (int, bool) {
	if 4*(len(s.ends)+1) > 3*len(s.slots) {
		s.grow()
	}
	h := s.slot(name)
	if j := s.slots[h]; j != 0 {
		return int(j) - 1, false
	}
	s.text = append(s.text, name...)
	s.ends = append(s.ends, uint32(len(s.text)))
	s.slots[h] = uint32(len(s.ends))
	return len(s.ends) - 1, true
}

// Find returns the index of name, or -1 when the set does not have it.
func (s *NameSet) Find(name []byte) int {
	return int(s.slots[s.slot(name)]) - 1
}

// slot returns the slot of name: where it is, or where it would go.
func (s *NameSet) slot(name []byte) int {
	mask := len(s.slots) - 1
	for h := int(maphash.Bytes(s.seed, name)) & mask; ; h = (h + 1) & mask {
		if j := s.slots[h]; j == 0 || bytes.Equal(s.Name(int(j)-1), name) {
			return h
		}
	}
}

// grow doubles the table (a set sized by NewNameSet does not grow).
func (s *NameSet) grow() {
	old := s.slots
	s.slots = make([]uint32, 2*len(old))
	for _, j := range old {
		if j != 0 {
			s.slots[s.slot(s.Name(int(j)-1))] = j
		}
	}
}
