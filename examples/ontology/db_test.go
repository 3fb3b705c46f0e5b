package ontology_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// forgetful is an idempotency store that loses every answer, as a crash
// between a write's commit and the gateway recording its answer does.
type forgetful struct{}

func (forgetful) Load(string) (gateway.IdempotencyRecord, bool) {
	return gateway.IdempotencyRecord{}, false
}
func (forgetful) Store(string, gateway.IdempotencyRecord) {}

// openFile opens the store at path, seeded, and closes it with the test.
func openFile(t *testing.T, path string) *ontology.Store {
	t.Helper()
	s, err := ontology.OpenStore(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Seed(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestIdempotencyAcrossRestart: a write made under an idempotency key is
// recorded with the write, so a repeat after a restart answers with the
// first result and writes nothing, even when the gateway's own answer was
// lost (the crash window between commit and recording the answer); with
// the database's idempotency store the gateway replays its first answer.
func TestIdempotencyAcrossRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.db")
	call := `{"op": "onto.task.create", "idempotency_key": "k1", "args": {"project_id": "$project", "title": "Call the venue"}}`
	var first struct{ ID string }
	{
		s := openFile(t, path)
		tools := ontology.Gateway(s, gateway.WithWrites(true), gateway.WithIdempotencyStore(forgetful{}))
		must(t, gw(t, tools, "tool_exec", call), &first)
		s.Close()
	}
	s := openFile(t, path)
	tools := ontology.Gateway(s, gateway.WithWrites(true), gateway.WithIdempotencyStore(forgetful{}))
	var again struct{ ID string }
	env := gw(t, tools, "tool_exec", call)
	must(t, env, &again)
	if again.ID != first.ID || first.ID == "" {
		t.Errorf("repeat after restart created %q, first %q", again.ID, first.ID)
	}
	if n, _ := s.Count(ontology.KindTask); n != 4 {
		t.Errorf("%d tasks, want 4", n)
	}

	// The gateway's answers live in the database too.
	tools = ontology.Gateway(s, gateway.WithWrites(true), gateway.WithIdempotencyStore(s.IdempotencyStore()))
	call2 := strings.Replace(call, `"k1"`, `"k2"`, 1)
	call2 = strings.Replace(call2, "Call the venue", "Book the band", 1)
	firstEnv := gw(t, tools, "tool_exec", call2)
	s.Close()
	s = openFile(t, path)
	tools = ontology.Gateway(s, gateway.WithWrites(true), gateway.WithIdempotencyStore(s.IdempotencyStore()))
	replayed := gw(t, tools, "tool_exec", call2)
	if string(replayed.Result) != string(firstEnv.Result) || replayed.Meta.TraceID != firstEnv.Meta.TraceID {
		t.Errorf("replay after restart:\n%s %s\nfirst:\n%s %s", replayed.Result, replayed.Meta.TraceID, firstEnv.Result, firstEnv.Meta.TraceID)
	}
	// The same key with other args is a conflict, not a write.
	other := gw(t, tools, "tool_exec", strings.Replace(call2, "Book the band", "Book a DJ", 1))
	if other.OK || other.Error.Code != "CONFLICT" {
		t.Errorf("key reuse with other args: %+v", other.Error)
	}
	if n, _ := s.Count(ontology.KindTask); n != 5 {
		t.Errorf("%d tasks, want 5", n)
	}
	if err := s.CheckConsistency(); err != nil {
		t.Error(err)
	}
}

// TestMigrations: a database opens at the latest schema version, reopens
// without migrating again, and keeps its data.
func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "o.db")
	s := openFile(t, path)
	v, err := s.SchemaVersion()
	if err != nil || v < 3 {
		t.Fatalf("schema version %d, %v", v, err)
	}
	s.Close()
	s = openFile(t, path)
	if v2, _ := s.SchemaVersion(); v2 != v {
		t.Errorf("reopened at version %d, want %d", v2, v)
	}
	if n, _ := s.Count(""); n != 13 {
		t.Errorf("%d entities after reopening, want the 13 of the demo project", n)
	}
}

// TestReadOnlyStore: SetReadOnly refuses writes on every surface and
// changes nothing.
func TestReadOnlyStore(t *testing.T) {
	s := ontology.NewStore()
	s.SetReadOnly(true)
	res := invoke(t, ontology.Tools(s), "create_onto_project", `{"name": "Garden"}`)
	if res.Success || !strings.Contains(res.Message, "writes are not allowed") {
		t.Errorf("write on a read-only store: %+v", res)
	}
	if res := invoke(t, ontology.Tools(s), "list_onto_projects", `{}`); !res.Success {
		t.Errorf("read on a read-only store: %+v", res)
	}
	if n, _ := s.Count(ontology.KindProject); n != 1 {
		t.Errorf("%d projects, want 1", n)
	}
	// A dry run writes nothing, and the gateway tells the model it may
	// send one when writes are not allowed: it was refused as a write.
	g, err := gateway.New(ontology.Registry, ontology.Tools(s))
	if err != nil {
		t.Fatal(err)
	}
	res, err = g.Tools()[2].Handler(context.Background(), runtime.NewToolContext(runtime.ContextParts{}), json.RawMessage(`{"op":"onto.project.create","args":{"name":"Garden"},"dry_run":true}`))
	if err != nil || !res.Success || !strings.Contains(runtime.RenderValue(res.Value), "dry run: would") {
		t.Errorf("dry run on a read-only store: %+v, %v", res, err)
	}
	if n, _ := s.Count(ontology.KindProject); n != 1 {
		t.Errorf("%d projects after the dry run, want 1", n)
	}
}
