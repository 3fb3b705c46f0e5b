package schema

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// A manifest result_schema becomes the tool's typed result, and an error
// in it is located in the manifest.
func TestBuildFamilyManifestResults(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: `[{"type":"function","function":{"name":"get_item","description":"Get an item.","parameters":{"type":"object","properties":{"id":{"type":"string"}}}}}]`}}
	m, err := manifest.Load("toolgen.yaml", []byte("ops:\n  item.get:\n    result_schema: {type: object, properties: {name: {type: string}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	fam, err := BuildFamily(tools, BuildOptions{Package: "p"}, m)
	if err != nil {
		t.Fatal(err)
	}
	res := fam.Tools[0].Result
	if res == nil || res.GoName != "GetItemResult" || len(res.Fields) != 1 || res.Fields[0].JSONName != "name" {
		t.Fatalf("result type: %+v", res)
	}

	bad, err := manifest.Load("toolgen.yaml", []byte("ops:\n  item.get:\n    result_schema: {type: object, properties: {name: {type: strin}}}\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = BuildFamily(tools, BuildOptions{Package: "p"}, bad)
	if err == nil || !strings.Contains(err.Error(), "toolgen.yaml:3:") || !strings.Contains(err.Error(), "/result_schema/properties/name/type") {
		t.Fatalf("error = %v, want one located in the manifest", err)
	}
}

// The compile hands the taxonomy the schemas it parsed instead of having
// them parsed again from JSON: the ops, their summaries and the registry
// version are what Derive makes from the JSON alone.
func TestBuildFamilyParsedSchemas(t *testing.T) {
	var inputs []load.Input
	files, _ := filepath.Glob("../examples/*/tools/*.json")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, load.Input{Name: f, Data: string(data)})
	}
	inputs = append(inputs, load.Input{Name: "odd.json", Data: `[{"type":"function","function":{"name":"send_odd","description":"Send \u00e9 \"quoted\" text.","parameters":{"type":"object","required":["n","s"],"properties":{"n":{"type":"number","default":1.50e+3,"maximum":1e400},"s":{"type":"string","description":"A \u2028 line; then more.","enum":["a\u0000b","\ud83d\ude00"]},"o":{"type":"object","required":["x"],"properties":{"x":{"type":"integer","default":-0}}},"bad":{"type":"integer","default":"ten"}}}}}]`})
	if len(inputs) < 2 {
		t.Skip("no example tools")
	}
	fam, err := BuildFamily(inputs, BuildOptions{Package: "p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		Path, Usage, Args string
		Arguments         []ir.Arg
		Examples          []ir.Example
	}
	summaries := func() []summary {
		var out []summary
		for _, op := range fam.Ops {
			out = append(out, summary{op.Path, op.Usage, op.Args, op.Arguments, op.Examples})
		}
		return out
	}
	got, version := summaries(), fam.RegistryVersion
	if err := taxonomy.Derive(fam, nil); err != nil {
		t.Fatal(err)
	}
	if want := summaries(); !reflect.DeepEqual(got, want) {
		t.Errorf("ops from the parsed schemas differ from those parsed from JSON:\n got %+v\nwant %+v", got, want)
	}
	if version != fam.RegistryVersion {
		t.Errorf("registry version %s, from JSON %s", version, fam.RegistryVersion)
	}
}

// TestUsageAppliedDefaults: the usage line and argument summaries show
// only the defaults the compile applies; one it refused ("not applied")
// is not advertised, whether the taxonomy ran alongside the compile
// (BuildFamily) or after it (Derive), and the registry version is the
// same both ways.
func TestUsageAppliedDefaults(t *testing.T) {
	tools := []load.Input{{Name: "tools.json", Data: `[{"type":"function","function":{"name":"list_items","parameters":{"type":"object","properties":{
		"limit":{"type":"integer","default":"ten","minimum":1},
		"size":{"type":"integer","default":0,"minimum":1},
		"mode":{"type":"string","enum":["a","b"],"default":"c"},
		"page":{"type":"integer","default":2,"minimum":1},
		"ref":{"$ref":"#/$defs/s"}
	},"$defs":{"s":{"type":"string","enum":["x|y","z)"]}}}}}]`}}
	fam, err := BuildFamily(tools, BuildOptions{Package: "p"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := `item.list [limit:integer] [size:integer] [mode:enum(a|b)] [page:integer=2] [ref:enum("x|y"|"z)")]`
	if got := fam.Ops[0].Usage; got != want {
		t.Errorf("usage\n got %s\nwant %s", got, want)
	}
	for _, a := range fam.Ops[0].Arguments {
		if a.Default != "" && a.Name != "page" {
			t.Errorf("argument %s advertises default %s, which is not applied", a.Name, a.Default)
		}
	}
	if got := taxonomy.OpArgs(fam.Tools[0]); got[0].Default != "" || got[3].Default != "2" {
		t.Errorf("OpArgs: %+v", got)
	}
	version := fam.RegistryVersion
	if err := taxonomy.Derive(fam, nil); err != nil {
		t.Fatal(err)
	}
	if got := fam.Ops[0].Usage; got != want || fam.RegistryVersion != version {
		t.Errorf("Derive after the build: usage %s, version %s (BuildFamily: %s)", got, fam.RegistryVersion, version)
	}
}
