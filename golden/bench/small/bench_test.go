package small

import (
	_ "embed"
	"testing"

	"github.com/toolgen-go/toolgen/golden/bench/internal/rival"
)

//go:embed tools.json
var toolsJSON []byte

// benchCase is GitHub's list_issues: nine flat properties, three enums, a
// date-time, bounded numbers.
var benchCase = &rival.Case{
	Tool:       "list_issues",
	Tools:      toolsJSON,
	DecodeArgs: DecodeArgs,
	Params:     func() rival.Validator { return new(ListIssuesParams) },
	Valid: []byte(`{"owner":"golang","repo":"go","state":"open","labels":["NeedsFix","help wanted"],` +
		`"sort":"updated","direction":"desc","since":"2024-05-01T08:30:00Z","page":2,"perPage":50}`),
	Invalid: []byte(`{"owner":"golang","repo":"go","state":"opened","labels":["NeedsFix"],` +
		`"sort":"updated","direction":"down","since":"2024-05-01T08:30:00Z","page":0,"perPage":500}`),
}

func TestAgree(t *testing.T) { benchCase.Agree(t) }

func TestValidateAllocs(t *testing.T) { benchCase.ZeroAllocs(t) }

func BenchmarkDecodeValid(b *testing.B)     { benchCase.BenchDecode(b, true) }
func BenchmarkDecodeInvalid(b *testing.B)   { benchCase.BenchDecode(b, false) }
func BenchmarkValidateValid(b *testing.B)   { benchCase.BenchValidate(b, true) }
func BenchmarkValidateInvalid(b *testing.B) { benchCase.BenchValidate(b, false) }
