package check

import (
	"encoding/json"
	"math"
	goruntime "runtime"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The embedded validator tries every branch of an anyOf, oneOf or not on
// the value, and a branch that nests the same union tries its branches
// again, once per branch above it: JSON-logic's operands ("an array of
// rules, or one rule") checked 16 levels deep with a wrong value at the
// bottom took 5.9 s, and each level more doubles it. So Validate counts
// the schemas it evaluates on the value: past EvaluationsPerValue per
// JSON value in it (or the schema's width, when it applies more of its
// subschemas to one value without nesting them), and MinEvaluations
// whatever its size, the value is refused, code maxWork, as generated
// decoders refuse unions tried too often (runtime/wire).
//
// The library has no hook per evaluation that is not skipped by a
// failing one, so each schema object of a compiled copy is given a format
// of its own, workFormat, whose check counts (a schema that has a format
// Format checks counts in that format's check; any other format is an
// annotation, and is replaced; see also countCompiled): a format is
// checked before the keywords that recurse, and an evaluation that stops
// before it (a wrong type, const or enum) is counted by the schema that
// applied it to the same value, or does a bounded amount of work (a
// member's or an item's). Each copy counts for one call at a time:
// Validate takes one from the Schema's spares, compiling another when all
// are in use.
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

// put returns c to s's spares, unless s keeps spareLimit() already: a
// burst of calls at once compiles a copy for each, and the copies past
// those the processors can use stay garbage, not kept for the process's
// life (a copy takes about 3 times the schema's size in memory, and 3 ms
// to compile for a 9 KB one).
func (s *Schema) put(c copyOf) {
	s.mu.Lock()
	if len(s.spare) < spareLimit() {
		s.spare = append(s.spare, c)
	}
	s.mu.Unlock()
}

// spareLimit is the number of copies a Schema keeps for calls to come:
// two per processor, as calls do not block while checking.
func spareLimit() int { return 2 * goruntime.GOMAXPROCS(0) }

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

// countCompiled gives every schema object reachable from root in its
// compiled graph a counting format: addWorkFormat edits the keywords it
// knows, but a $ref may point anywhere in a document (under a keyword
// it does not know), drafts 4 to 7 ignore the format beside a $ref, a
// dialect may leave format out, and "regex" is checked by the library's
// own engine; the validator checks a schema's format whatever its draft.
// counting are the formats that count already.
//
// A schema's check also counts the subschemas it applies to the same
// value that stop before their own format (a wrong type, a const, an
// enum, false): each costs an error whose instance location is as long
// as the value is deep, and an anyOf of 100 null schemas nested in
// itself took 6.5 s for a rule 254 levels deep (88 s once width allowed
// it more evaluations).
func (w *evalWork) countCompiled(root *jsonschema.Schema, counting map[*jsonschema.Format]bool) {
	var noop *jsonschema.Format
	walkCompiled(root, func(x *jsonschema.Schema) {
		if x.Bool != nil {
			return
		}
		switch f := x.Format; {
		case f != nil && counting[f]:
		case f != nil && KnownFormat(f.Name):
			x.Format = &jsonschema.Format{Name: f.Name, Validate: w.counted(f.Validate)}
		default: // none, or one Format does not check (an annotation)
			if noop == nil {
				noop = &jsonschema.Format{Name: workFormat, Validate: w.counted(func(any) error { return nil })}
			}
			x.Format = noop
		}
		var early []uint8 // the types each subschema that may stop early accepts
		sameValue(x, func(sub *jsonschema.Schema) {
			switch {
			case sub == nil:
			case sub.Bool != nil:
				if !*sub.Bool {
					early = append(early, 0)
				}
			case sub.Const != nil || sub.Enum != nil:
				early = append(early, 0) // may stop whatever the type
			case sub.Types != nil && !sub.Types.IsEmpty():
				early = append(early, typeMask(sub.Types.ToStrings()))
			}
		})
		if len(early) > 0 {
			f := x.Format
			x.Format = &jsonschema.Format{Name: f.Name, Validate: func(v any) error {
				t := typeBit(v)
				n := 0
				for _, m := range early {
					if m&t == 0 {
						n++
					}
				}
				if w.left -= n; w.left < 0 {
					panic(workExceeded{})
				}
				return f.Validate(v)
			}}
		}
	})
}

// JSON types as bits, for countCompiled.
const (
	tNull uint8 = 1 << iota
	tBoolean
	tInteger
	tNumber // not an integer
	tString
	tArray
	tObject
)

// typeMask returns the bits of the types named (a "type" keyword's).
func typeMask(names []string) uint8 {
	var m uint8
	for _, name := range names {
		switch name {
		case "null":
			m |= tNull
		case "boolean":
			m |= tBoolean
		case "integer":
			m |= tInteger
		case "number":
			m |= tInteger | tNumber
		case "string":
			m |= tString
		case "array":
			m |= tArray
		case "object":
			m |= tObject
		}
	}
	return m
}

// typeBit returns the bit of the JSON type of the generic value v (a
// number the validator might take for an integer is one).
func typeBit(v any) uint8 {
	switch v := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case string:
		return tString
	case []any:
		return tArray
	case map[string]any:
		return tObject
	case float64:
		if v == math.Trunc(v) {
			return tInteger
		}
		return tNumber
	case json.Number:
		if f, err := v.Float64(); err == nil && f != math.Trunc(f) {
			return tNumber
		}
		return tInteger
	}
	return tInteger
}

// walkCompiled calls visit once for each compiled schema reachable from
// root through the keywords that hold subschemas.
func walkCompiled(root *jsonschema.Schema, visit func(*jsonschema.Schema)) {
	seen := map[*jsonschema.Schema]bool{root: true}
	stack := []*jsonschema.Schema{root}
	push := func(sub *jsonschema.Schema) {
		if sub != nil && !seen[sub] {
			seen[sub] = true
			stack = append(stack, sub)
		}
	}
	for len(stack) > 0 {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visit(x)
		sameValue(x, push)
		otherValues(x, push)
	}
}

// maxWidth bounds what width returns.
const maxWidth = 1 << 8

// width returns the largest number of schemas the validator may apply to
// one value without nesting (at most maxWidth): those reachable from a
// schema evaluated on a value of its own (root, or a member's, an item's,
// ...) through the keywords that apply to the same value, each counted
// once. A value takes that many evaluations whatever the value (an allOf
// of 32 if/then conditions on each item of an array: 97), so Validate
// allows as many per value when there are more than EvaluationsPerValue;
// only alternatives nested in themselves take more.
func width(root *jsonschema.Schema) int {
	widest := 1
	entries := map[*jsonschema.Schema]bool{root: true}
	walkCompiled(root, func(x *jsonschema.Schema) {
		otherValues(x, func(sub *jsonschema.Schema) {
			if sub != nil {
				entries[sub] = true
			}
		})
	})
	seen := map[*jsonschema.Schema]*jsonschema.Schema{} // by the entry that reached it last
	for e := range entries {
		n, stack := 0, []*jsonschema.Schema{e}
		seen[e] = e
		for len(stack) > 0 && n < maxWidth {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			n++
			sameValue(x, func(sub *jsonschema.Schema) {
				if sub != nil && seen[sub] != e {
					seen[sub] = e
					stack = append(stack, sub)
				}
			})
		}
		widest = max(widest, n)
	}
	return widest
}

// sameValue calls push with the subschemas of x the validator applies to
// the value x is evaluated on (some may be nil).
func sameValue(x *jsonschema.Schema, push func(*jsonschema.Schema)) {
	for _, sub := range []*jsonschema.Schema{x.Ref, x.RecursiveRef, x.Not, x.If, x.Then, x.Else} {
		push(sub)
	}
	if x.DynamicRef != nil {
		push(x.DynamicRef.Ref)
	}
	for _, list := range [][]*jsonschema.Schema{x.AllOf, x.AnyOf, x.OneOf} {
		for _, sub := range list {
			push(sub)
		}
	}
	for _, sub := range x.DependentSchemas {
		push(sub)
	}
	for _, dep := range x.Dependencies {
		if sub, ok := dep.(*jsonschema.Schema); ok {
			push(sub)
		}
	}
}

// otherValues calls push with the subschemas of x the validator applies
// to other values: members, items, property names, decoded content (some
// may be nil).
func otherValues(x *jsonschema.Schema, push func(*jsonschema.Schema)) {
	for _, sub := range []*jsonschema.Schema{x.PropertyNames, x.UnevaluatedProperties, x.Contains, x.Items2020,
		x.UnevaluatedItems, x.ContentSchema} {
		push(sub)
	}
	for _, sub := range x.PrefixItems {
		push(sub)
	}
	for _, sub := range x.Properties {
		push(sub)
	}
	for _, sub := range x.PatternProperties {
		push(sub)
	}
	for _, a := range []any{x.AdditionalProperties, x.Items, x.AdditionalItems} {
		switch a := a.(type) {
		case *jsonschema.Schema:
			push(a)
		case []*jsonschema.Schema:
			for _, sub := range a {
				push(sub)
			}
		}
	}
}
