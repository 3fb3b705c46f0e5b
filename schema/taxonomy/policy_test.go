package taxonomy

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/schema/ir"
)

func TestExtractPolicy(t *testing.T) {
	cases := []struct {
		name, desc string
		want       *ir.Policy
	}{
		{"plain description", "List tasks in a project, newest first. Returns id and title.", nil},
		{"fact with only", "Update a task. Only the fields you pass are changed.", nil},
		{
			"sentences",
			"Create a task. Do NOT create tasks for work you can do now. Always set project_id. Never create duplicates; search first. If ambiguous, ask one question.",
			&ir.Policy{
				Do:        []string{"Always set project_id"},
				Dont:      []string{"Do NOT create tasks for work you can do now", "Never create duplicates"},
				EdgeCases: []string{"If ambiguous, ask one question"},
			},
		},
		{
			"when and when-not lists",
			"Create a new task.\n\nUse this tool when:\n- The user explicitly asks to create a task\n- Future human action is required\n\nDo NOT use this tool when:\n* Research you can do now\n* Creating tasks to look helpful\n\nEdge cases:\n1. Ambiguous requests: ask first",
			&ir.Policy{
				Do:        []string{"The user explicitly asks to create a task", "Future human action is required"},
				Dont:      []string{"Research you can do now", "Creating tasks to look helpful"},
				EdgeCases: []string{"Ambiguous requests: ask first"},
			},
		},
		{
			"inline header and emphasis",
			"Search the web.\nUse this when: the user asks about current events.\nIMPORTANT: **Never** visit more than 3 pages.",
			&ir.Policy{
				Do:   []string{"Use this when: the user asks about current events"},
				Dont: []string{"Never visit more than 3 pages"},
			},
		},
		{
			"parameter list is not policy",
			"Get a project.\nParameters:\n- project_id: the project\n- include: extra fields\nDon't use this for searching (e.g. by name). Use search_onto_projects instead.",
			&ir.Policy{Dont: []string{"Don't use this for searching (e.g. by name)"}},
		},
		{
			"only with condition",
			"Delete a goal. Only delete when the user explicitly asks to; never delete to clean up.",
			&ir.Policy{Do: []string{"Only delete when the user explicitly asks to"}, Dont: []string{"never delete to clean up"}},
		},
		{
			"when-not header after do list without blank line",
			"Don't create a project when:\n- it fits in one task\nWhen unsure, ask.\n- stray bullet",
			&ir.Policy{Dont: []string{"it fits in one task"}},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if d := cmp.Diff(c.want, ExtractPolicy(c.desc)); d != "" {
				t.Errorf("policy (-want +got):\n%s", d)
			}
		})
	}
}

func FuzzExtractPolicy(f *testing.F) {
	f.Add("Do NOT x. Always y.\n- a\n- b\nUse this when:\n* c")
	f.Fuzz(func(t *testing.T, desc string) {
		p := ExtractPolicy(desc)
		if p != nil && len(p.Do) == 0 && len(p.Dont) == 0 {
			t.Errorf("policy with only edge cases: %+v", p)
		}
	})
}

func BenchmarkExtractPolicy(b *testing.B) {
	desc := "Create a new task.\n\nUse this tool when:\n- The user explicitly asks\n- Future human action\n\nDo NOT use this tool when:\n- Research you can do now\n\nAlways set project_id. If ambiguous, ask."
	for b.Loop() {
		ExtractPolicy(desc)
	}
}
