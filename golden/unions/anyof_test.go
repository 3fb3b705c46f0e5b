package unions_test

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/golden/unions"
)

// update_record's anyOf unions keep every branch the value matches: an
// object both object branches take sets both, and marshals back with the
// members of both; 1 is an integer and a number >= 0. A value one
// branch takes sets that one, and a value none takes is refused as
// before.
func TestAnyOfSetsEveryMatchingBranch(t *testing.T) {
	decode := func(args string) *unions.UpdateRecordParams {
		t.Helper()
		v, err := unions.DecodeArgs("update_record", []byte(args))
		if err != nil {
			t.Fatalf("%s: %v", args, err)
		}
		return v.(*unions.UpdateRecordParams)
	}
	marshals := func(p *unions.UpdateRecordParams, want string) {
		t.Helper()
		got, err := json.Marshal(p)
		if err != nil || string(got) != want {
			t.Errorf("marshal: got %s, %v; want %s", got, err, want)
		}
	}

	p := decode(`{"patch":{"a":"x","b":1}}`)
	if o1, o2 := p.Patch.UpdateRecordPatchOption1, p.Patch.UpdateRecordPatchOption2; o1 == nil || o2 == nil ||
		o1.A == nil || *o1.A != "x" || o2.B == nil || *o2.B != 1 {
		t.Errorf(`{"a":"x","b":1}: got branches %+v and %+v, want both set`, o1, o2)
	}
	marshals(p, `{"patch":{"a":"x","b":1}}`)

	p = decode(`{"amount":1}`)
	if i, n := p.Amount.Integer, p.Amount.Number; i == nil || n == nil || *i != 1 || *n != 1 {
		t.Errorf("1: got integer %v and number %v, want both 1", i, n)
	}
	marshals(p, `{"amount":1}`)

	// b is no integer: only branch 1; its encoding {"a":"x"} matches
	// both again (wiretest.RoundTrip's fixed point).
	p = decode(`{"patch":{"a":"x","b":"s"}}`)
	if o1, o2 := p.Patch.UpdateRecordPatchOption1, p.Patch.UpdateRecordPatchOption2; o1 == nil || o1.A == nil || *o1.A != "x" || o2 != nil {
		t.Errorf(`{"a":"x","b":"s"}: got branches %+v and %+v, want only the first`, o1, o2)
	}
	marshals(p, `{"patch":{"a":"x"}}`)
	p = decode(`{"amount":-1}`)
	if i, n := p.Amount.Integer, p.Amount.Number; i == nil || *i != -1 || n != nil {
		t.Errorf("-1: got integer %v and number %v, want only the integer", i, n)
	}
	p = decode(`{"amount":1.5}`)
	if i, n := p.Amount.Integer, p.Amount.Number; i != nil || n == nil || *n != 1.5 {
		t.Errorf("1.5: got integer %v and number %v, want only the number", i, n)
	}
	marshals(p, `{"amount":1.5}`)

	// Decoded again in place, a union keeps no branch of the value before.
	if err := json.Unmarshal([]byte(`{"patch":{"a":"x","b":1}}`), p); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(`{"patch":{"a":"y","b":"s"}}`), p); err != nil {
		t.Fatal(err)
	}
	if p.Patch.UpdateRecordPatchOption2 != nil {
		t.Errorf("decoded again in place: branch 2 %+v kept", p.Patch.UpdateRecordPatchOption2)
	}

	for args, want := range map[string]string{
		`{"patch":{"a":1,"b":"s"}}`: "invalid arguments for update_record: /patch: matches none of: object or object",
		`{"amount":-1.5}`:           "invalid arguments for update_record: /amount: matches none of: integer or number",
		`{"patch":"x"}`:             `invalid arguments for update_record: /patch: expected object, received string "x"`,
	} {
		if _, err := unions.DecodeArgs("update_record", []byte(args)); err == nil || err.Error() != want {
			t.Errorf("%s: got error %v, want %q", args, err, want)
		}
	}
}
