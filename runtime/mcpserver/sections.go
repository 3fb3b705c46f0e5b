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
// open_sections has opened so far.
type sectionsState struct {
	mu        sync.Mutex
	p         *prompt.Prompt
	params    []any
	overrides prompt.Overrides
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
	reg, err := register(s, r.Tools(), c)
	if err != nil {
		return nil, err
	}
	reg.sections = &sectionsState{p: p, params: params, overrides: prompt.Overrides{}}
	return s, nil
}

// openSections renders the prompt with the requested sections open, adds
// the tools that became visible (the SDK sends tools/list_changed), and
// answers with the opened sections' text and tool names, so a client that
// ignores the notification still learns what it may call.
func (r *registrar) openSections(exp *prompt.VisibilityExpansionRequired) *mcp.CallToolResult {
	st := r.sections
	st.mu.Lock()
	defer st.mu.Unlock()
	next := prompt.Merge(st.overrides, exp.RequestedOverrides)
	rendered, err := st.p.Render(next, st.params...)
	if err != nil {
		return errorResult("open_sections failed: " + err.Error())
	}
	st.overrides = next
	var added []string
	hasOpen := false
	for _, t := range rendered.Tools() {
		if t.Name == prompt.OpenSectionsName {
			// Bound to the new rendering's visibility: replace the old one.
			hasOpen = true
			if def, err := definition(t); err == nil {
				r.server.AddTool(def, r.handler(t))
			}
			continue
		}
		def, err := definition(t)
		if err != nil {
			continue
		}
		r.mu.Lock()
		done := r.added[t.Name]
		r.mu.Unlock()
		if !done {
			r.add(t, def)
			added = append(added, t.Name)
		}
	}
	if !hasOpen {
		r.server.RemoveTools(prompt.OpenSectionsName)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Opened sections %s.", strings.Join(exp.Paths(), ", "))
	if len(added) > 0 {
		fmt.Fprintf(&b, " Tools now available: %s.", strings.Join(added, ", "))
	}
	b.WriteString("\n\n")
	b.WriteString(rendered.Text())
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}
}
