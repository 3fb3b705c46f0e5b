package gateway

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/record"
)

// A large family's registry_gen.go declares its ops as data rather than as
// a composite literal: one string per op, written by EncodeOp and read back
// by DecodeOps when the package is initialised (runtime/internal/record
// gives the syntax). Decoding takes about two microseconds per op; the
// strings of the decoded ops share the record's storage.
//
// A record holds the fields in the order of Op's declaration; an absent
// Policy is the flag 0, a present one 1 and then its three lists.

// EncodeOp is op as one record for DecodeOps.
func EncodeOp(op Op) string {
	return record.Encode(func(w *record.Writer) {
		w.Str(op.Path)
		w.Str(op.Tool)
		w.Str(op.Description)
		w.JSON(op.Parameters)
		w.Str(op.Group)
		w.Str(string(op.Kind))
		w.Str(op.Entity)
		w.Str(op.Action)
		w.Str(op.Usage)
		w.Num(len(op.Args))
		for _, a := range op.Args {
			w.Str(a.Name)
			w.Str(a.Type)
			w.Flag(a.Required)
			w.Str(a.Default)
			w.Str(a.Description)
		}
		w.Strs(op.Notes)
		w.Num(len(op.Examples))
		for _, ex := range op.Examples {
			w.Str(ex.Description)
			w.JSON(ex.Args)
		}
		w.Flag(op.Policy != nil)
		if p := op.Policy; p != nil {
			w.Strs(p.Do)
			w.Strs(p.Dont)
			w.Strs(p.EdgeCases)
		}
		w.Flag(op.DryRunDefault)
	})
}

// DecodeOps reads the records EncodeOp wrote, one op each. Empty strings,
// lists and JSON values decode as nil. An error names the record and the
// byte offset in it where the data stops making sense.
func DecodeOps(records []string) ([]Op, error) {
	ops := make([]Op, len(records))
	for i, rec := range records {
		r := record.NewReader(rec)
		readOp(r, &ops[i])
		if err := r.Err(); err != nil {
			return nil, fmt.Errorf("gateway: op record %d, %w", i, err)
		}
	}
	return ops, nil
}

// MustDecodeOps is DecodeOps for generated code, whose records EncodeOp
// wrote: it panics on an error, which only a hand edit can cause.
func MustDecodeOps(records []string) []Op {
	ops, err := DecodeOps(records)
	if err != nil {
		panic(record.Corrupt(err))
	}
	return ops
}

func readOp(r *record.Reader, op *Op) {
	op.Path = r.Str()
	op.Tool = r.Str()
	op.Description = r.Str()
	op.Parameters = r.JSON()
	op.Group = r.Str()
	op.Kind = runtime.OpKind(r.Str())
	op.Entity = r.Str()
	op.Action = r.Str()
	op.Usage = r.Str()
	if n := r.Count(); n > 0 {
		op.Args = make([]Arg, n)
		for k := range op.Args {
			a := &op.Args[k]
			a.Name = r.Str()
			a.Type = r.Str()
			a.Required = r.Flag()
			a.Default = r.Str()
			a.Description = r.Str()
		}
	}
	op.Notes = r.Strs()
	if n := r.Count(); n > 0 {
		op.Examples = make([]Example, n)
		for k := range op.Examples {
			op.Examples[k].Description = r.Str()
			op.Examples[k].Args = r.JSON()
		}
	}
	if r.Flag() {
		op.Policy = &Policy{Do: r.Strs(), Dont: r.Strs(), EdgeCases: r.Strs()}
	}
	op.DryRunDefault = r.Flag()
}
