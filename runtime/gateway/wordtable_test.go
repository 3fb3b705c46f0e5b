package gateway

import (
	"fmt"
	"strings"
	"testing"
)

// fnvCollidingWords returns 2^stages distinct words of lowercase letters
// whose 64-bit FNV-1a hashes agree in their low 20 bits: one pair of
// four-letter blocks that collide from the state the blocks before them
// leave, per stage, and every choice of one block of each pair (Joux's
// multicollisions). The low bits of FNV-1a depend on the low bits of its
// state alone, so the words collide in any table of up to 2^20 slots
// indexed by those bits, whatever their length.
func fnvCollidingWords(stages int) []string {
	const prime, mask = 1099511628211, 1<<20 - 1
	state := uint64(14695981039346656037)
	var pairs [][2]string
	for range stages {
		seen := map[uint64]string{}
		for i := 0; ; i++ {
			b := []byte{byte('a' + i%26), byte('a' + i/26%26), byte('a' + i/676%26), byte('a' + i/17576%26)}
			h := state
			for _, c := range b {
				h = (h ^ uint64(c)) * prime
			}
			if o, ok := seen[h&mask]; ok {
				pairs = append(pairs, [2]string{o, string(b)})
				state = h
				break
			}
			seen[h&mask] = string(b)
		}
	}
	words := []string{""}
	for _, p := range pairs {
		next := make([]string, 0, 2*len(words))
		for _, w := range words {
			next = append(next, w+p[0], w+p[1])
		}
		words = next
	}
	return words
}

// longestRun is the longest run of occupied slots of t, the probes a
// lookup may take.
func longestRun(t *wordTable) int {
	longest, run := 0, 0
	for _, s := range append(t.slots, t.slots...) { // runs wrap around
		if s.size == 0 {
			run = 0
			continue
		}
		run++
		longest = max(longest, run)
	}
	return min(longest, len(t.slots))
}

// TestWordTableCollidingWords: words a definition chooses so that their
// FNV-1a hashes collide must not pile up in one run of the word table,
// which made reading them quadratic (16,384 such words in one
// description, 0.9 MB, took 620 ms to index against 45 ms for as many
// other words; 65,536 of them, 4 MB, about ten seconds). The table's hash
// is seeded, as the other tables of hostile names are (memberTable,
// text.NameSet).
func TestWordTableCollidingWords(t *testing.T) {
	words := fnvCollidingWords(12)
	tt := newWordTable(1 << 12)
	for i, w := range words {
		if _, ok := wordGet(tt, w); ok {
			t.Fatalf("word %d %q found before it was added", i, w)
		}
		wordPut(tt, w, int32(i))
	}
	for i, w := range words {
		if v, ok := wordGet(tt, []byte(w)); !ok || v != int32(i) {
			t.Fatalf("word %d %q: got %d, %v", i, w, v, ok)
		}
	}
	if n := longestRun(tt); n > 256 {
		t.Errorf("%d words: a run of %d occupied slots in %d", len(words), n, len(tt.slots))
	}
}

// BenchmarkIndexCollidingWords indexes one op whose description is
// words whose FNV-1a hashes collide, and as many other words of the same
// length (control).
func BenchmarkIndexCollidingWords(b *testing.B) {
	for _, stages := range []int{12, 14} {
		words := fnvCollidingWords(stages)
		control := make([]string, len(words))
		for i, w := range words {
			c := []byte(w)
			for j := range c {
				c[j] = byte('a' + (i>>(j%16)+j*7+i*j)%26)
			}
			control[i] = string(c)
		}
		for _, c := range []struct {
			name  string
			words []string
		}{{"colliding", words}, {"control", control}} {
			ops := []Op{{Path: "a.b.c", Tool: "t", Description: strings.Join(c.words, " ")}}
			b.Run(fmt.Sprintf("%s_%d", c.name, len(words)), func(b *testing.B) {
				for b.Loop() {
					NewIndex(ops)
				}
			})
		}
	}
}
