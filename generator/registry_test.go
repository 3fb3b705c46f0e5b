package generator

import (
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/prompt"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// taxonomyFamily is a small family with its taxonomy derived.
func taxonomyFamily(t testing.TB) *ir.Family {
	t.Helper()
	f := &ir.Family{Package: "tasks"}
	for _, d := range []struct{ name, desc, params string }{
		{"list_onto_tasks", "List tasks. Filters by project.", `{"type":"object","properties":{"project_id":{"type":"string"},"limit":{"type":"integer","default":20}}}`},
		{"create_onto_task", "Create a task.\nDo NOT create tasks for work you can do now.", `{"type":"object","properties":{"title":{"type":"string","description":"Costs $5"}},"required":["title"]}`},
		{"get_onto_goal_details", "Get a goal.", `{"type":"object","properties":{"goal_id":{"type":"string"}},"required":["goal_id"]}`},
		{"web_search", "Pay $5 first. Search the web.", `{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`},
	} {
		f.Tools = append(f.Tools, &ir.Tool{Name: d.name, Description: d.desc, ParamsSchema: json.RawMessage(d.params)})
	}
	m, err := manifest.Load("toolgen.yaml", []byte("default_group: util\ngroups:\n  onto: {summary: Ontology ops., infix: [onto]}\nops:\n  onto.task.create: {dry_run_default: true, notes: [Search first.]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := taxonomy.Derive(f, m); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestRegistryOf(t *testing.T) {
	f := taxonomyFamily(t)
	reg := RegistryOf(f)
	if reg.Version != f.RegistryVersion || len(reg.Ops) != 4 || len(reg.Groups) != 2 {
		t.Fatalf("registry %+v", reg)
	}
	create := reg.Ops[1]
	if create.Path != "onto.task.create" || create.Kind != runtime.OpWrite || !create.DryRunDefault ||
		create.Policy == nil || len(create.Policy.Dont) != 1 || create.Notes[0] != "Search first." ||
		len(create.Args) != 1 || !create.Args[0].Required || string(create.Examples[0].Args) != `{"title":"<title>"}` {
		t.Errorf("create op %+v", create)
	}
	if list := reg.Ops[0]; list.Usage != "onto.task.list [project_id:string] [limit:integer=20]" || list.Args[1].Default != "20" {
		t.Errorf("list op %+v", list)
	}
	// The registry must be accepted by the gateway it is generated for.
	var tools []runtime.Tool
	for _, tool := range f.Tools {
		tools = append(tools, runtime.Tool{Name: tool.Name, Description: tool.Description, Parameters: tool.ParamsSchema})
	}
	if _, err := gateway.New(reg, tools); err != nil {
		t.Errorf("gateway rejects the registry: %v", err)
	}
}

func TestEmitRegistryAndSurfaces(t *testing.T) {
	f := taxonomyFamily(t)
	g := &gen{fam: f, opt: Options{Package: "tasks"}, runtimePkg: DefaultRuntimeModule + "/runtime", pkgVars: map[string]string{}}
	for _, c := range []struct {
		name string
		emit fileEmitter
		want []string
	}{
		{"registry", fileEmitter{text: emitRegistry}, []string{
			`var Registry = gateway.Registry{`,
			`Version: "` + f.RegistryVersion + `"`,
			`Kind: runtime.OpWrite`,
			`DryRunDefault: true`,
			`Dont: []string{"Do NOT create tasks for work you can do now"}`,
			"Parameters: json.RawMessage(`{\"type\":\"object\",",
		}},
		{"surfaces", fileEmitter{text: emitSurfaces}, []string{
			`func Gateway(h Handlers, opts ...gateway.Option) []runtime.Tool {`,
			`gateway.Tools(Registry, Tools(h), opts...)`,
			`func GatewayDefinitions() json.RawMessage {`,
			`matryoshka.Facade(`,
			`matryoshka.Category("task", "list_onto_tasks", "create_onto_task")`,
			`matryoshka.Usage("create_onto_task", "create_onto_task title:string")`,
			`func Sections(h Handlers) []prompt.Section {`,
			`Pay $$5 first.`,
			`Visibility: prompt.VisibilitySummary`,
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			src, err := emitFile(g, c.emit)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range c.want {
				if !strings.Contains(squash(string(src)), squash(w)) {
					t.Errorf("missing %q in\n%s", w, src)
				}
			}
		})
	}
}

func TestSurfaceSelection(t *testing.T) {
	f := taxonomyFamily(t)
	f.Surfaces = []string{"flat", "gateway"}
	g := &gen{fam: f, opt: Options{Package: "tasks"}, runtimePkg: DefaultRuntimeModule + "/runtime", pkgVars: map[string]string{}}
	src, err := emitFile(g, fileEmitter{text: emitSurfaces})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "func Gateway(") || strings.Contains(string(src), "func Facades(") || strings.Contains(string(src), "toolgenPick") {
		t.Errorf("surfaces [flat gateway] emitted:\n%s", src)
	}
}

func TestFacadeAndSectionSpecs(t *testing.T) {
	f := taxonomyFamily(t)
	fs := Facades(f)
	if len(fs) != 2 || fs[0].Name != "onto" || len(fs[0].Tools) != 3 || len(fs[0].Categories) != 2 || fs[1].Name != "util" {
		t.Errorf("facades %+v", fs)
	}
	ss := Sections(f)
	if len(ss) != 2 || !strings.Contains(ss[0].Template, "`create_onto_task title:string` (write): Create a task.") || !strings.Contains(ss[0].Summary, "3 tools (task, goal)") {
		t.Errorf("sections %+v", ss)
	}
	// Model-facing counts are singular for one tool.
	if len(fs) == 2 && fs[1].Description != "Operations on web. Unfolds into 1 tool." {
		t.Errorf("facade description %q", fs[1].Description)
	}
	if len(ss) == 2 && ss[1].Summary != "Operations on web. 1 tool (web)." {
		t.Errorf("section summary %q", ss[1].Summary)
	}
}

func BenchmarkEmitRegistry(b *testing.B) {
	f := taxonomyFamily(b)
	g := &gen{fam: f, opt: Options{Package: "tasks"}, runtimePkg: DefaultRuntimeModule + "/runtime", pkgVars: map[string]string{}}
	for b.Loop() {
		if _, err := emitFile(g, fileEmitter{text: emitRegistry}); err != nil {
			b.Fatal(err)
		}
	}
}

// emitFile emits and renders one file of g.
func emitFile(g *gen, e fileEmitter) ([]byte, error) {
	if e.text != nil {
		s := g.newSrcFile()
		if err := e.text(g, s); err != nil {
			return nil, err
		}
		return s.render()
	}
	jf := g.newFile()
	if err := e.emit(g, jf); err != nil {
		return nil, err
	}
	return render(jf)
}

// squash drops white space so that tests do not depend on gofmt alignment.
func squash(s string) string {
	return strings.Join(strings.Fields(s), "")
}

// TestCompactRegistry: a family of more than DataTools tools declares its
// ops as records, each a Go string literal that, read back by
// gateway.DecodeOps, is exactly the op RegistryOf derives, whatever text
// the definitions hold (backquotes, newlines, record syntax, invalid
// UTF-8).
func TestCompactRegistry(t *testing.T) {
	f := &ir.Family{Package: "big"}
	for i := range DataTools + 1 {
		desc := fmt.Sprintf("Get item %d. Uses `code`,\nnewlines, 12:colons; and \xff bytes.\nDo NOT guess ids.", i)
		f.Tools = append(f.Tools, &ir.Tool{Name: fmt.Sprintf("get_item_%d", i), Description: desc,
			ParamsSchema: json.RawMessage(fmt.Sprintf(`{"type":"object","properties":{"id_%d":{"type":"string","description":"9:x\u0060"}},"required":["id_%d"]}`, i, i))})
	}
	if err := taxonomy.Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	g := &gen{fam: f, opt: Options{Package: "big"}, runtimePkg: DefaultRuntimeModule + "/runtime", pkgVars: map[string]string{}}
	src, err := emitFile(g, fileEmitter{text: emitRegistry})
	if err != nil {
		t.Fatal(err)
	}
	file, err := parser.ParseFile(token.NewFileSet(), "registry_gen.go", src, 0)
	if err != nil {
		t.Fatalf("registry_gen.go does not parse: %v", err)
	}
	if !strings.Contains(string(src), "Ops:     gateway.MustDecodeOps(registryOps),") {
		t.Fatalf("ops are not declared as records:\n%.2000s", src)
	}
	var recs []string
	ast.Inspect(file, func(n ast.Node) bool {
		vs, ok := n.(*ast.ValueSpec)
		if !ok || vs.Names[0].Name != "registryOps" {
			return true
		}
		for _, el := range vs.Values[0].(*ast.CompositeLit).Elts {
			s, err := strconv.Unquote(el.(*ast.BasicLit).Value)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, s)
		}
		return false
	})
	ops, err := gateway.DecodeOps(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := RegistryOf(f).Ops
	if len(ops) != len(want) {
		t.Fatalf("%d records, want %d ops", len(ops), len(want))
	}
	for i := range want {
		if !reflect.DeepEqual(ops[i], want[i]) {
			t.Fatalf("op %d:\n got %#v\nwant %#v", i, ops[i], want[i])
		}
	}
	if want[0].Policy == nil || !strings.Contains(want[0].Description, "`code`") {
		t.Errorf("test family lacks the policy or the backquote it means to cover: %+v", want[0])
	}
}

// TestSurfaceUsageOneLine: an argument name or enum value holding line
// breaks keeps an op's usage one line in the facade's answer and in the
// section's markdown, where a break started a heading, a code fence and a
// {template} line of the definition's choosing in the model's prompt.
func TestSurfaceUsageOneLine(t *testing.T) {
	f := &ir.Family{Package: "s"}
	f.Tools = append(f.Tools, &ir.Tool{Name: "get_s", Description: "Get s.\u2028# Desc\rheading",
		ParamsSchema: json.RawMessage(`{"type":"object","properties":{"e":{"type":"string","enum":["a\n# Boom\n{x}\n` + "```" + `","b\r\n## C\u2028# D\u2029# E\u0085# F"]},"we\nird":{"type":"string"}},"required":["e"]}`)})
	if err := taxonomy.Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	for _, fs := range Facades(f) {
		for tool, u := range fs.Usage {
			if strings.ContainsAny(u, "\r\n\u0085\u2028\u2029") {
				t.Errorf("facade usage of %s holds a line break: %q", tool, u)
			}
		}
	}
	for _, s := range Sections(f) {
		for _, e := range prompt.ParseMarkdown(s.Template, 2) {
			if e.Kind != prompt.Text {
				t.Errorf("section %s: the template holds a %v element %q:\n%s", s.Key, e.Kind, e.Content, s.Template)
			}
		}
		if n := strings.Count(strings.TrimSpace(s.Template), "\n"); n != 2 || strings.ContainsAny(s.Template, "\r\u0085\u2028\u2029") {
			t.Errorf("section %s: the op line is not one line:\n%q", s.Key, s.Template)
		}
		if want := "get_s e:enum(a\\n# Boom\\n{x}\\n```|b\\r\\n## C\\u2028# D\\u2029# E\\u0085# F) [we\\nird:string]"; !strings.Contains(s.Template, want) {
			t.Errorf("section %s: no %q in\n%s", s.Key, want, s.Template)
		}
	}
}
