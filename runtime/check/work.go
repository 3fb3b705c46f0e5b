package check

import (
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The embedded validator tries every branch of an anyOf, oneOf or not on
// the value, and a branch that nests the same union tries its branches
// again, once per branch above it: JSON-logic's operands ("an array of
// rules, or one rule") checked 16 levels deep with a wrong value at the
// bottom took 5.9 s, and each level more doubles it. So Validate counts
// the schemas it evaluates on the value: past EvaluationsPerValue per
// JSON value in it (and MinEvaluations whatever its size) the value is
// refused, code maxWork, as generated decoders refuse unions tried too
// often (runtime/wire).
//
// The library has no hook per evaluation that is not skipped by a
// failing one, so each schema object of a compiled copy is given a format
// of its own, workFormat, whose check counts (a schema that has a format
// Format checks counts in that format's check; any other format is an
// annotation, and is replaced): a format is checked before the
// keywords that recurse, and an evaluation that stops before it (a wrong
// type, const or enum) does a bounded amount of work. Each copy counts
// for one call at a time: Validate takes one from the Schema's spares,
// compiling another when all are in use.
const (
	EvaluationsPerValue = 16
	MinEvaluations      = 1 << 14
)

// workFormat is the format given to schema objects for counting.
const workFormat = "toolgen-evaluation"

// evalWork is what one Validate call may still evaluate, and the budget
// its pattern matches are charged to.
type evalWork struct {
	left   int
	budget *Budget
}

// workExceeded unwinds a validation past its evalWork (caught in
// Schema.Validate).
type workExceeded struct{}

// counted returns the format check f, counting one evaluation first.
func (w *evalWork) counted(f func(any) error) func(any) error {
	return func(v any) error {
		if w.left--; w.left < 0 {
			panic(workExceeded{})
		}
		return f(v)
	}
}

// copyOf is one compiled copy of a Schema, with the work it counts.
type copyOf struct {
	s    *jsonschema.Schema
	work *evalWork
}

// take returns a copy of s not in use, compiling one when there is none
// (the first compile of the same text succeeded: this one does too).
func (s *Schema) take() (copyOf, error) {
	s.mu.Lock()
	if n := len(s.spare); n > 0 {
		c := s.spare[n-1]
		s.spare = s.spare[:n-1]
		s.mu.Unlock()
		return c, nil
	}
	s.mu.Unlock()
	return compileCopy(s.src, s.resources, s.url, nil)
}

// put returns c to s's spares.
func (s *Schema) put(c copyOf) {
	s.mu.Lock()
	s.spare = append(s.spare, c)
	s.mu.Unlock()
}

// addWorkFormat gives every schema object of the schema document doc
// that has no format the format workFormat, in place.
func addWorkFormat(doc any) {
	m, ok := doc.(map[string]any)
	if !ok {
		return
	}
	switch f, ok := m["format"]; {
	case !ok:
		m["format"] = workFormat
	case f != nil:
		// A format Format does not check is an annotation, as it is to
		// generated code (the library would assert "semver" and
		// "period"): it is replaced, and the check counts.
		if name, ok := f.(string); ok && !KnownFormat(name) {
			m["format"] = workFormat
		}
	}
	for k, v := range m {
		switch k {
		case "items", "additionalItems", "contains", "not", "if", "then", "else", "propertyNames",
			"additionalProperties", "unevaluatedItems", "unevaluatedProperties", "contentSchema":
			if list, ok := v.([]any); ok { // items as a list (drafts 4 to 2019-09)
				for _, x := range list {
					addWorkFormat(x)
				}
			} else {
				addWorkFormat(v)
			}
		case "allOf", "anyOf", "oneOf", "prefixItems":
			if list, ok := v.([]any); ok {
				for _, x := range list {
					addWorkFormat(x)
				}
			}
		case "$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies":
			// dependencies' members are schemas or lists of names.
			if members, ok := v.(map[string]any); ok {
				for _, x := range members {
					addWorkFormat(x)
				}
			}
		}
	}
}

// countValues returns the number of JSON values in the generic value v.
func countValues(v any) int {
	n := 1
	switch v := v.(type) {
	case []any:
		for _, x := range v {
			n += countValues(x)
		}
	case map[string]any:
		for _, x := range v {
			n += countValues(x)
		}
	}
	return n
}
