package tsdecl_test

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/codemode/tsdecl"
)

func TestComment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", ""},
		{"one line", "/** one line */\n"},
		{"ends */ here", "/** ends *\\/ here */\n"},
		{"**/", "/** **\\/ */\n"},
		{"a\r\nb\rc\u2028d\u2029e\u0085f", "/**\n * a\n * b\n * c\n * d\n * e\n * f\n */\n"},
		{"nul \x00 bell \a rtl \u202e bom \ufeff", "/** nul \\u0000 bell \\u0007 rtl \\u202e bom \\ufeff */\n"},
		{"  \n\nspaced\n\n", "/** spaced */\n"},
		{"para\n\nnext", "/**\n * para\n *\n * next\n */\n"},
	}
	for _, tt := range tests {
		if got := tsdecl.Comment(tt.in, ""); got != tt.want {
			t.Errorf("Comment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := tsdecl.Comment("x", "  "); got != "  /** x */\n" {
		t.Errorf("indent: %q", got)
	}
}

func TestString(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"nl\ncr\rtab\t", `"nl\ncr\rtab\t"`},
		{"\u2028\u2029\x00\u200b", `"\u2028\u2029\u0000\u200b"`},
		{"bad \xff utf8", "\"bad \ufffd utf8\""},
		{"*/", `"*/"`},
	}
	for _, tt := range tests {
		if got := tsdecl.String(tt.in); got != tt.want {
			t.Errorf("String(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

func TestNames(t *testing.T) {
	for in, want := range map[string]string{"task": "task", "delete": "delete", "create-x": `"create-x"`, "0-18": `"0-18"`, "": `""`, "$ref": "$ref"} {
		if got := tsdecl.PropertyName(in); got != want {
			t.Errorf("PropertyName(%q) = %s, want %s", in, got, want)
		}
	}
	got := tsdecl.Idents([]string{"onto", "delete", "my-group", "my_group", "9lives", "Promise", "console", "", "escape", "Reflect", "parseInt", "GoError"})
	want := []string{"onto", "delete_", "my_group", "my_group2", "_9lives", "Promise_", "console_", "_", "escape_", "Reflect_", "parseInt_", "GoError_"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Idents = %v, want %v", got, want)
	}
}

// collision has an op named like its group, an op with children and an
// op path segment that is not an identifier.
var collision = tsdecl.Decls{
	Groups: []tsdecl.Group{{Name: "a", Ident: "a", Summary: "Group */ a"}, {Name: "b", Ident: "b"}},
	Types: []tsdecl.Type{
		{Group: "a", Name: "P", Text: "interface P {\n  x?: a.Q;\n}\n", Uses: []int{1}},
		{Group: "a", Name: "Q", Text: "type Q = string;\n"},
		{Group: "b", Name: "R", Text: "type R = number;\n"},
	},
	Ops: []tsdecl.Op{
		{Path: "a", Group: "a", Sig: "(args?: a.P): Promise<unknown>", Uses: []int{0}},
		{Path: "a.item", Group: "a", Key: []string{"item"}, Doc: "/** item */\n", Sig: "(args?: a.P): Promise<unknown>", Uses: []int{0}},
		{Path: "a.item.get", Group: "a", Key: []string{"item", "get"}, Sig: "(): Promise<unknown>"},
		{Path: "a.create-x", Group: "a", Key: []string{"create-x"}, Sig: "(): Promise<unknown>"},
		{Path: "b.r.list", Group: "b", Key: []string{"r", "list"}, Sig: "(args: b.R): Promise<unknown>", Uses: []int{2}},
	},
}

// TestRender: the group constant is callable when an op is named like its
// group, an op with children is an object type with a call signature, and
// a path segment that is not an identifier is quoted (tsc accepts this
// shape: checked by hand with the pinned compiler).
func TestRender(t *testing.T) {
	got := collision.Render()
	want := tsdecl.Preamble + `declare namespace a {
  interface P {
    x?: a.Q;
  }
  type Q = string;
}
declare namespace b {
  type R = number;
}
/** Group *\/ a */
declare const a: {
  (args?: a.P): Promise<unknown>;
  item: {
    /** item */
    (args?: a.P): Promise<unknown>;
    get(): Promise<unknown>;
  };
  "create-x"(): Promise<unknown>;
};
declare const b: {
  r: {
    list(args: b.R): Promise<unknown>;
  };
};
`
	if got != want {
		t.Errorf("Render:\n%s\nwant:\n%s", got, want)
	}
	// One op: only the types it reaches, only its group.
	one := collision.RenderOps(func(i int) bool { return i == 1 })
	if !strings.Contains(one, "interface P") || !strings.Contains(one, "type Q") || strings.Contains(one, "type R") ||
		strings.Contains(one, "declare const b") || strings.Contains(one, "get()") {
		t.Errorf("RenderOps(a.item):\n%s", one)
	}
	if m := collision.Match("a.item"); len(m) != 2 || m[0] != 1 || m[1] != 2 {
		t.Errorf("Match(a.item) = %v", m)
	}
	if m := collision.Match("a.ite"); len(m) != 0 {
		t.Errorf("Match(a.ite) = %v", m)
	}
}
