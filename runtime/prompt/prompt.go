package prompt

import (
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
)

// Prompt is a validated tree of sections identified by namespace, key and
// name. It is immutable and safe for concurrent Render calls.
type Prompt struct {
	ns, key, name string
	roots         []*node
	byPath        map[string]*node
	ptypes        []reflect.Type // declared params types, first-use order
	tools         []runtime.Tool // declared tools, depth first
	// descs are each tool's parameter descriptions, read from its schema
	// the first time the tool renders in full: a prompt over thousands of
	// tools that shows most as summaries never reads their schemas.
	descs    map[string]func() map[string]ParamDescription
	declared *view // visibility as declared, for Tools
	// openName is the builtin open_sections tool's name (OpenSectionsName).
	openName string
}

var _ runtime.PromptInfo = (*Prompt)(nil)

// New builds a prompt from its top-level sections and checks it: section
// keys (unique among siblings), titles, summaries, templates and their
// placeholders against each section's params type, and tools (definition
// rules, names unique across the whole tree). The builtin open_sections
// takes a name no section's tool has (OpenSectionsName). Failures are
// *ValidationError. An empty name defaults to key.
func New(namespace, key, name string, sections ...Section) (*Prompt, error) {
	p := &Prompt{ns: namespace, key: key, name: name, byPath: map[string]*node{}, descs: map[string]func() map[string]ParamDescription{}}
	if name == "" {
		p.name = key
	}
	if strings.TrimSpace(namespace) == "" || strings.TrimSpace(key) == "" {
		return nil, p.invalid("", "namespace and key are required")
	}
	b := builder{p: p, owner: map[string]string{}, seenTypes: map[reflect.Type]bool{}}
	roots, err := b.build(sections, "", 2)
	if err != nil {
		return nil, err
	}
	p.roots = roots
	p.openName = runtime.FreeName(OpenSectionsName, func(name string) bool {
		_, taken := b.owner[name]
		return taken
	})
	p.declared = p.declaredView()
	return p, nil
}

// MustNew is New that panics on error, for package-level prompts.
func MustNew(namespace, key, name string, sections ...Section) *Prompt {
	p, err := New(namespace, key, name, sections...)
	if err != nil {
		panic(err)
	}
	return p
}

// Namespace returns the prompt's namespace.
func (p *Prompt) Namespace() string { return p.ns }

// Key returns the prompt's key.
func (p *Prompt) Key() string { return p.key }

// Name returns the prompt's name.
func (p *Prompt) Name() string { return p.name }

// OpenSectionsName returns the name of the prompt's builtin open_sections
// tool: the constant OpenSectionsName, or the first of open_sections_2,
// open_sections_3, ... that no tool of its sections has.
func (p *Prompt) OpenSectionsName() string { return p.openName }

// Paths returns every section path, depth first in declaration order.
func (p *Prompt) Paths() []string {
	var out []string
	for _, r := range p.roots {
		r.walk(func(n *node) { out = append(out, n.path) })
	}
	return out
}

// Tools returns every tool the sections declare, depth first in declaration
// order, followed by open_sections when a section is declared
// VisibilitySummary. Render returns the tools one rendering offers.
func (p *Prompt) Tools() []runtime.Tool {
	out := append([]runtime.Tool(nil), p.tools...)
	if len(p.declared.summarized) > 0 {
		out = append(out, p.openSectionsTool(p.declared))
	}
	return out
}

func (p *Prompt) id() string { return p.ns + "/" + p.key }

func (p *Prompt) invalid(path, reason string) *ValidationError {
	return &ValidationError{Prompt: p.id(), Section: path, Reason: reason}
}

// builder carries the state of one New call.
type builder struct {
	p         *Prompt
	owner     map[string]string // tool name → declaring section path
	seenTypes map[reflect.Type]bool
}

func (b *builder) build(secs []Section, prefix string, level int) ([]*node, error) {
	p := b.p
	siblings := map[string]bool{}
	nodes := make([]*node, 0, len(secs))
	for i := range secs {
		sc := secs[i]
		sc.Tools = slices.Clone(sc.Tools)
		s := &sc
		path := prefix + s.Key
		if s.Key == "" {
			return nil, p.invalid(prefix+"#"+strconv.Itoa(i+1), "key is empty")
		}
		if err := runtime.CheckName(s.Key); err != nil {
			return nil, p.invalid(path, "key: "+err.Error())
		}
		if siblings[s.Key] {
			return nil, p.invalid(path, "duplicate section key")
		}
		siblings[s.Key] = true
		if strings.TrimSpace(s.Title) == "" {
			return nil, p.invalid(path, "title is empty")
		}
		if strings.ContainsAny(s.Title, "\r\n") {
			return nil, p.invalid(path, "title spans several lines")
		}
		if s.Visibility > VisibilitySummary {
			return nil, p.invalid(path, "unknown visibility "+s.Visibility.String())
		}
		if s.Visibility == VisibilitySummary && strings.TrimSpace(s.Summary) == "" {
			return nil, p.invalid(path, "summarized section needs a summary")
		}
		n := &node{sec: s, path: path, level: level}
		if s.Params != nil {
			t := s.Params
			for t.Kind() == reflect.Pointer {
				t = t.Elem()
			}
			fields, err := paramFields(t)
			if err != nil {
				return nil, p.invalid(path, err.Error())
			}
			n.ptype, n.fields = t, fields
			if !b.seenTypes[t] {
				b.seenTypes[t] = true
				p.ptypes = append(p.ptypes, t)
			}
		}
		var err error
		if n.body, err = compileMarkdown(s.Template, level+1, n.fields); err != nil {
			return nil, p.invalid(path, "template: "+err.Error())
		}
		if n.summary, err = compileMarkdown(s.Summary, level+1, n.fields); err != nil {
			return nil, p.invalid(path, "summary: "+err.Error())
		}
		if err := b.addTools(s, path); err != nil {
			return nil, err
		}
		p.byPath[path] = n
		if n.children, err = b.build(s.Children, path+".", level+1); err != nil {
			return nil, err
		}
		nodes = append(nodes, n)
	}
	return nodes, nil
}

func (b *builder) addTools(s *Section, path string) error {
	p := b.p
	for _, t := range s.Tools {
		if err := t.Check(!s.Generated); err != nil {
			e := p.invalid(path, err.Error())
			e.Tool, e.Err = t.Name, err
			return e
		}
		if other, dup := b.owner[t.Name]; dup {
			return &ValidationError{Prompt: p.id(), Section: path, Tool: t.Name, Other: other,
				Reason: fmt.Sprintf("tool %q is declared in sections %q and %q", t.Name, other, path),
				Err:    &runtime.DuplicateToolError{Names: []string{t.Name}}}
		}
		b.owner[t.Name] = path
		p.tools = append(p.tools, t)
		p.descs[t.Name] = sync.OnceValue(func() map[string]ParamDescription { return paramDescriptions(t.Parameters) })
	}
	return nil
}

// ParamDescription is what a rendered prompt tells about one parameter of a
// tool: the description, type and default of a top-level property of the
// tool's parameters schema.
type ParamDescription struct {
	Description string
	// Type is the schema's type ("string", or "integer|null" for a list).
	Type string
	// Default is the schema's default as JSON, nil when there is none.
	Default json.RawMessage
}

func paramDescriptions(schema json.RawMessage) map[string]ParamDescription {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	out := map[string]ParamDescription{}
	if json.Unmarshal(schema, &s) != nil {
		return out
	}
	for name, raw := range s.Properties {
		// A boolean schema (true: any value) has no description, type or
		// default; nor has a member of the wrong type.
		var prop struct {
			Description json.RawMessage `json:"description"`
			Type        json.RawMessage `json:"type"`
			Default     json.RawMessage `json:"default"`
		}
		_ = json.Unmarshal(raw, &prop)
		d := ParamDescription{Default: prop.Default}
		_ = json.Unmarshal(prop.Description, &d.Description)
		var one string
		var many []string
		if json.Unmarshal(prop.Type, &one) == nil {
			d.Type = one
		} else if json.Unmarshal(prop.Type, &many) == nil {
			d.Type = strings.Join(many, "|")
		}
		out[name] = d
	}
	return out
}

// Rendered is one rendering of a prompt: the markdown text, the tools the
// model may call in this rendering, and per-tool parameter descriptions.
type Rendered struct {
	text  string
	tools []runtime.Tool
	descs map[string]map[string]ParamDescription
	view  *view
	spans map[string]span
}

// span is where a shown section lies in a rendering: its text, from its
// heading to the end of its last shown descendant, and its tools and its
// shown descendants', in Tools.
type span struct{ start, end, toolStart, toolEnd int }

var _ runtime.RenderedPromptInfo = (*Rendered)(nil)

// Text returns the rendered markdown.
func (r *Rendered) Text() string { return r.text }

// Tools returns the tools of sections rendered in full, depth first in
// declaration order, then open_sections when a section is summarized.
func (r *Rendered) Tools() []runtime.Tool { return append([]runtime.Tool(nil), r.tools...) }

// ToolParamDescriptions returns, for each tool in Tools, its parameters'
// descriptions keyed by parameter name. The maps are shared: do not modify
// them.
func (r *Rendered) ToolParamDescriptions() map[string]map[string]ParamDescription { return r.descs }

// Summarized returns the paths of the sections rendered as summaries, in
// render order; open_sections is offered exactly when it is not empty.
func (r *Rendered) Summarized() []string { return append([]string(nil), r.view.summarized...) }

// SectionText returns the markdown of the section at path as this
// rendering shows it: its numbered heading, its body or summary, and its
// shown subsections, as they appear in Text. ok is false for a section not
// shown (disabled, unknown or hidden under a summarized ancestor).
func (r *Rendered) SectionText(path string) (text string, ok bool) {
	sp, ok := r.spans[path]
	if !ok {
		return "", false
	}
	return r.text[sp.start:sp.end], true
}

// SectionTools returns the tools this rendering offers from the section at
// path and its shown descendants, in Tools order; none for a summarized
// section or one not shown.
func (r *Rendered) SectionTools(path string) []runtime.Tool {
	sp := r.spans[path]
	return append([]runtime.Tool(nil), r.tools[sp.toolStart:sp.toolEnd]...)
}

// VisibilityOf reports how the section at path was rendered: its effective
// visibility and whether it was shown at all (false when disabled, unknown
// or hidden under a summarized ancestor).
func (r *Rendered) VisibilityOf(path string) (Visibility, bool) {
	st, ok := r.view.state[path]
	return st.vis, ok && st.shown
}

// sectionState is how one enabled section stands in a rendering.
type sectionState struct {
	vis   Visibility
	shown bool
}

// view records the visibility of every enabled section in one rendering;
// open_sections validates against it.
type view struct {
	order      []string
	state      map[string]sectionState
	summarized []string
}

func newView() *view { return &view{state: map[string]sectionState{}} }

func (v *view) add(path string, vis Visibility, shown bool) {
	v.order = append(v.order, path)
	v.state[path] = sectionState{vis: vis, shown: shown}
	if shown && vis == VisibilitySummary {
		v.summarized = append(v.summarized, path)
	}
}

// declaredView is the view of a rendering with no overrides where every
// section is enabled.
func (p *Prompt) declaredView() *view {
	v := newView()
	var rec func(ns []*node, shown bool)
	rec = func(ns []*node, shown bool) {
		for _, n := range ns {
			v.add(n.path, n.sec.Visibility, shown)
			rec(n.children, shown && n.sec.Visibility == VisibilityFull)
		}
	}
	rec(p.roots, true)
	return v
}

// Render renders the prompt with params (one value, or pointer to one, of
// each params type the sections declare) and visibility overrides keyed by
// section path (nil for none). Sections are numbered ("## 1 Task",
// "### 2.1 Examples"); a summarized section shows its summary and the
// open_sections suffix, and hides its children and tools.
func (p *Prompt) Render(overrides Overrides, params ...any) (*Rendered, error) {
	for path, v := range overrides {
		if p.byPath[path] == nil {
			return nil, fmt.Errorf("prompt %s: override for unknown section %q", p.id(), path)
		}
		if v > VisibilitySummary {
			return nil, fmt.Errorf("prompt %s: override for section %q: unknown visibility %s", p.id(), path, v)
		}
	}
	bound, err := p.bind(params)
	if err != nil {
		return nil, err
	}
	rs := renderState{p: p, overrides: overrides, bound: bound, view: newView(), descs: map[string]map[string]ParamDescription{}, spans: map[string]span{}}
	if err := rs.list(rs.enabled(p.roots), "", true); err != nil {
		return nil, err
	}
	if len(rs.view.summarized) > 0 {
		t := p.openSectionsTool(rs.view)
		rs.tools = append(rs.tools, t)
		rs.descs[t.Name] = openSectionsDescs
	}
	return &Rendered{text: rs.b.String(), tools: rs.tools, descs: rs.descs, view: rs.view, spans: rs.spans}, nil
}

// bind matches params values to the declared params types.
func (p *Prompt) bind(params []any) (map[reflect.Type]reflect.Value, error) {
	bound := make(map[reflect.Type]reflect.Value, len(params))
	for _, v := range params {
		rv := reflect.ValueOf(v)
		for rv.Kind() == reflect.Pointer && !rv.IsNil() {
			rv = rv.Elem()
		}
		if !rv.IsValid() || rv.Kind() == reflect.Pointer {
			return nil, fmt.Errorf("prompt %s: nil params value", p.id())
		}
		t := rv.Type()
		if !p.declaresParams(t) {
			return nil, fmt.Errorf("prompt %s: no section takes params of type %s", p.id(), t)
		}
		if _, dup := bound[t]; dup {
			return nil, fmt.Errorf("prompt %s: two params values of type %s", p.id(), t)
		}
		bound[t] = rv
	}
	for _, t := range p.ptypes {
		if _, ok := bound[t]; !ok {
			return nil, fmt.Errorf("prompt %s: missing params of type %s", p.id(), t)
		}
	}
	return bound, nil
}

func (p *Prompt) declaresParams(t reflect.Type) bool {
	for _, d := range p.ptypes {
		if d == t {
			return true
		}
	}
	return false
}

// renderState carries one Render call.
type renderState struct {
	p         *Prompt
	overrides Overrides
	bound     map[reflect.Type]reflect.Value
	view      *view
	b         strings.Builder
	scratch   strings.Builder
	tools     []runtime.Tool
	descs     map[string]map[string]ParamDescription
	spans     map[string]span
}

// enabled returns the nodes whose Enabled predicate holds.
func (rs *renderState) enabled(ns []*node) []*node {
	out := make([]*node, 0, len(ns))
	for _, n := range ns {
		if n.sec.Enabled == nil || n.sec.Enabled(rs.paramsOf(n)) {
			out = append(out, n)
		}
	}
	return out
}

func (rs *renderState) paramsOf(n *node) any {
	if n.ptype == nil {
		return nil
	}
	return rs.bound[n.ptype].Interface()
}

// list renders enabled sibling sections numbered under prefix; with shown
// false it only records the hidden sections' state.
func (rs *renderState) list(ns []*node, prefix string, shown bool) error {
	for i, n := range ns {
		vis := n.sec.Visibility
		if o, ok := rs.overrides[n.path]; ok {
			vis = o
		}
		rs.view.add(n.path, vis, shown)
		kids := rs.enabled(n.children)
		if !shown {
			if err := rs.list(kids, "", false); err != nil {
				return err
			}
			continue
		}
		number := prefix + strconv.Itoa(i+1)
		if rs.b.Len() > 0 {
			rs.b.WriteString("\n\n")
		}
		start, toolStart := rs.b.Len(), len(rs.tools)
		writeHeading(&rs.b, n.level, number+" "+n.sec.Title)
		if vis == VisibilitySummary {
			if len(n.summary) == 0 {
				return fmt.Errorf("prompt %s: section %q has no summary to render", rs.p.id(), n.path)
			}
			rs.b.WriteByte('\n')
			rs.body(n.summary, n)
			writeSuffix(&rs.b, rs.p.openName, n.path, kids)
			rs.spans[n.path] = span{start, rs.b.Len(), toolStart, toolStart}
			if err := rs.list(kids, "", false); err != nil {
				return err
			}
			continue
		}
		if len(n.body) > 0 {
			rs.b.WriteByte('\n')
			rs.body(n.body, n)
		}
		for _, t := range n.sec.Tools {
			rs.tools = append(rs.tools, t)
			rs.descs[t.Name] = rs.p.descs[t.Name]()
		}
		if err := rs.list(kids, number+".", true); err != nil {
			return err
		}
		rs.spans[n.path] = span{start, rs.b.Len(), toolStart, len(rs.tools)}
	}
	return nil
}

// body writes compiled markdown elements with n's params substituted. A
// params value stays inside its element: its line breaks are spaces in a
// heading, and a code block it leaves open is closed at the end of the
// body (as New closes one the template leaves open), so that it does not
// hold the sections after it.
func (rs *renderState) body(els []compiled, n *node) {
	var v reflect.Value
	if n.ptype != nil {
		v = rs.bound[n.ptype]
	}
	start, values := rs.b.Len(), false
	for i, e := range els {
		if i > 0 {
			rs.b.WriteByte('\n')
		}
		values = values || v.IsValid() && hasPlaceholder(e.parts)
		if e.kind == Text {
			expand(&rs.b, e.parts, v)
			continue
		}
		rs.scratch.Reset()
		expand(&rs.scratch, e.parts, v)
		content := rs.scratch.String()
		if e.kind == Title && strings.ContainsAny(content, "\r\n") {
			content = headingBreaks.Replace(content)
		}
		writeElement(&rs.b, e.kind, e.level, content)
	}
	if values {
		rs.b.WriteString(closingFence(rs.b.String()[start:]))
	}
}

// headingBreaks joins the lines a params value gives a heading.
var headingBreaks = strings.NewReplacer("\r\n", " ", "\r", " ", "\n", " ")

func hasPlaceholder(parts []part) bool {
	for _, p := range parts {
		if p.index != nil {
			return true
		}
	}
	return false
}

// writeSuffix appends the instruction block of a summarized section, which
// names the builtin open_sections tool by its name, open.
func writeSuffix(b *strings.Builder, open, path string, kids []*node) {
	b.WriteString("\n---\n[This section is summarized. ")
	if len(kids) == 0 {
		b.WriteString("To view full content, call `")
		b.WriteString(open)
		b.WriteString("` with key \"")
		b.WriteString(path)
		b.WriteString("\".]")
		return
	}
	b.WriteString("Call `")
	b.WriteString(open)
	b.WriteString("` with key \"")
	b.WriteString(path)
	b.WriteString("\" to view full content including subsections: ")
	for i, k := range kids {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.sec.Key)
	}
	b.WriteString(".]")
}
