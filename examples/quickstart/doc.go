// Package quickstart is toolgen's smallest complete example: five todo tools
// (tools.json), the package toolgen generates from them (*_gen.go), and
// hand-written handlers backed by an in-memory store (handlers.go).
//
// Regenerate after editing tools.json or toolgen.yaml:
//
//	go generate ./examples/quickstart
package quickstart

//go:generate go run ../../cmd/toolgen generate -c toolgen.yaml
