package wire_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/github"
)

// listIssuesValid and listIssuesInvalid are the arguments golden/bench/small
// measures: GitHub's list_issues with every property set.
var (
	listIssuesValid = []byte(`{"owner":"golang","repo":"go","state":"open","labels":["NeedsFix","help wanted"],` +
		`"sort":"updated","direction":"desc","since":"2024-05-01T08:30:00Z","page":2,"perPage":50}`)
	listIssuesInvalid = []byte(`{"owner":"golang","repo":"go","state":"opened","labels":["NeedsFix"],` +
		`"sort":"updated","direction":"down","since":"2024-05-01T08:30:00Z","page":0,"perPage":500}`)
)

// BenchmarkListIssues measures a generated DecodeArgs (decode and validate
// from the bytes) on list_issues arguments.
func BenchmarkListIssues(b *testing.B) {
	for _, bc := range []struct {
		name  string
		data  []byte
		valid bool
	}{{"valid", listIssuesValid, true}, {"invalid", listIssuesInvalid, false}} {
		b.Run(bc.name, func(b *testing.B) {
			if _, err := github.DecodeArgs("list_issues", bc.data); (err == nil) != bc.valid {
				b.Fatalf("DecodeArgs: %v, want valid=%v", err, bc.valid)
			}
			b.ReportAllocs()
			for b.Loop() {
				_, _ = github.DecodeArgs("list_issues", bc.data)
			}
		})
	}
}
