package check

import "regexp/syntax"

// translatedSize is about the number of instructions of the RE2 program of
// tr, a pattern regexp.Compile accepted, without building it: the program
// spells out each counted repetition as copies of its body.
func translatedSize(tr string) int {
	re, err := syntax.Parse(tr, syntax.Perl)
	if err != nil {
		return 0
	}
	return progSize(re) + 2 // the program's failure and match
}

// sizeCap keeps progSize's sums far from overflow; RE2 refuses programs
// far smaller.
const sizeCap = 1 << 40

// progSize is about the number of instructions RE2 compiles re into: one
// per rune of a literal, one per class or assertion, one per choice
// (between alternatives; star, plus, question mark), two per capture
// group, and a counted repetition's body once per count it may reach.
func progSize(re *syntax.Regexp) int {
	n := 0
	switch re.Op {
	case syntax.OpLiteral:
		n = len(re.Rune)
	case syntax.OpCapture:
		n = progSize(re.Sub[0]) + 2
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest:
		n = progSize(re.Sub[0]) + 1
	case syntax.OpRepeat:
		// x{2,4} is xx(x(x)?)?, x{2,} is xxx*: a copy per count, and a
		// choice per optional copy.
		count := re.Max
		if count < 0 {
			count = re.Min + 1
		}
		n = progSize(re.Sub[0])*count + count - re.Min
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			n += progSize(sub)
		}
	case syntax.OpAlternate:
		n = len(re.Sub) - 1
		for _, sub := range re.Sub {
			n += progSize(sub)
		}
	default:
		n = 1
	}
	return min(n, sizeCap)
}

// PatternSize is about the number of instructions of the RE2 program
// Compile would build for an ECMA-262 pattern, found without building it;
// 0 when the pattern would run on the ECMAScript engine or is invalid.
func PatternSize(pattern string) int {
	tr, err := translateECMA(pattern)
	if err != nil {
		return 0
	}
	return translatedSize(tr)
}
