package refs_test

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/golden/refs"
	"github.com/toolgen-go/toolgen/runtime"
)

// TestIgnoredUnderReferences: members of objects reached through local
// references (recursive ones, and an optional one, anyOf [$ref, null])
// that the generated decoder drops are named; the decoded value holds
// none of them, so the warning is true. The object a reference to another
// file (shared.json) describes is named too: the served schema holds a
// copy of it.
func TestIgnoredUnderReferences(t *testing.T) {
	tool := refs.Tools(refs.UnimplementedHandlers{})[0]
	ia := runtime.NewIgnoredArgs(tool)
	tests := []struct {
		args string
		want []string
	}{
		{`{"root":{"name":"a","children":[{"name":"b","parent":{"name":"c","nmae":"d"}}]}}`,
			[]string{`"nmae" at /root/children/0/parent is not a member save_tree takes there and was ignored (did you mean "name"?)`}},
		{`{"root":{"name":"a","chldren":[]},"doc":{"title":"t","paragraphs":[{"text":"p","subsection":[]}]}}`,
			[]string{`"chldren" at /root is not a member save_tree takes there and was ignored (did you mean "children"?)`,
				`"subsection" at /doc/paragraphs/0 is not a member save_tree takes there and was ignored (did you mean "subsections"?)`}},
		{`{"root":{"name":"a","parent":null},"owner":{"name":"n","nickname":"x"}}`,
			[]string{`"nickname" at /owner is not a member save_tree takes there and was ignored`}},
	}
	for _, tt := range tests {
		v, err := tool.Decode(json.RawMessage(tt.args))
		if err != nil {
			t.Fatalf("Decode(%s): %v", tt.args, err)
		}
		got := ia.Warnings("save_tree", json.RawMessage(tt.args), nil)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Warnings(%s) =\n%q\nwant\n%q", tt.args, got, tt.want)
		}
		out, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"nmae", "chldren\"", "subsection\"", "nickname"} {
			if strings.Contains(string(out), `"`+name) {
				t.Errorf("decoded %s still holds %s: %s", tt.args, name, out)
			}
		}
	}
}
