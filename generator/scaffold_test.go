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

// A long description in a multi-byte script is cut on a rune boundary, so
// the stub file stays valid Go.
func TestStubsLongNonASCIIDescription(t *testing.T) {
	desc := strings.Repeat("任务", 100)
	f := &ir.Family{Package: "tasks", Tools: []*ir.Tool{{Name: "list_tasks", GoName: "ListTasks", Description: desc}}}
	src, err := Stubs(f, StubOptions{Package: "tasks"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "// ListTasks serves list_tasks: 任务") {
		t.Errorf("stub comment lost the description:\n%s", src)
	}
}
