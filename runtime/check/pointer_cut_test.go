package check

import (
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestSchemaPointersAreBounded checks that the violations of a value
// nested deep under long member names have pointers of at most
// maxPointerBytes, keeping their first tokens and ending in "/…": 500
// levels under 300-byte names gave each of 1,000 violations a 128 kB
// pointer (500 MB allocated for 160 kB of arguments). Short ones are
// whole, after the prefix.
func TestSchemaPointersAreBounded(t *testing.T) {
	s := MustSchema(`{"type":"object","additionalProperties":{"$ref":"#"}}`)
	doc := func(depth, keyLen, members int) any {
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
			b.WriteString(`"` + strconv.Itoa(i) + `":1`)
		}
		b.WriteString("}" + strings.Repeat("}", depth))
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(b.String()))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	long := strings.Repeat("k", maxTokenBytes-len("…"))
	for _, tc := range []struct {
		name                   string
		depth, keyLen, members int
		prefix                 string
		cut                    bool
	}{
		{"shallow", 2, 300, 3, "/p", false},
		{"deep", 500, 300, 20, "/p", true},
		{"deep after a long prefix", 500, 300, 20, "/" + strings.Repeat("p", 1000), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			found := s.Validate(doc(tc.depth, tc.keyLen, tc.members), tc.prefix)
			if len(found) != tc.members {
				t.Fatalf("%d violations, want %d", len(found), tc.members)
			}
			for _, f := range found {
				if len(f.Path) > maxPointerBytes && len(tc.prefix) < maxPointerBytes {
					t.Fatalf("pointer of %d bytes, more than %d", len(f.Path), maxPointerBytes)
				}
				if got := strings.HasSuffix(f.Path, pointerCutMark); got != tc.cut {
					t.Fatalf("pointer %.60q… cut %v, want %v", f.Path, got, tc.cut)
				}
				if len(tc.prefix) < 10 && !strings.HasPrefix(f.Path, tc.prefix+"/"+long+"…/"+long+"…/") {
					t.Fatalf("pointer %.60q… does not keep its first tokens", f.Path)
				}
			}
		})
	}
}

// TestPointerBelowCutPrefix: a prefix the decoder cut (ending in "/…")
// is the violations' pointer, rather than going on after its mark or,
// when it took up the room, being cut to "/…" alone; a long prefix is cut
// at one of its tokens.
func TestPointerBelowCutPrefix(t *testing.T) {
	key := strings.Repeat("v", 250)
	near := strings.Repeat("/"+key, 4) + "/" + strings.Repeat("w", 15) + pointerCutMark // 1,023 bytes
	mid := strings.Repeat("/"+key, 3) + pointerCutMark
	long := strings.Repeat("/"+key, 5)
	for _, tc := range []struct{ name, prefix, want string }{
		{"whole", "/a", "/a/3/name"},
		{"cut, near the limit", near, near},
		{"cut", mid, mid},
		{"long", long, strings.Repeat("/"+key, 4) + pointerCutMark},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := pointer(tc.prefix, []string{"3", "name"}); got != tc.want {
				t.Errorf("got %q (%d bytes), want %q", got[max(0, len(got)-40):], len(got), tc.want[max(0, len(tc.want)-40):])
			}
		})
	}
}
