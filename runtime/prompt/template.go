package prompt

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// dedent removes the indentation common to all non-blank lines of s and
// the blank lines around it, so templates can be written as indented raw
// strings. It also returns how many leading lines it dropped.
func dedent(s string) (string, int) {
	lines := strings.Split(s, "\n")
	prefix, have := "", false
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		ws := l[:len(l)-len(strings.TrimLeft(l, " \t"))]
		if !have {
			prefix, have = ws, true
			continue
		}
		for !strings.HasPrefix(ws, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			lines[i] = ""
			continue
		}
		lines[i] = strings.TrimRight(l[len(prefix):], " \t\r")
	}
	dropped := 0
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
		dropped++
	}
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return strings.Join(lines, "\n"), dropped
}

// part is a literal or a placeholder bound to a field of the params type.
type part struct {
	lit   string
	index []int // nil for a literal
}

// compiled is one markdown element whose content has been split into parts.
type compiled struct {
	kind  Kind
	level int
	parts []part
}

// compileText splits s at ${name} placeholders and resolves each name against
// fields ("$$" is a literal "$"; any other '$' is literal too). Errors name
// the line, counting s's first line as line.
func compileText(s string, line int, fields map[string][]int) ([]part, error) {
	var (
		parts []part
		lit   strings.Builder
	)
	fail := func(i int, format string, args ...any) error {
		return fmt.Errorf("line %d: %s", line+strings.Count(s[:i], "\n"), fmt.Sprintf(format, args...))
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '$' || i+1 >= len(s) || (s[i+1] != '$' && s[i+1] != '{') {
			lit.WriteByte(c)
			continue
		}
		if s[i+1] == '$' {
			lit.WriteByte('$')
			i++
			continue
		}
		end := strings.IndexByte(s[i+2:], '}')
		if end < 0 {
			return nil, fail(i, "unterminated placeholder \"${\" (a literal \"$\" is written \"$$\")")
		}
		name := s[i+2 : i+2+end]
		if name == "" {
			return nil, fail(i, "empty placeholder \"${}\" (a literal \"$\" is written \"$$\")")
		}
		idx, ok := fields[name]
		if !ok {
			shown := text.Truncate(name, text.ReceivedLimit)
			if fields == nil {
				return nil, fail(i, "placeholder ${%s} needs a params type (Section.Params; a literal \"$\" is written \"$$\")", shown)
			}
			if near := text.Closest(name, slices.Sorted(maps.Keys(fields))); near != "" {
				return nil, fail(i, "placeholder ${%s} matches no field of the params type; did you mean ${%s}?", shown, near)
			}
			return nil, fail(i, "placeholder ${%s} matches no field of the params type", shown)
		}
		if lit.Len() > 0 {
			parts = append(parts, part{lit: lit.String()})
			lit.Reset()
		}
		parts = append(parts, part{index: idx})
		i += 2 + end
	}
	if lit.Len() > 0 || len(parts) == 0 {
		parts = append(parts, part{lit: lit.String()})
	}
	return parts, nil
}

// compileMarkdown parses a template (after dedent), shifts its own headings
// to sit at level and below, and compiles each element's placeholders.
func compileMarkdown(tmpl string, level int, fields map[string][]int) ([]compiled, error) {
	text, dropped := dedent(lineEndings.Replace(tmpl))
	text += closingFence(text)
	els := ParseMarkdown(text, level)
	if hasTitle(els) {
		els = AdjustLevels(els, level)
	}
	out := make([]compiled, len(els))
	for i, e := range els {
		parts, err := compileText(e.Content, e.Line+dropped, fields)
		if err != nil {
			return nil, err
		}
		out[i] = compiled{kind: e.Kind, level: e.Level, parts: parts}
	}
	return out, nil
}

// lineEndings turns the line endings markdown knows ("\r\n", and a lone
// "\r") into "\n", the one ParseMarkdown splits at: after a lone "\r" a
// heading was kept as text, unshifted, and read as a level-1 heading.
var lineEndings = strings.NewReplacer("\r\n", "\n", "\r", "\n")

// closingFence returns the line that closes the code block s leaves
// open ("\n```"), or "" when s closes every block it opens. A body is
// followed by the summarized note and the sections after it: left open,
// the block would hold them all (markdown closes a block only at the end
// of the document), and no heading after it would read as one.
func closingFence(s string) string {
	var ch byte
	n := 0
	// Split at "\r" too: a params value's lone "\r" ends a line, as
	// "\n" does (the empty lines "\r\n" makes change nothing here).
	for line := range strings.FieldsFuncSeq(s, isLineEnd) {
		if ch != 0 {
			if closesFence(line, ch, n) {
				ch = 0
			}
			continue
		}
		ch, n, _ = opensFence(line)
	}
	if ch == 0 {
		return ""
	}
	return "\n" + strings.Repeat(string(ch), n)
}

func isLineEnd(r rune) bool { return r == '\n' || r == '\r' }

func hasTitle(els []Element) bool {
	for _, e := range els {
		if e.Kind == Title {
			return true
		}
	}
	return false
}

// paramFields maps the placeholder names of a params struct type to field
// indexes: each exported field answers to its json tag name and to its Go
// name. Fields reached through unexported embedded structs are skipped.
func paramFields(t reflect.Type) (map[string][]int, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("params type %s is not a struct", t)
	}
	fields := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		if f.Anonymous && f.Type.Kind() == reflect.Struct || !reachable(t, f.Index) {
			continue
		}
		if _, ok := fields[f.Name]; !ok {
			fields[f.Name] = f.Index
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag != "" && tag != "-" {
			fields[tag] = f.Index
		}
	}
	return fields, nil
}

// reachable reports whether every field on the index path is exported.
func reachable(t reflect.Type, index []int) bool {
	for i := range index {
		if !t.FieldByIndex(index[:i+1]).IsExported() {
			return false
		}
	}
	return true
}

// expand writes parts to b, reading placeholder values from v (a struct
// value, invalid when the section has no params).
func expand(b *strings.Builder, parts []part, v reflect.Value) {
	for _, p := range parts {
		if p.index == nil {
			b.WriteString(p.lit)
			continue
		}
		if !v.IsValid() {
			continue
		}
		f, err := v.FieldByIndexErr(p.index)
		if err != nil {
			continue
		}
		b.WriteString(format(f))
	}
}

// format renders a field value: pointers and interfaces are followed (nil is
// empty), everything else goes through fmt.
func format(v reflect.Value) string {
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	return fmt.Sprint(v.Interface())
}

// Escape returns s with every '$' doubled, so that it renders verbatim as a
// Template or Summary (generated code escapes tool descriptions with it).
func Escape(s string) string { return strings.ReplaceAll(s, "$", "$$") }
