package wiretest

import (
	"encoding/json"
	"fmt"
	"testing"
)

// recorder is a testing.TB that records a fatal failure instead of stopping.
type recorder struct {
	testing.TB
	failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
}

type pair struct{ A, B int }

func TestRoundTrip(t *testing.T) {
	good := func(tool string, args []byte) (any, error) {
		var p pair
		err := json.Unmarshal(args, &p)
		return p, err
	}
	// lossy drops B when writing back: what it accepts does not survive.
	lossy := func(tool string, args []byte) (any, error) {
		var p struct {
			A int
			B int `json:"-"`
		}
		if err := json.Unmarshal(args, &p); err != nil {
			return nil, err
		}
		var m map[string]int
		_ = json.Unmarshal(args, &m)
		p.B = m["B"]
		return p, nil
	}
	for _, c := range []struct {
		name   string
		decode DecodeFunc
		args   string
		fails  bool
	}{
		{"accepted and stable", good, `{"A":1,"B":2}`, false},
		{"rejected input passes", good, `not json`, false},
		{"lossy encoding fails", lossy, `{"A":1,"B":2}`, true},
	} {
		r := &recorder{TB: t}
		RoundTrip(r, c.decode, "tool", []byte(c.args))
		if (r.failed != "") != c.fails {
			t.Errorf("%s: failed=%q, want failure %v", c.name, r.failed, c.fails)
		}
	}
}
