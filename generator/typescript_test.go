package generator

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestCodeSurfaceIsOptIn: a family that names no surfaces gets every
// surface but code; naming code emits CodeDeclarations and Code(h).
func TestCodeSurfaceIsOptIn(t *testing.T) {
	for _, tt := range []struct {
		surfaces []string
		want     bool
	}{{nil, false}, {[]string{"gateway"}, false}, {[]string{"gateway", "code"}, true}, {[]string{"code"}, true}} {
		fam := githubFamily()
		fam.Surfaces = tt.surfaces
		src := generateFiles(t, fam)["surfaces_gen.go"]
		got := bytes.Contains(src, []byte("func Code(h Handlers, opts ...codemode.Option) []runtime.Tool {"))
		if got != tt.want || got != bytes.Contains(src, []byte("var CodeDeclarations = tsdecl.Decls{")) {
			t.Errorf("surfaces %v: code emitted %v, want %v", tt.surfaces, got, tt.want)
		}
	}
}

// TestTypeScriptShapes: the TypeScript of each IR kind.
func TestTypeScriptShapes(t *testing.T) {
	str := &ir.Type{Kind: ir.KindString}
	num := &ir.Type{Kind: ir.KindNumber}
	one := int64(1)
	params := &ir.Type{GoName: "P", Kind: ir.KindObject, AdditionalFalse: true, Fields: []*ir.Field{
		{JSONName: "s", Type: str, Required: true},
		{JSONName: "opt", Type: str},
		{JSONName: "nul", Type: &ir.Type{Kind: ir.KindString, Nullable: true}, Required: true},
		{JSONName: "both", Type: &ir.Type{Kind: ir.KindInteger, Nullable: true}},
		{JSONName: "def", Type: num, Default: []byte("2")},
		{JSONName: "arr", Type: &ir.Type{Kind: ir.KindArray, Elem: &ir.Type{Kind: ir.KindUnion, Branches: []*ir.Type{str, num}}}},
		{JSONName: "map", Type: &ir.Type{Kind: ir.KindMap, Elem: &ir.Type{Kind: ir.KindBool}}},
		{JSONName: "tup", Type: &ir.Type{GoName: "Tup", Kind: ir.KindTuple, Prefix: []*ir.Type{str, num}, Constraints: &ir.Constraints{MinItems: &one}, RestForbidden: true}},
		{JSONName: "en", Type: &ir.Type{GoName: "En", Kind: ir.KindEnum, Enum: []ir.EnumValue{{JSON: []byte(`"a"`)}, {JSON: []byte(`"b\"c"`)}}}},
		{JSONName: "any", Type: &ir.Type{Kind: ir.KindAny}},
		{JSONName: "0-18", Type: &ir.Type{Kind: ir.KindConst, Const: []byte(`5`)}},
	}}
	tool := &ir.Tool{Name: "get_x", GoName: "GetX", Description: "Gets x.", Params: params}
	fam := &ir.Family{Package: "p", Tools: []*ir.Tool{tool}, Types: []*ir.Type{params},
		Groups: []*ir.Group{{Name: "g", Summary: "G."}},
		Ops:    []*ir.Op{{Path: "g.x.get", Tool: tool, Group: "g", Kind: "read"}}}
	ts := TypeScript(fam)
	for _, want := range []string{
		"interface P {\n    s: string;\n    opt?: string;\n    nul: string | null;\n    both?: number | null;\n",
		"    /** @default 2 */\n    def?: number;\n",
		"    arr?: (string | number)[];\n",
		"    map?: { [key: string]: boolean };\n",
		"    tup?: g.Tup;\n",
		"    en?: g.En;\n",
		"    any?: unknown;\n",
		"    \"0-18\"?: 5;\n  }\n",
		"  type Tup = [string, number?];\n",
		"  type En = \"a\" | \"b\\\"c\";\n",
		"declare const g: {\n  x: {\n",
		"    get(args: g.P): Promise<unknown>;\n",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("TypeScript lacks %q:\n%s", want, ts)
		}
	}
}

// TestCodeOutline: the outline has CodeDecls' groups and op paths, groups
// and keys, so the code tool's description is the same from either.
func TestCodeOutline(t *testing.T) {
	fams := map[string]*ir.Family{"taxonomy": taxonomyFamily(t)}
	for _, ex := range []string{"quickstart/tools.json", "ontology/tools/onto_write.json"} {
		data, err := os.ReadFile(filepath.Join("..", "examples", ex))
		if err != nil {
			t.Fatal(err)
		}
		fam, err := schema.BuildFamily([]load.Input{{Name: ex, Data: string(data)}}, schema.BuildOptions{Package: "p"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		fams[ex] = fam
	}
	for name, fam := range fams {
		full, outline := CodeDecls(fam), CodeOutline(fam)
		if len(outline.Ops) == 0 || len(outline.Ops) != len(full.Ops) || len(outline.Types) != 0 {
			t.Errorf("%s: %d ops and %d types in the outline, %d ops in the declarations", name, len(outline.Ops), len(outline.Types), len(full.Ops))
			continue
		}
		for i, op := range full.Ops {
			o := outline.Ops[i]
			if o.Path != op.Path || o.Group != op.Group || strings.Join(o.Key, ".") != strings.Join(op.Key, ".") {
				t.Errorf("%s: op %d is %+v in the outline, %+v in the declarations", name, i, o, op)
			}
		}
		if got, want := outline.CodeDescription(time.Second, 10), full.CodeDescription(time.Second, 10); got != want {
			t.Errorf("%s: description\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestTypeScriptJSONOneLine: an example's args and a default hold JSON
// strings that JSON allows to carry U+0085, U+2028 and U+2029 raw; the
// JSDoc took each for a line break and split the example across comment
// lines, so the value a model copied was not the example's. Escaped, each
// is one line that decodes to the value given.
func TestTypeScriptJSONOneLine(t *testing.T) {
	str := &ir.Type{Kind: ir.KindString}
	params := &ir.Type{GoName: "P", Kind: ir.KindObject, Fields: []*ir.Field{
		{JSONName: "s", Type: str, Default: []byte("\"x\u0085y\u2028z\u2029\"")},
	}}
	args := "{\"s\":\"a\u0085b\u2028c\u2029d*/e\"}"
	tool := &ir.Tool{Name: "get_x", GoName: "GetX", Description: "Gets x.", Params: params}
	fam := &ir.Family{Package: "p", Tools: []*ir.Tool{tool}, Types: []*ir.Type{params},
		Groups: []*ir.Group{{Name: "g", Summary: "G."}},
		Ops: []*ir.Op{{Path: "g.x.get", Tool: tool, Group: "g", Kind: "read",
			Examples: []ir.Example{{Description: "Ex.", Args: []byte(args)}}}}}
	ts := TypeScript(fam)
	for _, want := range []string{
		"    /** @default \"x\\u0085y\\u2028z\\u2029\" */\n",
		"   * await g.x.get({\"s\":\"a\\u0085b\\u2028c\\u2029d*\\/e\"})\n",
	} {
		if !strings.Contains(ts, want) {
			t.Errorf("TypeScript lacks %q:\n%s", want, ts)
		}
	}
	_, line, _ := strings.Cut(ts, "await g.x.get(")
	line, _, _ = strings.Cut(line, ")\n")
	var got, in any
	if err := json.Unmarshal([]byte(line), &got); err != nil {
		t.Fatalf("example %q: %v", line, err)
	}
	_ = json.Unmarshal([]byte(args), &in)
	if !reflect.DeepEqual(got, in) {
		t.Errorf("example reads %q, want %q", got, in)
	}
}
