package wire

import "bytes"

// NoneMatched records that a union trial's value, raw (the text RawBytes
// has just read), was taken by none of its branches: the failure of
// keyword ("anyOf" or "oneOf"), whose branches are described by
// expected ("A or B"). It consumes nothing.
//
// When a member is repeated inside the value, the repetition is recorded
// instead, at its own pointer, as it would be outside a union. A repeated
// member makes every branch that reads its object fail (each branch
// decoder records it, and none is Clean), but the branch decoders' errors
// are dropped by the trial, and "matches none of" would have a model
// change the value's shape rather than send the member once. The
// repetitions are found again by reading the value's members, which costs
// nothing unless a trial fails.
func (d *Decoder) NoneMatched(keyword, expected string, raw []byte) {
	if d.repeatedIn(raw) {
		return
	}
	d.record(d.pos, keyword, "matches none of: "+expected, expected, string(raw), "")
}

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
		w.more = d.more[: d.depth-inlineSegs : d.depth-inlineSegs]
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
