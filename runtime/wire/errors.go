package wire

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// pointer records the JSON pointer of the value being read in the
// decoder's error text.
func (d *Decoder) pointer() string {
	start := d.etext.begin()
	return d.etext.keep(d.appendPointer(d.etext.buf, d.depth), start)
}

// memberPointer records the JSON pointer of member name of the object
// being read in the decoder's error text. The name is always a reference
// token: the member "" of the root is "/", not the root "".
func (d *Decoder) memberPointer(name string) string {
	start := d.etext.begin()
	c := pointerCut{start: start}
	b := d.appendTokens(d.etext.buf, d.depth, &c)
	if !c.cut {
		mark := len(b)
		b = c.after(appendToken(append(b, '/'), name), mark)
	}
	return d.etext.keep(b, start)
}

// appendPointer appends the JSON pointer of the first depth levels of the
// path stack to b, cut to MaxPointerBytes.
func (d *Decoder) appendPointer(b []byte, depth int) []byte {
	return d.appendTokens(b, depth, &pointerCut{start: len(b)})
}

func (d *Decoder) appendTokens(b []byte, depth int, c *pointerCut) []byte {
	for i := 0; i < depth && !c.cut; i++ {
		s := d.seg(i)
		mark := len(b)
		b = append(b, '/')
		switch {
		case s.array:
			b = strconv.AppendInt(b, int64(s.n-1), 10)
		default:
			b = appendToken(b, d.segKey(s))
		}
		b = c.after(b, mark)
	}
	return b
}

// MaxPointerBytes bounds the JSON pointer of an error: a longer one (a
// hostile value 500 levels deep under 256-byte member names, whose
// hundred errors would otherwise carry 13 MB of pointers) keeps the
// reference tokens that fit and ends in the token "…".
const MaxPointerBytes = 1024

// pointerCutMark ends a pointer cut to MaxPointerBytes.
const pointerCutMark = "/…"

// pointerCut cuts a JSON pointer being appended, from start, token by
// token, to MaxPointerBytes.
type pointerCut struct {
	start int
	// fit is where the tokens that leave room for pointerCutMark end.
	fit int
	// cut is set once the pointer ends in pointerCutMark: later tokens
	// are left out.
	cut bool
}

// after accounts for the token b[mark:] just appended (with its '/'),
// and returns b, cut at the last token that leaves room for the mark
// and marked, when the pointer outgrows MaxPointerBytes.
func (c *pointerCut) after(b []byte, mark int) []byte {
	switch n := len(b) - c.start; {
	case c.cut:
		return b[:mark]
	case n <= MaxPointerBytes-len(pointerCutMark):
		c.fit = len(b)
		return b
	case n <= MaxPointerBytes:
		return b // whole, unless a token follows
	}
	if c.fit < c.start {
		c.fit = c.start
	}
	c.cut = true
	return append(b[:c.fit], pointerCutMark...)
}

// MaxTokenBytes bounds each reference token of a JSON pointer in an error:
// a longer key (a hostile 50 MB argument name, say) is cut at a code point
// boundary and marked with "…", so that errors stay small.
const MaxTokenBytes = 256

// MaxErrors bounds the field errors one decode (and one validation)
// records; further ones are only counted (runtime.ValidationError.Omitted),
// so that hostile arguments cannot make an error grow with their size.
const MaxErrors = 100

// appendToken appends a reference token escaped per RFC 6901.
func appendToken[T string | []byte](b []byte, tok T) []byte {
	if len(tok) > MaxTokenBytes {
		cut := MaxTokenBytes - len("…")
		for cut > 0 && !utf8.RuneStart(tok[cut]) {
			cut--
		}
		b = appendToken(b, tok[:cut])
		return append(b, "…"...)
	}
	for {
		i := 0
		for i < len(tok) && tok[i] != '~' && tok[i] != '/' {
			i++
		}
		b = append(b, tok[:i]...)
		if i == len(tok) {
			return b
		}
		if tok[i] == '~' {
			b = append(b, '~', '0')
		} else {
			b = append(b, '~', '1')
		}
		tok = tok[i+1:]
	}
}

// errorText is append-only storage for the text of recorded errors (JSON
// pointers, received values): the strings it hands out point into it, so
// the errors of one call share a few allocations instead of costing one
// each. Bytes handed out are never written again; when the buffer is full
// append moves on to a new one and the old strings keep the old one.
type errorText struct{ buf []byte }

// errorTextChunk is the room errorText starts with when it has no block's
// (a decoder's errors): the pointers and received values of a few
// violations.
const errorTextChunk = 256

// begin returns the offset the next string starts at.
func (t *errorText) begin() int {
	if t.buf == nil {
		t.buf = make([]byte, 0, errorTextChunk)
	}
	return len(t.buf)
}

// keep makes b, t.buf with text appended, the buffer, and returns what
// follows start as a string.
func (t *errorText) keep(b []byte, start int) string {
	if unsafe.SliceData(b) == unsafe.SliceData(t.buf) {
		// Appended in place: reslicing stores only the length, without
		// the write barrier a pointer store costs while the collector
		// runs.
		t.buf = t.buf[:len(b)]
	} else {
		t.buf = b
	}
	return t.since(start)
}

// since returns what was appended after start as a string.
func (t *errorText) since(start int) string {
	if start == len(t.buf) {
		return ""
	}
	return unsafe.String(&t.buf[start], len(t.buf)-start)
}

func truncate(s string) string { return text.Truncate(s, text.ReceivedLimit) }

// skipSpaceFrom advances *start past whitespace.
func (d *Decoder) skipSpaceFrom(start *int) {
	for *start < d.pos && isSpace(d.data[*start]) {
		*start++
	}
}

// record appends a FieldError at the current path.
func (d *Decoder) record(_ int, code, message, expected, received, suggestion string) {
	if d.full() {
		return
	}
	d.add(d.pointer(), code, message, expected, truncate(received), suggestion)
}

// add appends a FieldError.
func (d *Decoder) add(path, code, message, expected, received, suggestion string) {
	if d.errs == nil {
		d.errs = make([]runtime.FieldError, 0, 4)
	}
	d.errs = append(d.errs, runtime.FieldError{
		Path:       path,
		Code:       code,
		Message:    message,
		Expected:   expected,
		Received:   received,
		Suggestion: suggestion,
	})
}

// skipped returns the path and the JSON text (cut) of the value
// d.data[start:d.pos] just skipped, or ok false when MaxErrors are
// recorded already.
func (d *Decoder) skipped(start int) (path, received string, ok bool) {
	d.skipSpaceFrom(&start)
	if d.full() {
		return "", "", false
	}
	path = d.pointer()
	t := len(d.etext.buf)
	return path, d.etext.keep(check.AppendTruncated(d.etext.buf, d.data[start:d.pos]), t), true
}

// full reports, counting the error about to be recorded, that MaxErrors
// have been recorded already. A trial's decoder records none: the error
// is its verdict, and it stops there (see Trial).
func (d *Decoder) full() bool {
	if len(d.errs) < MaxErrors && !d.verdict {
		return false
	}
	if d.verdict {
		d.fail()
		return true
	}
	d.dropped++
	return true
}

// appendCapped appends fs to list up to MaxErrors, returning how many did
// not fit.
func appendCapped(list *[]runtime.FieldError, fs []runtime.FieldError) int {
	room := max(MaxErrors-len(*list), 0)
	if len(fs) <= room {
		*list = append(*list, fs...)
		return 0
	}
	*list = append(*list, fs[:room]...)
	return len(fs) - room
}

// appendNew is appendCapped for the violations of the embedded validator:
// one the list holds already (the same path, code and message) is left
// out, as a value checked both by generated code and by the validator (a
// bound under allOf, say) would otherwise be reported twice in the same
// words. Under a pointer cut to MaxPointerBytes the same words may be
// another violation, deeper: it is counted among those left out.
func appendNew(list *[]runtime.FieldError, fs []runtime.FieldError) int {
	dropped := 0
	for _, f := range fs {
		if slices.ContainsFunc(*list, func(g runtime.FieldError) bool {
			return g.Path == f.Path && g.Code == f.Code && g.Message == f.Message
		}) {
			if strings.HasSuffix(f.Path, pointerCutMark) {
				dropped++
			}
			continue
		}
		if len(*list) >= MaxErrors {
			dropped++
			continue
		}
		*list = append(*list, f)
	}
	return dropped
}

// Mismatch records that the next value is not of the expected type (a
// JSON Schema type name or a short description) and skips it.
func (d *Decoder) Mismatch(expected string) {
	if d.verdict {
		d.fail()
		return
	}
	k := d.Peek()
	start := d.pos
	d.Skip()
	if d.err != nil {
		return
	}
	path, received, ok := d.skipped(start)
	if !ok {
		return
	}
	t := len(d.etext.buf)
	b := append(d.etext.buf, "expected "...)
	b = append(b, expected...)
	b = append(b, ", received "...)
	if k != Null { // null is its own kind: not "received null null"
		b = append(b, k.String()...)
		b = append(b, ' ')
	}
	d.add(path, "type", d.etext.keep(append(b, received...), t), expected, received, "")
}

// Fail records an error with the given keyword code at the current path
// (the value about to be read, or the member just read). It consumes
// nothing.
func (d *Decoder) Fail(code, message, expected, received string) {
	d.record(d.pos, code, message, expected, received, "")
}

// Unknown records the member just read by More as an unknown property,
// suggesting the closest of known, and skips its value.
func (d *Decoder) Unknown(known []string) {
	if d.verdict {
		d.fail()
		return
	}
	key := string(d.Key())
	start := d.pos
	d.Skip()
	if d.err != nil {
		return
	}
	if d.full() {
		return
	}
	d.record(start, "additionalProperties", "unknown property "+strconv.Quote(truncate(key)), "", "", text.CloseName(key, known))
}

// Reject records that the next value is not allowed (keyword code, a
// sentence for the model) with the value as received, and skips it.
func (d *Decoder) Reject(code, message string) {
	if d.verdict {
		d.fail()
		return
	}
	start := d.pos
	d.Skip()
	if d.err != nil {
		return
	}
	if path, received, ok := d.skipped(start); ok {
		d.add(path, code, message, "", received, "")
	}
}

// FailAt records an error at the member name of the value about to be
// read (a discriminator property, say). It consumes nothing.
func (d *Decoder) FailAt(name, code, message, expected, received, suggestion string) {
	if d.full() {
		return
	}
	d.add(d.memberPointer(name), code, message, expected, truncate(received), suggestion)
}

// Path returns the JSON pointer of the value about to be read (or of the
// member More just advanced to).
func (d *Decoder) Path() string { return d.pointer() }

// Append records errors found by a validator run during decoding, but for
// those recorded already (appendNew).
func (d *Decoder) Append(fs []runtime.FieldError) {
	if d.verdict {
		if len(fs) > 0 {
			d.fail()
		}
		return
	}
	d.dropped += appendNew(&d.errs, fs)
}

// Missing records that the required property name is absent from the
// object just read.
func (d *Decoder) Missing(name string) {
	if d.full() {
		return
	}
	path := d.memberPointer(name)
	t := len(d.etext.buf)
	message := d.etext.keep(strconv.AppendQuote(append(d.etext.buf, "missing required property "...), name), t)
	d.add(path, "required", message, "", "", "")
}

// Errors returns the type errors recorded so far.
func (d *Decoder) Errors() []runtime.FieldError { return d.errs }

// Clean reports whether nothing has been recorded and no syntax error
// occurred.
func (d *Decoder) Clean() bool {
	return d.err == nil && len(d.errs) == 0 && (d.work == nil || !d.work.out)
}

// Branch returns a decoder positioned at the next value, sharing the input
// and the current path, for trying one union branch. The branch's errors
// stay its own until Adopt; the caller skips the value in d afterwards,
// and reads nothing from d while the branch is in use.
//
// The branch holds a copy of d's path stack rather than a pointer to d, so
// branching does not make d escape to the heap.
//
// Branches read their value again, and the branches of a union nested in
// a union's branch read theirs once per outer branch that reads it: a
// recursive union of three branches took 9 s for 186 bytes of arguments
// 12 levels deep, and 4 minutes for 214 bytes 14 levels deep. So the
// values the branches of one call read are charged to an allowance of
// MaxTrialBytes per byte of the input (and MinTrialBytes whatever its
// size); past it, every branch fails at once and Report refuses the
// arguments whole (code "maxWork"). The first branches tried on a value
// (those of one decoder) are charged its bytes, as many times as they
// are: a union's branches read its value once each, as its schema asks,
// and a union of 21 object branches nested three levels in itself (a
// Notion-style filter) reads each byte some 90 times however large the
// value. Branches tried on it again, from another decoder, are what
// multiplies: they are charged RepeatTrialWeight times their bytes and
// trialOverhead.
func (d *Decoder) Branch() Decoder {
	b := d.branchHere()
	if d.work == nil {
		d.work = &trialWork{left: max(MinTrialBytes, MaxTrialBytes*len(d.data)), first: map[int]trialAt{}}
	}
	if b.err == nil && !d.chargeTrial() {
		b.err = errTrialWork
	}
	w := d.work
	w.trials++
	b.work, b.trial, b.verdict = w, w.trials, d.verdict
	return b
}

// branchHere returns a decoder positioned at the next value, sharing the
// input and the current path (see Branch).
func (d *Decoder) branchHere() Decoder {
	d.skipSpace()
	b := Decoder{data: d.data, pos: d.pos, depth: d.depth, floor: d.depth, segs: d.segs, err: d.err, branch: true, budget: d.budget}
	if d.depth > inlineSegs {
		// Levels at or above d.depth are written only by the branch; the
		// ones below are d's path and are only read. The branch writes
		// its levels into d's array while it has room: d reads nothing
		// while a branch is in use, and its levels past d.depth are
		// written again when d goes deeper. (A copy for each branch made
		// a union nested 240 levels in itself spend 56% of its decoding
		// copying path stacks.)
		b.more = d.more[:d.depth-inlineSegs]
	}
	return b
}

// CountItems returns the number of items of the array about to be read
// (0 when the next value is not an array) without consuming anything or
// recording errors; a syntax error ends the count. It reads the array
// once, as a pass of its own rather than a trial: it is not charged as
// Branch's are.
func (d *Decoder) CountItems() int {
	if d.Peek() != Array {
		return 0
	}
	b := d.branchHere()
	b.Array()
	n := 0
	for b.More() {
		b.Skip()
		n++
	}
	return n
}

// MaxTrialBytes and MinTrialBytes bound the bytes the branches of one
// call may read (see Branch): MaxTrialBytes per byte of the input, and at
// least MinTrialBytes. RepeatTrialWeight is the weight of a value's bytes
// read again by branches of another decoder than the first.
const (
	MaxTrialBytes     = 512
	MinTrialBytes     = 1 << 23
	RepeatTrialWeight = 8
)

// trialOverhead is what a branch that reads a value again is charged
// besides the bytes of the value (before RepeatTrialWeight).
const trialOverhead = 64

// trialWork is what the branches of one call may still read.
type trialWork struct {
	left int
	// out is set once a branch was refused: the arguments are refused.
	out bool
	// trials counts the branch decoders of the call (Decoder.trial).
	trials int
	// memo holds the outcomes of unions decoded in trials (Recall).
	memo map[memoKey]memoEntry
	// first maps the offset of an array, object or string branches were
	// tried on to the decoder they were first branched from, and to where
	// the value ends.
	first map[int]trialAt
}

// trialAt is what chargeTrial knows of a value branches were tried on.
type trialAt struct{ from, end int }

// errTrialWork stops a branch refused for want of trialWork.
var errTrialWork = &SyntaxError{Msg: "the alternatives of its anyOf and oneOf take too long to try"}

// chargeTrial charges the value about to be read, for a branch, to the
// call's trialWork, and reports false when it is spent. A value that does
// not end is charged for the rest of the input (the branch stops at the
// syntax error). A scalar is not charged: its trial reads nothing else,
// and is repeated only with the array or object holding it, which is.
func (d *Decoder) chargeTrial() bool {
	w := d.work
	if w.out {
		return false
	}
	if d.pos >= len(d.data) {
		return true
	}
	switch d.data[d.pos] {
	case '{', '[', '"':
	default:
		return true
	}
	at, seen := w.first[d.pos]
	cost, weight := 0, 1
	if !seen {
		// Read once, for all the trials of the value.
		limit := len(d.data)
		if w.left < limit-d.pos {
			limit = d.pos + w.left
		}
		end, ok := text.SkipValue(d.data[:limit], d.pos)
		switch {
		case ok:
		case limit == len(d.data):
			end = limit
		default:
			w.out = true
			return false
		}
		at = trialAt{from: d.trial, end: end}
		w.first[d.pos] = at
	} else if at.from != d.trial {
		// A branch costs more than the bytes it reads: a decoder and its
		// path stack are copied (the levels past the inline ones when it
		// goes deeper), its errors recorded and dropped.
		cost, weight = trialOverhead+max(d.depth-inlineSegs, 0)*int(unsafe.Sizeof(seg{})), RepeatTrialWeight
	}
	if w.left -= weight * (cost + at.end - d.pos); w.left < 0 {
		w.out = true
		return false
	}
	return true
}

// Adopt appends the errors recorded by a branch decoder to d.
func (d *Decoder) Adopt(b *Decoder) {
	d.addUnions(b.unions, b.copies)
	if d.verdict {
		// b is a trial's too (Branch hands the mode on): its verdict is
		// d's.
		if !b.Clean() {
			d.fail()
		}
		return
	}
	d.dropped += b.dropped + appendCapped(&d.errs, b.errs)
}

// PeekMember looks ahead into the next value, when it is an object, for
// the member name holding a string, and returns that string's bytes
// without consuming anything. It is how discriminated unions choose a
// branch.
func (d *Decoder) PeekMember(name string) ([]byte, bool) {
	if d.Peek() != Object {
		return nil, false
	}
	t := Decoder{data: d.data, pos: d.pos + 1}
	t.push(false)
	for t.More() {
		if string(t.Key()) != name {
			t.Skip()
			continue
		}
		if t.Peek() != String {
			return nil, false
		}
		b, _, ok := t.readString(false)
		return b, ok
	}
	return nil, false
}

// Report returns the outcome of decoding and validating one value: nil
// when nothing was found, otherwise a *runtime.ValidationError naming tool
// with the decoder's errors followed by the validator's (validation errors
// at or below a path the decoder already reported are dropped: they
// describe the zero value left behind). A syntax error is reported alone,
// with code "syntax".
func (d *Decoder) Report(tool string, v *Errors) error {
	if d.work != nil && d.work.out {
		return &runtime.ValidationError{Tool: tool, Fields: []runtime.FieldError{{
			Code:    "maxWork",
			Message: "the arguments nest anyOf or oneOf alternatives too deep to try them all; send a value that nests fewer of them",
		}}}
	}
	if d.err != nil {
		if d.err.Depth {
			// valid JSON, past what is read
			return &runtime.ValidationError{Tool: tool, Fields: []runtime.FieldError{{
				Path:    d.err.Path,
				Code:    "maxDepth",
				Message: "the value nests more than " + strconv.Itoa(maxDepth) + " arrays and objects deep, the limit; send a flatter value",
			}}}
		}
		return &runtime.ValidationError{Tool: tool, Fields: []runtime.FieldError{{
			Path:    d.err.Path,
			Code:    "syntax",
			Message: "invalid JSON: " + d.err.Error(),
		}}}
	}
	fields := d.errs
	if v != nil && len(v.list) > 0 {
		if len(d.errs) == 0 {
			// Nothing covers the validator's findings.
			fields = v.List()
		} else {
			fields = make([]runtime.FieldError, len(d.errs), len(d.errs)+len(v.list))
			copy(fields, d.errs)
			for _, f := range v.list {
				if !coveredBy(f.Path, d.errs) {
					fields = append(fields, f)
				}
			}
		}
	}
	if len(fields) == 0 {
		return nil
	}
	omitted := d.dropped
	if v != nil {
		omitted += v.dropped
	}
	if len(fields) > MaxErrors {
		omitted += len(fields) - MaxErrors
		fields = fields[:MaxErrors:MaxErrors]
	}
	if v != nil {
		return v.validationError(tool, fields, omitted)
	}
	return &runtime.ValidationError{Tool: tool, Fields: fields, Omitted: omitted}
}

func coveredBy(path string, errs []runtime.FieldError) bool {
	for _, e := range errs {
		if e.Code == "additionalProperties" {
			continue
		}
		if strings.HasPrefix(path, e.Path) && (len(path) == len(e.Path) || path[len(e.Path)] == '/') {
			return true
		}
	}
	return false
}

// Path is a JSON pointer built as a chain of stack-allocated links while
// validators descend; it is materialised only when an error is recorded.
// A nil *Path is the root.
type Path struct {
	parent *Path
	key    string
	index  int
	kind   uint8
}

const (
	pathKey = iota + 1
	pathIndex
	pathBase
)

// Key returns the path of member k below p.
func (p *Path) Key(k string) Path { return Path{parent: p, key: k, kind: pathKey} }

// Index returns the path of item i below p.
func (p *Path) Index(i int) Path { return Path{parent: p, index: i, kind: pathIndex} }

// At returns a root path standing for the JSON pointer ptr, for
// validating a value found below the document root.
func At(ptr string) Path { return Path{key: ptr, kind: pathBase} }

// String returns the JSON pointer ("" for the root).
func (p *Path) String() string {
	if p == nil {
		return ""
	}
	return string(p.appendTo(nil))
}

// appendTo appends the JSON pointer p stands for to b, cut to
// MaxPointerBytes.
func (p *Path) appendTo(b []byte) []byte {
	return p.appendCut(b, &pointerCut{start: len(b)})
}

func (p *Path) appendCut(b []byte, c *pointerCut) []byte {
	if p == nil {
		return b
	}
	b = p.parent.appendCut(b, c)
	if c.cut {
		return b
	}
	mark := len(b)
	switch p.kind {
	case pathKey:
		b = append(b, '/')
		b = appendToken(b, p.key)
	case pathIndex:
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(p.index), 10)
	case pathBase:
		return c.appendPointer(b, p.key)
	}
	return c.after(b, mark)
}

// appendPointer appends the JSON pointer ptr to b token by token, so
// that it is cut at a token as the tokens after it would be. A pointer
// already cut (ending in pointerCutMark, as the decoder's pointers past
// MaxPointerBytes do) ends the pointer: the tokens below it are left
// out, rather than written after its mark (or the whole pointer cut to
// the mark alone, when it took up the room).
func (c *pointerCut) appendPointer(b []byte, ptr string) []byte {
	for ptr != "" && !c.cut {
		i := strings.IndexByte(ptr[1:], '/') + 1
		if i == 0 {
			i = len(ptr)
		}
		mark := len(b)
		b = c.after(append(b, ptr[:i]...), mark)
		if ptr[:i] == pointerCutMark && i == len(ptr) {
			c.cut = true
		}
		ptr = ptr[i:]
	}
	return b
}

// Errors collects the violations a generated validator finds. The zero
// value is ready to use; it allocates only when an error is added.
//
// Validators pass the offending value as it is (AddString, AddInt,
// AddNumber, AddEnum) rather than as text: it is rendered only once the
// violation is known to be recorded, into storage the violations of one
// call share, so that a report of ten violations costs a handful of
// allocations rather than several for each.
type Errors struct {
	list    []runtime.FieldError
	dropped int // errors beyond MaxErrors, counted only
	// budget is the call's pattern-matching budget (check.Budget), shared
	// with the decoder and the nested Errors of the same call; allocated
	// on the first match on the ECMAScript engine when nobody set one.
	budget *check.Budget
	// text holds the pointers and received values of list.
	text errorText
	// err is the ValidationError allocated with the first violation, for
	// Err to return.
	err *runtime.ValidationError
	// args are the call's arguments as sent (UseArgs), handed on to the
	// Errors of its trials, and inst their parsed form, once parsed.
	args []byte
	inst *instance
	// verdict is set for the checks of a union trial (Decoder.Checks of
	// a Trial): violations are counted in failed, not recorded.
	verdict bool
	failed  int
}

// Violations are stored in blocks that hold FieldErrors and their text
// (pointers, received values) together, sized to size classes of the Go
// allocator on 64-bit platforms, since the bytes a report allocates are
// most of what it costs: a firstBlock of 640 bytes on the first
// violation, with the ValidationError Err returns (at 512 bytes its text
// held 72 bytes, so four violations' pointers and received values
// usually overflowed into a third allocation); on the fifth a moreBlock
// of 1,280 bytes, into which the first four move; past moreFields,
// append's growth. Both sizes are less the 8-byte header the allocator
// puts before objects with pointers over 512 bytes.
type firstBlock struct {
	err    runtime.ValidationError
	fields [firstFields]runtime.FieldError
	text   [640 - 8 - unsafe.Sizeof(runtime.ValidationError{}) - firstFields*unsafe.Sizeof(runtime.FieldError{})]byte
}

type moreBlock struct {
	fields [moreFields]runtime.FieldError
	text   [1280 - 8 - moreFields*unsafe.Sizeof(runtime.FieldError{})]byte
}

const (
	firstFields = 4
	moreFields  = 11
)

// UseBudget makes e charge pattern matching to b, the call's budget.
func (e *Errors) UseBudget(b *check.Budget) { e.budget = b }

// Sub returns an empty Errors for a trial (a contains item, a union
// branch) that shares e's pattern-matching budget.
func (e *Errors) Sub() Errors {
	return Errors{budget: e.budget, args: e.args, inst: e.inst, verdict: e.verdict}
}

// Match reports whether s contains a match of re, charging the call's
// budget. A match that cannot be decided in time fails closed: it records
// a violation of keyword code at p naming the limit, and ok is false (the
// caller records nothing more).
func (e *Errors) Match(p *Path, re *check.Regexp, s, code string) (matched, ok bool) {
	if e.budget == nil {
		e.budget = new(check.Budget)
	}
	m, err := re.Match(s, e.budget)
	if err != nil {
		e.Add(p, code, err.Error(), "a decision within the time limit", s, "")
		return false, false
	}
	return m, true
}

// slot records a violation of keyword code at p and returns it for the
// caller to complete, or nil when MaxErrors are recorded already.
func (e *Errors) slot(p *Path, code, message, expected string) *runtime.FieldError {
	if e.verdict {
		e.failed++
		return nil
	}
	n := len(e.list)
	switch {
	case n >= MaxErrors:
		e.dropped++
		return nil
	case e.list == nil:
		b := new(firstBlock)
		e.err = &b.err
		e.list = b.fields[:1]
		if e.text.buf == nil {
			e.text.buf = b.text[:0]
		}
	case n < cap(e.list):
		// Capacity past the length is zero: nothing shortens list, and
		// List and Err hand it out without its capacity.
		e.list = e.list[:n+1]
	case n == firstFields:
		b := new(moreBlock)
		copy(b.fields[:], e.list)
		e.list = b.fields[:n+1]
		// The text recorded so far stays where it is.
		e.text.buf = b.text[:0]
	default:
		e.list = append(e.list, runtime.FieldError{})
	}
	// Field by field: pointer writes rather than a copy of a whole
	// FieldError, which costs more while the collector runs.
	f := &e.list[n]
	start := e.text.begin()
	f.Path = e.text.keep(p.appendTo(e.text.buf), start)
	f.Code = code
	f.Message = message
	f.Expected = expected
	return f
}

// Add records a violation of keyword code at p. received is truncated.
func (e *Errors) Add(p *Path, code, message, expected, received, suggestion string) {
	if f := e.slot(p, code, message, expected); f != nil {
		f.Received = truncate(received)
		f.Suggestion = suggestion
	}
}

// AddString records a violation of keyword code at p by the string v
// (received: check.ReceivedString(v)).
func (e *Errors) AddString(p *Path, code, message, expected, v string) {
	if f := e.slot(p, code, message, expected); f != nil {
		start := len(e.text.buf)
		f.Received = e.text.keep(check.AppendReceivedString(e.text.buf, v), start)
	}
}

// AddInt records a violation of keyword code at p by the integer v.
func (e *Errors) AddInt(p *Path, code, message, expected string, v int64) {
	if f := e.slot(p, code, message, expected); f != nil {
		start := len(e.text.buf)
		f.Received = e.text.keep(check.AppendReceivedInt(e.text.buf, v), start)
	}
}

// AddNumber records a violation of keyword code at p by the number v.
func (e *Errors) AddNumber(p *Path, code, message, expected string, v float64) {
	if f := e.slot(p, code, message, expected); f != nil {
		start := len(e.text.buf)
		f.Received = e.text.keep(check.AppendReceivedNumber(e.text.buf, v), start)
	}
}

// AddDuplicate records that items i and j of the array at p are equal
// (keyword uniqueItems).
func (e *Errors) AddDuplicate(p *Path, i, j int) {
	if f := e.slot(p, "uniqueItems", "", "unique items"); f != nil {
		start := len(e.text.buf)
		b := strconv.AppendInt(append(e.text.buf, "items "...), int64(i), 10)
		b = strconv.AppendInt(append(b, " and "...), int64(j), 10)
		f.Message = e.text.keep(append(b, " are equal"...), start)
	}
}

// AddEnum records that the string v is none of values (keyword code enum
// or const), suggesting the closest of them.
func (e *Errors) AddEnum(p *Path, code, message, expected, v string, values []string) {
	if f := e.slot(p, code, message, expected); f != nil {
		start := len(e.text.buf)
		f.Received = e.text.keep(check.AppendReceivedString(e.text.buf, v), start)
		f.Suggestion = check.Closest(v, values)
	}
}

// Checks returns an empty Errors for checks run while decoding (a pattern
// property's value, a union branch) that shares d's pattern-matching
// budget; d.Absorb(&e) then takes its findings. A trial's (see Trial)
// counts violations without recording them.
func (d *Decoder) Checks() Errors { return Errors{budget: d.budget, verdict: d.verdict} }

// Absorb records the findings of e (from d.Checks) in d.
func (d *Decoder) Absorb(e *Errors) {
	if d.verdict {
		if e.Len() > 0 {
			d.fail()
		}
		return
	}
	d.dropped += e.dropped + appendCapped(&d.errs, e.list)
	if d.budget == nil {
		d.budget = e.budget
	}
}

// UseBudget makes d, its branches and its Checks charge pattern matching
// to b, the call's budget.
func (d *Decoder) UseBudget(b *check.Budget) { d.budget = b }

// Budget returns the call's pattern-matching budget d charges (nil until
// set or until the first match on the ECMAScript engine).
func (d *Decoder) Budget() *check.Budget { return d.budget }

// MatchKey reports whether the key of the member just read by More
// contains a match of re (patternProperties). A match that cannot be
// decided in time fails closed: it records a violation at the member and
// ok is false, and the caller must treat the member as handled (matched)
// so that it meets neither a pattern's schema nor additionalProperties
// unchecked.
func (d *Decoder) MatchKey(re *check.Regexp) (matched, ok bool) {
	if d.budget == nil {
		d.budget = new(check.Budget)
	}
	m, err := re.Match(string(d.Key()), d.budget)
	if err != nil {
		d.Append([]runtime.FieldError{{
			Path:     d.pointer(),
			Code:     "patternProperties",
			Message:  err.Error(),
			Expected: "a decision within the time limit",
		}})
		return false, false
	}
	return m, true
}

// Delegate checks v, at the pointer path, against the embedded schema s
// (keywords generated code delegates), recording its violations; its
// pattern matches and evaluations are charged to the call's budget.
func (e *Errors) Delegate(s *check.Schema, v any, path string) {
	e.Append(s.ValidateIn(v, path, e.Budget()))
}

// Budget returns the call's budget e charges, allocated on first use
// when nobody set one (see UseBudget).
func (e *Errors) Budget() *check.Budget {
	if e.budget == nil {
		e.budget = new(check.Budget)
	}
	return e.budget
}

// Append records violations found elsewhere (an embedded validator).
func (e *Errors) Append(fs []runtime.FieldError) {
	if e.verdict {
		e.failed += len(fs)
		return
	}
	e.dropped += appendNew(&e.list, fs)
}

// InTrial reports whether e holds the checks of a union trial
// (Decoder.Checks of a Trial). A union decoded in a trial checked the
// branches it tried as it kept them, with the same outcome (a trial's
// checks judge the decoded value, at no path of its own): its validate
// does not check them again (a union shared by Recall would be checked
// once per branch above it).
func (e *Errors) InTrial() bool { return e.verdict }

// Len returns the number of violations recorded (counted, for a trial's).
func (e *Errors) Len() int { return len(e.list) + e.failed }

// List returns the violations recorded.
func (e *Errors) List() []runtime.FieldError { return e.list[:len(e.list):len(e.list)] }

// Err returns nil when nothing was recorded, else a
// *runtime.ValidationError naming tool.
func (e *Errors) Err(tool string) error {
	if len(e.list) == 0 {
		return nil
	}
	return e.validationError(tool, e.list[:len(e.list):len(e.list)], e.dropped)
}

// validationError returns a *runtime.ValidationError, the one e's storage
// has room for the first time.
func (e *Errors) validationError(tool string, fields []runtime.FieldError, omitted int) *runtime.ValidationError {
	if v := e.err; v != nil && v.Fields == nil {
		*v = runtime.ValidationError{Tool: tool, Fields: fields, Omitted: omitted}
		return v
	}
	return &runtime.ValidationError{Tool: tool, Fields: fields, Omitted: omitted}
}

// MustAny decodes a JSON literal the generator produced (enum values,
// consts) into its generic form; it panics on malformed input, which only
// a generator bug can produce.
func MustAny(s string) any {
	d := NewDecoder([]byte(s))
	v := d.Any()
	if err := d.Close(); err != nil {
		panic("wire: bad literal " + strconv.Quote(s) + ": " + err.Error())
	}
	return v
}

// Generic converts a typed Go value to its generic JSON form (through its
// JSON encoding), for checks that compare against JSON literals or run the
// embedded schema validator. It returns nil if v does not encode.
func Generic(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	d := NewDecoder(b)
	g := d.Any()
	if d.Close() != nil {
		return nil
	}
	return g
}

// Duplicate returns the indexes of the first two equal items (the pair
// with the smallest j, then i), for uniqueItems over items that compare
// with == as JSON does. Long arrays go through a map: linear time, so a
// model's array of a megabyte costs no more than reading it.
func Duplicate[T comparable](items []T) (i, j int, ok bool) {
	if len(items) > 32 {
		seen := make(map[T]int, len(items))
		for j, v := range items {
			if i, dup := seen[v]; dup {
				return i, j, true
			}
			seen[v] = j
		}
		return 0, 0, false
	}
	for j := range items {
		for i := range j {
			if items[i] == items[j] {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// DuplicateGeneric is Duplicate for the generic form of an array (nil or a
// non-array has no duplicates).
//
// It reports the same pair as Duplicate. Long arrays of the generic form
// the decoder produces (nil, bool, float64, string, []any, map[string]any)
// are compared through canonical keys in linear time; other values fall
// back to pairwise check.Equal.
func DuplicateGeneric(v any) (i, j int, ok bool) {
	items, _ := v.([]any)
	if len(items) > 32 {
		seen := make(map[string]int, len(items))
		var buf []byte
		keyed := true
		for j, it := range items {
			var ok bool
			buf, ok = appendGenericKey(buf[:0], it)
			if !ok {
				keyed = false
				break
			}
			if i, dup := seen[string(buf)]; dup {
				return i, j, true
			}
			seen[string(buf)] = j
		}
		if keyed {
			return 0, 0, false
		}
	}
	for j := range items {
		for i := range j {
			if check.Equal(items[i], items[j]) {
				return i, j, true
			}
		}
	}
	return 0, 0, false
}

// appendGenericKey appends a key of v that two values share exactly when
// check.Equal holds for them, or reports false for a value outside the
// decoder's generic form.
func appendGenericKey(b []byte, v any) ([]byte, bool) {
	switch x := v.(type) {
	case nil:
		return append(b, 'z'), true
	case bool:
		if x {
			return append(b, 't'), true
		}
		return append(b, 'f'), true
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return b, false // not JSON; NaN equals nothing
		}
		// The shortest decimal, which check.Equal compares an int64 with.
		var d [32]byte
		m := strconv.AppendFloat(d[:0], x, 'e', -1, 64)
		e := bytes.IndexByte(m, 'e')
		exp, _ := strconv.Atoi(string(m[e+1:]))
		m = m[:e]
		if i := bytes.IndexByte(m, '.'); i >= 0 {
			m = append(m[:i], m[i+1:]...)
		}
		return appendNumberKey(b, m, exp), true
	case int64:
		// The decoder's integers past float64's (Decoder.exactInts).
		var d [24]byte
		m := strconv.AppendInt(d[:0], x, 10)
		return appendNumberKey(b, m, len(bytes.TrimPrefix(m, []byte("-")))-1), true
	case string:
		b = append(b, 's')
		b = strconv.AppendInt(b, int64(len(x)), 10)
		b = append(b, ':')
		return append(b, x...), true
	case []any:
		b = append(b, '[')
		for _, e := range x {
			var ok bool
			if b, ok = appendGenericKey(b, e); !ok {
				return b, false
			}
		}
		return append(b, ']'), true
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		b = append(b, '{')
		for _, k := range keys {
			b = strconv.AppendInt(b, int64(len(k)), 10)
			b = append(b, ':')
			b = append(b, k...)
			var ok bool
			if b, ok = appendGenericKey(b, x[k]); !ok {
				return b, false
			}
		}
		return append(b, '}'), true
	}
	return b, false
}

// appendNumberKey appends the key of the number whose decimal digits
// (after an optional '-') are m, exp being the exponent of the first
// digit (as in d.ddd…e+exp): two numbers have the same key exactly when
// they are the same decimal (an int64 and the float64 whose shortest
// decimal it is, as check.Equal has it).
func appendNumberKey(b, m []byte, exp int) []byte {
	b = append(b, 'n')
	if len(m) > 0 && m[0] == '-' {
		m = m[1:]
		if len(bytes.TrimRight(m, "0")) > 0 {
			b = append(b, '-') // -0 equals 0
		}
	}
	m = bytes.TrimRight(m, "0")
	if len(m) == 0 {
		return append(b, '0', ';')
	}
	b = append(b, m...)
	b = append(b, 'e')
	b = strconv.AppendInt(b, int64(exp), 10)
	return append(b, ';')
}
