// Package matryoshka builds facade tools: one tool that stands for a group
// of inner tools and unfolds into them when the model invokes it (spec 003,
// "MatryoshkaTool"). Generated packages build one facade per op group with
// Facade; an orchestrator (runtime/agent, or the user's own loop) keeps the
// offered tools in a Toolbox and applies a Strategy after every tool call,
// so that an invoked facade is replaced by its inner tools on the next turn.
//
// Data flow: generated Facades(h) → []runtime.Tool → NewToolbox → the model
// calls a facade → runtime.Dispatch runs the facade's handler, whose result
// value is an *Unfolded → Strategy.Evaluate turns it into a
// ToolInjectionResult → Toolbox.Apply.
//
// A facade is a plain runtime.Tool, so it works without a toolbox too: its
// answer lists the inner tools with a one-line usage each, and a shortcut
// call {"tool":"<inner>","args":{...}} runs any tool of its subtree directly.
// That matters for MCP clients that ignore tools/list_changed. When the
// inner tool's generated decoder accepted and dropped arguments its schema
// does not declare (runtime.IgnoredArgs), the answer's message ends with a
// note naming them.
//
// # Decisions
//
// Selection: a facade may declare categories (Category), each a subset of
// its inner tools. The facade's parameters then carry an optional
// "category" enum; a call without a category unfolds every inner tool.
//
// Order: unfolded tools take the facade's place in the toolbox when the
// facade is removed on invoke (the default), or follow it when it is kept
// (KeepOnInvoke), in inner order. Tools already present keep their place:
// names stay unique.
//
// The spec's open questions:
//
//  1. Nesting depth is limited. A facade over plain tools has depth 1; each
//     level of nesting adds one. Construction fails beyond MaxDepth (default
//     DefaultMaxDepth). Facades are built bottom-up from values, so cycles
//     cannot be expressed.
//  2. Re-folding is supported but off by default. Toolbox.Fold puts a facade
//     back in place of everything it unfolded (transitively);
//     Unfold{Refold: true} folds every open facade that is not on
//     the path to the facade just invoked, so at most one chain of facades is
//     open at a time.
//  3. The model sees flat tool lists. The nesting shows only in facade
//     answers, which mark inner facades and say how many tools they hold.
package matryoshka
