// Package ir is toolgen's intermediate representation: what schema.Compile
// (over the tools schema/load recognised) and the taxonomy produce and what
// generator.Generate consumes. Every node carries its source position and its decided Go name;
// emission never invents names.
//
// The IR is plain data: no methods do I/O, and the graph may be cyclic
// (recursive $refs point back to named Types).
package ir

import (
	"encoding/json"
	"iter"
	"strconv"

	"github.com/toolgen-go/toolgen/runtime"
)

// Pos locates a node: the input file, the 1-based line and column of the
// JSON value, and its JSON pointer within the file.
type Pos struct {
	File    string
	Line    int
	Col     int
	Pointer string
}

// String is the position as FILE:LINE:COL, FILE:LINE when the column is
// unknown, or FILE alone when the line is; the JSON pointer is left to the
// caller.
func (p Pos) String() string {
	if p.Line <= 0 {
		return p.File
	}
	if p.Col <= 0 {
		// The line is known, the column not (some YAML parser errors).
		return p.File + ":" + strconv.Itoa(p.Line)
	}
	return p.File + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
}

// Family is one generated package: a set of tools and everything derived
// from them.
type Family struct {
	// Package is the Go package name of the output.
	Package string
	// Sources are the input files, in the order given.
	Sources []string
	// Tools in declaration order (input file order, then array order).
	Tools []*Tool
	// Types are all named Go types to emit, in a deterministic order
	// (first reachable from Tools in declaration order, depth first).
	Types []*Type
	// Groups and Ops are the op taxonomy (filled by taxonomy.Derive).
	Groups []*Group
	Ops    []*Op
	// RegistryVersion is a stable hash of the canonical registry.
	RegistryVersion string
	// Surfaces lists the surfaces to emit ("flat", "gateway", "facades",
	// "sections", "code"); empty means all but "code", which is opt-in.
	Surfaces []string
	// Warnings are non-fatal diagnostics (lenient rewrites, defaults of the
	// wrong type, unknown verbs, ...), in the order of their positions
	// (the manifest's first, then the inputs' in input order), the
	// unlocated ones last.
	Warnings []Diagnostic
}

// Diagnostic is a located warning.
type Diagnostic struct {
	Pos     Pos
	Code    string
	Message string
}

// InputFormat names the shape a tool definition was read from.
type InputFormat string

// The input shapes toolgen reads.
const (
	FormatOpenAIChat      InputFormat = "openai-chat"
	FormatOpenAIResponses InputFormat = "openai-responses"
	FormatAnthropic       InputFormat = "anthropic"
	FormatMCP             InputFormat = "mcp"
)

// Tool is one tool definition.
type Tool struct {
	// Name is the wire name exactly as given.
	Name string
	// GoName is the exported Go identifier (ListIssues); the params type is
	// Params.GoName (GoName+"Params" unless that name was taken), the
	// result type ResultName.
	GoName string
	// ResultName is the Go name of the result type: Result's, or, when
	// Result is nil, the json.RawMessage alias the package declares
	// (GoName+"Result" unless that name was taken).
	ResultName string
	// Title is the MCP title, if any.
	Title       string
	Description string
	Pos         Pos
	Format      InputFormat
	// Params is the object type of the arguments (always a named type).
	Params *Type
	// Result is the typed result from an MCP outputSchema (or the
	// manifest); nil means the handler returns json.RawMessage.
	Result *Type
	// ParamsSchema and ResultSchema are the schemas as given (compact JSON,
	// keys in source order), sent to providers and used by validators for
	// delegated keywords.
	ParamsSchema json.RawMessage
	ResultSchema json.RawMessage
	Annotations  Annotations
}

// Annotations are MCP tool hints; nil means not given.
type Annotations struct {
	ReadOnly    *bool
	Destructive *bool
	Idempotent  *bool
	OpenWorld   *bool
}

// Kind is the Go representation family of a Type.
type Kind int

// Kinds of types.
const (
	// KindAny is any JSON value ({}, true, or a schema whose instances are
	// not of one kind); Go type any, holding the generic decoding
	// (nil, bool, json.Number or float64, string, []any, map[string]any).
	KindAny Kind = iota
	// KindNever is the false schema: no value is valid.
	KindNever
	KindBool
	// KindInteger is int64 (integers outside int64 are rejected with a
	// located validation error, never overflowed).
	KindInteger
	// KindNumber is float64.
	KindNumber
	KindString
	// KindEnum is a string enum: a named string type with one typed
	// constant per value.
	KindEnum
	// KindConst is a type whose only valid value is Const.
	KindConst
	// KindArray is []Elem.
	KindArray
	// KindTuple is a struct with one field per prefix item, plus Rest
	// ([]Elem) when additional items are allowed.
	KindTuple
	// KindObject is a struct with Fields; Extra holds additional
	// properties when the schema allows typed ones, or, at a tool's
	// root, any ones.
	KindObject
	// KindMap is map[string]Elem (additionalProperties schema, no declared
	// properties).
	KindMap
	// KindUnion is an anyOf/oneOf of Branches.
	KindUnion
)

// Type is a node of the type graph. Named types (GoName != "") are emitted as
// Go type declarations; unnamed ones are inlined at their use.
type Type struct {
	// ID is a stable identity: file + JSON pointer of the defining schema.
	ID string
	// GoName is the decided Go type name, "" for inline types.
	GoName string
	// Doc is the description, for doc comments.
	Doc  string
	Pos  Pos
	Kind Kind
	// Nullable reports that null is a valid value besides Kind's values.
	Nullable bool

	// Fields of an object, in source order.
	Fields []*Field
	// Elem is the item type of arrays, the value type of maps, the
	// type of additional properties of objects (with Extra), or the rest
	// items of tuples.
	Elem *Type
	// Extra reports that an object keeps additional properties in a map
	// field named ExtraGoName (Elem is their type: additionalProperties',
	// or any at an open root, a result without properties or a root with
	// additionalProperties true or {}).
	Extra       bool
	ExtraGoName string
	// AdditionalFalse reports additionalProperties: false (unknown
	// properties are errors, with the closest known name suggested).
	AdditionalFalse bool
	// PatternProperties of an object or map, in source order.
	PatternProperties []PatternProperty
	// Prefix are the tuple's positional item types.
	Prefix []*Type
	// RestForbidden reports a tuple with items: false.
	RestForbidden bool

	// Enum values (KindEnum: strings; other kinds: canonical JSON literals
	// checked by the validator).
	Enum []EnumValue
	// Const is the canonical JSON of const.
	Const json.RawMessage

	// Branches of a union, and how to choose among them.
	Branches      []*Type
	Discriminator *Discriminator
	// OneOf reports oneOf semantics (exactly one branch) vs anyOf.
	OneOf bool
	// Match is how a union value picks its branch.
	Match UnionMatch

	// Constraints checked by the generated Validate; nil when the schema
	// sets none, as most do (ConstraintsValue reads them either way). A
	// catalogue compiles about ten types per tool, and a Type that holds
	// them inline is past the 512 bytes above which Go gives an object
	// a header and the next size class, 640 bytes.
	Constraints *Constraints
	// Delegated is a subschema (compact JSON) holding keywords Go code is
	// not generated for (not, if/then/else, dependentSchemas,
	// unevaluated*, ...); the generated code validates the value against it
	// with the embedded validator. Nil when nothing is delegated.
	Delegated json.RawMessage
	// DelegatedNull reports that Delegated applies to null too: the
	// schema's own type list allows null beside its delegated keywords
	// ({"type":["object","null"],"not":...}), where a union's null
	// branch would not.
	DelegatedNull bool
	// Resources are documents Delegated refers to by absolute URI (keys
	// carry no fragment), kept exactly as written ($id, $anchor,
	// $dynamicAnchor). Set on the root type of a schema with a
	// $dynamicRef that resolves by dynamic scope: Delegated is then
	// {"$ref": "<uri>#<json pointer>"} into one of them, and the embedded
	// validator checks the whole value from there (runtime/check.MustSchemaIn).
	Resources map[string]json.RawMessage
	// Default is the canonical JSON default applied when the value is
	// absent (only when it type-checks; otherwise a warning was emitted).
	Default json.RawMessage
	// Format is the format keyword (date-time, email, uuid, ...).
	Format string
	// Repr is the Go representation of a string type whose format the
	// manifest maps (formats:); the zero value keeps a string.
	Repr Repr
}

// Repr is how a string type with a format is represented in Go.
type Repr int

// Representations of formatted strings.
const (
	// ReprString is a Go string; the generated Validate checks the format.
	ReprString Repr = iota
	// ReprTime is a time.Time (Format date-time or date): the generated
	// decoder parses the string and reports a malformed one as a format
	// error, MarshalJSON writes the same format back (a date stays
	// YYYY-MM-DD), and Validate has nothing left to check.
	ReprTime
)

// Field is a property of an object type.
type Field struct {
	// JSONName is the property name exactly as in the schema.
	JSONName string
	// GoName is the decided exported field name.
	GoName   string
	Doc      string
	Pos      Pos
	Type     *Type
	Required bool
	// Default is the canonical JSON default (nil if none or ill-typed).
	Default json.RawMessage
}

// Presence is how a field's Go representation tells absent, null and value
// apart.
type Presence int

// Field representations.
const (
	// PresenceValue: T. Required non-null fields and optional fields with
	// a default.
	PresenceValue Presence = iota
	// PresencePointer: *T, nil when absent (optional, no default) or null
	// (required, nullable). Slices and maps use nil for absent instead.
	PresencePointer
	// PresenceNullable: runtime.Nullable[T], telling absent, null and
	// value apart (optional and nullable).
	PresenceNullable
)

// Presence decides the field's representation from Required, Default and
// the type's nullability. It is the only place this rule lives.
func (f *Field) Presence() Presence {
	nullable := f.Type != nil && f.Type.Nullable
	switch {
	case !f.Required && nullable:
		return PresenceNullable
	case f.Required && nullable:
		return PresencePointer
	case !f.Required && f.Default == nil:
		return PresencePointer
	default:
		return PresenceValue
	}
}

// PatternProperty is one patternProperties entry.
type PatternProperty struct {
	Pattern string
	Type    *Type
}

// EnumValue is one enum member.
type EnumValue struct {
	// JSON is the canonical JSON literal.
	JSON json.RawMessage
	// GoName is the constant name for string enums (StateOpen).
	GoName string
}

// UnionMatch is how a union's decoder chooses a branch.
type UnionMatch int

// Union strategies.
const (
	// MatchInOrder tries the branches in order and takes every one (anyOf)
	// or the only one (oneOf) the value validates against.
	MatchInOrder UnionMatch = iota
	// MatchKind picks the branch by the value's JSON kind (object, array,
	// string, number, boolean): every branch admits exactly one kind, and
	// integer and number count as one.
	MatchKind
	// MatchDiscriminator picks the branch by Discriminator.
	MatchDiscriminator
)

// Discriminator selects a union branch by a const-valued property.
type Discriminator struct {
	Property string
	// Values maps each const value (decoded string) to its branch index,
	// in branch order.
	Values []DiscriminatorValue
}

// DiscriminatorValue is one discriminator case.
type DiscriminatorValue struct {
	Value  string
	Branch int
}

// Number is a JSON number kept as its decimal text so that bounds and
// multipleOf are exact (0.01 stays 0.01).
type Number string

// Values yields the types of the values t holds, each once per place it
// is used: field types, the element, pattern-property values, tuple
// prefix items and union branches. It does not recurse.
func (t *Type) Values() iter.Seq[*Type] {
	return func(yield func(*Type) bool) {
		if t == nil {
			return
		}
		for _, f := range t.Fields {
			if f.Type != nil && !yield(f.Type) {
				return
			}
		}
		if t.Elem != nil && !yield(t.Elem) {
			return
		}
		for _, p := range t.PatternProperties {
			if p.Type != nil && !yield(p.Type) {
				return
			}
		}
		for _, p := range t.Prefix {
			if p != nil && !yield(p) {
				return
			}
		}
		for _, b := range t.Branches {
			if b != nil && !yield(b) {
				return
			}
		}
	}
}

// Subtypes yields every type t refers to: its Values, then the contains
// and propertyNames subschemas. It does not recurse; walks over the type
// graph call it per type.
func (t *Type) Subtypes() iter.Seq[*Type] {
	return func(yield func(*Type) bool) {
		for v := range t.Values() {
			if !yield(v) {
				return
			}
		}
		if t == nil || t.Constraints == nil {
			return
		}
		for _, x := range []*Type{t.Constraints.Contains, t.Constraints.PropertyNames} {
			if x != nil && !yield(x) {
				return
			}
		}
	}
}

// ConstraintsValue is t's constraints, the zero Constraints when it has
// none.
func (t *Type) ConstraintsValue() Constraints {
	if t.Constraints == nil {
		return Constraints{}
	}
	return *t.Constraints
}

// Constraints are the assertion keywords compiled into Go checks.
type Constraints struct {
	MinLength, MaxLength *int64 // in Unicode code points
	Pattern              string // ECMA-262 source
	Minimum, Maximum     *Number
	ExclusiveMinimum     *Number
	ExclusiveMaximum     *Number
	MultipleOf           *Number
	MinItems, MaxItems   *int64
	UniqueItems          bool
	Contains             *Type
	// ContainsSchema is the contains subschema whole, self-contained, for
	// the embedded validator when Go checks of an item's generic form do
	// not cover Contains (an object's properties, a union, a delegated
	// keyword).
	ContainsSchema json.RawMessage
	MinContains    *int64
	MaxContains    *int64
	MinProperties  *int64
	MaxProperties  *int64
	// DependentRequired in source order.
	DependentRequired []Dependency
	PropertyNames     *Type
}

// Dependency is one dependentRequired entry: when Property is present,
// Requires must be too.
type Dependency struct {
	Property string
	Requires []string
}

// Group is a top-level op group (onto, util).
type Group struct {
	Name    string
	Summary string
}

// Op is one taxonomy entry (spec 004 §5.3).
type Op struct {
	// Path is the dotted op ("onto.task.list").
	Path   string
	Tool   *Tool
	Group  string
	Entity string
	Action string
	// Kind is runtime.OpRead or runtime.OpWrite.
	Kind runtime.OpKind
	// Usage is the CLI-like one-liner: the path, required args bare,
	// optional ones in brackets ("onto.task.list [limit:integer=20]").
	Usage string
	// Args is Usage after the path.
	Args string
	// Arguments summarises the tool's top-level arguments in schema
	// order; the registry and the surfaces read them from here.
	Arguments []Arg
	Notes     []string
	Examples  []Example
	Policy    *Policy
	// DryRunDefault makes dry_run default to true for the op.
	DryRunDefault bool
	// Source says how the op was derived ("rule", "manifest",
	// "annotation") for toolgen inspect.
	Source string
}

// Arg is one argument in an op's summary.
type Arg struct {
	Name string
	// Type is a compact label: string, integer, string|null,
	// array<string>, enum(a|b|c), object.
	Type     string
	Required bool
	// Default is the default as compact JSON, or "".
	Default string
	// Description is the first sentence of the property's description.
	Description string
}

// Example is a ready-to-run call of an op.
type Example struct {
	Description string
	Args        json.RawMessage
}

// Policy is the do/dont/edge_cases guidance of an op.
type Policy struct {
	Do        []string `json:"do,omitempty"`
	Dont      []string `json:"dont,omitempty"`
	EdgeCases []string `json:"edge_cases,omitempty"`
}
