package taxonomy

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/manifest"
)

func family(names ...string) *ir.Family {
	f := &ir.Family{}
	for i, n := range names {
		f.Tools = append(f.Tools, &ir.Tool{Name: n, ParamsSchema: json.RawMessage(`{"type":"object"}`),
			Pos: ir.Pos{File: "tools.json", Line: i + 2, Col: 3, Pointer: "/" + string(rune('0'+i))}})
	}
	return f
}

func opsOf(f *ir.Family) map[string]*ir.Op {
	m := map[string]*ir.Op{}
	for _, op := range f.Ops {
		m[op.Tool.Name] = op
	}
	return m
}

func TestTaxonomyRules(t *testing.T) {
	cases := []struct {
		name     string
		tools    []string
		descs    map[string]string // tool → description
		files    map[string]string // tool → input file, tools.json if absent
		manifest string
		want     map[string]string // tool → "op kind"
	}{
		{
			name:  "detected onto infix",
			tools: []string{"list_onto_tasks", "get_onto_task_details", "create_onto_goal", "update_onto_projects", "search_onto_documents", "web_search"},
			want: map[string]string{
				"list_onto_tasks":       "onto.task.list read",
				"get_onto_task_details": "onto.task.get read",
				"create_onto_goal":      "onto.goal.create write",
				"update_onto_projects":  "onto.project.update write",
				"search_onto_documents": "onto.document.search read",
				"web_search":            "web.search read",
			},
		},
		{
			name:     "manifest infix and default group",
			tools:    []string{"list_onto_entities", "get_onto_project_graph", "web_visit", "get_field_info"},
			manifest: "default_group: util\ngroups:\n  onto: {infix: [onto]}\n",
			want: map[string]string{
				"list_onto_entities":     "onto.entity.list read",
				"get_onto_project_graph": "onto.project.graph.get read",
				"web_visit":              "util.web.visit read",
				"get_field_info":         "util.field.info.get read",
			},
		},
		{
			name:  "no group token",
			tools: []string{"list_issues", "get_issue", "create_issue", "add_issue_comment"},
			want: map[string]string{
				"list_issues":       "issue.list read",
				"get_issue":         "issue.get read",
				"create_issue":      "issue.create write",
				"add_issue_comment": "issue.comment.add write",
			},
		},
		{
			name:  "detected prefix and camel case",
			tools: []string{"slack_post_message", "slack_list_channels", "getUserProfile", "Search-Files"},
			want: map[string]string{
				"slack_post_message":  "slack.message.post write",
				"slack_list_channels": "slack.channel.list read",
				"getUserProfile":      "user.profile.get read",
				"Search-Files":        "file.search read",
			},
		},
		{
			name:     "manifest prefix, override, kind",
			tools:    []string{"gh_list_pull_requests", "gh_merge_pull_request", "book_reservation", "search_ontology"},
			manifest: "groups:\n  github: {prefix: [gh]}\noverrides:\n  search_ontology: onto.search\nops:\n  reservation.book:\n    kind: write\n",
			want: map[string]string{
				"gh_list_pull_requests": "github.pull_request.list read",
				"gh_merge_pull_request": "github.pull_request.merge write",
				"book_reservation":      "reservation.book write",
				"search_ontology":       "onto.search read",
			},
		},
		{
			name:  "plurals",
			tools: []string{"list_entities", "list_statuses", "list_addresses", "list_branches", "list_analysis"},
			want: map[string]string{
				"list_entities":  "entity.list read",
				"list_statuses":  "status.list read",
				"list_addresses": "address.list read",
				"list_branches":  "branch.list read",
				"list_analysis":  "analysis.list read",
			},
		},
		{
			name:  "words ending in -os stay unless the family uses the singular",
			tools: []string{"get_buildos_overview", "list_repos", "get_repo", "list_todos"},
			want: map[string]string{
				"get_buildos_overview": "buildos.overview read",
				"list_repos":           "repo.list read",
				"get_repo":             "repo.get read",
				"list_todos":           "todo.list read",
			},
		},
		{
			name:  "particles dropped, entity owned by a group",
			tools: []string{"list_onto_documents", "get_onto_document_details", "create_onto_task", "move_document_in_tree", "get_document_tree", "search_ontology", "copy_file_to_folder"},
			want: map[string]string{
				"move_document_in_tree": "onto.document.tree.move write",
				"get_document_tree":     "onto.document.tree.get read",
				"search_ontology":       "onto.search read",
				"copy_file_to_folder":   "file.folder.copy write",
			},
		},
		{
			name: "multi-word entities from co-occurrence",
			tools: []string{"request_pull_request_reviewers", "create_pull_request", "list_pull_requests", "merge_pull_request",
				"reprioritize_sub_issue", "add_sub_issue", "list_sub_issues", "web_search", "web_visit", "list_calendar_events", "get_calendar"},
			want: map[string]string{
				"request_pull_request_reviewers": "pull_request.reviewer.request write",
				"list_pull_requests":             "pull_request.list read",
				"reprioritize_sub_issue":         "sub_issue.reprioritize write",
				"list_sub_issues":                "sub_issue.list read",
				"web_search":                     "web.search read",
				"list_calendar_events":           "calendar.event.list read",
			},
		},
		{
			name:  "noun phrase without a verb, told by the description",
			tools: []string{"math_factorial", "browser_mouse_down", "browser_click", "directory_tree"},
			descs: map[string]string{"math_factorial": "Calculates the factorial of a number.", "browser_mouse_down": "Press the mouse button down.", "directory_tree": "Get a recursive tree view of files."},
			want: map[string]string{
				"math_factorial":     "math.factorial read",
				"browser_mouse_down": "browser.mouse.down write",
				"directory_tree":     "directory.tree read",
			},
		},
		{
			name:  "phrasal verbs keep their particle",
			tools: []string{"turn_on_wifi", "turn_off_wifi", "adjust_room_temperature"},
			want: map[string]string{
				"turn_on_wifi":            "wifi.turn_on write",
				"turn_off_wifi":           "wifi.turn_off write",
				"adjust_room_temperature": "room.temperature.adjust write",
			},
		},
		{
			name:  "participle before the entity, document getters",
			tools: []string{"link_onto_entities", "list_onto_tasks", "create_onto_goal", "get_linked_entities", "get_buildos_usage_guide"},
			want: map[string]string{
				"get_linked_entities":     "onto.entity.links.get read",
				"get_buildos_usage_guide": "buildos.usage_guide read",
			},
		},
		{
			name:  "two verbs make one action, entities chain",
			tools: []string{"create_or_update_file", "delete_file", "list_secret_scanning_alerts", "get_secret_scanning_alert"},
			want: map[string]string{
				"create_or_update_file":       "file.create_or_update write",
				"list_secret_scanning_alerts": "secret_scanning_alert.list read",
				"get_secret_scanning_alert":   "secret_scanning_alert.get read",
			},
		},
		{
			name:  "qualifiers move after the entity",
			tools: []string{"get_latest_release", "list_releases", "list_starred_repositories", "create_repository", "list_onto_tasks", "create_onto_goal", "search_onto_plans", "list_task_documents"},
			want: map[string]string{
				"get_latest_release":        "release.latest.get read",
				"list_starred_repositories": "repository.starred.list read",
				"list_task_documents":       "onto.task.document.list read",
			},
		},
		{
			name: "a group holds the noun after its own",
			tools: []string{"create_pull_request_review", "submit_pull_request_review", "add_pull_request_review_comment", "list_pull_requests", "resolve_review_thread",
				"update_pull_request_branch", "list_branches", "create_branch"},
			want: map[string]string{
				"resolve_review_thread": "pull_request.review.thread.resolve write",
				"list_branches":         "branch.list read",
			},
		},
		{
			name:  "input files name groups",
			tools: []string{"web_search", "web_visit", "get_field_info", "list_onto_tasks", "create_onto_goal", "search_onto_plans", "get_weather", "get_forecast"},
			files: map[string]string{"web_search": "tools/util.json", "web_visit": "tools/util.json", "get_field_info": "tools/util.json",
				"list_onto_tasks": "tools/onto_read.json", "create_onto_goal": "tools/onto_write.json", "search_onto_plans": "tools/onto_read.json",
				"get_weather": "openai_chat.json", "get_forecast": "openai_chat.json"},
			want: map[string]string{
				"web_search":     "util.web.search read",
				"get_field_info": "util.field.info.get read",
				"get_weather":    "weather.get read",
			},
		},
		{
			// A group is a provider name (an OpenAI namespace, a section
			// key): these made Deferred(h) and Sections(h) fail.
			name:  "input files whose names cannot be groups",
			tools: []string{"list_items", "get_item", "list_rooms", "get_room", "ping", "pong"},
			files: map[string]string{"list_items": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json", "get_item": "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa.json",
				"list_rooms": "catálogo.json", "get_room": "catálogo.json", "ping": "other.json", "pong": "other.json"},
			want: map[string]string{
				"list_items": "item.list read",
				"list_rooms": "room.list read",
				"ping":       "other.ping read",
			},
		},
		{
			name:  "a verb and its inverse share an entity",
			tools: []string{"link_onto_entities", "unlink_onto_edge", "list_onto_tasks", "create_onto_goal"},
			descs: map[string]string{"link_onto_entities": "Link two entities with a typed edge."},
			want: map[string]string{
				"link_onto_entities": "onto.edge.link write",
				"unlink_onto_edge":   "onto.edge.unlink write",
			},
		},
		{
			name:  "what is added to a thing follows it",
			tools: []string{"add_reply_to_pull_request_comment", "create_pull_request", "list_pull_requests", "copy_file_to_folder"},
			want: map[string]string{
				"add_reply_to_pull_request_comment": "pull_request.comment.reply.add write",
				"copy_file_to_folder":               "file.folder.copy write",
			},
		},
		{
			name:  "a Class_method name takes the method's verb",
			tools: []string{"PlanAdjustment_adjustRehabPlan", "ChangeLog_getEntries"},
			want: map[string]string{
				"PlanAdjustment_adjustRehabPlan": "plan.adjustment.rehab.plan.adjust write",
				"ChangeLog_getEntries":           "change.log.entry.get read",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := family(c.tools...)
			for _, tl := range f.Tools {
				tl.Description = c.descs[tl.Name]
				if file := c.files[tl.Name]; file != "" {
					tl.Pos.File = file
				}
			}
			var m *manifest.Manifest
			if c.manifest != "" {
				var err error
				if m, err = manifest.Load("toolgen.yaml", []byte(c.manifest)); err != nil {
					t.Fatal(err)
				}
			}
			if err := Derive(f, m); err != nil {
				t.Fatal(err)
			}
			ops := opsOf(f)
			for tool, want := range c.want {
				op := ops[tool]
				if got := op.Path + " " + string(op.Kind); got != want {
					t.Errorf("%s → %s, want %s", tool, got, want)
				}
			}
		})
	}
}

func TestTaxonomyAnnotations(t *testing.T) {
	yes, no := true, false
	f := family("archive_thing", "delete_thing", "frobnicate_thing")
	f.Tools[0].Annotations.ReadOnly = &yes    // annotation beats the verb
	f.Tools[1].Annotations.Destructive = &yes // agrees with the verb
	f.Tools[2].Annotations.ReadOnly = &no     // unknown verb, but annotated
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	ops := opsOf(f)
	for tool, want := range map[string]string{"archive_thing": "read", "delete_thing": "write", "frobnicate_thing": "write"} {
		if string(ops[tool].Kind) != want {
			t.Errorf("%s kind %s, want %s", tool, ops[tool].Kind, want)
		}
	}
	if len(f.Warnings) != 0 {
		t.Errorf("annotated tools warned: %v", f.Warnings)
	}
}

// TestDestructiveHint: a write's destructiveHint is true for a verb that
// removes or overwrites, false only for one that adds or changes what the
// call says, and unsaid (MCP reads it as true) otherwise; false was said
// of drop_table, wipe_disk and every write whose verb was not a
// destructive one.
func TestDestructiveHint(t *testing.T) {
	f := family("drop_table", "delete_user", "terminate_instance", "create_user", "send_message", "update_user", "wipe_disk", "run_command")
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"drop_table": "true", "delete_user": "true", "terminate_instance": "true",
		"create_user": "false", "send_message": "false", "update_user": "false", "wipe_disk": "true", "run_command": "unsaid"}
	for _, tl := range f.Tools {
		got := "unsaid"
		if d := tl.Annotations.Destructive; d != nil {
			got = fmt.Sprint(*d)
		}
		if got != want[tl.Name] {
			t.Errorf("%s: destructiveHint %s, want %s", tl.Name, got, want[tl.Name])
		}
	}
}

// TestEitherVerbs: a verb that reads in most names and writes in some
// (format, generate, load, …) reads unless the description says the tool
// removes, stores or sends something: format_disk was a read, run by a
// gateway whose writes were off and marked readOnly for MCP clients.
func TestEitherVerbs(t *testing.T) {
	cases := []struct{ name, desc, want string }{
		{"format_disk", "Formats a disk, erasing all data on it.", "write"},
		{"format_date", "Formats a date as text.", "read"},
		{"generate_api_key", "Generates an API key and stores it in the vault.", "write"},
		{"generate_report", "Creates a report of the quarter's sales.", "read"},
		{"generate_sound_wave", "Generates a sound wave and saves it to a WAV file.", "write"},
		{"load_fixtures", "Loads fixtures into the database, overwriting existing rows.", "write"},
		{"convert_currency", "Converts an amount between currencies.", "read"},
		{"export_table", "Exports a table as CSV. The first-past-the-post rows come first.", "read"},
	}
	var names []string
	for _, c := range cases {
		names = append(names, c.name)
	}
	f := family(names...)
	for i, c := range cases {
		f.Tools[i].Description = c.desc
	}
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	ops := opsOf(f)
	for _, c := range cases {
		if got := string(ops[c.name].Kind); got != c.want {
			t.Errorf("%s (%q): %s, want %s", c.name, c.desc, got, c.want)
		}
	}
}

func TestTaxonomyUnknownVerb(t *testing.T) {
	f := family("frobnicate_widgets")
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	if f.Ops[0].Kind != "write" || f.Ops[0].Path != "widget.frobnicate" {
		t.Errorf("op %s kind %s", f.Ops[0].Path, f.Ops[0].Kind)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Code != "unknown-verb" || !strings.Contains(f.Warnings[0].Message, `unknown verb "frobnicate"`) || f.Warnings[0].Pos.Line != 2 {
		t.Errorf("warnings = %+v", f.Warnings)
	}
}

func TestTaxonomyErrors(t *testing.T) {
	cases := []struct {
		name, manifest string
		tools          []string
		want           string
	}{
		{"override unknown tool", "overrides:\n  list_taks: x.list\n", []string{"list_tasks"},
			`toolgen.yaml:2:3: /overrides/list_taks: unknown tool "list_taks"; did you mean "list_tasks"?`},
		{"op entry's unknown tool, at the name", "ops:\n  task.list:\n    kind: read\n    tool: list_taks\n", []string{"list_tasks"},
			`toolgen.yaml:4:11: /ops/task.list/tool: unknown tool "list_taks"; did you mean "list_tasks"?`},
		{"op without tool", "ops:\n  task.lst:\n    kind: read\n", []string{"list_tasks"},
			`toolgen.yaml:2:3: /ops/task.lst: no tool maps to op "task.lst"; did you mean "task.list"?`},
		// Another group's op of the same action, too far to be a typo.
		{"op in another group", "ops:\n  tools.ping:\n    kind: read\n", []string{"misc_ping"},
			`toolgen.yaml:2:3: /ops/tools.ping: no tool maps to op "tools.ping"; did you mean "misc.ping"?`},
		{"op near nothing", "ops:\n  zzz.qqq:\n    kind: read\n", []string{"misc_ping"},
			`toolgen.yaml:2:3: /ops/zzz.qqq: no tool maps to op "zzz.qqq"; toolgen inspect without -c lists the ops the tools map to`},
		// Two overrides of one op: the manifest's second is wrong, not a tool.
		{"duplicate op", "overrides:\n  list_task: a.b\n  list_tasks: a.b\n", []string{"list_tasks", "list_task"},
			`toolgen.yaml:3:3: /overrides/list_tasks: override of tool "list_tasks" names op "a.b", as the override of tool "list_task" does (2:3); an op serves one tool: map one of them to another op`},
		{"duplicate op by op entry", "overrides:\n  list_task: a.b\nops:\n  a.b: {tool: list_tasks}\n", []string{"list_tasks", "list_task"},
			`toolgen.yaml:4:15: /ops/a.b/tool: override of tool "list_tasks" names op "a.b", as the override of tool "list_task" does (2:3); an op serves one tool: map one of them to another op`},
		{"two mappings", "overrides:\n  list_tasks: a.b\nops:\n  c.d: {tool: list_tasks}\n", []string{"list_tasks"},
			`toolgen.yaml:4:15: /ops/c.d/tool: tool "list_tasks" is already mapped to op "a.b"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m *manifest.Manifest
			if c.manifest != "" {
				var err error
				if m, err = manifest.Load("toolgen.yaml", []byte(c.manifest)); err != nil {
					t.Fatal(err)
				}
			}
			err := Derive(family(c.tools...), m)
			if err == nil || err.Error() != c.want {
				t.Errorf("error:\n got %v\nwant %s", err, c.want)
			}
		})
	}
}

// TestExamplesChecked: a manifest example the op's tool would refuse is an
// error located at the example (help shows examples as ready-to-run
// calls); a valid one passes.
func TestExamplesChecked(t *testing.T) {
	f := family("get_repo")
	f.Tools[0].ParamsSchema = json.RawMessage(`{"type":"object","properties":{"repo":{"type":"string"},"limit":{"type":"integer"}},"required":["repo"],"additionalProperties":false}`)
	m, err := manifest.Load("toolgen.yaml", []byte("ops:\n  repo.get:\n    examples:\n      - args: {repo: toolgen}\n      - args: {repo: 5, limt: 3}\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = Derive(f, m)
	want := "toolgen.yaml:5:22: /ops/repo.get/examples/1/args/repo: example 1 is not a valid call of get_repo: expected string, received number 5\n" +
		`toolgen.yaml:5:25: /ops/repo.get/examples/1/args/limt: example 1 is not a valid call of get_repo: unknown property "limt"`
	if err == nil || err.Error() != want {
		t.Errorf("error:\n got %v\nwant %s", err, want)
	}
}

// TestExampleErrorsLocated: an example's violations are each located at
// what they are about, the same every run (the validator lists additional
// properties in map order).
func TestExampleErrorsLocated(t *testing.T) {
	cases := []struct{ name, args, want string }{
		{"additional", "{title: x, zz: 1, aa: 2, mm: 3, bb: 4}",
			`toolgen.yaml:4:26: /ops/todo.create/examples/0/args/zz: example 0 is not a valid call of create_todo: unknown property "zz"
toolgen.yaml:4:33: /ops/todo.create/examples/0/args/aa: example 0 is not a valid call of create_todo: unknown property "aa"
toolgen.yaml:4:40: /ops/todo.create/examples/0/args/mm: example 0 is not a valid call of create_todo: unknown property "mm"
toolgen.yaml:4:47: /ops/todo.create/examples/0/args/bb: example 0 is not a valid call of create_todo: unknown property "bb"`},
		{"missing", "{tags: [a, 2]}",
			`toolgen.yaml:4:15: /ops/todo.create/examples/0/args: example 0 is not a valid call of create_todo: missing required property "title"
toolgen.yaml:4:26: /ops/todo.create/examples/0/args/tags/1: example 0 is not a valid call of create_todo: expected string, received number 2`},
		{"odd names", `{title: x, "it's": 1, "a, b": 2, "q\"": 3}`,
			`toolgen.yaml:4:26: /ops/todo.create/examples/0/args/it's: example 0 is not a valid call of create_todo: unknown property "it's"
toolgen.yaml:4:37: /ops/todo.create/examples/0/args/a, b: example 0 is not a valid call of create_todo: unknown property "a, b"
toolgen.yaml:4:48: /ops/todo.create/examples/0/args/q": example 0 is not a valid call of create_todo: unknown property "q\""`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for range 20 {
				f := family("create_todo")
				f.Tools[0].ParamsSchema = json.RawMessage(`{"type":"object","properties":{"title":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["title"],"additionalProperties":false}`)
				m, err := manifest.Load("toolgen.yaml", []byte("ops:\n  todo.create:\n    examples:\n      - args: "+c.args+"\n"))
				if err != nil {
					t.Fatal(err)
				}
				if err := Derive(f, m); err == nil || err.Error() != c.want {
					t.Fatalf("error:\n got %v\nwant %s", err, c.want)
				}
			}
		})
	}
	// A manifest made in code has no positions for its examples: the
	// errors are at the op, saying where in the example, sorted.
	f := family("create_todo")
	f.Tools[0].ParamsSchema = json.RawMessage(`{"type":"object","additionalProperties":false}`)
	m := &manifest.Manifest{Ops: []manifest.Op{{Path: "todo.create", Pos: ir.Pos{File: "m.yaml", Line: 2, Col: 3, Pointer: "/ops/todo.create"},
		Examples: []ir.Example{{Args: json.RawMessage(`{"zz":1,"aa":2,"mm":3}`)}}}}}
	want := `m.yaml:2:3: /ops/todo.create: example 0 is not a valid call of create_todo: /aa: unknown property "aa"
m.yaml:2:3: /ops/todo.create: example 0 is not a valid call of create_todo: /mm: unknown property "mm"
m.yaml:2:3: /ops/todo.create: example 0 is not a valid call of create_todo: /zz: unknown property "zz"`
	for range 20 {
		if err := Derive(f, m); err == nil || err.Error() != want {
			t.Fatalf("error:\n got %v\nwant %s", err, want)
		}
	}
}

func TestUsageAndExample(t *testing.T) {
	tool := &ir.Tool{Name: "create_onto_task", ParamsSchema: json.RawMessage(`{"type":"object","properties":{
		"title":{"type":"string","description":"Title. Short."},
		"priority":{"type":"integer","default":3},
		"project_id":{"type":"string","format":"uuid"},
		"state":{"enum":["todo","done"]},
		"due":{"type":["string","null"],"format":"date-time"},
		"tags":{"type":"array","items":{"type":"string"}},
		"moves":{"type":"array","items":{"type":"object","properties":{"id":{"type":"integer"},"x":{"type":"string"}},"required":["id"]}}},
		"required":["title","project_id","state","moves"]}`)}
	args := OpArgs(tool)
	if len(args) != 7 || args[0].Description != "Title." || args[1].Default != "3" {
		t.Fatalf("args = %+v", args)
	}
	want := "onto.task.create title:string project_id:string state:enum(todo|done) moves:array<object> [priority:integer=3] [due:string|null] [tags:array<string>]"
	if got := Usage("onto.task.create", args); got != want {
		t.Errorf("usage\n got %s\nwant %s", got, want)
	}
	ex := SynthesizeExample("onto.task.create", tool)
	wantArgs := `{"title":"<title>","project_id":"00000000-0000-0000-0000-000000000000","state":"todo","moves":[{"id":1}]}`
	if string(ex.Args) != wantArgs {
		t.Errorf("example\n got %s\nwant %s", ex.Args, wantArgs)
	}
}

// TestUsageMatchesGateway: the gateway's fallback usage line follows the
// taxonomy's rule, so a line the gateway renders reads like a generated one.
func TestUsageMatchesGateway(t *testing.T) {
	args := OpArgs(&ir.Tool{Name: "list_tasks", ParamsSchema: json.RawMessage(`{"type":"object","properties":{
		"limit":{"type":"integer","default":20},
		"project_id":{"type":"string"},
		"state":{"enum":["todo","done",null]},
		"tags":{"type":"array","items":{"type":"string"}}},
		"required":["project_id","tags"]}`)})
	gw := make([]gateway.Arg, len(args))
	for i, a := range args {
		gw[i] = gateway.Arg(a)
	}
	for _, path := range []string{"onto.task.list", "x"} {
		if got, want := gateway.UsageLine(path, gw), Usage(path, args); got != want {
			t.Errorf("gateway.UsageLine\n got %s\nwant %s", got, want)
		}
	}
	if got := gateway.UsageLine("x", nil); got != Usage("x", nil) {
		t.Errorf("no args: %q", got)
	}
}

func TestRegistryVersionStable(t *testing.T) {
	build := func(params string) string {
		f := family("list_tasks", "create_task")
		f.Tools[0].ParamsSchema = json.RawMessage(params)
		if err := Derive(f, nil); err != nil {
			t.Fatal(err)
		}
		return f.RegistryVersion
	}
	a := build(`{"type":"object","properties":{"limit":{"type":"integer","maximum":100}}}`)
	b := build(`{"properties":{"limit":{"maximum":100,"type":"integer"}},"type":"object"}`)
	c := build(`{"type":"object","properties":{"limit":{"type":"integer","maximum":50}}}`)
	if a != b {
		t.Errorf("key order changed the version: %s vs %s", a, b)
	}
	if a == c {
		t.Error("a schema change kept the version")
	}
	if len(a) != 16 {
		t.Errorf("version %q", a)
	}
}

func TestNameTokens(t *testing.T) {
	for in, want := range map[string]string{
		"list_onto_tasks": "list onto tasks",
		"getHTTPResponse": "get http response",
		"web.search":      "web search",
		"Search Files":    "search files",
		"get-v2Items":     "get v2 items",
	} {
		if got := strings.Join(nameTokens(in), " "); got != want {
			t.Errorf("nameTokens(%q) = %q, want %q", in, got, want)
		}
	}
}

func BenchmarkTaxonomy(b *testing.B) {
	names := []string{"list_onto_tasks", "get_onto_task_details", "create_onto_task", "update_onto_task", "delete_onto_task", "web_search"}
	for b.Loop() {
		f := family(names...)
		if err := Derive(f, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// Two tools whose names derive the same op by rule (list_tasks, list_task)
// both stay callable: the later one gets a path from its own name and the
// user is told how to choose.
func TestTaxonomyRuleCollisionWarns(t *testing.T) {
	f := family("list_tasks", "list_task")
	if err := Derive(f, nil); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, op := range f.Ops {
		paths = append(paths, op.Path)
	}
	if got := strings.Join(paths, " "); got != "task.list_tasks task.list" {
		t.Fatalf("ops: %s", got)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Code != "op-collision" || !strings.Contains(f.Warnings[0].Message, `using "task.list_tasks"`) {
		t.Fatalf("warnings: %+v", f.Warnings)
	}
}

// A declared group without prefix or infix rules claims the tools whose
// entity is its name; a declared group that claims nothing is reported.
func TestTaxonomyNamedGroups(t *testing.T) {
	m, err := manifest.Load("toolgen.yaml", []byte("groups:\n  todo: Track todo items.\n  billing: Invoices.\n"))
	if err != nil {
		t.Fatal(err)
	}
	f := family("list_todos", "create_todo", "get_user")
	if err := Derive(f, m); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, op := range f.Ops {
		paths = append(paths, op.Path+"@"+op.Group+"/"+op.Entity)
	}
	if got := strings.Join(paths, " "); got != "todo.list@todo/todo todo.create@todo/todo user.get@user/user" {
		t.Fatalf("ops: %s", got)
	}
	if len(f.Warnings) != 1 || f.Warnings[0].Code != "unused-group" || !strings.Contains(f.Warnings[0].Message, `group "billing" matches no tool`) {
		t.Fatalf("warnings: %+v", f.Warnings)
	}
}

// Argument summaries keep a sentence whole across abbreviations.
func TestFirstSentenceKeepsAbbreviations(t *testing.T) {
	for in, want := range map[string]string{
		"The item's id, e.g. td_1.":              "The item's id, e.g. td_1.",
		"Title. Short.":                          "Title.",
		"Filter, i.e. a state. Another sentence": "Filter, i.e. a state.",
		"first line\nsecond line":                "first line",
	} {
		if got := firstSentence(in); got != want {
			t.Errorf("firstSentence(%q) = %q, want %q", in, got, want)
		}
	}
}

// Tools whose names read as the same op (a-b / A_B, get_item / Get_Item)
// get distinct ops, with a located warning, and which tool keeps the
// derived path does not depend on input order. The manifest wins over a
// rule and can override.
func TestTaxonomyCollisionsResolved(t *testing.T) {
	cases := []struct {
		names    []string
		manifest string
		want     map[string]string
	}{
		{[]string{"a-b", "A_B"}, "", map[string]string{"A_B": "b.a", "a-b": "b.a_b"}},
		{[]string{"get_item", "Get_Item", "GET_ITEM"}, "", map[string]string{"GET_ITEM": "item.get", "Get_Item": "item.get_item", "get_item": "item.get_item_2"}},
		{[]string{"get_item", "Get_Item"}, "overrides:\n  get_item: item.get\n", map[string]string{"get_item": "item.get", "Get_Item": "item.get_item"}},
		{[]string{"get_item", "Get_Item"}, "overrides:\n  Get_Item: items.fetch\n", map[string]string{"get_item": "item.get", "Get_Item": "items.fetch"}},
	}
	for _, c := range cases {
		for _, perm := range permutations(c.names) {
			t.Run(strings.Join(perm, ","), func(t *testing.T) {
				var m *manifest.Manifest
				if c.manifest != "" {
					var err error
					if m, err = manifest.Load("toolgen.yaml", []byte(c.manifest)); err != nil {
						t.Fatal(err)
					}
				}
				f := family(perm...)
				if err := Derive(f, m); err != nil {
					t.Fatal(err)
				}
				got := map[string]string{}
				for _, op := range f.Ops {
					got[op.Tool.Name] = op.Path
				}
				for name, want := range c.want {
					if got[name] != want {
						t.Errorf("%s: op %q, want %q (all: %v)", name, got[name], want, got)
					}
				}
				warned := 0
				for _, w := range f.Warnings {
					if w.Code == "op-collision" {
						warned++
						if w.Pos.File == "" {
							t.Errorf("unlocated warning %+v", w)
						}
					}
				}
				if want := len(c.names) - 1; c.manifest == "" && warned != want {
					t.Errorf("%d collision warnings, want %d: %+v", warned, want, f.Warnings)
				}
			})
		}
	}
}

// permutations lists every order of xs.
func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{append([]string(nil), xs...)}
	}
	var out [][]string
	for i := range xs {
		rest := append(append([]string(nil), xs[:i]...), xs[i+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{xs[i]}, p...))
		}
	}
	return out
}

// Names without a word (separators, digits, other scripts) get ops of
// their own, alone or among ordinary names, and never stop the taxonomy
// (found by FuzzPipeline: a tool named "_" made detectGroups index an empty
// token list).
func TestTaxonomyNamesWithoutWords(t *testing.T) {
	for _, names := range [][]string{
		{"_"},
		{"_", "__", "-"},
		{"_", "list_onto_tasks", "create_onto_goal", "get_onto_plan", "slack_post_message", "slack_list_channels"},
		{"1", "2_3", "日本", "éé"},
	} {
		f := family(names...)
		if err := Derive(f, nil); err != nil {
			t.Errorf("%q: %v", names, err)
			continue
		}
		paths := map[string]bool{}
		for _, op := range f.Ops {
			if op.Path == "" || paths[op.Path] {
				t.Errorf("%q: op %q of %q is empty or taken twice", names, op.Path, op.Tool.Name)
			}
			paths[op.Path] = true
		}
		if len(f.Ops) != len(names) {
			t.Errorf("%q: %d ops, want %d", names, len(f.Ops), len(names))
		}
	}
}

// TestForEachPanic: a panic in one of forEach's workers is raised again on
// the caller's goroutine, where it can be recovered (with the worker's
// stack when it ran on one).
func TestForEachPanic(t *testing.T) {
	defer func() {
		msg, _ := recover().(string)
		if !strings.HasPrefix(msg, "worker boom") {
			t.Errorf("recovered %q", msg)
		}
	}()
	forEach(100_000, func(i int) {
		if i == 10 {
			panic("worker boom")
		}
	})
	t.Error("no panic")
}

// TestUsageRefAndEnumLabels: a $ref argument is labelled by what it points
// to (a string enum in $defs is not an object), through chains, pointer
// escapes and percent-encoding; a $ref that cannot be followed keeps the
// object label, and a cycle ends. Enum values that hold the label's own
// syntax ('|', '(', ')', '"') or are empty are quoted, so the label reads
// back unambiguously.
func TestUsageRefAndEnumLabels(t *testing.T) {
	args := OpArgs(&ir.Tool{Name: "r", ParamsSchema: json.RawMessage(`{"type":"object","$defs":{
		"mode":{"type":"string","enum":["fast","slow"]},
		"a/b":{"type":"string","maxLength":1},
		"c~d":{"type":"integer"},
		"e f":{"type":"boolean"},
		"obj":{"type":"object","properties":{"q":{"type":"string"}}},
		"chain":{"$ref":"#/$defs/mode"},
		"loop":{"$ref":"#/$defs/loop"},
		"odd":{"enum":["a|b","(x)","","say \"hi\"","plain",null]}
	},"properties":{
		"m":{"$ref":"#/$defs/mode"},
		"p1":{"$ref":"#/$defs/a~1b"},
		"p2":{"$ref":"#/$defs/c~0d"},
		"p3":{"$ref":"#/$defs/e%20f"},
		"o":{"$ref":"#/$defs/obj"},
		"ch":{"$ref":"#/$defs/chain"},
		"viaprop":{"$ref":"#/properties/p1"},
		"arr":{"type":"array","items":{"$ref":"#/$defs/c~0d"}},
		"alt":{"anyOf":[{"$ref":"#/$defs/e%20f"},{"type":"null"}]},
		"loop":{"$ref":"#/$defs/loop"},
		"missing":{"$ref":"#/$defs/nope"},
		"remote":{"$ref":"https://example.com/s.json"},
		"odd":{"$ref":"#/$defs/odd"}
	}}`)})
	got := map[string]string{}
	for _, a := range args {
		got[a.Name] = a.Type
	}
	want := map[string]string{
		"m": "enum(fast|slow)", "p1": "string", "p2": "integer", "p3": "boolean", "o": "object",
		"ch": "enum(fast|slow)", "viaprop": "string", "arr": "array<integer>", "alt": "boolean|null",
		"loop": "object", "missing": "object", "remote": "object",
		"odd": `enum("a|b"|"(x)"|""|"say \"hi\""|plain|null)`,
	}
	for name, w := range want {
		if got[name] != w {
			t.Errorf("%s: label %s, want %s", name, got[name], w)
		}
	}
}

// TestUsageUnionLabelBounded: a union's label names its first six distinct
// alternatives and marks the rest, as an enum's (an 80,000-branch oneOf
// wrote a usage line of 800 KB).
func TestUsageUnionLabelBounded(t *testing.T) {
	label := func(branches string) string {
		args := OpArgs(&ir.Tool{Name: "r", ParamsSchema: json.RawMessage(`{"type":"object","properties":{"u":{"oneOf":[` + branches + `]}}}`)})
		return args[0].Type
	}
	var many []string
	for i := range 80000 {
		many = append(many, fmt.Sprintf(`{"const":%d}`, i))
	}
	for _, c := range []struct{ branches, want string }{
		{strings.Join(many, ","), "const(0)|const(1)|const(2)|const(3)|const(4)|const(5)|…"},
		{`{"type":"string"},{"type":"integer"},{"type":"string"}`, "string|integer"},
		// Six distinct alternatives and repeats of them: nothing more.
		{`{"const":1},{"const":2},{"const":3},{"const":4},{"const":5},{"const":6},{"const":1}`, "const(1)|const(2)|const(3)|const(4)|const(5)|const(6)"},
	} {
		if got := label(c.branches); got != c.want {
			t.Errorf("label %.200s, want %s", got, c.want)
		}
	}
}

// TestUsageRefLabelBounded: $refs make a schema a graph, and a label that
// takes in a target's label twice doubles at each $ref followed: 80 such
// links label quickly, in a bounded length.
func TestUsageRefLabelBounded(t *testing.T) {
	var defs []string
	for i := range 80 {
		next := fmt.Sprintf(`{"$ref":"#/$defs/d%d"}`, i+1)
		defs = append(defs, fmt.Sprintf(`"d%d":{"anyOf":[{"type":"array","items":%s},{"type":"array","items":{"type":"array","items":%s}}]}`, i, next, next))
	}
	defs = append(defs, `"d80":{"type":"string"}`)
	props := make([]string, 0, 500)
	for i := range 500 {
		props = append(props, fmt.Sprintf(`"p%d":{"$ref":"#/$defs/d0"}`, i))
	}
	schema := `{"type":"object","$defs":{` + strings.Join(defs, ",") + `},"properties":{` + strings.Join(props, ",") + `}}`
	start := time.Now()
	args := OpArgs(&ir.Tool{Name: "deep", ParamsSchema: json.RawMessage(schema)})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v", d)
	}
	if len(args) != 500 || len(args[0].Type) > maxRefLabel || !strings.HasPrefix(args[0].Type, "array<") || args[0].Type != args[499].Type {
		t.Errorf("%d args, first label %q", len(args), args[0].Type)
	}
}

// scaleWord is the i-th of many distinct lowercase words that no verb
// table knows (qbbbb, qcbbb, ...).
func scaleWord(i int) string {
	b := []byte("q")
	for range 4 {
		b = append(b, "bcdfghjklmnpqrstvwxz"[i%20])
		i /= 20
	}
	return string(b)
}

// BenchmarkTaxonomyScale derives families whose size grows in what each
// tool's derivation once scanned whole: detected prefix groups (each
// ungrouped tool sorted every group token), groups holding one entity
// (each ungrouped tool on it sorted them all), entities of one group
// (each op searched its group's entity list), the branches of a oneOf
// (each branch's label searched those before it), manifest groups (each
// searched every op) and manifest ops (each op searched the manifest's
// list). The time and bytes per tool (branch) stay flat as n grows.
func BenchmarkTaxonomyScale(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		b.Run(fmt.Sprintf("prefix_groups/%d", n), func(b *testing.B) {
			var names []string
			for i := range n {
				names = append(names, scaleWord(i)+"_get_thing", scaleWord(i)+"_list_things", "get_z"+scaleWord(i))
			}
			benchDerive(b, names, nil)
		})
		b.Run(fmt.Sprintf("entity_owners/%d", n), func(b *testing.B) {
			var names []string
			for i := range n {
				names = append(names, scaleWord(i)+"_get_thing", scaleWord(i)+"_list_things", "get_thing_z"+scaleWord(i))
			}
			benchDerive(b, names, nil)
		})
		b.Run(fmt.Sprintf("entities/%d", n), func(b *testing.B) {
			var names []string
			for i := range n {
				names = append(names, "get_z"+scaleWord(i))
			}
			benchDerive(b, names, nil)
		})
		b.Run(fmt.Sprintf("oneof_branches/%d", n), func(b *testing.B) {
			var branches []string
			for i := range n {
				branches = append(branches, fmt.Sprintf(`{"const":%d}`, i))
			}
			schema := json.RawMessage(`{"type":"object","properties":{"a":{"oneOf":[` + strings.Join(branches, ",") + `]}}}`)
			b.ReportAllocs()
			for b.Loop() {
				f := family("get_x")
				f.Tools[0].ParamsSchema = schema
				if err := Derive(f, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/branch")
		})
		b.Run(fmt.Sprintf("manifest/%d", n), func(b *testing.B) {
			var names []string
			var y strings.Builder
			y.WriteString("groups:\n")
			for i := range n {
				fmt.Fprintf(&y, "  %s: S.\n", scaleWord(i))
			}
			y.WriteString("ops:\n")
			for i := range n {
				names = append(names, "get_z"+scaleWord(i))
				fmt.Fprintf(&y, "  o%s.get:\n    kind: read\n    tool: get_z%s\n", scaleWord(i), scaleWord(i))
			}
			m, err := manifest.Load("toolgen.yaml", []byte(y.String()))
			if err != nil {
				b.Fatal(err)
			}
			benchDerive(b, names, m)
		})
	}
}

func benchDerive(b *testing.B, names []string, m *manifest.Manifest) {
	b.ReportAllocs()
	for b.Loop() {
		if err := Derive(family(names...), m); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(names)), "ns/tool")
}

// shortestPrefix finds what a scan of the sorted tokens for the first one
// of at least min bytes that s starts with finds.
func TestShortestPrefix(t *testing.T) {
	sorted := []string{"ab", "abc", "abcd", "abcz", "abd", "b", "onto", "ontology", "zz", "zzz", "é", "éab"}
	scan := func(s string, min int) string {
		for _, g := range sorted {
			if len(g) >= min && strings.HasPrefix(s, g) {
				return g
			}
		}
		return ""
	}
	for _, s := range []string{"", "a", "ab", "abc", "abcd", "abcdz", "abcz", "abd", "abdx", "abe", "b", "bz", "ontology", "ontologies", "onto", "ont", "zz", "zzzz", "zy", "é", "éa", "éabc", "\xff"} {
		for _, min := range []int{0, 1, 2, 3, 4} {
			if got, want := shortestPrefix(sorted, s, min), scan(s, min); got != want {
				t.Errorf("shortestPrefix(%q, %d) = %q, want %q", s, min, got, want)
			}
		}
	}
	if got := shortestPrefix(nil, "abc", 0); got != "" {
		t.Errorf("no tokens: %q", got)
	}
}

// A manifest naming thousands of unknown tools or ops is reported without
// comparing each name with every tool: the first maxSuggestions errors of
// each kind suggest a name, the rest do not (no one reads that far; a
// 600 kB manifest of unknown names took 40 s). Every error is reported.
func TestTaxonomySuggestionsBounded(t *testing.T) {
	n := maxSuggestions + 20
	var y strings.Builder
	y.WriteString("overrides:\n")
	for i := range n {
		fmt.Fprintf(&y, "  list_%sz: g.o%d.list\n", scaleWord(i), i)
	}
	y.WriteString("ops:\n")
	for i := range n {
		fmt.Fprintf(&y, "  tools.%s.lst:\n    kind: read\n", scaleWord(i))
	}
	m, err := manifest.Load("toolgen.yaml", []byte(y.String()))
	if err != nil {
		t.Fatal(err)
	}
	var tools []string
	for i := range n {
		tools = append(tools, "list_"+scaleWord(i))
	}
	err = Derive(family(tools...), m)
	var list jsonpos.ErrorList
	if !errors.As(err, &list) {
		t.Fatalf("error %v", err)
	}
	var unknown, unmapped, suggested, suggestedOps int
	for _, e := range list {
		switch {
		case strings.Contains(e.Message, "unknown tool"):
			unknown++
			if strings.Contains(e.Message, "did you mean") {
				suggested++
			}
		case strings.Contains(e.Message, "no tool maps to op"):
			unmapped++
			if strings.Contains(e.Message, "did you mean") {
				suggestedOps++
			}
		}
	}
	if unknown != n || unmapped != n || suggested != maxSuggestions || suggestedOps != maxSuggestions {
		t.Errorf("%d unknown tools (%d suggest one), %d unmapped ops (%d suggest one); want %d each, %d suggesting",
			unknown, suggested, unmapped, suggestedOps, n, maxSuggestions)
	}
	if !strings.Contains(list[0].Message, `did you mean "list_qbbbb"?`) {
		t.Errorf("first error: %s", list[0].Message)
	}
}
