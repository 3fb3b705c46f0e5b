package check

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/text"
)

// Schema is an embedded JSON Schema validator for the subschemas whose
// keywords toolgen does not compile to Go (not, if/then/else,
// dependentSchemas, unevaluated*, $dynamicRef, ...). It is compiled once,
// with draft 2020-12 unless the schema's $schema names another draft, and
// asserts formats and patterns with this package's Format and Regexp so it
// agrees with generated code.
type Schema struct {
	s *jsonschema.Schema
}

var schemaSeq atomic.Uint64

var printer = message.NewPrinter(language.English)

// CompileSchema compiles a JSON Schema document given as JSON text.
func CompileSchema(schemaJSON string) (*Schema, error) {
	return CompileSchemaIn(schemaJSON, nil)
}

// CompileSchemaIn is CompileSchema for a schema that refers to other
// documents: resources maps their absolute URIs (without fragment) to
// their JSON text. A reference to a URI not in resources resolves to the
// one resource with the same last path segment (file name), as toolgen
// resolves references among input files; any other is an error. The
// documents are compiled as written, so their $id, $anchor and
// $dynamicAnchor keep their meaning ($dynamicRef resolves in its dynamic
// scope).
func CompileSchemaIn(schemaJSON string, resources map[string]string) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("invalid schema JSON: %w", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(func(p string) (jsonschema.Regexp, error) {
		re, err := Compile(p)
		if err != nil {
			return nil, err
		}
		return schemaRegexp{re}, nil
	})
	for name, f := range formats {
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: formatValidator(name, f)})
	}
	if len(resources) == 0 {
		c.UseLoader(noLoader{})
	} else {
		c.UseLoader(mapLoader(resources))
	}
	url := fmt.Sprintf("mem:///toolgen/%d.json", schemaSeq.Add(1))
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("invalid schema: %s", compileMessage(err))
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("invalid schema: %s", compileMessage(err))
	}
	return &Schema{s: s}, nil
}

// MustSchema is CompileSchema that panics on error; generated code calls it
// in package-level variables for schemas the generator already compiled.
func MustSchema(schemaJSON string) *Schema {
	s, err := CompileSchema(schemaJSON)
	if err != nil {
		panic(err)
	}
	return s
}

// MustSchemaIn is CompileSchemaIn that panics on error; generated code
// calls it for schemas whose $dynamicRef needs the original documents.
func MustSchemaIn(schemaJSON string, resources map[string]string) *Schema {
	s, err := CompileSchemaIn(schemaJSON, resources)
	if err != nil {
		panic(err)
	}
	return s
}

// Validate checks the generic decoded value v (nil, bool, float64,
// json.Number, int64, string, []any, map[string]any) and returns one
// FieldError per violation, with paths prefixed by path (a JSON pointer).
// It returns nil when v is valid.
func (s *Schema) Validate(v any, path string) (found []runtime.FieldError) {
	defer func() {
		if r := recover(); r != nil {
			t, ok := r.(matchTimeout)
			if !ok {
				panic(r)
			}
			// Fail closed: a pattern that could not be decided is a
			// violation, whichever keyword (pattern, patternProperties,
			// propertyNames) asked.
			found = []runtime.FieldError{{Path: path, Code: "pattern", Message: t.err.Error()}}
		}
	}()
	err := s.s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []runtime.FieldError{{Path: path, Code: "schema", Message: err.Error()}}
	}
	var out []runtime.FieldError
	collect(ve, path, &out)
	for i := range out {
		if at, ok := valueAt(v, out[i].Path[len(path):]); ok {
			out[i].Received = Received(at)
		}
	}
	if len(out) == 0 {
		out = append(out, runtime.FieldError{Path: path, Code: "schema", Message: "value does not match the schema"})
	}
	return out
}

// schemaRegexp is a Regexp as the embedded validator's engine: its
// MatchString cannot return an error, so a match that cannot be decided in
// time unwinds the validation (caught in Schema.Validate) rather than count
// as a non-match, which would let a patternProperties member skip its
// schema.
type schemaRegexp struct{ *Regexp }

type matchTimeout struct{ err error }

func (r schemaRegexp) MatchString(s string) bool {
	ok, err := r.Match(s, nil)
	if err != nil {
		panic(matchTimeout{err})
	}
	return ok
}

// collect flattens the error tree into FieldErrors: the leaves, except
// that anyOf and oneOf report once instead of once per failed branch.
func collect(e *jsonschema.ValidationError, prefix string, out *[]runtime.FieldError) {
	switch e.ErrorKind.(type) {
	case *kind.Schema, *kind.Group, *kind.Reference, *kind.AllOf:
		for _, c := range e.Causes {
			collect(c, prefix, out)
		}
		return
	}
	if len(e.Causes) > 0 {
		switch e.ErrorKind.(type) {
		case *kind.AnyOf, *kind.OneOf:
		default:
			for _, c := range e.Causes {
				collect(c, prefix, out)
			}
			return
		}
	}
	fe := runtime.FieldError{
		Path:    prefix + pointer(e.InstanceLocation),
		Code:    keywordOf(e.ErrorKind),
		Message: e.ErrorKind.LocalizedString(printer),
	}
	switch k := e.ErrorKind.(type) {
	case *kind.FalseSchema:
		fe.Code, fe.Message = falseSchemaError(e)
	case *kind.MinProperties:
		fe.Message, fe.Expected = "must have at least "+properties(k.Want), "at least "+properties(k.Want)
	case *kind.MaxProperties:
		fe.Message, fe.Expected = "must have at most "+properties(k.Want), "at most "+properties(k.Want)
	case *kind.Required:
		// One violation per missing member, at its pointer, as the
		// decoder reports a missing required property.
		for _, m := range k.Missing {
			fe.Path = prefix + pointer(append(slices.Clip(e.InstanceLocation), m))
			fe.Message = "missing required property " + strconv.Quote(m)
			*out = append(*out, fe)
		}
		return
	case *kind.DependentRequired:
		for _, m := range k.Missing {
			fe.Path = prefix + pointer(append(slices.Clip(e.InstanceLocation), m))
			fe.Message = fmt.Sprintf("property %q is required when %q is present", m, k.Prop)
			*out = append(*out, fe)
		}
		return
	}
	*out = append(*out, fe)
}

// properties is "1 property" or "n properties".
func properties(n int) string {
	if n == 1 {
		return "1 property"
	}
	return strconv.Itoa(n) + " properties"
}

// falseSchemaError names the keyword whose false subschema rejected the
// value (unevaluatedProperties, additionalProperties, items, ...) from the
// schema location, with a message saying what was not allowed.
func falseSchemaError(e *jsonschema.ValidationError) (code, msg string) {
	_, frag, _ := strings.Cut(e.SchemaURL, "#")
	toks := strings.Split(frag, "/")
	code = "false"
	if n := len(toks); n >= 2 && (toks[n-2] == "properties" || toks[n-2] == "patternProperties" || toks[n-2] == "prefixItems") {
		code = toks[n-2]
	} else if n >= 1 && toks[n-1] != "" {
		code = toks[n-1]
	}
	last := ""
	if n := len(e.InstanceLocation); n > 0 {
		last = e.InstanceLocation[n-1]
	}
	switch code {
	case "properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames":
		return code, "property " + strconv.Quote(last) + " is not allowed"
	case "items", "prefixItems", "additionalItems", "unevaluatedItems":
		return code, "item " + last + " is not allowed"
	}
	return code, "value is not allowed here"
}

// pointerUnescaper undoes a JSON pointer token's escapes (RFC 6901).
var pointerUnescaper = strings.NewReplacer("~1", "/", "~0", "~")

// valueAt returns the part of v the JSON pointer ptr (relative to v) names.
func valueAt(v any, ptr string) (any, bool) {
	if ptr == "" {
		return v, true
	}
	for tok := range strings.SplitSeq(ptr[1:], "/") {
		tok = pointerUnescaper.Replace(tok)
		switch x := v.(type) {
		case map[string]any:
			m, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = m
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

func keywordOf(k jsonschema.ErrorKind) string {
	if p := k.KeywordPath(); len(p) > 0 {
		return p[0]
	}
	switch k.(type) {
	case *kind.Not:
		return "not"
	case *kind.FalseSchema:
		return "false"
	}
	return "schema"
}

func pointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(text.PointerToken(t))
	}
	return b.String()
}

func formatValidator(name string, f func(string) bool) func(any) error {
	return func(v any) error {
		s, ok := v.(string)
		if !ok || f(s) {
			return nil
		}
		return fmt.Errorf("not a valid %s", name)
	}
}

func compileMessage(err error) string {
	msg := err.Error()
	return strings.ReplaceAll(msg, "mem:///toolgen/", "")
}

// noLoader refuses remote references: an embedded schema must be
// self-contained.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("remote reference %s is not allowed", url)
}

// mapLoader serves the documents given to CompileSchemaIn.
type mapLoader map[string]string

func (m mapLoader) Load(url string) (any, error) {
	text, ok := m[url]
	if !ok {
		base := url[strings.LastIndexByte(url, '/')+1:]
		n := 0
		for u, t := range m {
			if u[strings.LastIndexByte(u, '/')+1:] == base {
				text, n = t, n+1
			}
		}
		if n != 1 {
			return nil, fmt.Errorf("reference to unknown document %s", url)
		}
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(text))
	if err != nil {
		return nil, fmt.Errorf("document %s: %w", url, err)
	}
	return doc, nil
}
