// Package runtime is the small library that toolgen-generated packages link
// against: tools, typed results, the per-call ToolContext, dispatch with the
// failure semantics of the tool runtime spec, ToolInvoked events and the
// in-process event bus, validation errors and tool-name rules.
//
// Data flow: generated code builds []Tool from a family's Handlers; an
// orchestrator (runtime/agent, or the user's own loop) calls Dispatch for each
// tool call the model makes. Dispatch never lets a handler abort the
// evaluation: errors and panics become failed Results. The one exception is an
// error that implements Propagator (prompt.VisibilityExpansionRequired), which
// Dispatch returns untouched.
//
// The runtime imports neither schema nor generator; it depends on the standard
// library only.
package runtime

// SupportPackageIsVersion1 is referenced by generated code so that a package
// generated for an incompatible runtime fails to compile instead of
// misbehaving at run time.
const SupportPackageIsVersion1 = true
