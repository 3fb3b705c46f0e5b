package names

import (
	"fmt"
	"go/token"
	"hash/fnv"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// initialisms are words written all in capitals in Go names.
var initialisms = map[string]bool{
	"ACL": true, "API": true, "ASCII": true, "AWS": true, "CPU": true,
	"CSS": true, "CSV": true, "DB": true, "DNS": true, "EOF": true,
	"GUID": true, "HTML": true, "HTTP": true, "HTTPS": true, "ID": true,
	"IO": true, "IP": true, "JSON": true, "JWT": true, "LHS": true,
	"MCP": true, "OS": true, "PDF": true, "QPS": true, "RAM": true,
	"RHS": true, "RPC": true, "SDK": true, "SLA": true, "SMTP": true,
	"SQL": true, "SSH": true, "SSO": true, "TCP": true, "TLS": true,
	"TTL": true, "UDP": true, "UI": true, "UID": true, "URI": true,
	"URL": true, "URN": true, "UTC": true, "UTF8": true, "UUID": true,
	"VM": true, "XML": true, "XMPP": true, "XSRF": true, "XSS": true,
	"YAML": true,
}

// symbolWords spell out ASCII symbols that carry meaning in a name.
var symbolWords = map[rune]string{
	'+': "Plus",
	'@': "At",
	'%': "Percent",
	'&': "And",
	'#': "Hash",
	'<': "Lt",
	'>': "Gt",
	'=': "Eq",
}

// part is one piece of a name: a word taken from the input, or a
// connector made up from separators and symbols.
type part struct {
	text string
	word bool
}

// split breaks s into parts. Words break at separators, at a lower-case
// letter or digit followed by an upper-case one, and before the last
// capital of a run of capitals followed by a lower-case letter
// (URLPath → URL Path). Digits stay with the word they follow. A separator
// between two digits becomes "To" for '-' (0-18) and "_" otherwise (2.5),
// so digits never run together.
func split(s string) []part {
	var (
		parts []part
		cur   []rune
		sep   rune // the first separator since the last word, 0 if none
	)
	flush := func() {
		if len(cur) > 0 {
			parts = append(parts, part{text: string(cur), word: true})
			cur = cur[:0]
		}
	}
	startWord := func(r rune) {
		if sep != 0 && len(parts) > 0 && unicode.IsDigit(r) {
			if prev := parts[len(parts)-1]; prev.word {
				last, _ := utf8.DecodeLastRuneInString(prev.text)
				if unicode.IsDigit(last) {
					conn := "_"
					if sep == '-' {
						conn = "To"
					}
					parts = append(parts, part{text: conn})
				}
			}
		}
		sep = 0
	}
	runes := []rune(s)
	for i, r := range runes {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if len(cur) == 0 {
				startWord(r)
			} else if unicode.IsUpper(r) {
				prev := cur[len(cur)-1]
				nextLower := i+1 < len(runes) && unicode.IsLower(runes[i+1]) &&
					!pluralS(runes, i+1)
				if !unicode.IsUpper(prev) || nextLower {
					flush()
				}
			}
			cur = append(cur, r)
		case unicode.Is(unicode.M, r):
			// Combining marks cannot appear in Go identifiers; drop them.
		default:
			flush()
			if w, ok := symbolWords[r]; ok {
				parts = append(parts, part{text: w})
				sep = 0
				continue
			}
			if r >= utf8.RuneSelf && unicode.IsSymbol(r) {
				parts = append(parts, part{text: fmt.Sprintf("U%04X", r)})
				sep = 0
				continue
			}
			if sep == 0 {
				sep = r
			}
		}
	}
	flush()
	return parts
}

// pluralS reports whether runes[i] is a lone 's' ending a word, as in
// URLs or IDs, which stays with the capitals before it.
func pluralS(runes []rune, i int) bool {
	return runes[i] == 's' && (i+1 == len(runes) || !unicode.IsLetter(runes[i+1]))
}

// screaming reports whether s is SCREAMING_CASE: every cased letter is upper
// case and at least two words contain letters.
func screaming(parts []part, s string) bool {
	for _, r := range s {
		if unicode.IsLower(r) {
			return false
		}
	}
	n := 0
	for _, p := range parts {
		if p.word && strings.IndexFunc(p.text, unicode.IsLetter) >= 0 {
			n++
		}
	}
	return n >= 2
}

// capitalize writes one word in Go style: initialisms (and their plurals)
// in capitals, other words with an upper-case first letter.
func capitalize(w string, scream bool) string {
	up := strings.ToUpper(w)
	if initialisms[up] {
		return up
	}
	if n := len(w); n > 2 && (w[n-1] == 's') && initialisms[up[:n-1]] {
		return up[:n-1] + "s"
	}
	if scream && up == w {
		w = strings.ToLower(w)
	}
	r, size := utf8.DecodeRuneInString(w)
	return string(unicode.ToUpper(r)) + w[size:]
}

// camel joins the parts of s in exported camel case, without making sure
// the result starts with an upper-case letter.
func camel(s string) string {
	parts := split(s)
	scream := screaming(parts, s)
	var b strings.Builder
	for _, p := range parts {
		if p.word {
			b.WriteString(capitalize(p.text, scream))
		} else {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// GoName returns the exported Go identifier for a wire name: target_id →
// TargetID, html_url → HTMLURL, Content-Type → ContentType, 60+ → X60Plus,
// 当前状态 → X当前状态. The result is never empty and always exported.
func GoName(s string) string {
	c := camel(s)
	if c == "" {
		return "X"
	}
	if r, _ := utf8.DecodeRuneInString(c); !unicode.IsUpper(r) {
		return "X" + c
	}
	return c
}

// LocalName returns an unexported Go identifier for a wire name, safe as a
// local variable or parameter: keywords and predeclared identifiers get a
// trailing underscore (type → type_, len → len_).
func LocalName(s string) string {
	parts := split(s)
	scream := screaming(parts, s)
	var b strings.Builder
	for i, p := range parts {
		switch {
		case i == 0 && p.word:
			w := capitalize(p.text, scream)
			if base := strings.TrimSuffix(w, "s"); base == strings.ToUpper(base) {
				w = strings.ToLower(w)
			} else {
				r, size := utf8.DecodeRuneInString(w)
				w = string(unicode.ToLower(r)) + w[size:]
			}
			b.WriteString(w)
		case p.word:
			b.WriteString(capitalize(p.text, scream))
		default:
			b.WriteString(p.text)
		}
	}
	name := b.String()
	if name == "" {
		return "x"
	}
	if r, _ := utf8.DecodeRuneInString(name); !unicode.IsLetter(r) || unicode.IsUpper(r) {
		name = "x" + name
	}
	if token.IsKeyword(name) || predeclared[name] {
		name += "_"
	}
	return name
}

// EnumConstName returns the constant name for an enum value of a named
// type: (State, "open") → StateOpen, (Age, "0-18") → Age0To18, and
// (State, "") → StateEmpty.
func EnumConstName(typeName, value string) string {
	c := camel(value)
	if c == "" {
		c = "Empty"
	}
	if r, _ := utf8.DecodeRuneInString(c); unicode.IsLower(r) {
		c = "X" + c
	}
	return typeName + c
}

// predeclared are Go's predeclared identifiers, which a local name must not
// shadow.
var predeclared = map[string]bool{
	"any": true, "append": true, "bool": true, "byte": true, "cap": true,
	"clear": true, "close": true, "comparable": true, "complex": true,
	"complex128": true, "complex64": true, "copy": true, "delete": true,
	"error": true, "false": true, "float32": true, "float64": true,
	"imag": true, "int": true, "int16": true, "int32": true, "int64": true,
	"int8": true, "iota": true, "len": true, "make": true, "max": true,
	"min": true, "new": true, "nil": true, "panic": true, "print": true,
	"println": true, "real": true, "recover": true, "rune": true,
	"string": true, "true": true, "uint": true, "uint16": true,
	"uint32": true, "uint64": true, "uint8": true, "uintptr": true,
}

// MethodNames are the methods generated on params and result types; a
// struct's field scope reserves them so no field shadows a method.
var MethodNames = []string{"Validate", "MarshalJSON", "UnmarshalJSON", "String", "Error", "GoString", "Format"}

// PackageNames are the packages generated code imports; a local scope
// reserves them so no variable shadows an import.
var PackageNames = []string{"context", "errors", "fmt", "json", "runtime", "strconv", "wire", "check", "gateway", "prompt", "matryoshka"}

// Scope hands out unique Go names within one namespace, in declaration
// order. The zero value is not usable; call NewScope or NewLocalScope.
type Scope struct {
	used  map[string]bool
	local bool
	// MaxLen, when positive, bounds the names Unique hands out: a longer
	// name is shortened by Shorten before it is made unique.
	MaxLen int
	// next is where the suffix search resumes per name, so that many
	// colliding names stay linear.
	next map[string]int
}

// NewScope returns a scope for exported names with reserved names already
// taken (for example MethodNames in a struct's field scope).
func NewScope(reserved ...string) *Scope {
	s := &Scope{used: make(map[string]bool, len(reserved))}
	for _, r := range reserved {
		s.used[r] = true
	}
	return s
}

// Reserve takes names in s without declaring them.
func (s *Scope) Reserve(names ...string) {
	for _, n := range names {
		s.used[n] = true
	}
}

// NewLocalScope returns a scope for unexported local names (variables,
// parameters) with PackageNames and reserved already taken.
func NewLocalScope(reserved ...string) *Scope {
	s := NewScope(reserved...)
	s.local = true
	for _, p := range PackageNames {
		s.used[p] = true
	}
	return s
}

// Declare returns the Go name for jsonName, unique within the scope:
// GoName (LocalName in a local scope), with a suffix 2, 3, ... when the
// name is taken.
func (s *Scope) Declare(jsonName string) string {
	if s.local {
		return s.Unique(LocalName(jsonName))
	}
	return s.Unique(GoName(jsonName))
}

// Unique returns name, or name with the first free suffix 2, 3, ... when it
// is taken ("_2" when name ends in a digit), and marks the result taken.
func (s *Scope) Unique(name string) string {
	if s.MaxLen > 0 {
		name = Shorten(name, s.MaxLen)
	}
	if !s.used[name] {
		s.used[name] = true
		return name
	}
	sep := ""
	if r, _ := utf8.DecodeLastRuneInString(name); unicode.IsDigit(r) {
		sep = "_"
	}
	if s.next == nil {
		s.next = map[string]int{}
	}
	for n := max(s.next[name], 2); ; n++ {
		cand := name + sep + strconv.Itoa(n)
		if !s.used[cand] {
			s.used[cand] = true
			s.next[name] = n + 1
			return cand
		}
	}
}

// Shorten returns name when it is at most max bytes long, else a prefix of
// it cut at a rune boundary plus "_" and eight hex digits of a hash of the
// whole name, max-6 bytes in all: room is left for a uniqueness suffix.
// The result depends only on name and max.
func Shorten(name string, max int) string {
	if len(name) <= max {
		return name
	}
	const tail = 1 + 8 + 6 // "_" + hash + room for a suffix
	keep := max - tail
	if keep < 1 {
		keep = 1
	}
	for keep > 1 && !utf8.RuneStart(name[keep]) {
		keep--
	}
	h := fnv.New32a()
	h.Write([]byte(name))
	return fmt.Sprintf("%s_%08x", name[:keep], h.Sum32())
}

// Taken reports whether name is already declared or reserved in the scope.
func (s *Scope) Taken(name string) bool { return s.used[name] }
