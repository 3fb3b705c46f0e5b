package wire

import (
	"strings"
	"testing"
)

// decodeTree reads an object whose members are objects of the same kind
// (additionalProperties: {$ref: "#"}): a member that is not an object is
// a type error at its pointer.
func decodeTree(d *Decoder) {
	if !d.Object() {
		return
	}
	for d.More() {
		decodeTree(d)
	}
}

// deepDoc nests depth objects under member names of keyLen bytes, the
// innermost holding members a0, a1, ... of the number 1.
func deepDoc(depth, keyLen, members int) []byte {
	var b strings.Builder
	key := strings.Repeat("k", keyLen)
	for range depth {
		b.WriteString(`{"` + key + `":`)
	}
	b.WriteString("{")
	for i := range members {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"a` + strings.Repeat("x", i) + `":1`)
	}
	b.WriteString("}")
	b.WriteString(strings.Repeat("}", depth))
	return []byte(b.String())
}

// TestPointersAreBounded checks that the pointers of errors stay within
// MaxPointerBytes however deep and long-named the value: 500 levels under
// 300-byte names gave each of 100 errors a 128 kB pointer (12.8 MB for
// 153 kB of arguments). A cut pointer keeps its first tokens whole and
// ends in "/…"; a short one is whole.
func TestPointersAreBounded(t *testing.T) {
	long := strings.Repeat("k", MaxTokenBytes-len("…"))
	for _, tc := range []struct {
		name                 string
		depth, keyLen, items int
		cut                  bool
	}{
		{"shallow", 3, 10, 5, false},
		{"long names, shallow", 3, 300, 5, false},
		{"deep", 500, 300, 100, true},
		{"deep short names", 500, 1, 3, false},
		{"deeper short names", 510, 2, 3, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDecoder(deepDoc(tc.depth, tc.keyLen, tc.items))
			decodeTree(d)
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			errs := d.Errors()
			if len(errs) != tc.items {
				t.Fatalf("%d errors, want %d", len(errs), tc.items)
			}
			for _, f := range errs {
				if len(f.Path) > MaxPointerBytes {
					t.Fatalf("pointer of %d bytes, more than %d", len(f.Path), MaxPointerBytes)
				}
				if got := strings.HasSuffix(f.Path, pointerCutMark); got != tc.cut {
					t.Fatalf("pointer %.60q… cut %v, want %v", f.Path, got, tc.cut)
				}
				if tc.keyLen == 300 && !strings.HasPrefix(f.Path, "/"+long+"…/"+long+"…/") {
					t.Fatalf("pointer %.60q… does not keep its first tokens", f.Path)
				}
			}
		})
	}
}

// TestPathPointersAreBounded is TestPointersAreBounded for the pointers
// validators record (Path) and for Missing's.
func TestPathPointersAreBounded(t *testing.T) {
	key := strings.Repeat("v", 300)
	var build func(p *Path, n int, e *Errors)
	build = func(p *Path, n int, e *Errors) {
		if n == 0 {
			e.Add(p, "type", "expected object", "", "", "")
			return
		}
		c := p.Key(key)
		build(&c, n-1, e)
	}
	var e Errors
	build(nil, 500, &e)
	base := At("/" + key)
	c := base.Index(3)
	e.Add(&c, "type", "expected object", "", "", "")
	for _, f := range e.List() {
		if len(f.Path) > MaxPointerBytes || !strings.HasSuffix(f.Path, pointerCutMark) && len(f.Path) > 400 {
			t.Fatalf("pointer of %d bytes: %.60q…", len(f.Path), f.Path)
		}
	}
	if got := e.List()[1].Path; got != "/"+key+"/3" {
		t.Fatalf("short pointer %q", got)
	}

	d := NewDecoder(deepDoc(500, 300, 0))
	for range 500 {
		if !d.Object() || !d.More() {
			t.Fatal("structure")
		}
	}
	if !d.Object() {
		t.Fatal("structure")
	}
	d.Missing("name")
	if len(d.Errors()) != 1 || len(d.Errors()[0].Path) > MaxPointerBytes {
		t.Fatalf("Missing: %d errors, pointer of %d bytes", len(d.Errors()), len(d.Errors()[0].Path))
	}
}

// TestPathBelowCutPointer: a validator's path below a base (At) the
// decoder cut (ending in "/…") stays that pointer, rather than going on
// after its mark or, when the base took up the room, being cut to "/…"
// alone; a base longer than MaxPointerBytes is cut at a token.
func TestPathBelowCutPointer(t *testing.T) {
	key := strings.Repeat("v", 250)
	long := strings.Repeat("/"+key, 5) // 1,255 bytes
	// The decoder's pointer of a value 5 levels under 250-byte names.
	d := NewDecoder(deepDoc(5, 250, 0))
	for range 5 {
		if !d.Object() || !d.More() {
			t.Fatal("structure")
		}
	}
	cut := d.Path()
	if !strings.HasSuffix(cut, pointerCutMark) {
		t.Fatalf("decoder pointer %q not cut", cut)
	}
	short := strings.Repeat("/"+key, 3)
	for _, tc := range []struct{ name, base, want string }{
		{"short", short, short + "/3/name"},
		{"cut by the decoder", cut, cut},
		{"long", long, strings.Repeat("/"+key, 4) + pointerCutMark},
		{"cut short", "/a" + pointerCutMark, "/a" + pointerCutMark},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := At(tc.base)
			i := base.Index(3)
			k := i.Key("name")
			if got := k.String(); got != tc.want {
				t.Errorf("got %q (%d bytes), want %q", got[max(0, len(got)-40):], len(got), tc.want[max(0, len(tc.want)-40):])
			}
		})
	}
}
