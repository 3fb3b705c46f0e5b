package check

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/bidi"
	"golang.org/x/text/unicode/norm"
)

// idnDots are the full stops IDNA treats as label separators (RFC 3490
// §3.1), as ".".
var idnDots = strings.NewReplacer("\u3002", ".", "\uff0e", ".", "\uff61", ".")

// IDNHostname reports whether s is an internationalized host name
// (RFC 5890): labels separated by '.' (or the ideographic and full-width
// full stops), each a valid ASCII label, A-label or IDNA2008 U-label,
// including the contextual rules of RFC 5892 and the Bidi rule of RFC 5893.
func IDNHostname(s string) bool { return idnHostname(s, true) }

// idnHostname is IDNHostname; nfc asks for U-labels in Normalization
// Form C, as RFC 5891 does of host names (the domain of an idn-email,
// RFC 6531, need not be: the JSON Schema Test Suite holds
// "user@cafe\u0301.com" valid).
func idnHostname(s string, nfc bool) bool {
	if s == "" || !utf8.ValidString(s) {
		return false
	}
	// Every code point adds at least one byte to the name's ASCII form
	// (a Punycode digit, a letter or a dot), which has at most 253: a
	// longer name is refused before the per-label work, which is
	// quadratic in a label's length (punyEncode, hasJapanese).
	if utf8.RuneCountInString(s) > 253 {
		return false
	}
	s = idnDots.Replace(s)
	labels := strings.Split(s, ".")
	total := len(labels) - 1
	var decoded [][]rune
	bidiDomain := false
	for _, l := range labels {
		if l == "" {
			return false
		}
		var rs []rune
		switch {
		case isASCII(l) && hasACEPrefix(l):
			if !aLabelLDH(l) {
				return false
			}
			var ok bool
			if rs, ok = punyDecode(l[4:]); !ok || isASCIIRunes(rs) || !uLabel(rs, nfc) {
				return false
			}
			total += len(l)
		case isASCII(l):
			if !ldhLabel(l) || len(l) >= 4 && l[2] == '-' && l[3] == '-' {
				return false
			}
			rs = []rune(l)
			total += len(l)
		default:
			rs = []rune(l)
			if !uLabel(rs, nfc) {
				return false
			}
			enc, ok := punyEncode(rs)
			if !ok || 4+len(enc) > 63 {
				return false
			}
			total += 4 + len(enc)
		}
		if hasRTL(rs) {
			bidiDomain = true
		}
		decoded = append(decoded, rs)
	}
	if total > 253 {
		return false
	}
	if bidiDomain {
		for _, rs := range decoded {
			if !bidiRule(rs) {
				return false
			}
		}
	}
	return true
}

// aLabel checks an xn-- label of a plain host name: its Punycode must decode
// to a valid U-label that re-encodes to the same text.
func aLabel(l string) bool {
	if !aLabelLDH(l) {
		return false
	}
	rs, ok := punyDecode(l[4:])
	if !ok || isASCIIRunes(rs) || !uLabel(rs, true) {
		return false
	}
	return !hasRTL(rs) || bidiRule(rs)
}

func aLabelLDH(l string) bool {
	return ldhLabel(l) && len(l) > 4
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func isASCIIRunes(rs []rune) bool {
	for _, r := range rs {
		if r >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// uLabel applies the IDNA2008 code point and contextual rules to a label.
func uLabel(rs []rune, nfc bool) bool {
	n := len(rs)
	if n == 0 || rs[0] == '-' || rs[n-1] == '-' || n >= 4 && rs[2] == '-' && rs[3] == '-' {
		return false
	}
	if unicode.Is(unicode.M, rs[0]) {
		return false
	}
	// A U-label is in Normalization Form C (RFC 5891 §5.3, and §5.4 for
	// an A-label's decoded form): "cafe\u0301" is "café" written another
	// way, which two systems would compare unequal.
	if nfc && !norm.NFC.IsNormalString(string(rs)) {
		return false
	}
	arabicIndic, extArabicIndic := false, false
	for i, r := range rs {
		switch {
		case r == 0x00B7: // MIDDLE DOT: between two 'l'
			if i == 0 || i == n-1 || rs[i-1] != 'l' || rs[i+1] != 'l' {
				return false
			}
		case r == 0x0375: // GREEK KERAIA: followed by Greek
			if i == n-1 || !unicode.Is(unicode.Greek, rs[i+1]) {
				return false
			}
		case r == 0x05F3 || r == 0x05F4: // GERESH, GERSHAYIM: after Hebrew
			if i == 0 || !unicode.Is(unicode.Hebrew, rs[i-1]) {
				return false
			}
		case r == 0x30FB: // KATAKANA MIDDLE DOT: with Hiragana, Katakana or Han
			if !hasJapanese(rs) {
				return false
			}
		case r >= 0x0660 && r <= 0x0669:
			arabicIndic = true
		case r >= 0x06F0 && r <= 0x06F9:
			extArabicIndic = true
		case r == 0x200D: // ZWJ: after a virama
			if i == 0 || !isVirama(rs[i-1]) {
				return false
			}
		case r == 0x200C: // ZWNJ: after a virama, or between joining letters
			if !(i > 0 && isVirama(rs[i-1]) || joinsAround(rs, i)) {
				return false
			}
		case !pvalid(r):
			return false
		}
	}
	return !(arabicIndic && extArabicIndic)
}

func hasJapanese(rs []rune) bool {
	for _, r := range rs {
		if r != 0x30FB && (unicode.In(r, unicode.Hiragana, unicode.Katakana, unicode.Han)) {
			return true
		}
	}
	return false
}

// joinsAround approximates the RFC 5892 ZWNJ joining-type rule: a joining
// (Arabic, Syriac, N'Ko...) letter on each side, skipping transparent marks.
func joinsAround(rs []rune, i int) bool {
	j := i - 1
	for j >= 0 && unicode.Is(unicode.Mn, rs[j]) {
		j--
	}
	k := i + 1
	for k < len(rs) && unicode.Is(unicode.Mn, rs[k]) {
		k++
	}
	return j >= 0 && k < len(rs) && joining(rs[j]) && joining(rs[k])
}

func joining(r rune) bool {
	return unicode.IsLetter(r) && unicode.In(r, unicode.Arabic, unicode.Syriac, unicode.Nko, unicode.Mongolian, unicode.Mandaic, unicode.Manichaean, unicode.Psalter_Pahlavi)
}

// Viramas: the code points with canonical combining class 9.
var viramas = map[rune]bool{
	0x094D: true, 0x09CD: true, 0x0A4D: true, 0x0ACD: true, 0x0B4D: true, 0x0BCD: true,
	0x0C4D: true, 0x0CCD: true, 0x0D3B: true, 0x0D3C: true, 0x0D4D: true, 0x0DCA: true,
	0x0E3A: true, 0x0EBA: true, 0x0F84: true, 0x1039: true, 0x103A: true, 0x1714: true,
	0x1715: true, 0x1734: true, 0x17D2: true, 0x1A60: true, 0x1B44: true, 0x1BAA: true,
	0x1BAB: true, 0x1BF2: true, 0x1BF3: true, 0x2D7F: true, 0xA806: true, 0xA82C: true,
	0xA8C4: true, 0xA953: true, 0xA9C0: true, 0xAAF6: true, 0xABED: true, 0x10A3F: true,
	0x11046: true, 0x11070: true, 0x1107F: true, 0x110B9: true, 0x11133: true, 0x11134: true,
	0x111C0: true, 0x11235: true, 0x112EA: true, 0x1134D: true, 0x11442: true, 0x114C2: true,
	0x115BF: true, 0x1163F: true, 0x116B6: true, 0x1172B: true, 0x11839: true, 0x1193D: true,
	0x1193E: true, 0x119E0: true, 0x11A34: true, 0x11A47: true, 0x11A99: true, 0x11C3F: true,
	0x11D44: true, 0x11D45: true, 0x11D97: true,
}

func isVirama(r rune) bool { return viramas[r] }

// pvalid approximates the IDNA2008 derived property PVALID (RFC 5892):
// the exceptions table, then lowercase-stable letters, marks and digits.
func pvalid(r rune) bool {
	switch r {
	case 0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007:
		return true
	case 0x0640, 0x07FA, 0x302E, 0x302F, 0x3031, 0x3032, 0x3033, 0x3034, 0x3035, 0x303B:
		return false
	}
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-'
	}
	if unicode.Is(unicode.Lu, r) || unicode.Is(unicode.Lt, r) {
		return false // unstable under case folding
	}
	return unicode.In(r, unicode.Ll, unicode.Lo, unicode.Lm, unicode.Mn, unicode.Mc, unicode.Nd)
}

func hasRTL(rs []rune) bool {
	for _, r := range rs {
		switch bidiClass(r) {
		case bidi.R, bidi.AL, bidi.AN:
			return true
		}
	}
	return false
}

func bidiClass(r rune) bidi.Class {
	p, _ := bidi.LookupRune(r)
	return p.Class()
}

// bidiRule applies RFC 5893 section 2 to one label of a Bidi domain name.
func bidiRule(rs []rune) bool {
	first := bidiClass(rs[0])
	end := len(rs) - 1
	for end > 0 && bidiClass(rs[end]) == bidi.NSM {
		end--
	}
	last := bidiClass(rs[end])
	switch first {
	case bidi.R, bidi.AL:
		en, an := false, false
		for _, r := range rs {
			switch bidiClass(r) {
			case bidi.R, bidi.AL, bidi.ES, bidi.CS, bidi.ET, bidi.ON, bidi.BN, bidi.NSM:
			case bidi.EN:
				en = true
			case bidi.AN:
				an = true
			default:
				return false
			}
		}
		if en && an {
			return false
		}
		return last == bidi.R || last == bidi.AL || last == bidi.EN || last == bidi.AN
	case bidi.L:
		for _, r := range rs {
			switch bidiClass(r) {
			case bidi.L, bidi.EN, bidi.ES, bidi.CS, bidi.ET, bidi.ON, bidi.BN, bidi.NSM:
			default:
				return false
			}
		}
		return last == bidi.L || last == bidi.EN
	}
	return false
}

// Punycode (RFC 3492) parameters.
const (
	punyBase        = 36
	punyTMin        = 1
	punyTMax        = 26
	punySkew        = 38
	punyDamp        = 700
	punyInitialBias = 72
	punyInitialN    = 128
)

func punyAdapt(delta, numPoints int, first bool) int {
	if first {
		delta /= punyDamp
	} else {
		delta /= 2
	}
	delta += delta / numPoints
	k := 0
	for delta > ((punyBase-punyTMin)*punyTMax)/2 {
		delta /= punyBase - punyTMin
		k += punyBase
	}
	return k + (punyBase-punyTMin+1)*delta/(delta+punySkew)
}

func punyDigit(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c-'0') + 26, true
	case c >= 'a' && c <= 'z':
		return int(c - 'a'), true
	case c >= 'A' && c <= 'Z':
		return int(c - 'A'), true
	}
	return 0, false
}

// punyDecode decodes the part of an A-label after "xn--". It rejects
// non-canonical encodings (those that do not re-encode to the input).
func punyDecode(s string) ([]rune, bool) {
	var out []rune
	rest := s
	if b := strings.LastIndexByte(s, '-'); b >= 0 {
		for i := 0; i < b; i++ {
			out = append(out, rune(s[i]))
		}
		rest = s[b+1:]
	}
	n, bias, i := punyInitialN, punyInitialBias, 0
	for p := 0; p < len(rest); {
		oldi, w := i, 1
		for k := punyBase; ; k += punyBase {
			if p == len(rest) {
				return nil, false
			}
			d, ok := punyDigit(rest[p])
			p++
			if !ok || d > (1<<30-i)/w {
				return nil, false
			}
			i += d * w
			t := k - bias
			if t < punyTMin {
				t = punyTMin
			} else if t > punyTMax {
				t = punyTMax
			}
			if d < t {
				break
			}
			w *= punyBase - t
			if w > 1<<30 {
				return nil, false
			}
		}
		bias = punyAdapt(i-oldi, len(out)+1, oldi == 0)
		n += i / (len(out) + 1)
		i %= len(out) + 1
		if n > unicode.MaxRune || n >= 0xD800 && n <= 0xDFFF {
			return nil, false
		}
		out = append(out, 0)
		copy(out[i+1:], out[i:])
		out[i] = rune(n)
		i++
	}
	enc, ok := punyEncode(out)
	if !ok || !strings.EqualFold(enc, s) {
		return nil, false
	}
	return out, true
}

// punyEncode encodes a label's code points (without the "xn--" prefix).
func punyEncode(rs []rune) (string, bool) {
	var b strings.Builder
	for _, r := range rs {
		if r < 0x80 {
			b.WriteRune(r)
		}
	}
	h := b.Len()
	basic := h
	if basic > 0 {
		b.WriteByte('-')
	}
	n, bias, delta := punyInitialN, punyInitialBias, 0
	for h < len(rs) {
		m := int(unicode.MaxRune) + 1
		for _, r := range rs {
			if int(r) >= n && int(r) < m {
				m = int(r)
			}
		}
		if (m-n)*(h+1) > 1<<30-delta {
			return "", false
		}
		delta += (m - n) * (h + 1)
		n = m
		for _, r := range rs {
			if int(r) < n {
				delta++
			}
			if int(r) == n {
				q := delta
				for k := punyBase; ; k += punyBase {
					t := k - bias
					if t < punyTMin {
						t = punyTMin
					} else if t > punyTMax {
						t = punyTMax
					}
					if q < t {
						break
					}
					b.WriteByte(punyChar(t + (q-t)%(punyBase-t)))
					q = (q - t) / (punyBase - t)
				}
				b.WriteByte(punyChar(q))
				bias = punyAdapt(delta, h+1, h == basic)
				delta = 0
				h++
			}
		}
		delta++
		n++
	}
	return b.String(), true
}

func punyChar(d int) byte {
	if d < 26 {
		return byte('a' + d)
	}
	return byte('0' + d - 26)
}
