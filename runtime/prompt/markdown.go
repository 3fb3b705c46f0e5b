package prompt

import "strings"

// Kind tells the three kinds of markdown Element apart.
type Kind uint8

// The element kinds of spec 002.
const (
	// Text is a run of plain lines (blank lines included), kept verbatim.
	Text Kind = iota
	// Title is an ATX heading ("## Title").
	Title
	// Template is a line holding only a template variable ("{PROMPT_SUBTREE}").
	Template
)

// MaxHeadingLevel is the deepest heading markdown can express; deeper titles
// render as bold lines (see RenderMarkdown).
const MaxHeadingLevel = 6

// Element is one piece of a markdown document: a heading, a block of text or
// a template variable.
type Element struct {
	Kind Kind
	// Level is the heading level of a Title; for Text and Template it is the
	// level content at that point sits at (one below the last heading).
	Level int
	// Content is the heading text, the text lines joined by "\n", or the
	// template variable's name.
	Content string
	// Line is the 1-based source line the element starts on (0 when built
	// by hand).
	Line int
}

// ParseMarkdown splits s into elements. Text before the first heading sits
// at baseLevel.
//
// Rules: a heading is 1–6 '#' after at most three spaces, followed by a
// space or tab and non-blank text; lines inside fenced code blocks (``` or
// ~~~) are text; a line holding only {identifier} is a Template element; a
// run of blank lines directly between two headings carries no content and is
// dropped. Everything else is kept verbatim.
func ParseMarkdown(s string, baseLevel int) []Element {
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	var (
		els       []Element
		level     = baseLevel
		text      []string
		textStart int
		fenceCh   byte
		fenceLen  int
	)
	flush := func(beforeTitle bool) {
		if text == nil {
			return
		}
		if beforeTitle && allBlank(text) && len(els) > 0 && els[len(els)-1].Kind == Title {
			text = nil
			return
		}
		els = append(els, Element{Kind: Text, Level: level, Content: strings.Join(text, "\n"), Line: textStart})
		text = nil
	}
	addText := func(i int, line string) {
		if text == nil {
			textStart = i + 1
		}
		text = append(text, line)
	}
	for i, line := range lines {
		if fenceCh != 0 {
			if closesFence(line, fenceCh, fenceLen) {
				fenceCh = 0
			}
			addText(i, line)
			continue
		}
		if ch, n, ok := opensFence(line); ok {
			fenceCh, fenceLen = ch, n
			addText(i, line)
			continue
		}
		if n, content, ok := heading(line); ok {
			flush(true)
			els = append(els, Element{Kind: Title, Level: n, Content: content, Line: i + 1})
			level = n + 1
			continue
		}
		if name, ok := templateVar(line); ok {
			flush(false)
			els = append(els, Element{Kind: Template, Level: level, Content: name, Line: i + 1})
			continue
		}
		addText(i, line)
	}
	flush(false)
	return els
}

// AdjustLevels returns a copy of els shifted so that the smallest level
// becomes base; relative depth is kept. els is not modified.
func AdjustLevels(els []Element, base int) []Element {
	if len(els) == 0 {
		return nil
	}
	low := els[0].Level
	for _, e := range els[1:] {
		low = min(low, e.Level)
	}
	shift := base - low
	out := make([]Element, len(els))
	for i, e := range els {
		e.Level += shift
		out[i] = e
	}
	return out
}

// ResolveTemplates returns parent with every Template element whose name is
// a key of children replaced by that child's elements, shifted to sit at the
// template's level. Templates without a child are kept and render back as
// "{name}". parent and children are not modified.
func ResolveTemplates(parent []Element, children map[string][]Element) []Element {
	out := make([]Element, 0, len(parent))
	for _, e := range parent {
		child, ok := children[e.Content]
		if e.Kind != Template || !ok {
			out = append(out, e)
			continue
		}
		out = append(out, AdjustLevels(child, e.Level)...)
	}
	return out
}

// Titled returns body under a new level-1 heading: the title first, then body
// shifted so that its top sits at level 2. Use it to give embedded child
// content its field title before ResolveTemplates.
func Titled(title string, body []Element) []Element {
	out := make([]Element, 0, len(body)+1)
	out = append(out, Element{Kind: Title, Level: 1, Content: title})
	return append(out, AdjustLevels(body, 2)...)
}

// RenderMarkdown writes els back as markdown, one element after the other
// separated by a newline. A Title renders as level '#' marks and its text;
// levels below 1 render as 1, and levels beyond MaxHeadingLevel (which
// markdown cannot express) render as a bold line "**Title**" in place, so
// order and text are kept. An unresolved Template renders as "{name}".
func RenderMarkdown(els []Element) string {
	var b strings.Builder
	for i, e := range els {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeElement(&b, e.Kind, e.Level, e.Content)
	}
	return b.String()
}

func writeElement(b *strings.Builder, k Kind, level int, content string) {
	switch k {
	case Title:
		writeHeading(b, level, content)
	case Template:
		b.WriteByte('{')
		b.WriteString(content)
		b.WriteByte('}')
	default:
		b.WriteString(content)
	}
}

// writeHeading writes one heading line, clamped as RenderMarkdown documents.
func writeHeading(b *strings.Builder, level int, content string) {
	if level > MaxHeadingLevel {
		b.WriteString("**")
		b.WriteString(content)
		b.WriteString("**")
		return
	}
	for range max(level, 1) {
		b.WriteByte('#')
	}
	b.WriteByte(' ')
	b.WriteString(content)
}

// indent returns the number of leading spaces of line if it is at most 3,
// else -1 (four spaces start an indented code block).
func indent(line string) int {
	n := 0
	for n < len(line) && line[n] == ' ' {
		n++
	}
	if n > 3 {
		return -1
	}
	return n
}

// heading reports whether line is an ATX heading and returns its level and
// trimmed text.
func heading(line string) (int, string, bool) {
	i := indent(line)
	if i < 0 {
		return 0, "", false
	}
	n := 0
	for i+n < len(line) && line[i+n] == '#' {
		n++
	}
	if n == 0 || n > MaxHeadingLevel || i+n >= len(line) {
		return 0, "", false
	}
	if c := line[i+n]; c != ' ' && c != '\t' {
		return 0, "", false
	}
	content := strings.TrimSpace(line[i+n:])
	if content == "" {
		return 0, "", false
	}
	return n, content, true
}

// opensFence reports whether line opens a fenced code block.
func opensFence(line string) (byte, int, bool) {
	i := indent(line)
	if i < 0 || i >= len(line) {
		return 0, 0, false
	}
	ch := line[i]
	if ch != '`' && ch != '~' {
		return 0, 0, false
	}
	n := 0
	for i+n < len(line) && line[i+n] == ch {
		n++
	}
	if n < 3 {
		return 0, 0, false
	}
	if ch == '`' && strings.IndexByte(line[i+n:], '`') >= 0 {
		return 0, 0, false
	}
	return ch, n, true
}

// closesFence reports whether line closes a block opened by n ch's.
func closesFence(line string, ch byte, n int) bool {
	i := indent(line)
	if i < 0 {
		return false
	}
	m := 0
	for i+m < len(line) && line[i+m] == ch {
		m++
	}
	return m >= n && strings.TrimSpace(line[i+m:]) == ""
}

// templateVar reports whether line holds only {identifier}.
func templateVar(line string) (string, bool) {
	t := strings.TrimSpace(line)
	if len(t) < 3 || t[0] != '{' || t[len(t)-1] != '}' {
		return "", false
	}
	name := t[1 : len(t)-1]
	for i := 0; i < len(name); i++ {
		c := name[i]
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
		if !letter && (i == 0 || c < '0' || c > '9') {
			return "", false
		}
	}
	return name, true
}

func allBlank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}
