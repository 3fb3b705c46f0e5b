// Package scale makes synthetic tool catalogues of any size for the scale
// benchmarks (make bench-scale): a realistic mix of flat tools, nested
// objects, arrays of objects, enums, unions, formats and bounds, with the
// argument shapes real catalogues repeat (owner, repo, page, per_page,
// ids, dates) across many tools, the way GitHub's or a registry's tools do.
// The same size and seed always give the same bytes.
package scale

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

var (
	verbs    = []string{"list", "get", "create", "update", "delete", "search", "archive", "sync", "export", "count"}
	entities = []string{"issue", "repo", "invoice", "customer", "order", "ticket", "project", "task", "user", "file", "event", "report", "asset", "device", "policy"}
	groups   = []string{"github", "billing", "crm", "shop", "support", "onto", "drive", "calendar", "fleet", "iam"}
)

// schema is a JSON Schema under construction (key order kept by
// encoding/json's sorted map output; fine for benchmarks).
type schema = map[string]any

// shared argument shapes, repeated across tools like real catalogues.
func owner() schema {
	return schema{"type": "string", "description": "Account owner login.", "minLength": 1}
}
func repo() schema {
	return schema{"type": "string", "description": "Repository name.", "pattern": "^[A-Za-z0-9_.-]+$"}
}
func page() schema {
	return schema{"type": "integer", "description": "Page number.", "minimum": 1, "default": 1}
}
func perPage() schema {
	return schema{"type": "integer", "description": "Results per page.", "minimum": 1, "maximum": 100, "default": 30}
}
func since() schema {
	return schema{"type": "string", "format": "date-time", "description": "Only items changed after this time."}
}

// Catalogue returns n tools as a ChatToolDefinition array.
func Catalogue(n int, seed uint64) []byte {
	r := rand.New(rand.NewPCG(seed, 0x5eed))
	tools := make([]any, 0, n)
	for i := 0; i < n; i++ {
		g := groups[i%len(groups)]
		e := entities[(i/len(groups))%len(entities)]
		v := verbs[(i/(len(groups)*len(entities)))%len(verbs)]
		name := fmt.Sprintf("%s_%s_%s", v, g, e)
		if i >= len(groups)*len(entities)*len(verbs) {
			name += fmt.Sprintf("_%d", i)
		}
		tools = append(tools, schema{
			"type": "function",
			"function": schema{
				"name":        name,
				"description": fmt.Sprintf("%s %s %ss. %s", strings.ToUpper(v[:1])+v[1:], g, e, filler(r)),
				"parameters":  params(r, i, e),
			},
		})
	}
	out, err := json.MarshalIndent(tools, "", " ")
	if err != nil {
		panic(err) // only maps, strings and numbers: cannot fail
	}
	return out
}

// WideObject returns one tool whose params object has n properties.
func WideObject(n int) []byte {
	props := schema{}
	var required []string
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("field_%04d", i)
		switch i % 4 {
		case 0:
			props[name] = schema{"type": "string", "maxLength": 200}
		case 1:
			props[name] = schema{"type": "integer", "minimum": 0}
		case 2:
			props[name] = schema{"type": "boolean"}
		default:
			props[name] = schema{"enum": []any{"a", "b", "c"}}
		}
		if i%10 == 0 {
			required = append(required, name)
		}
	}
	tool := schema{"type": "function", "function": schema{"name": "put_wide_record", "description": "Store a wide record.",
		"parameters": schema{"type": "object", "properties": props, "required": required, "additionalProperties": false}}}
	out, _ := json.Marshal([]any{tool})
	return out
}

func filler(r *rand.Rand) string {
	words := []string{"Returns", "the", "matching", "records", "for", "the", "caller", "with", "pagination", "and", "filters", "applied", "in", "order"}
	n := 6 + r.IntN(14)
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(words[r.IntN(len(words))])
	}
	b.WriteByte('.')
	return b.String()
}

// params picks one of the shapes by tool index, so every size has the same
// mix: flat (40%), nested object (20%), array of objects (15%), enums and
// formats (15%), union (10%).
func params(r *rand.Rand, i int, entity string) schema {
	props := schema{"owner": owner(), "repo": repo()}
	required := []any{"owner"}
	switch k := i % 20; {
	case k < 8: // flat with paging and bounds
		props["page"], props["per_page"] = page(), perPage()
		props["query"] = schema{"type": "string", "maxLength": 256, "description": "Free-text filter."}
		props["since"] = since()
	case k < 12: // nested object
		props[entity] = schema{"type": "object", "required": []any{"title"}, "additionalProperties": false, "properties": schema{
			"title":  schema{"type": "string", "minLength": 1, "maxLength": 200},
			"body":   schema{"type": "string"},
			"labels": schema{"type": "array", "items": schema{"type": "string"}, "uniqueItems": true, "maxItems": 20},
			"meta": schema{"type": "object", "properties": schema{
				"source": schema{"type": "string"}, "weight": schema{"type": "number", "minimum": 0, "maximum": 1},
			}},
		}}
		required = append(required, entity)
	case k < 15: // array of objects
		props["items"] = schema{"type": "array", "minItems": 1, "maxItems": 50, "items": schema{
			"type": "object", "required": []any{"id", "quantity"}, "properties": schema{
				"id":       schema{"type": "string", "pattern": "^[a-z]{2}_[0-9]+$"},
				"quantity": schema{"type": "integer", "minimum": 1, "maximum": 1000},
				"note":     schema{"type": []any{"string", "null"}},
			}}}
		required = append(required, "items")
	case k < 18: // enums and formats
		props["state"] = schema{"type": "string", "enum": []any{"open", "closed", "all"}, "default": "open"}
		props["sort"] = schema{"type": "string", "enum": []any{"created", "updated", "comments"}}
		props["direction"] = schema{"type": "string", "enum": []any{"asc", "desc"}}
		props["due"] = schema{"type": "string", "format": "date"}
		props["email"] = schema{"type": "string", "format": "email"}
		props["page"], props["per_page"] = page(), perPage()
	default: // union
		props["target"] = schema{"oneOf": []any{
			schema{"type": "object", "required": []any{"kind", "id"}, "properties": schema{"kind": schema{"const": "user"}, "id": schema{"type": "integer"}}},
			schema{"type": "object", "required": []any{"kind", "slug"}, "properties": schema{"kind": schema{"const": "team"}, "slug": schema{"type": "string"}}},
		}}
		required = append(required, "target")
	}
	if r.IntN(4) == 0 {
		props["dry_run"] = schema{"type": "boolean", "default": false}
	}
	return schema{"type": "object", "properties": props, "required": required}
}
