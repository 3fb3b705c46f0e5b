package prompt

import "fmt"

// Visibility is how a section renders: in full, or as its summary.
type Visibility uint8

const (
	// VisibilityFull renders the section's template, its children and its
	// tools. It is the zero value.
	VisibilityFull Visibility = iota
	// VisibilitySummary renders the section's summary and the open_sections
	// suffix; its children and tools stay hidden until it is opened.
	VisibilitySummary
)

// String returns "FULL" or "SUMMARY".
func (v Visibility) String() string {
	switch v {
	case VisibilityFull:
		return "FULL"
	case VisibilitySummary:
		return "SUMMARY"
	}
	return fmt.Sprintf("Visibility(%d)", uint8(v))
}

// Overrides maps section paths (dot-joined keys, "context.examples") to the
// visibility they render with, replacing the declared one.
type Overrides map[string]Visibility

// Merge returns a new map holding every layer, later layers winning. Call it
// as Merge(callerOverrides, expansion.RequestedOverrides) so that the
// precedence is declared < caller < requested by open_sections.
func Merge(layers ...Overrides) Overrides {
	n := 0
	for _, l := range layers {
		n += len(l)
	}
	out := make(Overrides, n)
	for _, l := range layers {
		for k, v := range l {
			out[k] = v
		}
	}
	return out
}
