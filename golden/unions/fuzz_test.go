package unions_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/toolgen-go/toolgen/golden/unions"
)

// FuzzDecodeArgs feeds arbitrary arguments to the generated decoders: they
// never panic, and what they accept survives a JSON round trip unchanged.
func FuzzDecodeArgs(f *testing.F) {
	tools := []string{"send_content", "lookup"}
	for _, seed := range []string{`{"blocks":[{"type":"text","text":"hi"},{"type":"image","url":"https://x.y/z.png"}],"id":7,"value":"abc","range":[1,2],"meta":{"a":"b"},"headers":{"Content-Type":"json","X":"y"},"env":{"HOME":"/"},"strict":{"a":"x","b":1},"anything":[1,{"a":null}],"notEmpty":"x","cond":{"country":"US","postal":"12345"}}`, `{"email":"a@b.co"}`, `{"user_id":"123e4567-e89b-12d3-a456-426614174000"}`, `{"blocks":[]}`, `{"id":null}`, `{"blocks":[],"range":[]}`, `{"blocks":[],"range":[3]}`} {
		for i := range tools {
			f.Add(uint8(i), []byte(seed))
		}
	}
	f.Fuzz(func(t *testing.T, which uint8, args []byte) {
		tool := tools[int(which)%len(tools)]
		v, err := unions.DecodeArgs(tool, args)
		if err != nil {
			return
		}
		again, err := json.Marshal(v)
		if err != nil {
			t.Fatalf("%s: accepted %s but cannot marshal it back: %v", tool, args, err)
		}
		w, err := unions.DecodeArgs(tool, again)
		if err != nil {
			t.Fatalf("%s: accepted %s but rejects its own encoding %s: %v", tool, args, again, err)
		}
		if !reflect.DeepEqual(v, w) {
			t.Fatalf("%s: %s decodes to %#v, its encoding %s to %#v", tool, args, v, again, w)
		}
	})
}
