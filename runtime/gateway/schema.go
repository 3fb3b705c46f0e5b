package gateway

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// schemaNode is the part of a JSON Schema the gateway reads to summarise
// arguments and synthesise examples. Validation itself is the tool's job.
type schemaNode struct {
	Type                 json.RawMessage        `json:"type"`
	Description          string                 `json:"description"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	Enum                 []json.RawMessage      `json:"enum"`
	Const                json.RawMessage        `json:"const"`
	Default              json.RawMessage        `json:"default"`
	Examples             []json.RawMessage      `json:"examples"`
	Format               string                 `json:"format"`
	Items                *schemaNode            `json:"items"`
	Minimum              *float64               `json:"minimum"`
	AdditionalProperties json.RawMessage        `json:"additionalProperties"`
	PatternProperties    json.RawMessage        `json:"patternProperties"`
	AnyOf                []*schemaNode          `json:"anyOf"`
	OneOf                []*schemaNode          `json:"oneOf"`
}

// closed reports whether arguments outside properties are rejected: when
// additionalProperties is false, or absent on an object that lists its
// properties (a model's misspelt argument must not be dropped silently).
func (s *schemaNode) closed() bool {
	if len(s.Properties) == 0 || len(s.PatternProperties) > 0 {
		return false
	}
	ap := bytes.TrimSpace(s.AdditionalProperties)
	return len(ap) == 0 || string(ap) == "false"
}

// typeName is the argument's type as help shows it: "string", "integer",
// "array<string>", "string|null", an enum as "a|b|c".
func (s *schemaNode) typeName() string {
	if s == nil {
		return "any"
	}
	if len(s.Enum) > 0 && len(s.Enum) <= 8 {
		parts := make([]string, 0, len(s.Enum))
		for _, e := range s.Enum {
			parts = append(parts, strings.Trim(string(e), `"`))
		}
		return strings.Join(parts, "|")
	}
	types := s.types()
	if len(types) == 0 {
		switch {
		case len(s.Properties) > 0:
			types = []string{"object"}
		case s.Items != nil:
			types = []string{"array"}
		case len(s.AnyOf)+len(s.OneOf) > 0:
			alts := append(append([]*schemaNode(nil), s.AnyOf...), s.OneOf...)
			for _, a := range alts {
				types = append(types, a.typeName())
			}
		default:
			return "any"
		}
	}
	for i, t := range types {
		if t == "array" && s.Items != nil {
			types[i] = "array<" + s.Items.typeName() + ">"
		}
	}
	return strings.Join(types, "|")
}

func (s *schemaNode) types() []string {
	t := bytes.TrimSpace(s.Type)
	if len(t) == 0 {
		return nil
	}
	if t[0] == '"' {
		var one string
		if json.Unmarshal(t, &one) == nil {
			return []string{one}
		}
		return nil
	}
	var many []string
	_ = json.Unmarshal(t, &many)
	return many
}

// args summarises the object's properties, required ones first, each group
// in name order.
func (s *schemaNode) args() []Arg {
	req := make(map[string]bool, len(s.Required))
	for _, r := range s.Required {
		req[r] = true
	}
	out := make([]Arg, 0, len(s.Properties))
	for name, p := range s.Properties {
		a := Arg{Name: name, Required: req[name]}
		if p != nil {
			a.Type = p.typeName()
			if len(p.Default) > 0 {
				a.Default = string(p.Default)
			}
			a.Description = text.FirstSentence(p.Description, 120)
		}
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Required != out[j].Required {
			return out[i].Required
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// example synthesises a ready-to-run args object holding the required
// arguments, each with a value of the right shape.
func (s *schemaNode) example(required []string) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, name := range required {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, name)
		b.WriteByte(':')
		b.Write(s.Properties[name].sample(name, 0))
	}
	b.WriteByte('}')
	return b.Bytes()
}

// sample is a plausible value for a property: its const, first example,
// default or enum value, else a placeholder of its type.
func (s *schemaNode) sample(name string, depth int) []byte {
	if s == nil {
		return placeholder(name)
	}
	switch {
	case len(s.Const) > 0:
		return s.Const
	case len(s.Examples) > 0:
		return s.Examples[0]
	case len(s.Default) > 0:
		return s.Default
	case len(s.Enum) > 0:
		return s.Enum[0]
	}
	types := s.types()
	t := "string"
	for _, x := range types {
		if x != "null" {
			t = x
			break
		}
	}
	if len(types) == 0 {
		switch {
		case len(s.Properties) > 0:
			t = "object"
		case s.Items != nil:
			t = "array"
		case len(s.AnyOf) > 0:
			return s.AnyOf[0].sample(name, depth+1)
		case len(s.OneOf) > 0:
			return s.OneOf[0].sample(name, depth+1)
		}
	}
	switch t {
	case "integer", "number":
		if s.Minimum != nil {
			return []byte(strconv.FormatFloat(*s.Minimum, 'f', -1, 64))
		}
		return []byte("1")
	case "boolean":
		return []byte("true")
	case "array":
		if depth > 3 || s.Items == nil {
			return []byte("[]")
		}
		return append(append([]byte("["), s.Items.sample(name, depth+1)...), ']')
	case "object":
		if depth > 3 {
			return []byte("{}")
		}
		return s.example(s.Required)
	}
	switch s.Format {
	case "date":
		return []byte(`"2025-01-31"`)
	case "date-time":
		return []byte(`"2025-01-31T09:00:00Z"`)
	case "email":
		return []byte(`"user@example.com"`)
	case "uri", "url":
		return []byte(`"https://example.com"`)
	case "uuid":
		return []byte(`"00000000-0000-4000-8000-000000000000"`)
	}
	return placeholder(name)
}

func placeholder(name string) []byte {
	var b bytes.Buffer
	writeJSONString(&b, "<"+name+">")
	return b.Bytes()
}

func writeJSONString(b *bytes.Buffer, s string) {
	b.Write(appendJSONString(nil, s))
}
