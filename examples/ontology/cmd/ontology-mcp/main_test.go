package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/examples/ontology"
	"github.com/toolgen-go/toolgen/runtime/gateway"
	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// binary is the ontology-mcp executable built once by TestMain.
var binary string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "ontology-mcp-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(dir, "ontology-mcp")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building ontology-mcp:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// process is a running ontology-mcp.
type process struct {
	cmd  *exec.Cmd
	URL  string
	done chan error
}

var listening = regexp.MustCompile(`serving \S+ on (http://\S+/mcp)`)

// startHTTP runs the binary with --http on a free port and returns once it
// listens. The process is stopped (SIGTERM) when the test ends.
func startHTTP(t testing.TB, args ...string) *process {
	t.Helper()
	cmd := exec.Command(binary, append([]string{"--http", "127.0.0.1:0"}, args...)...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &process{cmd: cmd, done: make(chan error, 1)}
	found := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				found <- m[1]
			} else {
				t.Logf("server: %s", sc.Text())
			}
		}
		p.done <- cmd.Wait()
	}()
	select {
	case p.URL = <-found:
	case err := <-p.done:
		t.Fatalf("ontology-mcp exited before listening: %v", err)
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("ontology-mcp did not listen within 30 s")
	}
	t.Cleanup(func() { p.stop(t) })
	return p
}

// stop ends the process with SIGTERM (once) and waits for it.
func (p *process) stop(t testing.TB) error {
	if p.cmd.ProcessState != nil {
		return nil
	}
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-p.done:
		return err
	case <-time.After(15 * time.Second):
		p.cmd.Process.Kill()
		t.Error("ontology-mcp did not stop within 15 s of SIGTERM")
		return <-p.done
	}
}

// connectHTTP connects an SDK client to url.
func connectHTTP(t testing.TB, url string) *mcp.ClientSession {
	t.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: url}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call runs a tool and returns its text, structured content and isError;
// a protocol error fails the test.
func call(t testing.TB, cs *mcp.ClientSession, name string, args any) (string, json.RawMessage, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text string
	if len(res.Content) > 0 {
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
	}
	var sc json.RawMessage
	if res.StructuredContent != nil {
		sc, _ = json.Marshal(res.StructuredContent)
	}
	return text, sc, res.IsError
}

// TestEverySurfaceInProcess: the go-sdk client against each surface of the
// server this command builds, in memory.
func TestEverySurfaceInProcess(t *testing.T) {
	for _, c := range []struct {
		surface string
		tools   int
		name    string
		args    string
		want    string
	}{
		{"flat", 53, "get_onto_document_details", `{"document_id":"` + ontology.APISpecID + `"}`, `"title":"API Spec"`},
		{"gateway", 4, gateway.ExecTool, `{"op":"onto.document.search","args":{"search":"api spec"}}`, ontology.APISpecID},
		{"facades", 2, "onto", `{"tool":"get_document_tree","args":{"project_id":"` + ontology.DemoProjectID + `"}}`, "Engineering"},
		{"sections", 1, prompt.OpenSectionsName, `{"section_keys":["onto"],"reason":"need the ontology tools"}`, "move_document_in_tree"},
	} {
		t.Run(c.surface, func(t *testing.T) {
			s, err := server(ontology.NewStore(), c.surface, false)
			if err != nil {
				t.Fatal(err)
			}
			st, ct := mcp.NewInMemoryTransports()
			ss, err := s.Connect(context.Background(), st, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer ss.Close()
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(context.Background(), ct, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			n := 0
			for _, err := range cs.Tools(context.Background(), nil) {
				if err != nil {
					t.Fatal(err)
				}
				n++
			}
			if n != c.tools {
				t.Errorf("%d tools, want %d", n, c.tools)
			}
			text, _, isErr := call(t, cs, c.name, json.RawMessage(c.args))
			if isErr || !strings.Contains(text, c.want) {
				t.Errorf("%s: isError %v, want %q in\n%s", c.name, isErr, c.want, text)
			}
		})
	}
}

// TestStdioGoClient: the go-sdk client spawns the binary over stdio.
func TestStdioGoClient(t *testing.T) {
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(context.Background(), &mcp.CommandTransport{Command: exec.Command(binary, "--surface", "gateway")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	text, sc, isErr := call(t, cs, gateway.ExecTool, map[string]any{"op": "onto.project.list", "args": map[string]any{}})
	if isErr || !strings.Contains(text, "BuildOS Launch") || !strings.Contains(string(sc), `"ok":true`) {
		t.Errorf("project list: %v %s %s", isErr, text, sc)
	}
	text, _, isErr = call(t, cs, gateway.ExecTool, map[string]any{"op": "onto.project.create", "args": map[string]any{"name": "Garden"}})
	if !isErr || !strings.Contains(text, "PERMISSION_DENIED") {
		t.Errorf("write without --allow-writes: %v %s", isErr, text)
	}
}

// TestHTTPGracefulStop: SIGTERM stops a server with a connected client;
// the exit status is 0 and the database is consistent.
func TestHTTPGracefulStop(t *testing.T) {
	db := filepath.Join(t.TempDir(), "o.db")
	p := startHTTP(t, "--db", db, "--seed", "--allow-writes")
	cs := connectHTTP(t, p.URL)
	if text, _, isErr := call(t, cs, "create_onto_task", map[string]any{"project_id": ontology.DemoProjectID, "title": "Stop gracefully"}); isErr {
		t.Fatal(text)
	}
	start := time.Now()
	if err := p.stop(t); err != nil {
		t.Fatalf("exit after SIGTERM: %v", err)
	}
	t.Logf("stopped in %v", time.Since(start))
	s, err := ontology.OpenStore(db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CheckConsistency(); err != nil {
		t.Error(err)
	}
	if n, _ := s.Count(ontology.KindTask); n != 4 {
		t.Errorf("%d tasks after the stop, want 4", n)
	}
}

// TestUsage: bad flags exit 2 with a message.
func TestUsage(t *testing.T) {
	for _, args := range [][]string{{"--surface", "nope"}, {"--bogus"}, {"extra"}} {
		var stderr strings.Builder
		if code := run(context.Background(), args, &stderr); code != 2 || stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q", args, code, stderr.String())
		}
	}
}

// TestTypeScriptClient runs testdata/tsclient/client.mjs, the official
// TypeScript MCP client (@modelcontextprotocol/sdk pinned by
// package-lock.json), against the binary over stdio and streamable HTTP.
// It installs the package with npm ci when node_modules is missing or
// older than the lock file, and skips only when node is absent.
func TestTypeScriptClient(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed; the TypeScript client tests need Node.js 20 or newer")
	}
	dir, err := filepath.Abs(filepath.Join("testdata", "tsclient"))
	if err != nil {
		t.Fatal(err)
	}
	installTSClient(t, dir)
	runTS := func(t *testing.T, scenario, url string) {
		cmd := exec.Command(node, "client.mjs", scenario, binary, url)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		t.Logf("%s", out)
		if err != nil {
			t.Fatalf("%s: %v", scenario, err)
		}
	}
	t.Run("stdio-flat", func(t *testing.T) { runTS(t, "stdio-flat", "") })
	t.Run("stdio-gateway", func(t *testing.T) { runTS(t, "stdio-gateway", "") })
	t.Run("http-flat-writes", func(t *testing.T) {
		runTS(t, "http-flat-writes", startHTTP(t, "--allow-writes").URL)
	})
	t.Run("http-gateway-writes", func(t *testing.T) {
		runTS(t, "http-gateway-writes", startHTTP(t, "--allow-writes", "--surface", "gateway").URL)
	})
}

var npmOnce sync.Mutex

// installTSClient runs npm ci in dir unless node_modules is current.
func installTSClient(t *testing.T, dir string) {
	npmOnce.Lock()
	defer npmOnce.Unlock()
	lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	if installed, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json")); err == nil && !installed.ModTime().Before(lock.ModTime()) {
		return
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		t.Fatal("node is installed but npm is not; install npm to run the TypeScript client tests")
	}
	cmd := exec.Command(npm, "ci", "--prefer-offline", "--no-audit", "--no-fund")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}

// TestStdioSIGTERM: a stdio server whose client keeps stdin open stops
// with status 0 on SIGTERM.
func TestStdioSIGTERM(t *testing.T) {
	cmd := exec.Command(binary, "--surface", "gateway")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	defer stdin.Close()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	answered := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if strings.Contains(sc.Text(), `"id":1`) {
				close(answered)
				break
			}
		}
		for sc.Scan() {
		}
		done <- cmd.Wait()
	}()
	// A request, so the server is surely serving when the signal comes.
	fmt.Fprintln(stdin, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	select {
	case <-answered:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		t.Fatal("no initialize answer")
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		t.Fatal("stdio server did not stop on SIGTERM")
	}
}
