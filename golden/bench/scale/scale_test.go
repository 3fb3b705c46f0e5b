package scale_test

import (
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/bench/scale"
	"github.com/toolgen-go/toolgen/schema"
)

// sizes are the catalogue sizes of the front-end and generator benchmarks;
// their ratio shows whether a phase grows linearly.
var sizes = []int{1000, 10000}

func catalogue(b *testing.B, n int) []schema.Input {
	b.Helper()
	return []schema.Input{{Name: "tools.json", Data: scale.Catalogue(n, 1)}}
}

// BenchmarkBuildFamily measures the whole front end (load, compile,
// taxonomy) on synthetic catalogues.
func BenchmarkBuildFamily(b *testing.B) {
	for _, n := range sizes {
		in := catalogue(b, n)
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := schema.BuildFamily(in, schema.BuildOptions{Package: "pkg"}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGenerate measures generator.Generate on a family built once.
func BenchmarkGenerate(b *testing.B) {
	for _, n := range sizes {
		fam, err := schema.BuildFamily(catalogue(b, n), schema.BuildOptions{Package: "pkg"}, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("tools=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := generator.Generate(fam, generator.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestCatalogueBuilds checks that a small synthetic catalogue goes through
// the front end and the generator without errors, and that the same size
// and seed give the same bytes.
func TestCatalogueBuilds(t *testing.T) {
	data := scale.Catalogue(60, 1)
	if string(data) != string(scale.Catalogue(60, 1)) {
		t.Fatal("Catalogue(60, 1) differs between two calls")
	}
	for _, in := range [][]byte{data, scale.WideObject(50)} {
		fam, err := schema.BuildFamily([]schema.Input{{Name: "tools.json", Data: in}}, schema.BuildOptions{Package: "pkg"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generator.Generate(fam, generator.Options{}); err != nil {
			t.Fatal(err)
		}
	}
}
