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

// AppendStubs adds the methods of new tools to a user's handler file and
// the imports they need, keeping the user's code and comments as written.
func TestAppendStubs(t *testing.T) {
	f := &ir.Family{Package: "tasks", Tools: []*ir.Tool{
		{Name: "list_tasks", GoName: "ListTasks"},
		{Name: "delete_task", GoName: "DeleteTask", Description: "Delete a task."},
	}}
	old := `package tasks

import "fmt" // the user's import

// Store holds tasks.
type Store struct{}

func (s *Store) ListTasks() { fmt.Println("mine") } // kept as written
`
	out, err := AppendStubs("handlers.go", []byte(old), f, StubOptions{Package: "tasks", Receiver: "Store", Existing: map[string]bool{"ListTasks": true}})
	if err != nil {
		t.Fatal(err)
	}
	src := string(out)
	for _, want := range []string{
		"\"fmt\" // the user's import",
		"\"context\"",
		"\"github.com/toolgen-go/toolgen/runtime\"",
		"// Store holds tasks.\ntype Store struct{}",
		`func (s *Store) ListTasks() { fmt.Println("mine") } // kept as written`,
		"// DeleteTask serves delete_task: Delete a task.\nfunc (s *Store) DeleteTask(ctx context.Context, tc runtime.ToolContext, p *DeleteTaskParams)",
	} {
		if !strings.Contains(src, want) {
			t.Errorf("result lacks %q:\n%s", want, src)
		}
	}
	if strings.Count(src, "func (s *Store) ListTasks") != 1 || strings.Contains(src, "type Service") {
		t.Errorf("existing method or type repeated:\n%s", src)
	}
	if out, err := AppendStubs("handlers.go", []byte(old), f, StubOptions{Package: "tasks", Existing: map[string]bool{"ListTasks": true, "DeleteTask": true}}); out != nil || err != nil {
		t.Errorf("nothing to append: got %q, %v", out, err)
	}
	if _, err := AppendStubs("handlers.go", []byte("package tasks\nfunc ("), f, StubOptions{Package: "tasks"}); err == nil || !strings.Contains(err.Error(), "handlers.go:") {
		t.Errorf("broken handler file: err = %v", err)
	}
}
