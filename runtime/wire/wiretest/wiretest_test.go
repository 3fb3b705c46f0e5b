package wiretest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/wire"
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
		// Only {"a":string} matches, its encoding {"a":"x"} both
		// branches; that decodes to more, and encodes the same.
		{"anyOf matching more branches again", decodeAnyOf, `{"a":"x","b":"s"}`, false},
		{"anyOf stable", decodeAnyOf, `{"a":"x","b":1}`, false},
		// The second decode keeps the first's values but sets one that
		// its encoding shows: the encoding is no fixed point.
		{"encoding no fixed point fails", spaced, `{"a": "x"}`, true},
	} {
		r := &recorder{TB: t}
		RoundTrip(r, c.decode, "tool", []byte(c.args))
		if (r.failed != "") != c.fails {
			t.Errorf("%s: failed=%q, want failure %v", c.name, r.failed, c.fails)
		}
	}
}

// anyOfAB is an anyOf union of {"a":string} and {"b":integer} as toolgen
// generates it: every branch the value matches is set.
type anyOfAB struct {
	A *struct {
		A *string `json:"a,omitempty"`
	}
	B *struct {
		B *int `json:"b,omitempty"`
	}
}

func (x anyOfAB) MarshalJSON() ([]byte, error) {
	var vs [2]any
	if x.A != nil {
		vs[0] = x.A
	}
	if x.B != nil {
		vs[1] = x.B
	}
	return wire.MarshalAnyOf(json.Marshal, vs[:])
}

func decodeAnyOf(tool string, args []byte) (any, error) {
	var x anyOfAB
	if json.Unmarshal(args, &x.A) != nil {
		x.A = nil
	}
	if json.Unmarshal(args, &x.B) != nil {
		x.B = nil
	}
	if x.A == nil && x.B == nil {
		return nil, errors.New("matches none of the branches")
	}
	return x, nil
}

// spaced decodes {"a":…} and sets B when the arguments have no blank.
func spaced(tool string, args []byte) (any, error) {
	var p struct {
		A *string `json:"a,omitempty"`
		B *string `json:"b,omitempty"`
	}
	if err := json.Unmarshal(args, &p); err != nil {
		return nil, err
	}
	if !strings.Contains(string(args), " ") {
		b := "compact"
		p.B = &b
	}
	return p, nil
}

// validated fails its own Validate.
type validated struct{ A int }

func (v *validated) Validate() error {
	if v.A < 0 {
		return errors.New("A must not be negative")
	}
	return nil
}

func TestRoundTripProperties(t *testing.T) {
	lenient := func(tool string, args []byte) (any, error) {
		var p validated
		err := json.Unmarshal(args, &p)
		return &p, err
	}
	chatty := func(tool string, args []byte) (any, error) {
		return nil, errors.New(strings.Repeat("x", MaxErrorBytes+1))
	}
	many := func(tool string, args []byte) (any, error) {
		return nil, &runtime.ValidationError{Fields: make([]runtime.FieldError, wire.MaxErrors+1)}
	}
	replacing := func(tool string, args []byte) (any, error) {
		var p struct{ S string }
		err := json.Unmarshal(args, &p)
		return p, err
	}
	for _, c := range []struct {
		name   string
		decode DecodeFunc
		args   string
	}{
		{"accepted but invalid", lenient, `{"A":-1}`},
		{"error too long", chatty, `{}`},
		{"too many field errors", many, `{}`},
		{"invalid UTF-8 accepted", replacing, "{\"S\":\"\xff\"}"},
	} {
		r := &recorder{TB: t}
		RoundTrip(r, c.decode, "tool", []byte(c.args))
		if r.failed == "" {
			t.Errorf("%s: RoundTrip passed", c.name)
		}
	}
	if len(Hostile()) == 0 {
		t.Error("no hostile seeds")
	}
}
