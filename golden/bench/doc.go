// Package bench holds the comparative validator benchmarks: generated
// packages (small, nested, large) built from their tools.json by the real
// pipeline, each with a hand-written bench_test.go that measures the
// generated decoder and Validate against gojsonschema, santhosh-tekuri
// jsonschema/v6 and google/jsonschema-go on the same schema and arguments.
//
// The packages are golden cases: go test ./golden fails when one is stale
// and go test ./golden -run TestGolden -update rewrites them; make bench
// prints the table with ratios.
package bench
