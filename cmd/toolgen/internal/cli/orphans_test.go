package cli

import (
	"go/ast"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// TestOrphanLines: the lines named for an orphaned handler start at its
// doc comment, so deleting them leaves no comment behind.
func TestOrphanLines(t *testing.T) {
	src := `package shelf

// ListShelfItems serves list_shelf_items.
func (s *Service) ListShelfItems(ctx context.Context, tc runtime.ToolContext, p *ListShelfItemsParams) {
}

// DeleteShelfItem serves delete_shelf_item: gone from tools.json.
// A second line of its comment.
func (s *Service) DeleteShelfItem(ctx context.Context, tc runtime.ToolContext, p *DeleteShelfItemParams) {
	_ = p
}
`
	p := &project{family: &ir.Family{Tools: []*ir.Tool{{Name: "list_shelf_items", Params: &ir.Type{GoName: "ListShelfItemsParams"}}}}}
	var b strings.Builder
	reportOrphans(&b, "handlers.go", []byte(src), p)
	want := "handlers.go:7:1: warning: handler method DeleteShelfItem serves no tool any more (DeleteShelfItemParams is no longer generated); delete lines 7-11 or the package will not compile\n"
	if got := b.String(); !strings.HasPrefix(got, want) {
		t.Errorf("got %q\nwant %q", got, want)
	}
}

// TestGeneratedNamesReserved: every exported package-level name the
// emitted files declare, other than the types and enum values of the
// definitions (types_gen.go), is one no generated type may take (a $defs
// named Deferred or Code was declared twice before).
func TestGeneratedNamesReserved(t *testing.T) {
	// The example has every surface.
	p, err := loadProject(genFlags{config: ontologyManifest, out: t.TempDir()}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	reserved := schema.GeneratedNames()
	files := 0
	err = p.generate(func(f generator.File) error {
		if f.Path == "types_gen.go" || !strings.HasSuffix(f.Path, ".go") {
			return nil
		}
		files++
		for _, n := range topLevelNames(f.Bytes) {
			if ast.IsExported(n) && !slices.Contains(reserved, n) {
				t.Errorf("%s declares %s, which schema.GeneratedNames lacks", f.Path, n)
			}
		}
		return nil
	})
	if err != nil || files < 5 {
		t.Fatalf("generated %d files: %v", files, err)
	}
}

func TestTopLevelNames(t *testing.T) {
	src := "package p\n\nfunc Code() {}\n\nfunc (x *T) Method() {}\n\nfunc Map[K comparable]() {}\n\ntype T struct {\n\tField int\n}\n\nvar (\n\tenum0 = []string{\n\t\t\"a\",\n\t}\n\ta, b = 1, 2\n)\n\nconst Name = 1\n\nvar _ = Name\n"
	want := []string{"Code", "Map", "T", "enum0", "a", "b", "Name"}
	if got := topLevelNames([]byte(src)); !slices.Equal(got, want) {
		t.Errorf("topLevelNames = %q, want %q", got, want)
	}
}
