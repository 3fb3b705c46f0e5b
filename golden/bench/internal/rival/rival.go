// Package rival runs the runtime JSON Schema validators toolgen's generated
// code is compared with — github.com/xeipuuv/gojsonschema,
// github.com/santhosh-tekuri/jsonschema/v6 and github.com/google/jsonschema-go —
// as sub-benchmarks named after each library, so that benchtable can print
// their ratio to the Parent/toolgen sibling.
//
// Each schema is compiled once, outside the timed loop. Formats are asserted
// where the library can (gojsonschema does by default, santhosh-tekuri with
// AssertFormat; google/jsonschema-go treats format as an annotation).
package rival

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"

	googleschema "github.com/google/jsonschema-go/jsonschema"
	santhosh "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/xeipuuv/gojsonschema"
)

// Validators holds one schema compiled by each library.
type Validators struct {
	goj    *gojsonschema.Schema
	san    *santhosh.Schema
	google *googleschema.Resolved
}

// ToolSchema returns the parameters schema of the named tool in a
// ChatToolDefinition array.
func ToolSchema(toolsJSON []byte, name string) ([]byte, error) {
	var defs []struct {
		Function struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
	}
	if err := json.Unmarshal(toolsJSON, &defs); err != nil {
		return nil, err
	}
	for _, d := range defs {
		if d.Function.Name == name {
			return d.Function.Parameters, nil
		}
	}
	return nil, fmt.Errorf("rival: no tool %q", name)
}

// Compile compiles schema with each library.
func Compile(schema []byte) (*Validators, error) {
	var v Validators
	var err error
	if v.goj, err = gojsonschema.NewSchema(gojsonschema.NewBytesLoader(schema)); err != nil {
		return nil, fmt.Errorf("gojsonschema: %w", err)
	}
	doc, err := santhosh.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("santhosh: %w", err)
	}
	c := santhosh.NewCompiler()
	c.DefaultDraft(santhosh.Draft2020)
	c.AssertFormat()
	if err := c.AddResource("mem:///schema.json", doc); err != nil {
		return nil, fmt.Errorf("santhosh: %w", err)
	}
	if v.san, err = c.Compile("mem:///schema.json"); err != nil {
		return nil, fmt.Errorf("santhosh: %w", err)
	}
	var gs googleschema.Schema
	if err := json.Unmarshal(schema, &gs); err != nil {
		return nil, fmt.Errorf("google: %w", err)
	}
	if v.google, err = gs.Resolve(nil); err != nil {
		return nil, fmt.Errorf("google: %w", err)
	}
	return &v, nil
}

// MustCompile is Compile over the named tool's parameters that fails tb on
// error.
func MustCompile(tb testing.TB, toolsJSON []byte, tool string) *Validators {
	tb.Helper()
	schema, err := ToolSchema(toolsJSON, tool)
	if err != nil {
		tb.Fatal(err)
	}
	v, err := Compile(schema)
	if err != nil {
		tb.Fatal(err)
	}
	return v
}

// A library validates arguments in two ways: from the JSON bytes (parsing
// included) and on a value it already decoded.
type library struct {
	name string
	// decode parses the bytes the way the library expects.
	decode func(data []byte) (any, error)
	// validate reports whether the decoded value is valid.
	validate func(v *Validators, doc any) bool
	// fromBytes parses and validates in one call.
	fromBytes func(v *Validators, data []byte) bool
}

func stdDecode(data []byte) (any, error) {
	var doc any
	err := json.Unmarshal(data, &doc)
	return doc, err
}

var libraries = []library{
	{
		name:   "gojsonschema",
		decode: stdDecode,
		validate: func(v *Validators, doc any) bool {
			r, err := v.goj.Validate(gojsonschema.NewGoLoader(doc))
			return err == nil && r.Valid()
		},
		fromBytes: func(v *Validators, data []byte) bool {
			r, err := v.goj.Validate(gojsonschema.NewBytesLoader(data))
			return err == nil && r.Valid()
		},
	},
	{
		name:   "santhosh",
		decode: func(data []byte) (any, error) { return santhosh.UnmarshalJSON(bytes.NewReader(data)) },
		validate: func(v *Validators, doc any) bool {
			return v.san.Validate(doc) == nil
		},
		fromBytes: func(v *Validators, data []byte) bool {
			doc, err := santhosh.UnmarshalJSON(bytes.NewReader(data))
			return err == nil && v.san.Validate(doc) == nil
		},
	},
	{
		name:   "google",
		decode: stdDecode,
		validate: func(v *Validators, doc any) bool {
			return v.google.Validate(doc) == nil
		},
		fromBytes: func(v *Validators, data []byte) bool {
			var doc any
			return json.Unmarshal(data, &doc) == nil && v.google.Validate(doc) == nil
		},
	},
}

// Validator is a generated params type.
type Validator interface{ Validate() error }

// Case is one benchmark: a generated package's tool and the arguments it is
// measured with.
type Case struct {
	// Tool is the tool name; Tools the ChatToolDefinition array holding it.
	Tool  string
	Tools []byte
	// DecodeArgs is the generated package's DecodeArgs.
	DecodeArgs func(tool string, args []byte) (any, error)
	// Params returns a new zero params value of the tool (*XParams).
	Params func() Validator
	// Valid arguments, and Invalid ones that decode without type errors
	// but break constraints every library checks.
	Valid, Invalid []byte
}

func (c *Case) args(valid bool) []byte {
	if valid {
		return c.Valid
	}
	return c.Invalid
}

// BenchDecode measures decoding plus validation from the JSON bytes:
// generated DecodeArgs as toolgen, then each library parsing the bytes and
// validating the result.
func (c *Case) BenchDecode(b *testing.B, valid bool) {
	data := c.args(valid)
	b.Run("toolgen", func(b *testing.B) {
		if _, err := c.DecodeArgs(c.Tool, data); (err == nil) != valid {
			b.Fatalf("toolgen: DecodeArgs error %v, want valid=%v", err, valid)
		}
		b.ReportAllocs()
		for b.Loop() {
			_, _ = c.DecodeArgs(c.Tool, data)
		}
	})
	v := MustCompile(b, c.Tools, c.Tool)
	for _, l := range libraries {
		b.Run(l.name, func(b *testing.B) {
			if got := l.fromBytes(v, data); got != valid {
				b.Fatalf("%s: valid=%v, want %v", l.name, got, valid)
			}
			b.ReportAllocs()
			for b.Loop() {
				l.fromBytes(v, data)
			}
		})
	}
}

// BenchValidate measures validation of arguments decoded once, outside the
// loop: the generated Validate as toolgen, then each library on the value
// it decodes the bytes to.
func (c *Case) BenchValidate(b *testing.B, valid bool) {
	data := c.args(valid)
	b.Run("toolgen", func(b *testing.B) {
		p := c.Params()
		if err := json.Unmarshal(data, p); err != nil {
			b.Fatalf("toolgen: decode: %v", err)
		}
		if err := p.Validate(); (err == nil) != valid {
			b.Fatalf("toolgen: Validate error %v, want valid=%v", err, valid)
		}
		b.ReportAllocs()
		for b.Loop() {
			_ = p.Validate()
		}
	})
	v := MustCompile(b, c.Tools, c.Tool)
	for _, l := range libraries {
		b.Run(l.name, func(b *testing.B) {
			doc, err := l.decode(data)
			if err != nil {
				b.Fatal(err)
			}
			if got := l.validate(v, doc); got != valid {
				b.Fatalf("%s: valid=%v, want %v", l.name, got, valid)
			}
			b.ReportAllocs()
			for b.Loop() {
				l.validate(v, doc)
			}
		})
	}
}

// Agree checks that the generated code and every library accept Valid and
// reject Invalid, so the benchmarks compare equal work.
func (c *Case) Agree(t *testing.T) {
	t.Helper()
	v := MustCompile(t, c.Tools, c.Tool)
	for _, valid := range []bool{true, false} {
		data := c.args(valid)
		if _, err := c.DecodeArgs(c.Tool, data); (err == nil) != valid {
			t.Errorf("toolgen DecodeArgs(%s): error %v, want valid=%v", data, err, valid)
		}
		p := c.Params()
		if err := json.Unmarshal(data, p); err != nil {
			t.Errorf("toolgen decode(%s): %v", data, err)
		} else if err := p.Validate(); (err == nil) != valid {
			t.Errorf("toolgen Validate(%s): error %v, want valid=%v", data, err, valid)
		}
		for _, l := range libraries {
			if got := l.fromBytes(v, data); got != valid {
				t.Errorf("%s(%s): valid=%v, want %v", l.name, data, got, valid)
			}
		}
	}
}

// ZeroAllocs fails t unless Validate on the decoded Valid arguments
// allocates nothing. It skips under the race detector, whose
// instrumentation allocates.
func (c *Case) ZeroAllocs(t *testing.T) {
	t.Helper()
	if raceEnabled {
		t.Skip("allocation counts are not meaningful under the race detector")
	}
	p := c.Params()
	if err := json.Unmarshal(c.Valid, p); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = p.Validate() }); n != 0 {
		t.Errorf("Validate on valid arguments: %v allocs, want 0", n)
	}
}
