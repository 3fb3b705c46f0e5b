// Package conformance runs the official JSON Schema Test Suite through
// toolgen's generated validators: every case of a keyword file becomes a
// tool of one generated package, a generated driver decodes and validates
// every test datum with DecodeArgs, and the test reports the pass rate per
// keyword file. TestKeywordMatrix and TestRealWorldDifferential compare
// generated verdicts with the reference validator's: one keyword at a
// time, and on the real tool definitions of the shared corpus with
// arguments synthesised from each tool's schema. The suite and the
// definitions are read from ../shared/corpus; the tests skip when it is
// absent.
//
//	make conformance     # go test ./golden/conformance -run TestConformance -v -conformance.report
package conformance
