package scale_test

import (
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/generator"
	"github.com/toolgen-go/toolgen/golden/bench/scale"
	"github.com/toolgen-go/toolgen/schema"
	"github.com/toolgen-go/toolgen/schema/limits"
	"github.com/toolgen-go/toolgen/schema/load"
)

// sizes are the catalogue sizes of the front-end and generator benchmarks;
// their ratio shows whether a phase grows linearly.
var sizes = []int{1000, 10000}

// wide is the property count of the wide-object input; wideOptions lift
// the properties limit it passes.
const wide = 5000

var wideOptions = schema.BuildOptions{Package: "pkg", Options: load.Options{Limits: limits.Limits{Properties: wide}}}

// inputs are the benchmarks' inputs by name, with the options they build
// with.
func inputs() []struct {
	name string
	in   []load.Input
	opt  schema.BuildOptions
} {
	type input = struct {
		name string
		in   []load.Input
		opt  schema.BuildOptions
	}
	var ins []input
	for _, n := range sizes {
		ins = append(ins, input{fmt.Sprintf("tools=%d", n), []load.Input{{Name: "tools.json", Data: string(scale.Catalogue(n, 1))}}, schema.BuildOptions{Package: "pkg"}})
	}
	return append(ins, input{fmt.Sprintf("properties=%d", wide), []load.Input{{Name: "tools.json", Data: string(scale.WideObject(wide))}}, wideOptions})
}

// BenchmarkBuildFamily measures the whole front end (load, compile,
// taxonomy) on synthetic catalogues and on one wide object.
func BenchmarkBuildFamily(b *testing.B) {
	for _, in := range inputs() {
		b.Run(in.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := schema.BuildFamily(in.in, in.opt, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkGenerate measures generator.Generate on a family built once.
func BenchmarkGenerate(b *testing.B) {
	for _, in := range inputs() {
		fam, err := schema.BuildFamily(in.in, in.opt, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(in.name, func(b *testing.B) {
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
	data := scale.Catalogue(300, 1)
	if string(data) != string(scale.Catalogue(300, 1)) {
		t.Fatal("Catalogue(300, 1) differs between two calls")
	}
	for _, in := range [][]byte{data, scale.WideObject(50)} {
		fam, err := schema.BuildFamily([]load.Input{{Name: "tools.json", Data: string(in)}}, schema.BuildOptions{Package: "pkg"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := generator.Generate(fam, generator.Options{}); err != nil {
			t.Fatal(err)
		}
	}
}
