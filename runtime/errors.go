package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Code classifies a failure; the gateway's envelopes carry it.
type Code string

// The error codes of the gateway envelope (spec 004 §2.2).
const (
	CodeValidation       Code = "VALIDATION_ERROR"
	CodePermissionDenied Code = "PERMISSION_DENIED"
	CodeNotFound         Code = "NOT_FOUND"
	CodeConflict         Code = "CONFLICT"
	CodeInternal         Code = "INTERNAL"
)

// Error is a failure with a code, returned by handlers through the typed
// constructors NotFound, Conflict, PermissionDenied, Invalid and Internal.
type Error struct {
	Code    Code
	Message string
	// Details is optional structured data for the model (kept small).
	Details map[string]any
}

func (e *Error) Error() string { return e.Message }

// NotFound reports a missing entity.
func NotFound(format string, args ...any) error {
	return &Error{Code: CodeNotFound, Message: fmt.Sprintf(format, args...)}
}

// Conflict reports a state conflict (duplicate, stale version, reused key).
func Conflict(format string, args ...any) error {
	return &Error{Code: CodeConflict, Message: fmt.Sprintf(format, args...)}
}

// PermissionDenied reports an operation the caller may not perform.
func PermissionDenied(format string, args ...any) error {
	return &Error{Code: CodePermissionDenied, Message: fmt.Sprintf(format, args...)}
}

// Invalid reports arguments that are well-formed but unacceptable.
func Invalid(format string, args ...any) error {
	return &Error{Code: CodeValidation, Message: fmt.Sprintf(format, args...)}
}

// Internal reports an unexpected failure.
func Internal(format string, args ...any) error {
	return &Error{Code: CodeInternal, Message: fmt.Sprintf(format, args...)}
}

// NotImplementedError is returned by generated UnimplementedHandlers for
// tools the user has not written yet.
type NotImplementedError struct {
	Tool string
}

func (e *NotImplementedError) Error() string {
	return "tool " + e.Tool + " is not implemented"
}

// NotImplemented reports that tool has no implementation (code INTERNAL).
// Not inlined: a catalogue's UnimplementedHandlers calls it once per tool.
//
//go:noinline
func NotImplemented(tool string) error {
	return &NotImplementedError{Tool: tool}
}

// CodeOf returns the code of err: the Code of an *Error or
// *ValidationError in its chain, INTERNAL otherwise, and "" for nil.
func CodeOf(err error) Code {
	if err == nil {
		return ""
	}
	var e *Error
	// A handler may wrap a nil *Error, or build one without a code.
	if errors.As(err, &e) && e != nil && e.Code != "" {
		return e.Code
	}
	var v *ValidationError
	if errors.As(err, &v) && v != nil {
		return CodeValidation
	}
	return CodeInternal
}

// FieldError is one violation found while decoding or validating arguments.
type FieldError struct {
	// Path is the JSON pointer of the offending value ("" for the root).
	Path string `json:"path"`
	// Code is the violated keyword: required, type, enum, pattern, minimum,
	// additionalProperties, format, ...
	Code string `json:"code"`
	// Message is a sentence a model can act on.
	Message string `json:"message"`
	// Expected describes the accepted shape, when known.
	Expected string `json:"expected,omitempty"`
	// Received is the offending value, truncated.
	Received string `json:"received,omitempty"`
	// Suggestion is the closest valid enum value or argument name.
	Suggestion string `json:"suggestion,omitempty"`
}

func (f FieldError) String() string {
	var b strings.Builder
	p := f.Path
	if p == "" {
		p = "(root)"
	}
	b.WriteString(cut(showBreaks(p)))
	b.WriteString(": ")
	b.WriteString(cut(showBreaks(f.Message))) // may quote a definition's pattern
	if f.Suggestion != "" {
		b.WriteString(" (did you mean ")
		b.WriteString(quote(cut(f.Suggestion)))
		b.WriteString("?)")
	}
	return b.String()
}

// ValidationError aggregates every violation found in one set of arguments.
//
// Fields may be capped (the generated decoders record at most
// wire.MaxErrors); Omitted counts the violations left out.
type ValidationError struct {
	Tool   string
	Fields []FieldError
	// Omitted counts violations found but not listed in Fields.
	Omitted int
}

// maxListedFields bounds the violations ValidationError.Error lists, and
// maxErrorText each text of one, so that the message a model reads stays
// small whatever the arguments.
const (
	maxListedFields = 20
	maxErrorText    = 256
)

func (e *ValidationError) Error() string {
	var b strings.Builder
	if e.Tool != "" {
		b.WriteString("invalid arguments for ")
		b.WriteString(e.Tool)
	} else {
		b.WriteString("invalid arguments")
	}
	for i, f := range e.Fields {
		if i == maxListedFields {
			break
		}
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(f.String())
	}
	if more := max(len(e.Fields)-maxListedFields, 0) + e.Omitted; more > 0 {
		b.WriteString("; and ")
		b.WriteString(strconv.Itoa(more))
		b.WriteString(" more")
	}
	return b.String()
}

// showBreaks shows escaped the control characters and line breaks of p,
// a JSON pointer whose tokens are member names an argument or a
// definition chose: the message is one line a model reads, and a name
// holding "\n# …" would otherwise start a line of its own.
func showBreaks(p string) string {
	if !strings.ContainsFunc(p, isBreak) {
		return p
	}
	var b strings.Builder
	for _, r := range p {
		if !isBreak(r) {
			b.WriteRune(r)
			continue
		}
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

// isBreak reports a control character or a line or paragraph separator.
func isBreak(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029
}

// cut shortens s to maxErrorText bytes at a code point boundary, marking
// the cut with "…".
func cut(s string) string {
	if len(s) <= maxErrorText {
		return s
	}
	n := maxErrorText - len("…")
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// Propagator marks errors that must pass through Dispatch untouched instead
// of becoming a failed Result. The only one in the runtime is
// prompt.VisibilityExpansionRequired.
type Propagator interface {
	error
	PropagateThroughDispatch()
}

// PanicError is the error of a failed Result whose handler panicked.
type PanicError struct {
	Tool  string
	Value any
	Stack []byte
}

func (e *PanicError) Error() string {
	return "tool " + e.Tool + " failed unexpectedly: " + PanicText(e.Value)
}

// maxPanicValues bounds the arrays, slices, maps, structs and interfaces
// fmt may have to visit to print a panic value.
const maxPanicValues = 10000

// PanicText is a value code panicked with as fmt's %v prints it, on one
// line and cut to 256 bytes, or its type alone when printing it would
// visit more than 10,000 values: a slice or map holding itself, which fmt
// follows until the stack overflows (a fatal error that no recover stops),
// or a value nested as deep. Use it, not fmt, on a recovered value.
func PanicText(v any) string {
	rv, ok := v.(reflect.Value) // fmt prints the value it holds
	if !ok {
		rv = reflect.ValueOf(v)
	}
	budget := maxPanicValues
	if !fmtBounded(rv, 0, &budget) {
		return fmt.Sprintf("%T (not shown: a cyclic or too large value)", v)
	}
	return oneLine(fmt.Sprint(v))
}

// oneLine is s with its line breaks and control characters shown escaped,
// cut to maxErrorText bytes: a text a misbehaving handler chose, in a
// message a model reads as one line.
func oneLine(s string) string {
	return cut(showBreaks(cut(s)))
}

// fmtBounded reports whether fmt's %v of v, at depth depth of the value
// printed, visits the values it nests within *budget, which it spends.
// It follows them as fmt does: not past a Formatter, Stringer or error,
// whose method prints the value, nor past a pointer but at the top.
func fmtBounded(v reflect.Value, depth int, budget *int) bool {
	if !v.IsValid() || !nests(v.Type(), depth) {
		return true
	}
	if v.CanInterface() {
		switch v.Interface().(type) {
		case fmt.Formatter, fmt.Stringer, error:
			return true
		}
	}
	if *budget--; *budget < 0 {
		return false
	}
	switch v.Kind() {
	case reflect.Interface:
		return fmtBounded(v.Elem(), depth+1, budget)
	case reflect.Pointer:
		return v.IsNil() || fmtBounded(v.Elem(), depth+1, budget)
	case reflect.Array, reflect.Slice:
		if !nests(v.Type().Elem(), depth+1) {
			return true // numbers or strings: fmt prints them in a loop
		}
		for i := range v.Len() {
			if !fmtBounded(v.Index(i), depth+1, budget) {
				return false
			}
		}
	case reflect.Map:
		for it := v.MapRange(); it.Next(); {
			if !fmtBounded(it.Key(), depth+1, budget) || !fmtBounded(it.Value(), depth+1, budget) {
				return false
			}
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if !fmtBounded(v.Field(i), depth+1, budget) {
				return false
			}
		}
	}
	return true
}

// nests reports whether fmt's %v, at depth depth, prints the values a
// value of type t holds: an interface's, an array's, a slice's, a map's or
// a struct's, and at the top a pointer's to one of the last four.
func nests(t reflect.Type, depth int) bool {
	switch t.Kind() {
	case reflect.Interface, reflect.Array, reflect.Slice, reflect.Map, reflect.Struct:
		return true
	case reflect.Pointer:
		if depth == 0 {
			switch t.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Map, reflect.Struct:
				return true
			}
		}
	}
	return false
}
