package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/diff"
)

// TestFormatted holds every generated file of the golden cases, the
// hostile corpus and the examples to gofmt's layout: format.Source(out) ==
// out. The generator writes its data files (registry, handlers, the Tools
// and Facades lists) as text without go/format, so this is what keeps that
// text laid out as gofmt would lay it out.
func TestFormatted(t *testing.T) {
	check := func(t *testing.T, name string, src []byte) {
		t.Helper()
		out, err := format.Source(src)
		if err != nil {
			t.Errorf("%s does not format: %v", name, err)
			return
		}
		if !bytes.Equal(out, src) {
			t.Errorf("%s is not gofmt-ed:\n%s", name, diff.Diff(name, src, "gofmt", out))
		}
	}
	for _, dir := range caseDirs(t) {
		files, err := generate(dir)
		if err != nil {
			t.Fatalf("%s: generate: %v", dir, err)
		}
		for _, f := range files {
			check(t, filepath.Join(dir, f.Path), f.Bytes)
		}
	}
	for _, sh := range hostileShapes {
		tools, man, _ := hostileInputs(t, sh, false)
		for _, f := range generateHostile(t, sh, tools, man) {
			check(t, "hostile "+sh.pkg+"/"+f.Path, f.Bytes)
		}
	}
	// A catalogue past 200 object shapes and 64 tools: tables, allocation
	// functions and Tools split into parts.
	var big bytes.Buffer
	big.WriteString("[")
	for i := range 260 {
		if i > 0 {
			big.WriteString(",")
		}
		fmt.Fprintf(&big, `{"name":"tool_%d","description":"Tool %d.","input_schema":{"type":"object","required":["a"],"properties":{"a":{"type":"string","minLength":%d},"items":{"type":"array","items":{"type":"object","properties":{"n%d":{"type":"integer"}}}},"opt":{"type":"object","properties":{"k%d":{"type":"string","enum":["x","y"]}}}}}}`, i, i, i%5, i, i)
	}
	big.WriteString("]")
	for _, f := range generateHostile(t, hostileShape{pkg: "catalogue"}, big.Bytes(), nil) {
		check(t, "catalogue/"+f.Path, f.Bytes)
		if f.Path == "tools_gen.go" && !bytes.Contains(f.Bytes, []byte("\nfunc tools4(h Handlers")) {
			t.Errorf("catalogue/tools_gen.go: Tools of 260 tools is not split into parts")
		}
	}
	// Descriptions gofmt does not bring to a fixed point in one pass (an
	// indented "*" list item, a link definition after one): the doc
	// comments written as text are already in the form gofmt keeps, and
	// so are the field comments (a union's branch too) gofmt leaves alone.
	var docs bytes.Buffer
	docs.WriteString("[")
	for i, d := range []string{" * 0\n\n\t0", "000000000000000\n * [0]: https://", "Lists:\n - a\n - b\n\n\t//go:build never\n[x]: https://x\nHeading\n\nMore."} {
		if i > 0 {
			docs.WriteString(",")
		}
		q, _ := json.Marshal(d)
		fmt.Fprintf(&docs, `{"name":"doc_%d","description":%s,"input_schema":{"type":"object","properties":{"o":{"type":"object","description":%s,"properties":{"e":{"type":"string","enum":["a","b"],"description":%s}}},"u":{"anyOf":[{"type":"string","description":%s},{"type":"object","properties":{"k":{"type":"integer"}}}],"description":%s}}}}`, i, q, q, q, q, q)
	}
	docs.WriteString("]")
	for _, f := range generateHostile(t, hostileShape{pkg: "docs"}, docs.Bytes(), nil) {
		check(t, "docs/"+f.Path, f.Bytes)
	}
	examples, err := filepath.Glob("../examples/*/*_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range examples {
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		check(t, path, src)
	}
}
