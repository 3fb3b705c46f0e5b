package check

import (
	"encoding/json"
	"math"
	"strconv"
	"strings"
	"testing"
)

func generic(t testing.TB, s string) any {
	t.Helper()
	v, err := decodeGeneric([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestEqual(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{`1`, `1.0`, true},
		{`1`, `1.5`, false},
		{`1e2`, `100`, true},
		{`0.1`, `0.10`, true},
		{`12345678901234567890`, `12345678901234567891`, false},
		{`12345678901234567890`, `12345678901234567890.0`, true},
		{`{"a":1,"b":[1,2]}`, `{"b":[1,2.0],"a":1}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":null}`, `{"b":null}`, false},
		{`[1,2]`, `[2,1]`, false},
		{`null`, `null`, true},
		{`null`, `false`, false},
		{`0`, `false`, false},
		{`""`, `null`, false},
		{`"a"`, `"a"`, true},
		{`[]`, `{}`, false},
	}
	for _, tc := range tests {
		a, b := generic(t, tc.a), generic(t, tc.b)
		if got := Equal(a, b); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := Equal(b, a); got != tc.want {
			t.Errorf("Equal(%s, %s) = %v, want %v (symmetry)", tc.b, tc.a, got, tc.want)
		}
	}
	mixed := []struct {
		a, b any
		want bool
	}{
		{int64(3), 3.0, true},
		{int64(3), json.Number("3.0"), true},
		{int64(1 << 60), json.Number("1152921504606846976"), true},
		{int64(1<<60 + 1), float64(1 << 60), false},
		{uint64(7), 7, true},
		{float32(0.5), 0.5, true},
		{0.1, json.Number("0.1"), true},
		{0.1, json.Number("0.10000000000000000001"), false},
		{1e300, json.Number("1e300"), true},
		{struct{}{}, struct{}{}, false},
	}
	for _, tc := range mixed {
		if got := Equal(tc.a, tc.b); got != tc.want {
			t.Errorf("Equal(%#v, %#v) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}

func TestUnique(t *testing.T) {
	tests := []struct {
		items string
		i, j  int
		ok    bool
	}{
		{`[]`, 0, 0, true},
		{`[1,2,3]`, 0, 0, true},
		{`[1,2,1.0]`, 0, 2, false},
		{`[{"a":1,"b":2},{"b":2,"a":1}]`, 0, 1, false},
		{`[[1],[1,2],"x","y","x"]`, 2, 4, false},
		{`[0,false,null,"",[],{}]`, 0, 0, true},
	}
	big := make([]any, 0, 1000)
	for k := 0; k < 1000; k++ {
		big = append(big, float64(k))
	}
	if _, _, ok := Unique(big); !ok {
		t.Error("1000 distinct numbers reported as duplicates")
	}
	big = append(big, map[string]any{"a": 1.0}, "x", json.Number("998.0"), map[string]any{"a": json.Number("1")})
	if i, j, ok := Unique(big); ok || i != 998 || j != 1002 {
		t.Errorf("Unique(large) = %d, %d, %v; want 998, 1002, false", i, j, ok)
	}
	for _, tc := range tests {
		items := generic(t, tc.items).([]any)
		i, j, ok := Unique(items)
		if ok != tc.ok || i != tc.i || j != tc.j {
			t.Errorf("Unique(%s) = %d, %d, %v; want %d, %d, %v", tc.items, i, j, ok, tc.i, tc.j, tc.ok)
		}
	}
}

func TestKindOf(t *testing.T) {
	tests := []struct {
		v    any
		want string
	}{
		{nil, "null"}, {true, "boolean"}, {"s", "string"}, {[]any{}, "array"},
		{map[string]any{}, "object"}, {1.0, "integer"}, {1.5, "number"}, {int64(2), "integer"},
		{json.Number("3"), "integer"}, {json.Number("3.0"), "integer"}, {json.Number("1e2"), "integer"},
		{json.Number("0.5"), "number"}, {json.Number("1e-400"), "number"}, {struct{}{}, ""},
	}
	for _, tc := range tests {
		if got := KindOf(tc.v); got != tc.want {
			t.Errorf("KindOf(%#v) = %q, want %q", tc.v, got, tc.want)
		}
	}
}

func TestLen(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{{"", 0}, {"abc", 3}, {"école", 5}, {"😀😀", 2}, {"\xff", 1}}
	for _, tc := range tests {
		if got := Len(tc.s); got != tc.want {
			t.Errorf("Len(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
	var sink int
	if n := testing.AllocsPerRun(100, func() { sink += Len("école😀") }); n != 0 {
		t.Errorf("Len allocates %v times (%d)", n, sink)
	}
}

func BenchmarkUnique1000(b *testing.B) {
	items := make([]any, 1000)
	for k := range items {
		items[k] = "item-" + strings.Repeat("x", k%7) + string(rune('a'+k%26)) + json.Number(strconv.Itoa(k)).String()
	}
	b.ReportAllocs()
	for b.Loop() {
		Unique(items)
	}
}

func BenchmarkLen(b *testing.B) {
	s := strings.Repeat("école ", 10)
	b.ReportAllocs()
	for b.Loop() {
		Len(s)
	}
}

func BenchmarkEqual(b *testing.B) {
	x := generic(b, `{"a":[1,2,{"b":"c"}],"d":1.5}`)
	y := generic(b, `{"d":1.5,"a":[1,2.0,{"b":"c"}]}`)
	b.ReportAllocs()
	for b.Loop() {
		Equal(x, y)
	}
}

// Long arrays (bucketed by hash) find the duplicates the pairwise
// comparison of short ones finds: -0 and 0, objects in any member order,
// and integers beyond 2^53 that a float64, an int64 and a json.Number
// spell alike; and they tell apart integers that float64 rounds alike.
func TestUniqueLong(t *testing.T) {
	negZero := math.Copysign(0, -1)
	pairs := []struct{ a, b any }{
		{0.0, negZero},
		{[]any{0.0}, []any{negZero}},
		{map[string]any{"a": 1.0, "b": []any{1.0}}, map[string]any{"b": []any{int64(1)}, "a": json.Number("1.0")}},
		{1e18, int64(1e18)},
		{int64(1 << 60), json.Number("1152921504606846976")},
		{json.Number("9007199254740993.0"), int64(9007199254740993)},
		{int64(1<<60 + 1), float64(1 << 60)},
		{int64(1 << 60), float64(1 << 60)},
		{int64(9007199254740993), int64(9007199254740992)},
		{[]any{1.0, 2.0}, []any{2.0, 1.0}},
		{map[string]any{"a": 1.0, "b": 2.0}, map[string]any{"a": 2.0, "b": 1.0}},
	}
	for _, p := range pairs {
		items := make([]any, 0, 22)
		for k := range 20 {
			items = append(items, "filler"+strconv.Itoa(k))
		}
		items = append(items, p.a, p.b)
		want := Equal(p.a, p.b)
		i, j, ok := Unique(items)
		if ok == want || !ok && (i != 20 || j != 21) {
			t.Errorf("Unique(… %#v, %#v) = %d, %d, %v; Equal says %v", p.a, p.b, i, j, ok, want)
		}
	}
	big := make([]any, 1000)
	for k := range big {
		big[k] = int64(1<<60 + k)
	}
	if _, _, ok := Unique(big); !ok {
		t.Error("1000 distinct integers beyond 2^53 reported as duplicates")
	}
}

func BenchmarkUniqueArrays(b *testing.B) {
	items := make([]any, 20000)
	for k := range items {
		items[k] = []any{float64(k)}
	}
	b.ReportAllocs()
	for b.Loop() {
		Unique(items)
	}
}
