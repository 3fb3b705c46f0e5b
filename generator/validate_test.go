package generator

import "testing"

// Counts in validation messages agree with their noun.
func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n    int64
		noun string
		want string
	}{
		{1, "character", "1 character"},
		{0, "item", "0 items"},
		{2, "property", "2 properties"},
		{1, "property", "1 property"},
	} {
		if got := plural(c.n, c.noun); got != c.want {
			t.Errorf("plural(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
