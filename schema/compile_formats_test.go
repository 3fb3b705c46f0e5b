package schema

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"gopkg.in/yaml.v3"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/manifest"
)

func TestManifestFormats(t *testing.T) {
	good := []struct {
		name, src string
		want      map[string]string
	}{
		{"both", "formats:\n  date-time: time\n  date: time\n", map[string]string{"date-time": "time", "date": "time"}},
		{"string", "formats: {date: string}\n", map[string]string{"date": "string"}},
		{"empty", "formats: {}\n", map[string]string{}},
		{"absent", "package: p\n", nil},
	}
	for _, c := range good {
		t.Run(c.name, func(t *testing.T) {
			m, err := manifest.Load("toolgen.yaml", []byte(c.src))
			if err != nil {
				t.Fatal(err)
			}
			if d := cmp.Diff(c.want, m.Formats); d != "" {
				t.Errorf("Formats (-want +got):\n%s", d)
			}
		})
	}
}

// badFormats are manifests whose formats: key is wrong, with the exact
// located error.
var badFormats = []struct{ name, src, want string }{
	{"unknown format", "formats:\n  email: time\n",
		`toolgen.yaml:2:3: /formats/email: format "email" cannot be mapped; mappable formats are date, date-time`},
	{"time format", "formats:\n  time: time\n",
		`toolgen.yaml:2:3: /formats/time: format "time" cannot be mapped; mappable formats are date, date-time`},
	{"unknown target", "formats:\n  date-time: time.Time\n",
		`toolgen.yaml:2:14: /formats/date-time: unknown target "time.Time" for date-time; use one of string, time`},
	{"target type", "formats:\n  date: [time]\n", "toolgen.yaml:2:9: /formats/date: must be a string"},
	{"not a mapping", "formats: [date-time]\n", "toolgen.yaml:1:10: /formats: must be an object"},
	{"duplicate", "formats:\n  date: time\n  date: string\n", `toolgen.yaml:3:3: /formats/date: duplicate key "date"`},
}

func TestManifestFormatsErrors(t *testing.T) {
	for _, c := range badFormats {
		t.Run(c.name, func(t *testing.T) {
			_, err := manifest.Load("toolgen.yaml", []byte(c.src))
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != c.want {
				t.Errorf("error:\n got %s\nwant %s", err, c.want)
			}
		})
	}
}

// The published schema accepts and rejects the same formats: mappings.
func TestPublishedSchemaFormats(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(manifest.Schema))
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
	srcs := []string{"formats: {date-time: time, date: string}\n", "formats: {}\n"}
	for _, b := range badFormats {
		if b.name != "duplicate" {
			srcs = append(srcs, b.src)
		}
	}
	for _, src := range srcs {
		var v any
		if err := yaml.Unmarshal([]byte(src), &v); err != nil {
			t.Fatal(err)
		}
		js, _ := json.Marshal(v)
		inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
		if err != nil {
			t.Fatal(err)
		}
		schemaErr := sch.Validate(inst)
		_, loadErr := manifest.Load("toolgen.yaml", []byte(src))
		if (schemaErr == nil) != (loadErr == nil) {
			t.Errorf("%q: schema says %v, manifest.Load says %v", src, schemaErr, loadErr)
		}
	}
}

// compileFormats compiles one tool's parameters with a format mapping.
func compileFormats(t *testing.T, params string, formats map[string]string) *ir.Family {
	t.Helper()
	fam, err := Build([]load.Input{{Name: "tools.json", Data: tool("t", params)}}, BuildOptions{Package: "p", Formats: formats})
	if err != nil {
		t.Fatal(err)
	}
	return fam
}

func TestCompileFormats(t *testing.T) {
	params := `{"type":"object","properties":{
		"at":{"type":"string","format":"date-time"},
		"day":{"type":["string","null"],"format":"date"},
		"mail":{"type":"string","format":"email"},
		"days":{"type":"array","items":{"type":"string","format":"date"}},
		"stamps":{"type":"object","additionalProperties":{"type":"string","format":"date-time"}},
		"either":{"anyOf":[{"type":"string","format":"date-time"},{"type":"integer"}]},
		"kinds":{"type":["string","integer"],"format":"date"},
		"choice":{"type":"string","format":"date","enum":["2024-01-01"]},
		"fallback":{"type":"string","format":"date","default":"2024-02-30"},
		"start":{"type":"string","format":"date","default":"2024-02-29"}
	}}`
	fam := compileFormats(t, params, map[string]string{"date-time": "time", "date": "time"})
	fields := map[string]*ir.Type{}
	for _, f := range fam.Tools[0].Params.Fields {
		fields[f.JSONName] = f.Type
	}
	repr := map[string]ir.Repr{
		"at":       fields["at"].Repr,
		"day":      fields["day"].Repr,
		"mail":     fields["mail"].Repr,
		"days":     fields["days"].Elem.Repr,
		"stamps":   fields["stamps"].Elem.Repr,
		"either":   fields["either"].Branches[0].Repr,
		"kinds":    fields["kinds"].Branches[0].Repr,
		"kinds/1":  fields["kinds"].Branches[1].Repr,
		"choice":   fields["choice"].Repr,
		"fallback": fields["fallback"].Repr,
	}
	want := map[string]ir.Repr{
		"at": ir.ReprTime, "day": ir.ReprTime, "mail": ir.ReprString, "days": ir.ReprTime, "stamps": ir.ReprTime,
		"either": ir.ReprTime, "kinds": ir.ReprTime, "kinds/1": ir.ReprString,
		"choice":   ir.ReprString, // an enum stays a string enum
		"fallback": ir.ReprTime,
	}
	if d := cmp.Diff(want, repr); d != "" {
		t.Errorf("Repr (-want +got):\n%s", d)
	}
	if got := fields["kinds"].Branches[0].Format; got != "date" {
		t.Errorf("string branch of a type list has format %q, want date", got)
	}
	var fallback, start *ir.Field
	for _, f := range fam.Tools[0].Params.Fields {
		switch f.JSONName {
		case "fallback":
			fallback = f
		case "start":
			start = f
		}
	}
	if fallback.Default != nil {
		t.Errorf("unparseable default of a mapped date kept: %s", fallback.Default)
	}
	if string(start.Default) != `"2024-02-29"` {
		t.Errorf("start default = %s", start.Default)
	}
	warned := false
	for _, w := range fam.Warnings {
		warned = warned || w.Code == "default-mismatch" && w.Pos.Pointer == "/0/function/parameters/properties/fallback/default"
	}
	if !warned {
		t.Errorf("no default-mismatch warning for the unparseable default: %+v", fam.Warnings)
	}

	// Without a mapping (or mapped to string) nothing changes.
	for _, formats := range []map[string]string{nil, {"date-time": "string", "date": "string"}} {
		fam := compileFormats(t, params, formats)
		for _, f := range fam.Tools[0].Params.Fields {
			if f.Type.Repr != ir.ReprString {
				t.Errorf("%v: %s mapped without being asked", formats, f.JSONName)
			}
		}
	}
	// Only the mapped format is mapped.
	fam = compileFormats(t, params, map[string]string{"date": "time"})
	for _, f := range fam.Tools[0].Params.Fields {
		if f.JSONName == "at" && f.Type.Repr != ir.ReprString || f.JSONName == "day" && f.Type.Repr != ir.ReprTime {
			t.Errorf("date-only mapping: %s has Repr %d", f.JSONName, f.Type.Repr)
		}
	}
}

func TestCompileFormatsBadOptions(t *testing.T) {
	for _, c := range []struct {
		formats map[string]string
		want    string
	}{
		{map[string]string{"uuid": "time"}, `formats: format "uuid" cannot be mapped; mappable formats are date, date-time`},
		{map[string]string{"date": "civil"}, `formats: date: unknown target "civil"; use one of string, time`},
	} {
		_, err := Build([]load.Input{{Name: "tools.json", Data: tool("t", `{"type":"object"}`)}}, BuildOptions{Package: "p", Formats: c.formats})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: err = %v, want %s", c.formats, err, c.want)
		}
	}
}
