package golden

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/schema"
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
	f.Fuzz(func(t *testing.T, data []byte) {
		fam, err := schema.Build([]schema.Input{{Name: "fuzz.json", Data: data}}, schema.BuildOptions{Package: "fuzz"})
		if err != nil {
			return
		}
		if err := schema.Taxonomy(fam, nil); err != nil {
			return
		}
		files, err := generator.Generate(fam, generator.Options{Package: "fuzz"})
		if err != nil {
			return
		}
		fset := token.NewFileSet()
		for _, file := range files {
			if _, err := parser.ParseFile(fset, file.Path, file.Bytes, parser.SkipObjectResolution); err != nil {
				t.Fatalf("%s does not parse: %v\ninput: %s", file.Path, err, data)
			}
		}
	})
}
