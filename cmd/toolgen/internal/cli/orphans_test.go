package cli

import (
	"strings"
	"testing"

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
