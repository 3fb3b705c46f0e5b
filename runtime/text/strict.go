package text

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// What encoding/json decodes with a loss: the last value of a member sent
// twice (a log or an approval prompt reading the text may show the first),
// and U+FFFD for invalid UTF-8 or an unpaired surrogate escape (a handler
// would see text the model did not send). The gateway refuses both, and so
// do the runtime's other readers of model arguments, with these field
// error codes and messages.

// Field error codes of the refusals.
const (
	// CodeDuplicate is the code of a member sent twice, at the member's
	// JSON pointer.
	CodeDuplicate = "duplicate"
	// CodeEncoding is the code of a string, key or value, that is not
	// valid Unicode, at the JSON pointer of the value holding it.
	CodeEncoding = "encoding"
)

// DuplicateMessage is the field error message of a member sent twice.
const DuplicateMessage = "member sent twice"

// EncodingMessage is the field error message of a string that is not
// valid Unicode; bad is the offset of its first invalid byte or escape
// from its opening quote, as ScanString reports it.
func EncodingMessage(bad int) string {
	return "a string is not valid Unicode (byte " + strconv.Itoa(bad) +
		": invalid UTF-8 or an unpaired surrogate escape); send UTF-8 text, escape binary data"
}

// ScanString reads the JSON string starting at b[i] (its opening quote):
// the offset just past its closing quote, the offset from b[i] of its
// first invalid Unicode (invalid UTF-8, or a \uXXXX surrogate escape not
// paired with the other half; -1 when none), and whether it is terminated
// (a \u escape without four hex digits ends it too). Other escapes are
// stepped over, not checked.
func ScanString(b []byte, i int) (end, bad int, ok bool) {
	bad = -1
	p := i + 1
	for p < len(b) {
		c := b[p]
		switch {
		case c == '"':
			return p + 1, bad, true
		case c == '\\':
			if p+1 >= len(b) {
				return 0, bad, false
			}
			if b[p+1] != 'u' {
				p += 2
				continue
			}
			r, ok := Hex4(b, p+2)
			if !ok {
				return 0, bad, false
			}
			p += 6
			if !utf16.IsSurrogate(r) {
				continue
			}
			if r < 0xdc00 && p+1 < len(b) && b[p] == '\\' && b[p+1] == 'u' {
				if r2, ok := Hex4(b, p+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
					p += 6
					continue
				}
			}
			if bad < 0 {
				bad = p - 6 - i
			}
		case c < utf8.RuneSelf:
			p++
		default:
			r, size := utf8.DecodeRune(b[p:])
			if r == utf8.RuneError && size == 1 && bad < 0 {
				bad = p - i
			}
			p += size
		}
	}
	return 0, bad, false
}

// Problem is a place where encoding/json would decode a JSON text with a
// loss (see CodeDuplicate and CodeEncoding).
type Problem struct {
	// Path is the JSON pointer of the repeated member, or of the value
	// holding the invalid string (for a key, the member it names, shown
	// with U+FFFD). Each reference token is cut to ReceivedLimit code
	// points and the pointer to maxProblemPath.
	Path string
	// Code is CodeDuplicate or CodeEncoding.
	Code string
	// Message is DuplicateMessage or EncodingMessage's.
	Message string
	// Member is the repeated member's name, decoded and cut to
	// ReceivedLimit code points; "" for CodeEncoding.
	Member string
}

// maxProblemPath bounds a Problem's Path, in code points: objects may
// nest 10000 deep in text ValidJSON accepts.
const maxProblemPath = 1024

// StrictProblem reads the JSON text b once and returns the first place, in
// text order, where encoding/json would lose what was sent: a member named
// twice in one object, at any depth (names compared decoded and exactly:
// "a" and "\u0061" are one name, "a" and "A" two), or a string, key or
// value, that is not valid Unicode (ScanString). A key that is not valid
// Unicode is reported as such, not compared. ok is false when there is
// none; on text that is not one JSON value (ValidJSON), the answer
// covers the part before the error at most.
func StrictProblem(b []byte) (p Problem, ok bool) {
	var small [16]strictFrame
	s := strictScan{b: b, stack: small[:0]}
	return s.run()
}

// strictFrame is one open container of StrictProblem: an array's current
// index, or an object's current key and the names it has had.
type strictFrame struct {
	array bool
	index int
	key   string
	names []string
	seen  map[string]struct{} // names, once an object has many
}

// strictSeenMap is the number of names after which an object's names are
// kept in a map rather than compared one by one.
const strictSeenMap = 16

type strictScan struct {
	b     []byte
	stack []strictFrame
}

func (s *strictScan) run() (Problem, bool) {
	b := s.b
	i := SkipBlanks(b, 0)
	for {
		// A value starts at i.
		if i >= len(b) {
			return Problem{}, false
		}
		switch c := b[i]; c {
		case '{', '[':
			s.stack = append(s.stack, strictFrame{array: c == '['})
			i = SkipBlanks(b, i+1)
			if i < len(b) && b[i] == c+2 { // '}' is '{'+2, ']' is '['+2
				s.stack = s.stack[:len(s.stack)-1]
				i++
				break
			}
			if c == '{' {
				var p Problem
				var found bool
				if i, p, found = s.member(i); found || i < 0 {
					return p, found
				}
			}
			continue
		case '"':
			end, bad, ok := ScanString(b, i)
			if !ok {
				return Problem{}, false
			}
			if bad >= 0 {
				return Problem{Path: s.pointer(), Code: CodeEncoding, Message: EncodingMessage(bad)}, true
			}
			i = end
		default:
			end, ok := SkipValue(b, i)
			if !ok {
				return Problem{}, false
			}
			i = end
		}
		// After a value: close containers, or go on to the next item.
		for {
			i = SkipBlanks(b, i)
			if len(s.stack) == 0 || i >= len(b) {
				return Problem{}, false
			}
			top := &s.stack[len(s.stack)-1]
			if (top.array && b[i] == ']') || (!top.array && b[i] == '}') {
				s.stack = s.stack[:len(s.stack)-1]
				i++
				continue
			}
			if b[i] != ',' {
				return Problem{}, false
			}
			i = SkipBlanks(b, i+1)
			if top.array {
				top.index++
				break
			}
			var p Problem
			var found bool
			if i, p, found = s.member(i); found || i < 0 {
				return p, found
			}
			break
		}
	}
}

// member reads the key and colon of the member of the innermost object
// starting at i, and returns the offset of its value, or the problem with
// the key: it is not valid Unicode, or the object had it already. The
// offset is -1 when the text is not JSON there.
func (s *strictScan) member(i int) (int, Problem, bool) {
	b := s.b
	if i >= len(b) || b[i] != '"' {
		return -1, Problem{}, false
	}
	end, bad, ok := ScanString(b, i)
	if !ok {
		return -1, Problem{}, false
	}
	top := &s.stack[len(s.stack)-1]
	top.key = decodeName(b[i:end])
	if bad >= 0 {
		return -1, Problem{Path: s.pointer(), Code: CodeEncoding, Message: EncodingMessage(bad)}, true
	}
	if top.repeated(top.key) {
		return -1, Problem{Path: s.pointer(), Code: CodeDuplicate, Message: DuplicateMessage,
			Member: Truncate(top.key, ReceivedLimit)}, true
	}
	i = SkipBlanks(b, end)
	if i >= len(b) || b[i] != ':' {
		return -1, Problem{}, false
	}
	return SkipBlanks(b, i+1), Problem{}, false
}

// repeated reports whether the object has had the name, and records it.
func (f *strictFrame) repeated(name string) bool {
	if f.seen != nil {
		if _, ok := f.seen[name]; ok {
			return true
		}
		f.seen[name] = struct{}{}
		return false
	}
	for _, n := range f.names {
		if n == name {
			return true
		}
	}
	f.names = append(f.names, name)
	if len(f.names) > strictSeenMap {
		f.seen = make(map[string]struct{}, 2*len(f.names))
		for _, n := range f.names {
			f.seen[n] = struct{}{}
		}
		f.names = nil
	}
	return false
}

// decodeName is the text of the JSON string quoted (quotes included), as
// encoding/json decodes it.
func decodeName(quoted []byte) string {
	body := quoted[1 : len(quoted)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	var s string
	if json.Unmarshal(quoted, &s) != nil {
		return string(body)
	}
	return s
}

// pointer is the JSON pointer of the innermost open value.
func (s *strictScan) pointer() string {
	var sb strings.Builder
	for _, f := range s.stack {
		sb.WriteByte('/')
		if f.array {
			sb.WriteString(strconv.Itoa(f.index))
		} else {
			sb.WriteString(PointerToken(Truncate(f.key, ReceivedLimit)))
		}
		if sb.Len() > 4*maxProblemPath {
			break
		}
	}
	return Truncate(sb.String(), maxProblemPath)
}
