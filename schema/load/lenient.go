package load

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/jsonpos"
)

// standardTypes are the JSON Schema type names.
var standardTypes = map[string]bool{
	"null": true, "boolean": true, "object": true, "array": true,
	"number": true, "string": true, "integer": true,
}

// typeAliases maps non-standard type names seen in public tool sets
// (lower-cased) to the JSON Schema type they mean. "" means "any value":
// the type keyword is dropped.
var typeAliases = map[string]string{
	"dict": "object", "dictionary": "object", "map": "object", "hashmap": "object",
	"obj": "object", "struct": "object", "record": "object", "object": "object",
	"float": "number", "double": "number", "decimal": "number", "real": "number",
	"float32": "number", "float64": "number", "number": "number", "numeric": "number",
	"int": "integer", "long": "integer", "short": "integer", "int32": "integer",
	"int64": "integer", "uint": "integer", "integer": "integer", "bigint": "integer",
	"str": "string", "text": "string", "char": "string", "string": "string",
	"bool": "boolean", "boolean": "boolean",
	"list": "array", "tuple": "array", "set": "array", "array": "array",
	"arraylist": "array", "sequence": "array",
	"none": "null", "nil": "null", "null": "null",
	"any": "",
}

// schemaKeywords are the keywords whose value is a schema.
var schemaKeywords = []string{
	"additionalProperties", "unevaluatedProperties", "propertyNames",
	"items", "additionalItems", "unevaluatedItems", "contains",
	"not", "if", "then", "else", "contentSchema",
}

// schemaMapKeywords are the keywords whose value maps names to schemas.
var schemaMapKeywords = []string{
	"properties", "patternProperties", "$defs", "definitions",
	"dependentSchemas", "dependencies",
}

// schemaListKeywords are the keywords whose value is an array of schemas.
var schemaListKeywords = []string{"prefixItems", "anyOf", "oneOf", "allOf", "items"}

// rewrite is the key of one kind of lenient rewrite.
type rewrite struct {
	// code is the diagnostic code: lenient-type or lenient-required.
	code     string
	from, to string
}

// typeChecker finds non-standard type names in schemas and, when lenient,
// rewrites them in place.
type typeChecker struct {
	lenient bool
	// maxDepth is the JSON nesting limit of the input (limits.Limits'
	// JSONDepth): no parsed schema nests deeper.
	maxDepth int
	rewrites tally[rewrite]
}

func newTypeChecker(lenient bool, maxDepth int) *typeChecker {
	return &typeChecker{lenient: lenient, maxDepth: maxDepth}
}

// walk checks every subschema of n and returns the errors found.
func (c *typeChecker) walk(n *jsonpos.Node) []*jsonpos.Error {
	var errs []*jsonpos.Error
	c.visit(n, &errs, 0)
	return errs
}

func (c *typeChecker) visit(n *jsonpos.Node, errs *[]*jsonpos.Error, depth int) {
	if n == nil || n.Kind != jsonpos.ObjectNode || depth > c.maxDepth {
		return
	}
	c.checkType(n, errs)
	c.checkRequired(n, errs)
	for _, k := range schemaKeywords {
		c.visit(n.Get(k), errs, depth+1)
	}
	for _, k := range schemaMapKeywords {
		if m := n.Get(k); m != nil && m.Kind == jsonpos.ObjectNode {
			for _, mem := range m.Members {
				c.visit(mem.Value, errs, depth+1)
			}
		}
	}
	for _, k := range schemaListKeywords {
		if l := n.Get(k); l != nil && l.Kind == jsonpos.ArrayNode {
			for _, it := range l.Items {
				c.visit(it, errs, depth+1)
			}
		}
	}
}

// checkType checks (or rewrites) the type keyword of schema n.
func (c *typeChecker) checkType(n *jsonpos.Node, errs *[]*jsonpos.Error) {
	idx := -1
	for i := range n.Members {
		if n.Members[i].Key == "type" {
			idx = i
			break
		}
	}
	if idx < 0 {
		return
	}
	t := n.Members[idx].Value
	switch t.Kind {
	case jsonpos.StringNode:
		if standardTypes[t.Str] {
			return
		}
		to, known := typeAliases[strings.ToLower(t.Str)]
		switch {
		case !known:
			*errs = append(*errs, jsonpos.Errorf(t.Pos, "%q is not a JSON Schema type%s", t.Str, typeSuggestion(t.Str)))
		case !c.lenient && to == "":
			*errs = append(*errs, jsonpos.Errorf(t.Pos, "%q is not a JSON Schema type; omit \"type\" to allow any value", t.Str))
		case !c.lenient:
			*errs = append(*errs, jsonpos.Errorf(t.Pos, "%q is not a JSON Schema type; use %q", t.Str, to))
		case to == "":
			c.count(codeType, t.Str, to, t.Pos)
			n.RemoveMember(idx)
		default:
			c.count(codeType, t.Str, to, t.Pos)
			t.Str = to
		}
	case jsonpos.ArrayNode:
		// A rewrite to a type the array lists already drops the alias
		// (["string","str"] is ["string"]): the compiler would report a
		// duplicate the author never wrote. "any" allows any value, so
		// a lenient rewrite removes the whole type keyword.
		listed := map[string]bool{}
		for _, it := range t.Items {
			if it.Kind == jsonpos.StringNode && standardTypes[it.Str] {
				listed[it.Str] = true
			}
		}
		kept := t.Items[:0:0]
		anyType := false
		for _, it := range t.Items {
			if it.Kind != jsonpos.StringNode {
				*errs = append(*errs, jsonpos.Errorf(it.Pos, "type names must be strings, found %s", kindName(it)))
				kept = append(kept, it)
				continue
			}
			if standardTypes[it.Str] {
				kept = append(kept, it)
				continue
			}
			to, known := typeAliases[strings.ToLower(it.Str)]
			switch {
			case !known:
				*errs = append(*errs, jsonpos.Errorf(it.Pos, "%q is not a JSON Schema type%s", it.Str, typeSuggestion(it.Str)))
			case !c.lenient && to == "":
				*errs = append(*errs, jsonpos.Errorf(it.Pos, "%q is not a JSON Schema type; omit \"type\" to allow any value", it.Str))
			case !c.lenient:
				*errs = append(*errs, jsonpos.Errorf(it.Pos, "%q is not a JSON Schema type; use %q", it.Str, to))
			case to == "":
				c.count(codeType, it.Str, to, it.Pos)
				anyType = true
				continue
			default:
				c.count(codeType, it.Str, to, it.Pos)
				if listed[to] {
					continue
				}
				listed[to] = true
				it.Str = to
			}
			kept = append(kept, it)
		}
		switch {
		case anyType:
			n.RemoveMember(idx)
		case len(kept) < len(t.Items):
			t.Items = kept
		}
	default:
		*errs = append(*errs, jsonpos.Errorf(t.Pos, "\"type\" must be a string or an array of strings, found %s", kindName(t)))
	}
}

// typeSuggestion is "; did you mean %q?" for the standard type name
// nearest to an unknown one, or "".
func typeSuggestion(name string) string {
	if s := text.Closest(name, slices.Sorted(maps.Keys(standardTypes))); s != "" {
		return fmt.Sprintf("; did you mean %q?", s)
	}
	return ""
}

// checkRequired finds draft-3 style booleans ("required": true on a
// property schema) among n's properties and, when lenient, moves them into
// n's "required" array.
func (c *typeChecker) checkRequired(n *jsonpos.Node, errs *[]*jsonpos.Error) {
	props := n.Get("properties")
	if props == nil || props.Kind != jsonpos.ObjectNode {
		return
	}
	// list is n's required array, looked up once: adding one drops n's
	// index, and a Get per property of a wide n was quadratic. listed
	// are the names it holds, found when first needed.
	list := n.Get("required")
	var listed map[string]bool
	for _, m := range props.Members {
		prop := m.Value
		if prop.Kind != jsonpos.ObjectNode {
			continue
		}
		idx := -1
		for i := range prop.Members {
			if prop.Members[i].Key == "required" && prop.Members[i].Value.Kind == jsonpos.BoolNode {
				idx = i
				break
			}
		}
		if idx < 0 {
			continue
		}
		b := prop.Members[idx].Value
		if !c.lenient {
			*errs = append(*errs, jsonpos.Errorf(b.Pos, "a boolean \"required\" on a property is draft 3 syntax; list %q in the object's \"required\" array", m.Key))
			continue
		}
		if list != nil && list.Kind != jsonpos.ArrayNode {
			continue // not fixable here; the compiler reports it
		}
		c.count(codeRequired, "", "", b.Pos)
		prop.RemoveMember(idx)
		if listed == nil {
			listed = map[string]bool{}
			if list != nil {
				for _, it := range list.Items {
					if it.Kind == jsonpos.StringNode {
						listed[it.Str] = true
					}
				}
			}
		}
		if !b.Bool || listed[m.Key] {
			continue // not required, or listed already (a name is listed once)
		}
		listed[m.Key] = true
		if list == nil {
			pos := n.Pos
			pos.Pointer += "/required"
			list = &jsonpos.Node{Kind: jsonpos.ArrayNode, Pos: pos}
			n.AddMember(jsonpos.Member{Key: "required", Value: list})
		}
		pos := b.Pos
		pos.Pointer = list.Pos.Pointer + "/" + strconv.Itoa(len(list.Items))
		list.Items = append(list.Items, &jsonpos.Node{Kind: jsonpos.StringNode, Pos: pos, Str: m.Key})
	}
}

// Diagnostic codes of lenient rewrites.
const (
	codeType     = "lenient-type"
	codeRequired = "lenient-required"
	// codeIgnoredResult is a result schema under a member the tool's
	// format does not have (load.go).
	codeIgnoredResult = "ignored-result-schema"
)

func (c *typeChecker) count(code, from, to string, pos ir.Pos) {
	c.rewrites.add(rewrite{code: code, from: from, to: to}, pos)
}

// warnings returns one diagnostic per kind of rewrite, in first-seen order.
func (c *typeChecker) warnings() []ir.Diagnostic {
	var ds []ir.Diagnostic
	for _, t := range c.rewrites.entries {
		r := t.key
		times := "times"
		if t.count == 1 {
			times = "time"
		}
		msg := fmt.Sprintf("rewrote type %q to %q %d %s", r.from, r.to, t.count, times)
		switch {
		case r.code == codeRequired:
			msg = fmt.Sprintf("moved a boolean \"required\" from a property into its object's \"required\" array %d %s", t.count, times)
		case r.to == "":
			msg = fmt.Sprintf("removed type %q (any value) %d %s", r.from, t.count, times)
		}
		ds = append(ds, ir.Diagnostic{Pos: t.first, Code: r.code, Message: msg})
	}
	return ds
}
