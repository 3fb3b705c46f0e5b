package golden

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/taxonomy"

	"github.com/toolgen-go/toolgen/schema/load"

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
	for _, ex := range issue8Examples {
		f.Add([]byte(ex.tools))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fam, err := schema.Build([]load.Input{{Name: "fuzz.json", Data: data}}, schema.BuildOptions{Package: "fuzz"})
		if err != nil {
			return
		}
		if err := taxonomy.Derive(fam, nil); err != nil {
			return
		}
		files, err := generator.Generate(fam, generator.Options{Package: "fuzz"})
		if err != nil {
			if strings.Contains(err.Error(), "internal error") {
				t.Fatalf("%v\ninput: %s", err, data)
			}
			return
		}
		fset := token.NewFileSet()
		for _, file := range files {
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
