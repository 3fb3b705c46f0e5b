package prompt

import "strconv"

// ValidationError reports a prompt whose sections cannot be built:
// duplicate tool names or section keys, a bad tool definition, a placeholder
// the params type lacks, a malformed template. It is the spec's
// PromptValidationError; a model's bad arguments to open_sections are a
// *runtime.ValidationError instead.
type ValidationError struct {
	// Prompt is "namespace/key".
	Prompt string
	// Section is the dot path of the offending section ("" for the prompt).
	Section string
	// Tool is the offending tool's name, when a tool is at fault.
	Tool string
	// Other is the path of the section already declaring Tool, for
	// duplicates.
	Other string
	// Reason says what is wrong.
	Reason string
	// Err is the underlying error, when there is one: a
	// *runtime.DuplicateToolError or *runtime.ToolDefinitionError.
	Err error
}

// Unwrap returns Err.
func (e *ValidationError) Unwrap() error { return e.Err }

func (e *ValidationError) Error() string {
	s := "prompt " + e.Prompt
	if e.Section != "" {
		s += ": section " + strconv.Quote(e.Section)
	}
	return s + ": " + e.Reason
}
