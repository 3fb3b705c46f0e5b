package taxonomy

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/deferred"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/prompt"
	"github.com/toolgen-go/toolgen/schema/ir"
)

// TestReservedToolNames keeps the names spelled out in reservedToolNames
// equal to the runtime's.
func TestReservedToolNames(t *testing.T) {
	want := map[string]string{"sections": prompt.OpenSectionsName, "deferred": deferred.SearchToolName}
	for _, r := range reservedToolNames {
		if want[r.surface] != r.name {
			t.Errorf("surface %s: reserved name %q, runtime's %q", r.surface, r.name, want[r.surface])
		}
		delete(want, r.surface)
	}
	if len(want) > 0 {
		t.Errorf("surfaces without a reserved name: %v", want)
	}
}

// TestRenamedBuiltins: a family tool named like a tool a generated surface
// adds gets a note, at the tool, naming the surface's tool as the runtime
// names it when it builds the surface over the family's tools.
func TestRenamedBuiltins(t *testing.T) {
	names := []string{"get_item", "tool_search", "open_sections", "tool_search_2"}
	var tools []*ir.Tool
	var rtools []runtime.Tool
	for i, n := range names {
		tools = append(tools, &ir.Tool{Name: n, Pos: ir.Pos{File: "tools.json", Line: i + 2}})
		rtools = append(rtools, runtime.Tool{Name: n, Description: "Tool " + n + ".", Parameters: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
				return runtime.Result{Success: true}, nil
			}})
	}
	s, err := deferred.New(gateway.Registry{}, rtools)
	if err != nil {
		t.Fatal(err)
	}
	p, err := prompt.New("ns", "k", "", prompt.Section{Key: "all", Title: "All", Summary: "All tools.", Visibility: prompt.VisibilitySummary, Generated: true, Tools: rtools})
	if err != nil {
		t.Fatal(err)
	}
	search := fmt.Sprintf(`tools.json:3: tool "tool_search" has the name of the deferred surface's own tool (the tool search tool it adds), so that tool is named %q; rename the tool to give the deferred surface's tool its usual name`, s.SearchName())
	open := fmt.Sprintf(`tools.json:4: tool "open_sections" has the name of the sections surface's own tool (its open_sections tool), so that tool is named %q; rename the tool to give the sections surface's tool its usual name`, p.OpenSectionsName())
	tests := []struct {
		surfaces []string
		want     []string
	}{
		{nil, []string{open, search}},
		{[]string{"flat", "deferred"}, []string{search}},
		{[]string{"sections", "code"}, []string{open}},
		{[]string{"flat", "gateway", "facades", "code"}, nil},
	}
	for _, tt := range tests {
		var got []string
		for _, d := range renamedBuiltins(tools, tt.surfaces) {
			if d.Code != "builtin-renamed" {
				t.Errorf("code %q", d.Code)
			}
			got = append(got, d.Pos.String()+": "+d.Message)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("surfaces %v (-want +got):\n%s", tt.surfaces, diff)
		}
	}
	if s.SearchName() != "tool_search_3" || p.OpenSectionsName() != "open_sections_2" {
		t.Errorf("the runtime named them %s and %s", s.SearchName(), p.OpenSectionsName())
	}
}
