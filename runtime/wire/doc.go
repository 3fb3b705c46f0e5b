// Package wire is the JSON argument decoder that toolgen-generated decoders
// drive, and the error bookkeeping generated validators share with it.
//
// Data flow: a model's raw tool arguments reach a generated package's
// DecodeArgs or tool handler; the generated decodeWire method of the params
// type walks the bytes once through a Decoder — peeking kinds, reading
// scalars, iterating object members and array items — without reflection.
// The Decoder tracks the JSON pointer of the value being read as a stack of
// key offsets into the input and materialises it only when it records a
// FieldError, so valid input costs no path allocations. A Decoder is
// created on its caller's stack (NewArgsDecoder and NewDecoder inline) and
// copies the strings it returns into one arena per decode, so decoding
// allocates only the decoded values themselves. Type mismatches,
// unknown properties, missing required properties and out-of-range integers
// are recorded and decoding continues, so a model sees every problem at
// once; a syntax error stops decoding with a located message.
//
// After decoding, the generated Validate methods check constraints, passing
// a stack-allocated Path chain down and recording into Errors; Report merges
// the decoder's and the validator's findings into one
// *runtime.ValidationError.
package wire
