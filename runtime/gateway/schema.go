package gateway

import (
	"bytes"
	"encoding/json"
)

// parameters is the part of an op's parameters schema a binding reads: the
// property names and required list exec checks arguments against, whether
// other arguments are refused, and the property descriptions help shows
// in full. Nothing below the top level is decoded (tool_search reads its
// words with schemaWords): a gateway over ten thousand tools decodes each
// schema when it starts.
type parameters struct {
	Properties           map[string]property `json:"properties"`
	Required             []string            `json:"required"`
	AdditionalProperties json.RawMessage     `json:"additionalProperties"`
	PatternProperties    json.RawMessage     `json:"patternProperties"`
}

// property is a property's schema as a binding reads it: its description.
type property struct {
	Description string
}

// UnmarshalJSON reads a property's description. A boolean schema (true:
// any value, false: none) has none, and neither has a description that is
// not a string.
func (p *property) UnmarshalJSON(data []byte) error {
	if data[0] != '{' {
		return nil
	}
	var s struct {
		Description json.RawMessage `json:"description"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return err
	}
	if json.Unmarshal(s.Description, &p.Description) != nil {
		p.Description = ""
	}
	return nil
}

// closed reports whether arguments outside properties are rejected: when
// additionalProperties is false, or absent on an object that lists its
// properties (a model's misspelt argument must not be dropped silently).
func (s *parameters) closed() bool {
	if len(s.Properties) == 0 || len(s.PatternProperties) > 0 {
		return false
	}
	ap := bytes.TrimSpace(s.AdditionalProperties)
	return len(ap) == 0 || string(ap) == "false"
}
