package runtime_test

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestCheckName(t *testing.T) {
	tests := []struct {
		name          string
		ok, strictOK  bool
		wantErrSubstr string
	}{
		{"lookup_entity", true, true, ""},
		{"a", true, true, ""},
		{"get-issue-2", true, true, ""},
		{strings.Repeat("x", 64), true, true, ""},
		{"ListIssues", true, false, "uppercase"},
		{"", false, false, "empty"},
		{strings.Repeat("x", 65), false, false, "at most 64"},
		{"tool.help", false, false, `'.'`},
		{"has space", false, false, `' '`},
		{"café", false, false, "'é' at byte 3; only ASCII letters"},
		{"getǅx", false, false, "'ǅ' at byte 3; only ASCII letters"},
		{"a\xffb", false, false, "byte 0xff at byte 1"},
	}
	for _, tc := range tests {
		err := runtime.CheckName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok=%v", tc.name, err, tc.ok)
		}
		serr := runtime.CheckStrictName(tc.name)
		if (serr == nil) != tc.strictOK {
			t.Errorf("CheckStrictName(%q) = %v, want ok=%v", tc.name, serr, tc.strictOK)
		}
		if serr != nil && !strings.Contains(serr.Error(), tc.wantErrSubstr) {
			t.Errorf("CheckStrictName(%q) = %q, want it to mention %q", tc.name, serr, tc.wantErrSubstr)
		}
	}
}

func TestCheckDescription(t *testing.T) {
	tests := []struct {
		desc string
		ok   bool
	}{
		{"Fetch structured information for a given entity id.", true},
		{"x", true},
		{strings.Repeat("d", 200), true},
		{strings.Repeat("d", 201), false},
		{"", false},
		{"Récupère une entité", false},
	}
	for _, tc := range tests {
		if err := runtime.CheckDescription(tc.desc); (err == nil) != tc.ok {
			t.Errorf("CheckDescription(%.20q) = %v, want ok=%v", tc.desc, err, tc.ok)
		}
	}
}

func TestNewToolStrictRules(t *testing.T) {
	params := json.RawMessage(`{"type":"object"}`)
	tool, err := runtime.NewTool("lookup_entity", "Fetch an entity.", params, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !tool.AcceptsOverrides {
		t.Error("NewTool: AcceptsOverrides = false, want true")
	}
	tests := []struct {
		name, desc string
		params     string
		want       string
	}{
		{"Lookup", "Fetch.", `{}`, `tool "Lookup": name has uppercase 'L'`},
		{"lookup", "", `{}`, `tool "lookup": description is empty`},
		{"lookup", "Fetch.", `[1]`, `tool "lookup": parameters must be a JSON Schema object`},
		{"lookup", "Fetch.", `null`, `tool "lookup": parameters must be a JSON Schema object`},
		{"lookup", "Fetch.", `"{}"`, `tool "lookup": parameters must be a JSON Schema object`},
		{"lookup", "Fetch.", `{"type":`, `tool "lookup": parameters must be a JSON Schema object`},
		{"lookup", "Fetch.", `{} {}`, `tool "lookup": parameters must be a JSON Schema object`},
		{"lookup", "Fetch.", "  \n ", `tool "lookup": parameters must be a JSON Schema object`},
	}
	for _, params := range []string{"{}", " \n\t{\"type\": \"object\"} ", `{"properties":{"a":{"type":"string"}}}`} {
		if _, err := runtime.NewTool("lookup", "Fetch.", json.RawMessage(params), nil); err != nil {
			t.Errorf("NewTool with parameters %q: %v", params, err)
		}
	}
	for _, tc := range tests {
		_, err := runtime.NewTool(tc.name, tc.desc, json.RawMessage(tc.params), nil)
		var de *runtime.ToolDefinitionError
		if !errors.As(err, &de) || de.Tool != tc.name {
			t.Errorf("NewTool(%q): error %v does not name the tool", tc.name, err)
			continue
		}
		if !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("NewTool(%q) = %q, want prefix %q", tc.name, err, tc.want)
		}
	}
}

func TestGeneratedToolsKeepDefinitionNames(t *testing.T) {
	// Generated tools are checked non-strictly: provider rules only.
	long := strings.Repeat("é", 150)
	tool := runtime.Tool{Name: "ListIssues", Description: long}
	if err := tool.Check(false); err != nil {
		t.Errorf("Check(false) = %v, want nil", err)
	}
	if err := tool.Check(true); err == nil {
		t.Error("Check(true) = nil, want an error")
	}
	if err := (runtime.Tool{Name: "tool.help"}).Check(false); err == nil {
		t.Error("Check(false) accepted a dotted name providers reject")
	}
}

func TestMustToolPanicsOnBadDefinition(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("MustTool did not panic")
		}
	}()
	runtime.MustTool("Bad Name", "x", nil, nil)
}

func TestCheckUnique(t *testing.T) {
	mk := func(names ...string) []runtime.Tool {
		var ts []runtime.Tool
		for _, n := range names {
			ts = append(ts, runtime.Tool{Name: n})
		}
		return ts
	}
	if err := runtime.CheckUnique(mk("a", "b", "c")); err != nil {
		t.Errorf("unique names: %v", err)
	}
	if err := runtime.CheckUnique(nil); err != nil {
		t.Errorf("no tools: %v", err)
	}
	err := runtime.CheckUnique(mk("b", "a", "b", "c", "a", "b"))
	var de *runtime.DuplicateToolError
	if !errors.As(err, &de) {
		t.Fatalf("got %v, want *DuplicateToolError", err)
	}
	if got, want := err.Error(), `duplicate tool names "b", "a"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got, want := runtime.CheckUnique(mk("x", "x")).Error(), `duplicate tool name "x"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestPick(t *testing.T) {
	tools := []runtime.Tool{{Name: "a"}, {Name: "b"}, {Name: "c"}}
	var got []string
	for _, tl := range runtime.Pick(tools, "c", "missing", "a") {
		got = append(got, tl.Name)
	}
	if strings.Join(got, ",") != "c,a" {
		t.Errorf("Pick = %v, want [c a]", got)
	}
	// Many names and tools take the indexed path: same result, the first
	// tool of a repeated name, names repeated as asked.
	var many []runtime.Tool
	for i := range 20 {
		many = append(many, runtime.Tool{Name: string(rune('a' + i)), Description: "first"})
	}
	many = append(many, runtime.Tool{Name: "c", Description: "second"})
	got = nil
	for _, tl := range runtime.Pick(many, "t", "c", "missing", "a", "b", "c", "d", "e", "f", "g") {
		got = append(got, tl.Name+":"+tl.Description)
	}
	if want := "t:first,c:first,a:first,b:first,c:first,d:first,e:first,f:first,g:first"; strings.Join(got, ",") != want {
		t.Errorf("Pick (indexed) = %v, want %s", got, want)
	}
}

func TestDefinitions(t *testing.T) {
	tools := []runtime.Tool{
		{Name: "get_todo", Description: "Get a <todo>.", Parameters: json.RawMessage(`{"type":"object"}`)},
		{Name: "ping", Description: "Ping."},
	}
	want := `[{"type":"function","function":{"name":"get_todo","description":"Get a \u003ctodo\u003e.","parameters":{"type":"object"}}},` +
		`{"type":"function","function":{"name":"ping","description":"Ping."}}]`
	if got := string(runtime.Definitions(tools)); got != want {
		t.Errorf("Definitions =\n%s\nwant\n%s", got, want)
	}
	if got := string(runtime.Definitions(nil)); got != "[]" {
		t.Errorf("Definitions(nil) = %s, want []", got)
	}
	// Strings are JSON-escaped as encoding/json escapes them (<, >, & and
	// U+2028 too), schemas compacted and escaped the same way, whatever the
	// strings and schemas hold; a schema that is not JSON gives an empty
	// list.
	odd := []runtime.Tool{
		{Name: "a&b", Description: "<script>\u2028\xff\"\n", Parameters: json.RawMessage(" {\n \"x\" : \"<&>\u2029\" } ")},
		{Name: "", Description: ""},
		{Name: "n", Parameters: json.RawMessage(`{}`)},
	}
	want = `[{"type":"function","function":{"name":"a\u0026b","description":"\u003cscript\u003e\u2028\ufffd\"\n",` +
		`"parameters":{"x":"\u003c\u0026\u003e\u2029"}}},` +
		`{"type":"function","function":{"name":"","description":""}},` +
		`{"type":"function","function":{"name":"n","description":"","parameters":{}}}]`
	if got := string(runtime.Definitions(odd)); got != want {
		t.Errorf("Definitions =\n%s\nwant\n%s", got, want)
	}
	if got := string(runtime.Definitions(append(odd, runtime.Tool{Name: "bad", Parameters: json.RawMessage(`{"x":`)}))); got != "[]" {
		t.Errorf("Definitions with a schema that is not JSON = %s, want []", got)
	}
}

// TestNameErrorFaults: CheckName records both faults of a name, so schema
// can word the characters first and the runtime the length first.
func TestNameErrorFaults(t *testing.T) {
	long := strings.Repeat("a", 70) + "."
	var ne *runtime.NameError
	if !errors.As(runtime.CheckName(long), &ne) || ne.At != 70 {
		t.Fatalf("CheckName(71 bytes with '.') = %v, want NameError with At 70", ne)
	}
	if got := ne.Error(); got != "name is 71 bytes long, at most 64 are allowed" {
		t.Errorf("Error() = %q", got)
	}
	if err := runtime.CheckName("ok_name-1"); err != nil {
		t.Errorf("CheckName(ok_name-1) = %v, want nil", err)
	}
}

// BenchmarkDefinitions writes the definitions of 10,000 tools with
// schemas of about 1 KB (12 MB in all).
func BenchmarkDefinitions(b *testing.B) {
	params := json.RawMessage(`{"type":"object","properties":{` + strings.Repeat(`"field":{"type":"string","description":"A field of the record, as the API names it."},`, 12) + `"id":{"type":"integer"}},"required":["id"]}`)
	tools := make([]runtime.Tool, 10000)
	for i := range tools {
		tools[i] = runtime.Tool{Name: "get_record_" + strings.Repeat("x", i%7), Description: "Get a record by id. Returns <the record>.", Parameters: params}
	}
	b.SetBytes(int64(len(runtime.Definitions(tools))))
	for b.Loop() {
		runtime.Definitions(tools)
	}
}

func TestFreeName(t *testing.T) {
	tests := []struct {
		taken []string
		want  string
	}{
		{nil, "tool_search"},
		{[]string{"tool_search"}, "tool_search_2"},
		{[]string{"tool_search", "tool_search_2", "tool_search_3"}, "tool_search_4"},
		{[]string{"tool_search", "tool_search_3"}, "tool_search_2"},
		{[]string{"tool_search_2"}, "tool_search"},
	}
	for _, tt := range tests {
		got := runtime.FreeName("tool_search", func(n string) bool { return slices.Contains(tt.taken, n) })
		if got != tt.want {
			t.Errorf("FreeName with %q taken = %q, want %q", tt.taken, got, tt.want)
		}
	}
}
