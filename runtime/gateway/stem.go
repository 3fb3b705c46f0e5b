package gateway

import "strings"

// stem reduces a lowercased English word to a stem shared by its
// inflections and derivations, so that "calculate", "calculator",
// "calculation" and "calculating" meet, and so do "reserve",
// "reservation" and "reserving". It follows the measure-based suffix
// rules of Porter's algorithm (1980): a suffix is removed only when what
// is left has enough vowel-consonant sequences (its measure) to still be
// a word. The same function runs on queries and on definitions, so it
// only has to be consistent, not to produce dictionary words. Words of
// three letters or fewer or more than maxStemLen, words that are not
// ASCII letters, and a few words whose plural-looking end is part of the
// word are kept as they are.
func stem(w string) string {
	if len(w) <= 3 || len(w) > maxStemLen || !isLowerASCII(w) || invariant[w] {
		return w
	}
	w = stemPlural(w)
	w = stemInflection(w)
	// y after a consonant-containing stem is i ("query", "queries").
	if strings.HasSuffix(w, "y") && hasVowel(w[:len(w)-1]) {
		w = w[:len(w)-1] + "i"
	}
	w = stemSuffix(w, derivational, 0)
	w = stemSuffix(w, derivational2, 0)
	w = stemSuffix(w, residual, 1)
	return stemFinal(w)
}

// maxStemLen bounds the words stemmed: longer ones are identifiers or
// data, not English words, and the rules' cost grows with the length.
const maxStemLen = 40

// invariant words end like an inflection but are not one.
var invariant = setOf("news", "series", "species", "bus", "gas", "status", "analysis", "basis", "axis", "canvas", "alias", "atlas")

func isLowerASCII(w string) bool {
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return false
		}
	}
	return true
}

// isConsonant reports whether w[i] is a consonant: a letter other than
// a, e, i, o, u, and y unless it follows a consonant.
func isConsonant(w string, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		return i == 0 || !isConsonant(w, i-1)
	}
	return true
}

// measure is the number of vowel-consonant sequences of w: written as
// [C](VC)^m[V], it is m ("tr" 0, "tree" 0, "trouble" 1, "private" 2).
func measure(w string) int {
	m := 0
	prevConsonant := false
	for i := 0; i < len(w); i++ {
		var c bool
		switch w[i] {
		case 'a', 'e', 'i', 'o', 'u':
		case 'y':
			c = i == 0 || !prevConsonant
		default:
			c = true
		}
		// a consonant after a vowel closes one VC sequence
		if c && i > 0 && !prevConsonant {
			m++
		}
		prevConsonant = c
	}
	return m
}

func hasVowel(w string) bool {
	for i := range len(w) {
		if !isConsonant(w, i) {
			return true
		}
	}
	return false
}

// doubleConsonant reports w ending in a doubled consonant ("hopp").
func doubleConsonant(w string) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isConsonant(w, n-1)
}

// shortSyllable reports w ending consonant-vowel-consonant, the last not
// w, x or y ("hop", "fil"): such a stem keeps or regains a final e.
func shortSyllable(w string) bool {
	n := len(w)
	if n < 3 || !isConsonant(w, n-3) || isConsonant(w, n-2) || !isConsonant(w, n-1) {
		return false
	}
	c := w[n-1]
	return c != 'w' && c != 'x' && c != 'y'
}

// stemPlural removes a plural s.
func stemPlural(w string) string {
	switch {
	case strings.HasSuffix(w, "sses"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ies"):
		return w[:len(w)-2]
	case strings.HasSuffix(w, "ss"), strings.HasSuffix(w, "us"), strings.HasSuffix(w, "is"):
		return w
	case strings.HasSuffix(w, "s"):
		return w[:len(w)-1]
	}
	return w
}

// stemInflection removes -ed and -ing, restoring the e or undoubling the
// consonant that the inflection changed ("hoping" hope, "hopping" hop).
func stemInflection(w string) string {
	var rest string
	switch {
	case strings.HasSuffix(w, "eed"):
		if measure(w[:len(w)-3]) > 0 {
			return w[:len(w)-1]
		}
		return w
	case strings.HasSuffix(w, "ed"):
		rest = w[:len(w)-2]
	case strings.HasSuffix(w, "ing"):
		rest = w[:len(w)-3]
	default:
		return w
	}
	if !hasVowel(rest) {
		return w
	}
	switch {
	case strings.HasSuffix(rest, "at"), strings.HasSuffix(rest, "bl"), strings.HasSuffix(rest, "iz"):
		return rest + "e"
	case doubleConsonant(rest):
		if c := rest[len(rest)-1]; c != 'l' && c != 's' && c != 'z' {
			return rest[:len(rest)-1]
		}
	case measure(rest) == 1 && shortSyllable(rest):
		return rest + "e"
	}
	return rest
}

// suffixRule replaces a suffix when the stem left has a measure above
// the rule set's minimum.
type suffixRule struct{ from, to string }

// Derivational suffixes, longest first within a shared ending: the
// first rule whose suffix matches decides, applied or not.
var (
	derivational = []suffixRule{
		{"ational", "ate"}, {"tional", "tion"}, {"enci", "ence"}, {"anci", "ance"}, {"izer", "ize"},
		{"bli", "ble"}, {"alli", "al"}, {"entli", "ent"}, {"eli", "e"}, {"ousli", "ous"},
		{"ization", "ize"}, {"ation", "ate"}, {"ator", "ate"}, {"alism", "al"}, {"iveness", "ive"},
		{"fulness", "ful"}, {"ousness", "ous"}, {"aliti", "al"}, {"iviti", "ive"}, {"biliti", "ble"},
		{"logi", "log"},
	}
	derivational2 = []suffixRule{
		{"icate", "ic"}, {"ative", ""}, {"alize", "al"}, {"iciti", "ic"}, {"ical", "ic"}, {"ful", ""}, {"ness", ""},
	}
	residual = []suffixRule{
		{"al", ""}, {"ance", ""}, {"ence", ""}, {"er", ""}, {"ic", ""}, {"able", ""}, {"ible", ""}, {"ant", ""},
		{"ement", ""}, {"ment", ""}, {"ent", ""}, {"ion", ""}, {"ou", ""}, {"ism", ""}, {"ate", ""},
		{"iti", ""}, {"ous", ""}, {"ive", ""}, {"ize", ""},
	}
)

// stemSuffix applies the longest rule of rules whose suffix w has, when
// the stem left has a measure above min.
func stemSuffix(w string, rules []suffixRule, min int) string {
	best := -1
	last := w[len(w)-1]
	for i, r := range rules {
		if r.from[len(r.from)-1] != last {
			continue
		}
		if strings.HasSuffix(w, r.from) && (best < 0 || len(r.from) > len(rules[best].from)) {
			best = i
		}
	}
	if best < 0 {
		return w
	}
	r := rules[best]
	rest := w[:len(w)-len(r.from)]
	// -ion goes only after s or t ("adoption", "decision"; not "onion").
	if r.from == "ion" && !strings.HasSuffix(rest, "s") && !strings.HasSuffix(rest, "t") {
		return w
	}
	if measure(rest) > min {
		return rest + r.to
	}
	return w
}

// stemFinal drops a final e, and one l of a final ll, from a long stem.
func stemFinal(w string) string {
	if strings.HasSuffix(w, "e") {
		rest := w[:len(w)-1]
		if m := measure(rest); m > 1 || m == 1 && !shortSyllable(rest) {
			w = rest
		}
	}
	if strings.HasSuffix(w, "ll") && measure(w) > 1 {
		w = w[:len(w)-1]
	}
	return w
}
