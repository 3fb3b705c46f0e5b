package gateway

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime"
)

// A large family's registry_gen.go declares its ops as data rather than as
// a composite literal: one string per op, written by EncodeOp and read back
// by DecodeOps when the package is initialised. The compiler keeps a
// string as it is, while an []Op literal of thousands of ops, each with
// nested slices, costs it hundreds of megabytes; decoding takes about a
// microsecond per op, and the strings of the decoded ops share the
// record's storage.
//
// A record is a sequence of fields in the order of Op's declaration. A
// string is its length in bytes, a colon and the bytes ("9:todo.list"); a
// count or a flag is its decimal digits and a semicolon ("2;"); a list is
// its count and then its items; an absent Policy is the flag 0, a present
// one 1 and then its three lists.

// EncodeOp is op as one record for DecodeOps.
func EncodeOp(op Op) string {
	b := make([]byte, 0, 256+len(op.Description)+len(op.Parameters)+len(op.Usage))
	str := func(s string) {
		b = strconv.AppendInt(b, int64(len(s)), 10)
		b = append(b, ':')
		b = append(b, s...)
	}
	num := func(n int) {
		b = strconv.AppendInt(b, int64(n), 10)
		b = append(b, ';')
	}
	flag := func(v bool) {
		if v {
			num(1)
		} else {
			num(0)
		}
	}
	strs := func(ss []string) {
		num(len(ss))
		for _, s := range ss {
			str(s)
		}
	}
	str(op.Path)
	str(op.Tool)
	str(op.Description)
	str(string(op.Parameters))
	str(op.Group)
	str(string(op.Kind))
	str(op.Entity)
	str(op.Action)
	str(op.Usage)
	num(len(op.Args))
	for _, a := range op.Args {
		str(a.Name)
		str(a.Type)
		flag(a.Required)
		str(a.Default)
		str(a.Description)
	}
	strs(op.Notes)
	num(len(op.Examples))
	for _, ex := range op.Examples {
		str(ex.Description)
		str(string(ex.Args))
	}
	flag(op.Policy != nil)
	if p := op.Policy; p != nil {
		strs(p.Do)
		strs(p.Dont)
		strs(p.EdgeCases)
	}
	flag(op.DryRunDefault)
	return string(b)
}

// DecodeOps reads the records EncodeOp wrote, one op each. Empty strings,
// lists and JSON values decode as nil. An error names the record and the
// byte offset in it where the data stops making sense.
func DecodeOps(records []string) ([]Op, error) {
	ops := make([]Op, len(records))
	for i, rec := range records {
		r := opReader{s: rec}
		r.op(&ops[i])
		if r.err == "" && r.i != len(r.s) {
			r.fail("trailing data")
		}
		if r.err != "" {
			return nil, fmt.Errorf("gateway: op record %d, byte %d: %s", i, r.i, r.err)
		}
	}
	return ops, nil
}

// MustDecodeOps is DecodeOps for generated code, whose records EncodeOp
// wrote: it panics on an error, which only a hand edit can cause.
func MustDecodeOps(records []string) []Op {
	ops, err := DecodeOps(records)
	if err != nil {
		panic(err)
	}
	return ops
}

// opReader reads one record; after the first error it reads nothing more.
type opReader struct {
	s   string
	i   int
	err string
}

func (r *opReader) fail(msg string) {
	if r.err == "" {
		r.err = msg
	}
}

// int reads decimal digits up to the terminator end. Nothing in a record
// can be longer than the record, which bounds every value.
func (r *opReader) int(end byte) int {
	n, start := 0, r.i
	for r.err == "" && r.i < len(r.s) && r.s[r.i] != end {
		c := r.s[r.i]
		if c < '0' || c > '9' || r.i-start >= 10 {
			r.fail("expected a decimal number")
			return 0
		}
		n = n*10 + int(c-'0')
		r.i++
	}
	if r.err != "" {
		return 0
	}
	if r.i == start || r.i == len(r.s) {
		r.fail(fmt.Sprintf("expected digits and %q", end))
		return 0
	}
	r.i++
	return n
}

func (r *opReader) str() string {
	n := r.int(':')
	if r.err != "" {
		return ""
	}
	if n > len(r.s)-r.i {
		r.fail("string runs past the end of the record")
		return ""
	}
	s := r.s[r.i : r.i+n]
	r.i += n
	return s
}

// count reads a list's length; a list cannot have more items than the
// record has bytes left, which keeps a bad count from allocating much.
func (r *opReader) count() int {
	n := r.int(';')
	if n > len(r.s)-r.i {
		r.fail("list longer than the record")
		return 0
	}
	return n
}

func (r *opReader) flag() bool {
	switch r.int(';') {
	case 0:
		return false
	case 1:
		return true
	}
	r.fail("expected the flag 0 or 1")
	return false
}

func (r *opReader) json() json.RawMessage {
	if s := r.str(); s != "" {
		return json.RawMessage(s)
	}
	return nil
}

func (r *opReader) strs() []string {
	n := r.count()
	if n == 0 {
		return nil
	}
	ss := make([]string, n)
	for k := range ss {
		ss[k] = r.str()
	}
	return ss
}

func (r *opReader) op(op *Op) {
	op.Path = r.str()
	op.Tool = r.str()
	op.Description = r.str()
	op.Parameters = r.json()
	op.Group = r.str()
	op.Kind = runtime.OpKind(r.str())
	op.Entity = r.str()
	op.Action = r.str()
	op.Usage = r.str()
	if n := r.count(); n > 0 {
		op.Args = make([]Arg, n)
		for k := range op.Args {
			a := &op.Args[k]
			a.Name = r.str()
			a.Type = r.str()
			a.Required = r.flag()
			a.Default = r.str()
			a.Description = r.str()
		}
	}
	op.Notes = r.strs()
	if n := r.count(); n > 0 {
		op.Examples = make([]Example, n)
		for k := range op.Examples {
			op.Examples[k].Description = r.str()
			op.Examples[k].Args = r.json()
		}
	}
	if r.flag() {
		op.Policy = &Policy{Do: r.strs(), Dont: r.strs(), EdgeCases: r.strs()}
	}
	op.DryRunDefault = r.flag()
}
