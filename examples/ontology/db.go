package ontology

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, "sqlite"

	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// migrations are the schema changes, applied in order on open; the
// version applied last is recorded in schema_migrations. Append, never edit.
var migrations = []string{
	// 1: the ontology.
	`CREATE TABLE entities (
		id          TEXT PRIMARY KEY,
		kind        TEXT NOT NULL,
		project_id  TEXT NOT NULL DEFAULT '',
		title       TEXT NOT NULL,
		description TEXT NOT NULL DEFAULT '',
		content     TEXT NOT NULL DEFAULT '',
		type_key    TEXT NOT NULL DEFAULT '',
		state_key   TEXT NOT NULL DEFAULT '',
		parent_id   TEXT NOT NULL DEFAULT '',
		goal_id     TEXT NOT NULL DEFAULT '',
		priority    INTEGER NOT NULL DEFAULT 0,
		moscow      TEXT NOT NULL DEFAULT '',
		due         TEXT NOT NULL DEFAULT '',
		impact      TEXT NOT NULL DEFAULT '',
		probability REAL NOT NULL DEFAULT 0,
		mitigation  TEXT NOT NULL DEFAULT '',
		seq         INTEGER NOT NULL,
		pos         INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX entities_project ON entities(project_id, kind);
	CREATE INDEX entities_parent ON entities(parent_id, project_id);
	CREATE TABLE edges (
		id       TEXT PRIMARY KEY,
		src_id   TEXT NOT NULL,
		src_kind TEXT NOT NULL,
		dst_id   TEXT NOT NULL,
		dst_kind TEXT NOT NULL,
		rel      TEXT NOT NULL
	);
	CREATE INDEX edges_src ON edges(src_id);
	CREATE INDEX edges_dst ON edges(dst_id);
	CREATE TABLE attachments (
		task_id     TEXT NOT NULL,
		document_id TEXT NOT NULL,
		role        TEXT NOT NULL,
		seq         INTEGER NOT NULL,
		PRIMARY KEY (task_id, document_id)
	);
	CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);`,
	// 2: idempotency keys, of writes (recorded with the write) and of
	// gateway answers.
	`CREATE TABLE applied_calls (
		key     TEXT PRIMARY KEY,
		message TEXT NOT NULL,
		value   BLOB NOT NULL,
		created TEXT NOT NULL
	);
	CREATE TABLE gateway_answers (
		key         TEXT PRIMARY KEY,
		op          TEXT NOT NULL,
		fingerprint TEXT NOT NULL,
		envelope    BLOB NOT NULL,
		stored      INTEGER NOT NULL
	);`,
	// 3: duplicate-title checks without a scan.
	`CREATE INDEX entities_title ON entities(kind, project_id, lower(title));`,
}

// OpenStore opens (creating it when missing) the SQLite database at path
// and migrates it to the current schema. A new database is empty; call
// Seed for the demo project. path ":memory:" is a private in-memory
// database.
func OpenStore(path string) (*Store, error) {
	db, err := sql.Open("sqlite", path)
	if err != nil {
		return nil, err
	}
	// One connection: the store serializes its transactions itself, and an
	// in-memory database lives as long as its connection.
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	s := &Store{db: db}
	if err := s.migrate(); err != nil {
		db.Close()
		return nil, fmt.Errorf("ontology: %s: %w", path, err)
	}
	return s, nil
}

// NewStore returns a store on a fresh in-memory database seeded with the
// demo project (see Seed). It panics only if SQLite cannot start.
func NewStore() *Store {
	s, err := OpenStore(":memory:")
	if err == nil {
		err = s.Seed()
	}
	if err != nil {
		panic("ontology: in-memory store: " + err.Error())
	}
	return s
}

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

func (s *Store) migrate() error {
	for _, pragma := range []string{"PRAGMA journal_mode=WAL", "PRAGMA synchronous=NORMAL", "PRAGMA foreign_keys=ON", "PRAGMA busy_timeout=5000"} {
		if _, err := s.db.Exec(pragma); err != nil {
			return err
		}
	}
	if _, err := s.db.Exec(`CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied TEXT NOT NULL)`); err != nil {
		return err
	}
	var have int
	if err := s.db.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&have); err != nil {
		return err
	}
	if have > len(migrations) {
		return fmt.Errorf("database schema version %d is newer than this program's %d", have, len(migrations))
	}
	for v := have + 1; v <= len(migrations); v++ {
		tx, err := s.db.Begin()
		if err != nil {
			return err
		}
		if _, err := tx.Exec(migrations[v-1]); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %d: %w", v, err)
		}
		if _, err := tx.Exec(`INSERT INTO schema_migrations (version, applied) VALUES (?, ?)`, v, time.Now().UTC().Format(time.RFC3339)); err != nil {
			tx.Rollback()
			return err
		}
		if err := tx.Commit(); err != nil {
			return err
		}
	}
	return nil
}

// SchemaVersion is the migration the database is at.
func (s *Store) SchemaVersion() (int, error) {
	var v int
	err := s.db.QueryRow(`SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&v)
	return v, err
}

// Count returns how many entities of kind the database holds ("" for
// all), for checks after load tests and crashes.
func (s *Store) Count(kind string) (int, error) {
	var n int
	err := s.db.QueryRow(`SELECT COUNT(*) FROM entities WHERE ? = '' OR kind = ?`, kind, kind).Scan(&n)
	return n, err
}

// CheckConsistency reports dangling references: entities of an unknown
// project, children of a missing parent, edges and attachments whose ends
// are gone, duplicate titles; nil when there are none.
func (s *Store) CheckConsistency() error {
	checks := []struct{ what, query string }{
		{"entities of a missing project", `SELECT COUNT(*) FROM entities e WHERE e.kind <> 'project' AND NOT EXISTS (SELECT 1 FROM entities p WHERE p.id = e.project_id AND p.kind = 'project')`},
		{"entities under a missing parent", `SELECT COUNT(*) FROM entities e WHERE e.parent_id <> '' AND NOT EXISTS (SELECT 1 FROM entities p WHERE p.id = e.parent_id)`},
		{"edges with a missing end", `SELECT COUNT(*) FROM edges d WHERE NOT EXISTS (SELECT 1 FROM entities WHERE id = d.src_id) OR NOT EXISTS (SELECT 1 FROM entities WHERE id = d.dst_id)`},
		{"attachments with a missing end", `SELECT COUNT(*) FROM attachments a WHERE NOT EXISTS (SELECT 1 FROM entities WHERE id = a.task_id) OR NOT EXISTS (SELECT 1 FROM entities WHERE id = a.document_id)`},
		{"duplicate titles", `SELECT COUNT(*) FROM (SELECT 1 FROM entities GROUP BY kind, project_id, lower(title) HAVING COUNT(*) > 1)`},
	}
	var errs []error
	for _, c := range checks {
		var n int
		if err := s.db.QueryRow(c.query).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			errs = append(errs, fmt.Errorf("%d %s", n, c.what))
		}
	}
	var ic string
	if err := s.db.QueryRow(`PRAGMA integrity_check`).Scan(&ic); err != nil {
		return err
	}
	if ic != "ok" {
		errs = append(errs, errors.New("integrity check: "+ic))
	}
	return errors.Join(errs...)
}

// IdempotencyStore returns the gateway's idempotency store in this
// database (pass it with gateway.WithIdempotencyStore), so that answers
// survive a restart.
func (s *Store) IdempotencyStore() gateway.IdempotencyStore { return answers{s} }

// answers stores the gateway's answers by idempotency key.
type answers struct{ s *Store }

// Load implements gateway.IdempotencyStore.
func (a answers) Load(key string) (gateway.IdempotencyRecord, bool) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	var r gateway.IdempotencyRecord
	var stored int64
	err := a.s.db.QueryRow(`SELECT op, fingerprint, envelope, stored FROM gateway_answers WHERE key = ?`, key).Scan(&r.Op, &r.Fingerprint, &r.Envelope, &stored)
	if err != nil {
		return gateway.IdempotencyRecord{}, false
	}
	r.Stored = time.Unix(0, stored)
	return r, true
}

// Store implements gateway.IdempotencyStore.
func (a answers) Store(key string, r gateway.IdempotencyRecord) {
	a.s.mu.Lock()
	defer a.s.mu.Unlock()
	_, _ = a.s.db.Exec(`INSERT OR REPLACE INTO gateway_answers (key, op, fingerprint, envelope, stored) VALUES (?, ?, ?, ?, ?)`,
		key, r.Op, r.Fingerprint, r.Envelope, r.Stored.UnixNano())
}

// applied returns the answer recorded with the write made under key.
func (t *txn) applied(key string) (string, json.RawMessage, bool) {
	var msg string
	var raw []byte
	err := t.tx.QueryRow(`SELECT message, value FROM applied_calls WHERE key = ?`, key).Scan(&msg, &raw)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil, false
	}
	t.check(err)
	return msg, raw, true
}

// recordApplied records the answer of the write made under key, in the
// write's transaction.
func (t *txn) recordApplied(key, msg string, raw json.RawMessage) {
	t.exec(`INSERT INTO applied_calls (key, message, value, created) VALUES (?, ?, ?, ?)`, key, msg, []byte(raw), time.Now().UTC().Format(time.RFC3339Nano))
}

// dbError carries a database failure out of a transaction's helpers.
type dbError struct{ err error }

// check panics with a dbError when err is set; Store.do recovers it.
func (t *txn) check(err error) {
	if err != nil {
		panic(dbError{err})
	}
}

func (t *txn) exec(query string, args ...any) sql.Result {
	r, err := t.tx.Exec(query, args...)
	t.check(err)
	return r
}

var _ = context.Background
