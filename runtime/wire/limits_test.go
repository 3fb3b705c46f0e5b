package wire

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
)

// TestErrorsCapped: a decode records at most MaxErrors field errors, also
// after merging the validator's, and counts the rest in Omitted.
func TestErrorsCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range 300 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + strconv.Itoa(i) + `":1`)
	}
	b.WriteString("}")
	d := NewDecoder([]byte(b.String()))
	if d.Object() {
		for d.More() {
			d.Unknown([]string{"known"})
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	var v Errors
	for range 50 {
		v.Add(nil, "required", "missing", "", "", "")
	}
	err := d.Report("tool", &v)
	r, ok := err.(*runtime.ValidationError)
	if !ok {
		t.Fatal(err)
	}
	if len(r.Fields) != MaxErrors || r.Omitted != 250 {
		t.Errorf("%d fields, %d omitted; want %d and 250", len(r.Fields), r.Omitted, MaxErrors)
	}
	if msg := err.Error(); len(msg) > 8<<10 || !strings.HasSuffix(msg, "and 330 more") {
		t.Errorf("message of %d bytes ending %q", len(msg), msg[max(0, len(msg)-40):])
	}
}

// TestLongKeyPointer: a huge unknown key is cut in the error's pointer and
// message.
func TestLongKeyPointer(t *testing.T) {
	key := strings.Repeat("é", 1<<20)
	d := NewDecoder([]byte(`{"` + key + `":{"x":[1,"a\ud800"]}}`))
	if d.Object() {
		for d.More() {
			d.Unknown(nil)
		}
	}
	_ = d.Close()
	for _, f := range d.Errors() {
		if len(f.Path) > MaxTokenBytes+8 || len(f.Message) > 1024 {
			t.Errorf("error of %d+%d bytes: %.80s", len(f.Path), len(f.Message), f.Path)
		}
	}
	if n := len(d.Errors()); n != 2 {
		t.Errorf("%d errors, want the encoding error and the unknown property", n)
	}
}

// TestDuplicate: short and long arrays report the same pair (the first
// occurrence of the earliest repeated item), long ones in linear time.
func TestDuplicate(t *testing.T) {
	short := []string{"a", "b", "b", "a"}
	if i, j, ok := Duplicate(short); !ok || i != 1 || j != 2 {
		t.Errorf("Duplicate(%q) = %d, %d, %v", short, i, j, ok)
	}
	long := make([]int, 1<<16)
	for k := range long {
		long[k] = k
	}
	if _, _, ok := Duplicate(long); ok {
		t.Error("distinct items reported as duplicates")
	}
	long[len(long)-1] = 7
	long = append(long, 5)
	if i, j, ok := Duplicate(long); !ok || i != 7 || j != len(long)-2 {
		t.Errorf("Duplicate(long) = %d, %d, %v", i, j, ok)
	}
}

// TestDuplicateGeneric: the keyed path for long arrays agrees with
// pairwise check.Equal.
func TestDuplicateGeneric(t *testing.T) {
	base := []any{nil, true, false, 0.0, 1.0, 1.5, "1", "", []any{}, []any{1.0, "a"}, map[string]any{}, map[string]any{"a": 1.0, "b": []any{nil}}}
	for _, extra := range []any{nil, true, math.Copysign(0, -1), 1.5, "1", []any{1.0, "a"}, map[string]any{"b": []any{nil}, "a": 1.0}, "new", 2.0, map[string]any{"a": 2.0}} {
		items := append([]any{}, base...)
		for k := range 40 {
			items = append(items, "filler"+strconv.Itoa(k))
		}
		items = append(items, extra)
		i, j, ok := DuplicateGeneric(items)
		// Reference: pairwise, smallest j first.
		wi, wj, wok := 0, 0, false
		for b := range items {
			for a := range b {
				if !wok && check.Equal(items[a], items[b]) {
					wi, wj, wok = a, b, true
				}
			}
		}
		if i != wi || j != wj || ok != wok {
			t.Errorf("extra %#v: got %d,%d,%v want %d,%d,%v", extra, i, j, ok, wi, wj, wok)
		}
	}
}

// TestGenericKeyOfLargeIntegers: the integers the decoder reads as int64
// (past float64's, Decoder.exactInts) have keys, so that DuplicateGeneric
// stays linear on them (it fell back to comparing every pair: 20,000 of
// them took seconds), and two numbers have the same key exactly when
// check.Equal holds: 18014398509481990 is the shortest decimal of a
// float64 it is not.
func TestGenericKeyOfLargeIntegers(t *testing.T) {
	nums := []any{
		int64(18014398509481990), 1.801439850948199e16, int64(18014398509481992), float64(18014398509481992),
		int64(9007199254740993), 9007199254740992.0, int64(1<<62 + 1), int64(-(1<<62 + 1)), float64(1 << 62),
		int64(math.MinInt64), -float64(1 << 63), int64(math.MaxInt64), 100.0, 1e2, 0.0, math.Copysign(0, -1), 1.5, -1.5, 1e-7, 1e300,
	}
	for _, a := range nums {
		ka, ok := appendGenericKey(nil, a)
		if !ok {
			t.Fatalf("%#v: no key", a)
		}
		for _, b := range nums {
			kb, _ := appendGenericKey(nil, b)
			if same, eq := string(ka) == string(kb), check.Equal(a, b); same != eq {
				t.Errorf("%#v (%s) and %#v (%s): same key %v, check.Equal %v", a, ka, b, kb, same, eq)
			}
		}
	}
	items := make([]any, 0, 50)
	for k := range 49 {
		items = append(items, int64(1<<60+2*k+1))
	}
	// The float64 1<<60 stands for 1152921504606847000, 1<<60+24.
	items = append(items, float64(1<<60))
	if i, j, ok := DuplicateGeneric(items); ok {
		t.Errorf("got %d,%d", i, j)
	}
	items = append(items, 1.801439850948199e16, int64(18014398509481990))
	if i, j, ok := DuplicateGeneric(items); !ok || i != 50 || j != 51 {
		t.Errorf("got %d,%d,%v, want 50,51", i, j, ok)
	}
}

func BenchmarkDuplicateGenericInt64(b *testing.B) {
	items := make([]any, 20000)
	for k := range items {
		items[k] = int64(1<<60 + k)
	}
	for b.Loop() {
		DuplicateGeneric(items)
	}
}
