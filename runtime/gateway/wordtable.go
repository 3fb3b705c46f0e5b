package gateway

import (
	"hash/maphash"
	"unsafe"
)

// wordTable maps raw words to int32 values without a string per word:
// the words are kept in one byte arena and found by open addressing over
// their seeded hashes. Building an index looks up every word of every
// definition in one (hundreds of thousands of lookups for a large
// family), most of them words seen before. The words are a definition's,
// so the hash is seeded, as the other tables of hostile names are
// (memberTable, text.NameSet): with FNV-1a, whose low bits depend on the
// low bits of its state alone, a description could hold thousands of
// words that fall in one run of slots, each lookup probing them all.
type wordTable struct {
	seed  maphash.Seed
	slots []wordSlot // a power of two of them
	arena []byte
	n     int
}

// wordSlot is one entry; size 0 marks an empty slot (words are never
// empty).
type wordSlot struct {
	hash uint64
	off  int
	size uint32
	val  int32
}

// maxWordLen bounds the words a wordTable keeps: a longer "word" is data
// (an encoded blob in a description), looked up once.
const maxWordLen = 1 << 10

func newWordTable(capacity int) *wordTable {
	n := 16
	for n < 2*capacity {
		n *= 2
	}
	return &wordTable{seed: maphash.MakeSeed(), slots: make([]wordSlot, n), arena: make([]byte, 0, 8*capacity)}
}

// hashWord is the hash of w with seed.
func hashWord[T ~string | ~[]byte](seed maphash.Seed, w T) uint64 {
	switch w := any(w).(type) {
	case string:
		return maphash.String(seed, w)
	case []byte:
		return maphash.String(seed, unsafe.String(unsafe.SliceData(w), len(w)))
	}
	return maphash.String(seed, string(w))
}

// get returns w's value and whether w is in the table.
func wordGet[T ~string | ~[]byte](t *wordTable, w T) (int32, bool) {
	h := hashWord(t.seed, w)
	mask := uint64(len(t.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		s := &t.slots[i]
		if s.size == 0 {
			return 0, false
		}
		if s.hash == h && string(t.arena[s.off:s.off+int(s.size)]) == string(w) {
			return s.val, true
		}
	}
}

// wordPut adds w, which the table does not hold, with value v. Words
// longer than maxWordLen are not kept (wordGet does not find them).
func wordPut[T ~string | ~[]byte](t *wordTable, w T, v int32) {
	if len(w) > maxWordLen {
		return
	}
	if 2*(t.n+1) > len(t.slots) {
		t.grow()
	}
	off := len(t.arena)
	t.arena = append(t.arena, w...)
	t.insert(wordSlot{hash: hashWord(t.seed, w), off: off, size: uint32(len(w)), val: v})
	t.n++
}

func (t *wordTable) insert(s wordSlot) {
	mask := uint64(len(t.slots) - 1)
	i := s.hash & mask
	for t.slots[i].size != 0 {
		i = (i + 1) & mask
	}
	t.slots[i] = s
}

func (t *wordTable) grow() {
	old := t.slots
	t.slots = make([]wordSlot, 2*len(old))
	for _, s := range old {
		if s.size != 0 {
			t.insert(s)
		}
	}
}
