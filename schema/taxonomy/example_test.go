package taxonomy_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/load"
)

// TestExamplesAreValidCalls: help shows each op's example as a call to
// copy, and a validation error sends it as the shape to follow; every
// example of every op of the corpora (ACEBench's 2,307 tools and
// ../shared/corpus/tools, skipped without them) must be a call the op's
// own schema accepts. Before, 442 of ACEBench's were refused: a
// placeholder "<name>" against a pattern, 1 below a minimum, objects cut at
// depth 3, an enum behind a $ref. An example the placeholders cannot make
// valid is left out; the test logs how many.
func TestExamplesAreValidCalls(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the corpora")
	}
	files := []string{corpus.Dir(t, "search", "acebench.tools.json")}
	tools, _ := filepath.Glob(filepath.Join(corpus.Dir(t, "tools"), "*", "*.tools.json"))
	files = append(files, tools...)
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		f, err := schema.BuildFamily([]load.Input{{Name: filepath.Base(p), Data: string(data)}}, schema.BuildOptions{Package: "p", Options: load.Options{Lenient: true}}, nil)
		if err != nil {
			t.Logf("%s: %v", p, err)
			continue
		}
		without := 0
		for _, op := range f.Ops {
			if len(op.Examples) == 0 {
				without++
				continue
			}
			s, err := check.CompileSchema(string(op.Tool.ParamsSchema))
			if err != nil {
				t.Errorf("%s: the served schema does not compile alone: %v", op.Path, err)
				continue
			}
			for _, ex := range op.Examples {
				dec := json.NewDecoder(bytes.NewReader(ex.Args))
				dec.UseNumber()
				var v any
				if err := dec.Decode(&v); err != nil {
					t.Errorf("%s: example %s: %v", op.Path, ex.Args, err)
					continue
				}
				if errs := s.Validate(v, ""); len(errs) > 0 {
					t.Errorf("%s: example %s is refused: %v\nschema %s", op.Path, ex.Args, errs, op.Tool.ParamsSchema)
				}
			}
		}
		t.Logf("%s: %d ops, %d without an example", filepath.Base(p), len(f.Ops), without)
	}
}

// BenchmarkBuildACEBench builds the 2,307 ACEBench tools (load, compile,
// taxonomy with its usage lines and examples); skipped without the corpus.
func BenchmarkBuildACEBench(b *testing.B) {
	data, err := os.ReadFile(corpus.Dir(b, "search", "acebench.tools.json"))
	if err != nil {
		b.Fatal(err)
	}
	in := []load.Input{{Name: "acebench.tools.json", Data: string(data)}}
	for b.Loop() {
		if _, err := schema.BuildFamily(in, schema.BuildOptions{Package: "p", Options: load.Options{Lenient: true}}, nil); err != nil {
			b.Fatal(err)
		}
	}
}
