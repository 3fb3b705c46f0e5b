// Package text holds the small text helpers every runtime package uses when
// it writes a message for a model, so that all surfaces suggest, cut and
// point alike: Closest, Distance and DistanceAtMost (typo suggestions and
// rankings), Truncate and Received (received values in errors),
// FirstSentence (one-line summaries), PointerToken (JSON pointer paths),
// AppendJSONString and Hex4 (JSON strings written and read without
// encoding/json), ValidJSON and AppendCompactJSON (encoding/json's answers
// for a raw value in one pass: every tool's schema is checked when a
// server starts, and the flat tool list is written compacted), and
// SkipBlanks, SkipString and SkipValue (stepping over JSON text).
//
// It imports the standard library only, so a package that needs a
// suggestion or a cut string does not link the validators of runtime/check
// (two regular expression engines, x/text and an embedded JSON Schema
// validator). schema imports it too: the generator and the runtime share
// one copy of nearest-name matching.
package text
