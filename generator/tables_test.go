package generator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/diff"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestTablesDifferential generates families twice, through runtime/shape
// tables and with generated methods only, into one module, and checks
// there that the same arguments (valid ones, each property broken in
// turn, hostile inputs) decode to the same values and the same errors,
// and that Validate agrees on every decoded value.
func TestTablesDifferential(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles generated packages")
	}
	inputs := map[string]string{
		"onto": "../examples/ontology/tools/onto_write.json",
		"todo": "../examples/quickstart/tools.json",
		// Discriminated unions (shape.Union): required, optional, in
		// arrays, nested, as params, with hostile tags and property
		// names, and with an empty tag.
		"unions-tabled": "testdata/tables_unions.json",
		// Nullable scalars: required (*T, nil for null) and optional
		// (runtime.Nullable[T]), with constraints, enums with null,
		// named enums and nested objects.
		"nullable-tabled": "testdata/tables_nullable.json",
	}
	golden, _ := filepath.Glob("../golden/*/tools.json")
	bench, _ := filepath.Glob("../golden/bench/*/tools.json")
	for _, p := range append(golden, bench...) {
		inputs[filepath.Base(filepath.Dir(p))] = p
	}
	if p, ok := corpus.Find("search", "acebench.tools.json"); ok {
		inputs["acebench"] = p
	}
	for name, path := range inputs {
		t.Run(name, func(t *testing.T) { differential(t, name, path) })
	}
}

func differential(t *testing.T, name, path string) {
	// Inputs beside a golden tools.json are part of its family ($refs).
	paths := []string{path}
	if filepath.Base(path) == "tools.json" {
		paths, _ = filepath.Glob(filepath.Join(filepath.Dir(path), "*.json"))
	}
	var in []load.Input
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if name == "acebench" {
			data = firstTools(t, data, 400)
		}
		in = append(in, load.Input{Name: filepath.Base(p), Data: string(data)})
	}
	fam, err := schema.BuildFamily(in, schema.BuildOptions{Package: "tab"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(rel string, b []byte) {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", []byte("module example.com/diff\n\ngo 1.26.0\n"))
	write("go.work", []byte("go 1.26.0\n\nuse (\n\t.\n\t"+filepath.ToSlash(root)+"\n)\n"))
	tabled, unions := 0, 0
	for _, pkg := range []string{"tab", "code"} {
		files, err := Generate(fam, Options{Package: pkg, Sources: fam.Sources, Tables: map[bool]TableMode{true: TablesNever, false: TablesAlways}[pkg == "code"]})
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if pkg == "tab" && f.Path == "decode_gen.go" {
				tabled = strings.Count(string(f.Bytes), " = shape.Table{")
				unions = strings.Count(string(f.Bytes), "Union: &shape.Union{")
			}
			if pkg == "tab" && (f.Path == "decode_gen.go" || f.Path == "validate_gen.go") {
				// The tables, checks and one-line methods are written
				// as text (litdata.go), laid out as gofmt lays them out.
				if out, err := format.Source(f.Bytes); err != nil || !bytes.Equal(out, f.Bytes) {
					t.Errorf("tab/%s is not gofmt-ed (err %v):\n%s", f.Path, err, diff.Diff("generated", f.Bytes, "gofmt", out))
				}
			}
			write(filepath.Join(pkg, f.Path), f.Bytes)
		}
	}
	type call struct {
		Tool string          `json:"tool"`
		Args json.RawMessage `json:"args"`
	}
	var calls []call
	for _, tool := range fam.Tools {
		for _, args := range argumentsOf(tool.Params) {
			calls = append(calls, call{tool.Name, args})
		}
		for _, args := range wiretest.Hostile() {
			if json.Valid(args) {
				calls = append(calls, call{tool.Name, args})
			}
		}
	}
	b, err := json.Marshal(calls)
	if err != nil {
		t.Fatal(err)
	}
	write("calls.json", b)
	write("diff_test.go", []byte(diffTest))
	cmd := exec.Command("go", "test", "-count=1", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK="+filepath.Join(dir, "go.work"), "GOFLAGS=-mod=readonly -buildvcs=false")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%d tables (%d unions), %d calls: go test: %v\n%s", tabled, unions, len(calls), err, out)
	}
	if name == "unions-tabled" && unions < 11 {
		t.Errorf("%d unions tabled, want all 11", unions)
	}
	t.Logf("%d tables (%d unions), %d calls agree", tabled, unions, len(calls))
}

// firstTools keeps the first n tools of a JSON array of tools (a package
// of all 2,307 ACEBench tools takes minutes to build twice).
func firstTools(t *testing.T, data []byte, n int) []byte {
	var tools []json.RawMessage
	if err := json.Unmarshal(data, &tools); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(tools[:min(n, len(tools))])
	if err != nil {
		t.Fatal(err)
	}
	return b
}

const diffTest = `package diff

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"

	"example.com/diff/code"
	"example.com/diff/tab"
)

func TestSame(t *testing.T) {
	data, err := os.ReadFile("calls.json")
	if err != nil {
		t.Fatal(err)
	}
	var calls []struct {
		Tool string          ` + "`json:\"tool\"`" + `
		Args json.RawMessage ` + "`json:\"args\"`" + `
	}
	if err := json.Unmarshal(data, &calls); err != nil {
		t.Fatal(err)
	}
	failures := 0
	for _, c := range calls {
		a, ea := tab.DecodeArgs(c.Tool, c.Args)
		b, eb := code.DecodeArgs(c.Tool, c.Args)
		ga, gb := describe(a, ea), describe(b, eb)
		if ga != gb {
			t.Errorf("%s %s:\ntables: %s\ncode:   %s", c.Tool, c.Args, ga, gb)
			if failures++; failures > 20 {
				t.FailNow()
			}
		}
	}
}

type validator interface{ Validate() error }

func describe(v any, err error) string {
	if err != nil {
		return fmt.Sprintf("error %#v", err)
	}
	b, merr := json.Marshal(v)
	s := fmt.Sprintf("value %s %v", b, merr)
	if x, ok := v.(validator); ok {
		s += fmt.Sprintf(" validate %#v", x.Validate())
	}
	return s
}
`

// argumentsOf returns argument objects for params type t: a plausible
// valid one, and for each property (at every depth) ones where it is
// missing, null, of another kind or past each of its bounds.
func argumentsOf(t *ir.Type) []json.RawMessage {
	var out []json.RawMessage
	add := func(v any) {
		if b, err := json.Marshal(v); err == nil {
			out = append(out, b)
		}
	}
	base := sample(t, 0)
	add(base)
	for _, v := range variants(t, 0) {
		add(v)
	}
	for _, v := range []any{nil, "s", 7, []any{1}} {
		add(v)
	}
	if m, ok := base.(map[string]any); ok {
		// Each member repeated, null after the value and the value
		// after null: the last one wins either way.
		if b, err := json.Marshal(m); err == nil && len(b) > 2 {
			for _, fl := range t.Fields {
				v, err := json.Marshal(sample(fl.Type, 1))
				if err != nil {
					continue
				}
				name, _ := json.Marshal(fl.JSONName)
				for _, tail := range []string{"null", string(v)} {
					out = append(out, json.RawMessage(string(b[:len(b)-1])+","+string(name)+":"+tail+"}"))
				}
			}
		}
		m["zz_unknown"] = 1
		add(m)
	}
	return out
}

// sample is a plausible value of t.
func sample(t *ir.Type, depth int) any {
	if t == nil || depth > 6 {
		return nil
	}
	if len(t.Enum) > 0 {
		return json.RawMessage(t.Enum[0].JSON)
	}
	if t.Const != nil {
		return t.Const
	}
	cs := t.ConstraintsValue()
	switch t.Kind {
	case ir.KindString:
		switch t.Format {
		case "date-time":
			return "2024-05-01T10:00:00Z"
		case "date":
			return "2024-05-01"
		case "email":
			return "a@example.com"
		case "uri":
			return "https://example.com/x"
		case "uuid":
			return "123e4567-e89b-12d3-a456-426614174000"
		}
		n := int64(3)
		if cs.MinLength != nil && *cs.MinLength > n {
			n = *cs.MinLength
		}
		if cs.MaxLength != nil && *cs.MaxLength < n {
			n = *cs.MaxLength
		}
		return strings.Repeat("a", int(n))
	case ir.KindInteger:
		if cs.Minimum != nil {
			return json.RawMessage(*cs.Minimum)
		}
		return 2
	case ir.KindNumber:
		if cs.Minimum != nil {
			return json.RawMessage(*cs.Minimum)
		}
		return 2.5
	case ir.KindBool:
		return true
	case ir.KindArray:
		item := sample(t.Elem, depth+1)
		return []any{item}
	case ir.KindObject:
		m := map[string]any{}
		for _, fl := range t.Fields {
			if fl.Required || depth < 2 {
				m[fl.JSONName] = sample(fl.Type, depth+1)
			}
		}
		return m
	case ir.KindUnion:
		if len(t.Branches) > 0 {
			return sample(t.Branches[0], depth+1)
		}
	}
	return "x"
}

// variants are values of t breaking one thing each: for an object, each
// property missing, null, of another kind or replaced by its own
// variants; for a scalar, values just past its bounds.
func variants(t *ir.Type, depth int) []any {
	if t == nil || depth > 4 {
		return nil
	}
	cs := t.ConstraintsValue()
	var out []any
	switch t.Kind {
	case ir.KindObject:
		for _, fl := range t.Fields {
			replace := func(v any, drop bool) {
				m, _ := sample(t, depth).(map[string]any)
				if m == nil {
					return
				}
				if drop {
					delete(m, fl.JSONName)
				} else {
					m[fl.JSONName] = v
				}
				out = append(out, m)
			}
			replace(nil, true)
			replace(nil, false)
			replace(map[string]any{"k": 1}, false)
			replace([]any{1, "a"}, false)
			replace(7, false)
			replace("s", false)
			replace(1.5, false)
			for _, v := range variants(fl.Type, depth+1) {
				replace(v, false)
			}
		}
	case ir.KindString:
		if cs.MinLength != nil && *cs.MinLength > 0 {
			out = append(out, strings.Repeat("é", int(*cs.MinLength-1)))
		}
		if cs.MaxLength != nil {
			out = append(out, strings.Repeat("b", int(*cs.MaxLength+1)))
		}
		out = append(out, "zzz-not-allowed", "", "not a date or email")
	case ir.KindInteger, ir.KindNumber:
		for _, n := range []*ir.Number{cs.Minimum, cs.Maximum, cs.ExclusiveMinimum, cs.ExclusiveMaximum} {
			if n != nil {
				out = append(out, json.RawMessage(*n))
				out = append(out, json.RawMessage(fmt.Sprintf("%s1", strings.TrimSuffix(string(*n), ".0"))))
				out = append(out, json.RawMessage("-"+strings.TrimPrefix(string(*n), "-")))
			}
		}
		out = append(out, json.RawMessage("1e300"), json.RawMessage("-9223372036854775809"), json.RawMessage("0.5"), json.RawMessage("3"))
	case ir.KindConst:
		out = append(out, "zzz-not-the-const", "", 5)
	case ir.KindUnion:
		for _, b := range t.Branches {
			out = append(out, sample(b, depth+1))
			out = append(out, variants(b, depth+1)...)
		}
		if d := t.Discriminator; d != nil && len(d.Values) > 0 {
			// The discriminator missing, null, empty, unknown (one
			// letter off a tag, for the suggestion) and not a string.
			for _, v := range []any{nil, json.RawMessage("null"), "", d.Values[0].Value + "z", 5, map[string]any{}} {
				m, _ := sample(t, depth).(map[string]any)
				if m == nil {
					break
				}
				if v == nil {
					delete(m, d.Property)
				} else {
					m[d.Property] = v
				}
				out = append(out, m)
			}
		}
	case ir.KindArray:
		item := sample(t.Elem, depth+1)
		out = append(out, []any{}, []any{item, item}, []any{item, item, item, item, item, item, item, item, item, item, item})
		for _, v := range variants(t.Elem, depth+1) {
			out = append(out, []any{item, v})
		}
	}
	return out
}
