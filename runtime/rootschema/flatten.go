package rootschema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
)

// Error is why Flatten cannot send a parameters root a provider accepts:
// Keyword is the refused root keyword, Pointer locates the part of it
// that cannot be loosened (a JSON Pointer into the root).
type Error struct {
	Keyword, Pointer, Reason string
}

func (e *Error) Error() string { return e.Pointer + ": " + e.Reason }

// Limits of Flatten: how deep allOf, anyOf and oneOf may nest inside
// one another at the root, and how much of a union the note in the
// description lists.
const (
	maxDepth       = 16
	noteAlternates = 8
	noteNames      = 8
	noteNameLen    = 40
	noteMaxUnions  = 4
)

// identity are the keywords that give a schema an identity or refer to
// another: a branch holding one cannot be merged into the root, as
// references into or from it would change meaning; but for a $ref to the
// root's definitions (flattener.ref).
var identity = map[string]bool{
	"$ref": true, "$dynamicRef": true, "$recursiveRef": true, "$id": true, "$anchor": true,
	"$dynamicAnchor": true, "$recursiveAnchor": true, "$defs": true, "definitions": true,
}

// Flatten returns schema, a tool's parameters root (a JSON object), as
// provider p accepts it: schema itself when its root holds no keyword p
// refuses there (RefusedBy), else an equivalent or looser schema without
// them, so that arguments valid for schema stay valid for what is sent
// (the tool's own validation, which is exact, still applies schema):
//
//   - a root allOf is merged into the root, as are allOf in its
//     branches: properties and patternProperties are unioned, one
//     declared in several schemas becoming {"allOf":[...]} of them;
//     required is unioned; additionalProperties only applies to names no
//     merged schema declares, so the branches' ones are joined with allOf
//     (false if one is false); the branches' annotations are dropped,
//     and a keyword two schemas give different values is dropped, as is
//     unevaluatedProperties; a schema's if, then and else are merged
//     as one, and dropped when two schemas give different ones;
//   - a root anyOf or oneOf, here or in an allOf branch, becomes one
//     object schema merged into the root: the union of the branches'
//     properties (one in several branches with different schemas
//     becoming {"anyOf":[...]}; any value when a branch that does not
//     declare it allows other properties), required the names every
//     branch requires, and the description says the arguments match one
//     of the alternatives, listing each one's required names (a bounded
//     number of them). A union whose schemas only say which declared
//     properties are required (OnlyRequired) is left out, its
//     alternatives said in the description all the same;
//   - enum and not, which only OpenAI refuses, are left out for OpenAI;
//     for Anthropic, the nots of merged schemas become one not of their
//     anyOf.
//
// A branch's "$ref" to a definition of the root's $defs or definitions
// is merged with the branch (alone when the root's $schema names
// draft-03 to draft-07, which ignore the keywords beside a $ref; a
// definition holding an $id or an anchor is an *Error, as it would be in
// the schema twice). A reference that may lead back to the root, which
// what is sent loosens, is an *Error where a looser target refuses more
// (under not, if, oneOf or contains, or beside unevaluatedProperties).
// A branch that is not an object schema, or
// that holds another $ref, or $id, $anchor, $defs or the like, or a
// reference elsewhere in schema into a part of the root that is
// rewritten, is an *Error: the adapter refuses the tool. Time and the
// size of what is sent are linear in the size of schema.
func Flatten(schema json.RawMessage, p Provider) (json.RawMessage, error) {
	if !json.Valid(schema) {
		return nil, &Error{Pointer: "", Reason: "not a JSON Schema object"}
	}
	root, err := decodeObject(schema)
	if err != nil || root == nil {
		return nil, &Error{Pointer: "", Reason: "not a JSON Schema object"}
	}
	first := ""
	for _, k := range Keywords() {
		if _, ok := root.get(k); ok && RefusedBy(k)&p != 0 {
			first = k
			break
		}
	}
	if first == "" {
		return schema, nil
	}
	f := &flattener{p: p, root: root, budget: 4*len(schema) + 1<<16, legacy: legacyDraft(root)}
	b := newBuilder(true)
	err = f.conj(b, root, "", 0)
	if err == nil {
		if b.merged {
			b.drop("unevaluatedProperties")
		}
		for _, k := range []string{"then", "else"} {
			if _, ok := b.generic[k]; ok && len(b.conds) > 0 {
				b.drop(k) // beside no if at the root: must not meet a merged one
			}
		}
		err = checkRefs(schema, b.merged, b.dropped)
		if err == nil {
			err = checkRootRefs(schema, f.p)
		}
	}
	if e, ok := err.(*Error); ok {
		e.Keyword, _, _ = strings.Cut(strings.TrimPrefix(e.Pointer, "/"), "/")
		if RefusedBy(e.Keyword) == 0 {
			e.Keyword = first
			if f.at != "" {
				e.Keyword = f.at // merging it led elsewhere, to a definition
			}
		}
		return nil, e
	}
	return b.finish(), nil
}

// object is a JSON object's members, in order, each raw JSON; a name
// given twice keeps its first place and its last value, as
// encoding/json reads it.
type object struct {
	keys  []string
	vals  []json.RawMessage // vals[i] is keys[i]'s
	index map[string]int    // made past small members: most are fewer
}

// small is how many members or schemas are searched one by one before a
// map indexes them.
const small = 16

func (o *object) find(k string) int {
	if o.index != nil {
		if i, ok := o.index[k]; ok {
			return i
		}
		return -1
	}
	for i, have := range o.keys {
		if have == k {
			return i
		}
	}
	return -1
}

// get is member k's value.
func (o *object) get(k string) (json.RawMessage, bool) {
	if i := o.find(k); i >= 0 {
		return o.vals[i], true
	}
	return nil, false
}

// set gives member k value v, in its first place when it has one.
func (o *object) set(k string, v json.RawMessage) {
	if i := o.find(k); i >= 0 {
		o.vals[i] = v
		return
	}
	o.keys = append(o.keys, k)
	o.vals = append(o.vals, v)
	if o.index != nil {
		o.index[k] = len(o.keys) - 1
	} else if len(o.keys) > small {
		o.index = make(map[string]int, len(o.keys))
		for i, k := range o.keys {
			o.index[k] = i
		}
	}
}

// decodeObject decodes raw, part of a document Flatten checked is valid
// JSON, as a JSON object; nil, nil for true (the schema allowing
// anything), an error for anything but an object or a boolean. It splits
// raw without decoding the values, so that each level of nesting costs
// time linear in its size.
func decodeObject(raw json.RawMessage) (*object, error) {
	raw = bytes.TrimSpace(raw)
	if bytes.Equal(raw, []byte("true")) {
		return nil, nil
	}
	if len(raw) < 2 || raw[0] != '{' {
		return nil, fmt.Errorf("want a JSON Schema object, got %s", truncate(raw))
	}
	o := &object{}
	i := skipSpace(raw, 1)
	for i < len(raw) && raw[i] == '"' {
		end := skipValue(raw, i)
		key := string(raw[i+1 : end-1])
		if bytes.IndexByte(raw[i:end], '\\') >= 0 {
			if json.Unmarshal(raw[i:end], &key) != nil {
				break
			}
		}
		i = skipSpace(raw, end)
		if i >= len(raw) || raw[i] != ':' {
			break
		}
		start := skipSpace(raw, i+1)
		if end = skipValue(raw, start); end == start {
			break // not valid JSON: no value
		}
		o.set(key, raw[start:end])
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return o, nil
}

// splitArray splits raw, part of a valid JSON document, into its items;
// false when raw is not an array.
func splitArray(raw json.RawMessage) ([]json.RawMessage, bool) {
	raw = bytes.TrimSpace(raw)
	if len(raw) < 2 || raw[0] != '[' {
		return nil, false
	}
	var items []json.RawMessage
	for i := skipSpace(raw, 1); i < len(raw) && raw[i] != ']'; {
		end := skipValue(raw, i)
		if end == i {
			break // not valid JSON: no value
		}
		items = append(items, raw[i:end])
		i = skipSpace(raw, end)
		if i < len(raw) && raw[i] == ',' {
			i = skipSpace(raw, i+1)
		}
	}
	return items, true
}

func skipSpace(raw []byte, i int) int {
	for i < len(raw) && (raw[i] == ' ' || raw[i] == '\t' || raw[i] == '\n' || raw[i] == '\r') {
		i++
	}
	return i
}

// skipValue is the end of the JSON value starting at raw[i], part of a
// valid document.
func skipValue(raw []byte, i int) int {
	depth := 0
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '"':
			for i++; i < len(raw) && raw[i] != '"'; i++ {
				if raw[i] == '\\' {
					i++
				}
			}
			if depth == 0 {
				return min(i+1, len(raw))
			}
		case '{', '[':
			depth++
		case '}', ']':
			if depth == 0 {
				return i // the closer of the value's container
			}
			if depth--; depth == 0 {
				return i + 1
			}
		case ',', ':', ' ', '\t', '\n', '\r':
			if depth == 0 {
				return i
			}
		}
	}
	return i
}

func truncate(v []byte) string {
	const max = 60
	if len(v) > max {
		return string(v[:max]) + "…"
	}
	return string(v)
}

// isFalse reports whether raw is the schema false; isTrue whether it is
// true or {}.
func isFalse(raw json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(raw), []byte("false")) }

func isTrue(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	if bytes.Equal(raw, []byte("true")) {
		return true
	}
	if len(raw) < 2 || raw[0] != '{' || raw[len(raw)-1] != '}' {
		return false
	}
	return len(bytes.TrimSpace(raw[1:len(raw)-1])) == 0
}

// multi is a map from names, in first-seen order, to the distinct
// schemas given for each.
type multi struct {
	names   object              // vals unused
	schemas [][]json.RawMessage // schemas[i] are names.keys[i]'s
	seen    map[int]map[string]bool
}

func (m *multi) add(name string, raw json.RawMessage) {
	raw = bytes.TrimSpace(raw)
	i := m.names.find(name)
	if i < 0 {
		m.names.set(name, nil)
		m.schemas = append(m.schemas, nil)
		i = len(m.schemas) - 1
	}
	list := m.schemas[i]
	if len(list) < small {
		for _, have := range list {
			if bytes.Equal(have, raw) {
				return
			}
		}
	} else {
		set := m.seen[i]
		if set == nil {
			if m.seen == nil {
				m.seen = map[int]map[string]bool{}
			}
			set = make(map[string]bool, len(list))
			for _, have := range list {
				set[string(have)] = true
			}
			m.seen[i] = set
		}
		if set[string(raw)] {
			return
		}
		set[string(raw)] = true
	}
	m.schemas[i] = append(list, raw)
}

// builder is the conjunction of object schemas being merged into one.
type builder struct {
	root    bool
	keys    []string // members in first-seen order
	keySet  map[string]bool
	generic map[string]json.RawMessage
	clash   map[string]bool
	props   multi
	pattern multi
	addl    []json.RawMessage
	addlSet map[string]bool
	addlNo  bool // some schema has additionalProperties false
	// addlTrue is the first additionalProperties true or {}: kept when
	// there is no other, as it evaluates the names unevaluatedProperties
	// then does not see.
	addlTrue json.RawMessage
	req      []string
	reqSet   map[string]bool
	nots     []json.RawMessage
	conds    []cond // the distinct if, then and else of schemas with an if
	descr    json.RawMessage
	// merged is set when a schema other than the root was merged in;
	// dropped holds the root keywords left out.
	merged  bool
	dropped map[string]bool
	refs    map[string]bool // references merged
	notes   []string
}

// cond is the if of a schema, with its then and else (nil when absent):
// then and else mean nothing without the if beside them, so a schema's
// three are merged as one.
type cond struct{ ifs, then, els json.RawMessage }

// cond adds the if, then and else of o: when schemas merged give
// different ones, all are left out (looser), as the root can hold one.
func (b *builder) cond(o *object) {
	if len(b.conds) > 1 {
		return // all left out already
	}
	var c cond
	c.ifs, _ = o.get("if")
	c.then, _ = o.get("then")
	c.els, _ = o.get("else")
	c.ifs, c.then, c.els = bytes.TrimSpace(c.ifs), bytes.TrimSpace(c.then), bytes.TrimSpace(c.els)
	for _, have := range b.conds {
		if bytes.Equal(have.ifs, c.ifs) && bytes.Equal(have.then, c.then) && bytes.Equal(have.els, c.els) {
			return
		}
	}
	b.conds = append(b.conds, c)
	if len(b.conds) > 1 {
		b.drop("if")
		b.drop("then")
		b.drop("else")
	}
}

func newBuilder(root bool) *builder {
	return &builder{root: root} // maps made when first written: a union's branches are many
}

// drop records that root keyword k is left out.
func (b *builder) drop(k string) {
	if b.dropped == nil {
		b.dropped = map[string]bool{}
	}
	b.dropped[k] = true
}

func (b *builder) key(k string) {
	if !b.keySet[k] {
		if b.keySet == nil {
			b.keySet = map[string]bool{}
		}
		b.keySet[k] = true
		b.keys = append(b.keys, k)
	}
}

// flattener holds what Flatten's recursion shares.
type flattener struct {
	p     Provider
	quiet int // inside a union's branch: no note
	// defs are the root's $defs and definitions, decoded when first
	// needed; budget is how many bytes of them references may still
	// merge, so that a schema naming one large definition many times
	// costs time linear in its size.
	root   *object
	defs   map[string]*object
	budget int
	// anchored is, by definition, the identity keyword it holds ("" for
	// none; identified).
	anchored map[string]string
	// at is the root keyword being merged.
	at string
	// expanding are the definitions being merged, by pointer.
	expanding map[string]bool
	// legacy is set when the root's $schema names draft-03 to draft-07,
	// where the keywords beside a $ref are ignored.
	legacy bool
}

// legacyDraft reports whether root's $schema names a draft where the
// keywords beside a $ref are ignored (draft-03 to draft-07), as the
// schema compiler reads it.
func legacyDraft(root *object) bool {
	raw, _ := root.get("$schema")
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return false
	}
	for _, d := range []string{"draft-03", "draft-04", "draft-06", "draft-07"} {
		if strings.Contains(s, d) {
			return true
		}
	}
	return false
}

// ref merges into b the root's definition the reference raw, at ptr,
// names: "#/$defs/<name>" or "#/definitions/<name>" (a definition merged
// once per schema being built). Any other reference is an error, as the
// adapters resolve no other.
func (f *flattener) ref(b *builder, raw json.RawMessage, ptr string, depth int) error {
	var ref string
	if json.Unmarshal(raw, &ref) != nil {
		return &Error{Pointer: ptr, Reason: fmt.Sprintf("want a string, got %s", truncate(raw))}
	}
	kind, name, ok := strings.Cut(strings.TrimPrefix(ref, "#/"), "/")
	if !strings.HasPrefix(ref, "#/") || !ok || (kind != "$defs" && kind != "definitions") || strings.ContainsAny(name, "/%") {
		return &Error{Pointer: ptr, Reason: fmt.Sprintf("a schema holding the reference %s cannot be merged into the root: the adapters only resolve \"#/$defs/<name>\" and \"#/definitions/<name>\"", truncate([]byte(strconv.Quote(ref))))}
	}
	name = strings.NewReplacer("~1", "/", "~0", "~").Replace(name)
	if b.refs[ref] {
		return nil // merged already
	}
	if b.refs == nil {
		b.refs = map[string]bool{}
	}
	b.refs[ref] = true
	if f.defs == nil {
		f.defs = map[string]*object{}
	}
	defs, ok := f.defs[kind]
	if !ok {
		if raw, ok := f.root.get(kind); ok {
			defs, _ = decodeObject(raw)
			if defs != nil && defs.index == nil { // indexed: named many times
				defs.index = make(map[string]int, len(defs.keys))
				for i, k := range defs.keys {
					defs.index[k] = i
				}
			}
		}
		f.defs[kind] = defs
	}
	target, ok := json.RawMessage(nil), false
	if defs != nil {
		target, ok = defs.get(name)
	}
	if !ok {
		return &Error{Pointer: ptr, Reason: fmt.Sprintf("the reference %s names no definition of the root's %s", truncate([]byte(strconv.Quote(ref))), kind)}
	}
	if f.budget -= len(target); f.budget < 0 {
		return &Error{Pointer: ptr, Reason: "merging the definitions the references name would take more than four times the schema's size"}
	}
	at := "/" + kind + "/" + escape(name)
	k, ok := f.anchored[at]
	if !ok {
		var v any
		_ = json.Unmarshal(target, &v)
		k = identified(v, f.legacy)
		if f.anchored == nil {
			f.anchored = map[string]string{}
		}
		f.anchored[at] = k
	}
	if k != "" {
		return &Error{Pointer: at, Reason: fmt.Sprintf("a definition holding %s cannot be merged into the root: it would then be in the schema twice", k)}
	}
	if isFalse(target) {
		return nil // accepts nothing: merging nothing is looser
	}
	o, err := decodeObject(target)
	if err != nil {
		return &Error{Pointer: at, Reason: err.Error()}
	}
	if o == nil {
		return nil
	}
	// A definition naming itself through a union's branch (each branch is
	// built apart) merges nothing more there: looser.
	if f.expanding[at] {
		return nil
	}
	if f.expanding == nil {
		f.expanding = map[string]bool{}
	}
	f.expanding[at] = true
	defer delete(f.expanding, at)
	return f.conj(b, o, at, depth+1)
}

// conj merges the object schema o, at ptr, into b.
func (f *flattener) conj(b *builder, o *object, ptr string, depth int) error {
	if depth > maxDepth {
		return &Error{Pointer: ptr, Reason: fmt.Sprintf("allOf, anyOf and oneOf nest more than %d deep", maxDepth)}
	}
	atRoot := b.root && depth == 0
	if !atRoot {
		b.merged = true
		for _, k := range o.keys {
			if identity[k] && k != "$ref" || f.legacy && k == "id" {
				return &Error{Pointer: ptr + "/" + escape(k), Reason: fmt.Sprintf("a schema holding %s cannot be merged into the root", k)}
			}
		}
		if ref, ok := o.get("$ref"); ok {
			if err := f.ref(b, ref, ptr+"/$ref", depth); err != nil {
				return err
			}
			if f.legacy {
				return nil // the keywords beside it are ignored
			}
		}
	}
	props, _ := o.get("properties")
	for i, k := range o.keys {
		v := o.vals[i]
		if k == "$ref" && !atRoot {
			continue // merged above
		}
		at := ptr + "/" + escape(k)
		if atRoot {
			f.at = ""
			if RefusedBy(k)&f.p != 0 {
				f.at = k
			}
		}
		switch k {
		case "allOf":
			if err := f.allOf(b, v, at, depth); err != nil {
				return err
			}
			if atRoot {
				b.drop(k)
			}
		case "anyOf", "oneOf":
			if atRoot {
				b.drop(k)
			}
			if OnlyRequired(v, false, props) {
				// The tool's validation applies it; the model is told.
				if _, note, err := f.union(v, at, depth+1); err == nil && note != "" && f.quiet == 0 && len(b.notes) < noteMaxUnions {
					b.notes = append(b.notes, note)
				}
				continue
			}
			u, note, err := f.union(v, at, depth+1)
			if err != nil {
				return err
			}
			b.merged = true
			if err := f.conj(b, u, at, depth+1); err != nil {
				return err
			}
			if note != "" && f.quiet == 0 && len(b.notes) < noteMaxUnions {
				b.notes = append(b.notes, note)
			}
		case "not":
			if RefusedBy(k)&f.p != 0 {
				if atRoot {
					b.drop(k)
				}
				continue
			}
			b.key(k)
			b.nots = append(b.nots, v)
		case "enum":
			if RefusedBy(k)&f.p != 0 {
				if atRoot {
					b.drop(k)
				}
				continue
			}
			b.generic1(k, v)
		case "properties", "patternProperties":
			m, err := decodeObject(v)
			if err != nil || m == nil {
				return &Error{Pointer: at, Reason: fmt.Sprintf("want an object, got %s", truncate(v))}
			}
			b.key(k)
			dst := &b.props
			if k == "patternProperties" {
				dst = &b.pattern
			}
			for i, name := range m.keys {
				dst.add(name, m.vals[i])
			}
		case "additionalProperties":
			b.key(k)
			v = bytes.TrimSpace(v)
			switch {
			case isFalse(v):
				b.addlNo = true
			case isTrue(v):
				if b.addlTrue == nil {
					b.addlTrue = v
				}
			case !b.addlSet[string(v)]:
				if b.addlSet == nil {
					b.addlSet = map[string]bool{}
				}
				b.addlSet[string(v)] = true
				b.addl = append(b.addl, v)
			}
		case "required":
			var names []string
			if json.Unmarshal(v, &names) != nil {
				return &Error{Pointer: at, Reason: fmt.Sprintf("want an array of strings, got %s", truncate(v))}
			}
			b.key(k)
			if b.reqSet == nil {
				b.reqSet = map[string]bool{}
			}
			for _, n := range names {
				if !b.reqSet[n] {
					b.reqSet[n] = true
					b.req = append(b.req, n)
				}
			}
		case "if":
			b.key(k)
			b.cond(o)
		case "then", "else":
			// Merged with the if beside them (cond); without one they
			// mean nothing, and must not meet another schema's if.
			if _, ok := o.get("if"); ok {
				b.key(k)
			} else if atRoot {
				b.generic1(k, v) // kept when no schema merged has an if
			}
		case "unevaluatedProperties":
			// It sees what the schemas merged evaluate, which merging
			// changes: left out then (finish).
			b.generic1(k, v)
		case "description":
			if atRoot {
				b.key(k)
				b.descr = v
			}
		case "type", "title", "examples", "default", "$comment", "$schema", "deprecated", "readOnly", "writeOnly":
			// Annotations, and the type, of the root only; the adapters
			// send type "object".
			if atRoot {
				b.generic1(k, v)
			}
		default:
			b.generic1(k, v)
		}
	}
	return nil
}

// generic1 adds keyword k of value v: a keyword two schemas give
// different values is left out.
func (b *builder) generic1(k string, v json.RawMessage) {
	b.key(k)
	v = bytes.TrimSpace(v)
	if have, ok := b.generic[k]; ok {
		if !bytes.Equal(have, v) {
			if b.clash == nil {
				b.clash = map[string]bool{}
			}
			b.clash[k] = true
			b.drop(k)
		}
		return
	}
	if b.generic == nil {
		b.generic = map[string]json.RawMessage{}
	}
	b.generic[k] = v
}

// allOf merges the schemas of the allOf raw, at ptr, into b.
func (f *flattener) allOf(b *builder, raw json.RawMessage, ptr string, depth int) error {
	branches, ok := splitArray(raw)
	if !ok || len(branches) == 0 {
		return &Error{Pointer: ptr, Reason: fmt.Sprintf("want a non-empty array of schemas, got %s", truncate(raw))}
	}
	for i, br := range branches {
		if isFalse(br) {
			continue // accepts nothing: merging nothing is looser
		}
		o, err := decodeObject(br)
		if err != nil {
			return &Error{Pointer: ptr + "/" + strconv.Itoa(i), Reason: err.Error()}
		}
		if o == nil {
			continue
		}
		if err := f.conj(b, o, ptr+"/"+strconv.Itoa(i), depth+1); err != nil {
			return err
		}
	}
	return nil
}

// union is the object schema, with its note, every schema of the anyOf
// or oneOf raw, at ptr, is looser than.
func (f *flattener) union(raw json.RawMessage, ptr string, depth int) (*object, string, error) {
	branches, ok := splitArray(raw)
	if !ok || len(branches) == 0 {
		return nil, "", &Error{Pointer: ptr, Reason: fmt.Sprintf("want a non-empty array of schemas, got %s", truncate(raw))}
	}
	var (
		live, closed int
		props        multi
		declared     = map[string]int{} // branches declaring a name
		declClosed   = map[string]int{} // closed ones among them
		reqCount     = map[string]int{}
		reqOrder     []string
		open         bool // a branch allows other names freely
		addl         []json.RawMessage
		addlSet      = map[string]bool{}
		note         strings.Builder
		listed       int
	)
	f.quiet++
	defer func() { f.quiet-- }()
	for i, br := range branches {
		at := ptr + "/" + strconv.Itoa(i)
		if isFalse(br) {
			continue
		}
		o, err := decodeObject(br)
		if err != nil {
			return nil, "", &Error{Pointer: at, Reason: err.Error()}
		}
		b := newBuilder(false)
		if o != nil {
			_, ref := o.get("$ref")
			if typ, ok := o.get("type"); ok && !allowsObject(typ) && !(ref && f.legacy) {
				continue // accepts no arguments object
			}
			if err := f.conj(b, o, at, depth); err != nil {
				return nil, "", err
			}
		}
		live++
		isClosed := b.addlNo && len(b.pattern.names.keys) == 0
		if isClosed {
			closed++
		} else if len(b.pattern.names.keys) > 0 || len(b.addl) == 0 {
			open = true
		} else {
			for _, a := range b.addl {
				if !addlSet[string(a)] {
					addlSet[string(a)] = true
					addl = append(addl, a)
				}
			}
		}
		for j, name := range b.props.names.keys {
			declared[name]++
			if isClosed {
				declClosed[name]++
			}
			props.add(name, conjoin(b.props.schemas[j]))
		}
		for _, n := range b.req {
			if reqCount[n] == 0 {
				reqOrder = append(reqOrder, n)
			}
			reqCount[n]++
		}
		if listed < noteAlternates {
			if listed > 0 {
				note.WriteString(" | ")
			}
			noteRequired(&note, b.req)
			listed++
		}
	}
	u := &object{}
	set := func(k string, v json.RawMessage) {
		u.set(k, v)
	}
	if live == 0 {
		return u, "", nil
	}
	if len(props.names.keys) > 0 {
		var out bytes.Buffer
		out.WriteByte('{')
		for i, name := range props.names.keys {
			if i > 0 {
				out.WriteByte(',')
			}
			k, _ := json.Marshal(name)
			out.Write(k)
			out.WriteByte(':')
			if live-closed-(declared[name]-declClosed[name]) > 0 {
				// A branch that does not declare it takes any value.
				out.Write(anyValue(props.schemas[i]))
			} else {
				out.Write(disjoin(props.schemas[i]))
			}
		}
		out.WriteByte('}')
		set("properties", out.Bytes())
	}
	var req []string
	for _, n := range reqOrder {
		if reqCount[n] == live {
			req = append(req, n)
		}
	}
	if len(req) > 0 {
		r, _ := json.Marshal(req)
		set("required", r)
	}
	if !open {
		if len(addl) == 0 {
			set("additionalProperties", json.RawMessage("false"))
		} else {
			set("additionalProperties", disjoin(addl))
		}
	}
	if live == 1 {
		return u, "", nil // required says it
	}
	if live > listed {
		fmt.Fprintf(&note, " | … (%d more)", live-listed)
	}
	return u, note.String(), nil
}

// allowsObject reports whether the type typ holds "object".
func allowsObject(typ json.RawMessage) bool {
	var one string
	if json.Unmarshal(typ, &one) == nil {
		return one == "object"
	}
	var many []string
	if json.Unmarshal(typ, &many) != nil {
		return true // malformed: not ours to judge
	}
	for _, t := range many {
		if t == "object" {
			return true
		}
	}
	return false
}

// noteRequired writes names compactly: "[a, b]", a bounded number of
// them, each cut short.
func noteRequired(w *strings.Builder, names []string) {
	w.WriteByte('[')
	for i, n := range names {
		if i == noteNames {
			fmt.Fprintf(w, ", … (%d more)", len(names)-i)
			break
		}
		if i > 0 {
			w.WriteString(", ")
		}
		if r := []rune(n); len(r) > noteNameLen {
			n = string(r[:noteNameLen]) + "…"
		}
		w.WriteString(n)
	}
	w.WriteByte(']')
}

// conjoin is the schema of all of schemas: false if one is false, true
// ones left out.
func conjoin(schemas []json.RawMessage) json.RawMessage {
	var keep []json.RawMessage
	for _, s := range schemas {
		if isFalse(s) {
			return json.RawMessage("false")
		}
		if !isTrue(s) {
			keep = append(keep, s)
		}
	}
	return wrap("allOf", keep, "{}")
}

// disjoin is the schema of any of schemas: {} if one is true, false ones
// left out.
func disjoin(schemas []json.RawMessage) json.RawMessage {
	var keep []json.RawMessage
	for _, s := range schemas {
		if isTrue(s) {
			return json.RawMessage("{}")
		}
		if !isFalse(s) {
			keep = append(keep, s)
		}
	}
	return wrap("anyOf", keep, "false")
}

// wrap is {"<k>":[schemas]}, the one schema itself, or none when there
// are none.
func wrap(k string, schemas []json.RawMessage, none string) json.RawMessage {
	switch len(schemas) {
	case 0:
		return json.RawMessage(none)
	case 1:
		return schemas[0]
	}
	out := []byte(`{"` + k + `":[`)
	for i, s := range schemas {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, s...)
	}
	return append(out, "]}"...)
}

// anyValue is the schema taking any value for a property declared with
// schemas in some branches of a union only: {}, with the description of
// the first of them that has one, for the model.
func anyValue(schemas []json.RawMessage) json.RawMessage {
	for _, s := range schemas {
		var d struct {
			Description *string `json:"description"`
		}
		if json.Unmarshal(s, &d) == nil && d.Description != nil {
			out, _ := json.Marshal(d)
			return out
		}
	}
	return json.RawMessage("{}")
}

// finish is the merged schema, its members in first-seen order.
func (b *builder) finish() json.RawMessage {
	var out bytes.Buffer
	out.WriteByte('{')
	member := func(k string, v []byte) {
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		out.Write(kb)
		out.WriteByte(':')
		out.Write(v)
	}
	object := func(m *multi) []byte {
		var o bytes.Buffer
		o.WriteByte('{')
		for i, name := range m.names.keys {
			if i > 0 {
				o.WriteByte(',')
			}
			kb, _ := json.Marshal(name)
			o.Write(kb)
			o.WriteByte(':')
			o.Write(conjoin(m.schemas[i]))
		}
		o.WriteByte('}')
		return o.Bytes()
	}
	descr := false
	for _, k := range b.keys {
		switch k {
		case "properties":
			member(k, object(&b.props))
		case "patternProperties":
			member(k, object(&b.pattern))
		case "additionalProperties":
			if b.addlNo {
				member(k, []byte("false"))
			} else if len(b.addl) > 0 {
				member(k, conjoin(b.addl))
			} else if b.addlTrue != nil {
				member(k, b.addlTrue)
			}
		case "required":
			r, _ := json.Marshal(b.req)
			member(k, r)
		case "not":
			member(k, wrap("anyOf", b.nots, "false"))
		case "if", "then", "else":
			switch {
			case len(b.conds) == 1:
				if v := map[string]json.RawMessage{"if": b.conds[0].ifs, "then": b.conds[0].then, "else": b.conds[0].els}[k]; v != nil {
					member(k, v)
				}
			case len(b.conds) == 0 && !b.clash[k]:
				member(k, b.generic[k])
			}
		case "unevaluatedProperties":
			if !b.merged && !b.clash[k] {
				member(k, b.generic[k])
			}
		case "description":
			descr = true
			member(k, b.description())
		default:
			if !b.clash[k] {
				member(k, b.generic[k])
			}
		}
	}
	if !descr && len(b.notes) > 0 {
		member("description", b.description())
	}
	out.WriteByte('}')
	return out.Bytes()
}

// description is the root's description with, after it, one sentence
// listing the alternatives of the unions merged into the root.
func (b *builder) description() []byte {
	if len(b.notes) == 0 {
		return b.descr
	}
	d := ""
	if b.descr != nil && json.Unmarshal(b.descr, &d) != nil {
		return b.descr // not a string: not ours to change
	}
	note := "The arguments must match one of these alternatives, by required properties: " + strings.Join(b.notes, "; and one of: ") + "."
	if d = strings.TrimRight(d, " \n"); strings.TrimSpace(d) != "" {
		note = d + "\n\n" + note
	}
	out, _ := json.Marshal(note)
	return out
}

// checkRefs refuses a reference in schema whose target Flatten moves or
// leaves out. When other schemas were merged into the root, only "#"
// and references into the root's $defs or definitions are kept, which
// Flatten leaves as they are; else (keywords only left out) a JSON
// Pointer into a keyword left out, or, when one of those holds an $id
// or an anchor, any reference but those.
func checkRefs(schema json.RawMessage, merged bool, dropped map[string]bool) error {
	if !merged && len(dropped) == 0 || !bytes.Contains(schema, []byte("ef")) && !bytes.Contains(schema, []byte(`\u`)) {
		return nil // no reference: "$ref", "$dynamicRef" or "$recursiveRef", unless escaped
	}
	var doc any
	if json.Unmarshal(schema, &doc) != nil {
		return nil
	}
	strict := merged
	if root, ok := doc.(map[string]any); ok && !merged {
		for k := range dropped {
			strict = strict || holdsIdentity(root[k])
		}
	}
	var bad *Error
	var at path // the pointer of v, made only for an error: depth would make it quadratic
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				x := v[k]
				if bad != nil {
					return
				}
				at.push(escape(k))
				if s, ok := x.(string); ok && isRef(k) && !refKept(s, strict, dropped) {
					bad = &Error{Pointer: at.String(), Reason: fmt.Sprintf("the reference %s would no longer point where it does once the root is rewritten to leave out what the provider refuses there", truncate([]byte(strconv.Quote(s))))}
					return
				}
				walk(x)
				at.pop()
			}
		case []any:
			for i, x := range v {
				at.push(strconv.Itoa(i))
				walk(x)
				at.pop()
			}
		}
	}
	walk(doc)
	if bad != nil {
		return bad
	}
	return nil
}

// checkRootRefs refuses a schema whose references may name its root
// ("#", or anything but a JSON Pointer "#/...") when one of its
// references stands where a looser target refuses more: under not, if,
// oneOf or contains, or beside unevaluatedProperties or
// unevaluatedItems. What is sent is looser than the root, and such a
// reference would then see it instead (or see a definition that does).
// The parts Flatten rewrites, the root and the allOf, anyOf and oneOf
// it merges, are sent as looser schemas, not kept: their unions are no
// such place; what it leaves out for p is not looked into.
func checkRootRefs(schema json.RawMessage, p Provider) error {
	if !bytes.Contains(schema, []byte("ef")) && !bytes.Contains(schema, []byte(`\u`)) {
		return nil
	}
	var doc any
	if json.Unmarshal(schema, &doc) != nil {
		return nil
	}
	rootRef := false
	var find func(v any)
	find = func(v any) {
		switch v := v.(type) {
		case map[string]any:
			for k, x := range v {
				if s, ok := x.(string); ok && isRef(k) && !strings.HasPrefix(s, "#/") {
					rootRef = true
				}
				find(x)
			}
		case []any:
			for _, x := range v {
				find(x)
			}
		}
	}
	if find(doc); !rootRef {
		return nil
	}
	var bad *Error
	// top: a schema Flatten rewrites; neg: below a place where a looser
	// schema refuses more.
	var at path
	var walk func(v any, top, neg bool)
	walk = func(v any, top, neg bool) {
		switch v := v.(type) {
		case map[string]any:
			_, ue := v["unevaluatedProperties"]
			_, ui := v["unevaluatedItems"]
			neg = neg || (ue || ui) && !top
			for _, k := range slices.Sorted(maps.Keys(v)) {
				if bad != nil {
					return
				}
				x := v[k]
				at.push(escape(k))
				if _, ok := x.(string); ok && isRef(k) && neg {
					bad = &Error{Pointer: at.String(), Reason: "a reference that may lead back to the root cannot stand under not, if, oneOf or contains, or beside unevaluatedProperties, once the root is rewritten into a looser schema: it would refuse more"}
					return
				}
				items, isArray := x.([]any)
				switch {
				case top && isArray && (k == "allOf" || k == "anyOf" || k == "oneOf"):
					for i, y := range items {
						at.push(strconv.Itoa(i))
						walk(y, true, neg)
						at.pop()
					}
				case top && (k == "not" || k == "enum") && RefusedBy(k)&p != 0:
					// left out
				default:
					walk(x, false, neg || k == "not" || k == "if" || k == "oneOf" || k == "contains")
				}
				at.pop()
			}
		case []any:
			for i, x := range v {
				at.push(strconv.Itoa(i))
				walk(x, false, neg)
				at.pop()
			}
		}
	}
	walk(doc, true, false)
	if bad != nil {
		return bad
	}
	return nil
}

// path is a JSON Pointer being walked, one segment a member.
type path []string

func (p *path) push(seg string) { *p = append(*p, seg) }
func (p *path) pop()            { *p = (*p)[:len(*p)-1] }

func (p path) String() string {
	if len(p) == 0 {
		return ""
	}
	return "/" + strings.Join(p, "/")
}

func isRef(k string) bool { return k == "$ref" || k == "$dynamicRef" || k == "$recursiveRef" }

// identified is the first keyword giving a schema an identity ($id,
// an anchor; id in drafts before 6) that the decoded schema v, or a
// schema in it, holds; "" for none.
func identified(v any, legacy bool) string {
	m, ok := v.(map[string]any)
	if !ok {
		return ""
	}
	for _, k := range slices.Sorted(maps.Keys(m)) {
		x := m[k]
		switch k {
		case "$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor":
			return k
		case "id":
			if _, ok := x.(string); ok && legacy {
				return k
			}
		case "properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies":
			if sub, ok := x.(map[string]any); ok {
				for _, n := range slices.Sorted(maps.Keys(sub)) {
					if id := identified(sub[n], legacy); id != "" {
						return id
					}
				}
			}
		case "allOf", "anyOf", "oneOf", "items", "prefixItems":
			items, ok := x.([]any)
			if !ok {
				items = []any{x}
			}
			for _, y := range items {
				if id := identified(y, legacy); id != "" {
					return id
				}
			}
		case "not", "if", "then", "else", "additionalProperties", "additionalItems", "contains", "propertyNames",
			"unevaluatedProperties", "unevaluatedItems", "contentSchema":
			if id := identified(x, legacy); id != "" {
				return id
			}
		}
	}
	return ""
}

// holdsIdentity reports whether the decoded JSON v holds an $id or an
// anchor a reference could name.
func holdsIdentity(v any) bool {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if k == "$id" || k == "id" || k == "$anchor" || k == "$dynamicAnchor" || k == "$recursiveAnchor" || holdsIdentity(x) {
				return true
			}
		}
	case []any:
		for _, x := range v {
			if holdsIdentity(x) {
				return true
			}
		}
	}
	return false
}

// refKept reports whether reference ref still points where it did (see
// checkRefs).
func refKept(ref string, strict bool, dropped map[string]bool) bool {
	if ref == "#" {
		return true
	}
	if frag, ok := strings.CutPrefix(ref, "#/"); ok {
		seg, _, _ := strings.Cut(frag, "/")
		if seg == "$defs" || seg == "definitions" {
			return true
		}
		if strict {
			return false
		}
		return !dropped[seg] && !strings.ContainsAny(seg, "%~")
	}
	return !strict
}

func escape(k string) string {
	return strings.ReplaceAll(strings.ReplaceAll(k, "~", "~0"), "/", "~1")
}
