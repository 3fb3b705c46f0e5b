package wire

import (
	"bytes"
	"encoding/json"
	"math/bits"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// decodeStringsEnc reads an array of strings with String, then an object's
// keys with Key and its values with String, as generated decoders do.
// It also returns the paths of the "encoding" errors (invalid Unicode).
func decodeStringsEnc(data []byte) (items []string, keys []string, vals []string, errPaths, encPaths []string, err error) {
	d := NewDecoder(data)
	if d.Object() {
		for d.More() {
			switch string(d.Key()) {
			case "items":
				if d.Array() {
					for d.More() {
						items = append(items, d.String())
					}
				}
			case "object":
				if d.Object() {
					for d.More() {
						keys = append(keys, string(d.Key()))
						d.Fail("test", "", "", "")
						vals = append(vals, d.String())
					}
				}
			default:
				d.Skip()
			}
		}
	}
	err = d.Close()
	for _, e := range d.Errors() {
		switch e.Code {
		case "test":
			errPaths = append(errPaths, e.Path)
		case "encoding":
			encPaths = append(encPaths, e.Path)
		}
	}
	return items, keys, vals, errPaths, encPaths, err
}

// badUnicode reports whether a string body holds invalid UTF-8 or an
// unpaired surrogate escape (assuming its escapes are well-formed).
func badUnicode(body []byte) bool {
	if !utf8.Valid(body) {
		return true
	}
	s := string(body)
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			continue
		}
		if s[i+1] != 'u' || i+6 > len(s) {
			i++
			continue
		}
		r, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
		if err != nil {
			return false
		}
		if r >= 0xd800 && r < 0xdc00 && i+12 <= len(s) && s[i+6] == '\\' && s[i+7] == 'u' {
			if r2, err := strconv.ParseUint(s[i+8:i+12], 16, 32); err == nil && r2 >= 0xdc00 && r2 <= 0xdfff {
				i += 11
				continue
			}
		}
		if r >= 0xd800 && r <= 0xdfff {
			return true
		}
		i += 5
	}
	return false
}

// escapeToken escapes a JSON pointer reference token, cut to
// MaxTokenBytes as errors cut it.
func escapeToken(s string) string {
	cut := ""
	if len(s) > MaxTokenBytes {
		n := MaxTokenBytes - len("…")
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		s, cut = s[:n], "…"
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1") + cut
}

// checkStrings decodes a document built around the string bodies with
// both decoders and compares; it also checks that the strings do not
// alias the input.
func checkStrings(t *testing.T, bodies ...[]byte) {
	t.Helper()
	var doc bytes.Buffer
	doc.WriteString(`{"items":[`)
	for i, b := range bodies {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteByte('"')
		doc.Write(b)
		doc.WriteByte('"')
	}
	doc.WriteString(`],"object":{`)
	for i, b := range bodies {
		if i > 0 {
			doc.WriteByte(',')
		}
		doc.WriteByte('"')
		doc.Write(b)
		doc.WriteString(`":"`)
		doc.Write(b)
		doc.WriteByte('"')
	}
	doc.WriteString("}}")
	data := doc.Bytes()

	var want struct {
		Items  []string
		Object json.RawMessage
	}
	jerr := json.Unmarshal(data, &want)
	var wantKeys []string
	if jerr == nil {
		// Keys in document order (and duplicates), which a map loses.
		jd := json.NewDecoder(bytes.NewReader(want.Object))
		_, _ = jd.Token()
		for jd.More() {
			k, _ := jd.Token()
			_, _ = jd.Token()
			wantKeys = append(wantKeys, k.(string))
		}
	}
	items, keys, vals, paths, enc, err := decodeStringsEnc(data)
	if (err == nil) != (jerr == nil) {
		t.Fatalf("%q: wire err %v, encoding/json err %v", data, err, jerr)
	}
	if err != nil {
		return
	}
	if strings.Join(items, "\x00|") != strings.Join(want.Items, "\x00|") {
		t.Fatalf("%q: items %q, want %q", data, items, want.Items)
	}
	if strings.Join(keys, "\x00|") != strings.Join(wantKeys, "\x00|") ||
		strings.Join(vals, "\x00|") != strings.Join(wantKeys, "\x00|") {
		t.Fatalf("%q: keys %q values %q, want %q", data, keys, vals, wantKeys)
	}
	// Beyond MaxErrors errors are only counted.
	capped := len(paths)+len(enc) >= MaxErrors
	if !capped && len(paths) != len(wantKeys) {
		t.Fatalf("%q: %d error paths, want %d", data, len(paths), len(wantKeys))
	}
	for i, k := range wantKeys[:min(len(wantKeys), len(paths))] {
		if want := "/object/" + escapeToken(k); paths[i] != want {
			t.Fatalf("%q: error path %q, want %q", data, paths[i], want)
		}
	}
	// Invalid Unicode is decoded as encoding/json does but reported: an
	// item, a key and its value each once.
	var wantEnc []string
	for i, b := range bodies {
		if badUnicode(b) {
			wantEnc = append(wantEnc, "/items/"+strconv.Itoa(i))
		}
	}
	for i, b := range bodies {
		if badUnicode(b) {
			p := "/object/" + escapeToken(wantKeys[i])
			wantEnc = append(wantEnc, p, p)
		}
	}
	if !capped && strings.Join(enc, "|") != strings.Join(wantEnc, "|") {
		t.Fatalf("%q: encoding errors at %q, want %q", data, enc, wantEnc)
	}
	snapshot := strings.Join(items, "\x00|") + strings.Join(vals, "\x00|")
	for i := range data {
		data[i] = 'X'
	}
	if got := strings.Join(items, "\x00|") + strings.Join(vals, "\x00|"); got != snapshot {
		t.Fatalf("strings alias the input: %q, want %q", got, snapshot)
	}
}

func TestStrings(t *testing.T) {
	long := strings.Repeat("abcdefgh", 100)
	for _, bodies := range [][]string{
		{""},
		{"a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmnopq"},
		{`a\"b`, `\\`, `\/`, `\b\f\n\r\t`, `\u0041\u00e9\u20ac`, `\ud83d\ude00`, `\ud800`, `\ud800\u0041`, `\udc00x`},
		{"é", "日本語のテキスト", "emoji 😀 here", "abcdefgh\u00e9abcdefgh", "abcdefghijklmnop\u00e9"},
		{"a\xffb", "\xff", "abcdefgh\xff", "abcdefghijklmnop\xc3", "\xed\xa0\x80", "é\\n\xff"},
		{"x~y/z", "~", "/", "~0~1"},
		{long, long + `\n`, "é" + long},
		{strings.Repeat(`s\n`, 200), strings.Repeat("t", 300), strings.Repeat("u", 600), strings.Repeat("v", 100)},
	} {
		var bs [][]byte
		for _, b := range bodies {
			bs = append(bs, []byte(b))
		}
		checkStrings(t, bs...)
	}
	// Many strings: the arena fills up and a new one starts.
	var many [][]byte
	for i := range 300 {
		many = append(many, []byte(strings.Repeat(string(rune('a'+i%26)), i%40)+`\t`+strings.Repeat("z", i%13)))
	}
	checkStrings(t, many...)
}

func TestStringSyntaxErrors(t *testing.T) {
	for _, body := range []string{"a\tb", "abcdefgh\x01", `\q`, `\u12`, `\u12g4`, "abcdefgh\\", "é\x1f"} {
		checkStrings(t, []byte(body))
	}
	for _, in := range []string{`"abc`, `"abcdefghijklmnop`, `"é`, `"\`, `"abcdefgh\u00`} {
		d := NewDecoder([]byte(in))
		_ = d.String()
		if d.Close() == nil {
			t.Errorf("%q: no syntax error", in)
		}
	}
}

// TestSpecial checks the word-at-a-time test against the byte-wise one for
// every byte value at every position, and that the lowest flagged byte is
// the first special one.
func TestSpecial(t *testing.T) {
	special := func(x uint64) bool { return specialMask(x) != 0 }
	isSpecial := func(c byte) bool { return c == '"' || c == '\\' || c < 0x20 }
	for pos := range 8 {
		for c := range 256 {
			for _, fill := range []byte{'a', 0x80, 0xff, ' ', '!'} {
				w := bytes.Repeat([]byte{fill}, 8)
				w[pos] = byte(c)
				x := uint64(0)
				for i := 7; i >= 0; i-- {
					x = x<<8 | uint64(w[i])
				}
				if got, want := special(x), isSpecial(byte(c)) || isSpecial(fill); got != want {
					t.Fatalf("special(% x) = %v, want %v", w, got, want)
				}
			}
		}
	}
	// Pairs of bytes from a set that provokes borrows, at every pair of
	// positions over ordinary and special fillers.
	set := []byte{0, 1, 0x1f, 0x20, 0x21, '"', '#', '\\', ']', 0x7f, 0x80, 0xa2, 0xdc, 0xff, 'a'}
	for _, fill := range []byte{'a', 0x20, 0x21, 0x23, 0x5d, 0xff} {
		for i := range 8 {
			for j := range 8 {
				for _, ci := range set {
					for _, cj := range set {
						w := bytes.Repeat([]byte{fill}, 8)
						w[i], w[j] = ci, cj
						x := uint64(0)
						for k := 7; k >= 0; k-- {
							x = x<<8 | uint64(w[k])
						}
						first := 8
						for k := range 8 {
							if isSpecial(w[k]) {
								first = k
								break
							}
						}
						m := specialMask(x)
						got := 8
						if m != 0 {
							got = bits.TrailingZeros64(m) / 8
						}
						if got != first {
							t.Fatalf("first special byte of % x: got %d, want %d", w, got, first)
						}
					}
				}
			}
		}
	}
}

// FuzzString compares String and Key with encoding/json on string bodies,
// and checks that the decoded strings do not alias the input.
func FuzzString(f *testing.F) {
	for _, s := range []string{"", "abc", `a\"b`, `\u00e9\ud83d\ude00`, "é日本", "a\xffb", `\ud800`, "abcdefgh\\nabcdefgh", "x~y/z", "a\tb"} {
		f.Add([]byte(s), []byte("abcdefghij"))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		checkStrings(t, a, b)
	})
}
