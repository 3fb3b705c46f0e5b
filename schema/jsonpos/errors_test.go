package jsonpos

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// TestLongPointerElided: an error about a value nested thousands deep names
// its pointer's first and last steps around "…", whole tokens only.
func TestLongPointerElided(t *testing.T) {
	ptr := strings.Repeat("/items", 2000) + "/type"
	msg := Errorf(ir.Pos{File: "a.json", Line: 1, Col: 2, Pointer: ptr}, "bad").Error()
	if len(msg) > maxShownPointer+40 || !strings.Contains(msg, "/items/…/items/") || !strings.HasSuffix(msg, "/items/type: bad") {
		t.Errorf("%d bytes: %s", len(msg), msg)
	}
	// A token longer than half the shown pointer is cut between
	// characters, the cut marked: no "/" appears that is not in the
	// pointer, and no character is split.
	long := strings.Repeat("é", 300)
	for _, c := range []struct{ ptr, want string }{
		{"/" + long, "/" + strings.Repeat("é", 99) + "…" + strings.Repeat("é", 100) + ": bad"},
		{"/a/" + long + "/b", "/a/…/b: bad"},
		{"/a/" + long, "/a/…" + strings.Repeat("é", 100) + ": bad"},
	} {
		msg := Errorf(ir.Pos{File: "a.json", Line: 1, Col: 2, Pointer: c.ptr}, "bad").Error()
		if want := "a.json:1:2: " + c.want; msg != want {
			t.Errorf("pointer of %d bytes:\n got %s\nwant %s", len(c.ptr), msg, want)
		}
	}
	short := Errorf(ir.Pos{File: "a.json", Line: 1, Col: 2, Pointer: "/a/b"}, "bad").Error()
	if short != "a.json:1:2: /a/b: bad" {
		t.Errorf("short pointer: %s", short)
	}
}

// TestLongMessageShortened: a message quoting a definition's text of a
// megabyte (a tool name) shows its start and its end, where the hint is,
// around " … ", cut between characters.
func TestLongMessageShortened(t *testing.T) {
	name := strings.Repeat("é", 500_000)
	msg := Errorf(ir.Pos{File: "a.json", Line: 1, Col: 2, Pointer: "/0/name"}, "tool name %q is rejected; rename the tool in its definition", name).Error()
	if len(msg) > maxShownMessage+100 || !strings.HasPrefix(msg, `a.json:1:2: /0/name: tool name "éé`) ||
		!strings.Contains(msg, "é … é") || !strings.HasSuffix(msg, `éé" is rejected; rename the tool in its definition`) {
		t.Errorf("%d bytes: %.120s … %s", len(msg), msg, msg[max(0, len(msg)-120):])
	}
	if m := strings.Repeat("x", maxShownMessage); Shorten(m) != m {
		t.Error("a message of maxShownMessage bytes was shortened")
	}
}

// TestShortenInvalidUTF8: a long message of bytes that start no character
// (a file name is any bytes) is cut too, not a panic.
func TestShortenInvalidUTF8(t *testing.T) {
	for _, msg := range []string{strings.Repeat("\x80", 3000), "a" + strings.Repeat("\x80", 3000), strings.Repeat("\x80", 3000) + "z"} {
		if got := Shorten(msg); len(got) > maxShownMessage+10 || !strings.Contains(got, " … ") {
			t.Errorf("Shorten of %d bytes: %d bytes", len(msg), len(got))
		}
	}
}

// TestElideInvalidUTF8: a long pointer of bytes that start no character
// is cut too, not a panic (elide looked for a character start without
// bound, past either end).
func TestElideInvalidUTF8(t *testing.T) {
	for _, ptr := range []string{"/" + strings.Repeat("\x80", 1000), strings.Repeat("\x80", 1000), "/a/" + strings.Repeat("\x80", 1000)} {
		msg := Errorf(ir.Pos{File: "a.json", Line: 1, Col: 2, Pointer: ptr}, "bad").Error()
		if len(msg) > 4*maxShownPointer+100 || !strings.Contains(msg, "…") || !strings.HasSuffix(msg, ": bad") { // Visible writes a byte as \x80
			t.Errorf("pointer of %d bytes: %d bytes: %q", len(ptr), len(msg), msg)
		}
	}
}
