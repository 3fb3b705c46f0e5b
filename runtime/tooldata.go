package runtime

import (
	"fmt"

	"github.com/toolgen-go/toolgen/runtime/internal/record"
)

// A large family's Tools reads each tool's definition from data rather
// than from a composite literal: EncodeTool writes a Tool's definition
// fields (Name, Description, Parameters, Title, Annotations,
// ResultSchema) as one record (runtime/internal/record gives the syntax),
// and the generated code binds MustDecodeTool(record) to its decoder and
// handler. The literals of thousands of tools cost the compiler hundreds
// of megabytes; a record costs it a string.

// EncodeTool is the definition of t as one record for DecodeTool; its
// Handler, Decode and AcceptsOverrides are not part of it.
func EncodeTool(t Tool) string {
	return record.Encode(func(w *record.Writer) {
		w.Str(t.Name)
		w.Str(t.Description)
		w.JSON(t.Parameters)
		w.Str(t.Title)
		w.Flag(t.Annotations != nil)
		if a := t.Annotations; a != nil {
			for _, h := range []*bool{a.ReadOnly, a.Destructive, a.Idempotent, a.OpenWorld} {
				w.Num(hintNum(h))
			}
		}
		w.JSON(t.ResultSchema)
	})
}

// DecodeTool reads a record EncodeTool wrote. Empty strings and JSON
// values decode as nil.
func DecodeTool(rec string) (Tool, error) {
	r := record.NewReader(rec)
	t := Tool{Name: r.Str(), Description: r.Str(), Parameters: r.JSON(), Title: r.Str()}
	if r.Flag() {
		t.Annotations = &Annotations{ReadOnly: numHint(r), Destructive: numHint(r), Idempotent: numHint(r), OpenWorld: numHint(r)}
	}
	t.ResultSchema = r.JSON()
	if err := r.Err(); err != nil {
		return Tool{}, fmt.Errorf("runtime: tool record, %w", err)
	}
	return t, nil
}

// MustDecodeTool is DecodeTool for generated code, whose records
// EncodeTool wrote: it panics on an error, which only a hand edit can
// cause. Not inlined: a catalogue's Tools calls it once per tool.
//
//go:noinline
func MustDecodeTool(rec string) Tool {
	t, err := DecodeTool(rec)
	if err != nil {
		panic(record.Corrupt(err))
	}
	return t
}

// hintNum is a hint as a number: 0 unknown, 1 false, 2 true.
func hintNum(h *bool) int {
	switch {
	case h == nil:
		return 0
	case *h:
		return 2
	}
	return 1
}

func numHint(r *record.Reader) *bool {
	switch r.Num() {
	case 0:
		return nil
	case 1:
		return Hint(false)
	case 2:
		return Hint(true)
	}
	r.Fail("expected a hint 0, 1 or 2")
	return nil
}
