// Package shape decodes and validates generated object types from static
// tables instead of generated code, so a large catalogue's package builds
// like ordinary Go: the compiler lays a table out as data (no init code, no
// SSA), where a generated decodeWire and validate method per type cost it a
// function each.
//
// The generator (generator/tables.go) writes one Object per eligible object
// type: its fields' JSON names, offsets (unsafe.Offsetof, a constant), kinds
// and forms (value, pointer, slice), required and default values, and their
// constraints as Checks whose messages the generator composed with the same
// functions as generated checks. The type's decodeWire, validate and
// Validate methods become one line each calling Decode, Check and Validate.
// The interpreter reads and writes the fields through unsafe pointers at
// those offsets, without reflection and, on valid input, without
// allocations beyond the decoded values themselves; it records the same
// errors (codes, messages, JSON pointers, order) as the generated code does,
// which the generator's differential test holds.
//
// Only what the tables describe is interpreted: objects whose fields are
// strings, integers, numbers, booleans, string enums, nested eligible
// objects, and arrays of those, with scalar defaults, string lengths,
// patterns, formats, string enums, numeric bounds and multipleOf, item
// counts and unique items. Every other type (unions, tuples, maps, nullable
// or time fields, delegated keywords, recursive types, …) keeps its
// generated methods.
package shape
