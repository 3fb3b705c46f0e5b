package wire

import (
	"hash/maphash"
	"math"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
)

// Kind is the JSON kind of the next value.
type Kind uint8

// JSON kinds, as Peek reports them.
const (
	Invalid Kind = iota // end of input or a byte no value starts with
	Null
	Bool
	Number
	String
	Array
	Object
)

var kindNames = [...]string{"invalid", "null", "boolean", "number", "string", "array", "object"}

// String returns the JSON Schema type name of k.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "invalid"
}

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = runtime.MaxArgsDepth

// inlineSegs is how many container levels the Decoder tracks without
// allocating; deeper levels go to a slice grown on demand.
const inlineSegs = 8

// inlineKeys is how many keys of the open objects the Decoder remembers
// without allocating (to refuse a repeated member); more go to a slice.
// manyKeys is the number of members past which an object's keys are
// looked up in a set rather than compared one by one.
const (
	inlineKeys = 16
	manyKeys   = 64
)

// keySpan is where one member's key lies in the input: its text between
// the quotes; or, when esc (it holds escapes), its decoded text in the
// Decoder's keyText. Offsets are
// 32-bit: an input of 2 GiB or more is not checked for repeated members.
type keySpan struct {
	start, end int32
	h          uint32 // keyShape of the decoded text
	esc        bool
}

// seg is one container on the path stack: where the key of the member
// currently being read lies in the input (objects), and how many members
// or items have been read (the item index plus one, for arrays).
type seg struct {
	// kstart and kend delimit the key's text between its quotes. When esc
	// is set the text holds escapes (or invalid UTF-8) and the key is
	// decoded again from the input when asked for.
	kstart, kend int
	n            int
	// k0 is where the object's keys begin in the Decoder's key list, and
	// bloom a filter of their hashes.
	k0    int
	bloom [4]uint64
	// many is set once the object's keys moved to a set (repeatedMany).
	many       bool
	array, esc bool
}

// SyntaxError is malformed JSON, located by byte offset, line and column.
type SyntaxError struct {
	Offset    int
	Line, Col int
	// Path is the JSON pointer of the value being read.
	Path string
	Msg  string
	// Depth is set when the input is valid so far but nests deeper than
	// the decoder reads (maxDepth).
	Depth bool
}

func (e *SyntaxError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col) + ": " + e.Msg
}

// Decoder reads one JSON document in a single pass. Generated decoders call
// its methods in the order the values appear; each read consumes exactly
// one value. A syntax error stops decoding (every later read returns a zero
// value); type errors are recorded and decoding continues.
//
// A Decoder allocates nothing up front: NewDecoder and NewArgsDecoder are
// inlined, so a Decoder that does not outlive its function lives on the
// stack, and the path stack is a small inline array. Strings are copied out
// of the input into a per-decoder arena (see String), so a decode costs one
// allocation for all of its strings.
type Decoder struct {
	data  []byte
	pos   int
	depth int
	// floor is the depth a branch decoder (see Branch) started at: the
	// levels below it belong to the decoder it was branched from.
	floor int
	segs  [inlineSegs]seg
	more  []seg
	// ks and ke delimit what Key returns in data: the key of the member of
	// the innermost object More advanced to (empty for an array or at the
	// floor). When kesc is set the key holds escapes and ekey is its
	// decoded text. Offsets rather than a slice keep write barriers out of
	// the hot path.
	ks, ke int
	kesc   bool
	ekey   []byte
	errs   []runtime.FieldError
	// etext holds the text of errs (pointers, received values).
	etext errorText
	err   *SyntaxError
	// arena holds the strings String returned; bytes already handed out are
	// never written again.
	arena []byte
	// badText is set by readString on invalid UTF-8 or an unpaired
	// surrogate escape, until a caller records it (see badUnicode).
	badText bool
	// dropped counts errors not recorded beyond MaxErrors.
	dropped int
	// exactInts makes Any read an integer float64 cannot hold exactly as
	// an int64 (for the embedded validator: Errors.Instance).
	exactInts bool
	// branch is set for a branch decoder, which reads one value of a union
	// trial and sizes its arena by the string at hand, not by the input.
	branch bool
	// budget is the call's pattern-matching budget (see MatchKey), shared
	// with branches and Checks.
	budget *check.Budget
	// work is what the branches of the call (see Branch) may still read,
	// shared with them; allocated by the first Branch.
	work *trialWork
	// trial numbers a branch decoder among the call's (see Branch); 0
	// for the decoder of the call.
	trial int
	// verdict is set for a union trial's decoder (see Trial): it records
	// no error, and stops at the first one.
	verdict bool
	// unions counts the unions (those decoded by trial) held by the
	// values d has read, as their MarshalJSON writes them (see Kept);
	// copies counts the bytes of the values their MarshalJSON writes
	// more than once (the members of every branch of an object).
	unions, copies int
	// keys are the keys read so far of the objects open on the path
	// stack, nkeys of them: the first inlineKeys inline, the rest in
	// moreKeys. An object with more than manyKeys members also indexes
	// its keys in a keyTable (keySets, by depth).
	keys     [inlineKeys]keySpan
	moreKeys []keySpan
	nkeys    int
	keySets  map[int]*keyTable
	// keyText holds the decoded text of keys with escapes (keySpan.esc).
	keyText []byte
}

// NewDecoder returns a Decoder over data, which must not change while the
// decoder is in use. Strings the decoder returns never alias data.
func NewDecoder(data []byte) *Decoder {
	return &Decoder{data: data}
}

// NewArgsDecoder is NewDecoder for tool arguments: empty or all-blank
// arguments, which models send for tools without parameters, read as {}.
func NewArgsDecoder(args []byte) *Decoder {
	if blank(args) {
		args = emptyObject
	}
	// Allocated outside any loop, so that escape analysis can keep it on
	// the caller's stack.
	return &Decoder{data: args}
}

// Reset makes d read data from the start, as NewDecoder(data) would,
// dropping recorded errors. Strings d returned before stay valid.
func (d *Decoder) Reset(data []byte) {
	more := d.more[:0]
	*d = Decoder{data: data, more: more}
}

func blank(b []byte) bool {
	for _, c := range b {
		if !isSpace(c) {
			return false
		}
	}
	return true
}

var emptyObject = []byte("{}")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func (d *Decoder) skipSpace() {
	for d.pos < len(d.data) && d.data[d.pos] <= ' ' && isSpace(d.data[d.pos]) {
		d.pos++
	}
}

func (d *Decoder) seg(i int) *seg {
	if i < inlineSegs {
		return &d.segs[i]
	}
	return &d.more[i-inlineSegs]
}

func (d *Decoder) push(array bool) bool {
	if d.depth >= maxDepth {
		d.tooDeep()
		return false
	}
	if d.depth >= inlineSegs {
		if d.depth-inlineSegs == len(d.more) {
			d.more = append(d.more, seg{})
		}
	}
	*d.seg(d.depth) = seg{array: array, k0: d.nkeys}
	d.depth++
	d.ks, d.ke, d.kesc = 0, 0, false
	return true
}

// pop leaves the innermost container, restoring the key of the enclosing
// object's member.
func (d *Decoder) pop() {
	d.depth--
	d.ks, d.ke, d.kesc = 0, 0, false
	if s := d.seg(d.depth); !s.array {
		d.nkeys = s.k0
		if s.many {
			d.keySets[d.depth].reset()
		}
	}
	if d.depth > d.floor {
		if s := d.seg(d.depth - 1); s.esc {
			d.kesc, d.ekey = true, d.keyAt(s)
		} else if !s.array {
			d.ks, d.ke = s.kstart, s.kend
		}
	}
}

// segKey returns the decoded key of the object member s is at.
func (d *Decoder) segKey(s *seg) []byte {
	if s.esc {
		return d.keyAt(s)
	}
	return d.data[s.kstart:s.kend]
}

// tooDeep stops decoding at a value nested past maxDepth.
func (d *Decoder) tooDeep() {
	d.syntax(d.pos, "nested more than "+strconv.Itoa(maxDepth)+" arrays and objects deep")
	d.err.Depth = true
}

// Failed reports whether decoding stopped at a syntax error.
func (d *Decoder) Failed() bool { return d.err != nil }

// Err returns the syntax error that stopped decoding, or nil.
func (d *Decoder) Err() error {
	if d.err == nil {
		return nil
	}
	return d.err
}

// syntax records a syntax error at offset off; the first one wins.
func (d *Decoder) syntax(off int, msg string) {
	if d.err != nil {
		return
	}
	line, col := 1, 1
	if off > len(d.data) {
		off = len(d.data)
	}
	for _, c := range d.data[:off] {
		if c == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	// Looking for a member's key: the error is the object's, not that of a
	// member named "".
	depth := d.depth
	if depth > d.floor {
		if s := d.seg(depth - 1); !s.array && !s.esc && s.kstart == 0 && s.kend == 0 {
			depth--
		}
	}
	start := d.etext.begin()
	path := d.etext.keep(d.appendPointer(d.etext.buf, depth), start)
	d.err = &SyntaxError{Offset: off, Line: line, Col: col, Path: path, Msg: msg}
	d.pos = len(d.data)
}

func (d *Decoder) unexpected(what string) {
	if d.pos >= len(d.data) {
		d.syntax(d.pos, "unexpected end of input "+what)
		return
	}
	d.syntax(d.pos, "invalid character "+quoteByte(d.data[d.pos])+" "+what)
}

func quoteByte(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c < 0x20 || c >= 0x7f {
		return "'\\x" + strconv.FormatUint(uint64(c)>>4, 16) + strconv.FormatUint(uint64(c)&15, 16) + "'"
	}
	return "'" + string(rune(c)) + "'"
}

// Peek returns the kind of the next value without consuming it.
func (d *Decoder) Peek() Kind {
	// Fast path: no whitespace ahead.
	if d.pos < len(d.data) && d.err == nil {
		if k := kindOf[d.data[d.pos]]; k != Invalid {
			return k
		}
	}
	return d.peekSlow()
}

func (d *Decoder) peekSlow() Kind {
	if d.err != nil {
		return Invalid
	}
	d.skipSpace()
	if d.pos >= len(d.data) {
		return Invalid
	}
	return kindOf[d.data[d.pos]]
}

// kindOf maps the first byte of a value to its kind.
var kindOf = [256]Kind{
	'{': Object, '[': Array, '"': String, 't': Bool, 'f': Bool, 'n': Null,
	'-': Number, '0': Number, '1': Number, '2': Number, '3': Number, '4': Number,
	'5': Number, '6': Number, '7': Number, '8': Number, '9': Number,
}

// Object starts reading an object: it consumes '{' and reports true, or
// records a type error, skips the value and reports false. Read the members
// with More and Key.
func (d *Decoder) Object() bool {
	if d.Peek() != Object {
		d.Mismatch("object")
		return false
	}
	d.pos++
	return d.push(false)
}

// Array starts reading an array: it consumes '[' and reports true, or
// records a type error, skips the value and reports false. Read the items
// with More.
func (d *Decoder) Array() bool {
	if d.Peek() != Array {
		d.Mismatch("array")
		return false
	}
	d.pos++
	return d.push(true)
}

// More advances to the next member or item of the innermost object or
// array; for objects it consumes the key and the colon (see Key). At the
// end it consumes the closing bracket and reports false.
func (d *Decoder) More() bool {
	if d.err != nil || d.depth <= d.floor {
		return false
	}
	s := d.seg(d.depth - 1)
	close := byte('}')
	if s.array {
		close = ']'
	}
	d.skipSpace()
	if d.pos >= len(d.data) {
		d.unexpected("in " + containerName(s.array))
		return false
	}
	c := d.data[d.pos]
	if c == close && (s.n == 0) {
		d.pos++
		d.pop()
		return false
	}
	if s.n > 0 {
		switch c {
		case close:
			d.pos++
			d.pop()
			return false
		case ',':
			d.pos++
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == close {
				d.syntax(d.pos, "trailing comma before "+quoteByte(close))
				return false
			}
		default:
			d.unexpected("after " + itemName(s.array) + ", expecting ',' or " + quoteByte(close))
			return false
		}
	}
	s.n++
	if s.array {
		return true
	}
	// Whitespace is behind: skipped before the first member, or after ','.
	if d.pos >= len(d.data) || d.data[d.pos] != '"' {
		d.unexpected("looking for an object key")
		return false
	}
	start := d.pos + 1
	key, plain, ok := d.readString(false)
	if !ok {
		return false
	}
	s.kstart, s.kend, s.esc = start, d.pos-1, !plain
	d.ks, d.ke, d.kesc = start, d.pos-1, !plain
	if !plain {
		d.ekey = key
	}
	// A key that is not Unicode is refused as such; it is not compared
	// (two of them decode alike).
	if badKey := d.badText; badKey {
		d.badUnicode("key")
	} else if d.pos <= math.MaxInt32 && d.repeated(s, keySpan{start: int32(start), end: int32(d.pos - 1), esc: !plain}) {
		d.record(d.pos, "duplicate", "property "+strconv.Quote(truncate(string(d.Key())))+" sent twice; send each property once", "", "", "")
	}
	d.skipSpace()
	if d.pos >= len(d.data) || d.data[d.pos] != ':' {
		d.unexpected("after object key, expecting ':'")
		return false
	}
	d.pos++
	return true
}

// repeated reports whether the object s already has the key k, its
// s.n-th, and remembers k. A decoder keeps the last value of a repeated
// member, while a reader of the text (a log, a policy, an approval prompt)
// may see the first: such arguments are refused, as RFC 7493 (I-JSON)
// asks.
//
// Up to manyKeys members a key is compared with the object's earlier keys
// through a 256-bit filter of their shapes (length, first, middle and last
// byte) and then by text; past that, keys go to a set by a seeded hash of
// their text (an attacker cannot choose colliding keys), so that each key
// costs about the same however large its object.
func (d *Decoder) repeated(s *seg, k keySpan) bool {
	key := d.data[k.start:k.end]
	if k.esc {
		// kept decoded, so that comparisons do not decode it again
		key = d.ekey
		if len(d.keyText)+len(key) > math.MaxInt32 {
			return false
		}
		k.start = int32(len(d.keyText))
		d.keyText = append(d.keyText, key...)
		k.end = int32(len(d.keyText))
	}
	if s.n > manyKeys {
		return d.repeatedMany(s, k, key)
	}
	k.h = keyShape(key)
	f := (k.h * 0x9e3779b1) >> 24
	if bit := uint64(1) << (f & 63); s.bloom[f>>6]&bit == 0 {
		s.bloom[f>>6] |= bit
	} else {
		for i := s.k0; i < d.nkeys; i++ {
			if o := d.key(i); o.h == k.h && string(d.spanText(o)) == string(key) {
				return true
			}
		}
	}
	d.remember(k)
	return false
}

// keyShape is a key's length, first, middle and last byte in one word.
func keyShape(key []byte) uint32 {
	n := len(key)
	if n == 0 {
		return 0
	}
	return uint32(n)<<24 ^ uint32(key[0])<<16 ^ uint32(key[n/2])<<8 ^ uint32(key[n-1])
}

// repeatedMany is repeated for an object past manyKeys members: its keys
// are indexed in a keyTable the first time.
func (d *Decoder) repeatedMany(s *seg, k keySpan, key []byte) bool {
	level := d.depth - 1
	t := d.keySets[level]
	if !s.many {
		// An emptied table of an earlier object at this depth is reused.
		s.many = true
		if t == nil {
			if d.keySets == nil {
				d.keySets = map[int]*keyTable{}
			}
			t = &keyTable{}
			d.keySets[level] = t
		}
		for i := s.k0; i < d.nkeys; i++ {
			t.add(d, d.spanText(d.key(i)), i)
		}
	}
	if t.add(d, key, d.nkeys) {
		return true
	}
	d.remember(k)
	return false
}

// keyTable is a set of the keys of one object, by their index in the
// Decoder's key list: open addressing over a seeded hash of the key's
// text (an attacker cannot choose keys that collide), at most three
// quarters full, four bytes a slot (a map of hashes to indexes cost about
// forty bytes a key).
type keyTable struct {
	slots []int32 // 0: empty; else a key's index plus one
	n     int
}

// add adds key, the text of the key of index i, unless t has a key of
// that text, and reports whether it had.
func (t *keyTable) add(d *Decoder, key []byte, i int) bool {
	if 4*(t.n+1) > 3*len(t.slots) {
		t.grow(d)
	}
	mask := len(t.slots) - 1
	for h := int(maphash.Bytes(keySeed, key)) & mask; ; h = (h + 1) & mask {
		s := t.slots[h]
		if s == 0 {
			t.slots[h], t.n = int32(i)+1, t.n+1
			return false
		}
		if string(d.spanText(d.key(int(s-1)))) == string(key) {
			return true
		}
	}
}

// grow doubles t, to at least 4·manyKeys slots.
func (t *keyTable) grow(d *Decoder) {
	old := t.slots
	t.slots = make([]int32, max(2*len(old), 4*manyKeys))
	mask := len(t.slots) - 1
	for _, s := range old {
		if s == 0 {
			continue
		}
		h := int(maphash.Bytes(keySeed, d.spanText(d.key(int(s-1))))) & mask
		for t.slots[h] != 0 {
			h = (h + 1) & mask
		}
		t.slots[h] = s
	}
}

// reset empties t for the next object at its depth, keeping its slots
// when they are the fewest it has: clearing a table grown for a large
// object at every smaller object after it would cost each of them the
// large one's size, while a table grown anew costs an object its own.
func (t *keyTable) reset() {
	if len(t.slots) > 4*manyKeys {
		t.slots = nil
	} else {
		clear(t.slots)
	}
	t.n = 0
}

// remember appends k to the keys of the open objects.
func (d *Decoder) remember(k keySpan) {
	switch {
	case d.nkeys < inlineKeys:
		d.keys[d.nkeys] = k
	case d.nkeys-inlineKeys < len(d.moreKeys):
		d.moreKeys[d.nkeys-inlineKeys] = k
	default:
		if d.moreKeys == nil {
			d.moreKeys = make([]keySpan, 0, manyKeys)
		}
		d.moreKeys = append(d.moreKeys, k)
	}
	d.nkeys++
}

// keySeed seeds the hashes of keys.
var keySeed = maphash.MakeSeed()

// key is the i-th remembered key.
func (d *Decoder) key(i int) keySpan {
	if i < inlineKeys {
		return d.keys[i]
	}
	return d.moreKeys[i-inlineKeys]
}

// spanText is the decoded text of the key k.
func (d *Decoder) spanText(k keySpan) []byte {
	if k.esc {
		return d.keyText[k.start:k.end]
	}
	return d.data[k.start:k.end]
}

func containerName(array bool) string {
	if array {
		return "array"
	}
	return "object"
}

func itemName(array bool) string {
	if array {
		return "array item"
	}
	return "object member"
}

// Key returns the key of the member More advanced to. The bytes are valid
// until the next call to More and must not be modified;
// `switch string(d.Key())` does not allocate.
func (d *Decoder) Key() []byte {
	if d.kesc {
		return d.ekey
	}
	return d.data[d.ks:d.ke]
}

// keyAt decodes the key of s, which holds escapes or invalid UTF-8.
func (d *Decoder) keyAt(s *seg) []byte {
	t := Decoder{data: d.data, pos: s.kstart - 1}
	b, _, _ := t.readString(false)
	return b
}

// Index returns the index of the array item More advanced to.
func (d *Decoder) Index() int {
	if d.depth <= d.floor {
		return 0
	}
	return d.seg(d.depth-1).n - 1
}

// Skip consumes the next value, checking its syntax. Its arrays and
// objects count toward the nesting limit from where the value is, as
// those of a value decoded are.
func (d *Decoder) Skip() {
	d.skipValue(d.depth)
	if d.badText && d.err == nil {
		d.badUnicode("value")
	}
}

// badUnicode records that the key or value just read holds invalid UTF-8
// or an unpaired surrogate escape. Such text is rejected rather than
// silently replaced with U+FFFD: the handler would see text the model did
// not send, and two different inputs would decode alike.
func (d *Decoder) badUnicode(what string) {
	d.badText = false
	d.record(d.pos, "encoding", "the "+what+" is not valid Unicode (invalid UTF-8 or an unpaired surrogate escape); send UTF-8 text", "UTF-8 text", "", "")
}

// skipValue consumes the next value, at level (the arrays and objects
// around it): one more, as push, is refused past maxDepth.
func (d *Decoder) skipValue(level int) {
	switch k := d.Peek(); {
	case (k == Object || k == Array) && level >= maxDepth:
		d.tooDeep()
	case k == Object:
		d.pos++
		for n := 0; ; n++ {
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == '}' && n == 0 {
				d.pos++
				return
			}
			if n > 0 && d.listSep('}') != sepMore {
				return
			}
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != '"' {
				d.unexpected("looking for an object key")
				return
			}
			if _, _, ok := d.readString(true); !ok {
				return
			}
			d.skipSpace()
			if d.pos >= len(d.data) || d.data[d.pos] != ':' {
				d.unexpected("after object key, expecting ':'")
				return
			}
			d.pos++
			d.skipValue(level + 1)
			if d.err != nil {
				return
			}
		}
	case k == Array:
		d.pos++
		for n := 0; ; n++ {
			d.skipSpace()
			if d.pos < len(d.data) && d.data[d.pos] == ']' && n == 0 {
				d.pos++
				return
			}
			if n > 0 && d.listSep(']') != sepMore {
				return
			}
			d.skipValue(level + 1)
			if d.err != nil {
				return
			}
		}
	case k == String:
		d.readString(true)
	case k == Number:
		d.readNumber()
	case k == Bool:
		d.readBool()
	case k == Null:
		d.readLiteral("null")
	default:
		d.unexpected("looking for beginning of value")
	}
}

// Outcomes of listSep.
const (
	sepError = iota
	sepMore
	sepClosed
)

// listSep consumes ',' (sepMore, the next value ahead) or the closing byte
// (sepClosed).
func (d *Decoder) listSep(close byte) int {
	d.skipSpace()
	if d.pos >= len(d.data) {
		d.unexpected("in " + containerName(close == ']'))
		return sepError
	}
	switch d.data[d.pos] {
	case close:
		d.pos++
		return sepClosed
	case ',':
		d.pos++
		d.skipSpace()
		if d.pos < len(d.data) && d.data[d.pos] == close {
			d.syntax(d.pos, "trailing comma before "+quoteByte(close))
			return sepError
		}
		return sepMore
	}
	d.unexpected("after " + itemName(close == ']') + ", expecting ',' or " + quoteByte(close))
	return sepError
}

func (d *Decoder) readLiteral(lit string) bool {
	if len(d.data)-d.pos < len(lit) || string(d.data[d.pos:d.pos+len(lit)]) != lit {
		for i := 0; i < len(lit); i++ {
			if d.pos+i >= len(d.data) || d.data[d.pos+i] != lit[i] {
				d.pos += i
				d.unexpected("in literal " + lit)
				return false
			}
		}
	}
	d.pos += len(lit)
	return true
}

func (d *Decoder) readBool() (v, ok bool) {
	if d.data[d.pos] == 't' {
		return true, d.readLiteral("true")
	}
	return false, d.readLiteral("false")
}

// readNumber consumes a number per RFC 8259 and returns its text.
func (d *Decoder) readNumber() ([]byte, bool) {
	start := d.pos
	p := d.pos
	data := d.data
	if p < len(data) && data[p] == '-' {
		p++
	}
	switch {
	case p < len(data) && data[p] == '0':
		p++
	case p < len(data) && data[p] >= '1' && data[p] <= '9':
		for p < len(data) && data[p] >= '0' && data[p] <= '9' {
			p++
		}
	default:
		d.pos = p
		d.unexpected("in number")
		return nil, false
	}
	if p < len(data) && data[p] == '.' {
		p++
		if p >= len(data) || data[p] < '0' || data[p] > '9' {
			d.pos = p
			d.unexpected("after decimal point in number")
			return nil, false
		}
		for p < len(data) && data[p] >= '0' && data[p] <= '9' {
			p++
		}
	}
	if p < len(data) && (data[p] == 'e' || data[p] == 'E') {
		p++
		if p < len(data) && (data[p] == '+' || data[p] == '-') {
			p++
		}
		if p >= len(data) || data[p] < '0' || data[p] > '9' {
			d.pos = p
			d.unexpected("in exponent of number")
			return nil, false
		}
		for p < len(data) && data[p] >= '0' && data[p] <= '9' {
			p++
		}
	}
	d.pos = p
	return data[start:p], true
}

// Close finishes decoding: only whitespace may follow the value read.
// It returns the syntax error that stopped decoding, if any.
func (d *Decoder) Close() error {
	if d.err == nil {
		d.skipSpace()
		if d.pos < len(d.data) {
			d.unexpected("after top-level value")
		}
	}
	return d.Err()
}
