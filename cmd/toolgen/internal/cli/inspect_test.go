package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// ontologyManifest is the path of the example family's manifest.
const ontologyManifest = "../../../../examples/ontology/toolgen.yaml"

// run calls a command's run function with args and no input, returning
// its exit code, stdout and stderr.
func run(t *testing.T, f func([]string, io.Reader, io.Writer, io.Writer) int, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := f(args, strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func TestInspectOntologyJSON(t *testing.T) {
	code, out, stderr := run(t, runInspect, "-c", ontologyManifest, "--format", "json")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var rep inspectReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Ops) != 53 || len(rep.RegistryVersion) != 16 || len(rep.Warnings) != 0 {
		t.Fatalf("report: %d ops, version %q, warnings %v", len(rep.Ops), rep.RegistryVersion, rep.Warnings)
	}
	for _, op := range rep.Ops {
		if op.Op == "onto.task.create" && (op.Policy == nil || len(op.Policy.Dont) == 0) {
			t.Errorf("onto.task.create has no policy: %+v", op)
		}
	}
}

func TestInspectTable(t *testing.T) {
	code, out, stderr := run(t, runInspect, "-c", ontologyManifest)
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"53 ops in 2 groups", "onto.project.graph.reorganize", "write (dry-run)", "policy onto.project.create:", "dont  Never create more than one project per request"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestInspectErrors(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(tools, []byte(`[{"type":"function","function":{"name":"frobnicate_widgets","description":"Frobnicate.","parameters":{"type":"object","properties":{}}}}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "toolgen.yaml")
	if err := os.WriteFile(bad, []byte("ops:\n  widget.frobnicate:\n    kind: maybe\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name       string
		args       []string
		code       int
		out, errIn string
	}{
		{"unknown verb warns", []string{tools}, exitOK, "widget.frobnicate", `warning: tool "frobnicate_widgets": unknown verb "frobnicate"`},
		{"undecided kind marked", []string{tools}, exitOK, "write (no evidence)", ""},
		{"undecided kind in json", []string{"--format", "json", tools}, exitOK, `"kind_undecided": true`, ""},
		{"bad manifest", []string{"-c", bad, tools}, exitFail, "", bad + ":3:11: /ops/widget.frobnicate/kind: must be read or write"},
		{"bad format", []string{"--format", "xml", tools}, exitUsage, "", "--format must be table or json"},
		{"bad flag", []string{"--nope"}, exitUsage, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			code, out, stderr := run(t, runInspect, c.args...)
			if code != c.code || !strings.Contains(out, c.out) || !strings.Contains(stderr, c.errIn) {
				t.Errorf("exit %d\nstdout:\n%s\nstderr:\n%s", code, out, stderr)
			}
		})
	}
}

func TestFormatVersion(t *testing.T) {
	tests := []struct {
		bi   debug.BuildInfo
		want string
	}{
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, "v1.2.3"},
		{debug.BuildInfo{}, "(devel)"},
		{debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"},
		}}, "(devel) rev 0123456789ab dirty"},
		// A version the go command stamped from the checkout holds the
		// revision and the dirty mark: each is printed once.
		{debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20250102150405-a47a8f4187da+dirty"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "a47a8f4187da0123456789"}, {Key: "vcs.modified", Value: "true"},
		}}, "v0.0.0-20250102150405-a47a8f4187da+dirty"},
		{debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20250102150405-a47a8f4187da"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "a47a8f4187da0123456789"}, {Key: "vcs.modified", Value: "false"},
		}}, "v0.0.0-20250102150405-a47a8f4187da"},
		{debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}, Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "a47a8f4187da0123456789"},
		}}, "v1.2.3 rev a47a8f4187da"},
	}
	for _, tt := range tests {
		if got := formatVersion(&tt.bi); got != tt.want {
			t.Errorf("formatVersion = %q, want %q", got, tt.want)
		}
	}
}

// TestPrintedDiagnosticsVisible: warnings with and without a position, a
// non-located error and the multi-line text inspect prints (Go source,
// help JSON) show definition text with its control and bidi characters
// escaped; toolgen's own line breaks and tabs stay.
func TestPrintedDiagnosticsVisible(t *testing.T) {
	hostile := "x\nall good, 0 errors\x1b[2K\u202e\u0085"
	const want = `x\nall good, 0 errors\u001b[2K\u202e\u0085`
	var b bytes.Buffer
	printAllWarnings(&b, []ir.Diagnostic{
		{Pos: ir.Pos{File: "t.json", Line: 1, Col: 2, Pointer: "/properties/" + hostile}, Message: "bad " + hostile},
		{Message: "unlocated " + hostile},
	})
	printError(&b, errors.New("plain "+hostile))
	got := b.String()
	for _, line := range []string{
		"t.json:1:2: /properties/" + want + ": warning: bad " + want,
		"toolgen: warning: unlocated " + want,
		"toolgen: plain " + want,
	} {
		if !strings.Contains(got, line+"\n") {
			t.Errorf("missing line %q in:\n%s", line, got)
		}
	}
	if strings.Count(got, "\n") != 3 || strings.ContainsAny(got, "\x1b\u202e\u0085") {
		t.Errorf("not three clean lines: %q", got)
	}
	// (visibleLines keeps every line break: the generator escapes those
	// of definition text in what it writes.)
	if got := visibleLines("type T struct {\n\t// \x1b[2K\u202e\u0085\n}"); got != "type T struct {\n\t// \\u001b[2K\\u202e\\u0085\n}" {
		t.Errorf("visibleLines: %q", got)
	}
}

// failingWriter fails every write, as /dev/full does.
type failingWriter struct{ writes int }

func (w *failingWriter) Write([]byte) (int, error) {
	w.writes++
	return 0, errors.New("no space left on device")
}

// TestOutputWriteFails: a command whose standard output cannot be written
// (toolgen help > /dev/full) fails with the write's error on stderr
// instead of succeeding with nothing written; writing stops at the first
// failure.
func TestOutputWriteFails(t *testing.T) {
	dir := t.TempDir()
	tools := filepath.Join(dir, "tools.json")
	if err := os.WriteFile(tools, []byte(weatherTools), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"help"},
		{"help", "generate"},
		{"version"},
		{"inspect", tools},
		{"inspect", "--format", "json", tools},
		{"tokens", "--show", "flat", tools},
		{"tokens", tools},
	} {
		var w failingWriter
		var stderr bytes.Buffer
		code := Run(args, strings.NewReader(""), &w, &stderr)
		if code != exitFail || strings.Count(stderr.String(), "toolgen: writing the output: no space left on device\n") != 1 {
			t.Errorf("toolgen %s: exit %d, stderr:\n%s", strings.Join(args, " "), code, stderr.String())
		}
		if w.writes != 1 {
			t.Errorf("toolgen %s: %d writes after the first failed", strings.Join(args, " "), w.writes-1)
		}
	}
	// A command that failed already keeps its exit code.
	var stderr bytes.Buffer
	if code := Run([]string{"inspect", "--format", "xml", tools}, strings.NewReader(""), &failingWriter{}, &stderr); code != exitUsage {
		t.Errorf("usage error: exit %d, %s", code, stderr.String())
	}
	// writeJSON reports its own failure, called outside Run too.
	stderr.Reset()
	if code := writeJSON(&failingWriter{}, &stderr, map[string]int{"a": 1}); code != exitFail || !strings.Contains(stderr.String(), "no space left") {
		t.Errorf("writeJSON: exit %d, %s", code, stderr.String())
	}
}

// TestPrintErrorCap: a long error list prints its first maxPrintedErrors
// errors, a line saying how many more there are, and the full count.
func TestPrintErrorCap(t *testing.T) {
	for _, n := range []int{1, maxPrintedErrors, maxPrintedErrors + 1, 300000} {
		list := make(jsonpos.ErrorList, n)
		for i := range list {
			list[i] = jsonpos.Errorf(ir.Pos{File: "t.json", Line: i + 1, Col: 1}, "bad %d", i)
		}
		var b bytes.Buffer
		printError(&b, list)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		count := fmt.Sprintf("%d errors", n)
		if n == 1 {
			count = "1 error"
		}
		want := min(n, maxPrintedErrors) + 1
		if n > maxPrintedErrors {
			want++
			more := fmt.Sprintf("and %d more errors", n-maxPrintedErrors)
			if n == maxPrintedErrors+1 {
				more = "and 1 more error"
			}
			if lines[len(lines)-2] != more {
				t.Errorf("%d errors: line %q, want %q", n, lines[len(lines)-2], more)
			}
		}
		if len(lines) != want || lines[len(lines)-1] != count || lines[0] != "t.json:1:1: /: bad 0" {
			t.Errorf("%d errors: %d lines, want %d; first %q, last %q", n, len(lines), want, lines[0], lines[len(lines)-1])
		}
	}
}
