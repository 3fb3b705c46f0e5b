package check

import (
	"strings"
	"testing"
)

// TestSchemaPatternTimeoutFailsClosed: in the embedded validator, a
// patternProperties key whose match times out is a violation, not a key
// that skips its schema.
func TestSchemaPatternTimeoutFailsClosed(t *testing.T) {
	s := MustSchema(`{"patternProperties":{"^(?=a)(a+)+b":{"type":"integer"}}}`)
	key := strings.Repeat("a", 40) + "!"
	errs := s.Validate(map[string]any{key: "not an integer"}, "/o")
	if len(errs) != 1 || errs[0].Path != "/o" || !strings.Contains(errs[0].Message, "took longer than") {
		t.Fatalf("Validate = %+v; want one timeout violation at /o", errs)
	}
	if errs := s.Validate(map[string]any{"aab": 1}, ""); errs != nil {
		t.Fatalf("valid value: %+v", errs)
	}
}
