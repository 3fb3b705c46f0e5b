package scale_test

import (
	"runtime"
	"testing"

	"github.com/toolgen-go/toolgen/golden/bench/scale"
	"github.com/toolgen-go/toolgen/schema"
)

func TestZZMem(t *testing.T) {
	data := scale.Catalogue(10000, 1)
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	fam, err := schema.BuildFamily([]schema.Input{{Name: "tools.json", Data: data}}, schema.BuildOptions{Package: "pkg"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&m1)
	peak := m1.HeapSys
	runtime.GC()
	var m2 runtime.MemStats
	runtime.ReadMemStats(&m2)
	t.Logf("input %d MB; heap before %d MB, heapsys after build %d MB, live after GC %d MB, total alloc %d MB, types %d", len(data)>>20, m0.HeapAlloc>>20, peak>>20, m2.HeapAlloc>>20, (m1.TotalAlloc-m0.TotalAlloc)>>20, len(fam.Types))
	runtime.KeepAlive(fam)
}
