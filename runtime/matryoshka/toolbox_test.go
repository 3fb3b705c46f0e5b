package matryoshka

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestToolboxBasics(t *testing.T) {
	var r recorder
	if _, err := NewToolbox(r.tools("a", "a")...); err == nil || err.Error() != `toolbox: tool "a" is given twice` {
		t.Errorf("duplicate err = %v", err)
	}
	tb := mustToolbox(t, r.tools("a", "b")...)
	if n := tb.Add(r.tools("b", "c", "c")...); n != 1 {
		t.Errorf("Add added %d, want 1 (b present, c once)", n)
	}
	if n := tb.Remove("a", "zz"); n != 1 {
		t.Errorf("Remove removed %d, want 1", n)
	}
	if diff := cmp.Diff([]string{"b", "c"}, tb.Names()); diff != "" {
		t.Errorf("names (-want +got):\n%s", diff)
	}
	if tb.Len() != 2 || len(tb.Tools()) != 2 {
		t.Errorf("Len = %d", tb.Len())
	}
	if _, ok := tb.Get("a"); ok {
		t.Error("Get found a removed tool")
	}

	var zero Toolbox
	if zero.Apply(ToolInjectionResult{Add: r.tools("x"), Origin: "f"}) != true || zero.Names()[0] != "x" {
		t.Errorf("zero toolbox after Apply: %v", zero.Names())
	}
}

func TestApplyPlacement(t *testing.T) {
	var r recorder
	tests := []struct {
		name string
		res  ToolInjectionResult
		want []string
	}{
		{"nothing", ToolInjectionResult{}, []string{"a", "f", "b"}},
		{"append without At", ToolInjectionResult{Add: r.tools("x", "y")}, []string{"a", "f", "b", "x", "y"}},
		{"in place of a removed At", ToolInjectionResult{Add: r.tools("x", "y"), Remove: []string{"f"}, At: "f"}, []string{"a", "x", "y", "b"}},
		{"after a kept At", ToolInjectionResult{Add: r.tools("x", "y"), At: "f"}, []string{"a", "f", "x", "y", "b"}},
		{"unknown At appends", ToolInjectionResult{Add: r.tools("x"), At: "zz"}, []string{"a", "f", "b", "x"}},
		{"remove before At shifts", ToolInjectionResult{Add: r.tools("x"), Remove: []string{"a"}, At: "f"}, []string{"f", "x", "b"}},
		{"present tools keep their place", ToolInjectionResult{Add: r.tools("b", "x"), At: "a"}, []string{"a", "x", "f", "b"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tb := mustToolbox(t, r.tools("a", "f", "b")...)
			changed := tb.Apply(tt.res)
			if diff := cmp.Diff(tt.want, tb.Names()); diff != "" {
				t.Errorf("names (-want +got):\n%s", diff)
			}
			if changed != !tt.res.IsZero() {
				t.Errorf("changed = %v", changed)
			}
		})
	}
}

func TestFold(t *testing.T) {
	var r recorder
	users := Facade("users", "Users.", r.tools("create_user", "delete_user"))
	admin := Facade("admin", "Admin.", append([]runtime.Tool{users}, r.tools("audit")...))
	tb := mustToolbox(t, r.tool("x", "X."), admin, r.tool("y", "Y."))
	s := Unfold{}
	call(t, tb, s, admin, `{}`)
	call(t, tb, s, get(t, tb, "users"), `{}`)
	if diff := cmp.Diff([]string{"x", "create_user", "delete_user", "audit", "y"}, tb.Names()); diff != "" {
		t.Fatalf("unfolded (-want +got):\n%s", diff)
	}
	snapshot := tb.Clone()

	if !tb.Fold("users") {
		t.Fatal("Fold(users) = false")
	}
	if diff := cmp.Diff([]string{"x", "users", "audit", "y"}, tb.Names()); diff != "" {
		t.Errorf("after folding users (-want +got):\n%s", diff)
	}
	if !tb.Fold("admin") {
		t.Fatal("Fold(admin) = false")
	}
	if diff := cmp.Diff([]string{"x", "admin", "y"}, tb.Names()); diff != "" {
		t.Errorf("after folding admin (-want +got):\n%s", diff)
	}
	if tb.Fold("admin") || len(tb.Open()) != 0 {
		t.Errorf("folding twice: open = %v", tb.Open())
	}

	// Folding the outer facade folds the nested one too; the clone is
	// unaffected by the folds above.
	if !snapshot.Fold("admin") {
		t.Fatal("snapshot Fold(admin) = false")
	}
	if diff := cmp.Diff([]string{"x", "admin", "y"}, snapshot.Names()); diff != "" {
		t.Errorf("snapshot after folding admin (-want +got):\n%s", diff)
	}
	if len(snapshot.Open()) != 0 {
		t.Errorf("nested facade still open: %v", snapshot.Open())
	}

	// Refolding restores a working facade.
	call(t, tb, s, get(t, tb, "admin"), `{}`)
	if diff := cmp.Diff([]string{"x", "users", "audit", "y"}, tb.Names()); diff != "" {
		t.Errorf("unfolded again (-want +got):\n%s", diff)
	}
}

func TestRefoldStrategy(t *testing.T) {
	var r recorder
	users := Facade("users", "Users.", r.tools("create_user", "delete_user"))
	admin := Facade("admin", "Admin.", append([]runtime.Tool{users}, r.tools("audit")...))
	files := Facade("files", "Files.", r.tools("read_file"))
	notes := Facade("notes", "Notes.", r.tools("add_note"), KeepOnInvoke())

	steps := []struct {
		call       string
		refold     []string
		accumulate []string
	}{
		{"admin", []string{"users", "audit", "files", "notes"}, []string{"users", "audit", "files", "notes"}},
		{"users", []string{"create_user", "delete_user", "audit", "files", "notes"}, []string{"create_user", "delete_user", "audit", "files", "notes"}},
		{"files", []string{"admin", "read_file", "notes"}, []string{"create_user", "delete_user", "audit", "read_file", "notes"}},
		{"notes", []string{"admin", "files", "notes", "add_note"}, []string{"create_user", "delete_user", "audit", "read_file", "notes", "add_note"}},
		{"admin", []string{"users", "audit", "files", "notes"}, nil},
	}
	for _, mode := range []struct {
		name string
		s    Unfold
	}{{"refold", Unfold{Refold: true}}, {"accumulate", Unfold{}}} {
		t.Run(mode.name, func(t *testing.T) {
			tb := mustToolbox(t, admin, files, notes)
			for i, st := range steps {
				want := st.refold
				if !mode.s.Refold {
					want = st.accumulate
				}
				if want == nil {
					return
				}
				call(t, tb, mode.s, get(t, tb, st.call), `{}`)
				if diff := cmp.Diff(want, tb.Names()); diff != "" {
					t.Fatalf("step %d (%s) (-want +got):\n%s", i, st.call, diff)
				}
			}
		})
	}
}

func TestStrategyIgnoresOtherResults(t *testing.T) {
	var r recorder
	tb := mustToolbox(t, r.tools("a")...)
	for _, res := range []runtime.Result{
		{Success: true, Value: "text"},
		{Success: false, Value: &Unfolded{Facade: "a", Tools: r.tools("b")}},
		{Success: true, Value: (*Unfolded)(nil)},
	} {
		if got := (Unfold{}).Evaluate(InjectionContext{Toolbox: tb, Result: res}); !got.IsZero() {
			t.Errorf("Evaluate(%v) = %+v, want no change", res, got)
		}
	}
	// Without a toolbox the strategy still describes the unfold.
	got := Unfold{}.Evaluate(InjectionContext{Call: runtime.ToolCall{Name: "f"}, Result: runtime.Result{Success: true, Value: &Unfolded{Facade: "f", Tools: r.tools("b"), RemoveOnInvoke: true}}})
	if got.At != "f" || len(got.Add) != 1 || len(got.Remove) != 0 {
		t.Errorf("Evaluate without toolbox = %+v", got)
	}
	f := StrategyFunc(func(InjectionContext) ToolInjectionResult { return ToolInjectionResult{Remove: []string{"a"}} })
	tb.Apply(f.Evaluate(InjectionContext{}))
	if tb.Len() != 0 {
		t.Errorf("StrategyFunc result not applied: %v", tb.Names())
	}
}

func BenchmarkUnfoldAndApply(b *testing.B) {
	var r recorder
	inner := r.tools("a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8")
	f := Facade("f", "F.", inner, Category("some", "a1", "a3"))
	others := r.tools("o1", "o2", "o3", "o4", "o5", "o6", "o7", "o8", "o9", "o10")
	c := runtime.ToolCall{ID: "c", Name: "f", Args: []byte(`{}`)}
	tc := runtime.NewToolContext(runtime.ContextParts{Call: c})
	b.ReportAllocs()
	for b.Loop() {
		tb, _ := NewToolbox(append(others, f)...)
		res, _ := runtime.Dispatch(b.Context(), f, tc, c.Args)
		tb.Apply(Unfold{}.Evaluate(InjectionContext{Toolbox: tb, Call: c, Result: res}))
		_ = runtime.RenderResult(res)
	}
}

func BenchmarkShortcut(b *testing.B) {
	var r recorder
	users := Facade("users", "Users.", r.tools("create_user", "delete_user"))
	admin := Facade("admin", "Admin.", append([]runtime.Tool{users}, r.tools("audit")...))
	args := []byte(`{"tool":"delete_user","args":{"id":"u1"}}`)
	b.ReportAllocs()
	for b.Loop() {
		r.calls = r.calls[:0]
		_, _ = runtime.Dispatch(b.Context(), admin, runtime.ToolContext{}, args)
	}
}

func BenchmarkToolbox2000(b *testing.B) {
	var r recorder
	tools := make([]runtime.Tool, 2000)
	for i := range tools {
		tools[i] = r.tool(fmt.Sprintf("tool_%d", i), "T.")
	}
	add := r.tools("x1", "x2", "x3", "x4")
	b.ReportAllocs()
	for b.Loop() {
		tb, _ := NewToolbox(tools...)
		tb.Apply(ToolInjectionResult{Add: add, Remove: []string{"tool_1000"}, At: "tool_1000", Origin: "tool_1000"})
		tb.Fold("tool_1000")
	}
}
