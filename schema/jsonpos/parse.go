package jsonpos

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// MaxDepth is the deepest nesting of arrays and objects Parse accepts
// (limits.JSONDepthFactor times the default limits.Limits.Depth); the
// loader applies the family's own limit through ParseDepth. Every node keeps its JSON pointer, so memory grows
// with the square of the depth: the limit keeps it small.
const MaxDepth = 512

// Parse parses data as strict JSON (RFC 8259) into a Node tree in which
// every node knows its file, line, column and JSON pointer.
//
// Lines and columns are 1-based; columns count bytes (as the Go toolchain
// does), so a tab or a multi-byte character advances them by its encoded
// length. A leading UTF-8 byte order mark is skipped and not counted.
// Object members keep source order and numbers keep their literal text.
// A syntax error or a duplicate key is returned as a *Error located at the
// offending byte.
func Parse(file string, data []byte) (*Node, error) {
	return ParseDepth(file, data, MaxDepth, "")
}

// ParseDepth is Parse with a nesting limit of maxDepth; hint (if any) is appended to
// the depth error to name the setting that raises it.
func ParseDepth(file string, data []byte, maxDepth int, hint string) (*Node, error) {
	return ParseText(file, string(data), maxDepth, hint)
}

// ParseText is ParseDepth of a document held as a string. The nodes'
// strings are parts of src, which ParseDepth first copies its bytes into;
// a caller that read the document as a string (a catalogue of 12 MB is
// 60 ms of copying) passes it here without that copy.
func ParseText(file, src string, maxDepth int, hint string) (*Node, error) {
	src = strings.TrimPrefix(src, "\uFEFF")
	p := &parser{file: file, src: src, line: 1, maxDepth: maxDepth, depthHint: hint,
		ptrBudget: pointerBudgetBase + pointerBudgetFactor*len(src)}
	if utf16Text(src) {
		return nil, p.errorf(0, "", "the file is UTF-16 text (as Windows PowerShell's > writes it), and JSON is UTF-8: save it as UTF-8 (in PowerShell, Out-File -Encoding utf8 or Set-Content -Encoding utf8)")
	}
	return p.document()
}

// utf16Text reports whether src starts as UTF-16 text does: with its byte
// order mark, or with a NUL byte beside an ASCII one (a NUL is never JSON
// outside a string, and never raw inside one).
func utf16Text(src string) bool {
	if strings.HasPrefix(src, "\xff\xfe") || strings.HasPrefix(src, "\xfe\xff") {
		return true
	}
	return len(src) >= 2 && (src[0] == 0) != (src[1] == 0) && src[0] < utf8.RuneSelf && src[1] < utf8.RuneSelf
}

// ParseBare is Parse without positions: nodes carry no file, line, column
// or JSON pointer, which saves most of the parse's allocations. It is for
// re-reading JSON toolgen wrote itself (a compiled params schema), where
// no error needs locating.
func ParseBare(data []byte) (*Node, error) {
	p := &parser{src: string(data), line: 1, maxDepth: MaxDepth, bare: true}
	return p.document()
}

// document parses the whole source as one JSON value.
func (p *parser) document() (*Node, error) {
	p.skipSpace()
	if n, ok := p.parseParallel(); ok {
		return n, nil
	}
	n, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.off < len(p.src) {
		return nil, p.errorf(p.off, "", "unexpected %s after top-level value", p.describe(p.off))
	}
	return n, nil
}

type parser struct {
	// lone is set by escape when it replaced an unpaired surrogate, for
	// the string being read (Node.Replaced).
	lone bool
	// bare parses skip JSON pointers (nodes get none): for re-reading
	// schemas toolgen wrote itself, where no error needs locating.
	bare      bool
	maxDepth  int
	depthHint string
	// ptrBudget is how many bytes of JSON pointers the nodes may still
	// take: long keys nested deep would otherwise make them quadratic in
	// the input's size.
	ptrBudget int
	slab      []Node // nodes are allocated in chunks
	// members and items are the stacks the members and elements of the
	// objects and arrays being parsed gather on; a finished one's are
	// copied to memberSlab or itemSlab, exactly sized.
	members    []Member
	items      []*Node
	memberSlab []Member
	itemSlab   []*Node
	file       string
	src        string
	off        int
	line       int
	lineStart  int
}

// The JSON pointers of a file's nodes may take pointerBudgetBase plus
// pointerBudgetFactor bytes per input byte.
const (
	pointerBudgetBase   = 32 << 20
	pointerBudgetFactor = 16
)

// spendPointer charges a new node pointer against the budget.
func (p *parser) spendPointer(ptr string) error {
	p.ptrBudget -= len(ptr)
	if p.ptrBudget < 0 {
		return p.errorf(p.off, "", "JSON pointers of this file exceed %d bytes plus %d per input byte: long keys are nested too deep", pointerBudgetBase, pointerBudgetFactor)
	}
	return nil
}

// nodeSlab is how many nodes are allocated at a time.
const nodeSlab = 256

// node returns a new node of kind k at pos.
func (p *parser) node(k NodeKind, pos ir.Pos) *Node {
	if len(p.slab) == 0 {
		p.slab = make([]Node, p.slabSize())
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	n.Kind, n.Pos = k, pos
	return n
}

// slabSize is how many nodes, members or elements to allocate at a time:
// a small document gets a small slab, as schemas hold about one value per
// 16 bytes (a short slab is re-sliced, a long one takes another).
func (p *parser) slabSize() int { return min(nodeSlab, (len(p.src)-p.off)/16+1) }

// finishMembers returns the members gathered on the stack from start on,
// in an exactly sized slice, and pops them.
func (p *parser) finishMembers(start int) []Member {
	ms := p.members[start:]
	k := len(ms)
	var out []Member
	if k > nodeSlab/4 {
		out = make([]Member, k)
	} else {
		if len(p.memberSlab) < k {
			p.memberSlab = make([]Member, max(k, p.slabSize()))
		}
		out = p.memberSlab[:k:k]
		p.memberSlab = p.memberSlab[k:]
	}
	copy(out, ms)
	clear(ms)
	p.members = p.members[:start]
	return out
}

// finishItems is finishMembers for array elements.
func (p *parser) finishItems(start int) []*Node {
	its := p.items[start:]
	k := len(its)
	var out []*Node
	if k > nodeSlab/4 {
		out = make([]*Node, k)
	} else {
		if len(p.itemSlab) < k {
			p.itemSlab = make([]*Node, max(k, p.slabSize()))
		}
		out = p.itemSlab[:k:k]
		p.itemSlab = p.itemSlab[k:]
	}
	copy(out, its)
	clear(its)
	p.items = p.items[:start]
	return out
}

func (p *parser) pos(off int, ptr string) ir.Pos {
	return ir.Pos{File: p.file, Line: p.line, Col: off - p.lineStart + 1, Pointer: ptr}
}

func (p *parser) errorf(off int, ptr string, format string, args ...any) *Error {
	return Errorf(p.pos(off, ptr), format, args...)
}

// describe names the byte at off for an error message.
func (p *parser) describe(off int) string {
	if off >= len(p.src) {
		return "end of input"
	}
	if rest := p.src[off:]; strings.HasPrefix(rest, "//") || strings.HasPrefix(rest, "/*") {
		return "comment (JSON has none: remove it)"
	}
	r, _ := utf8.DecodeRuneInString(p.src[off:])
	if r == utf8.RuneError {
		return "invalid UTF-8 byte"
	}
	return "character " + strconv.QuoteRune(r)
}

func (p *parser) skipSpace() {
	for p.off < len(p.src) {
		switch p.src[p.off] {
		case ' ', '\t', '\r':
			p.off++
		case '\n':
			p.off++
			p.line++
			p.lineStart = p.off
		default:
			return
		}
	}
}

func (p *parser) eof(ptr string) *Error {
	return p.errorf(p.off, ptr, "unexpected end of input")
}

// value parses one JSON value starting at p.off (after whitespace).
func (p *parser) value(ptr string, depth int) (*Node, error) {
	if p.off >= len(p.src) {
		return nil, p.eof(ptr)
	}
	start := p.off
	switch c := p.src[p.off]; {
	case c == '{':
		return p.object(ptr, depth+1)
	case c == '[':
		return p.array(ptr, depth+1)
	case c == '"':
		pos := p.pos(start, ptr)
		s, err := p.str(ptr)
		if err != nil {
			return nil, err
		}
		n := p.node(StringNode, pos)
		n.Str = s
		n.Replaced, p.lone = p.lone, false
		return n, nil
	case c == '-' || c >= '0' && c <= '9':
		pos := p.pos(start, ptr)
		num, err := p.number(ptr)
		if err != nil {
			return nil, err
		}
		n := p.node(NumberNode, pos)
		n.Num = num
		return n, nil
	case c == 't':
		n, err := p.literal("true", BoolNode, ptr)
		if n != nil {
			n.Bool = true
		}
		return n, err
	case c == 'f':
		return p.literal("false", BoolNode, ptr)
	case c == 'n':
		return p.literal("null", NullNode, ptr)
	default:
		return nil, p.errorf(start, ptr, "unexpected %s, expected a JSON value", p.describe(start))
	}
}

func (p *parser) literal(word string, k NodeKind, ptr string) (*Node, error) {
	pos := p.pos(p.off, ptr)
	if !strings.HasPrefix(p.src[p.off:], word) {
		// Find the first byte that differs, for a precise location.
		i := 0
		for p.off+i < len(p.src) && i < len(word) && p.src[p.off+i] == word[i] {
			i++
		}
		if p.off+i >= len(p.src) {
			return nil, p.errorf(p.off+i, ptr, "unexpected end of input in literal %s", word)
		}
		return nil, p.errorf(p.off+i, ptr, "unexpected %s in literal %s", p.describe(p.off+i), word)
	}
	p.off += len(word)
	if p.off < len(p.src) && isIdentByte(p.src[p.off]) {
		return nil, p.errorf(p.off, ptr, "unexpected %s after literal %s", p.describe(p.off), word)
	}
	return p.node(k, pos), nil
}

func isIdentByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// number scans a JSON number and returns its literal text.
func (p *parser) number(ptr string) (string, error) {
	s, start := p.src, p.off
	i := start
	if s[i] == '-' {
		i++
	}
	switch {
	case i >= len(s):
		return "", p.errorf(i, ptr, "unexpected end of input in number")
	case s[i] == '0':
		i++
		if i < len(s) && isDigit(s[i]) {
			return "", p.errorf(i, ptr, "invalid number: leading zero")
		}
	case isDigit(s[i]):
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	default:
		return "", p.errorf(i, ptr, "invalid number: expected digit after '-', found %s", p.describe(i))
	}
	if i < len(s) && s[i] == '.' {
		i++
		if i >= len(s) || !isDigit(s[i]) {
			return "", p.errorf(i, ptr, "invalid number: expected digit after '.', found %s", p.describe(i))
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if i >= len(s) || !isDigit(s[i]) {
			return "", p.errorf(i, ptr, "invalid number: expected digit in exponent, found %s", p.describe(i))
		}
		for i < len(s) && isDigit(s[i]) {
			i++
		}
	}
	if i < len(s) && (isIdentByte(s[i]) || s[i] == '.') {
		return "", p.errorf(i, ptr, "invalid number: unexpected %s", p.describe(i))
	}
	if i-start > MaxNumberLen {
		return "", p.errorf(start, ptr, "number of %d characters: numbers are read up to %d characters (every int64 and float64 is written in far fewer)", i-start, MaxNumberLen)
	}
	p.off = i
	return s[start:i], nil
}

// MaxNumberLen is the most characters a number may be written in. Schema
// numbers are compared exactly (math/big), at a cost that grows with the
// square of their digits: a bound of a million digits took seconds. The
// longest meaningful literal, the exact decimal of the least float64
// (2^-1074), has 1,076 characters.
const MaxNumberLen = 4096

// str scans a JSON string starting at its opening quote and returns the
// decoded value. Strings without escapes share memory with the source.
func (p *parser) str(ptr string) (string, error) {
	s := p.src
	i := p.off + 1
	start := i
	// Fast path: no escapes, all ASCII or valid UTF-8.
	for i < len(s) {
		c := s[i]
		if c == '"' {
			p.off = i + 1
			return s[start:i], nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		if c >= 0x80 {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				break
			}
			i += size
			continue
		}
		i++
	}
	var b strings.Builder
	b.WriteString(s[start:i])
	for {
		if i >= len(s) {
			return "", p.errorf(i, ptr, "unexpected end of input in string")
		}
		c := s[i]
		switch {
		case c == '"':
			p.off = i + 1
			return b.String(), nil
		case c < 0x20:
			return "", p.errorf(i, ptr, "invalid control character U+%04X in string", c)
		case c < 0x80:
			if c != '\\' {
				b.WriteByte(c)
				i++
				continue
			}
			next, err := p.escape(&b, i, ptr)
			if err != nil {
				return "", err
			}
			i = next
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errorf(i, ptr, "invalid UTF-8 in string")
			}
			b.WriteString(s[i : i+size])
			i += size
		}
	}
}

// escape decodes the escape sequence at s[i] (a backslash) into b and
// returns the offset after it. A \u escape of a surrogate pair takes both
// halves; a lone surrogate becomes U+FFFD.
func (p *parser) escape(b *strings.Builder, i int, ptr string) (int, error) {
	s := p.src
	if i+1 >= len(s) {
		return 0, p.errorf(i+1, ptr, "unexpected end of input in string")
	}
	switch e := s[i+1]; e {
	case '"', '\\', '/':
		b.WriteByte(e)
	case 'b':
		b.WriteByte('\b')
	case 'f':
		b.WriteByte('\f')
	case 'n':
		b.WriteByte('\n')
	case 'r':
		b.WriteByte('\r')
	case 't':
		b.WriteByte('\t')
	case 'u':
		r, ok := text.Hex4(s, i+2)
		if !ok {
			return 0, p.errorf(i, ptr, "invalid \\u escape: expected four hex digits")
		}
		i += 6
		if utf16.IsSurrogate(r) {
			if r2, ok := text.Hex4(s, i+2); ok && i+1 < len(s) && s[i] == '\\' && s[i+1] == 'u' {
				if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
					b.WriteRune(d)
					return i + 6, nil
				}
			}
			r = utf8.RuneError // lone surrogate
			p.lone = true
		}
		b.WriteRune(r)
		return i, nil
	default:
		return 0, p.errorf(i, ptr, "invalid escape %s in string", strconv.Quote(s[i:i+2]))
	}
	return i + 2, nil
}

func (p *parser) array(ptr string, depth int) (*Node, error) {
	n := p.node(ArrayNode, p.pos(p.off, ptr))
	if depth > p.maxDepth {
		return nil, p.errorf(p.off, ptr, "nesting deeper than %d levels%s", p.maxDepth, p.depthHint)
	}
	p.off++ // [
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == ']' {
		p.off++
		return n, nil
	}
	start := len(p.items)
	for {
		elemPtr := ptr
		if !p.bare {
			elemPtr = ptr + "/" + strconv.Itoa(len(p.items)-start)
			if err := p.spendPointer(elemPtr); err != nil {
				return nil, err
			}
		}
		it, err := p.value(elemPtr, depth)
		if err != nil {
			return nil, err
		}
		p.items = append(p.items, it)
		done, err := p.next(ptr, ']', "array element")
		if err != nil {
			return nil, err
		}
		if done {
			n.Items = p.finishItems(start)
			return n, nil
		}
	}
}

// next consumes what follows an array element or object member: a ','
// (an error when a trailing one precedes end) or end, which closes the
// container and makes done true.
func (p *parser) next(ptr string, end byte, what string) (done bool, err error) {
	p.skipSpace()
	if p.off >= len(p.src) {
		return false, p.eof(ptr)
	}
	switch p.src[p.off] {
	case ',':
		comma := p.off
		p.off++
		p.skipSpace()
		if p.off < len(p.src) && p.src[p.off] == end {
			return false, p.errorfAt(comma, ptr, "trailing comma before '%c'", end)
		}
		return false, nil
	case end:
		p.off++
		return true, nil
	}
	return false, p.errorf(p.off, ptr, "expected ',' or '%c' after %s, found %s", end, what, p.describe(p.off))
}

// errorfAt locates an error at an earlier offset, which may lie on an
// earlier line than the parser's current one.
func (p *parser) errorfAt(off int, ptr string, format string, args ...any) *Error {
	line, lineStart := 1, 0
	for i := 0; i < off; i++ {
		if p.src[i] == '\n' {
			line++
			lineStart = i + 1
		}
	}
	return Errorf(ir.Pos{File: p.file, Line: line, Col: off - lineStart + 1, Pointer: ptr}, format, args...)
}

// dupIndexAt is the member count above which duplicate keys are found with
// a map instead of a linear scan.
const dupIndexAt = 16

func (p *parser) object(ptr string, depth int) (*Node, error) {
	n := p.node(ObjectNode, p.pos(p.off, ptr))
	if depth > p.maxDepth {
		return nil, p.errorf(p.off, ptr, "nesting deeper than %d levels%s", p.maxDepth, p.depthHint)
	}
	p.off++ // {
	p.skipSpace()
	if p.off < len(p.src) && p.src[p.off] == '}' {
		p.off++
		return n, nil
	}
	var index map[string]int
	start := len(p.members)
	for {
		if p.off >= len(p.src) {
			return nil, p.eof(ptr)
		}
		if p.src[p.off] != '"' {
			return nil, p.errorf(p.off, ptr, "expected '\"' to begin object key, found %s", p.describe(p.off))
		}
		keyOff := p.off
		keyLine, keyLineStart := p.line, p.lineStart
		key, err := p.str(ptr)
		if err != nil {
			return nil, err
		}
		p.lone = false // a key's, not the value's
		valPtr := ptr
		if !p.bare {
			valPtr = ptr + "/" + escapePointerToken(key)
			if err := p.spendPointer(valPtr); err != nil {
				return nil, err
			}
		}
		keyPos := ir.Pos{File: p.file, Line: keyLine, Col: keyOff - keyLineStart + 1, Pointer: valPtr}
		if prev := findMember(p.members[start:], index, key); prev >= 0 {
			first := p.members[start+prev].KeyPos()
			hint := ""
			if strings.ContainsRune(key, utf8.RuneError) {
				// Two keys differing only in unpaired surrogate escapes
				// read alike: say why they are one key.
				hint = "; an unpaired surrogate escape (\\ud800 to \\udfff) is not text and reads as U+FFFD"
			}
			return nil, Errorf(keyPos, "duplicate key %q (first at %d:%d)%s", key, first.Line, first.Col, hint)
		}
		p.skipSpace()
		if p.off >= len(p.src) {
			return nil, p.eof(valPtr)
		}
		if p.src[p.off] != ':' {
			return nil, p.errorf(p.off, valPtr, "expected ':' after object key, found %s", p.describe(p.off))
		}
		p.off++
		p.skipSpace()
		v, err := p.value(valPtr, depth)
		if err != nil {
			return nil, err
		}
		p.members = append(p.members, NewMember(key, keyPos, v))
		if ms := p.members[start:]; index != nil {
			index[key] = len(ms) - 1
		} else if len(ms) == dupIndexAt {
			index = make(map[string]int, 2*dupIndexAt)
			for i, m := range ms {
				index[m.Key] = i
			}
		}
		done, err := p.next(ptr, '}', "object member")
		if err != nil {
			return nil, err
		}
		if done {
			n.Members = p.finishMembers(start)
			if index != nil {
				n.index, n.indexed = index, len(n.Members)
			}
			return n, nil
		}
	}
}

func findMember(ms []Member, index map[string]int, key string) int {
	if index != nil {
		if i, ok := index[key]; ok {
			return i
		}
		return -1
	}
	for i := range ms {
		if ms[i].Key == key {
			return i
		}
	}
	return -1
}

// escapePointerToken escapes a key for use in a JSON pointer (RFC 6901):
// '~' becomes "~0" and '/' becomes "~1".
func escapePointerToken(key string) string {
	if !strings.ContainsAny(key, "~/") {
		return key
	}
	return strings.NewReplacer("~", "~0", "/", "~1").Replace(key)
}
