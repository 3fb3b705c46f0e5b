package taxonomy

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// githubFamily reads the 117 tools of the GitHub MCP server
// (testdata/github_mcp_tools.json: name, description and
// annotation hints of each tool, and the toolset its maintainers put it
// in) and returns the family and the toolset per tool name.
func githubFamily(t *testing.T) (*ir.Family, map[string]string) {
	t.Helper()
	const rel = "schema/taxonomy/testdata/github_mcp_tools.json"
	var doc struct {
		Tools []struct {
			Toolset     string `json:"toolset"`
			Name        string `json:"name"`
			Description string `json:"description"`
			Annotations struct {
				ReadOnly    *bool `json:"readOnlyHint"`
				Destructive *bool `json:"destructiveHint"`
			} `json:"annotations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(readRepoFile(t, rel), &doc); err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	f := &ir.Family{}
	toolsets := map[string]string{}
	for i, d := range doc.Tools {
		f.Tools = append(f.Tools, &ir.Tool{Name: d.Name, Description: d.Description,
			Annotations: ir.Annotations{ReadOnly: d.Annotations.ReadOnly, Destructive: d.Annotations.Destructive},
			Pos:         ir.Pos{File: "github_mcp_tools.json", Line: i + 1}})
		toolsets[d.Name] = d.Toolset
	}
	return f, toolsets
}

// TestGitHubTaxonomy derives the ops of the GitHub MCP server without a
// manifest and measures them against what its maintainers wrote: the
// group should be the toolset's noun (issues → issue, pull_requests →
// pull_request, repos → repo), and the kind should follow the tool's
// readOnlyHint. The floors are the achieved figures. With -v the test
// prints the table of docs/TAXONOMY.md.
func TestGitHubTaxonomy(t *testing.T) {
	f, toolsets := githubFamily(t)
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	agree, kinds := 0, 0
	var table strings.Builder
	for _, op := range f.Ops {
		ts := toolsets[op.Tool.Name]
		mark := "✗"
		if inToolset(op.Path, ts) {
			agree++
			mark = "✓"
		}
		ro := op.Tool.Annotations.ReadOnly
		if ro != nil && *ro == (op.Kind == "read") {
			kinds++
		}
		fmt.Fprintf(&table, "| `%s` | %s | `%s` | %s | %s |\n", op.Tool.Name, ts, op.Path, mark, op.Kind)
	}
	verbs := 0
	for _, d := range f.Warnings {
		if _, _, ok := UnknownVerb(d); ok {
			verbs++
		}
	}
	t.Logf("\n%s", table.String())
	t.Logf("%d tools: %d in their toolset's group, %d kinds agree with readOnlyHint, %d unknown verbs", len(f.Ops), agree, kinds, verbs)
	if agree < 87 || kinds < len(f.Ops) || verbs > 0 {
		t.Errorf("%d/%d ops in their toolset's group (floor 87), %d/%d kinds agree, %d unknown verbs", agree, len(f.Ops), kinds, len(f.Ops), verbs)
	}

	// Without the annotations the kind comes from names and descriptions
	// alone; readOnlyHint is the answer.
	bare, _ := githubFamily(t)
	hints := map[string]bool{}
	for _, tool := range bare.Tools {
		hints[tool.Name] = *tool.Annotations.ReadOnly
		tool.Annotations = ir.Annotations{}
	}
	if err := Derive(bare, nil); err != nil {
		t.Fatal(err)
	}
	kinds, verbs = 0, 0
	for _, op := range bare.Ops {
		if hints[op.Tool.Name] == (op.Kind == "read") {
			kinds++
		} else {
			t.Logf("without annotations: %s is %s", op.Tool.Name, op.Kind)
		}
	}
	for _, d := range bare.Warnings {
		if _, _, ok := UnknownVerb(d); ok {
			verbs++
		}
	}
	t.Logf("without annotations: %d/%d kinds agree with readOnlyHint, %d unknown verbs", kinds, len(bare.Ops), verbs)
	if kinds < 117 || verbs > 0 {
		t.Errorf("without annotations: %d/%d kinds agree (floor 117), %d unknown verbs", kinds, len(bare.Ops), verbs)
	}
}

// inToolset reports whether an op path's group or entity segment names a
// word of the toolset id, singular or as a prefix: issues claims
// issue.comment.add, repos claims repository.create, code_security claims
// code.scanning_alert.list.
func inToolset(path, toolset string) bool {
	segs := strings.SplitN(path, ".", 3)
	for _, seg := range segs[:min(2, len(segs)-1)] {
		for _, w := range strings.Split(seg, "_") {
			for _, tw := range strings.Split(toolset, "_") {
				if tw = singularWord(tw); len(tw) >= 3 && strings.HasPrefix(w, tw) {
					return true
				}
			}
		}
	}
	return false
}
