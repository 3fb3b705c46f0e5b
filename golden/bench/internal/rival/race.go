//go:build race

package rival

// raceEnabled reports whether the race detector is on; it adds allocations
// that the allocation checks must not count.
const raceEnabled = true
