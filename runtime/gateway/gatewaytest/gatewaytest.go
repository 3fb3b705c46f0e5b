// Package gatewaytest has assertions for tests of gateway conversations:
// Decode reads an envelope from the text a model received (a tool message,
// an MCP text content, a rendered runtime.Result), ExpectOK checks a
// success of an op and the substrings its result must hold, and ExpectFail
// checks a failure's code and that its help_path points to the op's help,
// returning the error for further checks of its message and details.
//
//	e := gatewaytest.ExpectFail(t, msg.Content, "onto.task.create", runtime.CodeValidation)
//	if !slices.Equal(e.Details.Required, []string{"project_id", "title"}) { ... }
package gatewaytest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gateway"
)

// Decode decodes the envelope in text; it fails tb at once when text is
// not one.
func Decode(tb testing.TB, text string) gateway.Envelope {
	tb.Helper()
	var env gateway.Envelope
	if err := json.Unmarshal([]byte(text), &env); err != nil {
		tb.Fatalf("answer is not an envelope: %v\n%s", err, text)
	}
	return env
}

// ExpectOK fails tb unless text is an envelope of a success of op whose
// result holds every want, and returns the envelope.
func ExpectOK(tb testing.TB, text, op string, want ...string) gateway.Envelope {
	tb.Helper()
	env := Decode(tb, text)
	if !env.OK || env.Op != op || env.Error != nil {
		tb.Errorf("want ok envelope of %s, got ok=%v op=%s error=%+v", op, env.OK, env.Op, env.Error)
	}
	for _, w := range want {
		if !strings.Contains(string(env.Result), w) {
			tb.Errorf("%s result lacks %q: %s", op, w, env.Result)
		}
	}
	return env
}

// ExpectFail fails tb unless text is an envelope of a failure of op with
// code whose help_path is op, and returns its error. When text is not a
// failure of op it fails tb at once.
func ExpectFail(tb testing.TB, text, op string, code runtime.Code) *gateway.EnvelopeError {
	tb.Helper()
	env := Decode(tb, text)
	if env.OK || env.Op != op || env.Error == nil {
		tb.Fatalf("want failed envelope of %s, got ok=%v op=%s error=%+v", op, env.OK, env.Op, env.Error)
	}
	if env.Error.Code != code || env.Error.HelpPath != op {
		tb.Errorf("%s: code %s help_path %q, want %s and %q", op, env.Error.Code, env.Error.HelpPath, code, op)
	}
	return env.Error
}
