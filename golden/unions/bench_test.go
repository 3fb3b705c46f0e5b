package unions_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/unions"
)

// BenchmarkUnionTrials decodes update_record's anyOf unions matched by
// trial: a value both branches take, one only one takes, and one none
// takes (refused).
func BenchmarkUnionTrials(b *testing.B) {
	for _, bc := range []struct{ name, args string }{
		{"both", `{"patch":{"a":"x","b":1},"amount":1}`},
		{"one", `{"patch":{"a":"x","b":"y"},"amount":1.5}`},
		{"none", `{"patch":{"a":1,"b":"y"},"amount":-1.5}`},
	} {
		args := []byte(bc.args)
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_, _ = unions.DecodeArgs("update_record", args)
			}
		})
	}
}
