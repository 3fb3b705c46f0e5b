package matryoshka

import (
	"fmt"
	"maps"
	"slices"

	"github.com/toolgen-go/toolgen/runtime"
)

// Toolbox is the ordered list of tools currently offered to a model, with
// unique names; the zero value is an empty toolbox. It remembers which facade unfolded each tool so that
// facades can be folded back. A Toolbox is not safe for concurrent use.
type Toolbox struct {
	entries []entry
	// has holds the names in entries.
	has map[string]bool
	// open maps an unfolded facade to what folding it back needs.
	open map[string]*opened
	// order lists open facades in the order they unfolded.
	order []string
}

type entry struct {
	tool runtime.Tool
	// origin is the facade that unfolded the tool, "" for initial tools.
	origin string
}

type opened struct {
	// origin is the facade that unfolded this facade, "" at top level.
	origin string
	// saved is the facade's own entry when unfolding removed it.
	saved *entry
}

// NewToolbox returns a toolbox offering tools in the given order; names must
// be unique.
func NewToolbox(tools ...runtime.Tool) (*Toolbox, error) {
	tb := &Toolbox{open: map[string]*opened{}, has: make(map[string]bool, len(tools))}
	for _, t := range tools {
		if tb.has[t.Name] {
			return nil, fmt.Errorf("toolbox: tool %q is given twice", t.Name)
		}
		tb.has[t.Name] = true
		tb.entries = append(tb.entries, entry{tool: t})
	}
	return tb, nil
}

// Tools returns the current tools in order.
func (tb *Toolbox) Tools() []runtime.Tool {
	out := make([]runtime.Tool, len(tb.entries))
	for i, e := range tb.entries {
		out[i] = e.tool
	}
	return out
}

// Names returns the current tool names in order.
func (tb *Toolbox) Names() []string {
	out := make([]string, len(tb.entries))
	for i, e := range tb.entries {
		out[i] = e.tool.Name
	}
	return out
}

// Len is the number of tools offered.
func (tb *Toolbox) Len() int { return len(tb.entries) }

// Get returns the tool named name.
func (tb *Toolbox) Get(name string) (runtime.Tool, bool) {
	if i := tb.index(name); i >= 0 {
		return tb.entries[i].tool, true
	}
	return runtime.Tool{}, false
}

// Origin returns the facade that unfolded the tool or facade named name, ""
// for initial tools and unknown names.
func (tb *Toolbox) Origin(name string) string {
	if i := tb.index(name); i >= 0 {
		return tb.entries[i].origin
	}
	if o, ok := tb.open[name]; ok {
		return o.origin
	}
	return ""
}

// Open returns the facades currently unfolded, in the order they unfolded.
func (tb *Toolbox) Open() []string { return append([]string(nil), tb.order...) }

// Add appends tools that are not present yet and reports how many it added.
func (tb *Toolbox) Add(tools ...runtime.Tool) int {
	return tb.insert(len(tb.entries), "", tools)
}

// Remove removes the named tools and reports how many were present.
func (tb *Toolbox) Remove(names ...string) int {
	n := 0
	for _, name := range names {
		if i := tb.index(name); i >= 0 {
			tb.delete(i)
			n++
		}
	}
	return n
}

// Clone returns an independent copy of tb.
func (tb *Toolbox) Clone() *Toolbox {
	c := &Toolbox{
		entries: slices.Clone(tb.entries),
		has:     maps.Clone(tb.has),
		open:    make(map[string]*opened, len(tb.open)),
		order:   slices.Clone(tb.order),
	}
	for k, v := range tb.open {
		o := *v
		c.open[k] = &o
	}
	return c
}

// Apply carries out r: first Fold, then Remove, then Add at r.At (in place
// of At when At is removed too, after it otherwise, appended when At is
// absent). It reports whether the toolbox changed.
func (tb *Toolbox) Apply(r ToolInjectionResult) bool {
	if tb.open == nil {
		tb.open = map[string]*opened{}
	}
	changed := false
	for _, f := range r.Fold {
		changed = tb.Fold(f) || changed
	}
	pos := len(tb.entries)
	if i := tb.index(r.At); r.At != "" && i >= 0 {
		pos = i + 1
	}
	var saved *entry
	var facadeOrigin string
	for _, name := range r.Remove {
		i := tb.index(name)
		if i < 0 {
			continue
		}
		if name == r.Origin && r.Origin != "" {
			e := tb.entries[i]
			saved, facadeOrigin = &e, e.origin
		}
		tb.delete(i)
		if i < pos {
			pos--
		}
		changed = true
	}
	if r.Origin != "" && saved == nil {
		facadeOrigin = tb.Origin(r.Origin)
	}
	added := tb.insert(pos, r.Origin, r.Add)
	changed = changed || added > 0
	if r.Origin != "" && (added > 0 || saved != nil) {
		if o, ok := tb.open[r.Origin]; ok {
			if saved != nil {
				o.saved = saved
			}
		} else {
			tb.open[r.Origin] = &opened{origin: facadeOrigin, saved: saved}
			tb.order = append(tb.order, r.Origin)
		}
	}
	return changed
}

// Fold folds the unfolded facade back: every tool it unfolded, directly or
// through nested facades, is removed, and the facade returns to the place
// of the first of them if unfolding had removed it. It reports whether
// facade was open.
func (tb *Toolbox) Fold(facade string) bool {
	rec, ok := tb.open[facade]
	if !ok {
		return false
	}
	closing := map[string]bool{}
	for _, f := range tb.order {
		if tb.descends(f, facade) {
			closing[f] = true
		}
	}
	pos := -1
	kept := tb.entries[:0:0]
	for _, e := range tb.entries {
		if e.origin != "" && closing[e.origin] {
			delete(tb.has, e.tool.Name)
			if pos < 0 {
				pos = len(kept)
			}
			continue
		}
		kept = append(kept, e)
	}
	tb.entries = kept
	tb.order = slices.DeleteFunc(tb.order, func(f string) bool { return closing[f] })
	for f := range closing {
		delete(tb.open, f)
	}
	if rec.saved != nil && tb.index(facade) < 0 {
		if pos < 0 {
			pos = len(tb.entries)
		}
		tb.entries = slices.Insert(tb.entries, pos, *rec.saved)
		tb.has[facade] = true
	}
	return true
}

// descends reports whether the open facade f is ancestor or f itself.
func (tb *Toolbox) descends(f, ancestor string) bool {
	for range len(tb.order) + 1 {
		if f == ancestor {
			return true
		}
		o, ok := tb.open[f]
		if !ok || o.origin == "" {
			return false
		}
		f = o.origin
	}
	return false
}

// insert puts the tools not present yet at pos, in order, and reports how
// many it inserted.
func (tb *Toolbox) insert(pos int, origin string, tools []runtime.Tool) int {
	if tb.has == nil {
		tb.has = map[string]bool{}
	}
	var add []entry
	for _, t := range tools {
		if tb.has[t.Name] {
			continue
		}
		tb.has[t.Name] = true
		add = append(add, entry{tool: t, origin: origin})
	}
	tb.entries = slices.Insert(tb.entries, pos, add...)
	return len(add)
}

func (tb *Toolbox) delete(i int) {
	delete(tb.has, tb.entries[i].tool.Name)
	tb.entries = slices.Delete(tb.entries, i, i+1)
}

// index is the position of name, -1 when absent.
func (tb *Toolbox) index(name string) int {
	if !tb.has[name] {
		return -1
	}
	for i, e := range tb.entries {
		if e.tool.Name == name {
			return i
		}
	}
	return -1
}
