package text

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendJSONString holds AppendJSONString to encoding/json's encoding,
// with and without HTML escaping: registry versions hash it.
func TestAppendJSONString(t *testing.T) {
	cases := []string{"", "plain", `quote " and \ backslash`, "<a href='x'>&amp;</a>",
		"tab\tnl\nret\rbs\bff\f", "\x00\x01\x1f\x7f", "é ü 日本 🙂", "\u2028\u2029", "bad \xff\xfe utf8", "\xe2\x80"}
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{'a', byte(c), 'z'}))
	}
	for _, s := range cases {
		var plain bytes.Buffer
		enc := json.NewEncoder(&plain)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		want := bytes.TrimSuffix(plain.Bytes(), []byte("\n"))
		if got := AppendJSONString(nil, s, false); !bytes.Equal(got, want) {
			t.Errorf("AppendJSONString(%q, false) = %s, want %s", s, got, want)
		}
		wantHTML, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := AppendJSONString(nil, s, true); !bytes.Equal(got, wantHTML) {
			t.Errorf("AppendJSONString(%q, true) = %s, want %s", s, got, wantHTML)
		}
	}
}
