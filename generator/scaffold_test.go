package generator

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Stubs import the runtime from StubOptions.RuntimeModule, as Generate
// does from Options.RuntimeModule.
func TestStubsRuntimeModule(t *testing.T) {
	f := &ir.Family{Package: "tasks", Tools: []*ir.Tool{{Name: "list_tasks", GoName: "ListTasks"}}}
	for mod, want := range map[string]string{
		"":                 `"github.com/toolgen-go/toolgen/runtime"`,
		"example.com/fork": `"example.com/fork/runtime"`,
	} {
		src, err := Stubs(f, StubOptions{Package: "tasks", RuntimeModule: mod})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(src), want) {
			t.Errorf("RuntimeModule %q: stubs do not import %s:\n%s", mod, want, src)
		}
	}
}
