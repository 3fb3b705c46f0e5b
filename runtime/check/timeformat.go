package check

import "time"

// ParseDateTime parses an RFC 3339 date-time exactly as DateTime accepts
// it, for fields a manifest maps to time.Time (formats: {date-time: time}).
// Forms time.Parse rejects are normalised: a lowercase t or z, and a leap
// second (23:59:60 UTC), which becomes the first instant of the next day.
// Fractions beyond nanoseconds are truncated. A Z offset gives a UTC time,
// a numeric offset (-00:00 included) a fixed zone without a name.
func ParseDateTime(s string) (time.Time, bool) {
	if !DateTime(s) {
		return time.Time{}, false
	}
	y, _ := digits(s[0:4])
	mo, _ := digits(s[5:7])
	d, _ := digits(s[8:10])
	h, _ := digits(s[11:13])
	mi, _ := digits(s[14:16])
	sec, _ := digits(s[17:19])
	rest := s[19:]
	nsec := 0
	if rest[0] == '.' {
		i, scale := 1, 100000000
		for ; i < len(rest) && rest[i] >= '0' && rest[i] <= '9'; i++ {
			nsec += int(rest[i]-'0') * scale
			scale /= 10
		}
		rest = rest[i:]
	}
	loc := time.UTC
	if rest != "Z" && rest != "z" {
		oh, _ := digits(rest[1:3])
		om, _ := digits(rest[4:6])
		off := (oh*60 + om) * 60
		if rest[0] == '-' {
			off = -off
		}
		loc = time.FixedZone("", off)
	}
	// time.Date normalises second 60 into the next minute.
	return time.Date(y, time.Month(mo), d, h, mi, sec, nsec, loc), true
}

// ParseDate parses an RFC 3339 full-date (YYYY-MM-DD) as Date accepts it,
// as midnight UTC of that day.
func ParseDate(s string) (time.Time, bool) {
	if !Date(s) {
		return time.Time{}, false
	}
	y, _ := digits(s[0:4])
	mo, _ := digits(s[5:7])
	d, _ := digits(s[8:10])
	return time.Date(y, time.Month(mo), d, 0, 0, 0, 0, time.UTC), true
}

// FormatDate writes t's calendar day (in t's own location) as an RFC 3339
// full-date, the form ParseDate reads.
func FormatDate(t time.Time) string { return t.Format(time.DateOnly) }
