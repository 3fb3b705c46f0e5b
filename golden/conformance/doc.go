// Package conformance runs the official JSON Schema Test Suite through
// toolgen's generated validators: every case of a keyword file becomes a
// tool of one generated package, a generated driver decodes and validates
// every test datum with DecodeArgs, and the test reports the pass rate per
// keyword file. The suite is read from ../shared/corpus; the test skips
// when it is absent.
//
//	make conformance     # go test ./golden/conformance -run TestConformance -v -conformance.report
package conformance
