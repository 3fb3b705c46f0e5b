package generator

import (
	"bytes"
	"go/format"
	"slices"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// TestUnionText writes unions both ways, as text (unionText) and as
// jennifer code formatted by go/format (emitTypeDecl, which unions with a
// date branch still take), and requires the text to be as gofmt lays it
// out and the same bytes as the code: branch names of different lengths,
// branches with and without docs, named and unnamed branches of every
// representation, with and without tables. A hostile doc is held to gofmt
// only (see below).
func TestUnionText(t *testing.T) {
	obj := &ir.Type{Kind: ir.KindObject, GoName: "IssueRef", Fields: []*ir.Field{{JSONName: "id", GoName: "ID", Required: true, Type: &ir.Type{Kind: ir.KindInteger}}}}
	enum := &ir.Type{Kind: ir.KindEnum, GoName: "State", Enum: []ir.EnumValue{{JSON: raw(`"open"`), GoName: "StateOpen"}}}
	str := &ir.Type{Kind: ir.KindString, Doc: "a plain name"}
	hostile := &ir.Type{Kind: ir.KindInteger, Doc: "count */ of\nitems // really\n\n//go:generate rm -rf /\n\tindented é"}
	arr := &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindString}}
	mp := &ir.Type{Kind: ir.KindMap, Elem: obj}
	anyT := &ir.Type{Kind: ir.KindAny}
	num := &ir.Type{Kind: ir.KindNumber, Nullable: true}
	cases := map[string][]*ir.Type{
		"named and plain":     {obj, str},
		"every kind":          {obj, enum, str, hostile, arr, mp, anyT, num},
		"same kinds twice":    {str, &ir.Type{Kind: ir.KindString}, arr, &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindInteger}}},
		"one branch":          {hostile},
		"long and short name": {&ir.Type{Kind: ir.KindObject, GoName: "AVeryLongBranchTypeNameIndeedThatGoesOnAndOn"}, &ir.Type{Kind: ir.KindBool}},
	}
	for name, branches := range cases {
		for _, mode := range []TableMode{TablesNever, TablesAlways} {
			u := &ir.Type{Kind: ir.KindUnion, GoName: "Target", Doc: "Target is what " + name + " points at.", Branches: branches}
			fam := &ir.Family{Package: "p", Types: append([]*ir.Type{u}, obj, enum)}
			g := &gen{fam: fam, opt: Options{Package: "p", Tables: mode}, runtimePkg: DefaultRuntimeModule + "/runtime",
				wirePkg: DefaultRuntimeModule + "/runtime/wire", checkPkg: DefaultRuntimeModule + "/runtime/check",
				pkgVars: map[string]string{}, budgets: map[string]bool{}}
			text := g.newSrcFile()
			g.unionText(text, u)
			got, err := text.render()
			if err != nil {
				t.Fatalf("%s: text: %v", name, err)
			}
			code := g.newSrcFile()
			f := code.jen()
			f.Line()
			g.emitTypeDecl(f, u)
			want, err := code.render()
			if err != nil {
				t.Fatalf("%s: code: %v", name, err)
			}
			if formatted, err := format.Source(got); err != nil || !bytes.Equal(formatted, got) {
				t.Errorf("%s (tables %d): text is not as gofmt lays it out (%v):\n%s", name, mode, err, diff.Diff("text", got, "gofmt", formatted))
			}
			if slices.Contains(branches, hostile) {
				// jennifer writes a field's comment at column 1, where
				// go/format takes it for a top-level doc comment and
				// reformats it (its indented line becomes a code block);
				// the text keeps it as written, as structText does.
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s (tables %d): text differs from the code's layout:\n%s", name, mode, diff.Diff("code", want, "text", got))
			}
		}
	}
}
