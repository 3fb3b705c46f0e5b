package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/limits"
)

const goodManifest = `# a family
package: ontology
inputs: [tools/read.json, tools/write.json]
output: gen
default_group: util
groups:
  onto:
    summary: Ontology ops.
    infix: [onto]
  gh: GitHub ops.
overrides:
  search_ontology: onto.search
ops:
  onto.task.create:
    kind: write
    policy:
      do: [User asks]
      dont: [Research you can do now]
      edge_cases: ["If ambiguous, ask"]
    examples:
      - description: A task
        args: {project_id: p1, title: "Call Bob", priority: 2, urgent: true, tags: [a, b], due: null}
    notes: [Search first.]
    dry_run_default: true
    result_schema: {type: object, properties: {id: {type: string}}}
surfaces: [flat, gateway]
lenient: true
tables: always
limits:
  max_depth: 100
  max_properties: 6000
  max_enum: 200000
  max_ref_expansions: 5
  max_pattern_size: 7
  max_identifier_length: 64
  max_output_bytes: 1000000000
  max_input_bytes: 2000000000
`

func TestLoad(t *testing.T) {
	m, err := Load("dir/toolgen.yaml", []byte(goodManifest))
	if err != nil {
		t.Fatal(err)
	}
	yes := true
	want := &Manifest{
		File:    "dir/toolgen.yaml",
		Package: "ontology",
		Inputs:  []string{"tools/read.json", "tools/write.json"},
		InputsPos: []ir.Pos{{File: "dir/toolgen.yaml", Line: 3, Col: 10, Pointer: "/inputs/0"},
			{File: "dir/toolgen.yaml", Line: 3, Col: 27, Pointer: "/inputs/1"}},
		Output:       "gen",
		DefaultGroup: "util",
		Groups: []Group{
			{Name: "onto", Summary: "Ontology ops.", Infix: []string{"onto"}, Pos: ir.Pos{File: "dir/toolgen.yaml", Line: 7, Col: 3, Pointer: "/groups/onto"}},
			{Name: "gh", Summary: "GitHub ops.", Pos: ir.Pos{File: "dir/toolgen.yaml", Line: 10, Col: 3, Pointer: "/groups/gh"}},
		},
		Overrides: []Override{{Tool: "search_ontology", Op: "onto.search", Pos: ir.Pos{File: "dir/toolgen.yaml", Line: 12, Col: 3, Pointer: "/overrides/search_ontology"}}},
		Ops: []Op{{
			Path:          "onto.task.create",
			Kind:          "write",
			Policy:        &ir.Policy{Do: []string{"User asks"}, Dont: []string{"Research you can do now"}, EdgeCases: []string{"If ambiguous, ask"}},
			Examples:      []ir.Example{{Description: "A task", Args: json.RawMessage(`{"project_id":"p1","title":"Call Bob","priority":2,"urgent":true,"tags":["a","b"],"due":null}`)}},
			Notes:         []string{"Search first."},
			DryRunDefault: &yes,
			ResultSchema:  json.RawMessage(`{"type":"object","properties":{"id":{"type":"string"}}}`),
			Pos:           ir.Pos{File: "dir/toolgen.yaml", Line: 14, Col: 3, Pointer: "/ops/onto.task.create"},
		}},
		Surfaces:       []string{"flat", "gateway"},
		Lenient:        true,
		Tables:         "always",
		Limits:         limits.Limits{Depth: 100, Properties: 6000, Enum: 200000, RefExpansions: 5, PatternSize: 7, IdentifierLength: 64, OutputBytes: 1000000000, InputBytes: 2000000000},
		LimitsPos:      ir.Pos{File: "dir/toolgen.yaml", Line: 30, Col: 3, Pointer: "/limits"},
		OutputBytesPos: ir.Pos{File: "dir/toolgen.yaml", Line: 36, Col: 21, Pointer: "/limits/max_output_bytes"},
		InputBytesPos:  ir.Pos{File: "dir/toolgen.yaml", Line: 37, Col: 20, Pointer: "/limits/max_input_bytes"},
	}
	if d := cmp.Diff(want, m, cmpopts.IgnoreFields(Op{}, "ResultNode", "ExampleArgs")); d != "" {
		t.Errorf("manifest (-want +got):\n%s", d)
	}
	// Example arguments keep their positions, so that a check of an
	// example locates what it finds.
	if a := m.Ops[0].ExampleArgs; len(a) != 1 || a[0].Pos.Line != 22 || a[0].Pos.Col != 15 ||
		a[0].Pointer("/title").Pos.Pointer != "/ops/onto.task.create/examples/0/args/title" || a[0].Members[1].KeyPos().Col != 32 ||
		string(a[0].JSON()) != string(m.Ops[0].Examples[0].Args) {
		t.Errorf("example args: %+v", a)
	}
	// The result schema keeps its positions in the manifest, so schema
	// errors in it are located there.
	if n := m.Ops[0].ResultNode; n == nil || n.Pos.Line != 25 || n.Get("properties").Get("id").Pos.Pointer != "/ops/onto.task.create/result_schema/properties/id" {
		t.Errorf("result node: %+v", n)
	}
	if got := m.InputPaths(); got[0] != "dir/tools/read.json" {
		t.Errorf("InputPaths()[0] = %q", got[0])
	}
	if m.Op("onto.task.create") == nil || m.Op("onto.nope") != nil {
		t.Error("Op lookup")
	}
}

func TestLoadJSON(t *testing.T) {
	src := "{\n\t\"package\": \"p\",\n\t\"ops\": {\"a.b\": {\"kind\": \"read\"}}\n}\n"
	m, err := Load("toolgen.json", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if m.Package != "p" || m.Ops[0].Kind != "read" || m.Ops[0].Pos.Line != 3 {
		t.Errorf("got %+v", m)
	}
	// A tab in a string is the string's, not a space.
	src = "{\n\t\"ops\": {\"a.b\": {\"notes\": [\"a\tb\", \"\\\"\tc\"]}}\n}\n"
	if m, err = Load("toolgen.json", []byte(src)); err != nil {
		t.Fatal(err)
	}
	if got := m.Ops[0].Notes; !slices.Equal(got, []string{"a\tb", "\"\tc"}) {
		t.Errorf("notes %q", got)
	}
}

// badManifests are invalid manifests with the exact error toolgen prints;
// valid reports whether the published JSON Schema cannot see the problem
// (it is not about the manifest's shape).
var badManifests = []struct {
	name, src, want string
}{
	{"kind", "ops:\n  onto.task.update:\n    kind: delete\n", "toolgen.yaml:3:11: /ops/onto.task.update/kind: must be read or write"},
	{"unknown top key", "pakage: x\n", `toolgen.yaml:1:1: /pakage: unknown key "pakage"; did you mean "package"?`},
	{"unknown op key", "ops:\n  a.b:\n    exmples: []\n", `toolgen.yaml:3:5: /ops/a.b/exmples: unknown key "exmples"; did you mean "examples"?`},
	{"unknown far key", "zzzzzzzz: 1\n", `toolgen.yaml:1:1: /zzzzzzzz: unknown key "zzzzzzzz"`},
	{"package type", "package: [a]\n", "toolgen.yaml:1:10: /package: must be a string"},
	{"package name", "package: my-pkg\n", "toolgen.yaml:1:10: /package: must be a Go package name: \"my-pkg\" is not a Go identifier of ASCII letters, digits and '_' (not starting with a digit)"},
	{"package keyword", "package: func\n", "toolgen.yaml:1:10: /package: must be a Go package name: \"func\" is a Go keyword"},
	{"package blank", "package: _\n", "toolgen.yaml:1:10: /package: must be a Go package name: \"_\" cannot name a package"},
	{"inputs type", "inputs: a.json\n", "toolgen.yaml:1:9: /inputs: must be an array of strings"},
	{"op path", "ops:\n  Onto.Task:\n    kind: read\n", `toolgen.yaml:2:3: /ops/Onto.Task: op path "Onto.Task" must be dot-separated lowercase segments (onto.task.list)`},
	{"override path", "overrides:\n  list_x: onto..list\n", `toolgen.yaml:2:11: /overrides/list_x: op path "onto..list" must be dot-separated lowercase segments (onto.task.list)`},
	{"surface", "surfaces: [flat, menu]\n", "toolgen.yaml:1:18: /surfaces/1: must be one of flat, gateway, facades, sections, deferred, code"},
	{"lenient", "lenient: yes please\n", "toolgen.yaml:1:10: /lenient: must be true or false"},
	{"tables", "tables: sometimes\n", "toolgen.yaml:1:9: /tables: must be one of auto, always, never"},
	{"example args", "ops:\n  a.b:\n    examples:\n      - description: x\n", `toolgen.yaml:4:9: /ops/a.b/examples/0: missing required key "args"`},
	{"example args type", "ops:\n  a.b:\n    examples:\n      - args: [1]\n", "toolgen.yaml:4:15: /ops/a.b/examples/0/args: must be an object"},
	{"policy key", "ops:\n  a.b:\n    policy: {donts: [x]}\n", `toolgen.yaml:3:14: /ops/a.b/policy/donts: unknown key "donts"; did you mean "dont"?`},
	{"group key", "groups:\n  g:\n    sumary: s\n", `toolgen.yaml:3:5: /groups/g/sumary: unknown key "sumary"; did you mean "summary"?`},
	{"group name", "groups:\n  My-Group: s\n", `toolgen.yaml:2:3: /groups/My-Group: group name "My-Group" must be lowercase letters, digits and underscores`},
	// A group is a provider name: Deferred(h) panicked and Sections(h)
	// was refused on a longer one.
	{"group name long", "groups:\n  ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg: s\n", `toolgen.yaml:2:3: /groups/ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg: group name "ggggggggggggggggggggggggggggggggggggggg…" is 65 bytes long; at most 64 (the deferred surface sends a group as an OpenAI namespace, the sections surface as a section key: provider names, like a tool's)`},
	{"default group long", "default_group: ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg\n", `toolgen.yaml:1:16: /default_group: group name "ggggggggggggggggggggggggggggggggggggggg…" is 65 bytes long; at most 64 (the deferred surface sends a group as an OpenAI namespace, the sections surface as a section key: provider names, like a tool's)`},
	{"op path group long", "ops:\n  ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg.task.list:\n    kind: read\n", `toolgen.yaml:2:3: /ops/ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg.task.list: op path "ggggggggggggggggggggggggggggggggggggggg…": its group is 65 bytes long; at most 64 (the deferred surface sends a group as an OpenAI namespace, the sections surface as a section key: provider names, like a tool's)`},
	{"override path group long", "overrides:\n  list_x: ggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggggg.x.list\n", `toolgen.yaml:2:11: /overrides/list_x: op path "ggggggggggggggggggggggggggggggggggggggg…": its group is 65 bytes long; at most 64 (the deferred surface sends a group as an OpenAI namespace, the sections surface as a section key: provider names, like a tool's)`},
	{"dry run", "ops:\n  a.b:\n    dry_run_default: 1\n", "toolgen.yaml:3:22: /ops/a.b/dry_run_default: must be true or false"},
	{"empty output", "output: \"\"\n", "toolgen.yaml:1:9: /output: must not be empty"},
	{"limit zero", "limits:\n  max_depth: 0\n", "toolgen.yaml:2:14: /limits/max_depth: must be a positive integer"},
	// max_depth was cut to 1048576 without a word.
	{"limit depth too deep", "limits:\n  max_depth: 1048577\n", "toolgen.yaml:2:14: /limits/max_depth: must be at most 1048576"},
	{"limit string", "limits:\n  max_enum: lots\n", "toolgen.yaml:2:13: /limits/max_enum: must be a positive integer"},
	{"limit fraction", "limits:\n  max_properties: 1.5\n", "toolgen.yaml:2:19: /limits/max_properties: must be a positive integer"},
	{"limit identifier", "limits:\n  max_identifier_length: 8\n", "toolgen.yaml:2:26: /limits/max_identifier_length: must be an integer of at least 32"},
	{"limit key", "limits:\n  max_dept: 9\n", `toolgen.yaml:2:3: /limits/max_dept: unknown key "max_dept"; did you mean "max_depth"?`},
	{"root", "- a\n", "toolgen.yaml:1:1: /: must be an object"},
	{"duplicate", "package: a\npackage: b\n", `toolgen.yaml:2:1: /package: duplicate key "package"`},
	{"syntax", "package: [a\n", "toolgen.yaml:1: /: did not find expected ',' or ']' before the end of the file"},
	// yaml.v3 gives a parser error's line one too few, a scanner error's
	// right, and neither a column: none is claimed (0).
	{"syntax flow mapping", "package: a\ninputs: [tools.json]\nops: {a: b: c}\n",
		"toolgen.yaml:3: /: did not find expected ',' or '}' (in the flow mapping {…} open on this line: the problem is here or below)"},
	{"syntax indent", "package: a\ninputs: [tools.json]\nops:\n  a.b:\n    kind: read\n   notes: x\n",
		"toolgen.yaml:4: /: did not find expected key (in the block mapping open on this line: the problem is here or below)"},
	{"syntax indent first line", "a:\n  b: c\n d: e\n", "toolgen.yaml:3: /: did not find expected key (in the block mapping open on this line: the problem is here or below)"},
	{"syntax cr line ends", "package: a\rinputs: [tools.json]\rops: {a: b: c}\r",
		"toolgen.yaml:3: /: did not find expected ',' or '}' (in the flow mapping {…} open on this line: the problem is here or below)"},
	{"syntax tab first line", "\tpackage: a\n", "toolgen.yaml:1:1: /: found a tab character where an indentation space is expected"},
	{"syntax bad token", "package: a\nops: @x\n", "toolgen.yaml:2: /: found character that cannot start any token"},
	{"syntax scanner", "package: a\n  b: c\n", "toolgen.yaml:2: /: mapping values are not allowed in this context"},
	{"syntax scanner first line", "package: \"\\q\"\n", "toolgen.yaml:1: /: found unknown escape character"},
	{"syntax end of stream", "package: a\noutput: 'x\n", "toolgen.yaml:2: /: found unexpected end of stream"},
	// What the reader refuses is located at its first character.
	{"syntax control character", "package: a\ninputs: [tools.json]\nops: {a.b: {title: \"é\x00\"}}\n",
		"toolgen.yaml:3:22: /: control characters are not allowed: found U+0000; write it as an escape (\\u0000) in a double-quoted string"},
	{"syntax utf-8", "package: a\r\n\r\noutput: x\xff\n", "toolgen.yaml:3:10: /: invalid leading UTF-8 octet: found byte 0xFF; a manifest is UTF-8 text"},
	{"alias unknown", "ops:\n  a.b:\n    examples:\n      - args: {x: '*nope', y: *nope} # *nope\n", "toolgen.yaml:4:31: /: alias *nope names no anchor: a value marked &nope must come before it"},
	{"second document", "package: a\ninputs: [tools.json]\n---\nbogus: 1\n", "toolgen.yaml:3:1: /: a manifest is one YAML document, but a second one starts here; merge it into the first or delete it"},
	{"second document empty", "package: a\n---\n", "toolgen.yaml:2:1: /: a manifest is one YAML document, but a second one starts here; merge it into the first or delete it"},
	{"second document syntax", "package: a\n---\nops: {a: b: c}\n", "toolgen.yaml:3: /: did not find expected ',' or '}' (in the flow mapping {…} open on this line: the problem is here or below)"},
	{"surfaces empty", "surfaces: []\n", "toolgen.yaml:1:11: /surfaces: must list at least one surface (omit surfaces to emit all but code)"},
	{"surface twice", "surfaces: [flat, gateway, flat]\n", `toolgen.yaml:1:27: /surfaces/2: surface "flat" is listed twice (first at 1:12)`},
	{"prefix twice", "groups:\n  repo:\n    prefix: [gh_, repo_, gh_]\n", `toolgen.yaml:3:26: /groups/repo/prefix/2: "gh_" is listed twice (first at 3:14); list each value once`},
	{"note twice", "ops:\n  a.b:\n    notes:\n      - Slow.\n      - Slow.\n", `toolgen.yaml:5:9: /ops/a.b/notes/1: "Slow." is listed twice (first at 4:9); list each value once`},
	{"policy rule twice", "ops:\n  a.b:\n    policy: {dont: [x, y, x]}\n", `toolgen.yaml:3:27: /ops/a.b/policy/dont/2: "x" is listed twice (first at 3:21); list each value once`},
	{"inputs empty", "inputs: []\n", "toolgen.yaml:1:9: /inputs: must list at least one input file (omit inputs to name the files as arguments)"},
	{"input twice", "inputs: [tools.json, tools.json]\n", `toolgen.yaml:1:22: /inputs/1: input "tools.json" is listed twice (first at 1:10); list each input once`},
	{"input same file", "inputs:\n  - tools.json\n  - ./sub/../tools.json\n", `toolgen.yaml:3:5: /inputs/1: input "./sub/../tools.json" is the file "tools.json" listed before (at 2:5); list each input once`},
	{"input backslash", "inputs: [\"sub\\\\tools.json\"]\n", `toolgen.yaml:1:10: /inputs/0: must separate folders with /, not \ (paths in the manifest are slash-separated on every system): write "sub/tools.json"`},
	{"output drive", "output: \"C:\\\\x\"\n", "toolgen.yaml:1:9: /output: must not start with a drive letter (C:): paths in the manifest are slash-separated and relative to the manifest's folder"},
	{"output drive slash", "output: d:/gen\n", "toolgen.yaml:1:9: /output: must not start with a drive letter (d:): paths in the manifest are slash-separated and relative to the manifest's folder"},
	{"stubs backslash", "stubs: gen\\handlers.go\n", `toolgen.yaml:1:8: /stubs: must separate folders with /, not \ (paths in the manifest are slash-separated on every system): write "gen/handlers.go"`},
	{"limit input bytes", "limits:\n  max_input_bytes: 0\n", "toolgen.yaml:2:20: /limits/max_input_bytes: must be a positive integer"},
	{"alias bomb", aliasBomb(), "toolgen.yaml:9:35: /ops/a.b/examples/4/args/e/2/4: YAML aliases here and before stand for more than 100000 values; write the values out or use fewer aliases"},
	{"alias as op", "ops:\n  a.b: &x {kind: read}\n  c.d: *x\n", "toolgen.yaml:3:8: /ops/c.d: must be an object written out here: a YAML alias (*x) is read only within a schema or within an example's arguments"},
	{"tab indent", "ops:\n  a.b:\n    kind: read\n  \tnotes: x\n", "toolgen.yaml:4:3: /: found a tab character that violates indentation"},
	{"annotation not bool", "ops:\n  a.b:\n    annotations: {read_only: yes please}\n", "toolgen.yaml:3:30: /ops/a.b/annotations/read_only: must be true or false"},
	{"duplicate in result schema", "ops:\n  a.b:\n    result_schema: {type: object, type: string}\n", `toolgen.yaml:3:35: /ops/a.b/result_schema/type: duplicate key "type" (first at 3:21)`},
	{"duplicate in args", "ops:\n  a.b:\n    examples:\n      - args: {id: 1, id: 2}\n", `toolgen.yaml:4:23: /ops/a.b/examples/0/args/id: duplicate key "id" (first at 4:16)`},
	{"merge key", "ops:\n  a.b:\n    result_schema: &s {type: object, minProperties: 2}\n  a.c:\n    result_schema: {<<: *s, description: x}\n",
		"toolgen.yaml:5:21: /ops/a.c/result_schema: a YAML merge key (<<) is not read: write the members out"},
	{"merge key in ops", "ops:\n  a.b: &o {kind: read}\n  <<: {a.c: *o}\n", "toolgen.yaml:3:3: /ops: a YAML merge key (<<) is not read: write the members out"},
	{"alias key", "ops:\n  &p x.y: {}\n  *p : {}\n", "toolgen.yaml:3:3: /ops: a YAML alias (*p) is not read as a key: write the key out"},
	{"alias key in args", "ops:\n  a.b:\n    examples:\n      - args: {&k a: 1, *k : 2}\n", "toolgen.yaml:4:25: /ops/a.b/examples/0/args: a YAML alias (*k) is not read as a key: write the key out"},
	{"complex key", "ops:\n  a.b:\n    examples:\n      - args: {? [a]: 1}\n", "toolgen.yaml:4:18: /ops/a.b/examples/0/args: a key must be a string, not a YAML sequence or mapping"},
	{"annotation unknown", "ops:\n  a.b:\n    annotations: {readOnlyHint: true}\n", `toolgen.yaml:3:19: /ops/a.b/annotations/readOnlyHint: unknown key "readOnlyHint"`},
	// An unpaired surrogate escape is valid JSON syntax but no text: it was
	// yaml.v3's "found invalid Unicode character escape code" on line 1.
	// Input files read numbers up to jsonpos.MaxNumberLen characters (exact
	// comparisons cost the square of the digits); the manifest's schemas
	// and arguments took any length.
	{"long number", "ops:\n  a.b:\n    result_schema: {minimum: 1." + strings.Repeat("0", 5000) + "1}\n", "toolgen.yaml:3:30: /ops/a.b/result_schema/minimum: number of 5003 characters: numbers are read up to 4096 characters (every int64 and float64 is written in far fewer)"},
	{"long number in args", "ops:\n  a.b:\n    examples:\n      - args: {n: " + strings.Repeat("9", 5000) + "}\n", "toolgen.yaml:4:19: /ops/a.b/examples/0/args/n: number of 5000 characters: numbers are read up to 4096 characters (every int64 and float64 is written in far fewer)"},
	{"syntax json lone surrogate", "{\"package\": \"p\",\n \"ops\": {\"a.b\": {\"notes\": [\"é \\ud800\"]}}}\n", `toolgen.yaml:2:31: /: unpaired surrogate escape \ud800 in a string: no UTF-8 text holds it; write the character itself, or a high and low surrogate pair`},
}

// TestJSONEscapes: a JSON manifest may use every JSON escape, those YAML
// has not too: a surrogate pair (JSON writers escape a character past
// U+FFFF so) and an escaped slash (PHP escapes every slash), which were
// errors without a column.
func TestJSONEscapes(t *testing.T) {
	in := `{"package": "p", "inputs": ["tools\/a.json"],
	"ops": {"a.b": {"notes": ["\ud83d\ude00 smile", "\\ud800 \\\/ \"\u00e9\"", "\uD83D\uDE00"]}}}`
	m, err := Load("toolgen.yaml", []byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"tools/a.json"}; !slices.Equal(m.Inputs, want) {
		t.Errorf("inputs %q, want %q", m.Inputs, want)
	}
	if want := []string{"😀 smile", `\ud800 \/ "é"`, "😀"}; !slices.Equal(m.Ops[0].Notes, want) {
		t.Errorf("notes %q, want %q", m.Ops[0].Notes, want)
	}
}

// aliasBomb is a manifest whose example arguments nest aliases eight
// deep, nine to a level: 43 million values from a kilobyte (28 s and
// 1.4 GB to read before the bound).
func aliasBomb() string {
	var b strings.Builder
	b.WriteString("package: x\ninputs: [tools.json]\nops:\n  a.b:\n    examples:\n")
	b.WriteString("      - args: {a: &a [lol,lol,lol,lol,lol,lol,lol,lol,lol]}\n")
	prev := "a"
	for _, n := range []string{"b", "c", "d", "e", "f", "g", "h"} {
		fmt.Fprintf(&b, "      - args: {%s: &%s [%s]}\n", n, n, strings.TrimSuffix(strings.Repeat("*"+prev+",", 9), ","))
		prev = n
	}
	return b.String()
}

// Aliases inside example arguments and schemas stand for their values.
func TestAliasInExample(t *testing.T) {
	m, err := Load("toolgen.yaml", []byte("ops:\n  a.b:\n    examples:\n      - args: {id: &x \"1\", tags: &t [a, b]}\n      - args: {id: *x, tags: *t}\n"))
	if err != nil {
		t.Fatal(err)
	}
	ex := m.Ops[0].Examples
	if len(ex) != 2 || string(ex[1].Args) != `{"id":"1","tags":["a","b"]}` {
		t.Errorf("examples %+v", ex)
	}
}

func TestLoadErrors(t *testing.T) {
	for _, c := range badManifests {
		t.Run(c.name, func(t *testing.T) {
			_, err := Load("toolgen.yaml", []byte(c.src))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != c.want {
				t.Errorf("error:\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

// TestPublishedSchemaAgrees validates good and bad manifests against the
// published toolgen.schema.json and checks it agrees with Load.
func TestPublishedSchemaAgrees(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("toolgen.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("toolgen.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, src string }{{"good", goodManifest}, {"empty", "{}"}, {"group string", "groups: {a: b}"}}
	// Problems not expressible after decoding (or of a document the
	// schema does not see), and one of file identity.
	blind := map[string]bool{"tab indent": true, "duplicate": true, "second document": true, "second document empty": true, "input same file": true,
		// Decoded into Go values by yaml.v3, these are refused (duplicate
		// keys, a sequence as a key) or merged (<<).
		"duplicate in result schema": true, "duplicate in args": true, "complex key": true, "merge key": true, "merge key in ops": true,
		// A bound of the decoder, not of the manifest's schema.
		"long number": true, "long number in args": true}
	for _, b := range badManifests {
		if !blind[b.name] && !strings.HasPrefix(b.name, "syntax") && !strings.HasPrefix(b.name, "alias") && !strings.HasPrefix(b.name, "second document") {
			cases = append(cases, struct{ name, src string }{b.name, b.src})
		}
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var v any
			if err := yaml.Unmarshal([]byte(tc.src), &v); err != nil {
				t.Fatal(err)
			}
			js, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
			if err != nil {
				t.Fatal(err)
			}
			schemaErr := sch.Validate(inst)
			_, loadErr := Load("toolgen.yaml", []byte(tc.src))
			if (schemaErr == nil) != (loadErr == nil) {
				t.Errorf("schema says %v, Load says %v", schemaErr, loadErr)
			}
		})
	}
}

func TestOntologyManifestValidates(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "examples", "ontology", "toolgen.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Load("toolgen.yaml", data); err != nil {
		t.Fatal(err)
	}
}

func FuzzLoad(f *testing.F) {
	f.Add([]byte(goodManifest))
	f.Add([]byte(`{"package":"x","ops":{"a.b":{"examples":[{"args":{"n":1.5e3}}]}}}`))
	f.Add([]byte(`{"package":"x","ops":{"a.b":{"notes":["\ud83d\ude00 \/ \\ud800"],"result_schema":{"const":"\uDBFF\uDFFF"}}}}`))
	for _, b := range badManifests {
		f.Add([]byte(b.src))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := Load("toolgen.yaml", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "toolgen.yaml") {
				t.Errorf("unlocated error %q", err)
			}
			return
		}
		for _, op := range m.Ops {
			for _, ex := range op.Examples {
				if ex.Args != nil && !json.Valid(ex.Args) {
					t.Errorf("invalid example JSON %s", ex.Args)
				}
			}
		}
	})
}

// An alias of a long string costs what it writes: seventy aliases of a
// 100 KB string (7 MB of JSON) pass the bound that a count of values
// alone would not reach.
func TestAliasOfLongString(t *testing.T) {
	long := strings.Repeat("A", 100_000)
	src := "ops:\n  a.b:\n    result_schema: {type: object, description: &s " + long +
		", properties: {x: {enum: [" + strings.TrimSuffix(strings.Repeat("*s, ", 70), ", ") + "]}}}\n"
	_, err := Load("toolgen.yaml", []byte(src))
	if err == nil || !strings.Contains(err.Error(), "YAML aliases here and before stand for more than 100000 values") {
		t.Fatalf("err = %.300v", err)
	}
	// A few aliases of it are fine.
	src = "ops:\n  a.b:\n    result_schema: {type: object, description: &s " + long + ", properties: {x: {enum: [*s, *s]}}}\n"
	if _, err := Load("toolgen.yaml", []byte(src)); err != nil {
		t.Fatalf("err = %.300v", err)
	}
}

// An input listed again (under another spelling too) is reported and left
// out, so that its tools are not read twice.
func TestDecodeRepeatedInput(t *testing.T) {
	m, errs := Decode("toolgen.yaml", []byte("inputs: [a.json, tools.json, sub/../tools.json, b.json]\n"))
	if len(errs) != 1 || errs[0].Pos.Pointer != "/inputs/2" {
		t.Errorf("errors: %v", errs)
	}
	want := []string{"a.json", "tools.json", "b.json"}
	if !slices.Equal(m.Inputs, want) || len(m.InputsPos) != len(want) || m.InputsPos[2].Pointer != "/inputs/3" {
		t.Errorf("inputs %q at %v, want %q", m.Inputs, m.InputsPos, want)
	}
}

// The settings of the first document are read even when a second one is
// reported.
func TestDecodeSecondDocument(t *testing.T) {
	m, errs := Decode("toolgen.yaml", []byte("package: a\n---\npackage: b\n"))
	if len(errs) != 1 || errs[0].Pos.Line != 2 || m.Package != "a" {
		t.Errorf("package %q, errors %v", m.Package, errs)
	}
	// A comment-only manifest has no document, and nothing to report.
	if _, errs := Decode("toolgen.yaml", []byte("# nothing yet\n")); len(errs) != 0 {
		t.Errorf("errors %v", errs)
	}
}

// Integers in a result schema or in example arguments are written as JSON
// numbers whatever their YAML spelling.
func TestYAMLIntegersAsJSON(t *testing.T) {
	m, err := Load("toolgen.yaml", []byte("ops:\n  a.b:\n    examples:\n      - args: {n: 0x1F, m: 1_000, k: -7}\n    result_schema: {type: object, maxProperties: 0x10}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(m.Ops[0].Examples[0].Args); got != `{"n":31,"m":1000,"k":-7}` {
		t.Errorf("args %s", got)
	}
	if got := string(m.Ops[0].ResultSchema); got != `{"type":"object","maxProperties":16}` {
		t.Errorf("result schema %s", got)
	}
	// Numbers written as JSON writes them are kept as written: exact past
	// float64, and numbers where YAML resolves a string (1e400); quoted,
	// a string stays one.
	m, err = Load("toolgen.yaml", []byte("ops:\n  a.b:\n    examples:\n      - args: {n: 123456789012345678901234567890, f: 1e400, s: '1e400', t: \"7\", u: 0.10}\n    result_schema: {type: object, properties: {n: {type: integer, maximum: 123456789012345678901234567890, minimum: -1e400}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(m.Ops[0].Examples[0].Args); got != `{"n":123456789012345678901234567890,"f":1e400,"s":"1e400","t":"7","u":0.10}` {
		t.Errorf("args %s", got)
	}
	if got := string(m.Ops[0].ResultSchema); got != `{"type":"object","properties":{"n":{"type":"integer","maximum":123456789012345678901234567890,"minimum":-1e400}}}` {
		t.Errorf("result schema %s", got)
	}
}

// TestPointerBudget: every node of a schema in the manifest keeps its JSON
// pointer, so long keys nested deep took memory quadratic in the
// manifest's size (400 KB took 800 MB and 4 s); past a budget linear in
// it they are one located error, as in an input file.
func TestPointerBudget(t *testing.T) {
	k := strings.Repeat("k", 100)
	src := "package: p\nops:\n  a.b:\n    result_schema: " + strings.Repeat("{"+k+": ", 2000) + "1" + strings.Repeat("}", 2000) + "\n"
	_, errs := Decode("toolgen.yaml", []byte(src))
	if len(errs) != 1 || errs[0].Pos.Line != 4 || !strings.Contains(errs[0].Message, "JSON pointers of the manifest's schemas and arguments exceed") {
		t.Fatalf("errors %v", errs)
	}
	// Within the budget, a schema is read whole.
	src = "package: p\nops:\n  a.b:\n    result_schema: " + strings.Repeat("{"+k+": ", 100) + "1" + strings.Repeat("}", 100) + "\n"
	if m, err := Load("toolgen.yaml", []byte(src)); err != nil || !strings.HasSuffix(string(m.Ops[0].ResultSchema), `":1`+strings.Repeat("}", 100)) {
		t.Fatalf("err %v", err)
	}
}
