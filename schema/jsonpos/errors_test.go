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
	short := Errorf(ir.Pos{File: "a.json", Line: 1, Col: 2, Pointer: "/a/b"}, "bad").Error()
	if short != "a.json:1:2: /a/b: bad" {
		t.Errorf("short pointer: %s", short)
	}
}
