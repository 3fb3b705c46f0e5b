package check

import (
	"testing"
	"time"
)

func TestParseDateTime(t *testing.T) {
	for _, c := range []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2024-02-29T12:30:45Z", time.Date(2024, 2, 29, 12, 30, 45, 0, time.UTC), true},
		{"2024-02-29t12:30:45z", time.Date(2024, 2, 29, 12, 30, 45, 0, time.UTC), true},
		{"2024-02-29T12:30:45.123456789123+02:00", time.Date(2024, 2, 29, 10, 30, 45, 123456789, time.UTC), true},
		{"2024-02-29T12:30:45.5-05:30", time.Date(2024, 2, 29, 18, 0, 45, 500000000, time.UTC), true},
		{"1998-12-31T23:59:60Z", time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"1998-12-31T15:59:60-08:00", time.Date(1999, 1, 1, 0, 0, 0, 0, time.UTC), true},
		{"1998-12-31T22:59:60Z", time.Time{}, false},
		{"2023-02-29T00:00:00Z", time.Time{}, false},
		{"2024-01-01 00:00:00Z", time.Time{}, false},
		{"2024-01-01T00:00:00", time.Time{}, false},
		{"", time.Time{}, false},
	} {
		got, ok := ParseDateTime(c.in)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("ParseDateTime(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if got, _ := ParseDateTime("2024-01-01T00:00:00Z"); got.Location() != time.UTC {
		t.Errorf("Z gives %v, want UTC", got.Location())
	}
	if got, _ := ParseDateTime("2024-01-01T00:00:00+01:00"); got.Format(time.RFC3339) != "2024-01-01T00:00:00+01:00" {
		t.Errorf("offset kept as %s", got.Format(time.RFC3339))
	}
}

func TestParseDate(t *testing.T) {
	got, ok := ParseDate("2024-02-29")
	if !ok || !got.Equal(time.Date(2024, 2, 29, 0, 0, 0, 0, time.UTC)) || FormatDate(got) != "2024-02-29" {
		t.Errorf("ParseDate = %v, %v", got, ok)
	}
	for _, bad := range []string{"2023-02-29", "2024-2-29", "2024-02-29T00:00:00Z", ""} {
		if _, ok := ParseDate(bad); ok {
			t.Errorf("ParseDate(%q) accepted", bad)
		}
	}
}
