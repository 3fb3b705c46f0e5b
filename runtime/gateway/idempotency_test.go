package gateway

import (
	"strconv"
	"testing"
)

func stored(s *MemoryStore, key string) bool {
	_, ok := s.Load(key)
	return ok
}

// TestMemoryStoreShares: when the store is full, a session holding more
// than its share (a sixteenth) drops its own oldest records, so one
// session's flood of keyed calls leaves the others' records, which a
// retried write needs; alone, a caller has the whole store.
func TestMemoryStoreShares(t *testing.T) {
	s := NewMemoryStore(64)
	for i := range 3 {
		s.Store("victim\x00k"+strconv.Itoa(i), IdempotencyRecord{Op: "a.write"})
	}
	for i := range 1000 {
		s.Store("flood\x00k"+strconv.Itoa(i), IdempotencyRecord{Op: "a.read"})
	}
	for i := range 3 {
		if !stored(s, "victim\x00k"+strconv.Itoa(i)) {
			t.Errorf("the victim's record %d was dropped by another session's flood", i)
		}
	}
	if !stored(s, "flood\x00k999") || stored(s, "flood\x00k0") || len(s.recs) != 64 {
		t.Errorf("the flood keeps its newest records within the store: %d held", len(s.recs))
	}
	// One caller without sessions: the newest 64 of 100.
	s = NewMemoryStore(64)
	for i := range 100 {
		s.Store("k"+strconv.Itoa(i), IdempotencyRecord{})
	}
	if len(s.recs) != 64 || !stored(s, "k36") || stored(s, "k35") {
		t.Errorf("one caller: %d held, k36 %v, k35 %v", len(s.recs), stored(s, "k36"), stored(s, "k35"))
	}
	// Many sessions within their shares: the oldest overall goes.
	s = NewMemoryStore(64)
	for i := range 100 {
		s.Store("s"+strconv.Itoa(i)+"\x00k", IdempotencyRecord{})
	}
	if len(s.recs) != 64 || !stored(s, "s36\x00k") || stored(s, "s35\x00k") || len(s.count) != 64 || len(s.byScope) != 64 {
		t.Errorf("many sessions: %d held, %d scopes counted, %d listed", len(s.recs), len(s.count), len(s.byScope))
	}
	// A key stored again is replaced, and the lists stay bounded.
	s = NewMemoryStore(64)
	for i := range 10000 {
		s.Store("s\x00k", IdempotencyRecord{Op: strconv.Itoa(i)})
	}
	if r, _ := s.Load("s\x00k"); r.Op != "9999" || len(s.recs) != 1 || len(s.order) > 128 || len(s.byScope["s"]) > 128 {
		t.Errorf("a key stored 10,000 times: op %s, %d held, lists of %d and %d", r.Op, len(s.recs), len(s.order), len(s.byScope["s"]))
	}
}

// TestRepetitionsPerSession: one session's flood of failing calls forgets
// its own counts only (it reset every session's), and the same call spelt
// with other blanks counts as a repeat.
func TestRepetitionsPerSession(t *testing.T) {
	var r repetitions
	r.hit("victim", "a.get", "NOT_FOUND", []byte(`{"id": 1}`))
	if n := r.hit("victim", "a.get", "NOT_FOUND", []byte("{\"id\":1}\n")); n != 2 {
		t.Errorf("the same call with other blanks: count %d, want 2", n)
	}
	for i := range maxRepetitionKeys + 10 {
		r.hit("flood", "a.get", "NOT_FOUND", []byte(`{"id":`+strconv.Itoa(i)+`}`))
	}
	if n := r.hit("victim", "a.get", "NOT_FOUND", []byte(`{"id":1}`)); n != 3 {
		t.Errorf("after another session's flood: count %d, want 3", n)
	}
	// New sessions past the bound forget the counts of the session idle
	// longest, not every session's (the 4,097th had reset them all).
	for i := range maxRepetitionSessions + 10 {
		r.hit("s"+strconv.Itoa(i), "a.get", "NOT_FOUND", []byte(`{}`))
		if i%1000 == 0 {
			r.hit("victim", "a.list", "INTERNAL", []byte(`{}`)) // the victim stays active
		}
	}
	if n := r.hit("victim", "a.get", "NOT_FOUND", []byte(`{"id":1}`)); n != 4 {
		t.Errorf("after %d new sessions: count %d, want 4", maxRepetitionSessions+10, n)
	}
	if n := r.hit("s0", "a.get", "NOT_FOUND", []byte(`{}`)); n != 1 {
		t.Errorf("the session idle longest: count %d, want 1 (forgotten)", n)
	}
	if len(r.m) != maxRepetitionSessions || r.lru.Len() != maxRepetitionSessions {
		t.Errorf("%d sessions counted (%d in order), want %d", len(r.m), r.lru.Len(), maxRepetitionSessions)
	}
}
