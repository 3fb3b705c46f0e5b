package schema

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// OpArg is one argument in an op's summary (name, type, required, default),
// read from the tool's parameters schema.
type OpArg struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Default     string `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
	// Schema is the property's schema (compact JSON).
	Schema json.RawMessage `json:"-"`
}

// propSchema is the part of a property schema the summaries read.
type propSchema struct {
	Type        json.RawMessage   `json:"type"`
	Enum        []json.RawMessage `json:"enum"`
	Const       json.RawMessage   `json:"const"`
	Ref         string            `json:"$ref"`
	Format      string            `json:"format"`
	Default     json.RawMessage   `json:"default"`
	Description string            `json:"description"`
	Items       json.RawMessage   `json:"items"`
	OneOf       []json.RawMessage `json:"oneOf"`
	AnyOf       []json.RawMessage `json:"anyOf"`
	Properties  json.RawMessage   `json:"properties"`
}

// OpArgs summarises a tool's top-level arguments in schema order.
func OpArgs(t *ir.Tool) []OpArg {
	return schemaArgs(t.ParamsSchema)
}

// irArgs is the IR form of an argument summary.
func irArgs(args []OpArg) []ir.Arg {
	if len(args) == 0 {
		return nil
	}
	out := make([]ir.Arg, len(args))
	for i, a := range args {
		out[i] = ir.Arg{Name: a.Name, Type: a.Type, Required: a.Required, Default: a.Default, Description: a.Description}
	}
	return out
}

// schemaArgs summarises the properties of an object schema.
func schemaArgs(objectSchema json.RawMessage) []OpArg {
	var root struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(objectSchema) == 0 || json.Unmarshal(objectSchema, &root) != nil {
		return nil
	}
	keys, vals := orderedMembers(root.Properties)
	args := make([]OpArg, 0, len(keys))
	for _, k := range keys {
		var p propSchema
		_ = json.Unmarshal(vals[k], &p)
		a := OpArg{Name: k, Type: typeLabel(vals[k]), Required: mfContains(root.Required, k), Description: firstSentence(p.Description), Schema: vals[k]}
		if len(p.Default) > 0 {
			a.Default = compactJSON(p.Default)
		}
		args = append(args, a)
	}
	return args
}

// Usage renders the CLI-like one-liner of an op: required args bare,
// optional ones in brackets, defaults after '='.
//
//	onto.task.list [project_id:string] [limit:integer=20]
func Usage(path string, args []OpArg) string {
	var b strings.Builder
	b.WriteString(path)
	for _, req := range []bool{true, false} {
		for _, a := range args {
			if a.Required != req {
				continue
			}
			s := a.Name + ":" + a.Type
			if a.Default != "" {
				s += "=" + a.Default
			}
			if !req {
				s = "[" + s + "]"
			}
			b.WriteByte(' ')
			b.WriteString(s)
		}
	}
	return b.String()
}

// typeLabel names a property schema's type compactly: string, integer,
// string|null, array<string>, enum(a|b|c), object.
func typeLabel(raw json.RawMessage) string {
	var p propSchema
	if json.Unmarshal(raw, &p) != nil {
		return "any"
	}
	if len(p.Enum) > 0 {
		vals := make([]string, 0, len(p.Enum))
		for i, e := range p.Enum {
			if i == 6 {
				vals = append(vals, "…")
				break
			}
			var s string
			if json.Unmarshal(e, &s) == nil {
				vals = append(vals, s)
			} else {
				vals = append(vals, compactJSON(e))
			}
		}
		return "enum(" + strings.Join(vals, "|") + ")"
	}
	if len(p.Const) > 0 {
		return "const(" + compactJSON(p.Const) + ")"
	}
	var types []string
	var one string
	switch {
	case json.Unmarshal(p.Type, &one) == nil:
		types = []string{one}
	case json.Unmarshal(p.Type, &types) == nil:
	}
	if len(types) == 0 {
		switch {
		case p.Ref != "":
			return "object"
		case len(p.OneOf) > 0 || len(p.AnyOf) > 0:
			var alts []string
			for _, b := range append(p.OneOf, p.AnyOf...) {
				if l := typeLabel(b); !mfContains(alts, l) {
					alts = append(alts, l)
				}
			}
			return strings.Join(alts, "|")
		case len(p.Properties) > 0:
			return "object"
		case len(p.Items) > 0:
			types = []string{"array"}
		default:
			return "any"
		}
	}
	for i, ty := range types {
		if ty == "array" && len(p.Items) > 0 && p.Items[0] == '{' {
			types[i] = "array<" + typeLabel(p.Items) + ">"
		}
	}
	return strings.Join(types, "|")
}

// SynthesizeExample builds a ready-to-run call from the required args, with
// placeholder values of the right type.
func SynthesizeExample(path string, t *ir.Tool) ir.Example {
	args := SynthesizeArgs(t.ParamsSchema, 0)
	desc := "Call " + path
	if args != "{}" {
		desc += " with its required args"
	}
	return ir.Example{Description: desc, Args: json.RawMessage(args)}
}

// SynthesizeArgs builds a JSON object holding placeholder values for the
// required properties of an object schema.
func SynthesizeArgs(objectSchema json.RawMessage, depth int) string {
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, a := range schemaArgs(objectSchema) {
		if !a.Required {
			continue
		}
		if n > 0 {
			b.WriteByte(',')
		}
		n++
		b.WriteString(jsonString(a.Name))
		b.WriteByte(':')
		b.WriteString(placeholder(a.Name, a.Schema, depth))
	}
	b.WriteByte('}')
	return b.String()
}

// placeholder returns a JSON value of the schema's type for property name;
// arrays get one item and objects their required properties, down to a
// small depth.
func placeholder(name string, raw json.RawMessage, depth int) string {
	var p propSchema
	_ = json.Unmarshal(raw, &p)
	if len(p.Enum) > 0 {
		return compactJSON(p.Enum[0])
	}
	if len(p.Const) > 0 {
		return compactJSON(p.Const)
	}
	if len(p.Default) > 0 {
		return compactJSON(p.Default)
	}
	ty := typeLabel(raw)
	if i := strings.IndexByte(ty, '|'); i > 0 {
		ty = ty[:i]
	}
	switch {
	case ty == "integer" || ty == "number":
		return "1"
	case ty == "boolean":
		return "true"
	case strings.HasPrefix(ty, "array"):
		if depth < 3 && len(p.Items) > 0 && p.Items[0] == '{' {
			return "[" + placeholder(singular(name), p.Items, depth+1) + "]"
		}
		return "[]"
	case ty == "object":
		if depth < 3 {
			return SynthesizeArgs(raw, depth+1)
		}
		return "{}"
	case ty == "null":
		return "null"
	}
	switch p.Format {
	case "uuid":
		return `"00000000-0000-0000-0000-000000000000"`
	case "date-time":
		return `"2025-01-01T00:00:00Z"`
	case "date":
		return `"2025-01-01"`
	case "email":
		return `"user@example.com"`
	case "uri", "url":
		return `"https://example.com"`
	}
	return jsonString("<" + name + ">")
}

// jsonString encodes s as a JSON string without HTML escaping.
func jsonString(s string) string {
	var b bytes.Buffer
	writeJSONString(&b, s)
	return b.String()
}

// registryRecord is the canonical form of an op hashed into the registry
// version; field order is fixed by the struct.
type registryRecord struct {
	Op            string          `json:"op"`
	Tool          string          `json:"tool_name"`
	Description   string          `json:"description"`
	Parameters    json.RawMessage `json:"parameters_schema"`
	Group         string          `json:"group"`
	Kind          runtime.OpKind  `json:"kind"`
	Entity        string          `json:"entity"`
	Action        string          `json:"action"`
	Usage         string          `json:"usage"`
	Notes         []string        `json:"notes"`
	Examples      []registryEx    `json:"examples"`
	Policy        *ir.Policy      `json:"policy"`
	DryRunDefault bool            `json:"dry_run_default"`
}

type registryEx struct {
	Description string          `json:"description"`
	Args        json.RawMessage `json:"args"`
}

// RegistryVersion is a stable hash (16 hex digits of SHA-256) of the
// canonical JSON of f's groups and ops: object keys sorted, numbers as
// written, independent of map order, machine and run.
func RegistryVersion(f *ir.Family) string {
	var doc struct {
		Groups []*ir.Group      `json:"groups"`
		Ops    []registryRecord `json:"ops"`
	}
	doc.Groups = f.Groups
	for _, op := range f.Ops {
		r := registryRecord{Op: op.Path, Group: op.Group, Kind: op.Kind, Entity: op.Entity, Action: op.Action,
			Usage: op.Usage, Notes: op.Notes, Policy: op.Policy, DryRunDefault: op.DryRunDefault}
		if op.Tool != nil {
			r.Tool, r.Description = op.Tool.Name, op.Tool.Description
			r.Parameters = canonicalJSON(op.Tool.ParamsSchema)
		}
		for _, ex := range op.Examples {
			r.Examples = append(r.Examples, registryEx{Description: ex.Description, Args: canonicalJSON(ex.Args)})
		}
		doc.Ops = append(doc.Ops, r)
	}
	b, err := json.Marshal(doc)
	if err != nil {
		// Every field is plain data; canonicalJSON guarantees valid JSON.
		b = []byte(fmt.Sprint(err))
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:8])
}

// canonicalJSON re-encodes raw with object keys sorted and numbers kept as
// written; invalid or empty input becomes null.
func canonicalJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return json.RawMessage("null")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return json.RawMessage("null")
	}
	b, err := json.Marshal(v)
	if err != nil {
		return json.RawMessage("null")
	}
	return b
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// orderedMembers returns an object's keys in source order and their raw
// values; anything but an object yields nothing.
func orderedMembers(raw json.RawMessage) ([]string, map[string]json.RawMessage) {
	vals := map[string]json.RawMessage{}
	if len(raw) == 0 || json.Unmarshal(raw, &vals) != nil {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	var keys []string
	if _, err := dec.Token(); err != nil { // {
		return nil, nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		k, _ := tok.(string)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return nil, nil
		}
		if !mfContains(keys, k) {
			keys = append(keys, k)
		}
	}
	return keys, vals
}

// firstSentence returns the first sentence of s (the sentence rule of
// policy.go), at most 120 runes with an ellipsis. It is not
// runtime/check.FirstSentence, which cuts at a word boundary: schema links
// check (for patterns) but keeps this rule because the argument summaries
// it cuts are hashed into the registry version.
func firstSentence(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	if ss := sentences(s); len(ss) > 0 {
		s = ss[0]
	}
	if r := []rune(s); len(r) > 120 {
		s = string(r[:119]) + "…"
	}
	return s
}
