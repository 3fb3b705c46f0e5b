package schema

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// A resource is a schema document (or an embedded $id resource) that
// $ref fragments are resolved against.
type resource struct {
	// uri is the absolute base URI, without fragment.
	uri  string
	root *jsonpos.Node
	// draft is 7 for draft-04/06/07 documents ($ref siblings ignored,
	// array-form items), 2020 otherwise.
	draft   int
	anchors map[string]*jsonpos.Node
	// parent is the resource an embedded ($id) resource sits in; nil for
	// a document.
	parent *resource
}

// doc is the document (outermost resource) res belongs to.
func (res *resource) doc() *resource {
	for res.parent != nil {
		res = res.parent
	}
	return res
}

// Schema-valued keywords, by shape. They drive indexing, delegation and
// every walk over subschemas; values elsewhere (enum, const, examples,
// default, unknown keywords) are data, not schemas.
var (
	refSchemaKeywords = []string{
		"additionalProperties", "propertyNames", "not", "if", "then", "else",
		"contains", "additionalItems", "unevaluatedItems",
		"unevaluatedProperties", "contentSchema",
	}
	refSchemaListKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	refSchemaMapKeywords  = []string{
		"properties", "patternProperties", "$defs", "definitions",
		"dependentSchemas",
	}
)

// A slot is how a keyword's value holds schemas.
type slot uint8

const (
	slotNone  slot = iota // data, not schemas
	slotOne               // the value is a schema
	slotItems             // a schema, or an array of schemas (draft-07 items)
	slotList              // an array of schemas
	slotMap               // an object of schemas
	// slotDeps is an object whose object and boolean values are schemas
	// (draft-07 dependencies; arrays there are property names).
	slotDeps
)

// slotOf is the slot of keyword key.
func slotOf(key string) slot {
	switch {
	case key == "items":
		return slotItems
	case key == "dependencies":
		return slotDeps
	case slices.Contains(refSchemaKeywords, key):
		return slotOne
	case slices.Contains(refSchemaListKeywords, key):
		return slotList
	case slices.Contains(refSchemaMapKeywords, key):
		return slotMap
	}
	return slotNone
}

// mapSlot returns v, the value of a keyword of slot s, with f applied to
// each schema it holds; v itself when f changes none of them.
func mapSlot(s slot, v *jsonpos.Node, f func(*jsonpos.Node) *jsonpos.Node) *jsonpos.Node {
	switch {
	case s == slotOne || s == slotItems && v.Kind != jsonpos.ArrayNode:
		return f(v)
	case (s == slotItems || s == slotList) && v.Kind == jsonpos.ArrayNode:
		var items []*jsonpos.Node
		for i, it := range v.Items {
			if r := f(it); r != it && items == nil {
				items = slices.Clone(v.Items)
				items[i] = r
			} else if items != nil {
				items[i] = r
			}
		}
		if items == nil {
			return v
		}
		cp := *v
		cp.Items = items
		return &cp
	case (s == slotMap || s == slotDeps) && v.Kind == jsonpos.ObjectNode:
		var members []jsonpos.Member
		for i, m := range v.Members {
			if s == slotDeps && m.Value.Kind != jsonpos.ObjectNode && m.Value.Kind != jsonpos.BoolNode {
				continue
			}
			if r := f(m.Value); r != m.Value && members == nil {
				members = slices.Clone(v.Members)
				members[i].Value = r
			} else if members != nil {
				members[i].Value = r
			}
		}
		if members == nil {
			return v
		}
		cp := *v // the keys are the same: the key index holds
		cp.Members = members
		return &cp
	}
	return v
}

// refSubschemas calls f for each schema directly below n (in source order).
func refSubschemas(n *jsonpos.Node, f func(*jsonpos.Node)) {
	if n == nil || n.Kind != jsonpos.ObjectNode {
		return
	}
	for _, m := range n.Members {
		if s := slotOf(m.Key); s != slotNone {
			mapSlot(s, m.Value, func(sub *jsonpos.Node) *jsonpos.Node {
				f(sub)
				return sub
			})
		}
	}
}

// fileURI is the base URI of an input file.
func refFileURI(file string) string {
	p := strings.TrimPrefix(path.Clean("/"+strings.ReplaceAll(file, "\\", "/")), "/")
	return "file:///" + p
}

// draftOf reads $schema.
func refDraftOf(n *jsonpos.Node, inherited int) int {
	s := n.Get("$schema")
	if s == nil || s.Kind != jsonpos.StringNode {
		return inherited
	}
	for _, d := range []string{"draft-03", "draft-04", "draft-06", "draft-07"} {
		if strings.Contains(s.Str, d) {
			return 7
		}
	}
	return 2020
}

// index registers root and all its subschemas as belonging to a resource
// with base uri, following $id into embedded resources.
func (c *compiler) index(root *jsonpos.Node, uri string, draft int) *resource {
	res := &resource{uri: uri, root: root, draft: refDraftOf(root, draft), anchors: map[string]*jsonpos.Node{}}
	c.indexNode(root, res)
	return res
}

func (c *compiler) indexNode(n *jsonpos.Node, res *resource) {
	if _, ok := c.resOf[n]; ok {
		return
	}
	// Draft-07 ignores every sibling of $ref, $id included.
	if n.Kind == jsonpos.ObjectNode && !(res.draft == 7 && n.Get("$ref") != nil) {
		if id := n.Get("$id"); id != nil && id.Kind == jsonpos.StringNode && n != res.root {
			if base, frag, ok := refResolve(res.uri, id.Str); ok {
				if frag == "" {
					sub := &resource{uri: base, root: n, draft: refDraftOf(n, res.draft), anchors: map[string]*jsonpos.Node{}, parent: res}
					if prev, dup := c.byURI[base]; !dup {
						c.byURI[base] = sub
					} else {
						c.sameDeclared(id, "$id", id.Str, prev.root, n)
					}
					res = sub
				} else if base == res.uri && !strings.HasPrefix(frag, "/") {
					res.anchors[frag] = n // draft-07 "$id": "#name"
				}
			}
		} else if id != nil && id.Kind == jsonpos.StringNode && n == res.root {
			if base, frag, ok := refResolve(res.uri, id.Str); ok && frag == "" && base != res.uri {
				res.uri = base
				if _, dup := c.byURI[base]; !dup {
					c.byURI[base] = res
				}
			}
		}
		for _, k := range []string{"$anchor", "$dynamicAnchor"} {
			if a := n.Get(k); a != nil && a.Kind == jsonpos.StringNode {
				if prev, dup := res.anchors[a.Str]; !dup {
					res.anchors[a.Str] = n
				} else {
					c.sameDeclared(a, k, a.Str, prev, n)
				}
			}
		}
	}
	c.resOf[n] = res
	if !c.refs && n.Kind == jsonpos.ObjectNode && (n.Get("$ref") != nil || n.Get("$dynamicRef") != nil) {
		c.refs = true
	}
	refSubschemas(n, func(s *jsonpos.Node) { c.indexNode(s, res) })
}

// sameDeclared warns when schema n declares an $id or anchor (kw, value
// name, written at at) that schema prev declared already, unless both
// schemas are the same JSON (a bundler's copies): references to it
// resolve to prev, and n is never reached by one.
func (c *compiler) sameDeclared(at *jsonpos.Node, kw, name string, prev, n *jsonpos.Node) {
	if prev == n || jsonEqual(prev, n) {
		return
	}
	c.warnf(at, "duplicate-id", "%s %q is declared again (first at %s:%d:%d %s): references to it resolve to the first", kw, name, prev.Pos.File, prev.Pos.Line, prev.Pos.Col, describePointer(prev))
}

// refResolve resolves ref against base and splits off the fragment
// (percent-decoded).
func refResolve(base, ref string) (abs, frag string, ok bool) {
	b, err := url.Parse(base)
	if err != nil {
		return "", "", false
	}
	r, err := url.Parse(ref)
	if err != nil {
		return "", "", false
	}
	u := b.ResolveReference(r)
	frag = u.Fragment
	u.Fragment = ""
	u.RawFragment = ""
	return u.String(), frag, true
}

// resolveRef finds the schema a $ref (or $dynamicRef) points to.
func (c *compiler) resolveRef(ref *jsonpos.Node, from *resource) (*jsonpos.Node, *resource, *jsonpos.Error) {
	abs, frag, ok := refResolve(from.uri, ref.Str)
	if !ok {
		return nil, nil, jsonpos.Errorf(ref.Pos, "invalid $ref %q", ref.Str)
	}
	res := from
	if !strings.HasPrefix(ref.Str, "#") {
		res = c.byURI[abs]
		if res == nil && strings.HasPrefix(abs, "file:") {
			// An input file named by another path (a relative $ref
			// between files given from different folders); never a
			// remote document that happens to share a local file's name.
			res = c.files[path.Base(abs)]
		}
		if res == nil && abs == from.uri {
			res = from
		}
		if res == nil && frag == "" && slices.Contains(metaschemas, abs) {
			return c.externalRef(ref, abs), from, nil
		}
		if res == nil {
			return nil, nil, jsonpos.Errorf(ref.Pos, "unresolvable $ref %q: toolgen fetches no documents (a $ref reaches another input file by a relative path, and a schema by its $id); copy the schema into this document's $defs and refer to it as \"#/$defs/NAME\"", ref.Str)
		}
	}
	var target *jsonpos.Node
	switch {
	case frag == "":
		target = res.root
	case strings.HasPrefix(frag, "/"):
		target = res.root.Pointer(frag)
	default:
		target = res.anchors[frag]
	}
	if target == nil {
		if file := c.byURI[res.uri]; file != nil && file.root != res.doc().root && strings.HasPrefix(ref.Str, "#/") && file.root.Pointer(frag) != nil {
			// "#/$defs/X" meant for the file's top-level $defs.
			return nil, nil, jsonpos.Errorf(ref.Pos, "unresolvable $ref %q: in a tool's schema, \"#\" is that schema (it is sent to the model alone), not its file; to reach %s at the top of the file, write %q (toolgen copies what it reaches into the tool's schema)", ref.Str, frag, path.Base(res.uri)+ref.Str)
		}
		return nil, nil, jsonpos.Errorf(ref.Pos, "unresolvable $ref %q", ref.Str)
	}
	if target.Kind != jsonpos.ObjectNode && target.Kind != jsonpos.BoolNode {
		return nil, nil, jsonpos.Errorf(ref.Pos, "$ref %q does not point to a schema", ref.Str)
	}
	if tr := c.resOf[target]; tr != nil {
		return target, tr, nil
	}
	// A schema under a keyword toolgen does not know (components, ...):
	// it belongs to the document it sits in.
	c.indexNode(target, res)
	return target, c.resOf[target], nil
}

// refName is the type name a $ref target suggests: the $defs key, the last
// pointer token, the anchor, or the file's base name.
func refName(ref string) string {
	i := strings.LastIndexByte(ref, '#')
	if i < 0 {
		b := path.Base(ref)
		return strings.TrimSuffix(b, path.Ext(b))
	}
	frag := ref[i+1:]
	if frag == "" {
		b := path.Base(ref[:i])
		return strings.TrimSuffix(b, path.Ext(b))
	}
	if f, err := url.PathUnescape(frag); err == nil {
		frag = f
	}
	if j := strings.LastIndexByte(frag, '/'); j >= 0 {
		frag = frag[j+1:]
	}
	return strings.NewReplacer("~1", "/", "~0", "~").Replace(frag)
}

// metaschemas are the standard dialects' metaschemas, which the embedded
// validator knows without loading anything.
var metaschemas = []string{
	"https://json-schema.org/draft/2020-12/schema",
	"https://json-schema.org/draft/2019-09/schema",
	"http://json-schema.org/draft-07/schema",
	"http://json-schema.org/draft-06/schema",
	"http://json-schema.org/draft-04/schema",
}

// externalRef returns the schema {"$ref": abs} standing for a metaschema:
// compiled as any value, delegated whole to the embedded validator.
func (c *compiler) externalRef(ref *jsonpos.Node, abs string) *jsonpos.Node {
	if n, ok := c.externals[abs]; ok {
		return n
	}
	n := &jsonpos.Node{Kind: jsonpos.ObjectNode, Pos: ref.Pos, Members: []jsonpos.Member{{Key: "$ref", Value: &jsonpos.Node{Kind: jsonpos.StringNode, Pos: ref.Pos, Str: abs + "#"}}}}
	c.externals[abs] = n
	c.external[n] = true
	return n
}
