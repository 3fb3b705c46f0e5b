package check

import (
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		format, s string
		want      bool
	}{
		{"date-time", "2024-02-29T12:30:00Z", true},
		{"date-time", "2023-02-29T12:30:00Z", false},
		{"date-time", "2024-01-01t00:00:00.123+05:30", true},
		{"date-time", "2016-12-31T23:59:60Z", true},
		{"date-time", "2016-12-31T15:59:60-08:00", true},
		{"date-time", "2016-12-31T23:59:60+01:00", false},
		{"date-time", "2024-01-01 00:00:00Z", false},
		{"date-time", "2024-01-01T00:00:00", false},
		{"date", "1900-02-29", false},
		{"date", "2000-02-29", true},
		{"date", "2024-04-31", false},
		{"time", "23:59:59.5Z", true},
		{"time", "24:00:00Z", false},
		{"time", "12:00:00.Z", false},
		{"duration", "P1Y2M3DT4H5M6S", true},
		{"duration", "P3W", true},
		{"duration", "PT", false},
		{"duration", "P1YT", false},
		{"email", "joe.bloggs@example.com", true},
		{"email", "joe..bloggs@example.com", false},
		{"email", `"joe bloggs"@example.com`, true},
		{"email", "joe@[IPv6:::1]", true},
		{"idn-email", "실례@실례.테스트", true},
		{"email", "실례@example.com", false},
		{"hostname", "api.example.com", true},
		{"hostname", "-api.example.com", false},
		{"hostname", "xn--9n2bp8q.xn--9t4b11yi5a", true},
		{"idn-hostname", "실례.테스트", true},
		{"idn-hostname", "caf\u00e9.example", true},
		{"idn-hostname", "cafe\u0301.example", false},   // not in NFC (RFC 5891 §5.3)
		{"idn-hostname", "xn--cafe-yvc.example", false}, // the same, as an A-label (§5.4)
		{"idn-hostname", "xn--caf-dma.example", true},   // café, in NFC
		{"ipv4", "192.168.0.1", true},
		{"ipv4", "192.168.0.01", false},
		{"ipv4", "256.1.1.1", false},
		{"ipv4", "1.2.3", false},
		{"ipv6", "2001:db8::1", true},
		{"ipv6", "::ffff:1.2.3.4", true},
		{"ipv6", "fe80::1%eth0", false},
		{"ipv6", "1.2.3.4", false},
		{"uri", "https://example.com/a?b=c#d", true},
		{"uri", "//example.com/a", false},
		{"uri", "https://exa mple.com", false},
		{"uri-reference", "../a/b?c", true},
		{"uri-reference", "a:b:c/d", true},
		{"iri", "https://例え.jp/パス", true},
		{"iri-reference", "/パス", true},
		// RFC 3987: ucschar excludes noncharacters and private use
		// characters, which iprivate allows in the query only.
		{"iri", "https://example.com/\ufdd0", false},
		{"iri", "https://example.com/\U0001fffe", false},
		{"iri", "https://example.com/\ue000", false},
		{"iri", "https://example.com/#\ue000", false},
		{"iri", "https://example.com/?\ue000", true},
		{"iri", "https://example.com/?\U0010fffd", true},
		{"iri-reference", "\U000e0041", false},
		{"iri-reference", "\U000e1000", true},
		{"uri-template", "/users/{id}{?q,limit:10}", true},
		{"uri-template", "/users/{id", false},
		// RFC 6570 literals: '%' only percent-encoding, non-ASCII as in
		// an IRI.
		{"uri-template", "/a%20b/{id}", true},
		{"uri-template", "/100%/{id}", false},
		{"uri-template", "/a%2/{id}", false},
		{"uri-template", "/パス/{id}", true},
		{"uri-template", "/\ufdd0/{id}", false},
		{"uuid", "123e4567-e89b-12d3-a456-426614174000", true},
		{"uuid", "123e4567e89b12d3a456426614174000", false},
		{"json-pointer", "/a~1b/0", true},
		{"json-pointer", "/a~2", false},
		{"relative-json-pointer", "1/a", true},
		{"relative-json-pointer", "0#", true},
		{"relative-json-pointer", "01/a", false},
		{"regex", `^\d+$`, true},
		{"regex", `(?i)x`, false},
		// Longer than MaxRegexFormat: parsing takes time growing faster
		// than the length (1 MB took 4.8 s).
		{"regex", strings.Repeat("a.", MaxRegexFormat/2), true},
		{"regex", strings.Repeat("a.", MaxRegexFormat/2) + "a", false},
		{"regex", strings.Repeat("a.", 1<<19), false},
		{"unknown-format", "anything", true},
	}
	for _, tc := range tests {
		if got := Format(tc.format, tc.s); got != tc.want {
			t.Errorf("Format(%q, %q) = %v, want %v", tc.format, tc.s, got, tc.want)
		}
	}
	if KnownFormat("unknown-format") || !KnownFormat("date-time") {
		t.Error("KnownFormat disagrees with Format's table")
	}
}

func TestFormatsDoNotAllocate(t *testing.T) {
	valid := map[string]string{
		"date-time": "2024-02-29T12:30:00.25+01:00", "date": "2024-02-29", "time": "12:30:00Z",
		"duration": "P1DT2H", "email": "joe.bloggs@example.com", "hostname": "api.example.com",
		"ipv4": "10.0.0.1", "ipv6": "2001:db8::1", "uri": "https://example.com/a?b=c#d",
		"uri-reference": "../a", "uuid": "123e4567-e89b-12d3-a456-426614174000",
		"json-pointer": "/a/b", "relative-json-pointer": "1/a",
	}
	for name, s := range valid {
		if !Format(name, s) {
			t.Errorf("%s: %q invalid", name, s)
		}
		if n := testing.AllocsPerRun(50, func() { Format(name, s) }); n != 0 {
			t.Errorf("%s allocates %v times on valid input", name, n)
		}
	}
}

func BenchmarkFormatDateTime(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		DateTime("2024-02-29T12:30:00.25+01:00")
	}
}

func BenchmarkFormatEmail(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		Email("joe.bloggs@example.com")
	}
}

func BenchmarkFormatURI(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		URI("https://example.com/a/b?c=d#e")
	}
}

func FuzzFormats(f *testing.F) {
	for _, s := range []string{"2024-02-29T12:30:00Z", "P1Y2M", "a@b.c", "xn--9n2bp8q", "실례.테스트", "::1", "http://[::1]:80/", "{+a,b:3}", "1/a~0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for name := range formats {
			Format(name, s) // must not panic
		}
	})
}

func FuzzPunycode(f *testing.F) {
	for _, s := range []string{"9n2bp8q", "hello-txk", "-9uc", "X", "ihqwcrb4cv8a8dqg056pqjye"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		rs, ok := punyDecode(s)
		if !ok {
			return
		}
		enc, ok := punyEncode(rs)
		if !ok {
			t.Fatalf("decoded %q but cannot re-encode %q", s, string(rs))
		}
		if back, ok := punyDecode(enc); !ok || string(back) != string(rs) {
			t.Fatalf("round trip of %q: %q, %v", s, string(back), ok)
		}
	})
}

// A format's message says what a valid value looks like when toolgen
// knows its shape, and each example shape is itself valid.
func TestFormatMessage(t *testing.T) {
	if got, want := FormatMessage("date"), "must be a valid date (YYYY-MM-DD, as 2024-02-29)"; got != want {
		t.Errorf("FormatMessage(date) = %q, want %q", got, want)
	}
	if got, want := FormatMessage("idn-hostname"), "must be a valid idn-hostname"; got != want {
		t.Errorf("FormatMessage(idn-hostname) = %q, want %q", got, want)
	}
	for name, shape := range formatShapes {
		if !KnownFormat(name) {
			t.Errorf("%s: not a format toolgen checks", name)
		}
		ex := shape[strings.LastIndex(shape, " ")+1:]
		if !Format(name, ex) {
			t.Errorf("%s: the example %q of its message is not valid", name, ex)
		}
	}
}

// An idn-hostname whose ASCII form would pass 253 bytes is refused by its
// length before any label is decoded or encoded: Punycode encoding and the
// KATAKANA MIDDLE DOT rule are quadratic in a label's length, and a model's
// label of 120 kB of distinct Han characters took 5.6 s.
func TestIDNHostnameLength(t *testing.T) {
	max := strings.Repeat("a", 63) + "." + strings.Repeat("b", 63) + "." + strings.Repeat("c", 63) + "." + strings.Repeat("d", 61)
	if !IDNHostname(max) || IDNHostname(max+"e") {
		t.Errorf("the 253-byte name is not the longest accepted")
	}
	if !IDNHostname(strings.Repeat("실례.", 15) + "테스트") {
		t.Errorf("a long name of short U-labels is refused")
	}
	var b strings.Builder
	for i := range 4000 {
		b.WriteRune(rune(0x4E00 + i))
	}
	for _, s := range []string{b.String(), strings.Repeat("\u30FB", 4000) + "漢", "a@" + b.String()} {
		if Format("idn-hostname", s) || Format("idn-email", s) {
			t.Errorf("an over-long name is accepted")
		}
		if n := testing.AllocsPerRun(5, func() { IDNHostname(s) }); n != 0 {
			t.Errorf("IDNHostname works on an over-long name (%v allocations)", n)
		}
	}
}

func BenchmarkIDNHostnameLong(b *testing.B) {
	var s strings.Builder
	for i := range 40000 {
		s.WriteRune(rune(0x4E00 + i%20000))
	}
	name := s.String()
	for b.Loop() {
		IDNHostname(name)
	}
}
