package generator

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"

	"github.com/toolgen-go/toolgen/generator/internal/gotext"
)

// This file and srcfile.go are the generator's only doors for text into
// generated source: every comment goes through comment (gotext.Comment)
// and every string literal holding definition text through strLit
// (gotext.Literal), or srcFile's comment, lit and rawLit for text written
// directly; numbers from definitions through numLit. The hostile corpus
// (golden/hostile_test.go) and TestTextDoors hold the rule.

// comment renders text as // line comments, escaped by gotext.Comment: no
// line of it can begin a directive or a block comment.
func comment(text string) *jen.Statement { return commentLines(gotext.Comment(text)) }

func commentLines(lines []string) *jen.Statement {
	s := jen.Null()
	for i, l := range lines {
		if i > 0 {
			s.Line()
		}
		// jennifer writes a comment starting with "//" verbatim; l does
		// and is already escaped.
		s.Comment(l)
	}
	return s
}

// commentf is comment of a formatted text.
func commentf(format string, args ...any) *jen.Statement {
	return comment(fmt.Sprintf(format, args...))
}

// docComment renders a description as // line comments (never /* */,
// which a description containing "*/" would break).
func docComment(text string) *jen.Statement { return comment(text) }

// topDoc is docComment for the doc comment of a top-level declaration,
// already in the form gofmt settles it in (gotext.DocComment): go/format
// reformats such a comment once, and once is not always enough.
func topDoc(text string) *jen.Statement { return commentLines(gotext.DocComment(text)) }

// strLit is the interpreted Go string literal of s ("..."): its value is s
// byte for byte whatever s holds.
func strLit(s string) *jen.Statement { return jen.Op(gotext.Literal(s, false)) }

// numLit is the numeric literal of a JSON number's text, or nil when text
// is not one.
func numLit(text string) *jen.Statement {
	if !gotext.IsNumber(text) {
		return nil
	}
	return jen.Op(text)
}

// headerLine adds one line of text above the package clause, escaped by
// gotext.CommentLine (line breaks in text are shown, not followed).
func headerLine(f *jen.File, text string) { f.HeaderComment(gotext.CommentLine(text)) }

// constLit is the Go constant of a scalar const's canonical JSON (a
// string, boolean or number literal), or nil for other values.
func constLit(lit json.RawMessage) *jen.Statement {
	text := strings.TrimSpace(string(lit))
	switch constKind(lit) {
	case "string":
		var s string
		if json.Unmarshal(lit, &s) != nil {
			return nil
		}
		return strLit(s)
	case "bool":
		return jen.Lit(text == "true")
	case "integer", "number":
		return numLit(text)
	}
	return nil
}
