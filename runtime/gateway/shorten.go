package gateway

import (
	"strings"
	"unicode"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// Short op help keeps whole sentences of descriptions up to these lengths:
// the instructions a tool's author wrote (a required format, a language)
// are what a model needs at the moment of the call.
const (
	shortSummaryLen = 600
	shortArgLen     = 300
)

// shortDoc is what short op help shows of an op's words: its description
// without the lines that repeat its arguments, in leading sentences, and
// each argument's description with what those lines added.
type shortDoc struct {
	summary string
	cut     bool // summary leaves part of the description out
	args    []string
}

// shorten cuts repetition, not meaning: a description's lines that
// document an argument ("- limit: at most 50", "limit (int): …", as
// docstrings and MCP servers write them) move to that argument unless its
// own description already says it; lines and sentences that the op's
// policy states go (help shows the policy); a heading left with nothing
// under it ("Args:", "When to use this tool:") goes too. What remains
// keeps its leading sentences up to shortSummaryLen.
func shorten(desc string, args []Arg, pol *Policy) shortDoc {
	rest, items := repeats(desc, args, pol)
	d := shortDoc{args: make([]string, len(args))}
	d.summary, d.cut = leadingSentences(rest, shortSummaryLen)
	for i, a := range args {
		own := a.Description
		if item, ok := items[a.Name]; ok {
			own = mergeArgText(own, item)
		}
		d.args[i], _ = leadingSentences(own, shortArgLen)
	}
	return d
}

// leadingSentences keeps the leading units of s that fit in n bytes, a
// unit being a sentence or a line (list items rarely end with a full
// stop), so that a cut never falls inside one; a heading ending with ':'
// is not kept without what follows it. A first unit longer than n is cut
// at a word with "…". Runs of white space, line breaks included, become
// single spaces. cut reports whether anything was left out.
func leadingSentences(s string, n int) (out string, cut bool) {
	var b strings.Builder
	last := "" // the last unit kept
	for _, line := range strings.Split(s, "\n") {
		line = strings.Join(strings.Fields(line), " ")
		for line != "" {
			u := line
			if e := text.SentenceEnd(line); e > 0 {
				u = line[:e]
			}
			line = strings.TrimSpace(line[len(u):])
			sep := min(b.Len(), 1)
			if b.Len()+sep+len(u) > n {
				if b.Len() == 0 {
					return text.FirstSentence(u, n), true
				}
				out = b.String()
				if strings.HasSuffix(last, ":") && len(last) < len(out) {
					out = strings.TrimSpace(out[:len(out)-len(last)])
				}
				return out, true
			}
			if sep > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(u)
			last = u
		}
	}
	return b.String(), false
}

// repeats splits desc into what short help shows as the summary and the
// lines that document one of args, with their more-indented continuation
// lines (returned by argument name). Lines and sentences equal to a rule
// of pol are left out, and so is a heading whose block held only what was
// left out. The first line, which says what the tool does, always keeps
// something.
func repeats(desc string, args []Arg, pol *Policy) (string, map[string]string) {
	names := make(map[string]string, len(args))
	for _, a := range args {
		names[strings.ToLower(a.Name)] = a.Name
	}
	rules := newRuleSet(pol)
	if len(names) == 0 && len(rules.m) == 0 {
		return desc, nil
	}
	lines := strings.Split(desc, "\n")
	removed := make([]bool, len(lines))
	first := 0
	for first < len(lines) && strings.TrimSpace(lines[first]) == "" {
		first++
	}
	var items map[string]string
	for i := first + 1; i < len(lines); i++ {
		name, body, ok := argItem(lines[i], names)
		if !ok {
			continue
		}
		removed[i] = true
		ind := indent(lines[i])
		parts := []string{body}
		for i+1 < len(lines) && strings.TrimSpace(lines[i+1]) != "" && indent(lines[i+1]) > ind {
			if _, _, next := argItem(lines[i+1], names); next {
				break
			}
			i++
			removed[i] = true
			parts = append(parts, strings.TrimSpace(lines[i]))
		}
		if items == nil {
			items = make(map[string]string)
		}
		items[name] = strings.Join(parts, " ")
	}
	cut := items != nil
	if len(rules.m) > 0 {
		for i := first; i < len(lines); i++ {
			if removed[i] || strings.TrimSpace(lines[i]) == "" {
				continue
			}
			if kept, changed := dropRules(lines[i], rules); changed && (i > first || strings.TrimSpace(kept) != "") {
				cut = true
				lines[i] = kept
				removed[i] = strings.TrimSpace(kept) == ""
			}
		}
	}
	if !cut {
		return desc, nil
	}
	for i := first; i < len(lines); i++ {
		if removed[i] || !isHeading(lines[i]) || !blockRemoved(lines, removed, i) {
			continue
		}
		// The heading is the line's last sentence ("Tasks are for later.
		// Use this tool when:").
		l := strings.TrimRightFunc(lines[i], unicode.IsSpace)
		lines[i] = strings.TrimRightFunc(l[:len(l)-len(lastSentence(l))], unicode.IsSpace)
		removed[i] = i > first && strings.TrimSpace(lines[i]) == ""
	}
	var b strings.Builder
	for i, l := range lines {
		if !removed[i] {
			b.WriteString(l)
			b.WriteByte('\n')
		}
	}
	return b.String(), items
}

// ruleSet is the rules of an op's policy, each normalised (normRule).
type ruleSet struct {
	m map[string]bool
	// compared counts the comparisons of a description's text with the
	// rules (tests check that it grows with the description alone, not
	// with the number of rules too).
	compared int
}

func newRuleSet(pol *Policy) *ruleSet {
	rs := &ruleSet{m: map[string]bool{}}
	if pol != nil {
		for _, list := range [][]string{pol.Do, pol.Dont, pol.EdgeCases} {
			for _, r := range list {
				if n := normRule(r); n != "" {
					rs.m[n] = true
				}
			}
		}
	}
	return rs
}

// dropRules removes from line the sentences that equal one of rules (a
// whole list item is one sentence); changed reports a removal.
//
// Each sentence is looked up among the rules, at a cost linear in the
// line whatever their number (looking for each rule in each line cost
// the description's lines times the policy's rules, and the taxonomy
// extracts a rule from each line written as one).
func dropRules(line string, rules *ruleSet) (kept string, changed bool) {
	item := line
	if loc := listMark(line); loc > 0 {
		item = line[loc:]
	}
	if isRule(item, rules) {
		return "", true
	}
	var out []string
	rest := strings.TrimSpace(item)
	for rest != "" {
		e := text.SentenceEnd(rest)
		if e < 0 {
			e = len(rest)
		}
		if s := rest[:e]; isRule(s, rules) {
			changed = true
		} else {
			out = append(out, s)
		}
		rest = strings.TrimSpace(rest[e:])
	}
	if !changed {
		return line, false
	}
	return line[:len(line)-len(item)] + strings.Join(out, " "), true
}

// isRule reports a sentence equal to one of rules, with or without a
// leading label such as "IMPORTANT:".
func isRule(s string, rules *ruleSet) bool {
	rules.compared++
	n := normRule(s)
	if rules.m[n] {
		return true
	}
	if i := strings.Index(n, ": "); i > 0 && i <= 12 {
		return rules.m[n[i+2:]]
	}
	return false
}

// normRule is a rule or sentence compared with others: lower-cased,
// without markdown emphasis, with single spaces and no final punctuation.
func normRule(s string) string {
	s = strings.ToLower(strings.Join(strings.Fields(s), " "))
	s = emphasis.Replace(s)
	return strings.TrimRight(s, " .;:!")
}

var emphasis = strings.NewReplacer("**", "", "__", "", "`", "")

// listMark returns the length of a line's list marker ("- ", "* ",
// "• ", "12. ", "3) ") with the indentation before it, or 0.
func listMark(line string) int {
	t := strings.TrimLeft(line, " \t")
	pre := len(line) - len(t)
	for _, b := range []string{"- ", "* ", "• ", "· "} {
		if strings.HasPrefix(t, b) {
			return pre + len(b)
		}
	}
	d := 0
	for d < len(t) && t[d] >= '0' && t[d] <= '9' {
		d++
	}
	if d > 0 && d+1 < len(t) && (t[d] == '.' || t[d] == ')') && t[d+1] == ' ' {
		return pre + d + 2
	}
	return 0
}

// isHeading reports a line ending with a short sentence that ends with
// ':' and introduces what follows it ("Args:", "When to use this tool:").
func isHeading(line string) bool {
	h := lastSentence(line)
	return strings.HasSuffix(h, ":") && len(h) <= 60 && listMark(line) == 0
}

// lastSentence is the last sentence of line, trimmed.
func lastSentence(line string) string {
	s := strings.TrimSpace(line)
	for {
		e := text.SentenceEnd(s)
		if e < 0 {
			return s
		}
		s = strings.TrimSpace(s[e:])
	}
}

// blockRemoved reports whether the lines after heading h, up to the first
// blank line after some content or the next heading of its level, were all
// left out.
func blockRemoved(lines []string, removed []bool, h int) bool {
	seen := false
	for j := h + 1; j < len(lines); j++ {
		if strings.TrimSpace(lines[j]) == "" && !removed[j] {
			if seen {
				break
			}
			continue
		}
		if !removed[j] {
			// the next heading of the same level ends the block
			return seen && isHeading(lines[j]) && indent(lines[j]) <= indent(lines[h])
		}
		seen = true
	}
	return seen
}

// argItem reads a line that documents an argument: an optional bullet,
// the argument's name, an optional "(type)", then ':' or a dash and the
// text. names maps lower-cased argument names to their own spelling.
func argItem(line string, names map[string]string) (name, body string, ok bool) {
	t := strings.Trim(strings.TrimSpace(line[listMark(line):]), "`")
	end := 0
	for end < len(t) && isNameByte(t[end]) {
		end++
	}
	name, ok = names[strings.ToLower(t[:end])]
	if !ok || end == 0 {
		return "", "", false
	}
	rest := strings.TrimLeft(t[end:], "` ")
	if strings.HasPrefix(rest, "(") {
		close := strings.IndexByte(rest, ')')
		if close < 0 {
			return "", "", false
		}
		rest = strings.TrimSpace(rest[close+1:])
	}
	for _, sep := range []string{":", "- ", "— ", "– "} {
		if strings.HasPrefix(rest, sep) {
			body = strings.TrimSpace(rest[len(sep):])
			return name, body, body != ""
		}
	}
	return "", "", false
}

func isNameByte(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func indent(line string) int {
	return len(line) - len(strings.TrimLeft(line, " \t"))
}

// mergeArgText is an argument's description with what a line of the
// op's description said about it: nothing added when the argument already
// says it, that line when it says the argument's words and more, both
// otherwise.
func mergeArgText(own, item string) string {
	o, it := normWords(own), normWords(item)
	switch {
	case it == "" || strings.Contains(o, it):
		return own
	case strings.Contains(it, o):
		return item
	}
	own = strings.TrimSpace(own)
	if !strings.HasSuffix(own, ".") && !strings.HasSuffix(own, "!") && !strings.HasSuffix(own, "?") {
		own += "."
	}
	return own + " " + item
}

// normWords is s lower-cased, with single spaces and no final full stop.
func normWords(s string) string {
	return strings.TrimSuffix(strings.ToLower(strings.Join(strings.Fields(s), " ")), ".")
}
