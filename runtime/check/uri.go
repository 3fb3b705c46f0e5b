package check

import (
	"net/netip"
	"strings"
	"unicode/utf8"
)

// URI reports whether s is an absolute RFC 3986 URI (with a scheme).
func URI(s string) bool { return uriRef(s, false, true) }

// URIReference reports whether s is an RFC 3986 URI or relative reference.
func URIReference(s string) bool { return uriRef(s, false, false) }

// IRI reports whether s is an absolute RFC 3987 IRI.
func IRI(s string) bool { return uriRef(s, true, true) }

// IRIReference reports whether s is an RFC 3987 IRI or relative reference.
func IRIReference(s string) bool { return uriRef(s, true, false) }

func uriRef(s string, iri, absolute bool) bool {
	if !utf8.ValidString(s) {
		return false
	}
	rest := s
	if i := schemeEnd(s); i > 0 {
		rest = s[i+1:]
	} else if absolute {
		return false
	}
	hasScheme := rest != s
	if f := strings.IndexByte(rest, '#'); f >= 0 {
		if !uriChars(rest[f+1:], iri, "/?:@") {
			return false
		}
		rest = rest[:f]
	}
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		if !uriCharsIn(rest[q+1:], iri, iri, "/?:@") {
			return false
		}
		rest = rest[:q]
	}
	if auth, ok := strings.CutPrefix(rest, "//"); ok {
		path := ""
		if p := strings.IndexByte(auth, '/'); p >= 0 {
			auth, path = auth[:p], auth[p:]
		}
		return authority(auth, iri) && uriChars(path, iri, "/:@")
	}
	if !hasScheme {
		// path-noscheme: the first segment has no ':'.
		first, _, _ := strings.Cut(rest, "/")
		if strings.IndexByte(first, ':') >= 0 {
			return false
		}
	}
	return uriChars(rest, iri, "/:@")
}

// schemeEnd returns the index of the ':' ending a valid scheme, or -1.
func schemeEnd(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIILetter(c):
		case i > 0 && (c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i
		default:
			return -1
		}
	}
	return -1
}

func authority(a string, iri bool) bool {
	if at := strings.LastIndexByte(a, '@'); at >= 0 {
		if !uriChars(a[:at], iri, ":") {
			return false
		}
		a = a[at+1:]
	}
	host := a
	if strings.HasPrefix(a, "[") {
		end := strings.IndexByte(a, ']')
		if end < 0 {
			return false
		}
		host, a = a[1:end], a[end+1:]
		if !ipLiteral(host) {
			return false
		}
		if a != "" {
			if a[0] != ':' {
				return false
			}
			return leadingDigits(a[1:]) == len(a)-1
		}
		return true
	}
	if c := strings.LastIndexByte(a, ':'); c >= 0 {
		if leadingDigits(a[c+1:]) != len(a)-c-1 {
			return false
		}
		host = a[:c]
	}
	return uriChars(host, iri, "")
}

func ipLiteral(h string) bool {
	if len(h) > 1 && (h[0] == 'v' || h[0] == 'V') {
		dot := strings.IndexByte(h, '.')
		if dot < 2 || dot == len(h)-1 {
			return false
		}
		for i := 1; i < dot; i++ {
			if !isHex(h[i]) {
				return false
			}
		}
		return uriChars(h[dot+1:], false, ":")
	}
	a, err := netip.ParseAddr(h)
	return err == nil && a.Is6() && a.Zone() == ""
}

// uriChars checks that s holds only unreserved characters, sub-delims,
// percent-encoded octets, the extra ASCII characters in extra and, for IRIs,
// the non-ASCII characters RFC 3987 allows (ucschar).
func uriChars(s string, iri bool, extra string) bool { return uriCharsIn(s, iri, false, extra) }

// uriCharsIn is uriChars also allowing, when private is set, the private
// use characters RFC 3987 allows in an IRI's query (iprivate).
func uriCharsIn(s string, iri, private bool, extra string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isASCIILetter(c), c >= '0' && c <= '9':
		case strings.IndexByte("-._~!$&'()*+,;=", c) >= 0:
		case c == '%':
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return false
			}
			i += 2
		case c >= utf8.RuneSelf:
			if !iri {
				return false
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			if !ucschar(r) && !(private && iprivate(r)) {
				return false
			}
			i += n - 1
		case strings.IndexByte(extra, c) >= 0:
		default:
			return false
		}
	}
	return true
}

// ucschar reports whether r is a ucschar of RFC 3987: not a control, a
// private use character, a noncharacter (U+FDD0-FDEF, U+xFFFE-xFFFF) or
// a specials character (U+FFF0-FFFF).
func ucschar(r rune) bool {
	switch {
	case r < 0xA0:
		return false
	case r <= 0xD7FF:
		return true
	case r < 0xF900:
		return false // surrogates, private use
	case r <= 0xFDCF:
		return true
	case r < 0xFDF0:
		return false // noncharacters
	case r <= 0xFFEF:
		return true
	case r < 0x10000:
		return false // specials
	case r&0xFFFF >= 0xFFFE:
		return false // noncharacters
	}
	return r < 0xE0000 || r >= 0xE1000 && r <= 0xEFFFD
}

// iprivate reports whether r is a private use character (RFC 3987
// iprivate), which an IRI may hold in its query only.
func iprivate(r rune) bool {
	return r >= 0xE000 && r <= 0xF8FF || r >= 0xF0000 && r&0xFFFF <= 0xFFFD
}
