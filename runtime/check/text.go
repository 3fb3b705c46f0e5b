package check

import "github.com/toolgen-go/toolgen/runtime/text"

// The text helpers live in runtime/text, which imports the standard library
// only. Generated validators call them through this package (they import it
// for the validators anyway); the forwarders below keep that code unchanged,
// and the generator's section summaries use FirstSentence.

// ReceivedLimit is text.ReceivedLimit.
const ReceivedLimit = text.ReceivedLimit

// Closest is text.Closest: the candidate nearest to s, or "".
func Closest(s string, candidates []string) string { return text.Closest(s, candidates) }

// Truncate is text.Truncate.
func Truncate(s string, n int) string { return text.Truncate(s, n) }

// FirstSentence is text.FirstSentence.
func FirstSentence(s string, n int) string { return text.FirstSentence(s, n) }
