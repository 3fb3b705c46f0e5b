package runtime

// Result is the untyped outcome of one tool call, as Dispatch returns it and
// as ToolInvoked events carry it.
type Result struct {
	// Message is the short text forwarded to the model.
	Message string
	// Value is the typed payload; nil on failure unless the tool emits a
	// structured error payload.
	Value any
	// Success reports whether the handler completed normally.
	Success bool
	// ExcludeValueFromContext asks adapters to omit Value from the
	// provider-facing tool message while still returning it out of band.
	ExcludeValueFromContext bool
	// Err is the error a failure came from (a handler error, a recovered
	// panic or a *ValidationError), for observability; it is never sent to
	// the model beyond Message.
	Err error
	// Params is the decoded, validated params value the handler ran with
	// (generated tools set it), for ToolInvoked events; nil when the
	// arguments did not decode.
	Params any
}

// ToolResult is the typed result a handler returns.
type ToolResult[T any] struct {
	Message                 string
	Value                   T
	Success                 bool
	ExcludeValueFromContext bool
}

// OK returns a successful result carrying value.
func OK[T any](value T, message string) ToolResult[T] {
	return ToolResult[T]{Message: message, Value: value, Success: true}
}

// Untyped converts r to a Result. A failed result carries no value.
func (r ToolResult[T]) Untyped() Result {
	out := Result{Message: r.Message, Success: r.Success, ExcludeValueFromContext: r.ExcludeValueFromContext}
	if r.Success {
		out.Value = r.Value
	}
	return out
}

// Fail returns a failed typed result carrying message and no value.
func Fail[T any](message string) ToolResult[T] {
	return ToolResult[T]{Message: message}
}

// WithParams converts r to a Result that records the decoded params the
// handler ran with (for ToolInvoked events). Generated tools call it.
func (r ToolResult[T]) WithParams(params any) Result {
	out := r.Untyped()
	out.Params = params
	return out
}

// Failure returns a failed Result whose message is err's text.
func Failure(err error) Result {
	if err == nil {
		return Result{Message: "tool failed"}
	}
	return Result{Message: err.Error(), Success: false, Err: err}
}
