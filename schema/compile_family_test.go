package schema

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/load"
)

func TestCompileFamily(t *testing.T) {
	tools := `{"tools":[
	{"name":"list-issues","inputSchema":{"type":"object","properties":{"q":{"$ref":"shared.json#/$defs/Query"}}},
	 "outputSchema":{"type":"object","properties":{"items":{"type":"array","items":{"$ref":"#/$defs/Issue"}}},
	   "$defs":{"Issue":{"type":"object","properties":{"id":{"type":"integer"}}}}},
	 "annotations":{"readOnlyHint":true}},
	{"name":"list_issues","inputSchema":{"type":"object","properties":{"q":{"$ref":"shared.json#/$defs/Query"}}}},
	{"name":"handlers","inputSchema":{"type":"object"}}]}`
	shared := `{"tools":[],"$defs":{"Query":{"type":"object","properties":{"text":{"type":"string"}}}}}`
	doc, err := load.Tools([]load.Input{{Name: "dir/tools.json", Data: tools}, {Name: "dir/shared.json", Data: shared}}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fam, err := Compile(doc, CompileOptions{Package: "issues"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tl := range fam.Tools {
		r := "<nil>"
		if tl.Result != nil {
			r = tl.Result.GoName
		}
		got = append(got, tl.Name+" "+tl.GoName+" "+tl.Params.GoName+" "+r)
	}
	want := []string{
		"list-issues ListIssues ListIssuesParams ListIssuesResult",
		"list_issues ListIssues2 ListIssues2Params <nil>",
		"handlers Handlers2 Handlers2Params <nil>",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("tools:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	wantTypes := `ListIssuesParams: object{q:Query}
Query: object{text:string}
ListIssuesResult: object{items:[]Issue}
Issue: object{id(ID):int}
ListIssues2Params: object{q:Query}
Handlers2Params: object{}`
	if got := strings.TrimSpace(dumpFamily(fam)); got != wantTypes {
		t.Errorf("types:\n%s\nwant:\n%s", got, wantTypes)
	}
	if fam.Package != "issues" || len(fam.Sources) != 2 {
		t.Errorf("package %q sources %v", fam.Package, fam.Sources)
	}
	if ro := fam.Tools[0].Annotations.ReadOnly; ro == nil || !*ro {
		t.Error("annotations not carried")
	}
	// Served alone, the tool's schema holds a copy of what its $ref reaches.
	if string(fam.Tools[0].ParamsSchema) != `{"type":"object","properties":{"q":{"$ref":"#/$defs/Query"}},"$defs":{"Query":{"type":"object","properties":{"text":{"type":"string"}}}}}` {
		t.Errorf("ParamsSchema = %s", fam.Tools[0].ParamsSchema)
	}
	if fam.Tools[0].ResultSchema == nil || fam.Tools[1].ResultSchema != nil {
		t.Error("ResultSchema only for the tool with an outputSchema")
	}
}

// TestCompileFamilyUnparsedFile: an input that does not parse has no
// root, and the files after it keep theirs: a $ref into a later file
// resolves, and one into the broken file is reported, not resolved
// against another file's text.
func TestCompileFamilyUnparsedFile(t *testing.T) {
	broken := load.Input{Name: "a.json", Data: `[`}
	tools := load.Input{Name: "b.json", Data: `{"$defs":{"X":{"type":"string"}},"tools":[{"name":"t","inputSchema":{"type":"object","properties":{
	"x":{"$ref":"b.json#/$defs/X"},
	"y":{"$ref":"a.json#/$defs/X"}}}}]}`}
	_, err := Build([]load.Input{broken, tools}, BuildOptions{Package: "p"})
	var got []string
	for _, e := range err.(jsonpos.ErrorList) {
		got = append(got, e.Pos.Pointer)
	}
	want := []string{"/0", "/tools/0/inputSchema/properties/y/$ref"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("errors at %q, want at %q:\n%v", got, want, err)
	}
}

// TestCompileDeterministic compiles the same input repeatedly: map
// iteration must never leak into names or order.
func TestCompileDeterministic(t *testing.T) {
	src := tool("t", `{"type":"object","properties":{
		"a":{"oneOf":[{"$ref":"#/$defs/X"},{"$ref":"#/$defs/Y"},{"type":"null"}]},
		"b":{"type":"object","properties":{"c":{"$ref":"#/$defs/X"}}},
		"d":{"allOf":[{"$ref":"#/$defs/Y"},{"properties":{"z":{"enum":["p","q"]}}}]},
		"l":{"$ref":"#/$defs/L"}},
		"$defs":{"X":{"type":"object","properties":{"k":{"const":"x"},"n":{"$ref":"#/$defs/Y"}}},
		"Y":{"type":"object","properties":{"k":{"const":"y"},"m":{"$ref":"#/$defs/X"}}},
		"L":{"anyOf":[{"type":"array","items":{"$ref":"#/$defs/L"}},{"type":"null"}]}}}`)
	first := ""
	for i := 0; i < 20; i++ {
		fam, err := compileTools(t, src)
		if err != nil {
			t.Fatal(err)
		}
		got := dumpFamily(fam)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("run %d differs:\n%s\nfirst:\n%s", i, got, first)
		}
	}
}

func TestCompileSchemaBare(t *testing.T) {
	cases := []struct{ src, want string }{
		{`{"type":"string","maxLength":3}`, `string [maxLength=3]`},
		{`{"type":"array","items":{"$ref":"#"}}`, `Root: []Root`},
		// Without type, object keywords apply only to objects: any value,
		// the whole schema delegated.
		{`{"required":["a"]}`, `any delegated{"required":["a"]}`},
		{`true`, `any`},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"a":{"type":"integer"}},"$ref":"#/definitions/a","type":"string"}`, `int`},
		{`{"$id":"http://x.test/root.json","$defs":{"a":{"$id":"a.json","$anchor":"here","type":"boolean"}},"type":"object","properties":{"p":{"$ref":"a.json#here"}}}`, `Root: object{p:bool}`},
	}
	for _, tc := range cases {
		root, err := jsonpos.Parse("s.json", []byte(tc.src))
		if err != nil {
			t.Fatal(err)
		}
		ty, fam, err := CompileSchema("s.json", root, SchemaOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		got := strings.TrimSpace(dumpFamily(fam))
		if ty.GoName == "" {
			got = dumpType(ty, true)
		}
		if got != tc.want {
			t.Errorf("%s:\ngot  %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestCompileCorpusTools compiles every real tool file in the shared corpus.
func TestCompileCorpusTools(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(t), "tools", "*", "*.tools.json"))
	if len(files) == 0 {
		t.Skip("no tool files in the corpus")
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(f)) + "/" + filepath.Base(f)
		doc, err := load.Tools([]load.Input{{Name: name, Data: string(data)}}, load.Options{Lenient: true})
		if err != nil {
			t.Errorf("%s: load: %v", name, err)
			continue
		}
		fam, err := Compile(doc, CompileOptions{Package: "p"})
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		checkFamily(t, name, fam)
		t.Logf("%-50s %4d tools %4d named types %3d warnings", name, len(fam.Tools), len(fam.Types), len(fam.Warnings))
	}
}

// checkFamily checks the IR invariants the generator relies on: every
// tool has a named params type, every named type reachable is listed once,
// names are unique.
func checkFamily(t *testing.T, name string, fam *ir.Family) {
	t.Helper()
	listed := map[string]bool{}
	for _, ty := range fam.Types {
		if ty.GoName == "" || listed[ty.GoName] {
			t.Errorf("%s: type %q listed twice or unnamed", name, ty.GoName)
		}
		listed[ty.GoName] = true
	}
	seen := map[*ir.Type]bool{}
	var walk func(ty *ir.Type)
	walk = func(ty *ir.Type) {
		if ty == nil || seen[ty] {
			return
		}
		seen[ty] = true
		if ty.GoName != "" && !listed[ty.GoName] {
			t.Errorf("%s: named type %s not in Family.Types", name, ty.GoName)
		}
		for _, f := range ty.Fields {
			if f.GoName == "" || f.Type == nil {
				t.Errorf("%s: %s field %q incomplete", name, ty.GoName, f.JSONName)
			}
			walk(f.Type)
		}
		walk(ty.Elem)
		for _, b := range ty.Branches {
			walk(b)
		}
		for _, p := range ty.Prefix {
			walk(p)
		}
	}
	for _, tl := range fam.Tools {
		if tl.Params == nil || tl.Params.GoName != tl.GoName+"Params" {
			t.Errorf("%s: tool %s params type misnamed", name, tl.Name)
		}
		walk(tl.Params)
		walk(tl.Result)
	}
}

// TestCompileAlongsidePanic: a panic in the work done alongside the compile
// (a bug in toolgen) is raised again on the compile's goroutine, where a
// caller can recover it, with the stack of the goroutine it happened on.
func TestCompileAlongsidePanic(t *testing.T) {
	doc, err := load.Tools([]load.Input{{Name: "tools.json", Data: `[{"name":"a","parameters":{"type":"object"}}]`}}, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		msg, _ := recover().(string)
		if !strings.HasPrefix(msg, "alongside boom\n") || !strings.Contains(msg, "TestCompileAlongsidePanic") {
			t.Errorf("recovered %q", msg)
		}
	}()
	compileDoc(doc, CompileOptions{Package: "p"}, func(*ir.Family, func(*ir.Tool) *jsonpos.Node) { panic("alongside boom") })
	t.Error("no panic")
}

// TestServedRoot: the parameters toolgen serves have a root of "type":
// "object", which providers require: added when the root says no type,
// and said instead of a list of types holding "object", each with a
// located warning. Other roots are served as written, and a tool without
// parameters is served {"type":"object","properties":{}}.
func TestServedRoot(t *testing.T) {
	for _, tc := range []struct{ params, served, warning string }{
		{`{"properties":{"a":{"type":"string"}}}`, `{"type":"object","properties":{"a":{"type":"string"}}}`,
			`tools.json:1:84: /0/function/parameters: warning: parameters have no "type"`},
		{`{}`, `{"type":"object"}`, `tools.json:1:84: /0/function/parameters: warning: parameters have no "type"`},
		{`{"type":["object","null"],"required":["a"]}`, `{"type":"object","required":["a"]}`,
			`tools.json:1:92: /0/function/parameters/type: warning: providers require "type": "object"`},
		{`{"type":"object","properties":{"a":{"properties":{}}}}`, `{"type":"object","properties":{"a":{"properties":{}}}}`, ""},
		{``, `{"type":"object","properties":{}}`, ""},
	} {
		def := `[{"type":"function","function":{"name":"do_it","description":"Do it."`
		if tc.params != "" {
			def += `,"parameters":` + tc.params
		}
		def += `}}]`
		fam, err := BuildFamily([]load.Input{{Name: "tools.json", Data: def}}, BuildOptions{Package: "p"}, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.params, err)
		}
		if got := string(fam.Tools[0].ParamsSchema); got != tc.served {
			t.Errorf("%s: served %s, want %s", tc.params, got, tc.served)
		}
		var warnings []string
		for _, w := range fam.Warnings {
			if w.Code == codeRootType {
				warnings = append(warnings, fmt.Sprintf("%s:%d:%d: %s: warning: %s", w.Pos.File, w.Pos.Line, w.Pos.Col, w.Pos.Pointer, w.Message))
			}
		}
		switch {
		case tc.warning == "" && len(warnings) > 0:
			t.Errorf("%s: warnings %q", tc.params, warnings)
		case tc.warning != "" && (len(warnings) != 1 || !strings.HasPrefix(warnings[0], tc.warning)):
			t.Errorf("%s: warnings %q, want one starting %q", tc.params, warnings, tc.warning)
		}
	}
}
