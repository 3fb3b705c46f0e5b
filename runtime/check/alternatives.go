package check

import (
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// MaxAlternatives bounds the branches of a union one message names
// (Alternatives): a schema may give a union thousands of branches, and a
// message naming them all would be longer than the arguments.
const MaxAlternatives = 6

// Alternatives joins the descriptions of n branches of a union, desc(i)
// for the i-th, with conj ("or", "and"): "A or B or C". Past
// MaxAlternatives the rest are counted, not named: "A or B or … or 12
// more".
func Alternatives(n int, desc func(i int) string, conj string) string {
	var b strings.Builder
	shown := min(n, MaxAlternatives)
	for i := range shown {
		if i > 0 {
			b.WriteString(" " + conj + " ")
		}
		b.WriteString(desc(i))
	}
	if n > shown {
		b.WriteString(" " + conj + " " + strconv.Itoa(n-shown) + " more")
	}
	return b.String()
}

// Alt describes one branch of a union for the message of a value that
// matches none of the union's branches (see Nearest), or several of a
// oneOf's. The generated decoders hold one per branch they try.
type Alt struct {
	// Desc names the values the branch accepts, as the messages of
	// Schema.Validate do: a definition's name ("Pet") for a branch that
	// refers to one, else its kind, and the first members an object
	// requires ("object with \"id\"").
	Desc string
	// Object reports an object branch; Required are the members it
	// requires and Known, sorted, those it declares; Closed reports that
	// it allows no other members (additionalProperties false, no
	// patternProperties).
	Object   bool
	Closed   bool
	Required []string
	Known    []string
}

// maxNearestKeys bounds the members of a value Nearest compares with
// the branches: a value with more is no one member away from a branch a
// model meant, and comparing costs a lookup per member and branch.
const maxNearestKeys = 64

// maxNearestWork bounds the member lookups of one Nearest call: a
// union may have thousands of branches declaring thousands of members,
// and a call's arguments may hold a hundred values that match none
// (wire.MaxErrors).
const maxNearestWork = 1 << 14

// Nearest finds the object branch of alts that an object whose member
// names are keys is one member away from: the object lacks one member
// the branch requires, has one member a closed branch does not declare,
// or has a misspelling (text.CloseName) of the one required member it
// lacks. what says what is wrong against that branch ("missing required
// property \"id\"", "unknown property \"x\""), and suggestion is the
// name a misspelt member was meant to be. ok is false when a branch's
// member names all fit (the value's members are wrong, not its names),
// when no branch is one member away, when several are equally near, or
// when comparing would take more than maxNearestWork lookups.
func Nearest(alts []Alt, keys []string) (i int, what, suggestion string, ok bool) {
	if len(keys) > maxNearestKeys {
		return 0, "", "", false
	}
	sorted := slices.Sorted(slices.Values(keys))
	// The best branch's edits (members to add, drop or respell) and, to
	// tell equals apart, the members it leaves undeclared. Branches more
	// than one edit away are passed over.
	best, bestEdits, bestLeft, tie := -1, 0, 0, false
	work := 0
	var undeclared []string
	for j := range alts {
		a := &alts[j]
		if !a.Object {
			continue
		}
		// The value has at most maxNearestKeys of the required members:
		// this loop stops after as many and two more.
		var buf [2]string
		missing := buf[:0]
		for _, r := range a.Required {
			work++
			if _, found := slices.BinarySearch(sorted, r); !found {
				missing = append(missing, r)
				if len(missing) > 1 {
					break
				}
			}
		}
		if work += len(keys); work > maxNearestWork {
			return 0, "", "", false
		}
		if len(missing) > 1 {
			continue
		}
		undeclared = undeclared[:0]
		for _, k := range keys {
			if _, found := slices.BinarySearch(a.Known, k); !found {
				undeclared = append(undeclared, k)
			}
		}
		edits := len(missing)
		if a.Closed {
			edits += len(undeclared)
		}
		left := len(undeclared)
		wrong, meant := "", ""
		if len(missing) == 1 {
			wrong = "missing required property " + quoteName(missing[0])
			// A member that is not declared, spelt like the missing one,
			// is the missing one misspelt: one edit, not two.
			for _, k := range undeclared {
				if text.CloseName(k, missing) != "" {
					wrong, meant = "unknown property "+quoteName(k), missing[0]
					edits, left = 1, left-1
					if a.Closed {
						edits += left
					}
					break
				}
			}
		} else if a.Closed && len(undeclared) == 1 {
			wrong = "unknown property " + quoteName(undeclared[0])
		}
		switch {
		case edits > 1:
		case best < 0 || edits < bestEdits || edits == bestEdits && left < bestLeft:
			best, bestEdits, bestLeft, tie = j, edits, left, false
			what, suggestion = wrong, meant
		case edits == bestEdits && left == bestLeft:
			tie = true
		}
	}
	if best < 0 || tie || bestEdits != 1 {
		return 0, "", "", false
	}
	return best, what, suggestion, true
}

// NoneMatched is the message of a value that matches none of the
// branches alts of a union, and what it was expected to be: "matches
// none of: A or B", naming the nearest branch and what is wrong against
// it when keys, the value's member names (nil for a value that is no
// object), are one member away from one (see Nearest), with the name
// meant as the suggestion.
func NoneMatched(alts []Alt, keys []string) (message, expected, suggestion string) {
	expected = Alternatives(len(alts), func(i int) string { return alts[i].Desc }, "or")
	message = "matches none of: " + expected
	if keys != nil {
		if i, what, meant, ok := Nearest(alts, keys); ok {
			message += "; nearest is " + alts[i].Desc + ": " + what
			suggestion = meant
		}
	}
	return message, expected, suggestion
}

// ManyMatched is the message of a value that matches n branches of a
// oneOf, of alts those numbered hit(0), ..., hit(n-1): "matches more
// than one of: A and B".
func ManyMatched(alts []Alt, n int, hit func(i int) int) string {
	return "matches more than one of: " + Alternatives(n, func(i int) string {
		if j := hit(i); j >= 0 && j < len(alts) {
			return alts[j].Desc
		}
		return "value"
	}, "and")
}

// quoteName quotes a member name for a message, cut to ReceivedLimit.
func quoteName(name string) string {
	return strconv.Quote(text.Truncate(name, ReceivedLimit))
}
