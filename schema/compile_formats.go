package schema

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/schema/ir"
)

// Format mapping targets (the values of the manifest's formats: key).
const (
	// FormatTargetString keeps a string whose format Validate checks (the
	// default).
	FormatTargetString = "string"
	// FormatTargetTime is a time.Time the generated decoder parses: RFC 3339
	// for date-time, midnight UTC for date.
	FormatTargetTime = "time"
)

// FormatTargets are the formats a manifest may map and, for each, the Go
// representations it may map to.
var FormatTargets = map[string][]string{
	"date-time": {FormatTargetString, FormatTargetTime},
	"date":      {FormatTargetString, FormatTargetTime},
}

// MappableFormats lists the keys of FormatTargets, sorted.
func MappableFormats() []string {
	out := make([]string, 0, len(FormatTargets))
	for k := range FormatTargets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// checkFormats reports a mapping Compile cannot apply (a format or target
// not in FormatTargets). The manifest reports the same problems located.
func checkFormats(formats map[string]string) error {
	keys := make([]string, 0, len(formats))
	for k := range formats {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		targets, ok := FormatTargets[k]
		if !ok {
			return fmt.Errorf("formats: format %q cannot be mapped; mappable formats are %s", k, strings.Join(MappableFormats(), ", "))
		}
		if !slices.Contains(targets, formats[k]) {
			return fmt.Errorf("formats: %s: unknown target %q; use one of %s", k, formats[k], strings.Join(targets, ", "))
		}
	}
	return nil
}

// mapFormat records the representation the options ask for on a string
// type with a format.
func (c *compiler) mapFormat(t *ir.Type) {
	if t.Kind != ir.KindString || t.Format == "" {
		return
	}
	if c.formats[t.Format] == FormatTargetTime {
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
