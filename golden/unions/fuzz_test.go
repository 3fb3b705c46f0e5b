package unions_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/golden/unions"
	"github.com/toolgen-go/toolgen/runtime/wire/wiretest"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	wiretest.Fuzz(f, unions.DecodeArgs, []string{"send_content", "lookup", "update_record"}, `{"blocks":[{"type":"text","text":"hi"},{"type":"image","url":"https://x.y/z.png"}],"id":7,"value":"abc","range":[1,2],"meta":{"a":"b"},"headers":{"Content-Type":"json","X":"y"},"env":{"HOME":"/"},"strict":{"a":"x","b":1},"anything":[1,{"a":null}],"notEmpty":"x","cond":{"country":"US","postal":"12345"}}`, `{"email":"a@b.co"}`, `{"user_id":"123e4567-e89b-12d3-a456-426614174000"}`, `{"blocks":[]}`, `{"id":null}`, `{"blocks":[],"range":[]}`, `{"blocks":[],"range":[3]}`, `{"patch":{"a":"x","b":1},"amount":1}`, `{"patch":{"a":"x","b":"s"},"amount":1.5}`)
}
