package names

import (
	"go/token"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGoName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"target_id", "TargetID"},
		{"targetId", "TargetID"},
		{"TargetID", "TargetID"},
		{"html_url", "HTMLURL"},
		{"userId", "UserID"},
		{"URLPath", "URLPath"},
		{"XMLHttpRequest", "XMLHTTPRequest"},
		{"HTTPServer", "HTTPServer"},
		{"user_ids", "UserIDs"},
		{"getURLs", "GetURLs"},
		{"api_key", "APIKey"},
		{"uuid", "UUID"},
		{"sql_query", "SQLQuery"},
		{"cpu_ram_os", "CPURAMOS"},
		{"created_at_utc", "CreatedAtUTC"},
		{"type", "Type"},
		{"func", "Func"},
		{"range", "Range"},
		{"0-18", "X0To18"},
		{"60+", "X60Plus"},
		{"PM2.5", "PM2_5"},
		{"1.5", "X1_5"},
		{"$ref", "Ref"},
		{"@type", "AtType"},
		{"Content-Type", "ContentType"},
		{"content-type", "ContentType"},
		{"当前状态", "X当前状态"},
		{"état_civil", "ÉtatCivil"},
		{"स्थिति", "Xसथत"},
		{"temp_°C", "TempU00B0C"},
		{"API-get-user", "APIGetUser"},
		{"MAX_VALUE", "MaxValue"},
		{"NOTION_API_KEY", "NotionAPIKey"},
		{"TYPE", "TYPE"},
		{"browser_navigate", "BrowserNavigate"},
		{"list onto tasks", "ListOntoTasks"},
		{"a.b.c", "ABC"},
		{"v2Beta", "V2Beta"},
		{"2fa_code", "X2faCode"},
		{"C++", "CPlusPlus"},
		{"percent%", "PercentPercent"},
		{"_private", "Private"},
		{"", "X"},
		{"$", "X"},
		{"___", "X"},
		{"Validate", "Validate"},
	}
	for _, tt := range tests {
		got := GoName(tt.in)
		if got != tt.want {
			t.Errorf("GoName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !token.IsIdentifier(got) || !token.IsExported(got) {
			t.Errorf("GoName(%q) = %q is not an exported identifier", tt.in, got)
		}
	}
}

func TestLocalName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"target_id", "targetID"},
		{"ID", "id"},
		{"URLPath", "urlPath"},
		{"user_ids", "userIDs"},
		{"type", "type_"},
		{"func", "func_"},
		{"range", "range_"},
		{"len", "len_"},
		{"string", "string_"},
		{"Content-Type", "contentType"},
		{"0-18", "x0To18"},
		{"当前状态", "当前状态"},
		{"ÉTAT", "état"},
		{"", "x"},
	}
	for _, tt := range tests {
		got := LocalName(tt.in)
		if got != tt.want {
			t.Errorf("LocalName(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if !token.IsIdentifier(got) || token.IsExported(got) {
			t.Errorf("LocalName(%q) = %q is not an unexported identifier", tt.in, got)
		}
	}
}

func TestEnumConstName(t *testing.T) {
	tests := []struct{ typ, val, want string }{
		{"State", "open", "StateOpen"},
		{"State", "in_progress", "StateInProgress"},
		{"Age", "0-18", "Age0To18"},
		{"Age", "60+", "Age60Plus"},
		{"State", "", "StateEmpty"},
		{"Method", "GET", "MethodGET"},
		{"Kind", "当前", "Kind当前"},
		{"Unit", "°C", "UnitU00B0C"},
	}
	for _, tt := range tests {
		if got := EnumConstName(tt.typ, tt.val); got != tt.want {
			t.Errorf("EnumConstName(%q, %q) = %q, want %q", tt.typ, tt.val, got, tt.want)
		}
	}
}

func TestScope(t *testing.T) {
	tests := []struct {
		name     string
		reserved []string
		local    bool
		in       []string
		want     []string
	}{
		{
			name: "near collisions in declaration order",
			in:   []string{"target_id", "targetId", "TargetID"},
			want: []string{"TargetID", "TargetID2", "TargetID3"},
		},
		{
			name: "a literal suffix is skipped over",
			in:   []string{"a", "a2", "A"},
			want: []string{"A", "A2", "A3"},
		},
		{
			name: "names ending in a digit get an underscore",
			in:   []string{"v1", "V1"},
			want: []string{"V1", "V1_2"},
		},
		{
			name:     "generated methods are reserved",
			reserved: MethodNames,
			in:       []string{"validate", "string", "MarshalJSON", "name"},
			want:     []string{"Validate2", "String2", "MarshalJSON2", "Name"},
		},
		{
			name:  "imported packages are reserved in local scopes",
			local: true,
			in:    []string{"json", "context", "runtime", "type", "type"},
			want:  []string{"json2", "context2", "runtime2", "type_", "type_2"},
		},
		{
			name: "empty and symbol-only names",
			in:   []string{"", "$", "_"},
			want: []string{"X", "X2", "X3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := NewScope(tt.reserved...)
			if tt.local {
				s = NewLocalScope(tt.reserved...)
			}
			for i, in := range tt.in {
				if got := s.Declare(in); got != tt.want[i] {
					t.Errorf("Declare(%q) = %q, want %q", in, got, tt.want[i])
				}
			}
			for _, w := range tt.want {
				if !s.Taken(w) {
					t.Errorf("Taken(%q) = false after declaring it", w)
				}
			}
		})
	}
}

func FuzzGoName(f *testing.F) {
	for _, s := range []string{"target_id", "0-18", "当前状态", "PM2.5", "स्थिति", "\xff", "C++"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if g := GoName(s); !token.IsIdentifier(g) || !token.IsExported(g) {
			t.Fatalf("GoName(%q) = %q", s, g)
		}
		if l := LocalName(s); !token.IsIdentifier(l) || token.IsExported(l) {
			t.Fatalf("LocalName(%q) = %q", s, l)
		}
		if a, b := GoName(s), GoName(s); a != b {
			t.Fatalf("GoName(%q) is not deterministic", s)
		}
	})
}

func BenchmarkGoName(b *testing.B) {
	in := []string{"target_id", "html_url", "XMLHttpRequest", "0-18", "当前状态", "NOTION_API_KEY"}
	b.ReportAllocs()
	for b.Loop() {
		for _, s := range in {
			GoName(s)
		}
	}
}

// Long names are shortened to a prefix and a hash, at a rune boundary,
// leaving room for a uniqueness suffix; distinct long names stay distinct.
func TestShorten(t *testing.T) {
	if got := Shorten("Short", 40); got != "Short" {
		t.Errorf("Shorten(Short) = %q", got)
	}
	a := strings.Repeat("Ab", 100)
	b := strings.Repeat("Ab", 99) + "Ac"
	sa, sb := Shorten(a, 40), Shorten(b, 40)
	if len(sa) > 40-6 || sa == sb || sa != Shorten(a, 40) {
		t.Errorf("Shorten: %q (%d bytes), %q", sa, len(sa), sb)
	}
	u := Shorten(strings.Repeat("状态", 50), 40)
	if !utf8.ValidString(u) || len(u) > 40 {
		t.Errorf("Shorten cut a rune: %q", u)
	}
	s := NewScope()
	s.MaxLen = 40
	if n1, n2 := s.Unique(a), s.Unique(a); n1 == n2 || len(n2) > 40 {
		t.Errorf("Unique: %q, %q", n1, n2)
	}
}
