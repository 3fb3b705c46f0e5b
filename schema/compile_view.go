package schema

import (
	"cmp"
	"math/big"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
	"github.com/toolgen-go/toolgen/schema/limits"
)

// A view is one schema with its $ref and allOf conjuncts merged into a
// single keyword set. Keywords Go code is not generated for, and conjuncts
// whose keywords cannot be merged without changing their meaning, are kept
// whole in deleg for the embedded validator.
type view struct {
	src *jsonpos.Node
	res *resource
	// boolean schema: true (anything) or false (nothing).
	isBool, boolVal bool
	// kws are the merged keywords in the order first met. A schema has
	// a handful, which a scan finds sooner than a map; index finds them
	// once there are more than viewScan (unknown keywords are kept too,
	// and a hostile schema may have thousands).
	kws   []keyword
	index map[string]int
	// deleg are schemas (whole conjuncts or synthetic keyword groups) the
	// value must also satisfy.
	deleg []*jsonpos.Node
	// unevaluated reports unevaluatedProperties/Items somewhere in the
	// conjuncts: the whole schema is then delegated.
	unevaluated bool
	// never reports conjuncts that cannot all hold (only when building a
	// distributed union branch; otherwise that is an error).
	never bool
}

// keyword is one keyword of a view.
type keyword struct {
	Key   string
	Value *jsonpos.Node
}

// viewScan is the most keywords a view finds by a scan.
const viewScan = 16

// find is the index of keyword k in v.kws, or -1.
func (v *view) find(k string) int {
	if v.index != nil {
		if i, ok := v.index[k]; ok {
			return i
		}
		return -1
	}
	for i := range v.kws {
		if v.kws[i].Key == k {
			return i
		}
	}
	return -1
}

func (v *view) get(k string) *jsonpos.Node {
	if i := v.find(k); i >= 0 {
		return v.kws[i].Value
	}
	return nil
}

func (v *view) set(k string, n *jsonpos.Node) {
	if i := v.find(k); i >= 0 {
		v.kws[i].Value = n
		return
	}
	v.kws = append(v.kws, keyword{Key: k, Value: n})
	switch {
	case v.index != nil:
		v.index[k] = len(v.kws) - 1
	case len(v.kws) > viewScan:
		v.index = make(map[string]int, 2*len(v.kws))
		for i, kw := range v.kws {
			v.index[kw.Key] = i
		}
	}
}

func (v *view) del(k string) {
	i := v.find(k)
	if i < 0 {
		return
	}
	v.kws = append(v.kws[:i:i], v.kws[i+1:]...)
	if v.index != nil {
		delete(v.index, k)
		for j := i; j < len(v.kws); j++ {
			v.index[v.kws[j].Key] = j
		}
	}
}

// Keyword classes.
var (
	// compileCore keywords are structural: consumed while building views.
	compileCore = []string{
		"$ref", "$dynamicRef", "$recursiveRef", "allOf", "$defs", "definitions",
		"$id", "$schema", "$anchor", "$dynamicAnchor", "$recursiveAnchor",
		"$vocabulary", "$comment",
	}
	// compileDelegated keywords are always validated by the embedded
	// validator.
	compileDelegated = []string{"not", "if", "then", "else", "dependentSchemas"}
	// compileAssertions are the keywords Go code is generated for.
	compileAssertions = []string{
		"type", "enum", "const", "anyOf", "oneOf",
		"minLength", "maxLength", "pattern", "format",
		"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf",
		"items", "prefixItems", "contains", "minContains", "maxContains",
		"minItems", "maxItems", "uniqueItems",
		"properties", "patternProperties", "additionalProperties", "required",
		"propertyNames", "minProperties", "maxProperties", "dependentRequired",
	}
)

// knownAnnotations are the annotation keywords of JSON Schema and the
// ones tool definitions commonly carry: no warning names them.
var knownAnnotations = []string{
	"description", "title", "default", "examples", "example", "deprecated", "readOnly", "writeOnly",
	"contentMediaType", "contentEncoding", "contentSchema", "format", "discriminator", "enumDescriptions",
	"markdownDescription", "errorMessage",
}

// suggestKeywords are the keywords a misspelt key is compared with.
var suggestKeywords = slices.Concat(compileCore, compileDelegated, compileAssertions,
	[]string{"unevaluatedProperties", "unevaluatedItems", "dependencies", "additionalItems"}, knownAnnotations)

// unknownKeyword warns of a key of schema n that JSON Schema does not know
// and that looks like a misspelt keyword ("minLenght"), or that is
// OpenAPI's nullable: either is ignored, so the constraint meant is not
// checked. Extension keys (x-...) and other unknown keys pass silently,
// as JSON Schema has them.
func (c *compiler) unknownKeyword(n *jsonpos.Node, m jsonpos.Member) {
	k := m.Key
	if strings.HasPrefix(k, "x-") || slices.Contains(knownAnnotations, k) {
		return
	}
	if k == "nullable" {
		c.warnf(m.Value, "unknown-keyword", "\"nullable\" is OpenAPI, not JSON Schema, and is ignored: null is refused here; allow it with a type list (\"type\": [\"string\", \"null\"])")
		return
	}
	if s := text.Closest(k, suggestKeywords); s != "" {
		c.warnf(m.Value, "unknown-keyword", "unknown keyword %q is ignored; did you mean %q?", k, s)
	}
}

// isAnnotation reports keywords that never reject a value.
func isAnnotation(k string) bool {
	return !slices.Contains(compileCore, k) && !slices.Contains(compileDelegated, k) && !slices.Contains(compileAssertions, k) &&
		k != "unevaluatedProperties" && k != "unevaluatedItems" && k != "dependencies" && k != "additionalItems"
}

// pureRef returns the $ref of a schema whose other keywords are all
// annotations: such a schema is its target.
func (c *compiler) pureRef(n *jsonpos.Node) *jsonpos.Node {
	if n.Kind != jsonpos.ObjectNode {
		return nil
	}
	res := c.resOf[n]
	var ref *jsonpos.Node
	for _, m := range n.Members {
		switch {
		case m.Key == "$ref" || m.Key == "$dynamicRef" || m.Key == "$recursiveRef":
			if ref != nil || m.Value.Kind != jsonpos.StringNode {
				return nil
			}
			ref = m.Value
			if m.Key == "$dynamicRef" && c.dynamicRef(n) {
				return nil // resolved by dynamic scope: its own (unconstrained) schema
			}
		case m.Key == "$defs" || m.Key == "definitions" || m.Key == "$comment" || m.Key == "$schema" ||
			m.Key == "$anchor" || m.Key == "$dynamicAnchor" || m.Key == "$recursiveAnchor" || m.Key == "$vocabulary":
		case m.Key == "$id":
			return nil
		case isAnnotation(m.Key):
		default:
			if res == nil || res.draft != 7 {
				return nil
			}
		}
	}
	return ref
}

// conjuncts lists n and, recursively, its $ref targets and allOf branches.
func (c *compiler) conjuncts(n *jsonpos.Node, out []*jsonpos.Node) []*jsonpos.Node {
	if c.conjStack.has(n) {
		c.errorf(n, "circular $ref")
		return out
	}
	// A schema met twice in one conjunction adds nothing the first
	// meeting did not (allOf is idempotent): skipping it keeps diamonds of
	// $refs linear instead of exponential.
	if !c.conjSeen.add(n) {
		return out
	}
	if !c.spend(n) {
		return out
	}
	c.conjStack.push(n)
	defer c.conjStack.pop()
	if n.Kind != jsonpos.ObjectNode || c.external[n] {
		return append(out, n)
	}
	res := c.resOf[n]
	ref := n.Get("$ref")
	if ref == nil {
		ref = n.Get("$dynamicRef")
	}
	if ref == nil {
		ref = n.Get("$recursiveRef")
	}
	if ref != nil && ref.Kind != jsonpos.StringNode {
		c.errorf(ref, "$ref must be a string")
		ref = nil
	}
	if ref != nil && ref == n.Get("$dynamicRef") && c.dynamicRef(n) {
		ref = nil // resolved by dynamic scope: checked by the root's delegation
	}
	if ref == nil || res.draft != 7 {
		out = append(out, n)
	}
	if ref != nil && c.badRefs[ref] {
		ref = nil
	}
	if ref != nil {
		if t, _, err := c.resolveRef(ref, res); err != nil {
			c.errs = append(c.errs, err)
		} else {
			out = c.conjuncts(t, out)
		}
		if res.draft == 7 {
			return out
		}
	}
	if all := n.Get("allOf"); all != nil {
		if all.Kind != jsonpos.ArrayNode || len(all.Items) == 0 {
			c.errorf(all, "allOf must be a non-empty array of schemas")
		} else {
			for _, b := range all.Items {
				out = c.conjuncts(b, out)
			}
		}
	}
	return out
}

// view merges the conjuncts of n. lenient (for distributed union branches)
// turns contradictions into never instead of errors.
func (c *compiler) view(n *jsonpos.Node, lenient bool) *view {
	v := &view{src: n, res: c.resOf[n]}
	c.conjSeen.reset()
	conj := c.conjuncts(n, nil)
	objects := 0
	for _, cj := range conj {
		if cj.Kind == jsonpos.BoolNode && !cj.Bool {
			v.isBool, v.boolVal = true, false
			return v
		}
		if cj.Kind == jsonpos.ObjectNode {
			objects++
		} else if cj.Kind != jsonpos.BoolNode {
			c.errorf(cj, "schema must be an object or a boolean")
			v.isBool, v.boolVal = true, true
			return v
		}
	}
	if objects == 0 {
		v.isBool, v.boolVal = true, true
		return v
	}
	var apSource *jsonpos.Node
	arraySource := (*jsonpos.Node)(nil)
	// containsSource is the conjunct whose contains, minContains and
	// maxContains are compiled: the counts belong to its contains, so
	// another conjunct's are delegated together.
	var containsSource *jsonpos.Node
	// Room for every keyword of the conjuncts (most schemas have one
	// conjunct), so that the slice is allocated once.
	size := 0
	for _, cj := range conj {
		size += len(cj.Members)
	}
	v.kws = make([]keyword, 0, size)
	for _, cj := range conj {
		if cj.Kind != jsonpos.ObjectNode {
			continue
		}
		if c.external[cj] {
			v.deleg = append(v.deleg, cj)
			continue
		}
		kws := c.normalize(cj)
		var delegKW []jsonpos.Member
		for _, m := range kws {
			k, val := m.Key, m.Value
			if isAnnotation(k) {
				c.unknownKeyword(cj, m)
			}
			switch {
			case slices.Contains(compileCore, k):
				continue
			case k == "unevaluatedProperties" || k == "unevaluatedItems":
				v.unevaluated = true
				continue
			case slices.Contains(compileDelegated, k):
				delegKW = append(delegKW, m)
				continue
			}
			if k == "additionalProperties" && !(val.Kind == jsonpos.BoolNode && val.Bool) {
				if apSource != nil && apSource != cj {
					v.deleg = append(v.deleg, cj)
					continue
				}
				apSource = cj
			}
			if k == "contains" || k == "minContains" || k == "maxContains" {
				if containsSource != nil && containsSource != cj {
					delegKW = append(delegKW, m)
					continue
				}
				containsSource = cj
			}
			if k == "items" || k == "prefixItems" {
				tuple := cj.Get("prefixItems") != nil || (cj.Get("items") != nil && cj.Get("items").Kind == jsonpos.ArrayNode)
				if arraySource != nil && arraySource != cj {
					prevTuple := arraySource.Get("prefixItems") != nil || arraySource.Get("items").Kind == jsonpos.ArrayNode
					if tuple || prevTuple {
						v.deleg = append(v.deleg, cj)
						continue
					}
				}
				arraySource = cj
			}
			old := v.get(k)
			if old == nil {
				v.set(k, val)
				continue
			}
			merged, ok := c.mergeKeyword(k, old, val, lenient, v)
			if v.never {
				return v
			}
			if ok {
				v.set(k, merged)
			} else {
				delegKW = append(delegKW, m)
			}
		}
		if len(delegKW) > 0 {
			v.deleg = append(v.deleg, c.synth(cj, delegKW))
		}
	}
	// additionalProperties of one conjunct constrains only the properties
	// that conjunct did not declare: keep it compiled only when it saw
	// every merged property.
	if apSource != nil && len(conj) > 1 && v.get("additionalProperties") != nil {
		if !refCovers(apSource, v.get("properties")) || !refCoversPatterns(apSource, v.get("patternProperties")) {
			v.del("additionalProperties")
			v.deleg = append(v.deleg, apSource)
		}
	}
	return v
}

func refCovers(src, merged *jsonpos.Node) bool {
	if merged == nil {
		return true
	}
	own := src.Get("properties")
	for _, m := range merged.Members {
		if own.Get(m.Key) == nil {
			return false
		}
	}
	return true
}

func refCoversPatterns(src, merged *jsonpos.Node) bool {
	if merged == nil {
		return true
	}
	own := src.Get("patternProperties")
	for _, m := range merged.Members {
		if own.Get(m.Key) == nil {
			return false
		}
	}
	return true
}

// normalize rewrites older spellings of one schema object to draft 2020-12
// keywords: array-form items and additionalItems, dependencies, boolean
// exclusiveMinimum/Maximum. Most schemas have none of these: until a
// member changes, nothing is copied, and a schema without one gets its
// own members back (read only, as every caller does).
func (c *compiler) normalize(n *jsonpos.Node) []jsonpos.Member {
	items := n.Get("items")
	arrayItems := items != nil && items.Kind == jsonpos.ArrayNode
	var out []jsonpos.Member
	copied := false
	for i, m := range n.Members {
		ms, same := c.normalizeMember(n, m, arrayItems)
		if same && !copied {
			continue
		}
		if !copied {
			out, copied = slices.Clone(n.Members[:i]), true
		}
		if same {
			out = append(out, m)
		} else {
			out = append(out, ms...)
		}
	}
	if !copied {
		return n.Members
	}
	return out
}

// normalizeMember is what member m of schema n becomes (normalize): same
// when it stays as it is, else the members replacing it (none when it is
// dropped).
func (c *compiler) normalizeMember(n *jsonpos.Node, m jsonpos.Member, arrayItems bool) (ms []jsonpos.Member, same bool) {
	switch m.Key {
	case "items":
		if !arrayItems {
			return nil, true
		}
		if n.Get("prefixItems") != nil {
			c.errorf(m.Value, "items must be a schema when prefixItems is present")
			return nil, false
		}
		m.Key = "prefixItems"
		return []jsonpos.Member{m}, false
	case "additionalItems":
		if !arrayItems {
			return nil, false // applies only to array-form items
		}
		m.Key = "items"
		return []jsonpos.Member{m}, false
	case "dependencies":
		if m.Value.Kind != jsonpos.ObjectNode {
			c.errorf(m.Value, "dependencies must be an object")
			return nil, false
		}
		var req, sch []jsonpos.Member
		for _, d := range m.Value.Members {
			if d.Value.Kind == jsonpos.ArrayNode {
				req = append(req, d)
			} else {
				sch = append(sch, d)
			}
		}
		if len(req) > 0 {
			ms = append(ms, jsonpos.NewMember("dependentRequired", m.KeyPos(), c.synthObject(m.Value, req)))
		}
		if len(sch) > 0 {
			ms = append(ms, jsonpos.NewMember("dependentSchemas", m.KeyPos(), c.synthObject(m.Value, sch)))
		}
		return ms, false
	case "exclusiveMinimum", "exclusiveMaximum":
		if m.Value.Kind == jsonpos.BoolNode {
			return nil, false // handled with minimum/maximum below
		}
	case "minimum", "maximum":
		exclusive := "exclusiveMinimum"
		if m.Key == "maximum" {
			exclusive = "exclusiveMaximum"
		}
		if ex := n.Get(exclusive); ex != nil && ex.Kind == jsonpos.BoolNode && ex.Bool {
			m.Key = exclusive
			return []jsonpos.Member{m}, false
		}
	}
	return nil, true
}

// synth builds a synthetic schema object with members from src (same
// resource and position).
func (c *compiler) synth(src *jsonpos.Node, ms []jsonpos.Member) *jsonpos.Node {
	s := c.synthObject(src, ms)
	c.resOf[s] = c.resOf[src]
	return s
}

func (c *compiler) synthObject(src *jsonpos.Node, ms []jsonpos.Member) *jsonpos.Node {
	return &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: src.Pos, Members: ms}
}

// allOfNode returns the (interned) synthetic schema {"allOf":[a,b]}.
func (c *compiler) allOfNode(a, b *jsonpos.Node) *jsonpos.Node {
	key := [2]*jsonpos.Node{a, b}
	if s, ok := c.interned[key]; ok {
		return s
	}
	s := c.synth(a, []jsonpos.Member{{Key: "allOf", Value: &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: a.Pos, Items: []*jsonpos.Node{a, b}}}})
	c.interned[key] = s
	return s
}

// mergeKeyword combines two values of keyword k; ok false means the new
// value is delegated instead. Annotations keep the first value;
// keywordMerges holds the other keywords' merge steps; any other keyword
// (format among them: two formats are two assertions) is delegated.
func (c *compiler) mergeKeyword(k string, old, val *jsonpos.Node, lenient bool, v *view) (*jsonpos.Node, bool) {
	if sameJSON(old, val) {
		return old, true
	}
	if isAnnotation(k) {
		return old, true
	}
	merge := keywordMerges[k]
	if merge == nil {
		return old, false
	}
	clash := func(format string, args ...any) (*jsonpos.Node, bool) {
		if lenient {
			v.never = true
		} else {
			c.errorf(val, "allOf: "+format, args...)
		}
		return old, true
	}
	return merge(c, old, val, clash)
}

// sameJSONNodes is the most nodes sameJSON compares.
const sameJSONNodes = 256

// sameJSON reports whether a and b are written alike (the same JSON text)
// when that is seen within sameJSONNodes nodes; larger values count as
// different, which merges or delegates them instead of keeping one: the
// same verdicts. Serializing both to compare them made every view that
// merged a large properties map copy it whole (a $ref to a 500 KB schema
// from 1,000 places allocated 1.2 GB).
func sameJSON(a, b *jsonpos.Node) bool {
	budget := sameJSONNodes
	return sameJSONWithin(a, b, &budget)
}

func sameJSONWithin(a, b *jsonpos.Node, budget *int) bool {
	if a == b {
		return true
	}
	if *budget--; *budget < 0 || a == nil || b == nil || a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case jsonpos.NullNode:
		return true
	case jsonpos.BoolNode:
		return a.Bool == b.Bool
	case jsonpos.NumberNode:
		return a.Num == b.Num
	case jsonpos.StringNode:
		return a.Str == b.Str
	case jsonpos.ArrayNode:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !sameJSONWithin(a.Items[i], b.Items[i], budget) {
				return false
			}
		}
		return true
	case jsonpos.ObjectNode:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for i := range a.Members {
			if a.Members[i].Key != b.Members[i].Key || !sameJSONWithin(a.Members[i].Value, b.Members[i].Value, budget) {
				return false
			}
		}
		return true
	}
	return false
}

// keywordMerge combines two values of one keyword that differ; clash
// reports a contradiction (an error, or a never-matching view when
// lenient). ok false means val is delegated instead.
type keywordMerge func(c *compiler, old, val *jsonpos.Node, clash func(format string, args ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool)

// keywordMerges are the keywords allOf merges into one schema. Two
// contains are two separate assertions, so contains is not merged.
var keywordMerges = map[string]keywordMerge{
	"type":                 mergeType,
	"properties":           mergeSchemaMap,
	"patternProperties":    mergeSchemaMap,
	"dependentSchemas":     mergeSchemaMap,
	"required":             mergeRequired,
	"dependentRequired":    mergeDependentRequired,
	"enum":                 mergeEnum,
	"const":                mergeConst,
	"items":                mergeSchema,
	"propertyNames":        mergeSchema,
	"additionalProperties": mergeSchema,
	"uniqueItems":          mergeUniqueItems,
	"minimum":              mergeLarger,
	"exclusiveMinimum":     mergeLarger,
	"minLength":            mergeLarger,
	"minItems":             mergeLarger,
	"minProperties":        mergeLarger,
	"minContains":          mergeLarger,
	"maximum":              mergeSmaller,
	"exclusiveMaximum":     mergeSmaller,
	"maxLength":            mergeSmaller,
	"maxItems":             mergeSmaller,
	"maxProperties":        mergeSmaller,
	"maxContains":          mergeSmaller,
}

// mergeType keeps the types both allow (integer where one says number).
func mergeType(_ *compiler, old, val *jsonpos.Node, clash func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	a, b := typeNames(old), typeNames(val)
	var out []*jsonpos.Node
	for _, x := range a {
		for _, y := range b {
			switch {
			case x == y, x == "integer" && y == "number":
				out = append(out, &jsonpos.Node{Kind: jsonpos.StringNode, Pos: old.Pos, Str: x})
			case x == "number" && y == "integer":
				out = append(out, &jsonpos.Node{Kind: jsonpos.StringNode, Pos: val.Pos, Str: y})
			}
		}
	}
	if len(out) == 0 {
		return clash("no type satisfies every branch")
	}
	return &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: old.Pos, Items: out}, true
}

// mergeSchemaMap merges two maps of schemas (properties and the like):
// a key in both gets the allOf of its two schemas.
func mergeSchemaMap(c *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	if old.Kind != jsonpos.ObjectNode || val.Kind != jsonpos.ObjectNode {
		return old, false
	}
	ms := append([]jsonpos.Member(nil), old.Members...)
	// Keys are found in an index: a scan made merging two maps of a
	// thousand members each a million comparisons, once per view.
	if c.mergeAt == nil {
		c.mergeAt = map[string]int{}
	}
	at := c.mergeAt
	defer clear(at)
	for i, m := range ms {
		at[m.Key] = i
	}
	for _, m := range val.Members {
		if i, ok := at[m.Key]; ok {
			ms[i].Value = c.allOfNode(ms[i].Value, m.Value)
			continue
		}
		at[m.Key] = len(ms)
		ms = append(ms, m)
	}
	return &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: old.Pos, Members: ms}, true
}

// mergeRequired is the union of two required lists.
func mergeRequired(_ *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	if old.Kind != jsonpos.ArrayNode || val.Kind != jsonpos.ArrayNode {
		return old, false
	}
	items := append([]*jsonpos.Node(nil), old.Items...)
	names := make(map[string]bool, len(items))
	for _, y := range items {
		if y.Kind == jsonpos.StringNode {
			names[y.Str] = true
		}
	}
	for _, x := range val.Items {
		if x.Kind == jsonpos.StringNode {
			if names[x.Str] {
				continue
			}
			names[x.Str] = true
		}
		items = append(items, x)
	}
	return &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: old.Pos, Items: items}, true
}

// mergeDependentRequired keeps the members of both; when both name one
// property, val is delegated instead (one object cannot hold the key
// twice, and a copy of it would keep only one list).
func mergeDependentRequired(_ *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	if old.Kind != jsonpos.ObjectNode || val.Kind != jsonpos.ObjectNode {
		return old, false
	}
	keys := make(map[string]bool, len(old.Members))
	for _, m := range old.Members {
		keys[m.Key] = true
	}
	for _, m := range val.Members {
		if keys[m.Key] {
			return old, false
		}
	}
	return &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: old.Pos, Members: append(append([]jsonpos.Member(nil), old.Members...), val.Members...)}, true
}

// mergeEnum keeps the values both enums list.
func mergeEnum(_ *compiler, old, val *jsonpos.Node, clash func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	if old.Kind != jsonpos.ArrayNode || val.Kind != jsonpos.ArrayNode {
		return old, false
	}
	in := make(map[string]bool, len(val.Items))
	for _, y := range val.Items {
		in[canonKey(y)] = true
	}
	var items []*jsonpos.Node
	for _, x := range old.Items {
		if in[canonKey(x)] {
			items = append(items, x)
		}
	}
	if len(items) == 0 {
		return clash("enums have no value in common")
	}
	return &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: old.Pos, Items: items}, true
}

// mergeConst accepts two consts that are equal as JSON.
func mergeConst(_ *compiler, old, val *jsonpos.Node, clash func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	if jsonEqual(old, val) {
		return old, true
	}
	return clash("conflicting const values")
}

// mergeSchema is the allOf of two subschemas.
func mergeSchema(c *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	return c.allOfNode(old, val), true
}

// mergeUniqueItems: true wins.
func mergeUniqueItems(_ *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	if val.Kind == jsonpos.BoolNode && val.Bool {
		return val, true
	}
	return old, true
}

// mergeLarger keeps the larger of two lower bounds.
func mergeLarger(_ *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	return numPick(old, val, true)
}

// mergeSmaller keeps the smaller of two upper bounds.
func mergeSmaller(_ *compiler, old, val *jsonpos.Node, _ func(string, ...any) (*jsonpos.Node, bool)) (*jsonpos.Node, bool) {
	return numPick(old, val, false)
}

// numPick keeps the larger (or smaller) of two numbers.
func numPick(a, b *jsonpos.Node, larger bool) (*jsonpos.Node, bool) {
	d, ok := numCmp(a, b)
	if !ok {
		return a, false
	}
	if (d < 0) == larger {
		return b, true
	}
	return a, true
}

// plainInt is the value of a number node written as a plain integer of
// at most 18 digits, which int64 holds exactly: most schema bounds, read
// without a big.Rat.
func plainInt(n *jsonpos.Node) (int64, bool) {
	if n == nil || n.Kind != jsonpos.NumberNode {
		return 0, false
	}
	s, neg := strings.CutPrefix(n.Num, "-")
	if s == "" || len(s) > 18 {
		return 0, false
	}
	var v int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		v = v*10 + int64(s[i]-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// numCmp compares number nodes a and b exactly (ok is false unless both
// are numbers).
func numCmp(a, b *jsonpos.Node) (d int, ok bool) {
	if x, ok := plainInt(a); ok {
		if y, ok := plainInt(b); ok {
			return cmp.Compare(x, y), true
		}
	}
	if a == nil || b == nil || a.Kind != jsonpos.NumberNode || b.Kind != jsonpos.NumberNode {
		return 0, false
	}
	return ir.Number(a.Num).Cmp(ir.Number(b.Num))
}

// numRat parses a number node exactly, as ir.Number.Rat does.
func numRat(n *jsonpos.Node) (*big.Rat, bool) {
	if n == nil || n.Kind != jsonpos.NumberNode {
		return nil, false
	}
	return ir.Number(n.Num).Rat()
}

// typeNames returns the names in a type keyword.
func typeNames(n *jsonpos.Node) []string {
	switch n.Kind {
	case jsonpos.StringNode:
		return []string{n.Str}
	case jsonpos.ArrayNode:
		var out []string
		for _, it := range n.Items {
			if it.Kind == jsonpos.StringNode {
				out = append(out, it.Str)
			}
		}
		return out
	}
	return nil
}

// jsonEqual is JSON Schema equality: numbers by value, objects regardless
// of member order.
func jsonEqual(a, b *jsonpos.Node) bool {
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case jsonpos.NullNode:
		return true
	case jsonpos.BoolNode:
		return a.Bool == b.Bool
	case jsonpos.StringNode:
		return a.Str == b.Str
	case jsonpos.NumberNode:
		d, ok := numCmp(a, b)
		return ok && d == 0
	case jsonpos.ArrayNode:
		if len(a.Items) != len(b.Items) {
			return false
		}
		for i := range a.Items {
			if !jsonEqual(a.Items[i], b.Items[i]) {
				return false
			}
		}
		return true
	case jsonpos.ObjectNode:
		if len(a.Members) != len(b.Members) {
			return false
		}
		for _, m := range a.Members {
			o := b.Get(m.Key)
			if o == nil || !jsonEqual(m.Value, o) {
				return false
			}
		}
		return true
	}
	return false
}

// nodeSet is a set of nodes: a list while small, a map beyond.
type nodeSet struct {
	list []*jsonpos.Node
	m    map[*jsonpos.Node]bool
}

func (s *nodeSet) reset() {
	s.list = s.list[:0]
	s.m = nil
}

// add adds n and reports whether it was new.
func (s *nodeSet) add(n *jsonpos.Node) bool {
	if s.m != nil {
		if s.m[n] {
			return false
		}
		s.m[n] = true
		return true
	}
	for _, x := range s.list {
		if x == n {
			return false
		}
	}
	s.list = append(s.list, n)
	if len(s.list) > 32 {
		s.m = make(map[*jsonpos.Node]bool, 2*len(s.list))
		for _, x := range s.list {
			s.m[x] = true
		}
	}
	return true
}

// nodeStack is a stack of nodes whose membership test stays cheap when it
// is deep: a chain of 100,000 $refs made a scan of the stack at each link
// quadratic (minutes). Past nodeScan entries a map counts the nodes.
type nodeStack struct {
	list []*jsonpos.Node
	m    map[*jsonpos.Node]int
}

// nodeScan is the most entries a nodeStack finds by a scan.
const nodeScan = 32

func (s *nodeStack) has(n *jsonpos.Node) bool {
	if s.m != nil {
		return s.m[n] > 0
	}
	return slices.Contains(s.list, n)
}

func (s *nodeStack) push(n *jsonpos.Node) {
	s.list = append(s.list, n)
	switch {
	case s.m != nil:
		s.m[n]++
	case len(s.list) > nodeScan:
		s.m = make(map[*jsonpos.Node]int, 2*len(s.list))
		for _, x := range s.list {
			s.m[x]++
		}
	}
}

func (s *nodeStack) pop() {
	n := s.list[len(s.list)-1]
	s.list = s.list[:len(s.list)-1]
	if s.m != nil {
		if s.m[n]--; s.m[n] <= 0 {
			delete(s.m, n)
		}
	}
}

// canonKey is a string equal for two values exactly when jsonEqual holds:
// numbers by exact value, object members in sorted order.
func canonKey(n *jsonpos.Node) string {
	var b strings.Builder
	writeCanon(&b, n)
	return b.String()
}

func writeCanon(b *strings.Builder, n *jsonpos.Node) {
	switch n.Kind {
	case jsonpos.NullNode:
		b.WriteString("n")
	case jsonpos.BoolNode:
		if n.Bool {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case jsonpos.NumberNode:
		if r, ok := numRat(n); ok {
			b.WriteString("#" + r.RatString() + ";")
		} else {
			b.WriteString("#?" + n.Num + ";")
		}
	case jsonpos.StringNode:
		b.WriteString(strconv.Quote(n.Str))
	case jsonpos.ArrayNode:
		b.WriteByte('[')
		for _, it := range n.Items {
			writeCanon(b, it)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case jsonpos.ObjectNode:
		ms := slices.Clone(n.Members)
		slices.SortFunc(ms, func(a, b jsonpos.Member) int { return strings.Compare(a.Key, b.Key) })
		b.WriteByte('{')
		for _, m := range ms {
			b.WriteString(strconv.Quote(m.Key))
			b.WriteByte(':')
			writeCanon(b, m.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	}
}

// spend counts one expansion at n against the budget; false (after one
// located error) once the budget is spent.
func (c *compiler) spend(n *jsonpos.Node) bool {
	return c.spendN(n, 1)
}

// spendN is spend for k expansions at once.
func (c *compiler) spendN(n *jsonpos.Node, k int) bool {
	if c.exhausted {
		return false
	}
	c.expansions += k
	if c.expansions > c.limits.RefExpansions {
		c.exhausted = true
		c.errorf(n, "schema expansion budget spent: $refs, allOf, union branches and the properties merged into each branch expand to more than %d schemas (%s)",
			c.limits.RefExpansions, limits.Hint("max_ref_expansions", int64(c.limits.RefExpansions)))
		return false
	}
	return true
}

// errorf records a located error at n.
func (c *compiler) errorf(n *jsonpos.Node, format string, args ...any) {
	c.errs = append(c.errs, jsonpos.Errorf(n.Pos, format, args...))
}

// describe is a short rendering of a JSON value for messages.
func describe(n *jsonpos.Node) string {
	s := string(n.JSON())
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}
