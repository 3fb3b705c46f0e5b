package rootschema

import (
	"encoding/json"
	"testing"
)

// TestOnlyRequired: which refused root keywords only say which declared
// properties are required (Flatten leaves those out), and which
// providers refuse each.
func TestOnlyRequired(t *testing.T) {
	props := json.RawMessage(`{"a":{"type":"string"},"b":{"type":"string"}}`)
	tests := []struct {
		keyword, raw string
		by           Provider
		leftOut      bool
	}{
		{"oneOf", `[{"required":["a"]},{"required":["b"]}]`, OpenAI | Anthropic, true},
		{"anyOf", `[{"required":["a"],"type":"object","description":"d"},{"required":["b"]}]`, OpenAI | Anthropic, true},
		{"anyOf", `[{"required":["a"]},{"required":["c"]}]`, OpenAI | Anthropic, false},
		{"anyOf", `[{"required":["a"]},{"properties":{"a":{}}}]`, OpenAI | Anthropic, false},
		{"oneOf", `[]`, OpenAI | Anthropic, false},
		{"oneOf", `{"required":["a"]}`, OpenAI | Anthropic, false},
		{"allOf", `[{"required":["a"]}]`, OpenAI | Anthropic, false},
		{"not", `{"required":["a","b"]}`, OpenAI, true},
		{"not", `[{"required":["a"]}]`, OpenAI, false},
		{"not", `{"required":["a"],"type":"string"}`, OpenAI, false},
		{"enum", `[{"a":"x"}]`, OpenAI, false},
		{"properties", `{}`, 0, false},
	}
	for _, tt := range tests {
		if by := RefusedBy(tt.keyword); by != tt.by {
			t.Errorf("RefusedBy(%s) = %v, want %v", tt.keyword, by, tt.by)
		}
		if tt.keyword != "oneOf" && tt.keyword != "anyOf" && tt.keyword != "not" {
			continue
		}
		if got := OnlyRequired(json.RawMessage(tt.raw), tt.keyword == "not", props); got != tt.leftOut {
			t.Errorf("OnlyRequired(%s, %s) = %v, want %v", tt.keyword, tt.raw, got, tt.leftOut)
		}
	}
	for _, k := range Keywords() {
		if RefusedBy(k) == 0 {
			t.Errorf("keyword %s refused by no provider", k)
		}
	}
	if s := (OpenAI | Anthropic).String(); s != "OpenAI and Anthropic" {
		t.Errorf("String: %q", s)
	}
}
