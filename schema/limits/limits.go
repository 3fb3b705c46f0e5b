// Package limits holds the bounds one generation puts on its input: the
// Limits type, its defaults and the message hint naming the manifest key
// that raises a limit. The manifest decodes them from limits:; the loader
// and the compiler enforce them. It has no dependencies beyond the
// standard library, so the loader need not link the manifest's YAML
// decoder.
package limits

import "fmt"

// Limits bound the work one generation does on its input. Definitions come
// from strangers: every limit ends in a located error naming the limit and
// the manifest key that raises it, never in a crash, a hang or unbounded
// memory. A zero field takes its Default value.
type Limits struct {
	// Depth is the deepest nesting of schemas (a property's schema, an
	// array's items, a union branch each add one level). The JSON nesting
	// of an input file is limited to JSONDepthFactor times Depth.
	// Manifest: limits.max_depth.
	Depth int
	// Properties is the most properties one object schema may declare
	// (required names without a property count as properties), and the
	// most patternProperties.
	// Manifest: limits.max_properties.
	Properties int
	// Enum is the most values one enum may list.
	// Manifest: limits.max_enum.
	Enum int
	// RefExpansions is the most schema expansions ($ref targets, allOf
	// conjuncts and union branches merged into views, and the properties,
	// required names and enum values a union's shared keywords merge into
	// each branch) one run may make;
	// it bounds schemas whose references fan out exponentially, and
	// unions whose every branch copies many shared properties.
	// Manifest: limits.max_ref_expansions.
	RefExpansions int
	// PatternSize is the most instructions the RE2 programs of one
	// generation's distinct patterns may hold together, counted
	// repetitions spelled out ([a-z]{1000} is 1,000): generated code
	// compiles every pattern when it starts, and a match takes up to its
	// program's size in steps per input byte. No one pattern may be
	// longer than PatternSize bytes either: it is refused unparsed, as
	// RE2's parser takes time growing faster than a pattern's length.
	// Manifest: limits.max_pattern_size.
	PatternSize int
	// IdentifierLength is the longest generated Go identifier, in bytes;
	// longer names derived from the input are shortened to a prefix plus
	// a hash of the whole name (never an error).
	// Manifest: limits.max_identifier_length.
	IdentifierLength int
	// OutputBytes is the most bytes the generated files may hold together.
	// Manifest: limits.max_output_bytes.
	OutputBytes int64
	// InputBytes is the most bytes one input file (tool definitions) may
	// hold; reading stops past it, so that /dev/zero or a runaway pipe
	// ends in an error, not in exhausted memory.
	// Manifest: limits.max_input_bytes.
	InputBytes int64
}

// Default are the limits used for fields left zero.
var Default = Limits{
	Depth:            64,
	Properties:       1000,
	Enum:             5000,
	RefExpansions:    200000,
	PatternSize:      200000,
	IdentifierLength: 120,
	OutputBytes:      64 << 20,
	InputBytes:       256 << 20,
}

// JSONDepthFactor times Limits.Depth is the deepest JSON nesting (arrays
// and objects) an input file may have: a schema level takes at most a few
// JSON levels ("properties" → name → schema, "anyOf" → index → schema).
const JSONDepthFactor = 8

// WithDefaults returns l with every zero (or negative) field set to its
// Default value.
func (l Limits) WithDefaults() Limits {
	d := Default
	if l.Depth <= 0 {
		l.Depth = d.Depth
	}
	if l.Properties <= 0 {
		l.Properties = d.Properties
	}
	if l.Enum <= 0 {
		l.Enum = d.Enum
	}
	if l.RefExpansions <= 0 {
		l.RefExpansions = d.RefExpansions
	}
	if l.PatternSize <= 0 {
		l.PatternSize = d.PatternSize
	}
	if l.IdentifierLength <= 0 {
		l.IdentifierLength = d.IdentifierLength
	}
	if l.OutputBytes <= 0 {
		l.OutputBytes = d.OutputBytes
	}
	if l.InputBytes <= 0 {
		l.InputBytes = d.InputBytes
	}
	return l
}

// JSONDepth is the JSON nesting limit of input files.
func (l Limits) JSONDepth() int { return JSONDepthFactor * l.Depth }

// Hint names the manifest setting that raises a limit, for messages.
func Hint(key string, value int64) string {
	return fmt.Sprintf("limit %d; raise limits.%s in the manifest", value, key)
}
