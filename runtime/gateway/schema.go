package gateway

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text"
)

// parameters is the part of an op's parameters schema a binding reads: the
// property names and required list exec checks arguments against, whether
// other arguments are refused, and the property descriptions help shows
// in full. Nothing below the top level is decoded (tool_search reads its
// words with schemaWords): a gateway over ten thousand tools reads each
// schema when it starts.
type parameters struct {
	Properties           map[string]property
	Required             []string
	AdditionalProperties json.RawMessage
	PatternProperties    json.RawMessage
}

// property is a property's schema as a binding reads it: its description.
type property struct {
	Description string
}

// readParameters reads the members of schema that parameters holds,
// skipping the rest unread. Keys are decoded (escapes, invalid UTF-8 as
// U+FFFD) and keywords matched exactly, as JSON Schema spells them; when
// one is repeated, the last wins. A property that is a boolean schema
// (true: any value, false: none) has no description, and neither has one
// whose description is not a string. null is an empty schema, as are
// properties and required that are null. Text that is not JSON, and other
// shapes of these keywords, are errors.
func readParameters(schema []byte) (parameters, error) {
	var s parameters
	if !text.ValidJSON(schema) {
		return s, errors.New("not JSON")
	}
	v := bytes.Trim(schema, " \t\r\n")
	if string(v) == "null" {
		return s, nil
	}
	if v[0] != '{' {
		return s, errors.New("not a JSON object")
	}
	var err error
	text.Members(v, func(key, value []byte) bool {
		switch string(key) {
		case "properties":
			s.Properties = nil
			if string(value) == "null" {
				return true
			}
			if value[0] != '{' {
				err = errors.New("properties is not an object")
				return true
			}
			s.Properties = map[string]property{}
			text.Members(value, func(name, schema []byte) bool {
				s.Properties[string(name)] = readProperty(schema)
				return true
			})
		case "required":
			s.Required = s.Required[:0]
			if string(value) == "null" {
				return true
			}
			if value[0] != '[' {
				err = errors.New("required is not an array")
				return true
			}
			items(value, func(item []byte) {
				if item[0] != '"' {
					err = errors.New("required holds a value that is not a string")
					return
				}
				s.Required = append(s.Required, jsonString(item))
			})
		case "additionalProperties":
			s.AdditionalProperties = value
		case "patternProperties":
			s.PatternProperties = value
		}
		return true
	})
	return s, err
}

// readProperty reads a property's schema: its description.
func readProperty(schema []byte) property {
	var p property
	if schema[0] != '{' {
		return p
	}
	text.Members(schema, func(key, value []byte) bool {
		if string(key) == "description" {
			p.Description = ""
			if value[0] == '"' {
				p.Description = jsonString(value)
			}
		}
		return true
	})
	return p
}

// The walk below reads JSON text that text.ValidJSON accepted, so it
// only finds where each token ends (text.SkipValue).

// items calls fn with the text of each item of the array arr.
func items(arr []byte, fn func(item []byte)) {
	for i := text.SkipBlanks(arr, 1); arr[i] != ']'; {
		end, _ := text.SkipValue(arr, i)
		fn(arr[i:end])
		if i = text.SkipBlanks(arr, end); arr[i] == ',' {
			i = text.SkipBlanks(arr, i+1)
		}
	}
}

// jsonString decodes the JSON string s (with its quotes) as encoding/json
// does, invalid UTF-8 becoming U+FFFD.
func jsonString(s []byte) string {
	body := s[1 : len(s)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		return string(body)
	}
	var out string
	_ = json.Unmarshal(s, &out) // valid: the text passed text.ValidJSON
	return out
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
