package schema

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/schema/load"
)

// TestPatternOnDeclaredPropertyTimesOut: a patternProperties pattern
// that cannot be matched against a declared property name in time is a
// located error, not a guess (and not a hang).
func TestPatternOnDeclaredPropertyTimesOut(t *testing.T) {
	name := strings.Repeat("a", 40) + "!"
	src := `[{"name":"t","description":"d","input_schema":{"type":"object","properties":{"` + name + `":{"type":"string"}},"patternProperties":{"^(?=a)(a+)+b":{"type":"integer"}}}}]`
	_, err := Build([]load.Input{{Name: "tools.json", Data: src}}, BuildOptions{Package: "p"})
	if err == nil || !strings.Contains(err.Error(), "takes longer than 100ms to match the property name") || !strings.Contains(err.Error(), "tools.json:1:") {
		t.Fatalf("err = %v; want a located timeout error", err)
	}
}

// TestPatternOnDeclaredPropertyECMA: declared properties meet the
// patterns that match them with ECMA-262 semantics, as at run time (\s
// includes U+00A0 there, not in RE2).
func TestPatternOnDeclaredPropertyECMA(t *testing.T) {
	src := `[{"name":"t","description":"d","input_schema":{"type":"object","properties":{"a\u00a0b":{"type":"string"}},"patternProperties":{"^a\\sb$":{"minLength":3}}}}]`
	fam, err := Build([]load.Input{{Name: "tools.json", Data: src}}, BuildOptions{Package: "p"})
	if err != nil {
		t.Fatal(err)
	}
	f := fam.Tools[0].Params.Fields[0]
	if f.Type.Constraints == nil || f.Type.Constraints.MinLength == nil || *f.Type.Constraints.MinLength != 3 {
		t.Fatalf("field %q did not get the pattern's minLength: %+v", f.JSONName, f.Type.Constraints)
	}
}
