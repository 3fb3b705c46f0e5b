package gateway

import (
	"context"
	"strings"
	"sync"
	"time"
)

type idempotencyKeyKey struct{}

// IdempotencyKey returns a key for the tool_exec call whose op handler
// runs under ctx, made from its idempotency_key, or "" (no key, or a dry
// run). The key stands for the idempotency_key and the call itself (op
// and arguments): a handler that stores its writes can record it in the
// same transaction, so that a repeat of the call after a crash (before
// the gateway stored its answer), from a new session too, finds the write
// done, and a call of other arguments under the same idempotency_key
// (another client's) never does.
func IdempotencyKey(ctx context.Context) string {
	k, _ := ctx.Value(idempotencyKeyKey{}).(string)
	return k
}

func withIdempotencyKey(ctx context.Context, key string) context.Context {
	if key == "" {
		return ctx
	}
	return context.WithValue(ctx, idempotencyKeyKey{}, key)
}

// IdempotencyRecord is what the gateway remembers of an executed call that
// carried an idempotency key.
type IdempotencyRecord struct {
	// Op and Fingerprint (a hash of the op, the dry-run flag and the
	// canonical args) identify the call. Dry runs are never recorded.
	Op          string
	Fingerprint string
	// Envelope is the encoded first answer, replayed for repeats.
	Envelope []byte
	Stored   time.Time
}

// IdempotencyStore remembers executed calls by idempotency key, scoped by
// the gateway to the session ("<session>\x00<key>" when the tool context
// has a session; tool_exec refuses a key holding NUL, which could name
// another session's). The gateway applies the TTL itself; a store may
// also drop records early.
type IdempotencyStore interface {
	Load(key string) (IdempotencyRecord, bool)
	Store(key string, rec IdempotencyRecord)
}

// MemoryStore is an in-memory IdempotencyStore that keeps at most a fixed
// number of records, dropping the oldest first. When it is full, a scope
// (a session: the part of a key before NUL) holding more than a
// sixteenth of them drops its own oldest instead, so that one session's
// flood of keyed calls cannot push out every other session's records and
// make a victim's retried write run twice.
type MemoryStore struct {
	mu    sync.Mutex
	max   int
	share int
	seq   uint64
	recs  map[string]storedRecord
	// order and byScope list records oldest first, by key and the seq
	// they were stored with; an entry whose record was replaced or
	// dropped since is stale and skipped.
	order   []storedEntry
	byScope map[string][]storedEntry
	count   map[string]int // records held, by scope
}

type storedRecord struct {
	rec IdempotencyRecord
	seq uint64
}

type storedEntry struct {
	key string
	seq uint64
}

// NewMemoryStore returns a store holding at most n records.
func NewMemoryStore(n int) *MemoryStore {
	n = max(n, 1)
	return &MemoryStore{max: n, share: max(1, n/16), recs: make(map[string]storedRecord),
		byScope: make(map[string][]storedEntry), count: make(map[string]int)}
}

// Load implements IdempotencyStore.
func (s *MemoryStore) Load(key string) (IdempotencyRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[key]
	return r.rec, ok
}

// Store implements IdempotencyStore.
func (s *MemoryStore) Store(key string, rec IdempotencyRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	scope := idempotencyScopeOf(key)
	if _, ok := s.recs[key]; !ok {
		s.count[scope]++
	}
	s.seq++
	e := storedEntry{key, s.seq}
	s.recs[key] = storedRecord{rec, s.seq}
	s.order = append(s.order, e)
	s.byScope[scope] = append(s.byScope[scope], e)
	for len(s.recs) > s.max {
		if s.count[scope] > s.share {
			s.byScope[scope] = s.dropOldest(s.byScope[scope])
		} else {
			s.order = s.dropOldest(s.order)
		}
	}
	s.order = s.compact(s.order, len(s.recs))
	if list, ok := s.byScope[scope]; ok {
		s.byScope[scope] = s.compact(list, s.count[scope])
	}
}

// dropOldest drops the oldest record of list that is still held, and
// returns the list after it.
func (s *MemoryStore) dropOldest(list []storedEntry) []storedEntry {
	for len(list) > 0 {
		e := list[0]
		list = list[1:]
		if r, ok := s.recs[e.key]; ok && r.seq == e.seq {
			delete(s.recs, e.key)
			scope := idempotencyScopeOf(e.key)
			if s.count[scope]--; s.count[scope] == 0 {
				delete(s.count, scope)
				delete(s.byScope, scope)
			}
			return list
		}
	}
	return list
}

// compact drops list's stale entries once they are most of it (live of
// its entries are not), so that a list stays within twice its records.
func (s *MemoryStore) compact(list []storedEntry, live int) []storedEntry {
	if len(list) < 64 || len(list) < 2*live {
		return list
	}
	kept := make([]storedEntry, 0, live)
	for _, e := range list {
		if r, ok := s.recs[e.key]; ok && r.seq == e.seq {
			kept = append(kept, e)
		}
	}
	return kept
}

// idempotencyScopeOf is the scope of a store key: the session before NUL,
// "" for a key without one.
func idempotencyScopeOf(key string) string {
	scope, _, ok := strings.Cut(key, "\x00")
	if !ok {
		return ""
	}
	return scope
}
