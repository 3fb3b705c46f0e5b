// Package text holds the small text helpers every runtime package uses when
// it writes a message for a model, so that all surfaces suggest, cut and
// point alike: Closest, Distance and DistanceAtMost (typo suggestions and
// rankings), Truncate and Received (received values in errors),
// FirstSentence (one-line summaries), PointerToken (JSON pointer paths),
// AppendJSONString and Hex4 (JSON strings written and read without
// encoding/json), ValidJSON and AppendCompactJSON (encoding/json's answers
// for a raw value in one pass: every tool's schema is checked when a
// server starts, and the flat tool list is written compacted),
// SkipBlanks, SkipString, SkipValue, Members and Items (stepping over JSON
// text), and StrictProblem and ScanString with the field error codes and
// messages CodeDuplicate, CodeEncoding, DuplicateMessage and
// EncodingMessage (refusing, as the gateway does, a member sent twice and
// a string that is not valid Unicode, which encoding/json would decode
// with a loss).
//
// It imports the standard library only, so a package that needs a
// suggestion or a cut string does not link the validators of runtime/check
// (two regular expression engines, x/text and an embedded JSON Schema
// validator). schema imports it too: the generator and the runtime share
// one copy of nearest-name matching.
package text
