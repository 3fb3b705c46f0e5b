package ontology_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// loadOntology reads the example's manifest and tool files into a family
// with its taxonomy.
func loadOntology(t *testing.T) *ir.Family {
	t.Helper()
	data, err := os.ReadFile("toolgen.yaml")
	if err != nil {
		t.Fatal(err)
	}
	m, err := manifest.Load("toolgen.yaml", data)
	if err != nil {
		t.Fatal(err)
	}
	f := &ir.Family{Package: m.Package}
	for _, in := range m.InputPaths() {
		raw, err := os.ReadFile(in)
		if err != nil {
			t.Fatal(err)
		}
		var defs []struct {
			Function struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				Parameters  json.RawMessage `json:"parameters"`
			} `json:"function"`
		}
		if err := json.Unmarshal(raw, &defs); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		for _, d := range defs {
			f.Tools = append(f.Tools, &ir.Tool{
				Name:         d.Function.Name,
				Description:  d.Function.Description,
				ParamsSchema: d.Function.Parameters,
				Pos:          ir.Pos{File: filepath.ToSlash(in)},
			})
		}
	}
	if err := taxonomy.Derive(f, m); err != nil {
		t.Fatal(err)
	}
	return f
}

// spec004 is every op of spec 004 §3 with its tool and kind.
var spec004 = []struct{ op, tool, kind string }{
	{"onto.task.list", "list_onto_tasks", "read"},
	{"onto.goal.list", "list_onto_goals", "read"},
	{"onto.document.list", "list_onto_documents", "read"},
	{"onto.milestone.list", "list_onto_milestones", "read"},
	{"onto.risk.list", "list_onto_risks", "read"},
	{"onto.requirement.list", "list_onto_requirements", "read"},
	{"onto.plan.list", "list_onto_plans", "read"},
	{"onto.project.list", "list_onto_projects", "read"},
	{"onto.task.docs.list", "list_task_documents", "read"},
	{"onto.task.search", "search_onto_tasks", "read"},
	{"onto.project.search", "search_onto_projects", "read"},
	{"onto.document.search", "search_onto_documents", "read"},
	{"onto.search", "search_ontology", "read"},
	{"onto.project.get", "get_onto_project_details", "read"},
	{"onto.project.graph.get", "get_onto_project_graph", "read"},
	{"onto.task.get", "get_onto_task_details", "read"},
	{"onto.goal.get", "get_onto_goal_details", "read"},
	{"onto.plan.get", "get_onto_plan_details", "read"},
	{"onto.document.get", "get_onto_document_details", "read"},
	{"onto.milestone.get", "get_onto_milestone_details", "read"},
	{"onto.risk.get", "get_onto_risk_details", "read"},
	{"onto.requirement.get", "get_onto_requirement_details", "read"},
	{"onto.document.tree.get", "get_document_tree", "read"},
	{"onto.document.path.get", "get_document_path", "read"},
	{"onto.entity.relationships.get", "get_entity_relationships", "read"},
	{"onto.entity.links.get", "get_linked_entities", "read"},
	{"onto.task.create", "create_onto_task", "write"},
	{"onto.goal.create", "create_onto_goal", "write"},
	{"onto.plan.create", "create_onto_plan", "write"},
	{"onto.document.create", "create_onto_document", "write"},
	{"onto.project.create", "create_onto_project", "write"},
	{"onto.task.doc.create_or_attach", "create_task_document", "write"},
	{"onto.task.update", "update_onto_task", "write"},
	{"onto.project.update", "update_onto_project", "write"},
	{"onto.goal.update", "update_onto_goal", "write"},
	{"onto.plan.update", "update_onto_plan", "write"},
	{"onto.document.update", "update_onto_document", "write"},
	{"onto.milestone.update", "update_onto_milestone", "write"},
	{"onto.risk.update", "update_onto_risk", "write"},
	{"onto.requirement.update", "update_onto_requirement", "write"},
	{"onto.task.delete", "delete_onto_task", "write"},
	{"onto.document.delete", "delete_onto_document", "write"},
	{"onto.goal.delete", "delete_onto_goal", "write"},
	{"onto.plan.delete", "delete_onto_plan", "write"},
	{"onto.edge.link", "link_onto_entities", "write"},
	{"onto.edge.unlink", "unlink_onto_edge", "write"},
	{"onto.project.graph.reorganize", "reorganize_onto_project_graph", "write"},
	{"onto.document.tree.move", "move_document_in_tree", "write"},
	{"util.schema.field_info", "get_field_info", "read"},
	{"util.web.search", "web_search", "read"},
	{"util.web.visit", "web_visit", "read"},
	{"util.buildos.overview", "get_buildos_overview", "read"},
	{"util.buildos.usage_guide", "get_buildos_usage_guide", "read"},
}

func TestSpec004Taxonomy(t *testing.T) {
	f := loadOntology(t)
	byTool := map[string]*ir.Op{}
	for _, op := range f.Ops {
		byTool[op.Tool.Name] = op
	}
	if len(f.Ops) != len(spec004) {
		t.Errorf("family has %d ops, spec 004 lists %d", len(f.Ops), len(spec004))
	}
	for _, c := range spec004 {
		op := byTool[c.tool]
		if op == nil {
			t.Errorf("tool %s missing from the example", c.tool)
			continue
		}
		if op.Path != c.op || string(op.Kind) != c.kind {
			t.Errorf("%s → %s (%s), want %s (%s)", c.tool, op.Path, op.Kind, c.op, c.kind)
		}
	}
	if len(f.Warnings) > 0 {
		t.Errorf("warnings: %v", f.Warnings)
	}
	var groups []string
	for _, g := range f.Groups {
		groups = append(groups, g.Name)
	}
	if len(groups) != 2 || groups[0] != "onto" || groups[1] != "util" {
		t.Errorf("groups = %v, want [onto util]", groups)
	}
}

// TestSpec004Rules checks that the rules alone, without overrides, derive
// every op the spec does not list as a special case.
func TestSpec004Rules(t *testing.T) {
	f := loadOntology(t)
	for _, op := range f.Ops {
		if op.Source == taxonomy.SourceRule {
			continue
		}
		switch op.Tool.Name {
		case "search_ontology", "get_document_tree", "get_document_path", "move_document_in_tree",
			"get_entity_relationships", "get_linked_entities", "list_task_documents",
			"create_task_document", "link_onto_entities", "unlink_onto_edge",
			"reorganize_onto_project_graph", "get_field_info", "get_buildos_overview",
			"get_buildos_usage_guide":
		default:
			t.Errorf("%s needed an override", op.Tool.Name)
		}
	}
}

func TestSpec004Policies(t *testing.T) {
	f := loadOntology(t)
	for _, op := range f.Ops {
		switch op.Path {
		case "onto.task.create", "onto.project.create":
			if op.Policy == nil || len(op.Policy.Do) == 0 || len(op.Policy.Dont) == 0 || len(op.Policy.EdgeCases) == 0 {
				t.Errorf("%s policy = %+v, want do, dont and edge_cases", op.Path, op.Policy)
			}
		case "onto.project.graph.reorganize":
			if !op.DryRunDefault {
				t.Errorf("%s: dry_run_default not set", op.Path)
			}
		}
		if len(op.Examples) == 0 {
			t.Errorf("%s: no example", op.Path)
		}
	}
}

// TestAnnotations: every tool carries MCP hints derived from its op's kind
// and verb, with the manifest's title and open-world overrides.
func TestAnnotations(t *testing.T) {
	tools := map[string]runtime.Tool{}
	for _, tl := range ontology.Tools(ontology.UnimplementedHandlers{}) {
		if tl.Annotations == nil || tl.Annotations.ReadOnly == nil {
			t.Errorf("%s has no readOnly hint", tl.Name)
			continue
		}
		tools[tl.Name] = tl
	}
	b := func(p *bool) string {
		if p == nil {
			return "-"
		}
		return strconv.FormatBool(*p)
	}
	for name, want := range map[string]string{
		"list_onto_tasks":       "true - - -",
		"create_onto_task":      "false false false -",
		"update_onto_task":      "false false true -",
		"delete_onto_task":      "false true true -",
		"unlink_onto_edge":      "false true true -",
		"move_document_in_tree": "false false true -",
		"web_search":            "true - - true",
	} {
		a := tools[name].Annotations
		if got := b(a.ReadOnly) + " " + b(a.Destructive) + " " + b(a.Idempotent) + " " + b(a.OpenWorld); got != want {
			t.Errorf("%s hints (readOnly destructive idempotent openWorld) %s, want %s", name, got, want)
		}
	}
	if got := tools["web_search"].Title; got != "Web search" {
		t.Errorf("web_search title %q", got)
	}
}
