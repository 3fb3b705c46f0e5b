package ir

import "strconv"

// maxToolName is runtime.MaxNameLen, spelled out: the runtime imports
// this package's users, not this package.
const maxToolName = 64

// FacadeNames returns the facades surface's tool name for each of
// f.Groups, in order. A facade is named after its group unless a family
// tool already has that name, in any group (the tool would clash with
// the facade in its own group, and be shadowed by it once its group
// unfolds in another), or the name is longer than the 64 bytes a tool
// name may have. Such a facade is named group_tools, or group_tools_2,
// group_tools_3, ... when that is taken too (by a tool or by another
// facade), with the group cut short so the name fits.
func (f *Family) FacadeNames() []string {
	taken := make(map[string]bool, len(f.Tools)+len(f.Groups))
	for _, t := range f.Tools {
		taken[t.Name] = true
	}
	out := make([]string, len(f.Groups))
	// Groups keep their own names first, so a renamed facade never
	// takes a later group's name.
	for i, g := range f.Groups {
		if len(g.Name) <= maxToolName && !taken[g.Name] {
			out[i] = g.Name
		}
	}
	for _, name := range out {
		taken[name] = true
	}
	// next remembers the first suffix number to try per base, so many
	// groups cut to one base stay linear.
	next := map[string]int{}
	for i, g := range f.Groups {
		if out[i] != "" {
			continue
		}
		base := g.Name
		// Room for "_tools_" and a six-digit number.
		if room := maxToolName - len("_tools_") - 6; len(base) > room {
			base = base[:room]
		}
		base += "_tools"
		for n := max(next[base], 1); ; n++ {
			name := base
			if n > 1 {
				name += "_" + strconv.Itoa(n)
			}
			if !taken[name] {
				out[i] = name
				taken[name] = true
				next[base] = n + 1
				break
			}
		}
	}
	return out
}
