package o200k

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
	"github.com/tiktoken-go/tokenizer"

	"github.com/toolgen-go/toolgen/golden/corpus"
)

// expression is o200k_base's pre-tokenizer as tiktoken-go compiles it.
const expression = `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`

var pre = regexp2.MustCompile(expression, regexp2.None)

// regexpPieces are s's pieces as the expression cuts them.
func regexpPieces(t testing.TB, s string) []string {
	var out []string
	m, err := pre.FindStringMatch(s)
	for ; m != nil && err == nil; m, err = pre.FindNextMatch(m) {
		out = append(out, m.String())
	}
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func pieces(s string) []string {
	var out []string
	Pieces(s, func(p string) bool {
		out = append(out, p)
		return true
	})
	return out
}

// same checks that Pieces cuts s as the expression does (up to 64 KB of
// text) and that a Counter counts its tokens as tiktoken-go does.
func same(t testing.TB, c *Counter, codec tokenizer.Codec, s string) {
	t.Helper()
	if utf8.ValidString(s) && len(s) <= 1<<16 { // a corpus file's count is checked below
		got, want := pieces(s), regexpPieces(t, s)
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") {
			t.Fatalf("pieces of %q:\n got %q\nwant %q", s, got, want)
		}
	}
	got, err := c.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	want, err := codec.Count(s)
	if err != nil {
		t.Fatal(err)
	}
	if got != want {
		t.Fatalf("tokens of %q: %d, tiktoken-go: %d", s, got, want)
	}
}

func counters(t testing.TB) (*Counter, tokenizer.Codec) {
	c, err := New()
	if err != nil {
		t.Fatal(err)
	}
	codec, err := tokenizer.Get(tokenizer.O200kBase)
	if err != nil {
		t.Fatal(err)
	}
	return c, codec
}

// TestCases: the cases each alternative of the expression and its
// backtracking decide.
func TestCases(t *testing.T) {
	c, codec := counters(t)
	for _, s := range []string{
		"", "a", "hello world", "Hello World", "HELLO WORLD", "HTTPServer", "iPhone", "McDonald's",
		"don't", "DON'T", "we'RE", "they've", "I'm", "you'll", "he'd", "it'ſ", "it'S", "x'", "'s", "a's's",
		"ǅungla", "ǅ", "ʰa", "aʰ", "Aʰ", "AʰB", "中文字符", "Ａ中", "e\u0301", "E\u0301", "\u0301", "!\u0301a", "!\u0301",
		"ा", "का", "КИРИЛЛИЦА кириллица", "ΣΊΣΥΦΟΣ σίσυφος",
		"123456", "1234567", "٣٤٥٦", "ⅫⅫ", "½¼¾x", "a1b2", "v2.0.1",
		" !", "  !", "!!!", "!!!\n\n", "a/b", "a//\n", "{\"type\":\"object\"}", "},{\"type\":\"function\"",
		" ", "  ", "   x", "\t\tx", "\n", "\r\n", " \n ", "  \n\n  x", "\n \n", " \u00a0x", "\u2028\u2029", "\u3000a", "\u0085x",
		" \r\n\tfoo\n", "x  ", "x \t", "😀😀 ok", " 😀", "a\u200db", "\ufeffBOM",
		"\xff", "a\xffb", "\xe4\xb8", "ok\xc3(", "\xf0\x9f\x98",
	} {
		same(t, c, codec, s)
	}
}

// TestMatrix: random strings over characters of every class the
// expression tells apart, with a fixed seed.
func TestMatrix(t *testing.T) {
	c, codec := counters(t)
	palette := []string{"a", "z", "A", "Z", "ǅ", "ʰ", "中", "\u0301", "ा", "٣", "Ⅻ", "½", "5", " ", " ", " ", "\t", "\n", "\r",
		"\u00a0", "\u2028", "\u3000", "'", "s", "S", "ſ", "t", "re", "VE", "m", "ll", "d", "/", "!", "\"", ":", "{", "😀", "\xff"}
	rng := rand.New(rand.NewPCG(1, 17))
	for range 5000 {
		var b strings.Builder
		for range 1 + rng.IntN(24) {
			b.WriteString(palette[rng.IntN(len(palette))])
		}
		same(t, c, codec, b.String())
	}
}

// TestCorpora: the pieces and counts of real tool definitions, whole.
func TestCorpora(t *testing.T) {
	c, codec := counters(t)
	files := []string{"../../../../examples/quickstart/tools.json", "../../../../examples/ontology/tools/onto_write.json"}
	for _, rel := range [][]string{{"tools"}, {"search", "acebench.tools.json"}} {
		p, ok := corpus.Find(rel...)
		if !ok {
			continue
		}
		if !strings.HasSuffix(p, ".json") {
			found, _ := filepath.Glob(filepath.Join(p, "*", "*.json"))
			files = append(files, found...)
			continue
		}
		files = append(files, p)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		same(t, c, codec, string(data))
	}
}

// FuzzCount: any text is cut and counted as tiktoken-go does.
func FuzzCount(f *testing.F) {
	for _, s := range []string{"Hello World's", "{\"a\": [1, 2345]}\n\n  x", "ǅʰ中\u0301 😀", "a\xffb"} {
		f.Add(s)
	}
	c, codec := counters(f)
	f.Fuzz(func(t *testing.T, s string) {
		same(t, c, codec, s)
	})
}

// BenchmarkCount counts the tokens of ACEBench's 2,307 tool definitions
// (1.9 MB), with a new Counter each time, against tiktoken-go.
func BenchmarkCount(b *testing.B) {
	data, err := os.ReadFile(corpus.Dir(b, "search", "acebench.tools.json"))
	if err != nil {
		b.Fatal(err)
	}
	s := string(data)
	b.Run("o200k", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			c, err := New()
			if err != nil {
				b.Fatal(err)
			}
			if _, err := c.Count(s); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("tiktoken-go", func(b *testing.B) {
		codec, err := tokenizer.Get(tokenizer.O200kBase)
		if err != nil {
			b.Fatal(err)
		}
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			if _, err := codec.Count(s); err != nil {
				b.Fatal(err)
			}
		}
	})
}
