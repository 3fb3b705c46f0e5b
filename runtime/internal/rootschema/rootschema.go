// Package rootschema reads the root of a tool's parameters schema for the
// provider adapters (runtime/openai, runtime/anthropic), which must leave
// out what their APIs refuse there.
package rootschema

import "encoding/json"

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
