package schema

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/corpus"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// TestCompileSchemaSuite compiles the root schema of every case of the
// official JSON Schema Test Suite (draft 2020-12 and draft 7) and reports
// per file how many compile and how many are rejected. Rejections must be
// located errors, and only for references outside the family (remote
// documents) unless listed in expectedRejections.
func TestCompileSchemaSuite(t *testing.T) {
	base := filepath.Join(corpus.Dir(t), "jsonschema-test-suite", "tests")
	total, rejected := 0, 0
	for _, draft := range []string{"draft2020-12", "draft7"} {
		files, _ := filepath.Glob(filepath.Join(base, draft, "*.json"))
		if len(files) == 0 {
			t.Skipf("no test suite files under %s", base)
		}
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			name := draft + "/" + filepath.Base(f)
			root, err := jsonpos.Parse(name, data)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			ok, bad := 0, 0
			var msgs []string
			for _, group := range root.Items {
				s := group.Get("schema")
				_, _, err := CompileSchema(name, s, SchemaOptions{Draft7: draft == "draft7"})
				if err != nil {
					bad++
					msgs = append(msgs, err.Error())
					if !strings.Contains(err.Error(), "unresolvable $ref") {
						t.Errorf("%s: rejected for a reason other than a remote $ref:\n%v", name, err)
					}
					continue
				}
				ok++
			}
			total += ok + bad
			rejected += bad
			if bad > 0 {
				t.Logf("%-45s compiled %3d rejected %d\n\t%s", name, ok, bad, strings.Join(msgs, "\n\t"))
			}
		}
	}
	t.Logf("suite: %d schemas, %d compiled, %d rejected", total, total-rejected, rejected)
}
