package load

import "github.com/toolgen-go/toolgen/schema/ir"

// tally counts occurrences of warnings by key, keeping where each was
// first found and the order keys first appeared in: a catalogue repeating
// one quirk in every tool gets one summarised line, at its first place,
// not hundreds.
type tally[K comparable] struct {
	index   map[K]int
	entries []tallied[K]
}

// tallied is one key of a tally: how often it was found and where first.
type tallied[K comparable] struct {
	key   K
	first ir.Pos
	count int
}

// add counts one occurrence of key, found at pos.
func (t *tally[K]) add(key K, pos ir.Pos) {
	i, ok := t.index[key]
	if !ok {
		if t.index == nil {
			t.index = map[K]int{}
		}
		i = len(t.entries)
		t.index[key] = i
		t.entries = append(t.entries, tallied[K]{key: key, first: pos})
	}
	t.entries[i].count++
}
