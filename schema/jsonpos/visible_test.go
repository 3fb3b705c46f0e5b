package jsonpos

import (
	"strings"
	"testing"
	"unicode"

	"github.com/toolgen-go/toolgen/schema/ir"
)

func TestVisible(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain", "plain"},
		{"café 東京 🙂 \\u001b \"q\"", "café 東京 🙂 \\u001b \"q\""},
		{"\x1b]0;PWN\a\x1b[2J", `\u001b]0;PWN\u0007\u001b[2J`},
		{"a\nb\rc\td", `a\nb\rc\td`},
		{"\x00\x7f\u0085\u009b", `\u0000\u007f\u0085\u009b`},
		{"x\u202ey\u202a\u2066\u2069", `x\u202ey\u202a\u2066\u2069`},
		{"\u2028\u2029\ufeff\u200b\u200f\u061c", `\u2028\u2029\ufeff\u200b\u200f\u061c`},
		{"tag\U000e0041", `tag\U000e0041`},
		{"bad\xff\xc3", `bad\xff\xc3`},
		{"\ufffd", "\ufffd"},
	} {
		if got := Visible(c.in); got != c.want {
			t.Errorf("Visible(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestErrorVisible: a located error whose pointer and message carry
// definition text prints as one line with no control or bidi character,
// so a property name cannot forge a line or drive the terminal.
func TestErrorVisible(t *testing.T) {
	hostile := "x\n/tmp/t.json:1:1: all good, 0 errors\x1b[2K\u202e"
	e := Errorf(ir.Pos{File: "t.json", Line: 1, Col: 5, Pointer: "/properties/" + hostile + "/pattern"}, "invalid pattern %q: unterminated [] set in `%s`", hostile, hostile)
	got := e.Error()
	want := `t.json:1:5: /properties/x\n/tmp/t.json:1:1: all good, 0 errors\u001b[2K\u202e/pattern: invalid pattern "x\n/tmp/t.json:1:1: all good, 0 errors\x1b[2K\u202e": unterminated [] set in ` + "`" + `x\n/tmp/t.json:1:1: all good, 0 errors\u001b[2K\u202e` + "`"
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	for _, r := range (ErrorList{e, e}).Error() {
		if r != '\n' && unicode.In(r, unicode.Cc, unicode.Cf, unicode.Zl, unicode.Zp) {
			t.Errorf("control character %U in %q", r, got)
		}
	}
	if strings.Count(ErrorList{e, e}.Error(), "\n") != 1 {
		t.Errorf("error list of two is not two lines")
	}
}
