package text

import "testing"

func TestRepeatedMember(t *testing.T) {
	for _, c := range []struct {
		obj  string
		name string
		ok   bool
	}{
		{`{}`, "", false},
		{`{"op":"a","args":{"op":1,"op":2}}`, "", false},
		{`{"op":"a","op":"b"}`, "op", true},
		{` { "a" : [1,{"b":2}] , "c":"}" , "a":null } `, "a", true},
		{`{"op":"a","\u006fp":"b"}`, "op", true},
		{`{"Op":"a","op":"b"}`, "", false},
		{`[{"a":1,"a":2}]`, "", false},
	} {
		name, ok := RepeatedMember([]byte(c.obj))
		if name != c.name || ok != c.ok {
			t.Errorf("RepeatedMember(%s) = %q, %v; want %q, %v", c.obj, name, ok, c.name, c.ok)
		}
	}
}

func TestItems(t *testing.T) {
	for _, c := range []struct {
		arr   string
		items []string
		ok    bool
	}{
		{`[]`, nil, true},
		{` [ ] `, nil, true},
		{`[1,"a",null,true,-2.5e1]`, []string{`1`, `"a"`, `null`, `true`, `-2.5e1`}, true},
		{` [ "x\"]" , [1,[2]] , {"a":"]"} ] `, []string{`"x\"]"`, `[1,[2]]`, `{"a":"]"}`}, true},
		{`{"a":1}`, nil, false},
		{`"[1]"`, nil, false},
		{``, nil, false},
	} {
		var got []string
		ok := Items([]byte(c.arr), func(v []byte) bool {
			got = append(got, string(v))
			return true
		})
		if ok != c.ok || len(got) != len(c.items) {
			t.Errorf("Items(%s) = %q, %v; want %q, %v", c.arr, got, ok, c.items, c.ok)
			continue
		}
		for i := range got {
			if got[i] != c.items[i] {
				t.Errorf("Items(%s) = %q, want %q", c.arr, got, c.items)
			}
		}
	}
	n := 0
	Items([]byte(`[1,2,3]`), func([]byte) bool { n++; return n < 2 })
	if n != 2 {
		t.Errorf("Items went on after false: %d calls", n)
	}
}
