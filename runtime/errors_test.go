package runtime_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestErrorCodes(t *testing.T) {
	tests := []struct {
		err  error
		code runtime.Code
		msg  string
	}{
		{runtime.NotFound("issue %d not found", 4), runtime.CodeNotFound, "issue 4 not found"},
		{runtime.Conflict("version %d is stale", 2), runtime.CodeConflict, "version 2 is stale"},
		{runtime.PermissionDenied("cannot delete %s", "main"), runtime.CodePermissionDenied, "cannot delete main"},
		{runtime.Invalid("due date is in the past"), runtime.CodeValidation, "due date is in the past"},
		{runtime.Internal("cache corrupted"), runtime.CodeInternal, "cache corrupted"},
		{fmt.Errorf("loading: %w", runtime.NotFound("gone")), runtime.CodeNotFound, "loading: gone"},
		{&runtime.ValidationError{}, runtime.CodeValidation, "invalid arguments"},
		{errors.New("plain"), runtime.CodeInternal, "plain"},
		{runtime.NotImplemented("list_todos"), runtime.CodeInternal, "tool list_todos is not implemented"},
	}
	for _, tc := range tests {
		if got := runtime.CodeOf(tc.err); got != tc.code {
			t.Errorf("CodeOf(%v) = %q, want %q", tc.err, got, tc.code)
		}
		if tc.err.Error() != tc.msg {
			t.Errorf("message %q, want %q", tc.err.Error(), tc.msg)
		}
	}
	if got := runtime.CodeOf(nil); got != "" {
		t.Errorf("CodeOf(nil) = %q, want empty", got)
	}
	var ni *runtime.NotImplementedError
	if !errors.As(runtime.NotImplemented("x"), &ni) || ni.Tool != "x" {
		t.Error("NotImplemented does not return a *NotImplementedError naming the tool")
	}
}

func TestValidationErrorFormatting(t *testing.T) {
	err := &runtime.ValidationError{Tool: "update_issue", Fields: []runtime.FieldError{
		{Path: "", Code: "required", Message: "missing required argument issue_id"},
		{Path: "/status", Code: "enum", Message: `must be one of "open", "closed"`, Received: `"opne"`, Suggestion: "open"},
		{Path: "/labels/2", Code: "type", Message: "must be a string", Expected: "string", Received: "7"},
	}}
	want := `invalid arguments for update_issue: (root): missing required argument issue_id; /status: must be one of "open", "closed" (did you mean "open"?); /labels/2: must be a string`
	if got := err.Error(); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if got := (&runtime.ValidationError{Fields: []runtime.FieldError{{Path: "/a", Message: "bad"}}}).Error(); got != "invalid arguments: /a: bad" {
		t.Errorf("untitled: %q", got)
	}
	// A pointer's tokens are member names from arguments or definitions:
	// their line breaks and control characters are shown escaped, so the
	// message stays one line.
	hostile := runtime.FieldError{Path: "/u/k\n# Boom\r\t\x00\u2028é", Message: "unknown property"}
	if got, want := hostile.String(), `/u/k\n# Boom\r\t\u0000\u2028é: unknown property`; got != want {
		t.Errorf("hostile pointer: %q, want %q", got, want)
	}
}

func TestPanicErrorMessage(t *testing.T) {
	e := &runtime.PanicError{Tool: "t", Value: errors.New("nil deref")}
	if got := e.Error(); got != "tool t failed unexpectedly: nil deref" {
		t.Errorf("got %q", got)
	}
}

func TestFailureNilError(t *testing.T) {
	r := runtime.Failure(nil)
	if r.Success || r.Message == "" {
		t.Errorf("Failure(nil) = %+v", r)
	}
}
