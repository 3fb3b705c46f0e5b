// Package check holds the helpers toolgen-generated validators call.
//
// Data flow: a model's arguments are decoded by runtime/wire into the
// generated params structs; each struct's generated Validate method then
// checks the constraints of its JSON Schema with plain Go code, calling into
// this package for what is not a one-liner: ECMA-262 patterns (Regexp, run on
// Go's RE2 engine when the pattern means the same there, on an ECMAScript
// backtracking engine otherwise), formats (Format and the per-format
// functions), exact decimal multipleOf, code-point lengths, JSON deep
// equality and uniqueness for generic values, and an embedded JSON Schema validator
// (Schema) for the keywords toolgen does not compile to Go.
//
// The text helpers used in messages to a model (Closest, Truncate,
// Received, FirstSentence, PointerToken) live in runtime/text, which imports
// the standard library only, so gateway, matryoshka and prompt do not link
// this package. Closest, Truncate, Received, ReceivedLimit and FirstSentence
// are forwarded here because generated validators and the generator call
// them by this package's name.
//
// Numeric bounds (minimum, maximum, exclusive*) need no helper: the generator
// emits them as Go literals of the field's type — float literals for number
// fields, and for integer fields the bound rounded inward (minimum 1.5 on an
// integer becomes >= 2), so comparisons are exact without parsing text at
// run time.
//
// The embedded validator runs on github.com/santhosh-tekuri/jsonschema/v6: it
// passes the draft 2020-12 suite files this package tests against
// (TestSchemaSuite), aggregates every violation with its keyword and
// instance location, and was the fastest of the three candidates on valid
// input in BenchmarkEmbedded* (compare_test.go: about 8µs per valid
// instance, against about 15µs for xeipuuv/gojsonschema and
// google/jsonschema-go, which also stops at the first error).
// Its violations are reworded (schema_errors.go) in the sentences
// runtime/wire and generated validators use for the same violation
// ("expected integer, received string \"t\"", "unknown property \"y\""
// at the member's own pointer, "must be >= 1", "matches none of: A or
// B"), so that a model reads one wording whichever of them found it.
//
// The hot helpers (Len, Divisor.Of and OfInt, MultipleOf, MultipleOfInt,
// Regexp.MatchString on the RE2 path, most formats) do not allocate on
// valid input. Generated code parses what it can once, as package
// variables: patterns (MustCompile) and multipleOf divisors (NewDivisor).
package check
