package matryoshka

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// DefaultMaxDepth is the nesting limit of a facade unless MaxDepth says
// otherwise.
const DefaultMaxDepth = 4

// FacadeDef describes a facade: its inner tools, categories and policy. Of
// recovers it from the facade's runtime.Tool.
type FacadeDef struct {
	name        string
	description string
	inner       []runtime.Tool
	// index is the position of each inner tool in inner, by name.
	index          map[string]int
	categories     []category
	removeOnInvoke bool
	maxDepth       int
	depth          int
	usage          map[string]string
	// lines are the inner tools' lines in the facade's answer.
	lines map[string]string
	tool  runtime.Tool
	// ignored finds, per inner tool name, the arguments a generated tool
	// accepted and dropped (*runtime.IgnoredArgs), said in a note.
	ignored sync.Map
}

type category struct {
	name  string
	tools []string
}

// Option configures a facade.
type Option func(*FacadeDef)

// KeepOnInvoke keeps the facade in the toolbox after it unfolds, so the
// model can invoke it again (for another category).
func KeepOnInvoke() Option { return func(d *FacadeDef) { d.removeOnInvoke = false } }

// Category declares a category selecting the named inner tools. Categories
// appear in the facade's "category" enum in declaration order.
//
// Category and Usage are not inlined: a generated Facades calls them once
// per group and tool, and each inlined call would copy the option's
// closure into a function of its own.
//
//go:noinline
func Category(name string, tools ...string) Option {
	return func(d *FacadeDef) {
		d.categories = append(d.categories, category{name: name, tools: tools})
	}
}

// MaxDepth sets the nesting limit checked at construction.
func MaxDepth(n int) Option { return func(d *FacadeDef) { d.maxDepth = n } }

// Usage sets the one-line usage shown for an inner tool in the facade's
// answer, replacing the one derived from its parameters schema.
//
//go:noinline
func Usage(tool, line string) Option {
	return func(d *FacadeDef) {
		if d.usage == nil {
			d.usage = map[string]string{}
		}
		d.usage[tool] = line
	}
}

// New builds a facade tool named name over inner.
func New(name, description string, inner []runtime.Tool, opts ...Option) (runtime.Tool, error) {
	d, err := build(name, description, inner, opts)
	if err != nil {
		return runtime.Tool{}, err
	}
	return d.tool, nil
}

// Facade is New for generated tool tables; it panics on a construction
// error, which only a broken generator or hand edit can cause.
func Facade(name, description string, inner []runtime.Tool, opts ...Option) runtime.Tool {
	t, err := New(name, description, inner, opts...)
	if err != nil {
		panic(err)
	}
	return t
}

// Of returns the facade behind t, if t was built by New or Facade.
func Of(t runtime.Tool) (*FacadeDef, bool) {
	if t.Decode == nil {
		return nil, false
	}
	v, err := t.Decode(json.RawMessage(`{}`))
	if err != nil {
		return nil, false
	}
	c, ok := v.(*Call)
	if !ok || c.Facade == nil || c.Facade.name != t.Name {
		return nil, false
	}
	return c.Facade, true
}

func build(name, description string, inner []runtime.Tool, opts []Option) (*FacadeDef, error) {
	d := &FacadeDef{name: name, description: description, removeOnInvoke: true, maxDepth: DefaultMaxDepth}
	for _, o := range opts {
		o(d)
	}
	fail := func(format string, args ...any) error {
		return &runtime.ToolDefinitionError{Tool: name, Reason: fmt.Sprintf(format, args...)}
	}
	if err := runtime.CheckName(name); err != nil {
		return nil, fail("%v", err)
	}
	if strings.TrimSpace(description) == "" {
		return nil, fail("facade description is empty")
	}
	if len(inner) == 0 {
		return nil, fail("facade has no inner tools")
	}
	if d.maxDepth < 1 {
		return nil, fail("max depth %d is below 1", d.maxDepth)
	}
	d.inner = append([]runtime.Tool(nil), inner...)
	d.index = make(map[string]int, len(d.inner))
	seen := map[string]bool{name: true}
	d.depth = 1
	for i, t := range d.inner {
		d.index[t.Name] = i
		if err := t.Check(false); err != nil {
			return nil, fail("inner %v", err)
		}
		names := []string{t.Name}
		if sub, ok := Of(t); ok {
			d.depth = max(d.depth, sub.depth+1)
			names = append(names, sub.subtreeNames()...)
		}
		for _, n := range names {
			if seen[n] {
				return nil, fail("tool name %q occurs twice in the facade", n)
			}
			seen[n] = true
		}
	}
	if d.depth > d.maxDepth {
		return nil, fail("facades nest %d levels deep, at most %d are allowed", d.depth, d.maxDepth)
	}
	cats := map[string]bool{}
	for _, c := range d.categories {
		if c.name == "" {
			return nil, fail("category name is empty")
		}
		if cats[c.name] {
			return nil, fail("category %q is declared twice", c.name)
		}
		cats[c.name] = true
		if len(c.tools) == 0 {
			return nil, fail("category %q selects no tools", c.name)
		}
		for _, tn := range c.tools {
			if d.innerIndex(tn) < 0 {
				return nil, fail("category %q names unknown inner tool %q", c.name, tn)
			}
		}
	}
	for _, tn := range slices.Sorted(maps.Keys(d.usage)) {
		if d.innerIndex(tn) < 0 {
			return nil, fail("usage given for unknown inner tool %q", tn)
		}
	}
	d.lines = make(map[string]string, len(d.inner))
	for _, t := range d.inner {
		d.lines[t.Name] = d.line(t)
	}
	d.tool = runtime.Tool{
		Name:        name,
		Description: description,
		Parameters:  d.schema(),
		Handler:     d.handle,
		// Overrides may rewrite a facade's description like any generated
		// tool's; Of identifies facades by name.
		AcceptsOverrides: true,
		Decode:           func(args json.RawMessage) (any, error) { return d.decode(args) },
	}
	return d, nil
}

// Name is the facade's tool name.
func (d *FacadeDef) Name() string { return d.name }

// Tool is the facade as a runtime.Tool.
func (d *FacadeDef) Tool() runtime.Tool { return d.tool }

// Inner returns the inner tools in declaration order.
func (d *FacadeDef) Inner() []runtime.Tool { return append([]runtime.Tool(nil), d.inner...) }

// Categories returns the category names in declaration order.
func (d *FacadeDef) Categories() []string {
	out := make([]string, len(d.categories))
	for i, c := range d.categories {
		out[i] = c.name
	}
	return out
}

// RemoveOnInvoke reports whether the facade leaves the toolbox when it
// unfolds.
func (d *FacadeDef) RemoveOnInvoke() bool { return d.removeOnInvoke }

// Depth is the facade's nesting depth: 1 over plain tools.
func (d *FacadeDef) Depth() int { return d.depth }

// Select returns the inner tools a category selects, in inner order; the
// empty category selects them all.
func (d *FacadeDef) Select(cat string) ([]runtime.Tool, error) {
	if cat == "" {
		return d.Inner(), nil
	}
	for _, c := range d.categories {
		if c.name != cat {
			continue
		}
		want := map[string]bool{}
		for _, n := range c.tools {
			want[n] = true
		}
		var out []runtime.Tool
		for _, t := range d.inner {
			if want[t.Name] {
				out = append(out, t)
			}
		}
		return out, nil
	}
	if len(d.categories) == 0 {
		return nil, runtime.Invalid("facade %s has no categories; call it without one", d.name)
	}
	return nil, runtime.Invalid("facade %s has no category %q; valid categories: %s",
		d.name, text.Truncate(cat, text.ReceivedLimit), strings.Join(closest(cat, d.Categories()), ", "))
}

func (d *FacadeDef) innerIndex(name string) int {
	if i, ok := d.index[name]; ok {
		return i
	}
	return -1
}

// subtreeNames lists every tool name below d, depth first.
func (d *FacadeDef) subtreeNames() []string {
	var out []string
	for _, t := range d.inner {
		out = append(out, t.Name)
		if sub, ok := Of(t); ok {
			out = append(out, sub.subtreeNames()...)
		}
	}
	return out
}

// find looks name up in d's subtree, inner tools first, then nested
// facades depth first.
func (d *FacadeDef) find(name string) (runtime.Tool, bool) {
	if i := d.innerIndex(name); i >= 0 {
		return d.inner[i], true
	}
	for _, t := range d.inner {
		if sub, ok := Of(t); ok {
			if found, ok := sub.find(name); ok {
				return found, true
			}
		}
	}
	return runtime.Tool{}, false
}

// handle is the facade's handler: a shortcut call runs the named tool,
// anything else unfolds.
func (d *FacadeDef) handle(ctx context.Context, tc runtime.ToolContext, args json.RawMessage) (runtime.Result, error) {
	c, err := d.decode(args)
	if err != nil {
		return runtime.Result{}, err
	}
	if c.Tool != "" {
		return d.shortcut(ctx, tc, c)
	}
	tools, err := d.Select(c.Category)
	if err != nil {
		return runtime.Result{}, err
	}
	u := &Unfolded{
		Facade:         d.name,
		Category:       c.Category,
		Tools:          tools,
		RemoveOnInvoke: d.removeOnInvoke,
		lines:          d.lines,
	}
	return runtime.Result{Success: true, Value: u}, nil
}

// shortcut runs a tool of d's subtree with the Dispatch failure semantics;
// the inner call publishes its own ToolInvoked event.
func (d *FacadeDef) shortcut(ctx context.Context, tc runtime.ToolContext, c *Call) (runtime.Result, error) {
	t, ok := d.find(c.Tool)
	if !ok {
		names := closest(c.Tool, d.subtreeNames())
		const show = 8
		list := strings.Join(names[:min(show, len(names))], ", ")
		if len(names) > show {
			list += fmt.Sprintf(" (and %d more)", len(names)-show)
		}
		return runtime.Result{}, runtime.NotFound("facade %s has no tool %q; valid tools: %s", d.name, text.Truncate(c.Tool, text.ReceivedLimit), list)
	}
	args := c.Args
	if len(args) == 0 {
		args = json.RawMessage(`{}`)
	}
	call := tc.Call()
	inner := runtime.NewToolContext(runtime.ContextParts{
		Prompt:   tc.Prompt(),
		Rendered: tc.RenderedPrompt(),
		Adapter:  tc.Adapter(),
		Session:  tc.Session(),
		Bus:      tc.Bus(),
		Call:     runtime.ToolCall{ID: call.ID, Name: t.Name, Args: args},
	})
	// Dispatch returns an error only for a Propagator, which must leave the
	// facade untouched as well. The inner call's own ToolInvoked event
	// carries its params; the facade's answer does not repeat them, so each
	// handler call is observed once.
	res, err := runtime.Dispatch(ctx, t, inner, args)
	res.Params = nil
	ia, ok := d.ignored.Load(t.Name)
	if !ok {
		ia, _ = d.ignored.LoadOrStore(t.Name, runtime.NewIgnoredArgs(t))
	}
	if ws := ia.(*runtime.IgnoredArgs).Warnings(t.Name, args, res.Err); len(ws) > 0 {
		// After the tool's own message, before its value.
		note := "note: " + strings.Join(ws, "; ")
		if res.Message != "" {
			note = res.Message + "\n\n" + note
		}
		res.Message = note
	}
	return res, err
}
