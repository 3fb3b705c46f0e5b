package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
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
	}
	for _, tt := range tests {
		if got := formatVersion(&tt.bi); got != tt.want {
			t.Errorf("formatVersion = %q, want %q", got, tt.want)
		}
	}
}
