package check

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestSchemaValidate(t *testing.T) {
	s := MustSchema(`{
		"type": "object",
		"properties": {
			"kind": {"enum": ["user", "team"]},
			"email": {"type": "string", "format": "email"},
			"code": {"type": "string", "pattern": "^\\p{Lu}{2}\\d$"}
		},
		"if": {"properties": {"kind": {"const": "user"}}},
		"then": {"required": ["email"]},
		"not": {"required": ["legacy"]},
		"unevaluatedProperties": false
	}`)
	tests := []struct {
		value string
		want  []runtime.FieldError
	}{
		{`{"kind":"user","email":"a@example.com","code":"ÉA1"}`, nil},
		{`{"kind":"team"}`, nil},
		{`{"kind":"user"}`, []runtime.FieldError{{Path: "/args/email", Code: "required"}}},
		{`{"kind":"team","email":"not-an-email"}`, []runtime.FieldError{{Path: "/args/email", Code: "format"}}},
		{`{"kind":"team","code":"ab1"}`, []runtime.FieldError{{Path: "/args/code", Code: "pattern"}}},
		{`{"kind":"team","legacy":1}`, []runtime.FieldError{{Path: "/args", Code: "not"}, {Path: "/args/legacy", Code: "unevaluatedProperties"}}},
		{`{"kind":"bot","a/b":1}`, []runtime.FieldError{{Path: "/args/a~1b", Code: "unevaluatedProperties"}, {Path: "/args/kind", Code: "enum"}}},
		{`[]`, []runtime.FieldError{{Path: "/args", Code: "type"}}},
	}
	for _, tc := range tests {
		got := s.Validate(generic(t, tc.value), "/args")
		if len(got) != len(tc.want) {
			t.Errorf("Validate(%s) = %v, want %d errors %v", tc.value, got, len(tc.want), tc.want)
			continue
		}
		for i, w := range tc.want {
			if got[i].Path != w.Path || got[i].Code != w.Code || got[i].Message == "" {
				t.Errorf("Validate(%s)[%d] = %+v, want path %q code %q and a message", tc.value, i, got[i], w.Path, w.Code)
			}
		}
	}
}

func TestSchemaReceived(t *testing.T) {
	s := MustSchema(`{"properties":{"tags":{"items":{"not":{"const":"x"}}}}}`)
	got := s.Validate(generic(t, `{"tags":["a","x"]}`), "/p")
	if len(got) != 1 || got[0].Path != "/p/tags/1" || got[0].Received != `"x"` {
		t.Errorf("got %+v, want the received value at /p/tags/1", got)
	}
}

func TestSchemaAnyOfReportsOnce(t *testing.T) {
	s := MustSchema(`{"anyOf":[{"type":"string"},{"type":"integer","minimum":10}]}`)
	got := s.Validate(generic(t, `3`), "")
	if len(got) != 1 || got[0].Code != "anyOf" || got[0].Path != "" {
		t.Errorf("Validate(3) = %+v, want one anyOf error at the root", got)
	}
}

func TestSchemaPointerEscaping(t *testing.T) {
	s := MustSchema(`{"additionalProperties":{"type":"integer"}}`)
	got := s.Validate(generic(t, `{"a/b~c":"x"}`), "/m")
	if len(got) != 1 || got[0].Path != "/m/a~1b~0c" {
		t.Errorf("got %+v, want path /m/a~1b~0c", got)
	}
}

func TestSchemaHonoursDollarSchema(t *testing.T) {
	// Draft 7 ignores unevaluatedProperties (unknown there); 2020-12 applies it.
	d7 := MustSchema(`{"$schema":"http://json-schema.org/draft-07/schema#","unevaluatedProperties":false}`)
	if errs := d7.Validate(generic(t, `{"a":1}`), ""); errs != nil {
		t.Errorf("draft-07: %v", errs)
	}
	d2020 := MustSchema(`{"unevaluatedProperties":false}`)
	if errs := d2020.Validate(generic(t, `{"a":1}`), ""); errs == nil {
		t.Error("2020-12 default did not apply unevaluatedProperties")
	}
}

func TestCompileSchemaErrors(t *testing.T) {
	tests := []struct{ schema, want string }{
		{`{`, "invalid schema JSON"},
		{`{"type":"strung"}`, "invalid schema"},
		{`{"$ref":"https://example.com/remote.json"}`, "invalid schema"},
		{`{"pattern":"(?i)x"}`, "invalid schema"},
	}
	for _, tc := range tests {
		_, err := CompileSchema(tc.schema)
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("CompileSchema(%s) = %v, want %q...", tc.schema, err, tc.want)
		}
	}
}

func BenchmarkSchemaValidate(b *testing.B) {
	s := MustSchema(`{"type":"object","properties":{"kind":{"enum":["user","team"]}},"if":{"properties":{"kind":{"const":"user"}}},"then":{"required":["email"]},"unevaluatedProperties":false,"properties2":{}}`)
	v := generic(b, `{"kind":"team"}`)
	b.ReportAllocs()
	for b.Loop() {
		s.Validate(v, "")
	}
}

// TestCompileSchemaHugeNumbers: the library validates a schema against its
// metaschema, and panicked on a number it cannot hold exactly; CompileSchema
// returns an error instead (toolgen checks manifest and synthesized
// examples with it, and a schema of such numbers crashed the generator).
func TestCompileSchemaHugeNumbers(t *testing.T) {
	for _, sch := range []string{
		`{"type": "number", "multipleOf": 1e-999999999}`,
		`{"properties": {"a": {"multipleOf": 1e-999999999}}}`,
	} {
		if _, err := CompileSchema(sch); err == nil || !strings.Contains(err.Error(), "cannot read it") {
			t.Errorf("CompileSchema(%s) = %v, want the error", sch, err)
		}
	}
}
