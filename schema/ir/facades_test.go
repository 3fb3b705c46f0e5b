package ir

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestFacadeNames(t *testing.T) {
	long := strings.Repeat("g", 70)
	cut := strings.Repeat("g", 51)
	for _, c := range []struct {
		name   string
		tools  []string
		groups []string
		want   []string
	}{
		{"no clash", []string{"list_todos", "get_user"}, []string{"todo", "user"}, []string{"todo", "user"}},
		{"tool named like its group", []string{"todo", "list_todos"}, []string{"todo"}, []string{"todo_tools"}},
		{"suffix taken by a tool", []string{"todo", "todo_tools", "todo_tools_2"}, []string{"todo"}, []string{"todo_tools_3"}},
		{"suffix taken by a later group", []string{"todo"}, []string{"todo", "todo_tools"}, []string{"todo_tools_2", "todo_tools"}},
		{"longer than a tool name", nil, []string{long}, []string{cut + "_tools"}},
		{"two long groups cut alike", nil, []string{long, long + "x"}, []string{cut + "_tools", cut + "_tools_2"}},
		{"no groups", []string{"a"}, nil, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := &Family{}
			for _, n := range c.tools {
				f.Tools = append(f.Tools, &Tool{Name: n})
			}
			for _, g := range c.groups {
				f.Groups = append(f.Groups, &Group{Name: g})
			}
			got := f.FacadeNames()
			if !slices.Equal(got, c.want) {
				t.Errorf("FacadeNames() = %q, want %q", got, c.want)
			}
			for _, n := range got {
				if len(n) > maxToolName {
					t.Errorf("%q is longer than %d bytes", n, maxToolName)
				}
			}
		})
	}
}

// TestFacadeNamesDistinct: whatever the clashes, every facade has a name
// no tool and no other facade has.
func TestFacadeNamesDistinct(t *testing.T) {
	f := &Family{}
	long := strings.Repeat("x", 60)
	for i := range 3000 {
		g := fmt.Sprintf("%s%d", long, i)
		f.Groups = append(f.Groups, &Group{Name: g})
		f.Tools = append(f.Tools, &Tool{Name: g}, &Tool{Name: fmt.Sprintf("%s_tools_%d", long[:51], i+2)})
	}
	seen := map[string]bool{}
	for _, tool := range f.Tools {
		seen[tool.Name] = true
	}
	for _, n := range f.FacadeNames() {
		if seen[n] || len(n) > maxToolName {
			t.Fatalf("facade name %q is taken or too long", n)
		}
		seen[n] = true
	}
}
