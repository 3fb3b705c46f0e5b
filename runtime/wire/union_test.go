package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/check"
)

// branch decodes one union branch, as generated code does, on a branch
// decoder.
type branch func(*Decoder)

// union returns a branch that decodes a union of branches by trial, as
// generator/decode.go's unionTrial emits it: each branch on a branch
// decoder, NoneMatched when none is Clean (oneOf: Fail when more than
// one is).
func union(keyword string, branches ...branch) branch {
	return func(d *Decoder) {
		matched := 0
		var hits Hits
		for i, f := range branches {
			b := d.Branch()
			f(&b)
			if b.Clean() {
				matched++
				hits.Add(i)
			}
		}
		raw := d.RawBytes()
		if matched == 0 {
			d.NoneMatched(keyword, altsAB, raw)
		}
		if keyword == "oneOf" && matched > 1 {
			d.ManyMatched(altsAB, &hits, raw)
		}
	}
}

// altsAB are the alternatives of union's messages.
var altsAB = []check.Alt{{Desc: "A"}, {Desc: "B"}}

// object returns a branch for an object of the given members; others are
// refused (strict) or skipped.
func object(strict bool, members map[string]branch) branch {
	return func(d *Decoder) {
		if !d.Object() {
			return
		}
		names := make([]string, 0, len(members))
		for k := range members {
			names = append(names, k)
		}
		for d.More() {
			switch f, ok := members[string(d.Key())]; {
			case ok:
				f(d)
			case strict:
				d.Unknown(names)
			default:
				d.Skip()
			}
		}
	}
}

// arrayOf returns a branch for an array of items.
func arrayOf(item branch) branch {
	return func(d *Decoder) {
		if d.Array() {
			for d.More() {
				item(d)
			}
		}
	}
}

func intBranch(d *Decoder) { d.Int() }
func strBranch(d *Decoder) { _ = d.String() }

// never reads any value and refuses it.
func never(d *Decoder) {
	d.Any()
	d.Fail("not", "never", "", "")
}

// decodeWith reads data as Any does, decoding the value of each member
// named "u" with u instead; it returns the errors as "path code".
func decodeWith(t *testing.T, data string, u branch) ([]string, *Decoder) {
	t.Helper()
	d := NewDecoder([]byte(data))
	var walk func(*Decoder)
	walk = func(d *Decoder) {
		switch d.Peek() {
		case Object, Array:
			array := d.Peek() == Array
			if array && !d.Array() || !array && !d.Object() {
				return
			}
			for d.More() {
				if !array && string(d.Key()) == "u" {
					u(d)
				} else {
					walk(d)
				}
			}
		default:
			d.Skip()
		}
	}
	walk(d)
	if err := d.Close(); err != nil {
		t.Fatalf("%.80s: %v", data, err)
	}
	var got []string
	for _, e := range d.Errors() {
		got = append(got, e.Path+" "+e.Code)
	}
	return got, d
}

// A member repeated inside a union value is reported where it is, as
// outside a union, rather than as a value that matches no branch.
func TestRepeatedInUnion(t *testing.T) {
	a := object(true, map[string]branch{"a": intBranch, "in": object(true, map[string]branch{"x": intBranch})})
	b := object(true, map[string]branch{"b": strBranch})
	lax := object(false, map[string]branch{"a": intBranch})
	nested := object(true, map[string]branch{"w": union("anyOf", a, b)})
	deep := strings.Repeat(`{"k~/":[`, inlineSegs+2)
	deepEnd := strings.Repeat(`]}`, inlineSegs+2)
	deepPath := strings.Repeat("/k~0~1/0", inlineSegs+2)
	cases := []struct {
		name, data string
		u          branch
		want       []string
	}{
		{"anyOf", `{"u":{"a":1,"a":2}}`, union("anyOf", a, b), []string{"/u/a duplicate"}},
		{"oneOf", `{"u":{"b":"x","b":"y"}}`, union("oneOf", a, b), []string{"/u/b duplicate"}},
		{"each repetition", `{"u":{"a":1,"b":"x","a":2,"b":"y","a":3}}`, union("anyOf", a, b),
			[]string{"/u/a duplicate", "/u/b duplicate", "/u/a duplicate"}},
		{"escaped", `{"\u0075":{"\u0061":1,"a":2}}`, union("anyOf", a, b), []string{"/u/a duplicate"}},
		{"in an object branch", `{"u":{"a":1,"in":{"x":1,"x":2}}}`, union("oneOf", a, b), []string{"/u/in/x duplicate"}},
		{"in an array item", `{"u":[{"a":1},{"b":"x","b":"y"}]}`, union("anyOf", arrayOf(union("oneOf", a, b)), arrayOf(intBranch)),
			[]string{"/u/1/b duplicate"}},
		{"array of unions", `{"u":[{"a":1},{"b":"x","b":"y"}]}`, arrayOf(union("anyOf", a, b)), []string{"/u/1/b duplicate"}},
		{"nested union", `{"u":{"w":{"a":1,"in":{"x":1,"x":2}}}}`, union("oneOf", nested, b), []string{"/u/w/in/x duplicate"}},
		{"below the inline path stack", deep + `{"u":{"a":1,"a":2}}` + deepEnd, union("anyOf", a, b),
			[]string{deepPath + "/u/a duplicate"}},
		{"union below the inline path stack", `{"u":` + deep + `{"a":1,"a":2}` + deepEnd + `}`, union("anyOf", never, intBranch),
			[]string{"/u" + deepPath + "/a duplicate"}},
		// A value without repetitions that no branch takes says so.
		{"none", `{"u":{"c":1}}`, union("anyOf", a, b), []string{"/u anyOf"}},
		{"none in an item", `{"u":[{"c":1}]}`, arrayOf(union("anyOf", a, b)), []string{"/u/0 anyOf"}},
		{"same keys apart", `{"u":[{"a":"x"},{"a":"y"}]}`, union("anyOf", a, b), []string{"/u anyOf"}},
		// A branch that takes the value skips what it does not read, as
		// outside a union.
		{"taken", `{"u":{"a":1,"c":{"k":1,"k":2}}}`, union("anyOf", lax, b), nil},
		{"taken twice", `{"u":{"a":1,"c":{"k":1,"k":2}}}`, union("oneOf", lax, lax), []string{"/u oneOf"}},
		// When no branch takes it, a repetition anywhere in the value is
		// reported, even where no branch read.
		{"unread", `{"u":{"a":"x","c":{"k":1,"k":2}}}`, union("anyOf", lax, b), []string{"/u/c/k duplicate"}},
	}
	for _, c := range cases {
		got, _ := decodeWith(t, c.data, c.u)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %.80s: %q, want %q", c.name, c.data, got, c.want)
		}
	}
	// The message is the one outside a union.
	_, d := decodeWith(t, `{"u":{"a":1,"a":2}}`, union("oneOf", a, b))
	if errs := d.Errors(); len(errs) != 1 || errs[0].Message != `property "a" sent twice; send each property once` {
		t.Errorf("errors %+v", errs)
	}
}

// Repetitions past MaxErrors are counted, not recorded.
func TestRepeatedInUnionCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"u":{`)
	for i := range MaxErrors + 10 {
		fmt.Fprintf(&b, `"k%d":1,"k%d":2,`, i, i)
	}
	b.WriteString(`"z":0}}`)
	got, d := decodeWith(t, b.String(), union("anyOf", never, intBranch))
	if len(got) != MaxErrors || got[0] != "/u/k0 duplicate" || d.dropped != 10 {
		t.Errorf("%d errors (%q), %d dropped", len(got), got[:min(len(got), 2)], d.dropped)
	}
}

// FuzzRepeatedInUnion checks that a union value no branch takes is
// refused for its repeated members, where FuzzRepeatedMembers finds them,
// or else as matching none of the branches.
func FuzzRepeatedInUnion(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"x":1},{"x":1,"x":2}]`, `{"a":{"b":1,"\u0062":2}}`, `1`, `{}`, `{"a":1}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		want, err := duplicatePaths(string(data))
		if err != nil {
			return
		}
		plain := NewDecoder(data)
		plain.Any()
		if len(plain.Errors()) >= MaxErrors {
			return
		}
		for _, e := range plain.Errors() {
			if e.Code == "encoding" {
				return // also reported by RawBytes, at the union
			}
		}
		for i := range want {
			want[i] = "/u" + want[i] + " duplicate"
		}
		if want == nil {
			want = []string{"/u anyOf"}
		}
		// Branches that read the whole value, and branches that read none.
		for _, u := range []branch{union("anyOf", never, never), union("anyOf", func(d *Decoder) { d.Skip(); d.Fail("not", "", "", "") })} {
			got, _ := decodeWith(t, `{"u":`+string(data)+`}`, u)
			if !slices.Equal(got, want) {
				t.Fatalf("%q: %q, want %q", data, got, want)
			}
		}
	})
}

// MarshalAnyOf merges the set branches' object members, the first's on a
// repeated key, encodes the first set branch when one is no object, and
// null when none is set.
func TestMarshalAnyOf(t *testing.T) {
	one := int64(1)
	num := 1.0
	for _, c := range []struct {
		name string
		vs   []any
		want string
	}{
		{"none set", []any{nil, nil}, `null`},
		{"no branches", nil, `null`},
		{"one set", []any{nil, map[string]int{"b": 1}}, `{"b":1}`},
		{"merged", []any{struct {
			A string `json:"a"`
		}{"x"}, map[string]int{"b": 1}}, `{"a":"x","b":1}`},
		{"first wins on a repeated key", []any{
			struct {
				A string `json:"a"`
				C int    `json:"c"`
			}{"x", 1},
			struct {
				C int `json:"c"`
				B int `json:"b"`
			}{2, 3},
		}, `{"a":"x","c":1,"b":3}`},
		{"empty object merged", []any{struct{}{}, map[string]int{"b": 1}}, `{"b":1}`},
		{"integer and number", []any{&one, &num}, `1`},
		{"first set branch, not an object", []any{nil, []int{1}, []string{"x"}}, `[1]`},
		{"object and array", []any{map[string]int{"b": 1}, []int{1}}, `{"b":1}`},
		{"array and object", []any{[]int{1}, map[string]int{"b": 1}}, `[1]`},
	} {
		got, err := MarshalAnyOf(json.Marshal, c.vs)
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s, %v; want %s", c.name, got, err, c.want)
		}
	}

	// Members are stepped over as text: blanks, nested values and strings
	// holding braces and quotes; a part that is no object text falls back
	// to the first.
	raw := func(v any) ([]byte, error) { return []byte(v.(string)), nil }
	for _, c := range []struct {
		vs   []any
		want string
	}{
		{[]any{` { "a" : {"}":"{"} , "b":[1,{"c":2}] } `, `{"b":0,"d":"\"}"}`}, `{"a":{"}":"{"},"b":[1,{"c":2}],"d":"\"}"}`},
		{[]any{`{"a":1}`, `{"b" 2}`}, `{"a":1}`},
		{[]any{`{"a":1}`, `{"b":2`}, `{"a":1}`},
		{[]any{`{"a":1}`, `"x"`}, `{"a":1}`},
	} {
		got, err := MarshalAnyOf(raw, c.vs)
		if err != nil || string(got) != c.want {
			t.Errorf("%q: got %s, %v; want %s", c.vs, got, err, c.want)
		}
	}

	boom := errors.New("boom")
	if _, err := MarshalAnyOf(func(any) ([]byte, error) { return nil, boom }, []any{1}); !errors.Is(err, boom) {
		t.Errorf("marshal error: got %v", err)
	}
}
