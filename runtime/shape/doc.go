// Package shape decodes and validates generated object types from static
// tables instead of generated code, so a large catalogue's package builds
// with fewer and smaller functions: the compiler lays a table out as data
// (no init code, no SSA), where a generated decodeWire and validate method
// per type cost it a function body each.
//
// The generator (generator/tables.go) writes one Table per eligible object
// type when its Options.Tables asks for them (by default for families of
// hundreds of object shapes and for objects of more than 64 properties:
// generated methods run faster, tables build faster): the fields' JSON
// names, offsets (unsafe.Offsetof, a constant), kinds and forms (value,
// pointer, slice), required flags and default values, and their
// constraints as Checks whose messages the generator composed as its
// generated checks compose them. The type's decodeWire, validate and
// Validate methods become one line each calling Decode, ValidateAt and
// Validate; a constrained named scalar (an enum) shares one Check between
// its validate method (CheckString, CheckInt, CheckFloat) and the tables.
// A table also holds its type as data, (*T)(nil): the interpreter
// allocates a pointer field's value, an array's items and (Bind) a tool's
// params as that type (reflect.New, reflect.MakeSlice: the collector sees
// T's own pointers), so a catalogue needs no allocator or decode function
// per type.
//
// The interpreter reads and writes fields through unsafe pointers at those
// offsets, without reflection and, on valid input, without allocations
// beyond the decoded values themselves (a violation's JSON pointer is
// built from the walk's steps only when it is recorded); it records the
// same errors (codes, messages, pointers, order) as generated code, which
// the generator's TestTablesDifferential holds.
//
// Only what the tables describe is interpreted: objects whose fields are
// strings, integers, numbers, booleans, string enums and consts, nested
// eligible objects or unions, and arrays of those (also nullable when
// required, as strict-mode function schemas write every field: *T or a
// slice, nil for null; and optional nullable scalars, runtime.Nullable[T]),
// with scalar defaults, string lengths, patterns, formats, string enums,
// numeric bounds and multipleOf, item counts and unique items; and unions
// of eligible objects told apart by a discriminator property (Union: the
// tagged unions of OpenAPI-style catalogues, whose holders could not be
// tables either while the union was code). Every other type (unions matched by kind or
// by trial, tuples, maps, optional nullable objects or arrays, time fields,
// delegated keywords, recursive types, tables nested more than MaxDepth
// deep, …) keeps its generated methods.
package shape
