// Package jsonpos reads JSON that remembers where every value came from, and
// reports located errors.
//
// Parse reads strict JSON (RFC 8259) into a tree of Nodes; each Node's Pos
// holds the file, the 1-based line and byte column of the value's first
// byte, and its JSON pointer. Object members keep source order, numbers keep
// their literal text, duplicate keys are errors, and nesting is bounded
// (MaxDepth, or the caller's limit through ParseDepth), as is the total size
// of the pointers. Node.JSON writes a subtree back as compact JSON. An
// unpaired surrogate escape is read as U+FFFD and its string marked
// (Node.Replaced); Source goes back from a position to the escape, for
// callers that refuse it.
//
// Every problem toolgen finds in its input is an *Error at a position,
// printed as FILE:LINE:COL: /json/pointer: message (ir.Pos.String gives the
// FILE:LINE:COL part); an ErrorList gathers all of them, and MergeErrors
// joins the lists of successive phases in source order, keeping the first
// report at each position.
package jsonpos
