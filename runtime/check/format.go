package check

import (
	"net/netip"
	"slices"
	"strings"
	"unicode/utf8"
)

// Format reports whether s is valid for the named JSON Schema format
// (draft 2020-12 vocabulary). Unknown formats are annotations: true.
func Format(name, s string) bool {
	if f, ok := formats[name]; ok {
		return f(s)
	}
	return true
}

// KnownFormat reports whether Format checks the named format.
func KnownFormat(name string) bool {
	_, ok := formats[name]
	return ok
}

// FormatNames are the formats Format checks, sorted.
func FormatNames() []string {
	names := make([]string, 0, len(formats))
	for name := range formats {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

var formats map[string]func(string) bool

func init() {
	formats = map[string]func(string) bool{
		"date-time":             DateTime,
		"date":                  Date,
		"time":                  Time,
		"duration":              Duration,
		"email":                 Email,
		"idn-email":             IDNEmail,
		"hostname":              Hostname,
		"idn-hostname":          IDNHostname,
		"ipv4":                  IPv4,
		"ipv6":                  IPv6,
		"uri":                   URI,
		"uri-reference":         URIReference,
		"iri":                   IRI,
		"iri-reference":         IRIReference,
		"uri-template":          URITemplate,
		"uuid":                  UUID,
		"json-pointer":          JSONPointer,
		"relative-json-pointer": RelativeJSONPointer,
		"regex":                 Regex,
	}
}

// DateTime reports whether s is an RFC 3339 date-time. A leap second
// (:60) is accepted only where it falls at 23:59:60 UTC.
func DateTime(s string) bool {
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	return Date(s[:10]) && Time(s[11:])
}

// Date reports whether s is an RFC 3339 full-date (YYYY-MM-DD) naming a
// real calendar day.
func Date(s string) bool {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return false
	}
	y, ok1 := digits(s[0:4])
	m, ok2 := digits(s[5:7])
	d, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= daysIn(y, m)
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// Time reports whether s is an RFC 3339 full-time (HH:MM:SS[.frac] with a
// Z or ±HH:MM offset). A leap second is accepted only at 23:59:60 UTC.
func Time(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := digits(s[0:2])
	m, ok2 := digits(s[3:5])
	sec, ok3 := digits(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if rest[0] == '.' {
		i := 1
		for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	var offMin int
	switch {
	case rest == "Z" || rest == "z":
	case len(rest) == 6 && (rest[0] == '+' || rest[0] == '-') && rest[3] == ':':
		oh, ok1 := digits(rest[1:3])
		om, ok2 := digits(rest[4:6])
		if !ok1 || !ok2 || oh > 23 || om > 59 {
			return false
		}
		offMin = oh*60 + om
		if rest[0] == '+' {
			offMin = -offMin
		}
	default:
		return false
	}
	if sec == 60 {
		utc := ((h*60+m+offMin)%(24*60) + 24*60) % (24 * 60)
		return utc == 23*60+59
	}
	return true
}

// digits parses s as ASCII decimal digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, len(s) > 0
}

// Duration reports whether s is an ISO 8601 duration as RFC 3339 appendix A
// defines it: PnYnMnDTnHnMnS with no gaps in the chosen units, or PnW.
func Duration(s string) bool {
	if len(s) < 3 || s[0] != 'P' {
		return false
	}
	s = s[1:]
	if n := leadingDigits(s); n > 0 && n == len(s)-1 && s[n] == 'W' {
		return true
	}
	date, tm, hasT := strings.Cut(s, "T")
	if date == "" && !hasT {
		return false
	}
	if !unitRun(date, "YMD") {
		return false
	}
	if hasT {
		return tm != "" && unitRun(tm, "HMS")
	}
	return true
}

// unitRun checks that s is a run of number+unit elements using a contiguous
// subsequence of units (YMD: Y, M, D, YM, MD, YMD; not YD).
func unitRun(s, units string) bool {
	last := -1
	for s != "" {
		n := leadingDigits(s)
		if n == 0 || n == len(s) {
			return false
		}
		u := strings.IndexByte(units, s[n])
		if u < 0 || u <= last || (last >= 0 && u != last+1) {
			return false
		}
		last = u
		s = s[n+1:]
	}
	return true
}

func leadingDigits(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	return i
}

// UUID reports whether s is an RFC 9562 UUID in 8-4-4-4-12 hex form.
func UUID(s string) bool {
	if len(s) != 36 || s[8] != '-' || s[13] != '-' || s[18] != '-' || s[23] != '-' {
		return false
	}
	return hexRun(s[:8]) && hexRun(s[9:13]) && hexRun(s[14:18]) && hexRun(s[19:23]) && hexRun(s[24:])
}

// hexRun reports whether s is all hexadecimal digits.
func hexRun(s string) bool {
	var bad uint8
	for i := 0; i < len(s); i++ {
		bad |= notHex[s[i]]
	}
	return bad == 0
}

// notHex is 1 for the bytes that are not hexadecimal digits.
var notHex = func() (t [256]uint8) {
	for c := range t {
		if !isHex(byte(c)) {
			t[c] = 1
		}
	}
	return t
}()

// IPv4 reports whether s is a dotted-quad IPv4 address without leading
// zeros.
func IPv4(s string) bool {
	parts := 0
	for {
		n := leadingDigits(s)
		if n == 0 || n > 3 || (n > 1 && s[0] == '0') {
			return false
		}
		v, _ := digits(s[:n])
		if v > 255 {
			return false
		}
		parts++
		s = s[n:]
		if s == "" {
			return parts == 4
		}
		if s[0] != '.' || parts == 4 {
			return false
		}
		s = s[1:]
	}
}

// IPv6 reports whether s is an RFC 4291 IPv6 address (no zone).
func IPv6(s string) bool {
	if strings.IndexByte(s, ':') < 0 {
		return false
	}
	a, err := netip.ParseAddr(s)
	return err == nil && a.Is6() && a.Zone() == ""
}

// Hostname reports whether s is an RFC 1123 host name; labels in A-label
// form (xn--) must decode to valid IDNA2008 U-labels.
func Hostname(s string) bool {
	if s == "" || len(s) > 253 {
		return false
	}
	// One pass over the bytes: the class of each, then each label's rules
	// where it ends.
	start := 0
	for i := 0; i <= len(s); i++ {
		if i < len(s) && s[i] != '.' {
			if byteClass[s[i]]&classLDH == 0 {
				return false
			}
			continue
		}
		label := s[start:i]
		start = i + 1
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		if hasACEPrefix(label) {
			if !aLabel(label) {
				return false
			}
		} else if len(label) >= 4 && label[2] == '-' && label[3] == '-' {
			return false
		}
	}
	return true
}

// ldhLabel checks the letters-digits-hyphen rule of one label.
func ldhLabel(l string) bool {
	if l == "" || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
		return false
	}
	for i := 0; i < len(l); i++ {
		if byteClass[l[i]]&classLDH == 0 {
			return false
		}
	}
	return true
}

// The classes of ASCII bytes the host name and mailbox checks ask about.
const (
	// classLDH: a letter, a digit or '-' (RFC 1123 labels).
	classLDH = 1 << iota
	// classAtext: a character of an RFC 5322 atom.
	classAtext
)

// byteClass holds the classes of each byte; bytes past ASCII have none.
var byteClass = func() (t [256]uint8) {
	for c := range 128 {
		b := byte(c)
		if isASCIILetter(b) || b >= '0' && b <= '9' {
			t[c] = classLDH | classAtext
		}
	}
	t['-'] |= classLDH
	for _, c := range []byte("!#$%&'*+-/=?^_`{|}~") {
		t[c] |= classAtext
	}
	return t
}()

func hasACEPrefix(l string) bool {
	return len(l) >= 4 && (l[0] == 'x' || l[0] == 'X') && (l[1] == 'n' || l[1] == 'N') && l[2] == '-' && l[3] == '-'
}

// Email reports whether s is an RFC 5321 mailbox: a dot-atom or quoted
// local part, '@', and a host name or address literal.
func Email(s string) bool { return email(s, false) }

// IDNEmail is Email allowing internationalized local parts and domains
// (RFC 6531).
func IDNEmail(s string) bool { return email(s, true) }

func email(s string, idn bool) bool {
	at := strings.LastIndexByte(s, '@')
	if at <= 0 || at == len(s)-1 {
		return false
	}
	local, domain := s[:at], s[at+1:]
	if !localPart(local, idn) {
		return false
	}
	if domain[0] == '[' {
		if domain[len(domain)-1] != ']' {
			return false
		}
		lit := domain[1 : len(domain)-1]
		if v6, ok := strings.CutPrefix(lit, "IPv6:"); ok {
			return IPv6(v6)
		}
		return IPv4(lit)
	}
	if idn {
		return idnHostname(domain, false)
	}
	return Hostname(domain)
}

func localPart(l string, idn bool) bool {
	if len(l) >= 2 && l[0] == '"' && l[len(l)-1] == '"' {
		q := l[1 : len(l)-1]
		for i := 0; i < len(q); i++ {
			c := q[i]
			switch {
			case c == '\\':
				i++
				if i == len(q) || q[i] < 32 || q[i] == 127 {
					return false
				}
			case c == '"' || c < 32 || c == 127:
				return false
			case c >= utf8.RuneSelf && !idn:
				return false
			}
		}
		return true
	}
	// A dot-atom: atoms joined by single dots.
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c == '.':
			if i == 0 || i == len(l)-1 || l[i-1] == '.' {
				return false
			}
		case c < utf8.RuneSelf:
			if byteClass[c]&classAtext == 0 {
				return false
			}
		default:
			r, size := utf8.DecodeRuneInString(l[i:])
			if !idn || r == utf8.RuneError {
				return false
			}
			i += size - 1
		}
	}
	return true
}

// JSONPointer reports whether s is an RFC 6901 JSON pointer.
func JSONPointer(s string) bool {
	if s == "" {
		return true
	}
	if s[0] != '/' {
		return false
	}
	return pointerTokens(s)
}

func pointerTokens(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '~' {
			if i+1 == len(s) || (s[i+1] != '0' && s[i+1] != '1') {
				return false
			}
		}
	}
	return utf8.ValidString(s)
}

// RelativeJSONPointer reports whether s is a relative JSON pointer: a
// non-negative integer followed by '#' or a JSON pointer.
func RelativeJSONPointer(s string) bool {
	n := leadingDigits(s)
	if n == 0 || (n > 1 && s[0] == '0') {
		return false
	}
	rest := s[n:]
	if n < len(s) && (s[n] == '+' || s[n] == '-') {
		m := leadingDigits(s[n+1:])
		if m == 0 || (m > 1 && s[n+1] == '0') {
			return false
		}
		rest = s[n+1+m:]
	}
	return rest == "#" || JSONPointer(rest)
}

// Regex reports whether s is an ECMA-262 regular expression Compile
// accepts. It parses s without building a matcher (validPattern): RE2
// expands counted repetitions when it compiles, and a model's
// "(?:a{1000})" repeated 1,600 times (17 kB) took 1.6 s to compile.
//
// A value longer than MaxRegexFormat bytes is refused: the parsers' time
// grows faster than the length (a 1 MB "a.a.a." took 4.8 s to parse, a
// 64 kB one 0.11 s), and a model's argument must not cost a call seconds.
func Regex(s string) bool {
	return len(s) <= MaxRegexFormat && validPattern(s)
}

// MaxRegexFormat is the longest value, in bytes, the regex format takes.
const MaxRegexFormat = 4096

// URITemplate reports whether s is an RFC 6570 URI template: literals and
// well-formed {expressions}. A literal '%' starts a percent-encoded octet,
// and non-ASCII literals are ucschar or iprivate, as in an IRI. An
// apostrophe is a literal, as the JSON Schema Test Suite has it, though
// RFC 6570 section 2.1 leaves it out.
func URITemplate(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '}':
			return false
		case '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				return false
			}
			expr := s[i+1 : i+end]
			if expr != "" && strings.IndexByte("+#./;?&=,!@|", expr[0]) >= 0 {
				expr = expr[1:]
			}
			if expr == "" {
				return false
			}
			for v := range strings.SplitSeq(expr, ",") {
				if !templateVar(v) {
					return false
				}
			}
			i += end
		case ' ', '"', '<', '>', '\\', '^', '`', '|', 0x7f:
			return false
		case '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		default:
			if s[i] < ' ' {
				return false
			}
			if s[i] >= utf8.RuneSelf {
				r, n := utf8.DecodeRuneInString(s[i:])
				if !ucschar(r) && !iprivate(r) {
					return false
				}
				i += n - 1
			}
		}
	}
	return true
}

func templateVar(v string) bool {
	if strings.HasSuffix(v, "*") {
		v = v[:len(v)-1]
	} else if name, max, ok := strings.Cut(v, ":"); ok {
		n := leadingDigits(max)
		if n == 0 || n != len(max) || n > 4 || max[0] == '0' {
			return false
		}
		v = name
	}
	if v == "" || v[0] == '.' || v[len(v)-1] == '.' || strings.Contains(v, "..") {
		return false
	}
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isASCIILetter(c), c >= '0' && c <= '9', c == '_', c == '.':
		case c == '%' && i+2 < len(v) && isHex(v[i+1]) && isHex(v[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// formatShapes are examples of the formats' shapes, for a message that
// says what a valid value looks like.
var formatShapes = map[string]string{
	"date-time":    "an RFC 3339 date-time, as 2024-02-29T13:45:00Z",
	"date":         "YYYY-MM-DD, as 2024-02-29",
	"time":         "HH:MM:SS with an offset, as 13:45:00Z",
	"duration":     "ISO 8601, as P3DT4H or PT30M",
	"email":        "as name@example.com",
	"hostname":     "as api.example.com",
	"ipv4":         "as 192.0.2.1",
	"ipv6":         "as 2001:db8::1",
	"uri":          "an absolute URI, as https://example.com/a",
	"uuid":         "as 123e4567-e89b-12d3-a456-426614174000",
	"json-pointer": "as /items/0",
	"regex":        "an ECMA-262 regular expression of at most 4096 bytes",
}

// FormatMessage is the message of a value that is not of format name:
// "must be a valid date (YYYY-MM-DD, as 2024-02-29)", with the shape
// when toolgen knows one.
func FormatMessage(name string) string {
	if shape, ok := formatShapes[name]; ok {
		return "must be a valid " + name + " (" + shape + ")"
	}
	return "must be a valid " + name
}
