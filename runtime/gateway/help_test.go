package gateway

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestHelpPaths(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: HelpTool, args: `{}`, want: map[string]any{"result/path": "root", "result/ops/0/op": "onto.project.get"}},
		{tool: HelpTool, args: `{"path":"root"}`, want: map[string]any{"result/path": "root"}},
		{tool: HelpTool, args: `{"path":"onto.task"}`,
			want: map[string]any{"result/path": "onto.task", "result/ops/0/op": "onto.task.create", "result/ops/0/kind": "write"}},
		{tool: HelpTool, args: `{"path":"onto.task.read"}`,
			want: map[string]any{"result/filter": "read", "result/ops/0/op": "onto.task.get"}, absent: []string{"onto.task.create", "onto.task.update"}},
		{tool: HelpTool, args: `{"path":"onto.task.write","format":"full"}`,
			want: map[string]any{"result/ops/0/op": "onto.task.create", "result/ops/0/example/op": "onto.task.create"}, absent: []string{"onto.task.list"}},
		{tool: HelpTool, args: `{"path":"onto.task.get"}`,
			want: map[string]any{"result/summary": "Get one task with its details.", "result/args/0/required": true,
				"result/examples/0/args/task_id": "<task_id>"}, absent: []string{`"schema"`}},
		{tool: HelpTool, args: `{"path":"onto.task.get","include_schemas":true,"include_examples":false}`,
			want: map[string]any{"result/schema/required/0": "task_id"}, absent: []string{`"examples"`}},
		{tool: HelpTool, args: `{"path":"list_onto_tasks"}`, want: map[string]any{"result/op": "onto.task.list"}},
		{tool: HelpTool, args: `{"path":"onto.task.create"}`, contains: []string{"writes are disabled in this session"}},
		{tool: HelpTool, args: `{"path":"onto.project.graph.reorganize"}`, want: map[string]any{"result/dry_run_default": true}},
		{tool: HelpTool, args: `{"path":"onto.tsk"}`,
			want: map[string]any{"ok": false, "error/code": "NOT_FOUND", "error/details/did_you_mean/0": "onto.task", "error/help_path": "onto"}},
		{tool: HelpTool, args: `{"path":7}`, want: map[string]any{"error/code": "VALIDATION_ERROR"}},
	})
}

func TestHelpRepeatedRootWarns(t *testing.T) {
	h := newHarness(t)
	if strings.Contains(h.call(HelpTool, `{"path":""}`), "warnings") {
		t.Fatal("first root help carries a warning")
	}
	m := h.obj(HelpTool, `{"path":"root"}`)
	w, _ := at(m, "meta/warnings/0").(string)
	if !strings.Contains(w, "2 times") || !strings.Contains(w, "tool_exec") {
		t.Fatalf("repeated root help: %v", m)
	}
}

// bigRegistry has enough ops for group help to summarise entities.
func bigRegistry() (Registry, []runtime.Tool) {
	var reg Registry
	var tools []runtime.Tool
	reg.Version = "big"
	reg.Groups = []Group{{Name: "onto", Summary: "Ontology."}, {Name: "util", Summary: "Utilities."}}
	add := func(op string, kind runtime.OpKind) {
		name := strings.ReplaceAll(op, ".", "_")
		reg.Ops = append(reg.Ops, Op{Path: op, Tool: name, Kind: kind})
		tools = append(tools, runtime.Tool{Name: name, Description: "Does " + op + ".", Parameters: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}},"required":["id"]}`)})
	}
	for _, e := range []string{"task", "goal", "plan", "document", "project", "risk"} {
		for _, a := range []string{"list", "get", "search"} {
			add("onto."+e+"."+a, runtime.OpRead)
		}
		for _, a := range []string{"create", "update"} {
			add("onto."+e+"."+a, runtime.OpWrite)
		}
	}
	add("onto.document.tree.move", runtime.OpWrite)
	add("onto.search", runtime.OpRead)
	add("util.web.search", runtime.OpRead)
	return reg, tools
}

func TestHelpGroupDirectory(t *testing.T) {
	reg, tools := bigRegistry()
	g, err := New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	env := g.help(runtime.ToolContext{}, helpRequest{Path: "onto"})
	var d dirDoc
	if err := json.Unmarshal(env.Result, &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Children) != 6 || len(d.Ops) != 1 || d.Ops[0].Op != "onto.search" {
		t.Fatalf("onto directory: %+v", d)
	}
	doc := d.Children[0]
	if doc.Name != "document" || doc.Read != 3 || doc.Write != 3 ||
		strings.Join(doc.Actions, ",") != "create,get,list,search,tree.move,update" {
		t.Fatalf("document entry: %+v", doc)
	}
	env = g.help(runtime.ToolContext{}, helpRequest{Path: ""})
	if !strings.Contains(string(env.Result), `"entities":["document","goal","plan","project","risk","task"],"actions":["search"]`) {
		t.Fatalf("root does not list entities: %s", env.Result)
	}
	env = g.help(runtime.ToolContext{}, helpRequest{Path: "onto.write"})
	if strings.Contains(string(env.Result), `.get"`) || !strings.Contains(string(env.Result), `"onto.document.tree.move"`) {
		t.Fatalf("write filter: %s", env.Result)
	}
}

func TestHelpIsCached(t *testing.T) {
	h := newHarness(t)
	a := h.g.help(runtime.ToolContext{}, helpRequest{Path: "onto.task.get"})
	b := h.g.help(runtime.ToolContext{}, helpRequest{Path: "onto.task.get"})
	if &a.Result[0] != &b.Result[0] {
		t.Fatal("second help call did not reuse the cached document")
	}
	c := h.g.help(runtime.ToolContext{}, helpRequest{Path: "onto.task.get", Format: "full"})
	if &a.Result[0] == &c.Result[0] {
		t.Fatal("formats share a cache entry")
	}
}

// TestHelpCacheKeyedByTarget: the spellings of one help path (case,
// a tool name for its op, "root" for the root) share the cached document
// of what they name. Each spelling once kept a copy of it: the largest
// group listing of ACEBench's family is 45 KB, and a model sending the
// case variants of its path filled the cache's 1,024 entries with copies
// (46 MB; a larger listing, as many times its size).
func TestHelpCacheKeyedByTarget(t *testing.T) {
	h := newHarness(t)
	spellings := map[string][]string{
		"onto":           {"onto", "ONTO", "Onto", "oNtO", " onto. "},
		"onto.task.read": {"onto.task.read", " onto.task.read."},
		"onto.task.get":  {"onto.task.get", "ONTO.TASK.GET", "get_onto_task_details"},
		"":               {"", "root", "ROOT", "/"},
	}
	for target, paths := range spellings {
		var first json.RawMessage
		for _, p := range paths {
			env := h.g.help(runtime.ToolContext{}, helpRequest{Path: p})
			if !env.OK {
				t.Fatalf("help %q: %s", p, env.Render())
			}
			if first == nil {
				first = env.Result
			} else if &env.Result[0] != &first[0] {
				t.Errorf("help %q and %q (%s) have cache entries of their own", paths[0], p, target)
			}
		}
	}
	if n := len(h.g.helpc.m); n != len(spellings) {
		t.Errorf("%d cache entries for %d documents", n, len(spellings))
	}
}

func TestNewRejectsUnresolvedOps(t *testing.T) {
	reg := Registry{Ops: []Op{{Path: "a.b", Tool: "missing"}, {Path: "", Tool: "x"}, {Path: "c.d", Tool: "t"}, {Path: "c.d", Tool: "t"}}}
	_, err := New(reg, []runtime.Tool{{Name: "t"}})
	if err == nil {
		t.Fatal("New accepted ops without tools")
	}
	for _, want := range []string{`op a.b: no tool named "missing"`, "empty path", "op c.d: declared twice"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// TestBindingBooleanSchemas: a parameters schema with boolean subschemas
// (true: any value, false: none), at the top level or nested, binds: its
// properties are known and closed, and a description that is not a string
// is no description. A schema that is not a JSON object is an error.
func TestBindingBooleanSchemas(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"any":true,"none":false,"n":null,` +
		`"tags":{"type":"array","items":true,"description":"Tags."},"odd":{"description":5},` +
		`"u":{"anyOf":[true,{"type":"string"}],"description":"U."}},"required":["tags"]}`)
	b, err := newBinding(Op{Path: "x.y", Parameters: params, Args: []Arg{{Name: "tags"}, {Name: "odd"}, {Name: "any"}, {Name: "u"}}}, runtime.Tool{Name: "t"})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.props, ","); got != "any,n,none,odd,tags,u" {
		t.Errorf("props %s", got)
	}
	if !b.closed || strings.Join(b.required, ",") != "tags" {
		t.Errorf("closed %v, required %v", b.closed, b.required)
	}
	var descs []string
	for _, a := range b.args {
		descs = append(descs, a.Name+"="+a.Description)
	}
	if got := strings.Join(descs, " "); got != "tags=Tags. odd= any= u=U." {
		t.Errorf("descriptions %s", got)
	}
	for _, bad := range []string{`[1]`, `{"properties":{"a":`, `{"properties":[]}`, `{"required":"a"}`} {
		if _, err := newBinding(Op{Path: "x.y", Parameters: json.RawMessage(bad)}, runtime.Tool{Name: "t"}); err == nil {
			t.Errorf("parameters %s bound", bad)
		}
	}
}

// TestRegistryExamples: the example a validation error and help offer is
// the registry's first; an op the registry gives none gets an empty args
// object, and the ready-to-run call stays JSON either way.
func TestRegistryExamples(t *testing.T) {
	params := json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]}`)
	cases := []struct {
		examples []Example
		want     string
	}{
		{[]Example{{Args: json.RawMessage(`{"q":"tea"}`)}, {Args: json.RawMessage(`{"q":"milk"}`)}}, `{"q":"tea"}`},
		{nil, `{}`},
		{[]Example{{Description: "no args"}}, `{}`},
	}
	for i, c := range cases {
		b, err := newBinding(Op{Path: "x.y", Parameters: params, Examples: c.examples}, runtime.Tool{Name: "t"})
		if err != nil {
			t.Fatal(err)
		}
		if string(b.example) != c.want {
			t.Errorf("case %d: example %s, want %s", i, b.example, c.want)
		}
		if !json.Valid(b.call()) {
			t.Errorf("case %d: call %s is not JSON", i, b.call())
		}
	}
}

// TestUsageLine: a registry op without a usage line of its own gets one
// rendered from its argument summaries.
func TestUsageLine(t *testing.T) {
	args := []Arg{{Name: "project_id", Type: "string", Required: true}, {Name: "limit", Type: "integer", Default: "20"}, {Name: "tags", Type: "array<string>"}}
	b, err := newBinding(Op{Path: "onto.task.list", Args: args}, runtime.Tool{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "onto.task.list project_id:string [limit:integer=20] [tags:array<string>]"; b.usage != want {
		t.Fatalf("usage %q, want %q", b.usage, want)
	}
}

func ExampleGateway_Tools() {
	reg, tools := bigRegistry()
	g, _ := New(reg, tools)
	for _, t := range g.Tools() {
		fmt.Println(t.Name)
	}
	// Output:
	// tool_help
	// tool_search
	// tool_exec
	// tool_batch
}

// Envelope meta belongs to executions: tool_exec and tool_batch carry it,
// tool_help and tool_search do not.
func TestMetaOnlyOnExecAndBatch(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		tool, args string
		meta       bool
	}{
		{HelpTool, `{"path":"onto.task"}`, false},
		{SearchTool, `{"query":"list tasks"}`, false},
		{ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1"}}`, true},
		{BatchTool, `{"items":[{"tool":"search","query":"tasks"}]}`, true},
	} {
		if _, got := h.obj(c.tool, c.args)["meta"]; got != c.meta {
			t.Errorf("%s(%s): meta present %v, want %v", c.tool, c.args, got, c.meta)
		}
	}
}

// TestHelpWrongArgument: a model that sends {"op":…} instead of
// {"path":…}, or a path that does not exist, gets an error naming the
// right argument or the nearest paths, never the root listing.
func TestHelpWrongArgument(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: HelpTool, args: `{"op":"onto.task.create"}`,
			want:     map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/example/path": "onto.task.create", "error/details/field_errors/0/path": "/op"},
			contains: []string{`no argument \"op\"`}, absent: []string{`"root"`}},
		{tool: HelpTool, args: `{"op":"task.create"}`,
			want: map[string]any{"ok": false, "error/details/did_you_mean/0": "onto.task.create"}},
		{tool: HelpTool, args: `{"path":"onto.task","verbose":true}`,
			want: map[string]any{"ok": false, "error/code": "VALIDATION_ERROR"}, contains: []string{"its arguments are path, format"}},
		{tool: HelpTool, args: `{"path":"task.creat"}`,
			want: map[string]any{"ok": false, "error/code": "NOT_FOUND", "error/details/did_you_mean/0": "onto.task.create"}, absent: []string{`"root"`}},
		// A misspelt or shortened argument is named, with its value kept
		// (it was moved into path: {"path":"full"}).
		{tool: HelpTool, args: `{"fmt":"full"}`,
			want:     map[string]any{"ok": false, "error/details/example/format": "full", "error/details/field_errors/0/suggestion": "format"},
			contains: []string{`no argument \"fmt\"; did you mean \"format\"? send {\"format\":\"full\"}`}, absent: []string{`"path":"full"`}},
		{tool: HelpTool, args: `{"path":"onto","Format":"full"}`,
			want: map[string]any{"ok": false, "error/details/example/format": "full"}},
		{tool: HelpTool, args: `{"path":"onto","inc_examples":true}`,
			want: map[string]any{"ok": false, "error/details/example/include_examples": true}},
		{tool: HelpTool, args: `{"path":"onto","schemas":true}`,
			want: map[string]any{"ok": false, "error/details/example/include_schemas": true}},
		// none of these counts as a help answer seen before
		{tool: HelpTool, args: `{"path":""}`, want: map[string]any{"ok": true, "result/path": "root"}, absent: []string{"warnings", "times"}},
		{tool: HelpTool, args: `{"path":"onto.task.create"}`, want: map[string]any{"ok": true}, absent: []string{"warnings", "times"}},
	})
}

// TestSearchWrongArgument: tool_search refuses an argument it does not
// take instead of ignoring it (a "group" filter it does not have), and
// for {"q":…} without a query names the call to send.
func TestSearchWrongArgument(t *testing.T) {
	h := newHarness(t)
	play(t, h, []step{
		{tool: SearchTool, args: `{"q":"add a todo"}`,
			want:     map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/example/query": "add a todo", "error/details/field_errors/0/path": "/q"},
			contains: []string{`no argument \"q\"`}},
		{tool: SearchTool, args: `{"query":"add a todo","lmit":3}`,
			want: map[string]any{"ok": false, "error/details/example/limit": float64(3)}, contains: []string{`did you mean \"limit\"?`}},
		{tool: SearchTool, args: `{"query":"add a todo","group":"onto"}`,
			want:     map[string]any{"ok": false, "error/code": "VALIDATION_ERROR", "error/details/field_errors/0/path": "/group"},
			contains: []string{"its arguments are query, limit"}},
		{tool: SearchTool, args: `{"query":"add a todo","limit":3}`,
			want: map[string]any{"ok": true, "result/hits/0/op": "onto.task.create"}, absent: []string{`"next"`}},
		// A limit past the bound is cut, and the answer says so.
		{tool: SearchTool, args: `{"query":"task","limit":500}`,
			want: map[string]any{"ok": true, "result/next": "limit is 1 to 20; at most 20 are shown"}},
		// so is a limit of 0, read as the default, not as "none"
		{tool: SearchTool, args: `{"query":"task","limit":0}`,
			want: map[string]any{"ok": true, "result/next": "limit is 1 to 20; at most 5 are shown"}},
	})
}

// TestHelpDescriptionNamesOwnGroups: the boot descriptions use the
// family's own groups, entities and ops, not another family's paths; a
// catch-all group of single ops is named without a few arbitrary entities.
func TestHelpDescriptionNamesOwnGroups(t *testing.T) {
	var ops []Op
	var tools []runtime.Tool
	for _, p := range []string{"store.item.get", "store.item.list", "store.item.create", "store.order.get", "store.order.cancel",
		"billing.invoice.send", "billing.invoice.list", "misc.weather.get", "misc.sky.color.get", "misc.tide.list"} {
		name := strings.ReplaceAll(p, ".", "_")
		kind := runtime.OpRead
		if strings.HasSuffix(p, "create") || strings.HasSuffix(p, "send") || strings.HasSuffix(p, "cancel") {
			kind = runtime.OpWrite
		}
		ops = append(ops, Op{Path: p, Tool: name, Kind: kind})
		tools = append(tools, runtime.Tool{Name: name, Description: "x", Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	g, err := New(Registry{Ops: ops}, tools)
	if err != nil {
		t.Fatal(err)
	}
	help, exec := g.Tools()[0].Description, g.Tools()[2].Description
	for _, want := range []string{"(store.item, store.item.write)", "Groups: store (item, order); misc; billing (invoice)."} {
		if !strings.Contains(help, want) {
			t.Errorf("tool_help description lacks %q: %s", want, help)
		}
	}
	if !strings.Contains(exec, `{"op":"store.item.get","args":{...}}`) {
		t.Errorf("tool_exec description does not show one of the family's ops: %s", exec)
	}
	for _, d := range []string{help, exec} {
		if strings.Contains(d, "onto") || strings.ContainsAny(d, "<>") {
			t.Errorf("description names another family's paths or placeholders: %s", d)
		}
	}
	if h := newHarness(t); !strings.Contains(h.g.Tools()[0].Description, "onto (task, project)") {
		t.Errorf("ontology description: %s", h.g.Tools()[0].Description)
	}
	// An op at the top level is not given as a directory to browse.
	g, err = New(Registry{Ops: []Op{{Path: "search", Tool: "search"}, {Path: "search2", Tool: "search2"}, {Path: "web.visit", Tool: "visit"}}},
		[]runtime.Tool{{Name: "search"}, {Name: "search2"}, {Name: "visit"}})
	if err != nil {
		t.Fatal(err)
	}
	if d := g.Tools()[0].Description; !strings.Contains(d, "(web, web.read)") {
		t.Errorf("flat family description: %s", d)
	}
	// A kind filter that is an op's own path (a filesystem's file.write)
	// is not given as one: that path is the op.
	for _, c := range []struct {
		paths []string
		want  string
	}{
		{[]string{"file.write", "file.read", "file.list", "file.move", "file.delete"}, "(file):"},
		{[]string{"file.write", "file.list", "file.delete", "file.move"}, "(file, file.read):"},
	} {
		var ops []Op
		var tools []runtime.Tool
		for _, p := range c.paths {
			kind := runtime.OpWrite
			if p == "file.read" || p == "file.list" {
				kind = runtime.OpRead
			}
			ops = append(ops, Op{Path: p, Tool: strings.ReplaceAll(p, ".", "_"), Kind: kind})
			tools = append(tools, runtime.Tool{Name: strings.ReplaceAll(p, ".", "_")})
		}
		g, err := New(Registry{Ops: ops}, tools)
		if err != nil {
			t.Fatal(err)
		}
		if d := g.Tools()[0].Description; !strings.Contains(d, c.want) {
			t.Errorf("%v: description %s, want %s", c.paths, d, c.want)
		}
	}
}

// TestUsageStartsWithOwnOp: a registry whose usage line names another op
// (an op moved by a collision) is served with a usage line of its own op,
// in help, listings and search answers.
func TestUsageStartsWithOwnOp(t *testing.T) {
	ops := []Op{
		{Path: "hotel.book", Tool: "book_hotel", Kind: runtime.OpWrite, Usage: "hotel.book city:string", Args: []Arg{{Name: "city", Type: "string", Required: true}}},
		{Path: "hotel.hotel_book", Tool: "hotel_book", Kind: runtime.OpWrite, Usage: "hotel.book city:string", Args: []Arg{{Name: "city", Type: "string", Required: true}}},
	}
	var tools []runtime.Tool
	for _, o := range ops {
		tools = append(tools, runtime.Tool{Name: o.Tool, Description: "Book a hotel.",
			Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`)})
	}
	g, err := New(Registry{Ops: ops}, tools)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range g.order {
		if !strings.HasPrefix(b.usage+" ", b.op.Path+" ") {
			t.Errorf("op %s: usage %q", b.op.Path, b.usage)
		}
	}
	for _, h := range g.Index().Search("book a hotel", 5) {
		if !strings.HasPrefix(h.Usage+" ", h.Op+" ") {
			t.Errorf("search hit %s: usage %q", h.Op, h.Usage)
		}
	}
	env := g.help(runtime.ToolContext{}, helpRequest{Path: "hotel.hotel_book"})
	if !strings.Contains(string(env.Result), `"usage":"hotel.hotel_book city:string"`) {
		t.Errorf("help: %s", env.Result)
	}
}

// TestHelpKeepsArgumentInstructions: an argument's second sentence (the
// language or format the tool requires) reaches short help even when the
// registry summarises the argument in one sentence.
func TestHelpKeepsArgumentInstructions(t *testing.T) {
	ops := []Op{{Path: "shell.run", Tool: "run_command", Kind: runtime.OpRead,
		Args: []Arg{{Name: "command", Type: "string", Required: true, Description: "The command to run."}}}}
	tools := []runtime.Tool{{Name: "run_command", Description: "Run a shell command.",
		Parameters: json.RawMessage(`{"type":"object","properties":{"command":{"type":"string","description":"The command to run. It must be POSIX sh on one line, without sudo."}},"required":["command"]}`)}}
	g, err := New(Registry{Ops: ops}, tools)
	if err != nil {
		t.Fatal(err)
	}
	env := g.help(runtime.ToolContext{}, helpRequest{Path: "shell.run"})
	if !strings.Contains(string(env.Result), "It must be POSIX sh on one line, without sudo.") {
		t.Errorf("short help lost the argument's instructions: %s", env.Result)
	}
}

// TestListingsCutRepetition: a group summary that only names what the
// listing shows is left out, and the root names only the shared entities
// of a catch-all group of single ops, counting the others.
func TestListingsCutRepetition(t *testing.T) {
	var ops []Op
	var tools []runtime.Tool
	add := func(p string) {
		name := strings.ReplaceAll(p, ".", "_")
		ops = append(ops, Op{Path: p, Tool: name, Kind: runtime.OpRead})
		tools = append(tools, runtime.Tool{Name: name, Description: "x", Parameters: json.RawMessage(`{"type":"object"}`)})
	}
	for i := range 30 {
		add(fmt.Sprintf("store.item%d.get", i))
	}
	add("store.order.get")
	add("store.order.list")
	add("misc.sky.get")
	add("misc.sky.list")
	reg := Registry{Ops: ops, Groups: []Group{
		{Name: "store", Summary: "Operations on order, item0 and item1."},
		{Name: "misc", Summary: "Weather above the sky."},
	}}
	g, err := New(reg, tools)
	if err != nil {
		t.Fatal(err)
	}
	var root dirDoc
	if err := json.Unmarshal(g.help(runtime.ToolContext{}, helpRequest{}).Result, &root); err != nil {
		t.Fatal(err)
	}
	misc, store := root.Children[0], root.Children[1]
	if store.Summary != "" || strings.Join(store.Entities, ",") != "order" || store.MoreEntities != 30 {
		t.Errorf("store at the root: %+v", store)
	}
	if misc.Summary != "Weather above the sky." || strings.Join(misc.Entities, ",") != "sky" {
		t.Errorf("misc at the root: %+v", misc)
	}
	if s := string(g.help(runtime.ToolContext{}, helpRequest{Path: "store"}).Result); strings.Contains(s, "Operations on") || !strings.Contains(s, `"item29"`) {
		t.Errorf("store listing: %s", s)
	}
}
