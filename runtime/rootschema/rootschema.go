// Package rootschema is the one copy of what the providers accept at the
// root of a tool's parameters schema, shared by the provider adapters
// (runtime/openai, runtime/anthropic), which send an equivalent or looser
// root without what their APIs refuse there (Flatten) or refuse the tool,
// and by the schema compiler, which warns when a package is generated
// about what they would refuse. Standard library only.
package rootschema

import "encoding/json"

// Provider is a set of provider APIs.
type Provider uint8

const (
	// OpenAI is OpenAI's Chat Completions and Responses APIs.
	OpenAI Provider = 1 << iota
	// Anthropic is Anthropic's Messages API.
	Anthropic
)

// String names the providers of p: "OpenAI", "Anthropic" or "OpenAI and
// Anthropic".
func (p Provider) String() string {
	switch p {
	case OpenAI:
		return "OpenAI"
	case Anthropic:
		return "Anthropic"
	case OpenAI | Anthropic:
		return "OpenAI and Anthropic"
	}
	return ""
}

// Keywords returns the keywords some provider refuses at the root of a
// tool's parameters, in the order the adapters check them.
func Keywords() []string { return []string{"oneOf", "anyOf", "allOf", "enum", "not"} }

// RefusedBy returns the providers that refuse keyword k at the root of a
// tool's parameters: OpenAI refuses oneOf, anyOf, allOf, enum and not
// ("schema must have type 'object' and not have 'oneOf'/'anyOf'/'allOf'/
// 'enum'/'not' at the top level"), Anthropic oneOf, anyOf and allOf.
func RefusedBy(k string) Provider {
	switch k {
	case "oneOf", "anyOf", "allOf":
		return OpenAI | Anthropic
	case "enum", "not":
		return OpenAI
	}
	return 0
}

// OnlyRequired reports whether raw (one schema when single, else an array
// of schemas) holds only schemas that say nothing but which of the
// properties declared in props are required ("email or user_id"). The
// providers refuse a union at the root of a tool's parameters; one like
// this can be left out of what they are sent, as the tool's own
// validation applies it and its error tells the model.
func OnlyRequired(raw json.RawMessage, single bool, props json.RawMessage) bool {
	var declared map[string]json.RawMessage
	_ = json.Unmarshal(props, &declared)
	var schemas []json.RawMessage
	if single {
		schemas = []json.RawMessage{raw}
	} else if json.Unmarshal(raw, &schemas) != nil || len(schemas) == 0 {
		return false
	}
	for _, raw := range schemas {
		var sch map[string]json.RawMessage
		if json.Unmarshal(raw, &sch) != nil {
			return false
		}
		var names []string
		if sch == nil || json.Unmarshal(sch["required"], &names) != nil || len(names) == 0 {
			return false
		}
		for k, v := range sch {
			switch k {
			case "required", "description", "title", "$comment":
			case "type":
				if t := ""; json.Unmarshal(v, &t) != nil || t != "object" {
					return false
				}
			default:
				return false
			}
		}
		for _, n := range names {
			if _, ok := declared[n]; !ok {
				return false
			}
		}
	}
	return true
}
