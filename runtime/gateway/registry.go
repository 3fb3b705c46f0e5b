package gateway

import (
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime"
)

// Op is one registry record (spec 004 §5.3): an op path mapped to the tool
// that serves it. Generated code emits a []Op table per family.
type Op struct {
	// Path is the dotted op path, e.g. "onto.task.list".
	Path string
	// Tool is the underlying tool's wire name, e.g. "list_onto_tasks".
	Tool        string
	Description string
	// Parameters is the tool's JSON Schema.
	Parameters json.RawMessage
	Group      string
	// Kind is runtime.OpRead or runtime.OpWrite.
	Kind   runtime.OpKind
	Entity string
	Action string
	// Usage is the one-line CLI-like usage string.
	Usage string
	// Args summarises the arguments (name, type, required, default).
	Args     []Arg
	Notes    []string
	Examples []Example
	Policy   *Policy
	// DryRunDefault makes dry_run default to true for this op.
	DryRunDefault bool
}

// Arg is one argument in an op's summary.
type Arg struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Required    bool   `json:"required"`
	Default     string `json:"default,omitempty"`
	Description string `json:"description,omitempty"`
}

// Example is a ready-to-run call.
type Example struct {
	Description string          `json:"description,omitempty"`
	Args        json.RawMessage `json:"args"`
}

// Policy is the do/dont/edge_cases guidance of an op.
type Policy struct {
	Do        []string `json:"do,omitempty"`
	Dont      []string `json:"dont,omitempty"`
	EdgeCases []string `json:"edge_cases,omitempty"`
}

// Group is a top-level group with its one-line summary.
type Group struct {
	Name    string
	Summary string
}

// Registry is a family's op table as generated code declares it.
type Registry struct {
	// Version is the stable hash of the canonical registry.
	Version string
	Groups  []Group
	Ops     []Op
}

// Binding connects an op to the tool that executes it.
type Binding struct {
	Op   Op
	Tool runtime.Tool
}
