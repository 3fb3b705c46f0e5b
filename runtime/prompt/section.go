package prompt

import (
	"reflect"

	"github.com/toolgen-go/toolgen/runtime"
)

// Section is one node of a prompt's section tree, written as a struct
// literal. Only Key and Title are required:
//
//	prompt.Section{
//		Key:        "issues",
//		Title:      "Issues",
//		Template:   "Tools to list, read and update issues.",
//		Summary:    "Issue tools are available.",
//		Visibility: prompt.VisibilitySummary,
//		Tools:      tools,
//		Generated:  true,
//	}
type Section struct {
	// Key identifies the section among its siblings (letters, digits, '_',
	// '-'); nested sections are addressed by dot-joined paths.
	Key string
	// Title is the heading text; the heading is numbered when rendered.
	Title string
	// Template is the full body: markdown with ${field} placeholders ("$$" is
	// a literal "$"). Its own headings are shifted to nest under the
	// section's heading. Surrounding blank lines and common indentation are
	// removed.
	Template string
	// Summary is the body rendered at VisibilitySummary; required when the
	// declared visibility is VisibilitySummary.
	Summary string
	// Visibility is the declared visibility; overrides passed to Render take
	// precedence.
	Visibility Visibility
	// Params is the struct type placeholders are checked against when the
	// prompt is built (reflect.TypeFor[TaskParams]()); nil for sections
	// without placeholders. A placeholder names a field by its json tag or
	// its Go name. Render needs one value of each declared params type.
	Params reflect.Type
	// Enabled, when set, decides at render time whether the section (with
	// its children and tools) is part of the prompt; it receives the
	// section's params value, or nil.
	Enabled func(params any) bool
	// Tools are offered to the model while the section renders in full.
	Tools []runtime.Tool
	// Generated marks Tools as coming from toolgen-generated code: their
	// names are checked against what providers accept
	// (^[a-zA-Z0-9_-]{1,64}$) instead of the stricter rules for
	// hand-written tools (lowercase name, 1–200 character ASCII description).
	Generated bool
	// Children are rendered after the body, numbered under this section.
	Children []Section
}

// node is a section compiled when the prompt is built.
type node struct {
	sec      *Section
	path     string
	level    int          // heading level: 2 for top-level sections
	ptype    reflect.Type // nil without params
	fields   map[string][]int
	body     []compiled
	summary  []compiled
	children []*node
}

// walk calls fn for n and its descendants, depth first in declaration order.
func (n *node) walk(fn func(*node)) {
	fn(n)
	for _, c := range n.children {
		c.walk(fn)
	}
}
