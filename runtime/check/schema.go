package check

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/toolgen-go/toolgen/runtime"
)

// Schema is an embedded JSON Schema validator for the subschemas whose
// keywords toolgen does not compile to Go (not, if/then/else,
// dependentSchemas, unevaluated*, $dynamicRef, ...). It is compiled once,
// with draft 2020-12 unless the schema's $schema names another draft, and
// asserts formats and patterns with this package's Format and Regexp so it
// agrees with generated code.
type Schema struct {
	s *jsonschema.Schema
	// docs are the documents compiled, by URL (without fragment), for
	// the keyword values messages quote as written (bounds, a not's
	// schema).
	docs map[string]any
	// src, resources and url compile more copies of s: each copy counts
	// the work of the one Validate call using it (see evalWork), and
	// spare holds those not in use (s's own among them).
	src       string
	resources map[string]string
	url       string
	mu        sync.Mutex
	spare     []copyOf
	// perValue is the evaluations Validate allows per JSON value of the
	// instance: EvaluationsPerValue, or the schemas s applies to one
	// value without nesting when there are more (see width).
	perValue int
	// at indexes the compiled subschemas by location (Schema.Location,
	// the SchemaURL of a violation); built on the first violation.
	atOnce sync.Once
	at     map[string]*jsonschema.Schema
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
	url := fmt.Sprintf("mem:///toolgen/%d.json", schemaSeq.Add(1))
	docs := map[string]any{}
	c, err := compileCopy(schemaJSON, resources, url, docs)
	if err != nil {
		return nil, err
	}
	return &Schema{s: c.s, docs: docs, src: schemaJSON, resources: resources, url: url, spare: []copyOf{c},
		perValue: max(EvaluationsPerValue, width(c.s))}, nil
}

// compileCopy compiles the schema schemaJSON at url, counting its work
// (see evalWork); when docs is not nil it records there the documents
// compiled, as written.
func compileCopy(schemaJSON string, resources map[string]string, url string, docs map[string]any) (cp copyOf, err error) {
	defer func() {
		// The library validates the schema against its metaschema, and
		// a number it cannot hold exactly (1e-999999999) panicked there.
		if r := recover(); r != nil {
			cp, err = copyOf{}, fmt.Errorf("invalid schema: the embedded validator cannot read it (%v); numbers with exponents of more than four digits are the usual cause", r)
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(schemaJSON))
	if err != nil {
		return copyOf{}, fmt.Errorf("invalid schema JSON: %w", err)
	}
	if docs != nil {
		docs[url] = doc
		if doc, err = jsonschema.UnmarshalJSON(strings.NewReader(schemaJSON)); err != nil {
			return copyOf{}, err
		}
	}
	work := new(evalWork)
	addWorkFormat(doc)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.UseRegexpEngine(func(p string) (jsonschema.Regexp, error) {
		re, err := Compile(p)
		if err != nil {
			return nil, err
		}
		return schemaRegexp{re, work}, nil
	})
	counting := map[*jsonschema.Format]bool{}
	register := func(f *jsonschema.Format) {
		counting[f] = true
		c.RegisterFormat(f)
	}
	for name, f := range formats {
		register(&jsonschema.Format{Name: name, Validate: work.counted(formatValidator(name, f))})
	}
	register(&jsonschema.Format{Name: workFormat, Validate: work.counted(func(any) error { return nil })})
	if len(resources) == 0 {
		c.UseLoader(noLoader{})
	} else {
		c.UseLoader(recordingLoader{mapLoader(resources), docs})
	}
	if err := c.AddResource(url, doc); err != nil {
		return copyOf{}, fmt.Errorf("invalid schema: %s", compileMessage(err))
	}
	s, err := c.Compile(url)
	if err != nil {
		return copyOf{}, fmt.Errorf("invalid schema: %s", compileMessage(err))
	}
	work.countCompiled(s, counting)
	return copyOf{s, work}, nil
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
//
// The violations read as generated validators and runtime/wire word them
// (see schemaErrors.collect): "expected integer, received string \"t\"",
// "unknown property \"a\"" at the member's own pointer, "must be >= 1",
// "matches none of: A or B", ...; they are sorted by path.
//
// Its pattern matches share a budget of their own (see SetCallBudget);
// ValidateIn charges them to the call's.
func (s *Schema) Validate(v any, path string) []runtime.FieldError {
	return s.ValidateIn(v, path, nil)
}

// ValidateIn is Validate charging the time its pattern matches take, and
// the schemas it evaluates, to b, the call's budget (a budget of its own
// when b is nil): a schema checked on many values of one call, with
// patterns whose matches each stay under MatchTimeout, would otherwise
// spend it on each, and each value would have MinEvaluations of its own
// (100 wrong JSON-logic rules of 155 bytes, each 14 levels deep, took
// 9.3 s).
func (s *Schema) ValidateIn(v any, path string, b *Budget) (found []runtime.FieldError) {
	cp, err := s.take()
	if err != nil {
		return []runtime.FieldError{{Path: path, Code: "schema", Message: err.Error()}}
	}
	if b == nil {
		b = new(Budget)
	}
	// The call's allowance: MinEvaluations once, and perValue for each
	// value of each instance checked.
	if !b.evalsSet {
		b.evals, b.evalsSet = MinEvaluations, true
	}
	b.evals += s.perValue * countValues(v)
	cp.work.left, cp.work.budget = b.evals, b
	defer func() {
		b.evals = max(cp.work.left, 0)
		cp.work.budget = nil
		s.put(cp)
		if r := recover(); r != nil {
			switch t := r.(type) {
			case matchTimeout:
				// Fail closed: a pattern that could not be decided is a
				// violation, whichever keyword (pattern,
				// patternProperties, propertyNames) asked.
				found = []runtime.FieldError{{Path: path, Code: "pattern", Message: t.err.Error()}}
			case workExceeded:
				found = []runtime.FieldError{{Path: path, Code: "maxWork", Message: "the value takes too long to check against its schema (its anyOf, oneOf or not alternatives nest too deep to try them all); send a value that nests fewer of them"}}
			default:
				panic(r)
			}
		}
	}()
	err = cp.s.Validate(v)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []runtime.FieldError{{Path: path, Code: "schema", Message: err.Error()}}
	}
	c := schemaErrors{s: s, v: v, prefix: path}
	c.collect(ve)
	if len(c.out) == 0 {
		return []runtime.FieldError{{Path: path, Code: "schema", Message: "value does not match the schema"}}
	}
	sortByPath(c.out)
	return c.out
}

// schemaRegexp is a Regexp as the embedded validator's engine: its
// MatchString cannot return an error, so a match that cannot be decided in
// time unwinds the validation (caught in Schema.Validate) rather than count
// as a non-match, which would let a patternProperties member skip its
// schema.
// Its matches are charged to the budget of the call using its copy.
type schemaRegexp struct {
	*Regexp
	work *evalWork
}

type matchTimeout struct{ err error }

func (r schemaRegexp) MatchString(s string) bool {
	ok, err := r.Match(s, r.work.budget)
	if err != nil {
		panic(matchTimeout{err})
	}
	return ok
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

// recordingLoader keeps the documents it loads for Schema.docs.
type recordingLoader struct {
	jsonschema.URLLoader
	docs map[string]any
}

func (l recordingLoader) Load(url string) (any, error) {
	doc, err := l.URLLoader.Load(url)
	if err != nil {
		return nil, err
	}
	if l.docs != nil {
		l.docs[url] = doc
		// What is compiled counts its work (addWorkFormat); what is
		// recorded is as written.
		if doc, err = l.URLLoader.Load(url); err != nil {
			return nil, err
		}
	}
	addWorkFormat(doc)
	return doc, nil
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
