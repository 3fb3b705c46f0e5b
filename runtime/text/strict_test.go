package text

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/runtime/text/texttest"
)

// strictCases are texts encoding/json decodes with a loss, and texts it
// decodes without one, with where StrictProblem places the first loss
// ("" for none) as path:code.
var strictCases = []struct {
	name, in, want string
}{
	{"empty object", `{}`, ""},
	{"scalars", `[1,true,null,"x",-2.5e3]`, ""},
	{"top-level member twice", `{"query":"delete a todo","query":"list"}`, "/query:duplicate"},
	{"twice, blanks around", " { \"a\" : 1 ,\n\t\"a\" : 2 } ", "/a:duplicate"},
	{"twice, same value", `{"a":1,"a":1}`, "/a:duplicate"},
	{"twice, escaped once", `{"a":1,"\u0061":2}`, "/a:duplicate"},
	{"names differ in case", `{"a":1,"A":2}`, ""},
	{"nested object", `{"x":{"a":[{"b":1,"b":2}]}}`, "/x/a/0/b:duplicate"},
	{"sibling objects share names", `[{"a":1},{"a":2}]`, ""},
	{"inner name equals outer", `{"a":{"a":{"a":1}}}`, ""},
	{"array index", `{"k":[1,2,{"c":1,"c":2}]}`, "/k/2/c:duplicate"},
	{"pointer escapes", `{"a/b":{"~":1,"~":2}}`, "/a~1b/~0:duplicate"},
	{"first in text order", `{"a":[{"b":1,"b":2}],"a":3}`, "/a/0/b:duplicate"},
	{"twice in a large object", `{` + members(40) + `,"m7":0}`, "/m7:duplicate"},
	{"large object, no repeat", `{` + members(40) + `}`, ""},
	{"invalid UTF-8 value", "{\"query\":\"xyz\xff\xfe\"}", "/query:encoding"},
	{"invalid UTF-8 root string", "\"\xc3\"", ":encoding"},
	{"truncated sequence", "[\"ok\",\"\xe2\x80\"]", "/1:encoding"},
	{"invalid UTF-8 key", "{\"a\xff\":1}", "/a\uFFFD:encoding"},
	{"invalid keys are not compared", "{\"\xff\":1,\"\xfe\":2}", "/\uFFFD:encoding"},
	{"lone high surrogate", `{"query":"\ud800 delete"}`, "/query:encoding"},
	{"lone low surrogate", `{"q":"\uDC00"}`, "/q:encoding"},
	{"high then not low", `{"q":"\ud83d\u0041"}`, "/q:encoding"},
	{"low then high", `{"q":"\ude42\ud83d"}`, "/q:encoding"},
	{"high at the end", `{"q":"x\ud83d"}`, "/q:encoding"},
	{"surrogate key", `{"\ud800":1}`, "/\uFFFD:encoding"},
	{"deep value", `{"a":[[{"b":"\udfff"}]]}`, "/a/0/0/b:encoding"},
	{"surrogate pair", `{"q":"\ud83d\ude42 ok"}`, ""},
	{"U+FFFD sent", "{\"q\":\"\uFFFD \\ufffd\"}", ""},
	{"other escapes", `{"q":"\"\\\/\b\f\n\r\t\u00e9"}`, ""},
	{"encoding before a later repeat", "{\"a\":\"\xff\",\"a\":1}", "/a:encoding"},
	{"repeat before a later encoding", "{\"a\":1,\"a\":\"\xff\"}", "/a:duplicate"},
}

func members(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"m` + strconv.Itoa(i) + `":` + strconv.Itoa(i))
	}
	return b.String()
}

func TestStrictProblem(t *testing.T) {
	for _, c := range strictCases {
		t.Run(c.name, func(t *testing.T) {
			if !json.Valid([]byte(c.in)) {
				t.Fatalf("case %q is not JSON", c.in)
			}
			p, ok := StrictProblem([]byte(c.in))
			got := ""
			if ok {
				got = p.Path + ":" + p.Code
			}
			if got != c.want {
				t.Fatalf("StrictProblem(%q) = %q (%+v), want %q", c.in, got, p, c.want)
			}
			// The oracle agrees that there is a loss, or that there is none.
			if loss := texttest.Loss([]byte(c.in)); (loss != "") != ok {
				t.Errorf("texttest.Loss(%q) = %q, StrictProblem found %v", c.in, loss, ok)
			}
			switch p.Code {
			case CodeDuplicate:
				if p.Message != DuplicateMessage || p.Member == "" {
					t.Errorf("duplicate: %+v", p)
				}
			case CodeEncoding:
				if !strings.HasPrefix(p.Message, "a string is not valid Unicode (byte ") || p.Member != "" {
					t.Errorf("encoding: %+v", p)
				}
			}
		})
	}
}

// TestStrictProblemNotJSON: on text that is not one JSON value it finds
// no loss it cannot place, and never reads past the end.
func TestStrictProblemNotJSON(t *testing.T) {
	for in, want := range map[string]string{
		``: "", `{`: "", `{"a"`: "", `{"a":1,`: "", `{"a":1,"a"`: "/a:duplicate", `["\ud800`: "",
		`{"a":1 "a":2}`: "", `{1:2}`: "", `[1,]`: "", `{"a":1}{"a":1}`: "", "[\"\xff\"": "/0:encoding",
		"[\"\xff\",": "/0:encoding",
	} {
		p, ok := StrictProblem([]byte(in))
		got := ""
		if ok {
			got = p.Path + ":" + p.Code
		}
		if got != want {
			t.Errorf("StrictProblem(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestStrictProblemBounded: the pointer stays bounded however deep and
// long the names are.
func TestStrictProblemBounded(t *testing.T) {
	long := strings.Repeat("k", 10000)
	in := strings.Repeat(`{"`+long+`":`, 1000) + `"\ud800"` + strings.Repeat("}", 1000)
	p, ok := StrictProblem([]byte(in))
	if !ok || p.Code != CodeEncoding || utf8.RuneCountInString(p.Path) > maxProblemPath || !strings.HasPrefix(p.Path, "/kkk") {
		t.Fatalf("deep: %v %.100q (%d code points)", ok, p.Path, utf8.RuneCountInString(p.Path))
	}
	p, ok = StrictProblem([]byte(`{"` + long + `":1,"` + long + `":2}`))
	if !ok || p.Code != CodeDuplicate || utf8.RuneCountInString(p.Member) > ReceivedLimit || utf8.RuneCountInString(p.Path) > ReceivedLimit+1 {
		t.Fatalf("long name: %v %+v", ok, p)
	}
}

func TestScanString(t *testing.T) {
	for _, c := range []struct {
		in       string
		end, bad int
		ok       bool
	}{
		{`"abc"`, 5, -1, true},
		{`"a\"b"x`, 6, -1, true},
		{`"\ud83d\ude42"`, 14, -1, true},
		{`"é"`, 4, -1, true},
		{`"ab\ud800"`, 10, 3, true},
		{`"\udc00\udc00"`, 14, 1, true},
		{"\"a\xffb\xfe\"", 6, 2, true},
		{`"abc`, 0, -1, false},
		{`"\u12"`, 0, -1, false},
		{`"a\`, 0, -1, false},
	} {
		end, bad, ok := ScanString([]byte(c.in), 0)
		if end != c.end || bad != c.bad || ok != c.ok {
			t.Errorf("ScanString(%q) = %d, %d, %v; want %d, %d, %v", c.in, end, bad, ok, c.end, c.bad, c.ok)
		}
	}
}

// FuzzStrictProblem holds StrictProblem to texttest.Loss, encoding/json's
// view: what it accepts encoding/json decodes without a loss, and what it
// refuses encoding/json decodes with one.
func FuzzStrictProblem(f *testing.F) {
	for _, c := range strictCases {
		f.Add([]byte(c.in))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		p, ok := StrictProblem(b)
		if ok && (p.Path != "" && p.Path[0] != '/' || utf8.RuneCountInString(p.Path) > maxProblemPath) {
			t.Fatalf("StrictProblem(%q): path %q", b, p.Path)
		}
		if !json.Valid(b) {
			return
		}
		loss := texttest.Loss(b)
		// The oracle cannot tell a U+FFFD the text sends from one decoded
		// in place of a lone surrogate escape.
		sendsFFFD := strings.Contains(strings.ToLower(string(b)), `\ufffd`) || strings.ContainsRune(string(b), utf8.RuneError)
		switch {
		case !ok && loss != "":
			t.Fatalf("StrictProblem(%q) found nothing; encoding/json decodes it with a loss: %s", b, loss)
		case ok && loss == "" && !(p.Code == CodeEncoding && sendsFFFD):
			t.Fatalf("StrictProblem(%q) = %+v; encoding/json decodes it without a loss", b, p)
		}
	})
}
