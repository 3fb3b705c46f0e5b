package wire

import (
	"bytes"

	"github.com/toolgen-go/toolgen/runtime/text"
)

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
