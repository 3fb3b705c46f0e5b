package enums_test

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/enums"
)

// TestEnumNull: an enum that lists null accepts it, whatever kinds its
// other values are and whether the property is required (choice) or not
// (color), and a value outside it is told every value allowed, null
// among them.
func TestEnumNull(t *testing.T) {
	for _, c := range []struct {
		args string
		want string // "" when accepted, else the message's text
	}{
		{`{"mode":"fast","color":null,"choice":null}`, ""},
		{`{"mode":"fast","color":"red","choice":0}`, ""},
		{`{"mode":"fast","choice":"auto"}`, ""},
		{`{"mode":"fast","choice":0,"mixed":null}`, `/mixed: must be one of "auto", 0, true`},
		{`{"mode":"fast","choice":"manual"}`, `/choice: must be one of "auto", 0, null`},
		{`{"mode":"fast","choice":0,"color":"blue"}`, `/color: must be one of "red", "green", null`},
		{`{"mode":"fast"}`, `/choice`},
	} {
		_, err := enums.DecodeArgs("set_levels", []byte(c.args))
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v, want it accepted", c.args, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: %v, want %q", c.args, err, c.want)
		}
	}
}
