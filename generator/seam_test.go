package generator

import (
	"os/exec"
	"strings"
	"testing"
)

// TestIRIsTheOnlySeam: the generator reads the IR (schema/ir) and the
// naming rules (schema/names), never the schema compiler, loader or
// taxonomy; everything it needs is on ir.Family and ir.Op.
func TestIRIsTheOnlySeam(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	const forbidden = "github.com/toolgen-go/toolgen/schema"
	for _, p := range strings.Fields(string(out)) {
		if p == forbidden {
			t.Errorf("generator depends on %s; put what it needs on the IR (schema/ir)", forbidden)
		}
	}
	if !strings.Contains(string(out), forbidden+"/ir\n") {
		t.Errorf("go list -deps does not list %s/ir; the check reads the wrong package:\n%s", forbidden, out)
	}
}
