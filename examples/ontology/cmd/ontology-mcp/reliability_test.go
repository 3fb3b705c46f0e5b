package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/mcpserver"
)

// serveInProcess serves the gateway surface with writes over a seeded
// database file through streamable HTTP on a free port, in this process
// (so the race detector sees the server too). It returns the endpoint and
// the store; both stop when the test ends.
func serveInProcess(t testing.TB) (string, *ontology.Store) {
	t.Helper()
	store, err := ontology.OpenStore(filepath.Join(t.TempDir(), "load.db"))
	if err != nil {
		t.Fatal(err)
	}
	if err := store.Seed(); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mk, err := servers(store, "gateway", true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- mcpserver.ServeHTTP(ctx, ln, func(*http.Request) *mcp.Server {
			s, err := mk()
			if err != nil {
				panic(err)
			}
			return s
		}, mcpserver.HTTPOptions{})
	}()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("ServeHTTP: %v", err)
		}
		store.Close()
	})
	return "http://" + ln.Addr().String() + "/mcp", store
}

// loadResult is what a load run observed.
type loadResult struct {
	calls, failures, writes atomic.Int64
	mu                      sync.Mutex
	latencies               []time.Duration
	firstFailure            string
	created                 map[string]string // idempotency key → task id
	args                    map[string]json.RawMessage
}

func (r *loadResult) fail(msg string) {
	r.failures.Add(1)
	r.mu.Lock()
	if r.firstFailure == "" {
		r.firstFailure = msg
	}
	r.mu.Unlock()
}

// percentile returns the p-th percentile latency (0 < p ≤ 100).
func (r *loadResult) percentile(p float64) time.Duration {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.latencies) == 0 {
		return 0
	}
	slices.Sort(r.latencies)
	i := int(float64(len(r.latencies))*p/100+0.5) - 1
	return r.latencies[max(0, min(i, len(r.latencies)-1))]
}

// load connects clients sessions to url, calls started, then runs them
// concurrently until next says stop: two reads (a search, a project's
// details) for every write (a task creation with its own idempotency key).
func load(t testing.TB, url string, clients int, started func(), next func() bool) *loadResult {
	r := &loadResult{created: map[string]string{}, args: map[string]json.RawMessage{}}
	sessions := make([]*mcp.ClientSession, clients)
	for w := range sessions {
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "load", Version: "1"}, nil).
			Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
		if err != nil {
			t.Fatalf("client %d connect: %v", w, err)
		}
		defer cs.Close()
		sessions[w] = cs
	}
	started()
	var wg sync.WaitGroup
	for w, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; next(); i++ {
				var exec map[string]any
				key := ""
				switch (w + i) % 3 {
				case 0:
					key = fmt.Sprintf("load-%d-%d", w, i)
					exec = map[string]any{"op": "onto.task.create", "idempotency_key": key,
						"args": map[string]any{"project_id": ontology.DemoProjectID, "title": "Load task " + key}}
				case 1:
					exec = map[string]any{"op": "onto.task.search", "args": map[string]any{"search": fmt.Sprintf("load-%d-", w), "limit": 5}}
				default:
					exec = map[string]any{"op": "onto.project.get", "args": map[string]any{"project_id": ontology.DemoProjectID}}
				}
				start := time.Now()
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: gateway.ExecTool, Arguments: exec})
				took := time.Since(start)
				r.calls.Add(1)
				switch {
				case err != nil:
					r.fail(fmt.Sprintf("client %d call %d: %v", w, i, err))
					continue
				case res.IsError:
					r.fail(fmt.Sprintf("client %d call %d: %s", w, i, res.Content[0].(*mcp.TextContent).Text))
					continue
				}
				r.mu.Lock()
				r.latencies = append(r.latencies, took)
				if key != "" {
					var env struct {
						Result struct{ ID string } `json:"result"`
					}
					raw, _ := json.Marshal(res.StructuredContent)
					_ = json.Unmarshal(raw, &env)
					r.created[key] = env.Result.ID
					args, _ := json.Marshal(exec)
					r.args[key] = args
				}
				r.mu.Unlock()
				if key != "" {
					r.writes.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	return r
}

// TestConcurrentHTTPClients: 100 sessions for 2 s, a third of the calls
// writes: no call fails, every acknowledged write is stored exactly once,
// and replaying idempotency keys writes nothing more. (The 10 s run with
// latency percentiles is BenchmarkConcurrentHTTPClients.)
func TestConcurrentHTTPClients(t *testing.T) {
	url, store := serveInProcess(t)
	before, err := store.Count(ontology.KindTask)
	if err != nil {
		t.Fatal(err)
	}
	var deadline time.Time
	r := load(t, url, 100, func() { deadline = time.Now().Add(2 * time.Second) }, func() bool { return time.Now().Before(deadline) })
	t.Logf("%d calls (%d writes), %d failed; p50 %v, p99 %v", r.calls.Load(), r.writes.Load(), r.failures.Load(), r.percentile(50), r.percentile(99))
	if n := r.failures.Load(); n > 0 {
		t.Fatalf("%d calls failed; first: %s", n, r.firstFailure)
	}
	if r.writes.Load() == 0 {
		t.Fatal("no write went through")
	}
	ids := map[string]bool{}
	for key, id := range r.created {
		if id == "" || ids[id] {
			t.Errorf("write %s: id %q missing or shared", key, id)
		}
		ids[id] = true
	}
	after, err := store.Count(ontology.KindTask)
	if err != nil {
		t.Fatal(err)
	}
	if after-before != len(r.created) {
		t.Errorf("%d tasks stored for %d acknowledged writes", after-before, len(r.created))
	}

	// Replays answer with the first answer and store nothing.
	cs := connectHTTP(t, url)
	n := 0
	for key, id := range r.created {
		if n++; n > 20 {
			break
		}
		_, sc, isErr := call(t, cs, gateway.ExecTool, r.args[key])
		if isErr || !strings.Contains(string(sc), `"id":"`+id+`"`) {
			t.Errorf("replay of %s: isError %v, %s (first id %s)", key, isErr, sc, id)
		}
	}
	if again, _ := store.Count(ontology.KindTask); again != after {
		t.Errorf("replays changed the task count from %d to %d", after, again)
	}
	if err := store.CheckConsistency(); err != nil {
		t.Error(err)
	}
}

// BenchmarkConcurrentHTTPClients: 100 sessions share b.N gateway calls
// (two reads per write) over streamable HTTP to a SQLite-backed server;
// reports the p50 and p99 call latency. Run it for the 10 s with
//
//	go test -run '^$' -bench ConcurrentHTTPClients -benchtime 10s ./examples/ontology/cmd/ontology-mcp
func BenchmarkConcurrentHTTPClients(b *testing.B) {
	url, store := serveInProcess(b)
	before, _ := store.Count(ontology.KindTask)
	var left atomic.Int64
	left.Store(int64(b.N))
	r := load(b, url, 100, b.ResetTimer, func() bool { return left.Add(-1) >= 0 })
	b.StopTimer()
	if n := r.failures.Load(); n > 0 {
		b.Fatalf("%d calls failed; first: %s", n, r.firstFailure)
	}
	if after, _ := store.Count(ontology.KindTask); after-before != len(r.created) {
		b.Fatalf("%d tasks stored for %d acknowledged writes", after-before, len(r.created))
	}
	b.ReportMetric(float64(r.percentile(50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(r.percentile(99).Microseconds())/1000, "p99-ms")
}

// TestKillMidWritesAndReplay: SIGKILL the server while 20 clients write,
// restart it on the same database: it starts, the data is consistent, and
// replaying every call that was sent (acknowledged or interrupted) with
// its idempotency key answers ok, with the first answer's id for the
// acknowledged ones, and leaves exactly one task per call.
func TestKillMidWritesAndReplay(t *testing.T) {
	db := filepath.Join(t.TempDir(), "kill.db")
	p := startHTTP(t, "--db", db, "--seed", "--allow-writes", "--surface", "gateway")

	type sent struct {
		args json.RawMessage
		id   string // "" when no answer came back
	}
	var mu sync.Mutex
	calls := map[string]*sent{}
	var acked atomic.Int64
	var wg sync.WaitGroup
	for w := range 20 {
		cs := connectHTTP(t, p.URL)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				key := fmt.Sprintf("kill-%d-%d", w, i)
				args, _ := json.Marshal(map[string]any{"op": "onto.task.create", "idempotency_key": key,
					"args": map[string]any{"project_id": ontology.DemoProjectID, "title": "Crash task " + key}})
				s := &sent{args: json.RawMessage(args)}
				mu.Lock()
				calls[key] = s
				mu.Unlock()
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: gateway.ExecTool, Arguments: s.args})
				cancel()
				if err != nil {
					return // the server is gone
				}
				if res.IsError {
					t.Errorf("%s failed before the kill: %s", key, res.Content[0].(*mcp.TextContent).Text)
					return
				}
				var env struct {
					Result struct{ ID string } `json:"result"`
				}
				raw, _ := json.Marshal(res.StructuredContent)
				_ = json.Unmarshal(raw, &env)
				mu.Lock()
				s.id = env.Result.ID
				mu.Unlock()
				acked.Add(1)
			}
		}()
	}
	for start := time.Now(); acked.Load() < 100; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > time.Minute || t.Failed() {
			p.cmd.Process.Kill()
			t.Fatalf("only %d writes acknowledged in a minute", acked.Load())
		}
	}
	if err := p.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	<-p.done
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	interrupted := 0
	for _, s := range calls {
		if s.id == "" {
			interrupted++
		}
	}
	t.Logf("killed after %d acknowledged writes, %d calls without an answer", acked.Load(), interrupted)

	// The database opens, migrated and consistent, with every acknowledged
	// write and at most the interrupted ones besides.
	store, err := ontology.OpenStore(db)
	if err != nil {
		t.Fatalf("reopening after SIGKILL: %v", err)
	}
	if err := store.CheckConsistency(); err != nil {
		t.Errorf("after SIGKILL: %v", err)
	}
	n, _ := store.Count(ontology.KindTask)
	store.Close()
	t.Logf("%d of the interrupted calls had committed their write", n-3-int(acked.Load()))
	if n < 3+int(acked.Load()) || n > 3+len(calls) {
		t.Errorf("%d tasks after the kill, want between %d and %d", n, 3+acked.Load(), 3+len(calls))
	}

	// Restart and replay every call.
	p = startHTTP(t, "--db", db, "--allow-writes", "--surface", "gateway")
	cs := connectHTTP(t, p.URL)
	for key, s := range calls {
		_, sc, isErr := call(t, cs, gateway.ExecTool, s.args)
		var env struct {
			Result struct{ ID string } `json:"result"`
		}
		_ = json.Unmarshal(sc, &env)
		switch {
		case isErr || env.Result.ID == "":
			t.Errorf("replay of %s: isError %v: %s", key, isErr, sc)
		case s.id != "" && env.Result.ID != s.id:
			t.Errorf("replay of %s answered id %s, first answer %s", key, env.Result.ID, s.id)
		}
	}
	if err := p.stop(t); err != nil {
		t.Errorf("stop: %v", err)
	}
	store, err = ontology.OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer store.Close()
	if err := store.CheckConsistency(); err != nil {
		t.Error(err)
	}
	if n, _ := store.Count(ontology.KindTask); n != 3+len(calls) {
		t.Errorf("%d tasks after replaying %d calls, want %d: a write was lost or duplicated", n, len(calls), 3+len(calls))
	}
}
