package gateway

import (
	"bytes"
	"encoding/json"
)

// schemaNode is the part of a JSON Schema the gateway reads: the property
// names and required list exec checks arguments against, the property
// descriptions help shows in full, and the words tool_search indexes.
// Argument summaries, usage lines and examples are not derived here: the
// registry carries them as the generator wrote them from the IR.
type schemaNode struct {
	Description          string                 `json:"description"`
	Properties           map[string]*schemaNode `json:"properties"`
	Required             []string               `json:"required"`
	Enum                 []json.RawMessage      `json:"enum"`
	Const                json.RawMessage        `json:"const"`
	Items                *schemaNode            `json:"items"`
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
