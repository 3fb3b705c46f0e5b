// Package golden holds toolgen's end-to-end cases. Each folder golden/<case>/
// holds the input tool definitions (*.json, optionally toolgen.yaml) and the
// package toolgen generates from them; the generated package compiles as
// part of the module, so `go vet ./...` and `go test ./...` build every
// golden. golden/errors/ holds inputs that must fail, each with the exact
// expected message. hostile_test.go is the hostile-string corpus: every
// attack (block comments, directives, NUL, U+FEFF, bidi, CR, backquotes, Go
// code) in every position of every input shape, generated into golden/_hostile,
// compiled, vetted and round-tripped.
//
//	go test ./golden            # fails with a diff when a golden is stale
//	go test ./golden -update    # rewrites the goldens
package golden
