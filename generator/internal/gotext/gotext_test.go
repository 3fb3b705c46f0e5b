package gotext

import (
	"go/ast"
	"go/format"
	"go/parser"
	"go/token"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestComment(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"\n \n", nil},
		{"List issues.", []string{"// List issues."}},
		{"a\n\nb  \n", []string{"// a", "//", "// b"}},
		{"a\r\nb\rc", []string{"// a", "// b", "// c"}},
		{"//go:generate touch /tmp/x", []string{"// //go:generate touch /tmp/x"}},
		{"x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/", []string{"// x", "// /*", `// */ func init() { panic("pwned") } /*`, "// */"}},
		{"+build ignore", []string{`// \x2bbuild ignore`}},
		{"\t+build linux", []string{`// ` + "\t" + `\x2bbuild linux`}},
		{"\u00a0+BUILD x", []string{"// \u00a0\\x2bBUILD x"}},
		{"go:build x", []string{"// go:build x"}},
		{"see // +build and +Build", []string{`// see // \x2bbuild and \x2bBuild`}},
		{"a\x00b\x7fc\u0085d", []string{`// a\x00b\x7fc\u0085d`}},
		{"\ufeffbom", []string{`// \ufeffbom`}},
		{"evil\u202egnp.exe \u2066x\u2069", []string{`// evil\u202egnp.exe \u2066x\u2069`}},
		{"a\u2028b\u2029c", []string{`// a\u2028b\u2029c`}},
		{"bad \xff\xfe utf8", []string{`// bad \xff\xfe utf8`}},
		{"tag \U000e0041", []string{`// tag \U000e0041`}},
		{"tab\there", []string{"// tab\there"}},
		{"é 日本 `q` \"d\" \\n", []string{"// é 日本 `q` \"d\" \\n"}},
	} {
		got := Comment(tc.in)
		if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
			t.Errorf("Comment(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestCommentLine(t *testing.T) {
	if got, want := CommentLine("a\nb\r//go:x"), `// a\nb\r//go:x`; got != want {
		t.Errorf("CommentLine = %q, want %q", got, want)
	}
	if got := CommentLine(""); got != "//" {
		t.Errorf("CommentLine(\"\") = %q", got)
	}
}

func TestLiteral(t *testing.T) {
	for _, tc := range []struct {
		in   string
		raw  bool
		want string
	}{
		{`{"type":"object"}`, true, "`{\"type\":\"object\"}`"},
		{`{"type":"object"}`, false, `"{\"type\":\"object\"}"`},
		{"a`b", true, "\"a`b\""},
		{"a\nb", true, `"a\nb"`},
		{"a\rb", true, `"a\rb"`},
		{"a\x00b", true, `"a\x00b"`},
		{"\ufeff", true, `"\ufeff"`},
		{"\u202e", true, `"\u202e"`},
		{"\xff", true, `"\xff"`},
		{"tab\t", true, "`tab\t`"},
		{"日本", true, "`日本`"},
	} {
		if got := Literal(tc.in, tc.raw); got != tc.want {
			t.Errorf("Literal(%q, %v) = %s, want %s", tc.in, tc.raw, got, tc.want)
		}
		if got := string(AppendLiteral([]byte("x"), tc.in, tc.raw)); got != "x"+tc.want {
			t.Errorf("AppendLiteral(%q, %v) = %s, want x%s", tc.in, tc.raw, got, tc.want)
		}
	}
}

func TestIsNumber(t *testing.T) {
	for s, want := range map[string]bool{
		"0": true, "-1": true, "1.5": true, "1e400": true, "-0.5E-3": true,
		"": false, "01": false, "1.": false, ".5": false, "+1": false, "1e": false,
		"1)": false, "1; panic(0)": false, "0x10": false, "NaN": false, "1_000": false,
	} {
		if got := IsNumber(s); got != want {
			t.Errorf("IsNumber(%q) = %v", s, got)
		}
	}
}

// FuzzText puts arbitrary text into a comment and a literal of a Go file:
// the file always parses, holds exactly the declarations around them, no
// comment line is a directive, and the literal's value is the text.
func FuzzText(f *testing.F) {
	for _, s := range []string{"", "x\n/*\n*/ func init() { panic(\"pwned\") } /*\n*/", "//go:generate touch /tmp/x",
		"\x00\ufeff\u202e\r\u2028`\"\\\xff", "+build ignore", "\n//line x.go:1\n", "*/", "// +build x",
		"Lists:\n - a\n - b\n\n\t//go:build never\n[x]: https://x\nHeading\n\nMore."} {
		f.Add(s, true)
		f.Add(s, false)
	}
	f.Fuzz(func(t *testing.T, s string, raw bool) {
		var b strings.Builder
		b.WriteString("package p\n\n")
		for _, l := range Comment(s) {
			b.WriteString(l + "\n")
		}
		b.WriteString("var V = " + Literal(s, raw) + "\n\n")
		b.WriteString(CommentLine(s) + "\nvar W = 1\n")
		fset := token.NewFileSet()
		file, err := parser.ParseFile(fset, "p.go", b.String(), parser.ParseComments)
		if err != nil {
			t.Fatalf("%q: %v\n%s", s, err, b.String())
		}
		if len(file.Decls) != 2 {
			t.Fatalf("%q: %d declarations", s, len(file.Decls))
		}
		lit := file.Decls[0].(*ast.GenDecl).Specs[0].(*ast.ValueSpec).Values[0].(*ast.BasicLit)
		if v, err := strconv.Unquote(lit.Value); err != nil || v != s {
			t.Fatalf("%q: literal %s holds %q", s, lit.Value, v)
		}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				if !strings.HasPrefix(c.Text, "//") || len(c.Text) > 2 && c.Text[2] != ' ' {
					t.Fatalf("%q: comment %q", s, c.Text)
				}
				if strings.HasPrefix(strings.TrimLeft(c.Text[2:], " \t\u00a0"), "+build") {
					t.Fatalf("%q: build constraint %q", s, c.Text)
				}
			}
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(line, "//go:") || strings.HasPrefix(line, "//line") || strings.HasPrefix(line, "/*") {
				t.Fatalf("%q: directive line %q", s, line)
			}
		}
		// A doc comment from DocComment is what gofmt makes of it, and
		// keeps Comment's guarantees.
		doc := "package p\n\n" + strings.Join(append(DocComment(s), "var X = 1\n"), "\n")
		out, err := format.Source([]byte(doc))
		if err != nil || string(out) != doc {
			t.Fatalf("%q: doc comment not as gofmt writes it (%v):\n%s\ngofmt:\n%s", s, err, doc, out)
		}
		for _, l := range DocComment(s) {
			if l != "//" && !strings.HasPrefix(l, "// ") && !strings.HasPrefix(l, "//\t") {
				t.Fatalf("%q: doc comment line %q", s, l)
			}
			if strings.HasPrefix(strings.TrimLeft(l[2:], " \t\u00a0"), "+build") {
				t.Fatalf("%q: build constraint %q", s, l)
			}
		}
	})
}

// TestPlainDoc checks that the lines DocComment returns without parsing
// them are what parsing and printing them gives.
func TestPlainDoc(t *testing.T) {
	for _, s := range []string{
		"Lists one page of issues.", "Heading", "A (b, c)", "x", "Go [Doc] link", "[x]: https://x", "see https://example.com/a_b",
		"1. item", "- item", "* item", "#hash", "# Heading", "x\ty", "Ünïcode prose", "a  b   c", "Code: `x := 1`",
		"ends with a colon:", "A'' and ``b``", "//go:generate x", "+build x", "a */ b", "\x00 after escaping",
	} {
		lines := Comment(s)
		if plainDoc(lines) && !slices.Equal(formatDoc(lines), lines) {
			t.Errorf("%q: taken as plain, but gofmt gives %q", s, formatDoc(lines))
		}
	}
	if !plainDoc(Comment("Lists one page of issues.")) {
		t.Error("one line of prose is not taken as plain")
	}
}

// FuzzPlainDoc looks for one line of prose that plainDoc takes as plain
// and gofmt would still change.
func FuzzPlainDoc(f *testing.F) {
	for _, s := range []string{" sentence, with (parens) and \"quotes\".", "''", "`` code", " http://x.y/z?q=1#f", " é ü 漢字"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		lines := Comment("A" + s)
		if plainDoc(lines) && !slices.Equal(formatDoc(lines), lines) {
			t.Fatalf("%q: taken as plain, but gofmt gives %q", lines, formatDoc(lines))
		}
	})
}
