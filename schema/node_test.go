package schema

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendJSONString holds appendJSONString to encoding/json's encoding,
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
		if got := appendJSONString(nil, s, false); !bytes.Equal(got, want) {
			t.Errorf("appendJSONString(%q, false) = %s, want %s", s, got, want)
		}
		wantHTML, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := appendJSONString(nil, s, true); !bytes.Equal(got, wantHTML) {
			t.Errorf("appendJSONString(%q, true) = %s, want %s", s, got, wantHTML)
		}
	}
}

// TestCanonicalJSON holds canonicalJSON to what it hashed before it read
// Nodes: encoding/json's Marshal of the value decoded with UseNumber.
func TestCanonicalJSON(t *testing.T) {
	for _, raw := range []string{
		`{"type":"object","properties":{"b":{"type":"integer","maximum":1e3},"a":{"enum":["<x>","&",null,true,-0.50]}},"required":["b"]}`,
		`{"z":{"y":{"x":[1,{"d":"\u2028","c":"tab\t"}]}},"é":"日本","A":"\u00e9\\"}`,
		`[]`, `"s"`, `12.50e+3`, `null`, `false`, ``, `{bad`, `{"a":1}{"b":2}`,
	} {
		want := json.RawMessage("null")
		dec := json.NewDecoder(bytes.NewReader([]byte(raw)))
		dec.UseNumber()
		var v any
		if raw != "" && dec.Decode(&v) == nil && !dec.More() {
			if b, err := json.Marshal(v); err == nil {
				want = b
			}
		}
		if got := canonicalJSON(json.RawMessage(raw)); !bytes.Equal(got, want) {
			t.Errorf("canonicalJSON(%s)\n got %s\nwant %s", raw, got, want)
		}
	}
}
