// Package rootschema is the one copy of what the providers accept at the
// root of a tool's parameters schema, shared by the provider adapters
// (runtime/openai, runtime/anthropic), which must leave out or refuse what
// their APIs refuse there, and by the schema compiler, which warns about
// it when a package is generated. Standard library only.
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

// LeftOut reports whether the adapters leave the root keyword k, of value
// raw, out of what they send instead of refusing the tool: a oneOf or
// anyOf whose schemas, or a not whose schema, only say which of the
// properties declared in props (the root's "properties") are required
// (OnlyRequired). The tool's own validation still applies it.
func LeftOut(k string, raw, props json.RawMessage) bool {
	switch k {
	case "oneOf", "anyOf":
		return OnlyRequired(raw, false, props)
	case "not":
		return OnlyRequired(raw, true, props)
	}
	return false
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
	var schemas []map[string]json.RawMessage
	if single {
		var one map[string]json.RawMessage
		if json.Unmarshal(raw, &one) != nil || one == nil {
			return false
		}
		schemas = append(schemas, one)
	} else if json.Unmarshal(raw, &schemas) != nil || len(schemas) == 0 {
		return false
	}
	for _, sch := range schemas {
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
