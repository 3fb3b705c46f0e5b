package check

import (
	"encoding/json"
	"fmt"
	"math/big"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// The embedded validator's violations are structured (an ErrorKind per
// keyword, with what it wanted and got); schemaErrors words them as
// generated validators and runtime/wire word the same violations, so that
// a model reads one sentence per meaning whichever of them found it:
//
//	type                  expected integer, received string "t"
//	additionalProperties  unknown property "b" (one per member, at its pointer, with a suggestion)
//	required              missing required property "x" (at the member's pointer)
//	enum, const           must be one of "a", "b" / must be "a"
//	minimum, ...          must be >= 1, must be > 0, must be <= 9, must be < 9
//	multipleOf            must be a multiple of 0.5
//	minLength, maxLength  must be at least 3 characters long
//	pattern               must match the pattern ^[a-z]+$
//	format                must be a valid date
//	minItems, maxItems    must have at least 2 items
//	uniqueItems           items 0 and 2 are equal
//	contains              must contain at least 1 matching item
//	anyOf, oneOf          matches none of: A or B (; nearest is A: unknown property "x") / matches more than one of: A and B
//	items (false)         at most 2 items are allowed (one per extra item)
//	false                 no value is allowed here
//
// The rest have sentences of their own (not, propertyNames,
// dependentRequired, ...), and a kind not mapped keeps the library's
// text.

// maxSuggestions bounds the unknown properties of one Validate call that
// get a suggestion (runtime/wire records at most wire.MaxErrors
// violations anyway).
const maxSuggestions = 100

// maxTokenBytes bounds each reference token of a path, as
// wire.MaxTokenBytes does in the decoder's.
const maxTokenBytes = 256

// schemaErrors flattens one validation's error tree into FieldErrors.
type schemaErrors struct {
	s      *Schema
	v      any    // the instance validated
	prefix string // the JSON pointer of v
	out    []runtime.FieldError
	// suggested counts the unknown properties given a suggestion.
	suggested int
	// known caches the property names of the schemas at locations, for
	// suggestions.
	known map[string][]string
}

// knownNames returns the property names the schema at loc declares
// (propertyNames), once per location and call.
func (c *schemaErrors) knownNames(loc string, applicators bool) []string {
	key := loc
	if applicators {
		key += "\x00"
	}
	if names, ok := c.known[key]; ok {
		return names
	}
	var names []string
	if sch := c.s.schemaAt(loc); sch != nil {
		names = propertyNames(sch, applicators)
	}
	if c.known == nil {
		c.known = map[string][]string{}
	}
	c.known[key] = names
	return names
}

// collect appends the FieldErrors of e: its leaves, except that anyOf,
// oneOf, contains and propertyNames report once instead of once per
// failed branch, item or name.
func (c *schemaErrors) collect(e *jsonschema.ValidationError) {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, cause := range e.Causes {
			c.collect(cause)
		}
		return
	}
	loc := e.InstanceLocation
	fe := runtime.FieldError{Path: pointer(c.prefix, loc), Code: keywordOf(e.ErrorKind)}
	value, found := valueAt(c.v, loc)
	// The received value, for the violations that show it (as wire's
	// do): rendering a large object costs, and a missing member or an
	// item count does not need it.
	received := ""
	if found {
		switch e.ErrorKind.(type) {
		case *kind.Required, *kind.DependentRequired, *kind.Dependency, *kind.AdditionalProperties, *kind.AdditionalItems,
			*kind.MinItems, *kind.MaxItems, *kind.MinProperties, *kind.MaxProperties, *kind.UniqueItems,
			*kind.Contains, *kind.MinContains, *kind.MaxContains, *kind.PropertyNames:
		default:
			received = Received(value)
		}
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Type:
		want := strings.Join(k.Want, " or ")
		fe.Message, fe.Expected, fe.Received = typeMessage(want, k.Got, received), want, received
	case *kind.Enum:
		list := jsonList(k.Want)
		fe.Message, fe.Expected, fe.Received = "must be one of "+list, list, received
		fe.Suggestion = closestString(k.Got, k.Want...)
	case *kind.Const:
		lit := jsonText(k.Want)
		fe.Message, fe.Expected, fe.Received = "must be "+lit, lit, received
		fe.Suggestion = closestString(k.Got, k.Want)
	case *kind.Format:
		fe.Message, fe.Expected, fe.Received = FormatMessage(k.Want), k.Want, received
	case *kind.Pattern:
		fe.Message, fe.Expected, fe.Received = "must match the pattern "+k.Want, "pattern "+k.Want, received
	case *kind.MinLength:
		count(&fe, "at least", k.Want, "character", " long")
		fe.Received = received
	case *kind.MaxLength:
		count(&fe, "at most", k.Want, "character", " long")
		fe.Received = received
	case *kind.Minimum:
		c.bound(&fe, e, "minimum", ">=", k.Want, received)
	case *kind.ExclusiveMinimum:
		c.bound(&fe, e, "exclusiveMinimum", ">", k.Want, received)
	case *kind.Maximum:
		c.bound(&fe, e, "maximum", "<=", k.Want, received)
	case *kind.ExclusiveMaximum:
		c.bound(&fe, e, "exclusiveMaximum", "<", k.Want, received)
	case *kind.MultipleOf:
		n := c.number(e, "multipleOf", k.Want)
		fe.Message, fe.Expected, fe.Received = "must be a multiple of "+n, "multiple of "+n, received
	case *kind.MinItems:
		count(&fe, "at least", k.Want, "item", "")
	case *kind.MaxItems:
		count(&fe, "at most", k.Want, "item", "")
	case *kind.MinProperties:
		count(&fe, "at least", k.Want, "property", "")
	case *kind.MaxProperties:
		count(&fe, "at most", k.Want, "property", "")
	case *kind.UniqueItems:
		fe.Message = "items " + strconv.Itoa(k.Duplicates[0]) + " and " + strconv.Itoa(k.Duplicates[1]) + " are equal"
		fe.Expected = "unique items"
	case *kind.Contains:
		// The item failures are no violations: the array lacks a match.
		fe.Code, fe.Message, fe.Expected = "contains", "must contain at least 1 matching item", "at least 1 matching item"
	case *kind.MinContains:
		fe.Code = "contains"
		fe.Message = "must contain at least " + plural(k.Want, "matching item")
		fe.Expected = "at least " + plural(k.Want, "matching item")
	case *kind.MaxContains:
		fe.Message = "must contain at most " + plural(k.Want, "matching item")
		fe.Expected = "at most " + plural(k.Want, "matching item")
	case *kind.Required:
		// One violation per missing member, at its pointer, as the
		// decoder reports a missing required property.
		for _, m := range k.Missing {
			fe.Path = pointer(c.prefix, append(slices.Clip(loc), m))
			fe.Message = "missing required property " + strconv.Quote(m)
			c.out = append(c.out, fe)
		}
		return
	case *kind.DependentRequired:
		c.dependent(fe, loc, k.Prop, k.Missing)
		return
	case *kind.Dependency:
		fe.Code = "dependencies"
		c.dependent(fe, loc, k.Prop, k.Missing)
		return
	case *kind.AdditionalProperties:
		known := c.knownNames(e.SchemaURL, false)
		names := slices.Sorted(slices.Values(k.Properties))
		for _, name := range names {
			c.unknown(fe, loc, name, known)
		}
		return
	case *kind.AdditionalItems:
		// Draft 7's additionalItems false: each item past the tuple.
		items, _ := value.([]any)
		allowed := len(items) - k.Count
		for i := max(allowed, 0); i < len(items); i++ {
			c.out = append(c.out, runtime.FieldError{
				Path:     pointer(c.prefix, append(slices.Clip(loc), strconv.Itoa(i))),
				Code:     "additionalItems",
				Message:  atMostItems(allowed),
				Received: Received(items[i]),
			})
		}
		return
	case *kind.FalseSchema:
		c.falseSchema(fe, e, received)
		return
	case *kind.Not:
		fe.Message, fe.Expected, fe.Received = `must not match the schema of "not"`, "", received
		if raw, ok := c.s.rawAt(e.SchemaURL, "not"); ok {
			sch := text.Truncate(jsonText(raw), ReceivedLimit)
			fe.Message, fe.Expected = "must not match the schema "+sch, "not "+sch
		}
	case *kind.AnyOf:
		alts := c.alternatives(e.SchemaURL, func(s *jsonschema.Schema) []*jsonschema.Schema { return s.AnyOf })
		fe.Message, fe.Expected, fe.Suggestion = NoneMatched(alts, memberNames(value))
		fe.Received = received
	case *kind.OneOf:
		alts := c.alternatives(e.SchemaURL, func(s *jsonschema.Schema) []*jsonschema.Schema { return s.OneOf })
		if len(k.Subschemas) == 0 {
			fe.Message, fe.Expected, fe.Suggestion = NoneMatched(alts, memberNames(value))
			fe.Received = received
		} else {
			fe.Message, fe.Expected, fe.Received = ManyMatched(alts, len(k.Subschemas), func(i int) int { return k.Subschemas[i] }), "exactly one of: "+Alternatives(len(alts), func(i int) string { return alts[i].Desc }, "or"), received
		}
	case *kind.PropertyNames:
		c.propertyName(fe, loc, k.Property, e.Causes)
		return
	default:
		if len(e.Causes) > 0 {
			for _, cause := range e.Causes {
				c.collect(cause)
			}
			return
		}
		// The kinds left (a $ref cycle on one value, a value that is
		// not JSON, contentEncoding and contentMediaType, whose
		// assertions are off): the library's sentence, without the
		// schema's internal URL.
		msg := e.ErrorKind.LocalizedString(printer)
		fe.Message, fe.Received = strings.ReplaceAll(msg, "mem:///toolgen/", ""), received
	}
	c.out = append(c.out, fe)
}

// typeMessage is the decoder's sentence for a value of the wrong type
// (wire.Decoder.Mismatch): the JSON type received and the value, but
// null alone.
func typeMessage(want, got, received string) string {
	if got == "null" || received == "" {
		return "expected " + want + ", received " + got
	}
	return "expected " + want + ", received " + got + " " + received
}

// bound words a violated numeric bound as generated validators do ("must
// be >= 1"), with the bound as the schema writes it.
func (c *schemaErrors) bound(fe *runtime.FieldError, e *jsonschema.ValidationError, keyword, op string, want *big.Rat, received string) {
	n := op + " " + c.number(e, keyword, want)
	fe.Message, fe.Expected, fe.Received = "must be "+n, n, received
}

// number returns the value of keyword in the schema at e.SchemaURL as the
// schema writes it, or want in decimal when it cannot be found (draft 4's
// boolean exclusiveMinimum, a schema with a $id of its own).
func (c *schemaErrors) number(e *jsonschema.ValidationError, keyword string, want *big.Rat) string {
	if raw, ok := c.s.rawAt(e.SchemaURL, keyword); ok {
		if n, ok := raw.(interface{ String() string }); ok {
			// The text as written, when it is a number: checked, not
			// built (1e999999's exact value takes 50 ms to build).
			if s := n.String(); s != "" && (s[0] == '-' || s[0] >= '0' && s[0] <= '9') && json.Valid([]byte(s)) {
				return s
			}
		}
	}
	return ratText(want)
}

// ratText writes r as a decimal: exactly when a few digits do (a
// schema's numbers are decimals), else as the nearest float64.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		if s := r.Num().String(); len(s) <= 21 {
			return s
		}
	} else {
		for prec := 1; prec <= 20; prec++ {
			s := r.FloatString(prec)
			if back, ok := new(big.Rat).SetString(s); ok && back.Cmp(r) == 0 {
				return s
			}
		}
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// dependent records one violation per member missing while prop is
// present (dependentRequired, draft 7's dependencies), at its pointer.
func (c *schemaErrors) dependent(fe runtime.FieldError, loc []string, prop string, missing []string) {
	for _, m := range missing {
		fe.Path = pointer(c.prefix, append(slices.Clip(loc), m))
		fe.Message = fmt.Sprintf("property %q is required when %q is present", m, prop)
		c.out = append(c.out, fe)
	}
}

// unknown records that the member name of the object at loc is not
// allowed, at the member's pointer, as the decoder reports an unknown
// property: suggesting the closest of known, and with no received value.
func (c *schemaErrors) unknown(fe runtime.FieldError, loc []string, name string, known []string) {
	fe.Path = pointer(c.prefix, append(slices.Clip(loc), name))
	fe.Received = ""
	if _, declared := slices.BinarySearch(known, name); declared {
		// Declared, but only by a subschema that did not apply (an
		// anyOf branch that failed, an if that did not hold): not
		// unknown, and whatever failed is reported too.
		fe.Message = "property " + strconv.Quote(text.Truncate(name, ReceivedLimit)) + " is not allowed here"
		c.out = append(c.out, fe)
		return
	}
	fe.Message = "unknown property " + strconv.Quote(text.Truncate(name, ReceivedLimit))
	if len(known) > 0 && c.suggested < maxSuggestions {
		c.suggested++
		fe.Suggestion = text.CloseName(name, known)
	}
	c.out = append(c.out, fe)
}

// falseSchema words the failure of a false subschema by the keyword that
// holds it: an unknown property under additionalProperties and
// unevaluatedProperties, an item past the tuple under items, and
// otherwise what the decoder says of a false schema.
func (c *schemaErrors) falseSchema(fe runtime.FieldError, e *jsonschema.ValidationError, received string) {
	parent, keyword, _ := cutLastToken(e.SchemaURL)
	loc := e.InstanceLocation
	member := ""
	if n := len(loc); n > 0 {
		member = loc[n-1]
	}
	switch keyword {
	case "additionalProperties", "unevaluatedProperties":
		if len(loc) > 0 {
			known := c.knownNames(parent, keyword == "unevaluatedProperties")
			fe.Code = keyword
			c.unknown(fe, loc[:len(loc)-1], member, known)
			return
		}
	case "items", "additionalItems":
		if sch := c.s.schemaAt(parent); sch != nil && len(loc) > 0 {
			allowed := len(sch.PrefixItems)
			if tuple, ok := sch.Items.([]*jsonschema.Schema); ok && keyword == "additionalItems" {
				allowed = len(tuple)
			}
			fe.Code = keyword
			fe.Message, fe.Received = atMostItems(allowed), received
			c.out = append(c.out, fe)
			return
		}
	case "unevaluatedItems":
		if len(loc) > 0 {
			fe.Code, fe.Message, fe.Received = keyword, "item "+member+" is not allowed", received
			c.out = append(c.out, fe)
			return
		}
	}
	fe.Code, fe.Message, fe.Received = "false", "no value is allowed here", received
	c.out = append(c.out, fe)
}

// propertyName records that the member name of the object at loc breaks
// propertyNames, at the member's pointer, with why (the sentences of
// causes, found on the name).
func (c *schemaErrors) propertyName(fe runtime.FieldError, loc []string, name string, causes []*jsonschema.ValidationError) {
	sub := schemaErrors{s: c.s, v: name}
	for _, cause := range causes {
		sub.collect(cause)
	}
	fe.Path = pointer(c.prefix, append(slices.Clip(loc), name))
	fe.Message = "invalid property name " + strconv.Quote(text.Truncate(name, ReceivedLimit))
	fe.Received = ReceivedString(name)
	var why []string
	for _, f := range sub.out {
		if f.Code == "false" {
			continue // the name's schema is false: nothing to add
		}
		why = append(why, f.Message)
		if fe.Expected == "" {
			fe.Expected = f.Expected
		}
		if fe.Suggestion == "" {
			fe.Suggestion = f.Suggestion
		}
	}
	if len(why) > 0 {
		fe.Message += ": " + strings.Join(why, "; ")
	}
	c.out = append(c.out, fe)
}

// alternatives describes the subschemas of the anyOf or oneOf of the
// schema at loc for "matches none of: A or B", as the generated decoders
// describe a union's branches (type names, a referenced definition's
// name, a constant, the members an object requires), and for Nearest.
func (c *schemaErrors) alternatives(loc string, of func(*jsonschema.Schema) []*jsonschema.Schema) []Alt {
	sch := c.s.schemaAt(loc)
	if sch == nil {
		return []Alt{{Desc: "the allowed schemas"}}
	}
	list := of(sch)
	alts := make([]Alt, len(list))
	for i, b := range list {
		alts[i] = altOf(b)
	}
	return alts
}

// altOf describes the subschema s as a branch of a union (see Alt).
func altOf(s *jsonschema.Schema) Alt {
	a := Alt{Desc: describe(s, 0)}
	// A branch that only refers to an object's schema is that object.
	for depth := 0; s != nil && s.Ref != nil && s.Properties == nil && s.Required == nil && depth < 8; depth++ {
		s = s.Ref
	}
	if s == nil || shape(s, 0) != "object" {
		return a
	}
	a.Object, a.Required = true, s.Required
	for name := range s.Properties {
		a.Known = append(a.Known, name)
	}
	slices.Sort(a.Known)
	switch ap := s.AdditionalProperties.(type) {
	case bool:
		a.Closed = !ap
	case *jsonschema.Schema:
		a.Closed = ap != nil && ap.Bool != nil && !*ap.Bool
	}
	a.Closed = a.Closed && len(s.PatternProperties) == 0
	return a
}

// memberNames returns the member names of v when it is an object
// (Nearest compares them with a union's branches), nil otherwise.
func memberNames(v any) []string {
	m, ok := v.(map[string]any)
	if !ok || len(m) > maxNearestKeys {
		return nil
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// describe names the shape a subschema accepts, for messages: an object
// the subschema requires members of names the first of them ("object
// with \"a\""), which tells a oneOf of required lists apart.
func describe(s *jsonschema.Schema, depth int) string {
	d := shape(s, depth)
	if d == "object" && len(s.Required) > 0 {
		names := s.Required
		if len(names) > 3 {
			names = names[:3]
		}
		quoted := make([]string, len(names))
		for i, n := range names {
			quoted[i] = strconv.Quote(text.Truncate(n, ReceivedLimit))
		}
		d += " with " + strings.Join(quoted, ", ")
		if len(names) < len(s.Required) {
			d += ", …"
		}
	}
	return d
}

// shape names the kind of value a subschema accepts.
func shape(s *jsonschema.Schema, depth int) string {
	switch {
	case s == nil || depth > 8:
		return "value"
	case s.Bool != nil:
		if *s.Bool {
			return "any value"
		}
		return "nothing"
	case s.Ref != nil:
		if name := definitionName(s.Ref.Location); name != "" {
			return text.Truncate(name, ReceivedLimit)
		}
		return describe(s.Ref, depth+1)
	case s.Const != nil:
		return text.Truncate(jsonText(*s.Const), ReceivedLimit)
	case s.Types != nil && !s.Types.IsEmpty():
		types := s.Types.ToStrings()
		if len(types) == 1 && types[0] == "string" && s.Format != nil {
			switch s.Format.Name {
			case "date-time", "date", "time", "duration":
				return s.Format.Name
			}
		}
		return strings.Join(types, " or ")
	case s.DynamicRef != nil && s.DynamicRef.Ref != nil:
		return describe(s.DynamicRef.Ref, depth+1)
	case s.Enum != nil:
		kinds := map[string]bool{}
		for _, v := range s.Enum.Values {
			kinds[jsonType(v)] = true
		}
		if len(kinds) == 1 {
			for k := range kinds {
				return k
			}
		}
	case s.Properties != nil || s.Required != nil || s.PatternProperties != nil || s.AdditionalProperties != nil ||
		s.MinProperties != nil || s.MaxProperties != nil || s.PropertyNames != nil || s.DependentRequired != nil:
		return "object"
	case s.PrefixItems != nil || s.Items2020 != nil || s.Items != nil || s.Contains != nil || s.MinItems != nil || s.MaxItems != nil:
		return "array"
	case s.Pattern != nil || s.MinLength != nil || s.MaxLength != nil:
		return "string"
	case s.Minimum != nil || s.Maximum != nil || s.ExclusiveMinimum != nil || s.ExclusiveMaximum != nil || s.MultipleOf != nil:
		return "number"
	case len(s.AllOf) == 1:
		return describe(s.AllOf[0], depth+1)
	}
	return "value"
}

// definitionName is the last token of a referenced schema's location
// (the name of a definition, "Pet" of #/$defs/Pet), or "" for a document
// root.
func definitionName(loc string) string {
	_, last, ok := cutLastToken(loc)
	if !ok {
		return ""
	}
	return last
}

// jsonType is the JSON type name of a generic value: KindOf's, with an
// integer a number.
func jsonType(v any) string {
	if k := KindOf(v); k != "integer" && k != "" {
		return k
	}
	return "number"
}

// propertyNames returns the names the schema s declares in properties,
// sorted; with applicators, also those its in-place subschemas declare
// (allOf, anyOf, oneOf, if/then/else, dependentSchemas, $ref), which
// unevaluatedProperties sees as evaluated.
func propertyNames(s *jsonschema.Schema, applicators bool) []string {
	seen := map[*jsonschema.Schema]bool{}
	set := map[string]bool{}
	var walk func(s *jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] || len(seen) > 1000 {
			return
		}
		seen[s] = true
		for name := range s.Properties {
			set[name] = true
		}
		if !applicators {
			return
		}
		for _, list := range [][]*jsonschema.Schema{s.AllOf, s.AnyOf, s.OneOf, {s.If, s.Then, s.Else, s.Ref}} {
			for _, sub := range list {
				walk(sub)
			}
		}
		for _, sub := range s.DependentSchemas {
			walk(sub)
		}
		if s.DynamicRef != nil {
			walk(s.DynamicRef.Ref)
		}
	}
	walk(s)
	return slices.Sorted(func(yield func(string) bool) {
		for name := range set {
			if !yield(name) {
				return
			}
		}
	})
}

// closestString suggests the string of want nearest got (a misspelt
// enum value), as generated validators do; "" when got is no string.
func closestString(got any, want ...any) string {
	s, ok := got.(string)
	if !ok {
		return ""
	}
	var candidates []string
	for _, w := range want {
		if w, ok := w.(string); ok {
			candidates = append(candidates, w)
		}
	}
	if len(candidates) == 0 {
		return ""
	}
	return Closest(s, candidates)
}

// jsonText writes a value of a schema (a const, an enum's value, a
// subschema) as compact JSON.
func jsonText(v any) string {
	b, err := text.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// jsonList writes values as generated validators list an enum's: JSON
// texts separated by ", ".
func jsonList(values []any) string {
	var b strings.Builder
	for i, v := range values {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(jsonText(v))
	}
	return b.String()
}

// atMostItems says that an array may hold n items and no more, as the
// generated decoders say it.
func atMostItems(n int) string {
	if n == 1 {
		return "at most 1 item is allowed"
	}
	return fmt.Sprintf("at most %d items are allowed", n)
}

// count words a bound on a count: "must have at least 2 items", or with
// a tail "must be at most 1 character long" (the verb follows the tail:
// a length is, a list has).
func count(fe *runtime.FieldError, bound string, n int, noun, tail string) {
	verb := "must have "
	if tail != "" {
		verb = "must be "
	}
	c := plural(n, noun)
	fe.Message, fe.Expected = verb+bound+" "+c+tail, bound+" "+c
}

// plural is "1 item" or "n items" ("1 property", "n properties").
func plural(n int, noun string) string {
	if n != 1 {
		if strings.HasSuffix(noun, "y") {
			noun = noun[:len(noun)-1] + "ies"
		} else {
			noun += "s"
		}
	}
	return strconv.Itoa(n) + " " + noun
}

// schemaAt returns the compiled subschema at loc (a violation's
// SchemaURL), or nil.
func (s *Schema) schemaAt(loc string) *jsonschema.Schema {
	s.atOnce.Do(func() {
		s.at = map[string]*jsonschema.Schema{}
		walkCompiled(s.s, func(x *jsonschema.Schema) {
			if _, seen := s.at[x.Location]; !seen {
				s.at[x.Location] = x
			}
		})
	})
	return s.at[loc]
}

// rawAt returns the value the schema document holds at loc (a
// subschema's location) followed by the member names path, as the
// document writes it; ok is false when the document or a member is not
// there (a subschema under a $id of its own is located by that URI).
func (s *Schema) rawAt(loc string, path ...string) (v any, ok bool) {
	base, frag, _ := strings.Cut(loc, "#")
	v, ok = s.docs[base]
	if !ok {
		return nil, false
	}
	var toks []string
	if frag != "" {
		for _, tok := range strings.Split(frag, "/")[1:] {
			t, err := url.PathUnescape(tok)
			if err != nil {
				return nil, false
			}
			toks = append(toks, pointerUnescaper.Replace(t))
		}
	}
	return valueAt(v, append(toks, path...))
}

// cutLastToken splits a schema location into the location of its parent
// and its last reference token (unescaped); ok is false at a document's
// root.
func cutLastToken(loc string) (parent, last string, ok bool) {
	_, frag, _ := strings.Cut(loc, "#")
	i := strings.LastIndexByte(loc, '/')
	if frag == "" || i < len(loc)-len(frag) {
		return loc, "", false
	}
	tok, err := url.PathUnescape(loc[i+1:])
	if err != nil {
		tok = loc[i+1:]
	}
	return loc[:i], pointerUnescaper.Replace(tok), true
}

// pointerUnescaper undoes a JSON pointer token's escapes (RFC 6901).
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// valueAt returns the part of v at the instance location tokens.
func valueAt(v any, tokens []string) (any, bool) {
	for _, tok := range tokens {
		switch x := v.(type) {
		case map[string]any:
			m, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = m
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// maxPointerBytes bounds a path, as wire.MaxPointerBytes does the
// decoder's: a longer one keeps the tokens that fit and ends in the token
// "…". A value 500 levels deep under 256-byte member names otherwise gave
// each of its violations a 128 kB pointer (1,000 violations: 128 MB of
// pointers, 500 MB allocated, for 160 kB of arguments).
const maxPointerBytes = 1024

// pointerCutMark ends a pointer cut to maxPointerBytes.
const pointerCutMark = "/…"

// pointer writes prefix, a JSON pointer, followed by the instance
// location tokens, each token escaped and cut to maxTokenBytes as the
// decoder cuts the pointers it records (a hostile megabyte-long member
// name stays short), and the whole cut to maxPointerBytes.
//
// A prefix already cut (ending in "/…", as the decoder's pointers past
// wire.MaxPointerBytes do) is the pointer: the tokens below it are left
// out rather than written after its mark; a long prefix is cut at one of
// its own tokens.
func pointer(prefix string, tokens []string) string {
	if len(tokens) == 0 || strings.HasSuffix(prefix, pointerCutMark) {
		return prefix
	}
	var b strings.Builder
	b.WriteString(prefix)
	fit := len(prefix)
	if room := maxPointerBytes - len(pointerCutMark); fit > room {
		fit = max(strings.LastIndexByte(prefix[:room+1], '/'), 0)
	}
	for _, t := range tokens {
		b.WriteByte('/')
		if len(t) > maxTokenBytes {
			cut := maxTokenBytes - len("…")
			for cut > 0 && !utf8.RuneStart(t[cut]) {
				cut--
			}
			b.WriteString(text.PointerToken(t[:cut]))
			b.WriteString("…")
		} else {
			b.WriteString(text.PointerToken(t))
		}
		switch n := b.Len(); {
		case n <= maxPointerBytes-len(pointerCutMark):
			fit = n
		case n > maxPointerBytes:
			return b.String()[:fit] + pointerCutMark
		}
	}
	return b.String()
}

// sortByPath orders violations by their pointers, comparing array
// indexes as numbers ("/2" before "/10"), keeping the validator's order
// at one path. The validator walks objects in map order; this makes the
// report the same from one call to the next.
func sortByPath(fs []runtime.FieldError) {
	slices.SortStableFunc(fs, func(a, b runtime.FieldError) int { return comparePointers(a.Path, b.Path) })
}

func comparePointers(a, b string) int {
	for a != "" && b != "" {
		// Both start with '/': compare their first tokens.
		a, b = a[1:], b[1:]
		i, j := tokenEnd(a), tokenEnd(b)
		if ta, tb := a[:i], b[:j]; ta != tb {
			if index(ta) && index(tb) && len(ta) != len(tb) {
				return len(ta) - len(tb)
			}
			return strings.Compare(ta, tb)
		}
		a, b = a[i:], b[j:]
	}
	return len(a) - len(b)
}

// tokenEnd is the end of the first reference token of p (without its
// leading '/').
func tokenEnd(p string) int {
	if i := strings.IndexByte(p, '/'); i >= 0 {
		return i
	}
	return len(p)
}

// index reports whether tok is an array index (decimal digits).
func index(tok string) bool {
	if tok == "" {
		return false
	}
	for i := 0; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return false
		}
	}
	return true
}
