package schema

import (
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/schema/ir"
	"github.com/toolgen-go/toolgen/schema/manifest"
)

// mapFormat records the representation the options ask for on a string
// type with a format.
func (c *compiler) mapFormat(t *ir.Type) {
	if t.Kind != ir.KindString || t.Format == "" {
		return
	}
	if c.formats[t.Format] == manifest.FormatTargetTime {
		t.Repr = ir.ReprTime
	}
}

// timeText reports whether s is valid for a format mapped to time.Time,
// as the generated decoder will parse it (defaults are checked with it).
func timeText(format, s string) bool {
	switch format {
	case "date":
		_, err := time.Parse(time.DateOnly, s)
		return err == nil && len(s) == len(time.DateOnly)
	case "date-time":
		if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
			return false
		}
		s = s[:10] + "T" + strings.Replace(s[11:], "z", "Z", 1)
		if len(s) > 19 && s[17:19] == "60" {
			// A leap second parses as 23:59:60 UTC; time.Parse rejects
			// second 60, so check the rest with :59.
			s = s[:17] + "59" + s[19:]
		}
		_, err := time.Parse(time.RFC3339Nano, s)
		return err == nil
	}
	return true
}
