package text

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// Names are decoded as encoding/json decodes them.
func TestAppendUnquoted(t *testing.T) {
	names := []string{`a`, `\u0061`, `\ud83d\ude00`, `\ud83d`, `\ud83dx`, `\ud83d\u0041`, `\udc00\ud800`, "caf\xc3\xa9", "bad\xff\xfe", `\"\\\/\b\f\n\r\t`,
		`\u00e9t\u00C9`, `\u2028`, `x\u0000y`, `\'`}
	for _, n := range names {
		var want string
		if err := json.Unmarshal([]byte(`"`+n+`"`), &want); err != nil && n != `\'` {
			t.Fatalf("%q: %v", n, err)
		}
		if n == `\'` {
			want = "'" // encoding/json's unquote takes it; its scanner does not
		}
		if got := string(AppendUnquoted(nil, []byte(n))); got != want {
			t.Errorf("AppendUnquoted(%q) = %q, want %q", n, got, want)
		}
	}
}

// RepeatedMember finds the repeated name a map of names decoded by
// encoding/json finds, in objects small (compared in place) and large
// (through a NameSet), and in text that is not an object.
func TestRepeatedMemberAgainstMap(t *testing.T) {
	objects := []string{`{}`, `{"a":1}`, `{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"b":[1,{"a":1,"a":2}],"a":{}}`,
		`{"a":1,"b":2,"b":3,"a":4}`, `not json`, `{"a":1,`, `[1,2]`, `{"\ud83d":1,"\ud83d\u0041":2,"\ufffd":3}`}
	var many strings.Builder
	many.WriteString(`{"k":0`)
	for i := range 40 {
		many.WriteString(`,"k` + strconv.Itoa(i) + `":1`)
	}
	objects = append(objects, many.String()+`}`, many.String()+`,"k\u0031\u0037":2}`, many.String()+`,"k":2}`)
	for _, o := range objects {
		want, wantOK := repeatedByMap(o)
		if got, ok := RepeatedMember([]byte(o)); got != want || ok != wantOK {
			t.Errorf("RepeatedMember(%.80s) = %q, %v; want %q, %v", o, got, ok, want, wantOK)
		}
	}
}

// repeatedByMap is RepeatedMember written plainly: each name decoded by
// encoding/json, kept in a map.
func repeatedByMap(obj string) (string, bool) {
	seen := map[string]bool{}
	r := NewMemberReader([]byte(obj))
	for {
		m, ok := r.Next()
		if !ok {
			return "", false
		}
		var name string
		if json.Unmarshal(m.Quoted, &name) != nil {
			return "", false
		}
		if seen[name] {
			return name, true
		}
		seen[name] = true
	}
}

// A reader reads each member in order, and a member again from its
// offset.
func TestMemberReader(t *testing.T) {
	obj := []byte(` { "a" : 1 , "b\u0021" : [1, {"c":2}], "d":"x" } `)
	r := NewMemberReader(obj)
	var offs []int
	var got []string
	for {
		off := r.Offset()
		m, ok := r.Next()
		if !ok {
			break
		}
		offs = append(offs, off)
		got = append(got, string(m.Name)+"="+string(m.Value))
	}
	if want := `a=1 b!=[1, {"c":2}] d="x"`; strings.Join(got, " ") != want {
		t.Errorf("members %q, want %q", strings.Join(got, " "), want)
	}
	if m, ok, _ := MemberAt(obj, offs[1], nil); !ok || string(m.Name) != "b!" || string(m.Quoted) != `"b\u0021"` {
		t.Errorf("MemberAt(%d) = %q %q, %v", offs[1], m.Name, m.Quoted, ok)
	}
	if n, size := CountMembers(obj); n != 3 || size != 4 {
		t.Errorf("CountMembers = %d, %d; want 3, 4", n, size)
	}
	for _, bad := range []string{`[1]`, `"s"`, ``, `{"a"}`, `{"a":}`} {
		r := NewMemberReader([]byte(bad))
		if _, ok := r.Next(); ok {
			t.Errorf("%q: a member read", bad)
		}
	}
}

// FuzzMemberReader: on any text the reader ends without panicking, and on
// a JSON object it reads the members encoding/json reads, names decoded
// the same way.
func FuzzMemberReader(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":1,"b":[1,{"c":2}]}`, `{"\u0061\ud83d\ude00":"x","\ud800":null}`, "{\"caf\xc3\xa9\":1,\"bad\xff\":2}", `{"a":1,`, `[1]`, `{"a"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, obj []byte) {
		r := NewMemberReader(obj)
		var names []string
		for {
			m, ok := r.Next()
			if !ok {
				break
			}
			names = append(names, string(m.Name))
		}
		dec := json.NewDecoder(strings.NewReader(string(obj)))
		tok, err := dec.Token()
		if err != nil || tok != json.Delim('{') || !json.Valid(obj) {
			return
		}
		var want []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return
			}
			var v json.RawMessage
			if dec.Decode(&v) != nil {
				return
			}
			want = append(want, k.(string))
		}
		if strings.Join(names, "\x00") != strings.Join(want, "\x00") || len(names) != len(want) {
			t.Errorf("%q: names %q, encoding/json %q", obj, names, want)
		}
	})
}
