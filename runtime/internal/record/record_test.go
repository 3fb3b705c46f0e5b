package record

import (
	"encoding/json"
	"testing"
)

// TestEncode writes every kind of field, reads them back, and checks
// that the measuring pass sized the record exactly: no allocation but
// the Writer and the record.
func TestEncode(t *testing.T) {
	schema, list := json.RawMessage(`{"type":"object"}`), []string{"a", "", "ccc"}
	write := func(w *Writer) {
		w.Str("todo.list")
		w.Str("")
		w.Str("ünïcode: 9:not a field;")
		w.JSON(schema)
		w.JSON(nil)
		w.Num(1234567890)
		w.Flag(true)
		w.Flag(false)
		w.Strs(list)
		w.Strs(nil)
	}
	rec := Encode(write)
	if want := `9:todo.list0:25:ünïcode: 9:not a field;17:{"type":"object"}0:1234567890;1;0;3;1:a0:3:ccc0;`; rec != want {
		t.Fatalf("record %q, want %q", rec, want)
	}
	r := NewReader(rec)
	got := []any{r.Str(), r.Str(), r.Str(), string(r.JSON()), r.JSON() == nil, r.Num(), r.Flag(), r.Flag(), r.Strs(), r.Strs() == nil}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	want := []any{"todo.list", "", "ünïcode: 9:not a field;", `{"type":"object"}`, true, 1234567890, true, false, []string{"a", "", "ccc"}, true}
	for i := range want {
		if g, w := json.RawMessage(mustJSON(got[i])), mustJSON(want[i]); string(g) != string(w) {
			t.Errorf("field %d: %s, want %s", i, g, w)
		}
	}
	if n := testing.AllocsPerRun(100, func() { _ = Encode(write) }); n != 2 {
		t.Errorf("Encode makes %v allocations, want 2", n)
	}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}
