package manifest

import (
	"fmt"
	"slices"
	"sort"
	"strings"
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

// CheckFormats reports a mapping the compiler cannot apply (a format or target
// not in FormatTargets). The manifest reports the same problems located.
func CheckFormats(formats map[string]string) error {
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
