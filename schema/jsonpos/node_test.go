package jsonpos

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
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
		// RFC 6901: an index is "0" or digits without a leading zero, no
		// sign (strconv.Atoi reads "+0" and "-0" as 0).
		"/a/+0":  "",
		"/a/-0":  "",
		"/a/0 ":  "",
		"/a/0/b": "",
		"/nope":  "",
		"a":      "",
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

// wideObject is the text of an object of n members "k0" … "k<n-1>", each
// the number of its place.
func wideObject(n int) []byte {
	var b strings.Builder
	b.WriteByte('{')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `"k%d":%d`, i, i)
	}
	b.WriteByte('}')
	return []byte(b.String())
}

// A wide parsed object's keys are found through an index (a $ref into a
// $defs of n entries, resolved n times, scanned n² members without it),
// and Get stays right when the members change afterwards.
func TestGetWideObject(t *testing.T) {
	const n = 200
	root, err := Parse("t.json", wideObject(n))
	if err != nil {
		t.Fatal(err)
	}
	if root.index == nil {
		t.Fatalf("a parsed object of %d members has no index: each Get scans it", n)
	}
	for i := range n {
		if v := root.Get(fmt.Sprintf("k%d", i)); v == nil || v.Num != strconv.Itoa(i) {
			t.Fatalf("Get(k%d) = %v", i, v)
		}
	}
	if root.Get("k200") != nil || root.Pointer("/nope") != nil {
		t.Fatal("a missing key was found")
	}
	if v := root.Pointer("/k150"); v == nil || v.Num != "150" {
		t.Fatalf("Pointer(/k150) = %v", v)
	}

	// A copy with members of its own (as the compiler makes) shares the
	// index; changing the copy leaves the original's answers whole.
	cp := *root
	cp.Members = slices.Clone(root.Members)
	if cp.Get("k7").Num != "7" {
		t.Fatal("a copy's Get is wrong")
	}
	cp.RemoveMember(0)
	cp.AddMember(Member{Key: "added", Value: &Node{Kind: NumberNode, Num: "-1"}})
	if cp.Get("k0") != nil || cp.Get("added") == nil || cp.Get("k199").Num != "199" {
		t.Fatal("Get is wrong after RemoveMember and AddMember")
	}
	if root.Get("k0").Num != "0" || root.Get("added") != nil {
		t.Fatal("changing a copy changed the original's answers")
	}

}

func BenchmarkPointerWideDefs(b *testing.B) {
	for _, n := range []int{1000, 16000} {
		root, err := Parse("t.json", wideObject(n))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strconv.Itoa(n), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if root.Pointer("/k"+strconv.Itoa(i%n)) == nil {
					b.Fatal("not found")
				}
			}
		})
	}
}
