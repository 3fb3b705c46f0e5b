package mcpserver

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime/prompt"
)

// sectionsState is the visibility of one server's sections: what
// open_sections has opened so far, and the rendering with them open.
type sectionsState struct {
	mu        sync.Mutex
	p         *prompt.Prompt
	params    []any
	overrides prompt.Overrides
	rendered  *prompt.Rendered
}

// NewSectionsServer returns an MCP server offering the sections surface
// of p (see "Sections over MCP" in the package documentation): the
// rendered prompt, summaries included, as the server's instructions; the
// tools of the sections shown in full; and open_sections, which opens
// sections on this server. params are the prompt's render params. Every
// tool of the prompt, shown or not, must be fit for MCP (see Register).
func NewSectionsServer(name, version string, p *prompt.Prompt, params []any, opts ...Option) (*mcp.Server, error) {
	if p == nil {
		return nil, errors.New("mcpserver: nil prompt")
	}
	// The tools of summarized sections join the server when opened: each
	// is checked now, as Register checks the tools it adds, instead of
	// being left out of an opening without a word.
	for _, t := range p.Tools() {
		if _, err := definition(t); err != nil {
			return nil, fmt.Errorf("mcpserver: %w", err)
		}
	}
	r, err := p.Render(nil, params...)
	if err != nil {
		return nil, fmt.Errorf("mcpserver: %w", err)
	}
	c := newConfig(opts)
	so := mcp.ServerOptions{}
	if c.serverOptions != nil {
		so = *c.serverOptions
	}
	if so.Instructions == "" {
		so.Instructions = r.Text()
	}
	s := mcp.NewServer(&mcp.Implementation{Name: name, Version: version}, &so)
	tools := r.Tools()
	for i, t := range tools {
		if t.Name == p.OpenSectionsName() {
			// An MCP server cannot re-send the prompt: the sections'
			// tools join its tool list and their text comes back in the
			// answer.
			tools[i].Description = openSectionsOverMCP
		}
	}
	reg, err := register(s, tools, c)
	if err != nil {
		return nil, err
	}
	reg.sections = &sectionsState{p: p, params: params, overrides: prompt.Overrides{}, rendered: r}
	return s, nil
}

// openSections renders the prompt with the requested sections open, adds
// the tools that became visible (the SDK sends tools/list_changed), and
// answers with the opened sections' text and the names of their tools, so
// a client that ignores the notification still learns what it may call.
//
// The answer holds the text of each requested section and of each
// ancestor this call opened (a section inside another is sent within it),
// not the whole prompt: the client has the rest (the instructions and the
// answers of earlier openings), and sending the whole prompt with each
// opening made opening a prompt's sections one by one quadratic in its
// size.
//
// open_sections stays the one bound to the instructions' rendering, which
// is what every session's model reads: a section another session, or an
// earlier conversation on this one, opened is opened again and answered
// with its text, where it was refused as already open and its text was out
// of reach; and open_sections stays listed once every section is open,
// since the instructions still tell the model to call it.
func (r *registrar) openSections(exp *prompt.VisibilityExpansionRequired) *mcp.CallToolResult {
	st := r.sections
	st.mu.Lock()
	defer st.mu.Unlock()
	next := prompt.Merge(st.overrides, exp.RequestedOverrides)
	rendered, err := st.p.Render(next, st.params...)
	if err != nil {
		return errorResult(st.p.OpenSectionsName() + " failed: " + err.Error())
	}
	requested := make(map[string]bool, len(exp.SectionKeys))
	for _, k := range exp.SectionKeys {
		requested[k] = true
	}
	// An ancestor opened on the way is sent only if this call opened it.
	var paths []string
	for _, path := range exp.Paths() {
		if vis, shown := st.rendered.VisibilityOf(path); requested[path] || !shown || vis != prompt.VisibilityFull {
			paths = append(paths, path)
		}
	}
	st.overrides, st.rendered = next, rendered
	for _, t := range rendered.Tools() {
		if t.Name == st.p.OpenSectionsName() {
			continue
		}
		r.mu.Lock()
		done := r.added[t.Name]
		r.mu.Unlock()
		if done {
			continue
		}
		if def, err := definition(t); err == nil {
			r.add(t, def)
		}
	}
	var names []string
	var text strings.Builder
	for _, path := range outermost(paths) {
		s, ok := rendered.SectionText(path)
		if !ok {
			continue
		}
		text.WriteString("\n\n")
		text.WriteString(s)
		for _, t := range rendered.SectionTools(path) {
			names = append(names, t.Name)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Opened sections %s.", strings.Join(paths, ", "))
	if len(names) > 0 {
		fmt.Fprintf(&b, " Tools now available: %s.", strings.Join(names, ", "))
	}
	b.WriteString(text.String())
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
}

// outermost returns the dot paths none of whose proper ancestors is in
// paths, in order: a section opened with one of its ancestors is in the
// ancestor's text. Each ancestor is looked up once across all paths, with
// what it found remembered: opening a deep section opens its summarized
// ancestors too, and checking every prefix of each of them would take time
// cubic in the depth.
func outermost(paths []string) []string {
	opened := make(map[string]bool, len(paths))
	for _, path := range paths {
		opened[path] = true
	}
	// within[q] is whether q or one of its ancestors is in paths.
	within := map[string]bool{}
	var walked, out []string
	for _, path := range paths {
		walked = walked[:0]
		in := false
		for i := strings.LastIndexByte(path, '.'); i > 0; i = strings.LastIndexByte(path[:i], '.') {
			if v, ok := within[path[:i]]; ok {
				in = v
				break
			}
			walked = append(walked, path[:i])
		}
		for k := len(walked) - 1; k >= 0; k-- {
			in = in || opened[walked[k]]
			within[walked[k]] = in
		}
		if !in {
			out = append(out, path)
		}
	}
	return out
}
