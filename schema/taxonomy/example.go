package taxonomy

import (
	"bytes"
	"encoding/json"
	"math"
	"math/big"
	"regexp/syntax"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/check"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// SynthesizeExample builds a ready-to-run call from the required args, with
// placeholder values of the right type.
func SynthesizeExample(path string, t *ir.Tool) ir.Example {
	ex, _ := synthesizeExample(path, summaryNode(t.ParamsSchema))
	return ex
}

// synthesizeExample is SynthesizeExample on the tool's parsed parameters
// schema. ok is false when the embedded validator refuses the example
// (a constraint the placeholders do not meet: uniqueItems, not, a
// pattern no placeholder matches …): help shows examples as calls to
// copy, and a call the tool refuses is no example.
func synthesizeExample(path string, params *jsonpos.Node) (ex ir.Example, ok bool) {
	sy := &synth{root: params}
	args := sy.args(params, 0)
	desc := "Call " + path
	if args != "{}" {
		desc += " with its required args"
	}
	if sy.slow {
		return ir.Example{}, false
	}
	return ir.Example{Description: desc, Args: json.RawMessage(args)}, !sy.doubt && !unsure(params, 0) || validExample(params, args)
}

// synth makes the placeholders of one schema's example.
type synth struct {
	root *jsonpos.Node // where local $refs are followed
	// doubt is set when a placeholder may not meet its schema (a pattern
	// no placeholder matched, bounds no number meets, values cut short).
	doubt bool
	// slow is set by a pattern only the backtracking engine runs: the
	// example is not checked, and not given.
	slow bool
	// values is how many placeholders were made: past maxExampleValues,
	// arrays and objects are left empty (eight items of eight items …
	// six deep made 262,144 of them).
	values int
	// views memoizes merged views by schema: the items of an array
	// are one schema, merged once (an allOf of 64 $refs to 20,000
	// properties, merged for each of 256 placeholders, took 12 s).
	views map[*jsonpos.Node]view
}

// view is a merged view of a schema (mergedConflict).
type view struct {
	n        *jsonpos.Node
	conflict bool
}

// merged is mergedConflict(sy.root, p, branch), memoized.
func (sy *synth) merged(p *jsonpos.Node, branch bool) (*jsonpos.Node, bool) {
	if v, ok := sy.views[p]; ok && branch {
		return v.n, v.conflict
	}
	n, conflict := mergedConflict(sy.root, p, branch)
	if branch {
		if sy.views == nil {
			sy.views = map[*jsonpos.Node]view{}
		}
		sy.views[p] = view{n, conflict}
	}
	return n, conflict
}

// maxExampleValues bounds the placeholders of one example.
const maxExampleValues = 256

// validExample reports whether the embedded validator accepts args for
// params (a schema it cannot compile alone accepts them: the compile
// reports what is wrong with it).
func validExample(params *jsonpos.Node, args string) bool {
	if params == nil {
		return true
	}
	s, err := check.CompileSchema(string(params.AppendJSON(nil)))
	if err != nil {
		return true
	}
	dec := json.NewDecoder(strings.NewReader(args))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	return len(s.Validate(v, "")) == 0
}

// unsureKeywords are the keywords whose constraints the placeholders may
// not meet: a schema with none of them gets an example that meets it
// without a check (compiling a schema for the embedded validator costs
// about as much as the rest of the taxonomy).
var unsureKeywords = map[string]bool{
	"not": true, "if": true, "dependentRequired": true, "dependentSchemas": true,
	"dependencies": true, "minProperties": true, "maxProperties": true, "propertyNames": true,
	"contains": true, "patternProperties": true, "unevaluatedProperties": true,
	"unevaluatedItems": true, "uniqueItems": true, "oneOf": true, "allOf": true,
	"$dynamicRef": true, "$recursiveRef": true, "default": true, "examples": true,
	"additionalItems": true,
}

// unsure reports whether schema n holds a keyword the placeholders may not
// meet (unsureKeywords, or a format without a sample), at any depth.
func unsure(n *jsonpos.Node, depth int) bool {
	if n == nil {
		return false
	}
	if depth > maxExampleDepth*4 {
		return true
	}
	switch n.Kind {
	case jsonpos.ObjectNode:
		for _, m := range n.Members {
			switch {
			case unsureKeywords[m.Key]:
				return true
			case m.Key == "format" && m.Value.Kind == jsonpos.StringNode:
				if _, ok := formatSamples[m.Value.Str]; !ok {
					return true
				}
			case m.Key == "enum" || m.Key == "const" || m.Key == "description" || m.Key == "title":
				continue // values, not schemas
			}
			if unsure(m.Value, depth+1) {
				return true
			}
		}
	case jsonpos.ArrayNode:
		for _, it := range n.Items {
			if unsure(it, depth+1) {
				return true
			}
		}
	}
	return false
}

// SynthesizeArgs builds a JSON object holding placeholder values for the
// required properties of an object schema.
func SynthesizeArgs(objectSchema json.RawMessage, depth int) string {
	root := summaryNode(objectSchema)
	return (&synth{root: root}).args(root, depth)
}

// maxExampleDepth is how deep an example nests required objects and
// arrays; below it an object is {} and an array [].
const maxExampleDepth = 6

// maxRefHops is how many $refs in a row the summaries follow.
const maxRefHops = 8

// synthesizeArgs is SynthesizeArgs on a parsed object schema: its required
// properties, in schema order, then those required but not declared (of
// additionalProperties' schema, when it has one), in the order required
// lists them: the call must hold them too. Local $refs are followed in
// root; allOf conjuncts and the first branch of anyOf or oneOf are read as
// part of the object (merged).
func (sy *synth) args(object *jsonpos.Node, depth int) string {
	object, conflict := sy.merged(object, true)
	sy.doubt = sy.doubt || conflict
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	member := func(name string, schema *jsonpos.Node) {
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(jsonString(name))
		b.WriteByte(':')
		b.WriteString(sy.value(name, schema, depth))
	}
	required := stringSet(object.Get("required"))
	props := object.Get("properties")
	if props != nil && props.Kind != jsonpos.ObjectNode {
		props = nil
	}
	if props != nil {
		for _, m := range props.Members {
			if required[m.Key] {
				member(m.Key, m.Value)
			}
		}
	}
	if req := object.Get("required"); req != nil && req.Kind == jsonpos.ArrayNode {
		extra := object.Get("additionalProperties")
		if extra != nil && extra.Kind != jsonpos.ObjectNode && (extra.Kind != jsonpos.BoolNode || extra.Bool) {
			extra = nil // false stays: value doubts a member of it
		}
		done := map[string]bool{}
		for _, it := range req.Items {
			if it.Kind != jsonpos.StringNode || done[it.Str] || props != nil && props.Get(it.Str) != nil {
				continue
			}
			done[it.Str] = true
			member(it.Str, extra)
		}
	}
	b.WriteByte('}')
	return b.String()
}

// follow returns the schema p's $ref names in root, a few hops along a
// chain of them (a cycle reads as the schema the last hop names).
func follow(root, p *jsonpos.Node) *jsonpos.Node {
	for range maxRefHops {
		t := localRef(root, nodeString(p.Get("$ref")))
		if t == nil {
			break
		}
		p = t
	}
	return p
}

// annotations are keywords that constrain no value.
var annotations = map[string]bool{
	"title": true, "description": true, "$comment": true, "deprecated": true,
	"readOnly": true, "writeOnly": true, "$defs": true, "definitions": true,
	"$schema": true, "$id": true, "$anchor": true,
}

// maxMerged bounds the schemas one merged view takes in: allOf conjuncts
// whose own conjuncts are $refs fan out.
const maxMerged = 64

// merged is p read as one schema for the summaries: its $ref followed,
// the members of its allOf conjuncts (and, with branch set, of its first
// anyOf or oneOf branch that is not null) added after its own, properties
// and required names joined, any other keyword kept from the first schema
// that has it. p itself when there is nothing to merge.
func merged(root, p *jsonpos.Node, branch bool) *jsonpos.Node {
	p, _ = mergedConflict(root, p, branch)
	return p
}

// mergedConflict is merged, with conflict set when a keyword (or a
// property) the view takes from one schema is said otherwise by another
// it merged: a value made for the view may not meet the other.
func mergedConflict(root, p *jsonpos.Node, branch bool) (view *jsonpos.Node, conflict bool) {
	conflict = refSiblings(root, p)
	p = follow(root, p)
	if p == nil || p.Kind != jsonpos.ObjectNode {
		return p, conflict
	}
	budget := maxMerged
	view = mergeInto(root, p, branch, &budget, &conflict)
	return view, conflict
}

func mergeInto(root, p *jsonpos.Node, branch bool, budget *int, conflict *bool) *jsonpos.Node {
	var parts []*jsonpos.Node
	if all := p.Get("allOf"); nonEmptyArray(all) {
		parts = append(parts, all.Items...)
	}
	if branch {
		for _, key := range []string{"oneOf", "anyOf"} {
			if bs := p.Get(key); nonEmptyArray(bs) {
				if b := firstBranch(root, bs); b != nil {
					parts = append(parts, b)
				}
				break
			}
		}
	}
	if len(parts) == 0 || *budget <= 0 {
		return p
	}
	out := &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: p.Pos}
	var props, req *jsonpos.Node
	// seen is the keywords taken, by key; propSeen and reqSeen the
	// properties and required names (looked up by a scan, thousands of
	// properties merged 64 times took seconds).
	seen := map[string]*jsonpos.Node{}
	propSeen := map[string]*jsonpos.Node{}
	reqSeen := map[string]bool{}
	differ := func(a, b *jsonpos.Node) {
		if a != b && !bytes.Equal(a.JSON(), b.JSON()) {
			*conflict = true
		}
	}
	add := func(s *jsonpos.Node) {
		for _, m := range s.Members {
			switch m.Key {
			case "allOf", "anyOf", "oneOf", "$ref":
				// merged already (the branches of a conjunct are not)
			case "properties":
				if m.Value.Kind != jsonpos.ObjectNode {
					continue
				}
				if props == nil {
					props = &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: m.Value.Pos}
					out.Members = append(out.Members, jsonpos.Member{Key: "properties", Value: props})
				}
				for _, pm := range m.Value.Members {
					if prev, ok := propSeen[pm.Key]; ok {
						differ(prev, pm.Value)
						continue
					}
					propSeen[pm.Key] = pm.Value
					props.Members = append(props.Members, pm)
				}
			case "required":
				if m.Value.Kind != jsonpos.ArrayNode {
					continue
				}
				if req == nil {
					req = &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: m.Value.Pos}
					out.Members = append(out.Members, jsonpos.Member{Key: "required", Value: req})
				}
				for _, it := range m.Value.Items {
					if it.Kind == jsonpos.StringNode && !reqSeen[it.Str] {
						reqSeen[it.Str] = true
						req.Items = append(req.Items, it)
					}
				}
			default:
				if prev, ok := seen[m.Key]; ok {
					if !annotations[m.Key] {
						differ(prev, m.Value)
					}
				} else {
					seen[m.Key] = m.Value
					out.Members = append(out.Members, m)
				}
			}
		}
	}
	add(p)
	for _, part := range parts {
		if *budget--; *budget < 0 {
			break
		}
		if refSiblings(root, part) {
			*conflict = true
		}
		part = follow(root, part)
		if part == nil || part.Kind != jsonpos.ObjectNode {
			continue
		}
		add(mergeInto(root, part, branch, budget, conflict))
	}
	return out
}

// firstBranch is the first branch of a union that is not the null
// schema (followed through its $ref), as written.
func firstBranch(root, branches *jsonpos.Node) *jsonpos.Node {
	for _, b := range branches.Items {
		f := follow(root, b)
		if f == nil || f.Kind != jsonpos.ObjectNode {
			continue
		}
		if ts := typeNames(f); len(ts) == 1 && ts[0] == "null" {
			continue
		}
		return b
	}
	return nil
}

// refSiblings reports whether a schema along the chain of $refs follow
// takes from p says more beside its $ref: following it leaves that
// behind.
func refSiblings(root, p *jsonpos.Node) bool {
	for range maxRefHops {
		ref := p.Get("$ref")
		if ref == nil {
			return false
		}
		for _, m := range p.Members {
			if m.Key != "$ref" && !annotations[m.Key] {
				return true
			}
		}
		if p = localRef(root, nodeString(ref)); p == nil {
			return false
		}
	}
	return false
}

// placeholder returns a JSON value of the schema's type for property name;
// arrays get their least number of items (one at least) and objects their
// required properties, down to maxExampleDepth. Values meet the schema's
// enum, const, bounds, lengths, format and pattern where they can.
func (sy *synth) value(name string, p *jsonpos.Node, depth int) string {
	if sy.values++; sy.values > maxExampleValues {
		depth = maxExampleDepth // the rest are cut short
		sy.doubt = true
	}
	p, conflict := sy.merged(p, true)
	if conflict || p != nil && (p.Kind == jsonpos.BoolNode && !p.Bool || p.Get("$ref") != nil) {
		// Merged schemas that disagree, the false schema, a $ref not
		// followed (a cycle of them, an anchor).
		sy.doubt = true
	}
	if p != nil && p.Kind == jsonpos.ObjectNode {
		if enum := p.Get("enum"); nonEmptyArray(enum) {
			return sy.given(p, enum.Items)
		}
		for _, key := range []string{"const", "default"} {
			if v := p.Get(key); v != nil {
				return sy.given(p, []*jsonpos.Node{v})
			}
		}
		if ex := p.Get("examples"); nonEmptyArray(ex) {
			return sy.given(p, ex.Items)
		}
	}
	ty := ""
	for _, t := range typeNames(p) {
		if t != "null" {
			ty = t
			break
		}
	}
	if ty == "" {
		switch {
		case p.Get("properties") != nil || p.Get("required") != nil:
			ty = "object"
		case p.Get("items") != nil || p.Get("prefixItems") != nil:
			ty = "array"
		case len(typeNames(p)) == 1:
			ty = "null"
		}
	}
	switch ty {
	case "integer", "number":
		v, ok := numberIn(p, ty == "integer")
		sy.doubt = sy.doubt || !ok
		return v
	case "boolean":
		return "true"
	case "array":
		return sy.array(name, p, depth)
	case "object":
		if depth < maxExampleDepth {
			return sy.args(p, depth+1)
		}
		if nonEmptyArray(p.Get("required")) {
			sy.doubt = true // required members cut off
		}
		return "{}"
	case "null":
		return "null"
	}
	v, ok, slow := stringFor(name, p)
	sy.slow = sy.slow || !ok && slow
	sy.doubt = sy.doubt || !ok
	return jsonString(v)
}

// given is the first of values (an enum's, a const …) of a type p allows,
// else the first; doubt is set when p says more than a type and such
// values, or when no value is of its type.
func (sy *synth) given(p *jsonpos.Node, values []*jsonpos.Node) string {
	for _, m := range p.Members {
		if !annotations[m.Key] && m.Key != "type" && m.Key != "enum" && m.Key != "const" && m.Key != "default" && m.Key != "examples" {
			sy.doubt = true
			break
		}
	}
	types := typeNames(p)
	for _, v := range values {
		if len(types) == 0 || slices.ContainsFunc(types, func(t string) bool { return ofType(v, t) }) {
			return string(v.JSON())
		}
	}
	sy.doubt = true
	return string(values[0].JSON())
}

// ofType reports whether value v is of JSON Schema type t.
func ofType(v *jsonpos.Node, t string) bool {
	switch v.Kind {
	case jsonpos.StringNode:
		return t == "string"
	case jsonpos.BoolNode:
		return t == "boolean"
	case jsonpos.NullNode:
		return t == "null"
	case jsonpos.ObjectNode:
		return t == "object"
	case jsonpos.ArrayNode:
		return t == "array"
	case jsonpos.NumberNode:
		if t == "number" {
			return true
		}
		r, ok := exactNumber(v.Num)
		return t == "integer" && ok && r.IsInt()
	}
	return false
}

// arrayOf is an array placeholder: minItems items (at least one, at most
// eight), of prefixItems then items.
func (sy *synth) array(name string, p *jsonpos.Node, depth int) string {
	minItems := intKeyword(p, "minItems", 0)
	if depth >= maxExampleDepth || intKeyword(p, "maxItems", -1) == 0 {
		sy.doubt = sy.doubt || minItems > 0
		return "[]"
	}
	n := min(max(minItems, 1), 8)
	sy.doubt = sy.doubt || minItems > n
	var prefix []*jsonpos.Node
	if pi := p.Get("prefixItems"); pi != nil && pi.Kind == jsonpos.ArrayNode {
		prefix = pi.Items
	}
	items := p.Get("items")
	if items != nil && items.Kind == jsonpos.ArrayNode { // draft-07 tuple
		prefix, items = items.Items, p.Get("additionalItems")
	}
	var b strings.Builder
	b.WriteByte('[')
items:
	for i := range n {
		var s *jsonpos.Node // nil: any value
		switch {
		case i < len(prefix):
			s = prefix[i]
		case items != nil && items.Kind == jsonpos.ObjectNode:
			s = items
		case items != nil && items.Kind == jsonpos.BoolNode && !items.Bool:
			// No further item is allowed.
			sy.doubt = sy.doubt || i < minItems
			break items
		}
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(sy.value(singular(name), s, depth+1))
	}
	b.WriteByte(']')
	return b.String()
}

// intKeyword is a non-negative integer keyword of p, or def.
func intKeyword(p *jsonpos.Node, key string, def int) int {
	v := p.Get(key)
	if v == nil || v.Kind != jsonpos.NumberNode {
		return def
	}
	f, err := strconv.ParseFloat(v.Num, 64)
	if err != nil && !math.IsInf(f, 1) || f < 0 || f != math.Trunc(f) {
		return def
	}
	// A count past 2^20 is as good as 2^20 (it was read as absent: a
	// minLength of 2,000,000 as none).
	return int(min(f, 1<<20))
}

// numberIn is 1, or the value nearest it within p's bounds that is a
// multiple of its multipleOf (an integer when integer is set); ok is false
// when the value found is outside the bounds.
func numberIn(p *jsonpos.Node, integer bool) (s string, ok bool) {
	num := func(key string) (float64, bool) {
		v := p.Get(key)
		if v == nil || v.Kind != jsonpos.NumberNode {
			return 0, false
		}
		f, err := strconv.ParseFloat(v.Num, 64)
		return f, err == nil && !math.IsInf(f, 0)
	}
	step := 0.0
	if m, ok := num("multipleOf"); ok && m > 0 {
		step = m
	}
	if integer && (step == 0 || step != math.Trunc(step)) {
		if step == 0 {
			step = 1
		} else {
			step = 0 // a fractional divisor of integers: the check below says
		}
	}
	lo, hasLo := num("minimum")
	if x, ok := num("exclusiveMinimum"); ok && (!hasLo || x >= lo) {
		lo, hasLo = nextAbove(x, step), true
	}
	hi, hasHi := num("maximum")
	if x, ok := num("exclusiveMaximum"); ok && (!hasHi || x <= hi) {
		hi, hasHi = -nextAbove(-x, step), true
	}
	v := 1.0
	if hasLo && v < lo {
		v = lo
	}
	if hasHi && v > hi {
		v = hi
	}
	if step > 0 {
		if up := math.Ceil(v/step) * step; !hasHi || up <= hi {
			v = up
		} else {
			v = math.Floor(v/step) * step
		}
	}
	if integer && v != math.Trunc(v) {
		if up := math.Ceil(v); !hasHi || up <= hi {
			v = up
		} else {
			v = math.Floor(v)
		}
	}
	if integer || v == math.Trunc(v) && math.Abs(v) < 1e15 {
		s = strconv.FormatFloat(v, 'f', -1, 64)
	} else {
		s = strconv.FormatFloat(v, 'g', -1, 64)
	}
	// The arithmetic above is in float64: past 2^53, next to 1e308 or on
	// a decimal multipleOf (0.1 * 3 is 0.30000000000000004) its value
	// may miss what the bounds say, which the decimals written decide.
	return s, meetsBounds(p, s, integer)
}

// meetsBounds reports whether number s (decimal text) meets p's bounds and
// multipleOf exactly, and is an integer when integer is set; false when
// a number is too large or too fine to tell.
func meetsBounds(p *jsonpos.Node, s string, integer bool) bool {
	v, ok := exactNumber(s)
	if !ok || integer && !v.IsInt() {
		return false
	}
	for _, key := range []string{"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"} {
		b := p.Get(key)
		if b != nil && b.Kind == jsonpos.BoolNode && b.Bool {
			return false // draft 4's exclusive bounds
		}
		if b == nil || b.Kind != jsonpos.NumberNode {
			continue
		}
		x, ok := exactNumber(b.Num)
		if !ok {
			return false
		}
		c := v.Cmp(x)
		switch key {
		case "minimum":
			ok = c >= 0
		case "maximum":
			ok = c <= 0
		case "exclusiveMinimum":
			ok = c > 0
		case "exclusiveMaximum":
			ok = c < 0
		case "multipleOf":
			ok = x.Sign() > 0 && new(big.Rat).Quo(v, x).IsInt()
		}
		if !ok {
			return false
		}
	}
	return true
}

// exactNumber is the exact value of JSON number s; false when its
// exponent is past ±400 (big.Rat would build 10^exponent).
func exactNumber(s string) (*big.Rat, bool) {
	if i := strings.IndexAny(s, "eE"); i >= 0 {
		e, err := strconv.Atoi(strings.TrimPrefix(s[i+1:], "+"))
		if err != nil || e > 400 || e < -400 {
			return nil, false
		}
	}
	if len(s) > 1000 {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

// nextAbove is the least value above x worth trying: x plus the step, or
// plus one, or halfway to the next integer.
func nextAbove(x, step float64) float64 {
	switch {
	case step > 0:
		return math.Floor(x/step)*step + step
	case x == math.Trunc(x):
		return x + 1
	}
	return math.Ceil(x)
}

// formatSamples are string placeholders that meet a format.
var formatSamples = map[string]string{
	"uuid":          "00000000-0000-0000-0000-000000000000",
	"date-time":     "2025-01-01T00:00:00Z",
	"date":          "2025-01-01",
	"time":          "12:00:00Z",
	"duration":      "P1D",
	"email":         "user@example.com",
	"idn-email":     "user@example.com",
	"hostname":      "example.com",
	"idn-hostname":  "example.com",
	"ipv4":          "192.0.2.1",
	"ipv6":          "2001:db8::1",
	"uri":           "https://example.com",
	"url":           "https://example.com",
	"iri":           "https://example.com",
	"uri-reference": "https://example.com",
	"iri-reference": "https://example.com",
	"json-pointer":  "/a",
	"regex":         ".*",
}

// stringFor is a string placeholder: a sample of the format, else
// "<name>", fitted to the lengths and, when it does not match the
// pattern, a string made from the pattern; ok is false when the string
// found does not match the pattern, and slow too when the pattern needs
// the backtracking engine (lookaround or a backreference: a match may take
// the runtime's whole limit, 100 ms, and validating the example as many
// again, so such an op gets no example rather than seconds of generation).
func stringFor(name string, p *jsonpos.Node) (str string, ok, slow bool) {
	s, known := formatSamples[nodeString(p.Get("format"))]
	if !known {
		s = "<" + name + ">"
	}
	pattern := nodeString(p.Get("pattern"))
	var re *check.Regexp
	if pattern != "" {
		if r, err := check.Compile(pattern); err == nil {
			re, slow = r, r.Backtracking()
		}
	}
	minLen, maxLen := intKeyword(p, "minLength", 0), intKeyword(p, "maxLength", -1)
	fit := func(s string) string {
		if n := utf8.RuneCountInString(s); n < minLen {
			s += strings.Repeat("x", min(minLen-n, 256))
		}
		if maxLen >= 0 && utf8.RuneCountInString(s) > maxLen {
			s = strings.Repeat("x", max(minLen, min(maxLen, 1)))
		}
		return s
	}
	// A string of the wrong length, or a format's sample changed to fit
	// the lengths or replaced to match the pattern, may be refused.
	fits := func(str string) bool {
		n := utf8.RuneCountInString(str)
		return n >= minLen && (maxLen < 0 || n <= maxLen) && (!known || str == s)
	}
	if str = fit(s); !fits(str) {
		return str, false, slow
	}
	s = str
	switch {
	case re == nil:
		return s, true, false
	case slow:
		return s, false, true
	case re.MatchString(s):
		return s, true, false
	}
	if g, ok := fromPattern(pattern, minLen); ok && re.MatchString(g) {
		return g, fits(g), false
	}
	return s, false, false
}

// maxPatternSample bounds a string made from a pattern.
const maxPatternSample = 256

// fromPattern makes a short string the pattern matches, of at least
// minLen characters when it can: each repetition its least count (more
// while the string is short of minLen and the repetition allows), each
// alternation its first branch, each class a letter or digit it holds. ok
// is false for a pattern RE2 cannot read or whose shortest match is long.
func fromPattern(pattern string, minLen int) (string, bool) {
	tr, ok := check.RE2Syntax(pattern) // \u4e00 is ECMA-262's, \x{4e00} RE2's
	if !ok {
		return "", false
	}
	re, err := syntax.Parse(tr, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	need := minLen
	var walk func(re *syntax.Regexp) bool
	// more repeats sub while the string is short, up to extra times
	// (-1: no bound).
	more := func(sub *syntax.Regexp, extra int) bool {
		for ; need > 0 && extra != 0; extra-- {
			n := b.Len()
			if !walk(sub) {
				return false
			}
			if b.Len() == n {
				break
			}
		}
		return true
	}
	walk = func(re *syntax.Regexp) bool {
		if b.Len() > maxPatternSample {
			return false
		}
		switch re.Op {
		case syntax.OpLiteral:
			b.WriteString(string(re.Rune))
			need -= len(re.Rune)
		case syntax.OpCharClass:
			b.WriteRune(classRune(re.Rune))
			need--
		case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
			b.WriteByte('a')
			need--
		case syntax.OpCapture:
			return walk(re.Sub[0])
		case syntax.OpStar, syntax.OpQuest:
			extra := -1
			if re.Op == syntax.OpQuest {
				extra = 1
			}
			return more(re.Sub[0], extra)
		case syntax.OpPlus:
			return walk(re.Sub[0]) && more(re.Sub[0], -1)
		case syntax.OpRepeat:
			for range re.Min {
				if !walk(re.Sub[0]) {
					return false
				}
			}
			extra := -1
			if re.Max >= 0 {
				extra = re.Max - re.Min
			}
			return more(re.Sub[0], extra)
		case syntax.OpConcat:
			for _, s := range re.Sub {
				if !walk(s) {
					return false
				}
			}
		case syntax.OpAlternate:
			return walk(re.Sub[0])
		}
		return true // empty: anchors, boundaries
	}
	if !walk(re) || b.Len() > maxPatternSample {
		return "", false
	}
	return b.String(), true
}

// classRune is a rune of a character class (pairs of ranges): a lower-case
// letter, else a digit, else an upper-case letter, else its first.
func classRune(ranges []rune) rune {
	for _, want := range []rune{'a', '0', 'A'} {
		for i := 0; i+1 < len(ranges); i += 2 {
			if lo, hi := ranges[i], ranges[i+1]; want >= lo && want <= hi {
				return want
			} else if lo > want && lo <= want+25 && (want != '0' || lo <= '9') {
				return lo
			}
		}
	}
	if len(ranges) > 0 {
		return ranges[0]
	}
	return 'a'
}
