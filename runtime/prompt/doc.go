// Package prompt builds prompts from trees of sections that carry tools, and
// implements progressive disclosure: summarized sections the model opens
// with the builtin open_sections tool.
//
// Data flow: generated code (Sections(h) emits one summarized section per
// tool group, carrying its tools) and hand-written code declare []Section;
// New checks the tree once (keys, templates and their ${field} placeholders
// against each section's params type, tool definitions, tool names unique
// across the tree) and caches it. An orchestrator (runtime/agent) calls
// Render with params values and visibility overrides, sends Rendered.Text and
// Rendered.Tools to the model, and dispatches tool calls with
// runtime.Dispatch.
//
// Visibility: a section renders at VisibilityFull (its template, its
// children, its tools) or VisibilitySummary (its summary followed by an
// instruction to call open_sections). The tools of a summarized section and
// of all its descendants are not offered until the section is opened. When
// at least one rendered section is summarized, open_sections is appended
// after the user tools; when none is, it is left out. The builtin is named
// OpenSectionsName unless a tool of the sections has that name: then it
// takes the first free one of open_sections_2, open_sections_3, ...
// (Prompt.OpenSectionsName, runtime.FreeName), which the summaries'
// instructions and its errors say.
//
// Opening: a valid open_sections call returns *VisibilityExpansionRequired,
// which runtime.Dispatch passes through untouched (after publishing
// ToolInvoked with the request in its Metadata). The caller retries:
//
//	overrides := prompt.Overrides{}
//	for {
//		r, err := p.Render(overrides, params...)
//		...
//		err = evaluate(r)
//		var exp *prompt.VisibilityExpansionRequired
//		if !errors.As(err, &exp) {
//			break
//		}
//		overrides = prompt.Merge(overrides, exp.RequestedOverrides)
//	}
//
// Precedence is declared visibility < caller overrides < overrides requested
// by open_sections. Invalid keys and sections already open are validation
// failures (*runtime.ValidationError), returned to the model as a failed
// result; so are, as in the gateway, a member sent twice (code duplicate)
// and a string that is not valid Unicode (code encoding), and more
// different keys than the rendering has sections (code maxItems). A key
// sent twice is opened once.
//
// Markdown: templates may carry their own headings. ParseMarkdown,
// AdjustLevels, ResolveTemplates and RenderMarkdown (spec 002) split
// markdown into title, text and template elements and shift heading levels
// so embedded content nests under its parent's heading; Render uses them so
// a template's headings sit below the section's numbered heading. Headings
// deeper than level 6 render as bold lines. A code block a template,
// summary or params value leaves open is closed at the end of its body,
// and a params value's line breaks in a heading are spaces. Elsewhere a
// params value is inserted as it is (it may be markdown on purpose, or
// code in a fenced block): a line of it that starts with "#" reads as a
// heading, unshifted, so escape values that come from untrusted text.
// A template's lines end at "\n", "\r\n" or a lone "\r", as in markdown.
//
// Tool names: tools of a section are checked with the strict rules for
// hand-written tools (lowercase name, 1–200 character ASCII description)
// unless the section is marked Generated, in which case only the provider
// rule ^[a-zA-Z0-9_-]{1,64}$ applies.
package prompt
