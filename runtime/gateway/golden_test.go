package gateway

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden")

// TestGoldenEnvelopes pins the exact bytes a model reads for a few calls.
func TestGoldenEnvelopes(t *testing.T) {
	cases := []struct{ name, tool, args string }{
		{"exec_ok", ExecTool, `{"op":"onto.task.get","args":{"task_id":"t1"}}`},
		{"exec_empty_args", ExecTool, `{"op":"onto.task.get","args":{}}`},
		{"exec_unknown_op", ExecTool, `{"op":"onto.task.fetch","args":{"task_id":"t1"}}`},
		{"exec_write_refused", ExecTool, `{"op":"onto.task.create","args":{"project_id":"p1","title":"x"}}`},
		{"help_op", HelpTool, `{"path":"onto.task.create"}`},
		{"help_root", HelpTool, `{"path":""}`},
		{"search", SearchTool, `{"query":"visit a web page","limit":2}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			got := []byte(h.call(c.tool, c.args))
			var pretty bytes.Buffer
			if err := json.Indent(&pretty, got, "", "  "); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, got)
			}
			pretty.WriteByte('\n')
			path := filepath.Join("testdata", "golden", c.name+".json")
			if *update {
				if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(path, pretty.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if !bytes.Equal(pretty.Bytes(), want) {
				t.Errorf("%s differs from golden:\n%s\nwant:\n%s", c.name, pretty.Bytes(), want)
			}
		})
	}
}
