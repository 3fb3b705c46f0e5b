// Package record is the text form in which a large generated family
// declares its static definitions as data (gateway.EncodeOp,
// runtime.EncodeTool): the compiler keeps a string as it is, while
// composite literals of thousands of definitions cost it hundreds of
// megabytes.
//
// A record is a sequence of fields. A string is its length in bytes, a
// colon and the bytes ("9:todo.list"); a count or a flag is its decimal
// digits and a semicolon ("2;"); a list is its count and then its items.
// Strings read back share the record's storage.
package record

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Encode returns the record write writes. write runs twice: first to
// measure the record, then to write it into a string of that length, so
// that a record costs the Writer and one allocation of its own size.
func Encode(write func(w *Writer)) string {
	w := &Writer{measure: true}
	write(w)
	w.measure = false
	w.b.Grow(w.n)
	write(w)
	return w.b.String()
}

// Writer writes fields (Encode), or only counts their bytes.
type Writer struct {
	b       strings.Builder
	measure bool
	n       int
}

// Str writes a string.
func (w *Writer) Str(s string) {
	w.int(len(s), ':')
	if w.measure {
		w.n += len(s)
		return
	}
	w.b.WriteString(s)
}

// JSON writes a JSON value as a string (Reader.JSON reads it).
func (w *Writer) JSON(v json.RawMessage) {
	w.int(len(v), ':')
	if w.measure {
		w.n += len(v)
		return
	}
	w.b.Write(v)
}

// Num writes a number (a count, a small enumeration).
func (w *Writer) Num(n int) { w.int(n, ';') }

// int writes n in decimal and then end.
func (w *Writer) int(n int, end byte) {
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], int64(n), 10)
	if w.measure {
		w.n += len(d) + 1
		return
	}
	w.b.Write(d)
	w.b.WriteByte(end)
}

// Flag writes a flag.
func (w *Writer) Flag(v bool) {
	if v {
		w.Num(1)
	} else {
		w.Num(0)
	}
}

// Strs writes a list of strings.
func (w *Writer) Strs(ss []string) {
	w.Num(len(ss))
	for _, s := range ss {
		w.Str(s)
	}
}

// Reader reads fields of one record; after the first error it reads
// nothing more and returns zero values.
type Reader struct {
	s   string
	i   int
	err string
}

// NewReader reads rec.
func NewReader(rec string) *Reader { return &Reader{s: rec} }

// Err is the first error, with the byte offset where the record stops
// making sense, or one for data left after the last field; nil when the
// whole record was read.
func (r *Reader) Err() error {
	if r.err == "" && r.i != len(r.s) {
		r.Fail("trailing data")
	}
	if r.err != "" {
		return fmt.Errorf("byte %d: %s", r.i, r.err)
	}
	return nil
}

// Fail records msg as the error at the current offset, unless there is one.
func (r *Reader) Fail(msg string) {
	if r.err == "" {
		r.err = msg
	}
}

// int reads decimal digits up to the terminator end. Nothing in a record
// can be longer than the record, which bounds every value.
func (r *Reader) int(end byte) int {
	n, start := 0, r.i
	for r.err == "" && r.i < len(r.s) && r.s[r.i] != end {
		c := r.s[r.i]
		if c < '0' || c > '9' || r.i-start >= 10 {
			r.Fail("expected a decimal number")
			return 0
		}
		n = n*10 + int(c-'0')
		r.i++
	}
	if r.err != "" {
		return 0
	}
	if r.i == start || r.i == len(r.s) {
		r.Fail(fmt.Sprintf("expected digits and %q", end))
		return 0
	}
	r.i++
	return n
}

// Str reads a string.
func (r *Reader) Str() string {
	n := r.int(':')
	if r.err != "" {
		return ""
	}
	if n > len(r.s)-r.i {
		r.Fail("string runs past the end of the record")
		return ""
	}
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

// Num reads a number Writer.Num wrote.
func (r *Reader) Num() int { return r.int(';') }

// Count reads a list's length. A list cannot have more items than the
// record has bytes left, which keeps a bad count from allocating much.
func (r *Reader) Count() int {
	n := r.int(';')
	if n > len(r.s)-r.i {
		r.Fail("list longer than the record")
		return 0
	}
	return n
}

// Flag reads a flag.
func (r *Reader) Flag() bool {
	switch r.int(';') {
	case 0:
		return false
	case 1:
		return true
	}
	r.Fail("expected the flag 0 or 1")
	return false
}

// JSON reads a string as a JSON value (a copy: the caller may change it),
// nil for the empty string.
func (r *Reader) JSON() json.RawMessage {
	if s := r.Str(); s != "" {
		return json.RawMessage(s)
	}
	return nil
}

// Strs reads a list of strings, nil for none.
func (r *Reader) Strs() []string {
	n := r.Count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for k := range ss {
		ss[k] = r.Str()
	}
	return ss
}

// Corrupt is the panic value of generated code whose record does not
// read: err, with what to do about it (only a hand edit of the generated
// files causes one).
func Corrupt(err error) error {
	return fmt.Errorf("%w (a generated file's data was edited by hand: regenerate the package with toolgen generate)", err)
}
