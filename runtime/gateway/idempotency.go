package gateway

import (
	"context"
	"sync"
	"time"
)

type idempotencyKeyKey struct{}

// IdempotencyKey returns the idempotency_key of the tool_exec call whose
// op handler runs under ctx, or "". A handler that stores its writes can
// record the key in the same transaction, so that a repeat after a crash
// (before the gateway stored its answer) finds the write done.
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
// number of records, dropping the oldest first.
type MemoryStore struct {
	mu    sync.Mutex
	max   int
	recs  map[string]IdempotencyRecord
	order []string
}

// NewMemoryStore returns a store holding at most max records.
func NewMemoryStore(max int) *MemoryStore {
	if max <= 0 {
		max = 1
	}
	return &MemoryStore{max: max, recs: make(map[string]IdempotencyRecord)}
}

// Load implements IdempotencyStore.
func (s *MemoryStore) Load(key string) (IdempotencyRecord, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.recs[key]
	return r, ok
}

// Store implements IdempotencyStore.
func (s *MemoryStore) Store(key string, rec IdempotencyRecord) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.recs[key]; !ok {
		s.order = append(s.order, key)
	}
	s.recs[key] = rec
	for len(s.recs) > s.max && len(s.order) > 0 {
		delete(s.recs, s.order[0])
		s.order = s.order[1:]
	}
}
