package generator

import (
	"bytes"
	"fmt"
	"go/format"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestSrcFileChunks writes files whose text spans many chunks, between
// jennifer declarations, with writes longer than a chunk and literals
// whose escaping outgrows the room made for them, on several goroutines
// at once (the pool is shared), and requires every file to hold exactly
// what was written, in order, laid out as gofmt lays it out.
func TestSrcFileChunks(t *testing.T) {
	g := textGen()
	long := strings.Repeat("x", chunkSize+10)
	// Every byte takes four in the literal: far past lit's room.
	escaped := strings.Repeat("\x00", 5000)
	write := func(seed int) (*srcFile, []string) {
		s := g.newSrcFile()
		var want []string // the values, in the order written
		v := 0
		value := func() string {
			v++
			switch {
			case v%4999 == 0:
				return long
			case v%331 == 0:
				return escaped
			}
			return fmt.Sprintf("file %d value %d", seed, v)
		}
		for part := range 5 {
			s.decl()
			s.text("var (\n")
			for range 1500 * (part + 1) {
				w := value()
				want = append(want, w)
				s.text("\t_ = ")
				s.lit(w)
				s.text("\n")
			}
			s.text(")\n")
			if part%2 == 0 {
				w := value()
				want = append(want, w)
				s.jen().Var().Id("_").Op("=").Lit(w)
			}
		}
		return s, want
	}
	var wg sync.WaitGroup
	for seed := range 3 {
		wg.Go(func() {
			s, want := write(seed)
			out, err := s.render()
			if err != nil {
				t.Error(err)
				return
			}
			formatted, err := format.Source(out)
			if err != nil {
				t.Errorf("file %d: %v", seed, err)
				return
			}
			if !bytes.Equal(out, formatted) {
				t.Errorf("file %d: not as gofmt lays it out", seed)
			}
			var got []string
			for line := range strings.Lines(string(out)) {
				_, lit, ok := strings.Cut(strings.TrimSpace(line), "_ = ")
				if !ok {
					continue
				}
				w, err := strconv.Unquote(lit)
				if err != nil {
					t.Errorf("file %d: %v: %.80s", seed, err, line)
					return
				}
				got = append(got, w)
			}
			if len(got) != len(want) {
				t.Errorf("file %d: %d values, want %d", seed, len(got), len(want))
				return
			}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("file %d: value %d is %.40q, want %.40q", seed, i, got[i], want[i])
					return
				}
			}
		})
	}
	wg.Wait()
}
