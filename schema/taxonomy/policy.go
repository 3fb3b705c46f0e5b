package taxonomy

import (
	"regexp"
	"strings"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// policyClass is where a rule goes in a Policy.
type policyClass int

const (
	classNone policyClass = iota
	classDo
	classDont
	classEdge
)

// Sentence openers that make a rule, checked in order (dont before do, so
// that "Only ... do not" style sentences that start negative stay negative).
var (
	dontOpeners = regexp.MustCompile(`^(?i:(do not|don't|dont|never|avoid|must not|should not|shouldn't|cannot|can't|no need to)\b)`)
	doOpeners   = regexp.MustCompile(`^(?i:(always|only|must|prefer|make sure|ensure|use this|use it|use when|call this|call it)\b)`)
	edgeOpeners = regexp.MustCompile(`^(?i:(if (it is |it's |the request is |the user's request is )?(ambiguous|unclear|unsure|uncertain|in doubt)|when in doubt|if unsure|if you are unsure|if you're unsure|edge case))`)
	// emphasis strips leading labels such as "IMPORTANT:" and "Note -".
	emphasis = regexp.MustCompile(`^(?i:(important|critical|note|warning|rule|caution)\s*[:\-–—]\s*)+`)
	// "Only" makes a rule only with a condition: "Only set x when ...".
	onlyOpener    = regexp.MustCompile(`^(?i:only)\b`)
	onlyCondition = regexp.MustCompile(`(?i)\b(when|if|after|before|once|unless|for)\b`)
	bullet        = regexp.MustCompile(`^\s*(?:[-*•·]|\d+[.)])\s+`)
)

// headerClass classifies a line that introduces a list ("Use this tool
// when:", "Do NOT create tasks when:", "Edge cases:").
func headerClass(h string) policyClass {
	l := strings.ToLower(h)
	switch {
	case strings.Contains(l, "edge case") || strings.Contains(l, "ambiguous") || strings.Contains(l, "unsure"):
		return classEdge
	case strings.Contains(l, "do not") || strings.Contains(l, "don't") || strings.Contains(l, "dont") ||
		strings.Contains(l, "not use") || strings.Contains(l, "when not") || strings.Contains(l, "never") ||
		strings.Contains(l, "avoid") || strings.Contains(l, "not for"):
		return classDont
	case strings.Contains(l, "when") || strings.Contains(l, "use this") || strings.Contains(l, "use for") ||
		strings.Contains(l, "always") || strings.Contains(l, "only") || strings.Contains(l, "good for") ||
		strings.Contains(l, "should"):
		return classDo
	}
	return classNone
}

// sentenceClass classifies a free-standing sentence by its opener.
func sentenceClass(s string) policyClass {
	switch {
	case edgeOpeners.MatchString(s):
		return classEdge
	case dontOpeners.MatchString(s):
		return classDont
	case doOpeners.MatchString(s):
		if onlyOpener.MatchString(s) && !onlyCondition.MatchString(s) {
			return classNone // "Only the fields you pass are changed" states a fact
		}
		return classDo
	}
	return classNone
}

// ExtractPolicy collects the behavioural rules of a tool description into
// do, dont and edge_cases: sentences opening with "Do NOT", "Never",
// "Always", "Only", "Use this when", ...; bulleted lists under headers such
// as "Use this tool when:" or "Do NOT use when:"; and "If ambiguous ..."
// edge cases. It returns nil when the description carries no do or dont
// rule.
func ExtractPolicy(desc string) *ir.Policy {
	p := &ir.Policy{}
	add := func(c policyClass, s string) {
		s = cleanRule(s)
		if s == "" {
			return
		}
		switch c {
		case classDo:
			p.Do = appendUnique(p.Do, s)
		case classDont:
			p.Dont = appendUnique(p.Dont, s)
		case classEdge:
			p.EdgeCases = appendUnique(p.EdgeCases, s)
		}
	}
	section := classNone
	inList := false
	for _, line := range strings.Split(desc, "\n") {
		trimmed := strings.TrimSpace(line)
		if trimmed == "" {
			if inList {
				section, inList = classNone, false
			}
			continue
		}
		if loc := bullet.FindStringIndex(line); loc != nil {
			item := line[loc[1]:]
			inList = true
			c := section
			if sc := sentenceClass(stripEmphasis(item)); sc != classNone && (c == classNone || sc == classEdge) {
				c = sc
			}
			add(c, item)
			continue
		}
		// A header is a short line ending with ':' (its rules follow).
		if strings.HasSuffix(trimmed, ":") {
			section, inList = headerClass(trimmed), false
			continue
		}
		if inList {
			section, inList = classNone, false
		}
		// "Use this when: a, b" puts the rules after the colon.
		if i := strings.Index(trimmed, ":"); i > 0 && i < 60 {
			if hc := headerClass(trimmed[:i]); hc != classNone && sentenceClass(stripEmphasis(trimmed)) == classNone {
				if rest := strings.TrimSpace(trimmed[i+1:]); rest != "" {
					add(hc, rest)
					continue
				}
			}
		}
		for _, s := range sentences(trimmed) {
			for _, clause := range strings.Split(s, "; ") {
				add(sentenceClass(stripEmphasis(clause)), clause)
			}
		}
	}
	if len(p.Do) == 0 && len(p.Dont) == 0 {
		return nil
	}
	return p
}

// emphasisMarks are the markdown emphasis marks stripEmphasis drops.
var emphasisMarks = strings.NewReplacer("**", "", "__", "", "`", "")

// stripEmphasis removes markdown emphasis and labels such as "IMPORTANT:".
func stripEmphasis(s string) string {
	s = emphasisMarks.Replace(s)
	return strings.TrimSpace(emphasis.ReplaceAllString(strings.TrimSpace(s), ""))
}

// cleanRule trims labels, markdown emphasis and the final period.
func cleanRule(s string) string {
	s = stripEmphasis(s)
	s = strings.TrimRight(s, " .;")
	if r := []rune(s); len(r) > 200 {
		s = string(r[:199]) + "…"
	}
	return s
}

// sentences splits a line at '.', '!' or '?' followed by a space and an
// upper-case letter, keeping abbreviations such as "e.g. the" together.
func sentences(line string) []string {
	var out []string
	start := 0
	rs := []rune(line)
	for i := 0; i+2 < len(rs); i++ {
		if (rs[i] == '.' || rs[i] == '!' || rs[i] == '?') && rs[i+1] == ' ' && isUpper(rs[i+2]) {
			if rs[i] == '.' && isAbbrev(string(rs[start:i+1])) {
				continue
			}
			out = append(out, strings.TrimSpace(string(rs[start:i+1])))
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(string(rs[start:])); rest != "" {
		out = append(out, rest)
	}
	return out
}

func isUpper(r rune) bool { return r >= 'A' && r <= 'Z' }

func isAbbrev(s string) bool {
	l := strings.ToLower(s)
	for _, a := range []string{"e.g.", "i.e.", "etc.", "vs.", "approx."} {
		if strings.HasSuffix(l, a) {
			return true
		}
	}
	return false
}

func appendUnique(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}
