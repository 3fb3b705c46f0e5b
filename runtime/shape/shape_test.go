package shape

import (
	"errors"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/runtime/wire"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// The tables below are what the generator writes for these types.

type item struct {
	Name  string
	Count *int64
}

type params struct {
	Owner  string
	Limit  int64
	Ratio  *float64
	Tags   []string
	Items  []item
	Nested *item
	Done   bool
	Scores []int64
}

type optionalParams struct {
	Ratio float64
}

var pattern = check.MustCompile("^[a-z]+$")

var checkCount = Check{Bounds: []Bound{{Op: Less, I: 1, Rule: Rule{"minimum", "must be >= 1", ">= 1"}}}}

var tableItem = Table{
	Fields: []Field{
		{Offset: unsafe.Offsetof(item{}.Name), Kind: String, Required: true, Check: &Check{
			Enum: []string{"a", "b"}, EnumRule: Rule{"enum", `must be one of "a", "b"`, `"a", "b"`}}},
		{Offset: unsafe.Offsetof(item{}.Count), Kind: Int, Form: Pointer, Check: &checkCount},
	},
	Names:   []string{"name", "count"},
	Checked: true,
	Type:    (*item)(nil),
}

var tableParams = Table{
	Fields: []Field{
		{Offset: unsafe.Offsetof(params{}.Owner), Kind: String, Required: true, Check: &Check{
			MinLen: 2, MinLenRule: Rule{"minLength", "must be at least 2 characters long", "at least 2 characters"},
			MaxLen: 5, MaxLenRule: Rule{"maxLength", "must be at most 5 characters long", "at most 5 characters"},
			Pattern: &pattern, PatternRule: Rule{"pattern", "must match the pattern ^[a-z]+$", "pattern ^[a-z]+$"}}},
		{Offset: unsafe.Offsetof(params{}.Limit), Kind: Int, HasDefault: true, Default: Const{I: 20}, Check: &Check{
			Bounds: []Bound{{Op: Greater, I: 100, Rule: Rule{"maximum", "must be <= 100", "<= 100"}}}}},
		{Offset: unsafe.Offsetof(params{}.Ratio), Kind: Float, Form: Pointer, InOpt: true, OptOffset: unsafe.Offsetof(optionalParams{}.Ratio), Check: &Check{
			Bounds:     []Bound{{Op: LessEqual, F: 0, Rule: Rule{"exclusiveMinimum", "must be > 0", "> 0"}}},
			MultipleOf: "0.5", MultRule: Rule{"multipleOf", "must be a multiple of 0.5", "multiple of 0.5"}}},
		{Offset: unsafe.Offsetof(params{}.Tags), Kind: String, Form: OptSlice,
			Check:     &Check{MaxItems: 2, MaxItemsRule: Rule{"maxItems", "must have at most 2 items", "at most 2 items"}, Unique: true},
			ItemCheck: &Check{Format: check.Email, FormatRule: Rule{"format", "must be a valid email", "email"}}},
		{Offset: unsafe.Offsetof(params{}.Items), Kind: Object, Form: Slice, Object: &tableItem},
		{Offset: unsafe.Offsetof(params{}.Nested), Kind: Object, Form: Pointer, Object: &tableItem},
		{Offset: unsafe.Offsetof(params{}.Done), Kind: Bool, HasDefault: true, Default: Const{B: true}},
		{Offset: unsafe.Offsetof(params{}.Scores), Kind: Int, Form: OptSlice, ItemCheck: &checkCount,
			Check: &Check{MinItems: 1, MinItemsRule: Rule{"minItems", "must have at least 1 item", "at least 1 item"}}},
	},
	Names:   []string{"owner", "limit", "ratio", "tags", "items", "nested", "done", "scores"},
	Closed:  true,
	Checked: true,
	Opt:     (*optionalParams)(nil),
	Type:    (*params)(nil),
}

func decode(args []byte) (*params, error) {
	x := new(params)
	d := wire.NewArgsDecoder(args)
	Decode(&tableParams, d, unsafe.Pointer(x))
	if d.Close() != nil {
		return nil, d.Report("t", nil)
	}
	var e wire.Errors
	ValidateAt(&tableParams, unsafe.Pointer(x), nil, &e)
	if err := d.Report("t", &e); err != nil {
		return nil, err
	}
	return x, nil
}

const valid = `{"owner":"abc","ratio":1.5,"tags":["a@b.co"],"items":[{"name":"a","count":2}],"nested":{"name":"b"},"scores":[3]}`

func TestDecodeValid(t *testing.T) {
	x, err := decode([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	if x.Owner != "abc" || x.Limit != 20 || *x.Ratio != 1.5 || len(x.Tags) != 1 || len(x.Items) != 1 || *x.Items[0].Count != 2 ||
		x.Nested == nil || x.Nested.Name != "b" || !x.Done || len(x.Scores) != 1 || x.Items[0].Name != "a" {
		t.Errorf("decoded %+v", x)
	}
	if err := Validate(&tableParams, unsafe.Pointer(x)); err != nil {
		t.Error(err)
	}
}

func TestDecodeInvalid(t *testing.T) {
	args := `{"owner":"ABCDEFG","limit":101,"ratio":0,"tags":["x","x","y"],"items":[{"count":0}],"nested":{"name":"c"},"scores":[],"extra":1,"done":"no"}`
	_, err := decode([]byte(args))
	wantErrors(t, args, err, false,
		"/items/0/name required", "/extra additionalProperties", "/done type",
		"/owner maxLength", "/owner pattern", "/limit maximum", "/ratio exclusiveMinimum", "/tags maxItems", "/tags uniqueItems",
		"/tags/0 format", "/tags/1 format", "/tags/2 format", "/items/0/count minimum", "/nested/name enum", "/scores minItems",
	)
}

// wantErrors checks that err is a validation error with the violations
// want, in order: "path code", or with received set "path code received
// suggestion".
func wantErrors(t *testing.T, what string, err error, received bool, want ...string) {
	t.Helper()
	var ve *runtime.ValidationError
	if !errors.As(err, &ve) {
		t.Errorf("%s: got %v, want a validation error", what, err)
		return
	}
	var got []string
	for _, f := range ve.Fields {
		g := f.Path + " " + f.Code
		if received {
			g += " " + f.Received + " " + f.Suggestion
		}
		got = append(got, g)
	}
	if len(got) != len(want) {
		t.Errorf("%s: errors\n%q\nwant\n%q", what, got, want)
		return
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%s: error %d: %q, want %q", what, i, got[i], want[i])
		}
	}
}

// noAllocs checks that x, valid, validates against t without allocating.
func noAllocs(t *testing.T, table *Table, x unsafe.Pointer) {
	t.Helper()
	if n := testing.AllocsPerRun(100, func() {
		if Validate(table, x) != nil {
			t.Fatal("invalid")
		}
	}); n != 0 {
		t.Errorf("Validate allocates %v times on valid input", n)
	}
}

func TestValidateAllocs(t *testing.T) {
	x, err := decode([]byte(valid))
	if err != nil {
		t.Fatal(err)
	}
	noAllocs(t, &tableParams, unsafe.Pointer(x))
}

func BenchmarkDecodeValidate(b *testing.B) {
	args := []byte(valid)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := decode(args); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzDecode: no input makes the interpreter panic, and what it decodes
// re-validates without panicking.
// TestObjectArrays checks arrays of objects, which are counted on a
// branch and decoded in place: empty (not nil), several items with their
// own values, a wrong item kind and input cut off inside the array.
func TestObjectArrays(t *testing.T) {
	x, err := decode([]byte(`{"owner":"abc","items":[]}`))
	if err != nil || x.Items == nil || len(x.Items) != 0 {
		t.Fatalf("empty array: %+v, %v", x, err)
	}
	x, err = decode([]byte(`{"owner":"abc","items":[{"name":"a"},{"name":"b","count":3},{"count":1,"name":"a"}]}`))
	if err != nil || len(x.Items) != 3 || cap(x.Items) != 3 || x.Items[1].Name != "b" || *x.Items[1].Count != 3 ||
		x.Items[0].Count != nil || *x.Items[2].Count != 1 || x.Items[2].Name != "a" {
		t.Fatalf("three items: %+v, %v", x, err)
	}
	for _, args := range []string{
		`{"owner":"abc","items":[{"name":"a"},7]}`,
		`{"owner":"abc","items":[{"name":"a"},{"name":`,
		`{"owner":"abc","items":[{"name":"a"}`,
		`{"owner":"abc","items":{"name":"a"}}`,
	} {
		if _, err := decode([]byte(args)); err == nil {
			t.Errorf("%s: decoded without an error", args)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte(valid))
	for _, s := range wiretest.Hostile() {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, args []byte) {
		x, err := decode(args)
		if err == nil {
			if err := Validate(&tableParams, unsafe.Pointer(x)); err != nil {
				t.Errorf("%s decodes without errors but Validate reports %v", args, err)
			}
		}
	})
}

// TestLengthBounds: the interpreter counts runes only when the bytes of a
// string leave a length bound open, and agrees with a plain count on every
// string of up to six runes of one to four bytes each.
func TestLengthBounds(t *testing.T) {
	type one struct{ S string }
	minRule := Rule{"minLength", "too short", "longer"}
	maxRule := Rule{"maxLength", "too long", "shorter"}
	var strs []string
	var gen func(s string, n int)
	gen = func(s string, n int) {
		strs = append(strs, s)
		for _, r := range []string{"a", "\u00e9", "\u20ac", "\U0001F600"} {
			if n > 0 {
				gen(s+r, n-1)
			}
		}
	}
	gen("", 6)
	for _, b := range [][2]int64{{1, -1}, {3, -1}, {-1, 2}, {2, 5}, {4, 4}} {
		c := &Check{}
		if b[0] >= 0 {
			c.MinLen, c.MinLenRule = b[0], minRule
		}
		if b[1] >= 0 {
			c.MaxLen, c.MaxLenRule = b[1], maxRule
		}
		table := Table{Fields: []Field{{Offset: 0, Kind: String, Required: true, Check: c}}, Names: []string{"s"}, Checked: true, Type: (*one)(nil)}
		for _, s := range strs {
			x := one{s}
			n := int64(utf8.RuneCountInString(s))
			want := b[0] >= 0 && n < b[0] || b[1] >= 0 && n > b[1]
			if got := Validate(&table, unsafe.Pointer(&x)) != nil; got != want {
				t.Fatalf("bounds %v, %q (%d runes, %d bytes): violation %v, want %v", b, s, n, len(s), got, want)
			}
		}
	}
}

// TestDivisor: a multipleOf check through a Divisor parsed once and through
// its text agree.
func TestDivisor(t *testing.T) {
	type one struct{ F float64 }
	type oneInt struct{ I int64 }
	rule := Rule{"multipleOf", "must be a multiple of 0.25", "multiple of 0.25"}
	div := check.NewDivisor("0.25")
	for _, c := range []*Check{{Divisor: &div, MultRule: rule}, {MultipleOf: "0.25", MultRule: rule}} {
		ft := Table{Fields: []Field{{Kind: Float, Required: true, Check: c}}, Names: []string{"f"}, Checked: true, Type: (*one)(nil)}
		it := Table{Fields: []Field{{Kind: Int, Required: true, Check: c}}, Names: []string{"i"}, Checked: true, Type: (*oneInt)(nil)}
		for _, v := range []float64{0, 0.25, 0.5, 0.3, 7, -1.75, 1e300, 0.1} {
			x := one{v}
			want := v == 0 || v == 0.25 || v == 0.5 || v == 7 || v == -1.75 || v == 1e300
			if got := Validate(&ft, unsafe.Pointer(&x)) == nil; got != want {
				t.Errorf("divisor %v, %v: valid %v, want %v", c.Divisor != nil, v, got, want)
			}
		}
		for _, v := range []int64{0, 3, -8} {
			x := oneInt{v}
			if Validate(&it, unsafe.Pointer(&x)) != nil {
				t.Errorf("divisor %v, %d: not a multiple of 0.25", c.Divisor != nil, v)
			}
		}
	}
}
