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
