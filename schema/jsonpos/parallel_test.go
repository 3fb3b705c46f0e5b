package jsonpos

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// parseBoth parses src serially and with the parallel split forced on.
func parseBoth(t *testing.T, src string) (serial, parallel *Node, serr, perr error) {
	t.Helper()
	defer func(min int) { parallelMin = min }(parallelMin)
	parallelMin = 1 << 62
	serial, serr = ParseDepth("t.json", []byte(src), 6, " (hint)")
	parallelMin = 0
	parallel, perr = ParseDepth("t.json", []byte(src), 6, " (hint)")
	return
}

// TestParseParallel checks that a top-level array parsed on several
// goroutines gives the serial parse's tree (positions and pointers
// included) and, on bad input, its exact error.
func TestParseParallel(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	var b strings.Builder
	b.WriteString(" \n[")
	for i := range 40 {
		if i > 0 {
			b.WriteString(",\n ")
		}
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, `{"name": "t%d", "s": "a,]}[{\"\\", "n": [1, {"x": null}]}`, i)
		case 1:
			fmt.Fprintf(&b, "%d", i)
		case 2:
			b.WriteString("\"é\\n,\"\t")
		case 3:
			b.WriteString("[ ]")
		default:
			b.WriteString("{\n\"k\": true }")
		}
	}
	b.WriteString("\n]\n")
	good := b.String()
	inputs := []string{good}
	// Each breakage is put into one element of the good array.
	for _, bad := range []string{
		`{"a":1,"a":2}`, `[1,]`, `"x`, `tru`, `{"a" 1}`, `01`, "\"\n\"", `[[[[[[[1]]]]]]]`, `"\q"`, `}`, `]`, `,`,
	} {
		inputs = append(inputs, strings.Replace(good, "[ ]", bad, 1))
	}
	inputs = append(inputs, good+"x", strings.TrimSuffix(good, "\n]\n"), good[:len(good)/2], "[1,2,3,]", "[]", "[1]", `[1 2]`, `{"a":[1,2]}`)
	for _, in := range inputs {
		s, p, serr, perr := parseBoth(t, in)
		if fmt.Sprint(serr) != fmt.Sprint(perr) {
			t.Errorf("%q:\nserial error   %v\nparallel error %v", in, serr, perr)
			continue
		}
		if !reflect.DeepEqual(s, p) {
			t.Errorf("%q: parallel tree differs from the serial one", in)
		}
	}
	// The good array does take the parallel path.
	defer func(min int) { parallelMin = min }(parallelMin)
	parallelMin = 0
	p := &parser{file: "t.json", src: good, line: 1, maxDepth: 6, ptrBudget: 1 << 20}
	p.skipSpace()
	if _, ok := p.parseParallel(); !ok {
		t.Error("the good array was not parsed in parallel")
	}
}

// TestParseParallelBudget checks that the pointer budget is spent as in
// the serial parse: an array whose pointers exceed it fails the same way.
func TestParseParallelBudget(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(min int) { parallelMin = min }(parallelMin)
	parallelMin = 0
	src := "[" + strings.Repeat("1,", 999) + "1]"
	p := &parser{file: "t.json", src: src, line: 1, maxDepth: 6, ptrBudget: 3000}
	if _, ok := p.parseParallel(); ok {
		t.Error("parsed in parallel beyond the pointer budget")
	}
	p = &parser{file: "t.json", src: src, line: 1, maxDepth: 6, ptrBudget: 5000}
	if _, ok := p.parseParallel(); !ok {
		t.Error("not parsed in parallel within the pointer budget")
	}
}

// FuzzParseParallel checks that forcing the parallel split never changes
// the parse: same tree, or the same error.
func FuzzParseParallel(f *testing.F) {
	for _, s := range []string{`[1,2,3]`, "[\n{\"a\": [1, \"]\"]},\n\"x\\\"]\", 2 ]", `[{"a":1,"a":2},1]`, `[1,]`, `[[1],[2`, `["a\`, "[1,\n2] x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
		s, p, serr, perr := parseBoth(t, src)
		if fmt.Sprint(serr) != fmt.Sprint(perr) {
			t.Fatalf("serial error %v, parallel error %v", serr, perr)
		}
		if !reflect.DeepEqual(s, p) {
			t.Fatal("parallel tree differs from the serial one")
		}
	})
}
