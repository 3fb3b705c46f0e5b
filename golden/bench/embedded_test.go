package bench

import (
	"encoding/json"
	"testing"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	"github.com/xeipuuv/gojsonschema"

	"github.com/toolgen-go/toolgen/runtime/check"
)

// The embedded validator's engine was chosen by these benchmarks: the same
// schema (keywords all three libraries support) and the same valid and
// invalid instances, validated after a one-time compile.
const compareSchema = `{
	"type": "object",
	"properties": {
		"kind": {"enum": ["user", "team"]},
		"name": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[a-z][a-z0-9_]*$"},
		"tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": true},
		"limit": {"type": "integer", "minimum": 1, "maximum": 100}
	},
	"required": ["kind", "name"],
	"if": {"properties": {"kind": {"const": "user"}}},
	"then": {"required": ["limit"]},
	"not": {"required": ["legacy"]}
}`

const compareValid = `{"kind":"user","name":"ada_l","tags":["a","b","c"],"limit":10}`
const compareInvalid = `{"kind":"user","name":"Ada","tags":["a","a"],"limit":1000,"legacy":true}`

func BenchmarkEmbeddedSanthosh(b *testing.B) {
	s := check.MustSchema(compareSchema)
	var valid, invalid any
	_ = json.Unmarshal([]byte(compareValid), &valid)
	_ = json.Unmarshal([]byte(compareInvalid), &invalid)
	if s.Validate(valid, "") != nil || s.Validate(invalid, "") == nil {
		b.Fatal("santhosh-tekuri disagrees with the expected outcome")
	}
	b.Run("valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Validate(valid, "")
		}
	})
	b.Run("invalid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			s.Validate(invalid, "")
		}
	})
}

func BenchmarkEmbeddedGoJSONSchema(b *testing.B) {
	s, err := gojsonschema.NewSchema(gojsonschema.NewStringLoader(compareSchema))
	if err != nil {
		b.Fatal(err)
	}
	var valid, invalid any
	_ = json.Unmarshal([]byte(compareValid), &valid)
	_ = json.Unmarshal([]byte(compareInvalid), &invalid)
	b.Run("valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r, err := s.Validate(gojsonschema.NewGoLoader(valid)); err != nil || !r.Valid() {
				b.Fatal(err)
			}
		}
	})
	b.Run("invalid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if r, _ := s.Validate(gojsonschema.NewGoLoader(invalid)); r.Valid() {
				b.Fatal("invalid instance accepted")
			}
		}
	})
}

func BenchmarkEmbeddedGoogle(b *testing.B) {
	var sch googleschema.Schema
	if err := json.Unmarshal([]byte(compareSchema), &sch); err != nil {
		b.Fatal(err)
	}
	rs, err := sch.Resolve(nil)
	if err != nil {
		b.Fatal(err)
	}
	var valid, invalid any
	_ = json.Unmarshal([]byte(compareValid), &valid)
	_ = json.Unmarshal([]byte(compareInvalid), &invalid)
	b.Run("valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := rs.Validate(valid); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("invalid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if rs.Validate(invalid) == nil {
				b.Fatal("invalid instance accepted")
			}
		}
	})
}
