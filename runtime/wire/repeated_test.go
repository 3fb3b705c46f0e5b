package wire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// duplicatePaths are the paths of the members Any reports as sent twice.
func duplicatePaths(data string) ([]string, error) {
	d := NewDecoder([]byte(data))
	d.Any()
	if err := d.Close(); err != nil {
		return nil, err
	}
	var out []string
	for _, e := range d.Errors() {
		if e.Code == "duplicate" {
			out = append(out, e.Path)
		}
	}
	return out, nil
}

func TestRepeatedMembers(t *testing.T) {
	manyN := func(n int, extra string) string { // an object of n members
		var b strings.Builder
		b.WriteString(`{`)
		for i := range n {
			if i > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"k%d":%d`, i, i)
		}
		if extra != "" {
			b.WriteString("," + extra)
		}
		b.WriteString(`}`)
		return b.String()
	}
	many := func(extra string) string { return manyN(manyKeys+8, extra) } // past manyKeys members
	cases := []struct {
		in   string
		want []string
	}{
		{`{"a":1,"b":2}`, nil},
		{`{"a":1,"a":2}`, []string{"/a"}},
		{`{"a":1,"b":2,"a":3,"a":4}`, []string{"/a", "/a"}},
		// escapes are the same key
		{`{"a":1,"\u0061":2}`, []string{"/a"}},
		{`{"\u0061":1,"a":2}`, []string{"/a"}},
		{`{"é":1,"\u00e9":2}`, []string{"/é"}},
		{`{"a":1,"A":2,"a ":3}`, nil},
		// the same key in sibling and nested objects is no repetition
		{`[{"a":1},{"a":2}]`, nil},
		{`{"a":{"a":{"a":1}},"b":{"a":2}}`, nil},
		{`{"a":{"x":1,"x":2},"b":1}`, []string{"/a/x"}},
		{`{"a":{"x":1},"x":2,"a":3}`, []string{"/a"}},
		// a key after a nested object compares with its own object's keys
		{`{"o":{"p":1,"q":2},"p":1,"q":2,"o":0}`, []string{"/o"}},
		// past manyKeys members the keys are kept in a set
		{many(``), nil},
		{many(`"k3":0`), []string{"/k3"}},
		{many(`"x":{"k3":0},"k999":1`), nil},
		{`[` + many(``) + `,` + many(``) + `]`, nil},
		{`{"a":` + many(`"k0":{"k0":1,"k0":2}`) + `,"k0":1}`, []string{"/a/k0", "/a/k0/k0"}},
		{many(`"\u006b1":1`), []string{"/k1"}},
		// escaped keys past manyKeys, compared decoded
		{many(`"\u0078":1,"x":2`), []string{"/x"}},
		// a key that is not Unicode is refused as such, not as a repetition,
		// also where it is the first key past manyKeys
		{`{"\ud800":1,"\udc00":2}`, nil},
		{many(`"\ud800":1,"k5":2`), []string{"/k5"}},
		// a set that grows past its first size keeps every key
		{manyN(5000, `"k4999":0,"k0":0,"k\u0032500":0,"new":0`), []string{"/k4999", "/k0", "/k2500"}},
		// sibling objects at one depth: the second starts with an empty set
		{`[` + manyN(1000, ``) + `,` + manyN(300, `"k299":1`) + `,` + manyN(80, ``) + `]`, []string{"/1/k299"}},
		{`{"a":` + manyN(1000, ``) + `,"b":` + manyN(70, `"k1":1`) + `,"k999":1,"a":2}`, []string{"/b/k1", "/a"}},
	}
	for _, c := range cases {
		got, err := duplicatePaths(c.in)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%.80s: duplicates at %q (%v), want %q", c.in, got, err, c.want)
		}
	}
}

// A union's branch decoder reads the object again: that is no repetition.
func TestRepeatedMembersBranch(t *testing.T) {
	d := NewDecoder([]byte(`{"v":{"a":1,"b":2},"w":1}`))
	if !d.Object() {
		t.Fatal("not an object")
	}
	for d.More() {
		if string(d.Key()) == "v" {
			for range 2 {
				b := d.Branch()
				b.Any()
				d.Adopt(&b)
			}
		}
		d.Skip()
	}
	if err := d.Close(); err != nil || len(d.Errors()) != 0 {
		t.Errorf("branches: %v %v", err, d.Errors())
	}
}

// hasRepeatedKey reports, by encoding/json's tokens, whether an object in
// data (valid JSON) holds a key twice.
func hasRepeatedKey(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	type level struct {
		keys   map[string]bool
		object bool
		key    bool // the next string token is a key
	}
	var stack []*level
	for {
		tok, err := dec.Token()
		if err != nil {
			return false
		}
		var top *level
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if s, ok := tok.(string); ok && top != nil && top.object && top.key {
			if top.keys[s] {
				return true
			}
			top.keys[s] = true
			top.key = false
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &level{keys: map[string]bool{}, object: true, key: true})
			continue
		case json.Delim('['):
			stack = append(stack, &level{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if len(stack) > 0 && stack[len(stack)-1].object {
			stack[len(stack)-1].key = true // a value ended: a key is next
		}
	}
}

// FuzzRepeatedMembers checks the decoder's repeated keys against
// encoding/json's tokens.
func FuzzRepeatedMembers(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `{"a":{"b":1},"b":{"b":2}}`, `[{"x":1},{"x":1}]`, `{"\u0061":1,"a":2}`} {
		f.Add([]byte(s))
	}
	// objects past manyKeys members, whose keys go to a table
	var b strings.Builder
	b.WriteString(`[{`)
	for i := range 3 * manyKeys {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"k\u0037":0},{`)
	for i := range manyKeys + 2 {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"x":0}]`)
	f.Add([]byte(b.String()))
	f.Fuzz(func(t *testing.T, data []byte) {
		d := NewDecoder(data)
		d.Any()
		if d.Close() != nil || len(d.Errors()) >= MaxErrors {
			return
		}
		got := false
		for _, e := range d.Errors() {
			switch e.Code {
			case "duplicate":
				got = true
			case "encoding":
				return // keys that are not Unicode decode differently
			}
		}
		if want := hasRepeatedKey(data); got != want {
			t.Fatalf("%q: repeated key reported %v, encoding/json tokens say %v", data, got, want)
		}
	})
}

// Valid JSON nested past maxDepth is refused as too deep, not as invalid
// JSON, whether it is read or skipped.
func TestTooDeep(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+2) + strings.Repeat("]", maxDepth+2)
	for _, in := range []string{deep, `{"a":` + deep + `}`} {
		d := NewDecoder([]byte(in))
		if d.Object() {
			for d.More() {
				d.Skip()
			}
		} else {
			d = NewDecoder([]byte(in))
			d.Any()
		}
		err := d.Report("t", nil)
		if err == nil || !strings.Contains(err.Error(), "nests more than 512 arrays and objects deep") || strings.Contains(err.Error(), "invalid JSON") {
			t.Errorf("%.20s: %v", in, err)
		}
	}
}

// An unknown member that shortens a known one is told which: the flat
// surface suggests as the gateway does ("lim" for limit).
func TestUnknownSuggests(t *testing.T) {
	d := NewDecoder([]byte(`{"lim":1}`))
	d.Object()
	for d.More() {
		d.Unknown([]string{"state", "tag", "limit"})
	}
	if errs := d.Errors(); len(errs) != 1 || errs[0].Suggestion != "limit" {
		t.Errorf("errors %+v, want a suggestion of limit", errs)
	}
}

// The first key past manyKeys may be one that is not Unicode (not
// compared): the set is still filled for the keys after it.
func TestRepeatedBadKeyAtSetEdge(t *testing.T) {
	var b strings.Builder
	b.WriteString("{")
	for i := range manyKeys {
		fmt.Fprintf(&b, `"k%d":%d,`, i, i)
	}
	b.WriteString(`"\ud800":0,"k3":1,"z":2}`)
	got, err := duplicatePaths(b.String())
	if err != nil || !slices.Equal(got, []string{"/k3"}) {
		t.Errorf("duplicates at %q (%v), want /k3", got, err)
	}
}

// A number that underflows to 0 is refused like one that overflows: the
// handler would see 0, and -1e-400 would pass minimum 0.
func TestFloatUnderflow(t *testing.T) {
	for in, bad := range map[string]bool{
		"1e-400": true, "-1e-400": true, "0.0e-400": false, "0": false, "-0.0": false,
		"4.9e-324": false, "1e-300": false, "00": false,
	} {
		d := NewDecoder([]byte(in))
		d.Float()
		if got := len(d.Errors()) > 0; got != bad && d.Err() == nil {
			t.Errorf("%s: refused %v, want %v (%v)", in, got, bad, d.Errors())
		}
	}
}
