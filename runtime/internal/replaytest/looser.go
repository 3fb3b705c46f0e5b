package replaytest

import (
	"encoding/json"
	"testing"

	"github.com/toolgen-go/toolgen/runtime/check"
)

// AcceptsValid fails t for each of args (JSON texts) that is not valid for
// the schema orig, or is valid for it but not for sent, the schema an
// adapter sends in its place: what is sent may be looser, never stricter.
func AcceptsValid(t testing.TB, orig, sent string, args []string) {
	t.Helper()
	o, s := check.MustSchema(orig), check.MustSchema(sent)
	for _, a := range args {
		var v any
		_ = json.Unmarshal([]byte(a), &v)
		if errs := o.Validate(v, ""); errs != nil {
			t.Fatalf("%s is not valid for %s: %v", a, orig, errs)
		}
		if errs := s.Validate(v, ""); errs != nil {
			t.Errorf("%s is valid for %s but not for the schema sent %s: %v", a, orig, sent, errs)
		}
	}
}
