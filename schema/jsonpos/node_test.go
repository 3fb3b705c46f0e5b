package jsonpos

import (
	"math"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// TestMemberKeyPos: a member keeps its key's line and column and takes the
// file and pointer of its value; a member made without a key position, or
// with one past int32, has its value's position (none without a value).
func TestMemberKeyPos(t *testing.T) {
	v := &Node{Kind: StringNode, Pos: ir.Pos{File: "f.json", Line: 7, Col: 9, Pointer: "/a"}}
	for _, c := range []struct {
		name string
		m    Member
		want ir.Pos
	}{
		{"parsed", NewMember("a", ir.Pos{File: "f.json", Line: 7, Col: 3, Pointer: "/a"}, v), ir.Pos{File: "f.json", Line: 7, Col: 3, Pointer: "/a"}},
		{"made", Member{Key: "a", Value: v}, v.Pos},
		{"line past int32", NewMember("a", ir.Pos{Line: math.MaxInt32 + 1, Col: 3}, v), v.Pos},
		{"column past int32", NewMember("a", ir.Pos{Line: 7, Col: math.MaxInt32 + 1}, v), v.Pos},
		{"no line", NewMember("a", ir.Pos{Col: 3}, v), v.Pos},
		{"no value", NewMember("a", ir.Pos{Line: 7, Col: 3}, nil), ir.Pos{Line: 7, Col: 3}},
	} {
		if got := c.m.KeyPos(); got != c.want {
			t.Errorf("%s: KeyPos() = %+v, want %+v", c.name, got, c.want)
		}
	}
}

// TestAppendJSON: AppendJSON writes JSON's bytes after what dst holds.
func TestAppendJSON(t *testing.T) {
	n, err := Parse("f.json", []byte(`{"a":[1,"x\u2028",true,null],"b":{"c":-0.5e+3}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "prefix" + string(n.JSON())
	if got := string(n.AppendJSON([]byte("prefix"))); got != want {
		t.Errorf("AppendJSON = %s, want %s", got, want)
	}
}

func TestPointer(t *testing.T) {
	root, err := Parse("t.json", []byte(`{"a":[{"b~c/d":1}],"":{"x":2},"07":3}`))
	if err != nil {
		t.Fatal(err)
	}
	for ptr, want := range map[string]string{
		"":             `{"a":[{"b~c/d":1}],"":{"x":2},"07":3}`,
		"/a/0/b~0c~1d": "1",
		"//x":          "2",
		"/07":          "3",
		"/a/00":        "",
		"/a/1":         "",
		"/a/-1":        "",
		"/nope":        "",
		"a":            "",
	} {
		got := ""
		if n := root.Pointer(ptr); n != nil {
			got = string(n.JSON())
		}
		if got != want {
			t.Errorf("Pointer(%q) = %s, want %s", ptr, got, want)
		}
	}
}
