// Package codemode serves a tool family as code: the model reads typed
// TypeScript declarations of the ops (runtime/codemode/tsdecl, generated per
// family) and writes one script that calls several ops, instead of one tool
// call per step. Intermediate results stay in the script; only what it
// returns or logs goes back to the model.
//
// Data flow: the generated Code(h) calls Tools with the family's Registry,
// its tools and its CodeDeclarations. A model sees two tools:
//
//   - tool_code {"script": "..."} runs a TypeScript script. Types are
//     stripped with esbuild (Transform, loader ts), and the result runs in
//     goja, a JavaScript engine written in Go. The script is the body of an
//     async function: it may await op calls and return a value.
//   - tool_code_help {"path": "onto.task"} returns the declarations of the
//     ops under a group, entity or op path (and the types they use), so the
//     boot cost stays at the two tool definitions; path "" lists the groups.
//     tool_code's description names the groups.
//
// Both take exactly that one member, named exactly and sent once: another
// member ("Script", "timeout") is refused by name instead of being ignored
// or read as the script, and so is the member sent twice (encoding/json
// would run the last, a log may show the first).
//
// The script's only capabilities are the op bindings (one global constant
// per group: await onto.task.list({limit: 5})) and console.log. There is no
// I/O, no timer, no module loading (import and require do not exist).
//
// Every op call goes through the gateway's tool_exec handler, exactly as a
// tool_exec call would: the op is resolved, write ops are refused unless
// writes are allowed (WithGateway(gateway.WithWrites(true))), dry_run and
// idempotency_key come from the call's second argument, the generated code
// decodes and validates the args before the handler runs, and a
// runtime.ToolInvoked event is published for the op's tool when the call's
// ToolContext has a bus. A successful call resolves to the op's result
// value; a failed one rejects with an Error carrying the envelope: code,
// message, op, field_errors, help_path and details.
//
// A call is checked before anything runs, and rejects when it fails the
// check: the options (second argument) must be undefined or a plain
// object (no Proxy, no prototype but Object.prototype or none) whose own
// members are dry_run and idempotency_key only, as enumerable data
// properties (a misspelt {dryRun: true}, ignored, would run a real write;
// the error names the member and the option it is close to; an inherited
// member, a getter or a Proxy could show the check one thing and the read
// another, so they are refused, and the options are read once, running
// no script code), there is no third argument, the args have a JSON form
// and hold no Proxy, and no string or member name of the args holds an
// unpaired surrogate ("a\ud800", which the engine would hand over as
// U+FFFD): that is a VALIDATION_ERROR with an "encoding" field error at
// its JSON pointer, worded as the generated decoders word invalid Unicode.
// The args are converted to JSON once, as JSON.stringify converts them
// (own enumerable members, getters read once, symbols and functions left
// out), and that text is what the op decodes, validates and runs. A rejection the
// script never handles (an op call it neither awaited nor caught) does
// not fail the run, but leaves a note naming the op and its error.
//
// The envelope's
// warnings (a dry run by default, a tool name used as an op path) and dry
// runs become notes of the outcome, since the script sees only results.
//
// An op's result is read as JSON.parse reads it: a number is a float64,
// exact up to ±2^53, so an integer beyond (an ID of 19 digits) reaches the
// script rounded (9007199254740993 as 9007199254740992). It stays a
// number, as the declarations type it; the outcome notes each op whose
// result held an integer the script reads or shows with other digits, so
// that the model does not take the script's for the op's.
//
// Limits (Limits; zero fields keep the defaults):
//
//	WallTime   5s       the whole run, interrupting the engine
//	OpCalls    32       op calls per run
//	Output     16 KiB   console output; the return value shown is cut too
//	Script     64 KiB   script source
//	CallDepth  256      JavaScript call depth
//	Memory     256 MiB  live-heap growth during the run (process-wide, as the
//	                    garbage collector last measured it, sampled every 5ms)
//	Length     1<<20    length of a string (in UTF-16 code units, as
//	                    String.prototype.length) or array one built-in call makes
//
// Built-ins that goja runs in Go, where the interrupt cannot reach, are
// guarded: repeat, padStart, padEnd, concat, replace, split (counting the
// pieces a string separator makes), normalize (counting what it makes
// when it could make more: NFKD makes 18 characters of U+FDFA),
// JSON.parse (its text) and the Array methods check Length first, flat
// counting the arrays it flattens and a join the arrays joined inside it
// (an array's iterator too, so that a spread of a sparse array with a
// length of 1e7 is refused; the iterators of arrays, strings, sets and
// maps also end the run once the wall-time limit has passed, where a
// spread into a call consumed them in Go for seconds, and so do the
// comparisons of a sort, and those of an indexOf, lastIndexOf or includes
// of a string whose length times the elements passes 2^28, which compared
// copies of a long string in Go for 35 s). A replace of a string pattern
// runs as the built-in when its worst case is within Length (each $` or
// $' of the replacement a copy of the whole string, one replacement for
// replace, one per occurrence for replaceAll); past it, and always for a
// function replacement or a regular expression (whose exec may be the
// script's, answering captures of any length), the replacement is made by
// a function that counts what the replace makes, as it makes it, and ends
// the run once that passes Length: a replace making little from a long
// string passes, one making much is stopped before the built-in joins it.
// replaceAll("") is made in Go (the engine's own looped without end on a
// string that is not ASCII, until the process ran out of memory).
// Object.entries, values, keys, getOwnPropertyNames,
// getOwnPropertyDescriptors, assign, freeze, seal, defineProperties and
// create, and Reflect.ownKeys, refuse more than Length/16 members, which
// they would turn into as many arrays, keys or properties in one call,
// counted as a for…in counts them: a string's characters, an array's
// elements (a sparse array's that it has), an object's enumerable
// properties. (The non-enumerable properties that getOwnPropertyNames
// and Reflect.ownKeys list too are not counted: a script makes them one
// per step, or Length/16 per defineProperties or create.)
//
// What the limits cannot reach: one step of the engine that allocates in
// Go, such as s += s, runs to its end, and a limit stops the script
// after it. The memory watch stops a run whose heap leapt past the limit
// in one step without waiting for a collection to measure it (see
// heapWatch), but it is itself stopped while a collection waits for such
// a copy to end: string doubling ends at the step past the limit, or a
// step or two later (on two loaded cores, for 256 MiB, a heap of 449 MiB in the
// median of 19 runs, 1.1 to 4.4 times the limit, 10 times once in s = s +
// s + s; 897 MiB, 2.6 to 6.1 times, when the live heap alone was read).
// So does the wall-time limit: one built-in call under Length takes up to
// about a second (concat of two arrays of 2^19 elements 0.4 to 0.8 s,
// slice of one of 2^20 0.45 s, Object.keys of an object of 2^20
// properties, past Length/16 and so refused now, 0.2 to 0.55 s).
// What a check measures is read once and handed to the built-in as read
// (a count, a separator, a replacement, an Array.from source), and the
// Array methods refuse an array-like whose length is a getter or comes
// through a Proxy: either could answer the check one length and the
// built-in another. JSON.stringify is replaced by a bounded encoder that
// refuses nesting deeper than 64, typed arrays, ArrayBuffer and BigInt
// are removed (a BigInt operator computes in Go in one step: 1n << (2n **
// 40n) asked for 128 GiB, a fatal out-of-memory error; a literal 1n is a
// call of BigInt after the transform, and fails as BigInt is not
// defined), and a backtracking regular-expression match gives up after
// RegexpMatchTimeout (the matches of one replace, match or split run
// through exec, which ends the run once the wall-time limit has passed).
//
// The TypeScript transform and the compiler run before the interrupt can
// stop anything, and some of their work grows faster than the source: a
// script whose brackets nest deeper than 100, or with an expression of more
// than 1,000 operators or commas in a row (binary operators, ! and ~,
// statements nested without braces; a chain of 30,000 additions took 7 s
// to compile, a sequence of 30,000 commas 11 s to transform), is refused
// before either runs (error.limit "script_size"). The code inside a
// template literal's ${…} counts like any other, and so do the operator
// characters of a regular expression; the commas of array and object
// literals do not.
//
// Exceeding a limit ends the run as a failed result naming the limit
// (error.code LIMIT_EXCEEDED, error.limit "wall_time", "op_calls", "output",
// "script_size", "call_depth", "memory"), with the console output logged so
// far. A script that throws ends as a failed result with the thrown value
// (and, for an op error, its envelope). The answer a model reads is compact
// JSON: {"ok":true,"result":<return value as JSON>,"console":"...",
// "op_calls":3}; text past the output limit is cut with a note. A return
// value past it is shown as a JSON string holding the start of its JSON
// text, up to the limit (a long string in it is cut inside, not dropped).
package codemode
