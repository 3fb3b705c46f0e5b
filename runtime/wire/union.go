package wire

import (
	"bytes"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// NoneMatched records that a union trial's value, raw (the text RawBytes
// has just read), was taken by none of its branches: the failure of
// keyword ("anyOf" or "oneOf"), whose branches tried are alts. The
// message names them as a model reads them in the schema ("matches none
// of: object with \"email\" or object with \"user_id\"", at most
// check.MaxAlternatives), and the nearest branch with what is wrong
// against it when an object is one member away from one (a misspelt,
// missing or unknown member: see check.Nearest). It consumes nothing.
//
// When a member is repeated inside the value, the repetition is recorded
// instead, at its own pointer, as it would be outside a union. A repeated
// member makes every branch that reads its object fail (each branch
// decoder records it, and none is Clean), but the branch decoders' errors
// are dropped by the trial, and "matches none of" would have a model
// change the value's shape rather than send the member once. The
// repetitions are found again by reading the value's members, which costs
// nothing unless a trial fails.
func (d *Decoder) NoneMatched(keyword string, alts []check.Alt, raw []byte) {
	if d.verdict {
		d.fail()
		return
	}
	if d.repeatedIn(raw) || d.full() {
		return
	}
	message, expected, suggestion := check.NoneMatched(alts, memberNames(raw))
	d.add(d.pointer(), keyword, message, expected, truncate(string(raw)), suggestion)
}

// memberNames returns the member names of raw when it is a JSON object
// of at most maxNearestKeys members (check.Nearest compares them with a
// union's branches), nil otherwise.
func memberNames(raw []byte) []string {
	i := text.SkipBlanks(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		return nil
	}
	names := []string{}
	r := text.NewMemberReader(raw)
	for {
		m, ok := r.Next()
		if !ok {
			return names
		}
		if len(names) == maxNearestKeys {
			return nil
		}
		names = append(names, string(m.Name))
	}
}

// maxNearestKeys bounds the members NoneMatched reads for the nearest
// branch: check.Nearest compares no more.
const maxNearestKeys = 64

// Hits records which branches of a oneOf's trial a value matched, for
// ManyMatched: the first check.MaxAlternatives of them (their indexes in
// the trial's alternatives), and how many.
type Hits struct {
	n     int
	first [check.MaxAlternatives]int32
}

// Add records that the value matched alternative i.
func (h *Hits) Add(i int) {
	if h.n < len(h.first) {
		h.first[h.n] = int32(i)
	}
	h.n++
}

// ManyMatched records that the value raw of a oneOf's trial, whose
// branches tried are alts, matched several of them, those h holds: the
// message names those ("matches more than one of: A and B"), the
// expected value every branch.
func (d *Decoder) ManyMatched(alts []check.Alt, h *Hits, raw []byte) {
	if d.full() {
		return
	}
	message := check.ManyMatched(alts, h.n, func(i int) int {
		if i < len(h.first) {
			return int(h.first[i])
		}
		return -1
	})
	expected := "exactly one of: " + check.Alternatives(len(alts), func(i int) string { return alts[i].Desc }, "or")
	d.add(d.pointer(), "oneOf", message, expected, truncate(string(raw)), "")
}

// Trial returns a decoder for trying one union branch on the next value,
// as Branch does, that records no error: its first error is its verdict
// (Clean reports false), and it reads no further. The errors of a
// branch that does not match are dropped (NoneMatched says what the
// value should have been), and recording them was most of what a trial
// cost: a megabyte of empty objects in an array of a 21-branch union
// took 8.6 s, most of it spent writing error text no one read. Branches
// and Checks of a trial's decoder are trials' too.
func (d *Decoder) Trial() Decoder {
	b := d.Branch()
	b.verdict = true
	return b
}

// TrialChecks returns the Errors for the checks of the value b, a trial
// of d (see Trial) that matched, has read: b.Checks(), with the value's
// text as the arguments Instance judges at the paths below it. The
// branch's Go value keeps only the members its branch declares, so a
// keyword over the whole object (minProperties, dependentRequired, not,
// ...) judged on it refused values that match the branch: {"x":1,"y":2}
// failed a branch declaring x with minProperties 2.
func (d *Decoder) TrialChecks(b *Decoder) Errors {
	e := b.Checks()
	d.skipSpace()
	if b.err == nil && d.pos < b.pos && b.pos <= len(d.data) {
		e.args = d.data[d.pos:b.pos]
	}
	return e
}

// fail ends a trial's decoder at its first error (see Trial): Clean
// reports false, and nothing more is read.
func (d *Decoder) fail() {
	if d.err == nil {
		d.err = errTrialFailed
	}
	d.pos = len(d.data)
}

// errTrialFailed is the verdict of a trial that found an error.
var errTrialFailed = &SyntaxError{Msg: "the value does not match this alternative"}

// memoKey identifies a union decoded in trials: where its value starts,
// and its Go type (a nil *T).
type memoKey struct {
	pos int
	typ any
}

// memoEntry is what a trial found decoding a union's value: where the
// value ends, whether it matched, and when it did the union's Go value
// and the unions it holds (see Decoder.unions).
type memoEntry struct {
	end, unions, copies int
	ok                  bool
	v                   any
}

// Mark is where a union's value began, for Remember (see Recall).
type Mark struct {
	// pos is the value's offset, -1 when its outcome is not to be
	// remembered; unions and copies are Decoder's there.
	pos, unions, copies int
}

// Recall is called by a union's decoder before reading its value x. In
// a trial (see Trial), when the same union type was decoded on the same
// value before in this call, it gives x that outcome, consumes the value
// and reports done; otherwise mark is what Remember needs after the
// value is read.
//
// Unions whose branches nest the same union (JSON-logic's "array of
// rules, or one rule" operands) try every value once per branch above
// it, and an array of arrays matches both at every level: 2^depth trials
// (101 bytes eight levels deep were refused as too much work). A
// value's outcome as a union type is the same wherever it is tried from:
// its errors lie within it, and its nesting depth is fixed by where it
// starts. So a trial decodes each (array or object value, union type)
// once per call; a scalar is read again, which costs less than
// remembering it.
// The unions found this way share their parts: x's branches may point
// to the Go values another branch holds.
func Recall[T any](d *Decoder, x *T) (mark Mark, done bool) {
	mark = Mark{pos: -1, unions: d.unions, copies: d.copies}
	if !d.verdict || d.err != nil || d.work == nil {
		return mark, false
	}
	d.skipSpace()
	if d.pos >= len(d.data) || (d.data[d.pos] != '{' && d.data[d.pos] != '[') {
		// A scalar costs no more to read again than to look up.
		return mark, false
	}
	e, ok := d.work.memo[memoKey{d.pos, (*T)(nil)}]
	if !ok {
		mark.pos = d.pos
		return mark, false
	}
	if !e.ok {
		d.fail()
		return mark, true
	}
	*x = e.v.(T)
	d.pos = e.end
	d.addUnions(e.unions, e.copies)
	return mark, true
}

// Remember records the outcome of decoding the union x, whose value
// began at mark (from Recall), for Recall, and counts x among the
// unions d holds.
func Remember[T any](d *Decoder, mark Mark, x *T) {
	d.addUnions(1, 0)
	if mark.pos < 0 || d.work.out {
		return
	}
	if d.work.memo == nil {
		d.work.memo = map[memoKey]memoEntry{}
	}
	e := memoEntry{end: d.pos, ok: d.err == nil}
	if e.ok {
		e.v, e.unions, e.copies = *x, d.unions-mark.unions, d.copies-mark.copies
	}
	d.work.memo[memoKey{mark.pos, (*T)(nil)}] = e
}

// Kept records that the value of a union trial b, which matched, is kept
// as a branch of the union d is reading; matched is the number of its
// branches kept before it. MarshalJSON writes a union's first branch,
// and every branch when the value is an object (their members are
// merged), so the unions b holds are written again when the value is an
// object: they are counted once more, and so are the value's bytes
// (copies). A value whose unions match several object branches nested
// in each other would be written 2^depth times from parts decoded once
// (Recall shares them): past MaxUnionsPerByte unions per byte of the
// input (and MinUnions), or past MaxCopiesPerByte bytes written again
// per byte (and MinCopies), the call is refused, code maxWork, as trials
// past their allowance are. (Counting unions alone let a chain whose
// 16 links match both branches, over a 64 KB string, be written 2^16
// times: 4 GB from 66 KB of arguments.)
func (d *Decoder) Kept(b *Decoder, matched int) {
	switch {
	case matched == 0:
		d.addUnions(b.unions, b.copies)
	case d.Peek() == Object:
		// b has read the value d is at.
		d.addUnions(b.unions, b.copies+max(b.pos-d.pos, 0))
	}
}

// addUnions counts n more unions held by the value d is reading, and c
// more bytes their MarshalJSON writes again.
func (d *Decoder) addUnions(n, c int) {
	d.unions += n
	d.copies += c
	if w := d.work; w != nil && (d.unions > max(MinUnions, MaxUnionsPerByte*len(d.data)) || d.copies > max(MinCopies, MaxCopiesPerByte*len(d.data))) {
		w.out = true
	}
}

// MaxUnionsPerByte and MinUnions bound the unions the decoded arguments
// of one call hold, counted as MarshalJSON writes them (see Kept).
// MaxCopiesPerByte and MinCopies bound the bytes of those unions'
// values their MarshalJSON writes more than once: as many as the trials
// of a value read again by other decoders may (MaxTrialBytes over
// RepeatTrialWeight), so the unions Recall shares are written as often
// as they could be decoded without it.
const (
	MaxUnionsPerByte = 16
	MinUnions        = 1 << 16
	MaxCopiesPerByte = MaxTrialBytes / RepeatTrialWeight
	MinCopies        = MinTrialBytes
)

// repeatedIn records the members repeated inside raw, the value d has
// just read (ending at d.pos), at their own pointers, and reports whether
// there were any.
func (d *Decoder) repeatedIn(raw []byte) bool {
	// Only objects and arrays hold members.
	start := d.pos - len(raw)
	if d.err != nil || len(raw) < len(`{"":0,"":0}`) || start < 0 || (raw[0] != '{' && raw[0] != '[') || !bytes.Equal(d.data[start:d.pos], raw) {
		return false
	}
	// A decoder at d's path, as Branch makes one, over the value alone.
	w := Decoder{data: d.data[:d.pos], pos: start, depth: d.depth, floor: d.depth, segs: d.segs, branch: true}
	if d.depth > inlineSegs {
		w.more = d.more[:d.depth-inlineSegs]
	}
	w.members()
	found := false
	for i := range w.errs {
		if e := &w.errs[i]; e.Code == "duplicate" {
			found = true
			if !d.full() {
				// The text of w's errors stays valid: an errorText's
				// bytes are never written again.
				d.add(e.Path, e.Code, e.Message, e.Expected, e.Received, e.Suggestion)
			}
		}
	}
	if found {
		// Past MaxErrors w counted its errors (repetitions, and keys
		// that are not Unicode) without recording them.
		d.dropped += w.dropped
	}
	return found
}

// members reads the next value as Any does, without keeping it: only what
// More records (repeated members, keys that are not Unicode) is recorded.
func (d *Decoder) members() {
	switch d.Peek() {
	case Object, Array:
		array := d.data[d.pos] == '['
		d.pos++
		if !d.push(array) {
			return
		}
		for d.More() {
			d.members()
		}
	default:
		d.skipValue(0)
		d.badText = false
	}
}

// MarshalAnyOf is the MarshalJSON of an anyOf union whose value may match
// several branches: vs holds the values of its branches in branch order,
// nil for a branch that is not set, and marshal is json.Marshal. It
// returns null when no branch is set and the set branch's JSON when one
// is. When several are set, each holds the same value decoded under its
// branch, so none may be dropped: when every one encodes a JSON object,
// their members are merged, in branch order, the first branch's on a
// repeated key; else the first set branch's JSON is the value.
func MarshalAnyOf(marshal func(any) ([]byte, error), vs []any) ([]byte, error) {
	var parts [][]byte
	for _, v := range vs {
		if v == nil {
			continue
		}
		b, err := marshal(v)
		if err != nil {
			return nil, err
		}
		if len(parts) == 0 && !isObject(b) {
			// The value is the first branch's: the others (which may
			// share its parts) are not written (see Decoder.Kept).
			return b, nil
		}
		parts = append(parts, b)
	}
	switch len(parts) {
	case 0:
		return []byte("null"), nil
	case 1:
		return parts[0], nil
	}
	if merged, ok := mergeObjects(parts); ok {
		return merged, nil
	}
	return parts[0], nil
}

// isObject reports whether the JSON text b is an object.
func isObject(b []byte) bool {
	i := text.SkipBlanks(b, 0)
	return i < len(b) && b[i] == '{'
}

// mergeObjects merges the members of the JSON objects parts, in order,
// keeping the first of a repeated key (keys compared as written: one
// encoder writes a key one way); ok is false when a part is not an
// object.
func mergeObjects(parts [][]byte) (merged []byte, ok bool) {
	out := []byte{'{'}
	seen := map[string]bool{}
	for _, p := range parts {
		r := text.NewMemberReader(p)
		for {
			m, ok := r.Next()
			if !ok {
				break
			}
			if seen[string(m.Quoted)] {
				continue
			}
			seen[string(m.Quoted)] = true
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(append(append(out, m.Quoted...), ':'), m.Value...)
		}
		// Read to its closing brace, and nothing after it.
		if i := text.SkipBlanks(p, r.Offset()); i >= len(p) || p[i] != '}' || text.SkipBlanks(p, i+1) != len(p) {
			return nil, false
		}
	}
	return append(out, '}'), true
}
