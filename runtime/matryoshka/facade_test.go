package matryoshka

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
)

// recorder is a set of plain tools that record their calls.
type recorder struct {
	mu    sync.Mutex
	calls []string
}

func (r *recorder) tool(name, desc string) runtime.Tool {
	params := json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"},"limit":{"type":"integer"}},"required":["id"]}`)
	return runtime.Tool{Name: name, Description: desc, Parameters: params,
		Handler: func(_ context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			r.mu.Lock()
			r.calls = append(r.calls, tc.Call().Name+" "+string(args))
			r.mu.Unlock()
			return runtime.Result{Success: true, Message: name + " done"}, nil
		}}
}

func (r *recorder) tools(names ...string) []runtime.Tool {
	out := make([]runtime.Tool, len(names))
	for i, n := range names {
		out[i] = r.tool(n, "Runs "+n+".")
	}
	return out
}

func names(ts []runtime.Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.Name
	}
	return out
}

// call dispatches t like an orchestrator would and applies the strategy.
func call(t *testing.T, tb *Toolbox, s Strategy, tool runtime.Tool, args string) runtime.Result {
	t.Helper()
	c := runtime.ToolCall{ID: "c1", Name: tool.Name, Args: json.RawMessage(args)}
	res, err := runtime.Dispatch(context.Background(), tool, runtime.NewToolContext(runtime.ContextParts{Call: c}), c.Args)
	if err != nil {
		t.Fatalf("Dispatch(%s): %v", tool.Name, err)
	}
	if tb != nil {
		tb.Apply(s.Evaluate(InjectionContext{Toolbox: tb, Call: c, Result: res}))
	}
	return res
}

func mustToolbox(t *testing.T, tools ...runtime.Tool) *Toolbox {
	t.Helper()
	tb, err := NewToolbox(tools...)
	if err != nil {
		t.Fatal(err)
	}
	return tb
}

func get(t *testing.T, tb *Toolbox, name string) runtime.Tool {
	t.Helper()
	tool, ok := tb.Get(name)
	if !ok {
		t.Fatalf("toolbox has no %s; has %v", name, tb.Names())
	}
	return tool
}

// Spec 003, "Simple Facade".
func TestSimpleFacadeUnfolds(t *testing.T) {
	var r recorder
	db := Facade("database_operations", "Use this tool to work with the database. Invoke to reveal specific operations.",
		r.tools("query_table", "insert_record", "update_record"))
	tb := mustToolbox(t, r.tool("ping", "Ping."), db, r.tool("pong", "Pong."))

	res := call(t, tb, Unfold{}, db, `{}`)
	if !res.Success {
		t.Fatalf("facade failed: %s", res.Message)
	}
	want := []string{"ping", "query_table", "insert_record", "update_record", "pong"}
	if diff := cmp.Diff(want, tb.Names()); diff != "" {
		t.Errorf("toolbox after unfold (-want +got):\n%s", diff)
	}
	wantText := `database_operations unfolded into 3 tools:
- query_table(id: string, limit?: integer) — Runs query_table.
- insert_record(id: string, limit?: integer) — Runs insert_record.
- update_record(id: string, limit?: integer) — Runs update_record.
If these tools are not offered to you, call database_operations with {"tool": "<name>", "args": {...}} to run one directly.`
	if diff := cmp.Diff(wantText, runtime.RenderResult(res)); diff != "" {
		t.Errorf("rendered answer (-want +got):\n%s", diff)
	}
	if got := tb.Origin("query_table"); got != "database_operations" {
		t.Errorf("Origin(query_table) = %q", got)
	}
	if len(r.calls) != 0 {
		t.Errorf("unfolding ran inner handlers: %v", r.calls)
	}
}

// Spec 003, "Category-Based Selection".
func TestCategorySelection(t *testing.T) {
	var r recorder
	inner := r.tools("read_file", "list_directory", "search_files", "write_file", "delete_file", "move_file")
	files := Facade("file_operations", "File operations. Pass category: 'read' or 'write' to reveal relevant tools.", inner,
		Category("read", "read_file", "list_directory", "search_files"),
		Category("write", "write_file", "delete_file", "move_file"))

	wantSchema := `{"type":"object","properties":{` +
		`"category":{"type":"string","enum":["read","write"],"description":"Unfold only the tools of this category; omit to unfold all."},` +
		`"tool":{"type":"string","description":"Run this tool of the group directly instead of unfolding it; pass its arguments in args."},` +
		`"args":{"type":"object","description":"Arguments for tool."}},"additionalProperties":false}`
	if diff := cmp.Diff(wantSchema, string(files.Parameters)); diff != "" {
		t.Errorf("parameters (-want +got):\n%s", diff)
	}
	if err := files.Check(false); err != nil || !files.AcceptsOverrides {
		t.Errorf("Check = %v, AcceptsOverrides = %v", err, files.AcceptsOverrides)
	}

	tests := []struct {
		args string
		want []string
		fail string
	}{
		{`{"category":"write"}`, []string{"write_file", "delete_file", "move_file"}, ""},
		{`{"category":"read"}`, []string{"read_file", "list_directory", "search_files"}, ""},
		{`{}`, names(inner), ""},
		{`{"category":"wirte"}`, nil, `/category: unknown category (did you mean "write"?)`},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			tb := mustToolbox(t, files)
			res := call(t, tb, Unfold{}, files, tt.args)
			if tt.fail != "" {
				if res.Success || !strings.Contains(res.Message, tt.fail) {
					t.Fatalf("result = %v %q, want failure containing %q", res.Success, res.Message, tt.fail)
				}
				if diff := cmp.Diff([]string{"file_operations"}, tb.Names()); diff != "" {
					t.Errorf("failed call changed the toolbox:\n%s", diff)
				}
				return
			}
			if diff := cmp.Diff(tt.want, tb.Names()); diff != "" {
				t.Errorf("toolbox (-want +got):\n%s", diff)
			}
		})
	}
}

// Spec 003, "Nested Matryoshka".
func TestNestedFacades(t *testing.T) {
	var r recorder
	users := Facade("user_management", "User management operations", r.tools("create_user", "delete_user"))
	config := Facade("system_config", "System configuration operations", r.tools("update_config", "backup"),
		Category("config", "update_config"), Category("backup", "backup"))
	admin := Facade("admin_operations", "Administrative operations. Invoke to see categories.", []runtime.Tool{users, config})
	d, ok := Of(admin)
	if !ok || d.Depth() != 2 {
		t.Fatalf("Of(admin) = %v, %v; want depth 2", d, ok)
	}

	tb := mustToolbox(t, admin)
	res := call(t, tb, Unfold{}, admin, `{}`)
	if diff := cmp.Diff([]string{"user_management", "system_config"}, tb.Names()); diff != "" {
		t.Errorf("after admin (-want +got):\n%s", diff)
	}
	wantText := `admin_operations unfolded into 2 tools:
- user_management() [group of 2 tools] — User management operations
- system_config(category?: "config"|"backup") [group of 2 tools] — System configuration operations
If these tools are not offered to you, call admin_operations with {"tool": "<name>", "args": {...}} to run one directly.`
	if diff := cmp.Diff(wantText, runtime.RenderResult(res)); diff != "" {
		t.Errorf("answer (-want +got):\n%s", diff)
	}
	call(t, tb, Unfold{}, get(t, tb, "user_management"), `{}`)
	if diff := cmp.Diff([]string{"create_user", "delete_user", "system_config"}, tb.Names()); diff != "" {
		t.Errorf("after user_management (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"admin_operations", "user_management"}, tb.Open()); diff != "" {
		t.Errorf("open facades (-want +got):\n%s", diff)
	}
	if got := tb.Origin("user_management"); got != "admin_operations" {
		t.Errorf("Origin(user_management) = %q", got)
	}
}

func TestRemoveOnInvoke(t *testing.T) {
	var r recorder
	inner := r.tools("a1", "a2", "b1")
	tests := []struct {
		name  string
		opts  []Option
		calls []string
		want  []string
	}{
		{"removed by default", nil, []string{`{}`}, []string{"x", "a1", "a2", "b1", "y"}},
		{"kept", []Option{KeepOnInvoke()}, []string{`{}`}, []string{"x", "f", "a1", "a2", "b1", "y"}},
		{"kept, invoked twice, no duplicates", []Option{KeepOnInvoke()}, []string{`{}`, `{}`}, []string{"x", "f", "a1", "a2", "b1", "y"}},
		{"kept, second category follows the facade", []Option{KeepOnInvoke(), Category("a", "a1", "a2"), Category("b", "b1")},
			[]string{`{"category":"a"}`, `{"category":"b"}`}, []string{"x", "f", "b1", "a1", "a2", "y"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Facade("f", "Group f.", inner, tt.opts...)
			tb := mustToolbox(t, r.tool("x", "X."), f, r.tool("y", "Y."))
			for _, a := range tt.calls {
				call(t, tb, Unfold{}, f, a)
			}
			if diff := cmp.Diff(tt.want, tb.Names()); diff != "" {
				t.Errorf("toolbox (-want +got):\n%s", diff)
			}
		})
	}
}

func TestShortcutCall(t *testing.T) {
	var r recorder
	users := Facade("user_management", "User management operations", r.tools("create_user", "delete_user"))
	admin := Facade("admin_operations", "Administrative operations.", append([]runtime.Tool{users}, r.tools("audit_log")...))

	tests := []struct {
		name      string
		args      string
		ok        bool
		message   string
		wantCalls []string
	}{
		{"direct inner tool", `{"tool":"audit_log","args":{"id":"7"}}`, true, "audit_log done", []string{`audit_log {"id":"7"}`}},
		{"tool of a nested facade", `{"tool":"create_user","args":{"id":"u1"}}`, true, "create_user done", []string{`create_user {"id":"u1"}`}},
		{"args omitted", `{"tool":"audit_log"}`, true, "audit_log done", []string{`audit_log {}`}},
		{"args double encoded", `{"tool":"audit_log","args":"{\"id\":\"8\"}"}`, true, "audit_log done", []string{`audit_log {"id":"8"}`}},
		{"unknown tool, closest first", `{"tool":"delete_usr"}`, false,
			`facade admin_operations has no tool "delete_usr"; valid tools: delete_user, create_user,`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r.calls = nil
			var bus runtime.EventBus
			var events []string
			bus.Subscribe(func(e runtime.Event) { events = append(events, e.(runtime.ToolInvoked).Tool) })
			tb := mustToolbox(t, admin)
			c := runtime.ToolCall{ID: "c9", Name: admin.Name, Args: json.RawMessage(tt.args)}
			res, err := runtime.Dispatch(context.Background(), admin, runtime.NewToolContext(runtime.ContextParts{Bus: &bus, Call: c}), c.Args)
			if err != nil {
				t.Fatal(err)
			}
			tb.Apply(Unfold{}.Evaluate(InjectionContext{Toolbox: tb, Call: c, Result: res}))
			if res.Success != tt.ok || !strings.HasPrefix(res.Message, tt.message) {
				t.Fatalf("result = %v %q, want %v %q…", res.Success, res.Message, tt.ok, tt.message)
			}
			if diff := cmp.Diff(tt.wantCalls, r.calls); diff != "" {
				t.Errorf("handler calls (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]string{"admin_operations"}, tb.Names()); diff != "" {
				t.Errorf("a shortcut call changed the toolbox:\n%s", diff)
			}
			wantEvents := []string{"admin_operations"}
			if tt.ok {
				wantEvents = []string{strings.Fields(tt.wantCalls[0])[0], "admin_operations"}
			}
			if diff := cmp.Diff(wantEvents, events); diff != "" {
				t.Errorf("ToolInvoked events (-want +got):\n%s", diff)
			}
		})
	}
}

// A shortcut naming a nested facade unfolds that facade, placed by the
// facade that was called.
func TestShortcutToNestedFacade(t *testing.T) {
	var r recorder
	users := Facade("user_management", "User management operations", r.tools("create_user", "delete_user"))
	admin := Facade("admin_operations", "Administrative operations.", []runtime.Tool{users}, KeepOnInvoke())
	tb := mustToolbox(t, admin)
	call(t, tb, Unfold{}, admin, `{"tool":"user_management"}`)
	if diff := cmp.Diff([]string{"admin_operations", "create_user", "delete_user"}, tb.Names()); diff != "" {
		t.Errorf("toolbox (-want +got):\n%s", diff)
	}
}

type propagate struct{}

func (propagate) Error() string             { return "expand" }
func (propagate) PropagateThroughDispatch() {}

func TestShortcutPassesPropagators(t *testing.T) {
	inner := runtime.Tool{Name: "open_sections", Handler: func(context.Context, runtime.ToolContext, json.RawMessage) (runtime.Result, error) {
		return runtime.Result{}, propagate{}
	}}
	f := Facade("f", "Group f.", []runtime.Tool{inner})
	_, err := runtime.Dispatch(context.Background(), f, runtime.ToolContext{}, json.RawMessage(`{"tool":"open_sections"}`))
	if !errors.As(err, new(propagate)) {
		t.Fatalf("err = %v, want the propagator", err)
	}
}

func nest(r *recorder, levels int, opts ...Option) (runtime.Tool, error) {
	t, err := New("level1", "Level 1.", r.tools("leaf"))
	for i := 2; i <= levels && err == nil; i++ {
		t, err = New(fmt.Sprintf("level%d", i), fmt.Sprintf("Level %d.", i), []runtime.Tool{t}, opts...)
	}
	return t, err
}

func TestDepthLimit(t *testing.T) {
	var r recorder
	tests := []struct {
		levels int
		opts   []Option
		err    string
	}{
		{4, nil, ""},
		{5, nil, `tool "level5": facades nest 5 levels deep, at most 4 are allowed`},
		{5, []Option{MaxDepth(5)}, ""},
		{2, []Option{MaxDepth(1)}, `tool "level2": facades nest 2 levels deep, at most 1 are allowed`},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.levels, tt.opts != nil), func(t *testing.T) {
			top, err := nest(&r, tt.levels, tt.opts...)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if d, _ := Of(top); d.Depth() != tt.levels {
				t.Errorf("depth = %d, want %d", d.Depth(), tt.levels)
			}
		})
	}
}

func TestConstructionErrors(t *testing.T) {
	var r recorder
	sub := Facade("sub", "Sub.", r.tools("dup"))
	tests := []struct {
		name  string
		fname string
		desc  string
		inner []runtime.Tool
		opts  []Option
		err   string
	}{
		{"dotted name", "db.ops", "Ops.", r.tools("a"), nil, `tool "db.ops": name has '.' at byte 2; only ASCII letters, digits, '_' and '-' are allowed`},
		{"empty description", "db", " ", r.tools("a"), nil, `tool "db": facade description is empty`},
		{"no inner tools", "db", "Ops.", nil, nil, `tool "db": facade has no inner tools`},
		{"duplicate inner", "db", "Ops.", r.tools("a", "a"), nil, `tool "db": tool name "a" occurs twice in the facade`},
		{"duplicate across nesting", "db", "Ops.", append(r.tools("dup"), sub), nil, `tool "db": tool name "dup" occurs twice in the facade`},
		{"inner named like the facade", "db", "Ops.", r.tools("db"), nil, `tool "db": tool name "db" occurs twice in the facade`},
		{"bad inner name", "db", "Ops.", r.tools("a b"), nil, `tool "db": inner tool "a b": name has ' ' at byte 1; only ASCII letters, digits, '_' and '-' are allowed`},
		{"unknown category tool", "db", "Ops.", r.tools("a"), []Option{Category("read", "b")}, `tool "db": category "read" names unknown inner tool "b"`},
		{"empty category", "db", "Ops.", r.tools("a"), []Option{Category("read")}, `tool "db": category "read" selects no tools`},
		{"category twice", "db", "Ops.", r.tools("a"), []Option{Category("read", "a"), Category("read", "a")}, `tool "db": category "read" is declared twice`},
		{"usage for unknown tool", "db", "Ops.", r.tools("a"), []Option{Usage("b", "b()")}, `tool "db": usage given for unknown inner tool "b"`},
		{"max depth zero", "db", "Ops.", r.tools("a"), []Option{MaxDepth(0)}, `tool "db": max depth 0 is below 1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(tt.fname, tt.desc, tt.inner, tt.opts...)
			if err == nil || err.Error() != tt.err {
				t.Fatalf("err = %v\nwant %s", err, tt.err)
			}
		})
	}
	defer func() {
		if recover() == nil {
			t.Error("Facade did not panic on a construction error")
		}
	}()
	Facade("", "x", nil)
}

func TestOfPlainTools(t *testing.T) {
	var r recorder
	plain := r.tool("a", "A.")
	plain.Decode = func(json.RawMessage) (any, error) { return map[string]any{}, nil }
	for _, tool := range []runtime.Tool{r.tool("a", "A."), plain} {
		if _, ok := Of(tool); ok {
			t.Errorf("Of(%s) reported a facade", tool.Name)
		}
	}
	f := Facade("f", "F.", r.tools("a"))
	renamed := f
	renamed.Name = "g"
	if _, ok := Of(renamed); ok {
		t.Error("Of reported a facade for a renamed copy")
	}
}

func TestUsageOverride(t *testing.T) {
	var r recorder
	f := Facade("f", "F.", r.tools("a", "b"), Usage("a", "a --id ID [--limit N]"))
	res := call(t, nil, nil, f, `{}`)
	text := runtime.RenderResult(res)
	for _, want := range []string{"- a --id ID [--limit N] — Runs a.", "- b(id: string, limit?: integer) — Runs b."} {
		if !strings.Contains(text, want) {
			t.Errorf("answer lacks %q:\n%s", want, text)
		}
	}
	raw, err := json.Marshal(res.Value)
	if err != nil || string(raw) != `{"facade":"f","tools":["a","b"]}` {
		t.Errorf("json = %s, %v", raw, err)
	}
}

// nestedArrays is the schema of n arrays nested around strings.
func nestedArrays(n int) string {
	return strings.Repeat(`{"type":"array","items":`, n) + `{"type":"string"}` + strings.Repeat(`}`, n)
}

func TestUsageLine(t *testing.T) {
	tests := []struct {
		schema string
		want   string
	}{
		{`{"type":"object","properties":{"z":{"type":"string"},"a":{"type":"integer"}},"required":["a"]}`, "t(z?: string, a: integer)"},
		{`{"type":"object","properties":{"mode":{"enum":["fast","slow"]},"k":{"const":"x"}}}`, `t(mode?: "fast"|"slow", k?: "x")`},
		{`{"type":"object","properties":{"ids":{"type":"array","items":{"type":"integer"}},"v":{"type":["string","null"]}}}`, "t(ids?: array of integer, v?: string|null)"},
		{`{"type":"object","properties":{"r":{"$ref":"#/$defs/Range"},"x":{}}}`, "t(r?: Range, x?: any)"},
		{`{"type":"object"}`, "t()"},
		{``, "t()"},
		{`[1]`, "t()"},
		{`{"properties":[]}`, "t()"},
		// Arrays are spelled out four levels deep: each level decoded the
		// rest again, so 8,000 levels took seconds and gave a line as long.
		{`{"type":"object","properties":{"m":` + nestedArrays(4) + `}}`, "t(m?: array of array of array of array of string)"},
		{`{"type":"object","properties":{"m":` + nestedArrays(5) + `}}`, "t(m?: array of array of array of array of array)"},
		{`{"type":"object","properties":{"m":` + nestedArrays(8000) + `}}`, "t(m?: array of array of array of array of array)"},
		// The line stays one line: a line break a name, a type or a $ref
		// holds is shown escaped, and const and enum values are compact
		// JSON (each was copied as written, so the facade's answer gave
		// "## Injected" a line of its own).
		{`{"type":"object","properties":{"a\n## Injected":{"type":"string"}}}`, `t(a\n## Injected?: string)`},
		{"{\"type\":\"object\",\"properties\":{\"a\":{\"const\":{\"x\":\n\t1}}}}", `t(a?: {"x":1})`},
		{"{\"type\":\"object\",\"properties\":{\"a\":{\"enum\":[{\"x\" :\r\n 1}, \"b\\nc\"]}}}", `t(a?: {"x":1}|"b\nc")`},
		{`{"type":"object","properties":{"a":{"$ref":"#/x/y\r\nz"}}}`, `t(a?: y\r\nz)`},
		{`{"type":"object","properties":{"a":{"type":["string","x\u2028y"]}}}`, `t(a?: string|x\u2028y)`},
	}
	for _, tt := range tests {
		got := UsageLine(runtime.Tool{Name: "t", Parameters: json.RawMessage(tt.schema)})
		if got != tt.want {
			t.Errorf("UsageLine(%s) = %q, want %q", tt.schema, got, tt.want)
		}
	}
}

func TestSelect(t *testing.T) {
	var r recorder
	f := Facade("f", "F.", r.tools("a", "b", "c"), Category("two", "c", "a"))
	d, _ := Of(f)
	got, err := d.Select("two")
	if err != nil || !slices.Equal(names(got), []string{"a", "c"}) {
		t.Errorf("Select(two) = %v, %v; want inner order a, c", names(got), err)
	}
	if _, err := d.Select("tow"); err == nil || err.Error() != `facade f has no category "tow"; valid categories: two` {
		t.Errorf("Select(tow) err = %v", err)
	}
	plain, _ := Of(Facade("g", "G.", r.tools("a")))
	if _, err := plain.Select("x"); err == nil || err.Error() != "facade g has no categories; call it without one" {
		t.Errorf("Select on uncategorised = %v", err)
	}
	if !d.RemoveOnInvoke() || d.Name() != "f" || d.Tool().Name != "f" || !slices.Equal(d.Categories(), []string{"two"}) {
		t.Error("accessors disagree with the construction")
	}
}

// A shortcut call's inner event carries the handler's params; the facade's
// own answer does not repeat them, so observers see each handler call once.
func TestShortcutParamsReportedOnce(t *testing.T) {
	type params struct{ Path string }
	read := runtime.Tool{Name: "read_file", Description: "Read a file.", Parameters: json.RawMessage(`{"type":"object"}`),
		Handler: func(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
			return runtime.Result{Success: true, Message: "ok", Params: &params{Path: "a.txt"}}, nil
		}}
	files := Facade("files", "File tools.", []runtime.Tool{read})
	var bus runtime.EventBus
	var withParams []string
	bus.Subscribe(func(e runtime.Event) {
		if ev := e.(runtime.ToolInvoked); ev.Params != nil {
			withParams = append(withParams, ev.Tool)
		}
	})
	res, err := runtime.Dispatch(context.Background(), files, runtime.NewToolContext(runtime.ContextParts{Bus: &bus}), json.RawMessage(`{"tool":"read_file","args":{"path":"a.txt"}}`))
	if err != nil || !res.Success || res.Params != nil {
		t.Fatalf("shortcut result: %+v, %v", res, err)
	}
	if len(withParams) != 1 || withParams[0] != "read_file" {
		t.Fatalf("events with params: %v", withParams)
	}
}
