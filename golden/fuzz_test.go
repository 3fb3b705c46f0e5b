package golden

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/load"
	"github.com/toolgen-go/toolgen/schema/taxonomy"
)

// FuzzPipeline feeds arbitrary input files through the whole pipeline: it
// must either fail with located errors or produce Go that parses — never
// panic. Seeds are the golden cases' inputs.
func FuzzPipeline(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("*", "*.json"))
	errs, _ := filepath.Glob(filepath.Join("errors", "*.json"))
	for _, p := range append(seeds, errs...) {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	for _, ex := range issue8Examples {
		f.Add([]byte(ex.tools))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		// As toolgen generate builds it: the taxonomy alongside the
		// compile, from the trees the compile parsed.
		fam, err := schema.BuildFamily([]load.Input{{Name: "fuzz.json", Data: string(data)}}, schema.BuildOptions{Package: "fuzz"}, nil)
		if err != nil {
			return
		}
		// Those ops are the ones the schema JSON alone gives.
		ops, version := opSummaries(fam), fam.RegistryVersion
		if err := taxonomy.Derive(fam, nil); err != nil {
			t.Fatalf("Derive from JSON: %v\ninput: %s", err, data)
		}
		if again := opSummaries(fam); !reflect.DeepEqual(ops, again) || version != fam.RegistryVersion {
			t.Fatalf("ops from the parsed schemas differ from the JSON's:\n%+v %s\n%+v %s\ninput: %s", ops, version, again, fam.RegistryVersion, data)
		}
		files, err := generator.Generate(fam, generator.Options{Package: "fuzz"})
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%v\ninput: %s", err, data)
			}
			return
		}
		// The same family through runtime/shape tables, which a small
		// family gets only when forced: their literals are written as
		// text.
		tabled, err := generator.Generate(fam, generator.Options{Package: "fuzz", Tables: generator.TablesAlways})
		if err != nil {
			t.Fatalf("tables forced: %v\ninput: %s", err, data)
		}
		fset := token.NewFileSet()
		for _, file := range append(files, tabled...) {
			if _, err := parser.ParseFile(fset, file.Path, file.Bytes, parser.SkipObjectResolution); err != nil {
				t.Fatalf("%s does not parse: %v\ninput: %s", file.Path, err, data)
			}
			// Definition text never becomes a directive or a block comment.
			for i, line := range strings.Split(string(file.Bytes), "\n") {
				if directiveLine.MatchString(line) {
					t.Fatalf("%s:%d: directive-like line %q\ninput: %s", file.Path, i+1, line, data)
				}
			}
		}
	})
}

// opSummary is what the taxonomy derives for an op.
type opSummary struct {
	Path, Usage, Args string
	Arguments         []ir.Arg
	Examples          []ir.Example
}

func opSummaries(fam *ir.Family) []opSummary {
	var out []opSummary
	for _, op := range fam.Ops {
		out = append(out, opSummary{op.Path, op.Usage, op.Args, op.Arguments, op.Examples})
	}
	return out
}
