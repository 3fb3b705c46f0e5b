// Package check holds the helpers toolgen-generated validators call.
//
// Data flow: a model's arguments are decoded by runtime/wire into the
// generated params structs; each struct's generated Validate method then
// checks the constraints of its JSON Schema with plain Go code, calling into
// this package for what is not a one-liner: ECMA-262 patterns (Regexp, run on
// Go's RE2 engine when the pattern means the same there, on an ECMAScript
// backtracking engine otherwise), formats (Format and the per-format
// functions), exact decimal multipleOf, code-point lengths, JSON deep
// equality and uniqueness for generic values, closest-match suggestions for
// enum values and argument names, and an embedded JSON Schema validator
// (Schema) for the keywords toolgen does not compile to Go.
//
// The same small text helpers serve every runtime package that writes
// messages for a model, so that all surfaces suggest, cut and point alike:
// Closest and Distance (typo suggestions and rankings in runtime/wire,
// runtime/gateway and runtime/matryoshka), Truncate (received values),
// FirstSentence (one-line summaries in gateway help and facade answers) and
// PointerToken (FieldError paths). The generator side links this package
// too: schema compiles patterns with Compile, so a pattern is accepted at
// generation time exactly when the generated code can run it, and the
// generator cuts summaries with FirstSentence; schema/manifest.go and
// schema/taxonomy_args.go still hold rules of their own for suggestions and
// argument summaries.
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
//
// The hot helpers (Len, MultipleOf, MultipleOfInt, Regexp.MatchString on the
// RE2 path, most formats) do not allocate on valid input.
package check
