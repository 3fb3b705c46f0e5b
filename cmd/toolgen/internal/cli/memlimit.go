package cli

import (
	"math"
	"os"
	"runtime/debug"

	"github.com/toolgen-go/toolgen/schema/load"
)

// Large inputs run under a soft memory limit of memoryPerInputByte times
// their size (measured: the front end's live heap peaks at 19 times the
// size of the 10,000 synthetic tools' JSON, 23 times on 4,329
// ACEBench-like tools). Without it the collector lets the heap grow to
// twice its live size, so the front end's peak live heap set the run's
// peak RSS; with it the collector runs more often near the peak instead.
// It is a soft limit: a heap that needs more still gets it, at the cost
// of more collections. GOMEMLIMIT, when set, wins.
//
// Under that limit the collector is also triggered less often, at
// gcPercentUnderLimit: while a catalogue is parsed and compiled nearly
// all the heap stays live, so each doubling's collection (GOGC 100: seven
// on the 10,000 synthetic tools) marks it all and frees little, and the
// limit, not the trigger, bounds the peak. Measured on 10,000 tools:
// five collections instead of seven, medians of 1.74–1.77 s instead of
// 1.82–1.85 s, a peak RSS within 10 MB; on 4,329 ACEBench-like tools
// 1.14–1.17 s instead of 1.21–1.27 s, the same peak. Without a limit
// (smaller inputs) it would raise the peak instead (ACEBench in strict
// mode: 171 MB instead of 139 MB, and slower), so it goes with the limit.
// GOGC, when set, wins.
const (
	memoryLimitFrom     = 4 << 20
	memoryPerInputByte  = 36
	gcPercentUnderLimit = 200
)

// limitMemory sets the soft memory limit, and the collector's trigger
// under it, for inputs of large total size.
func limitMemory(inputs []load.Input) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	var n int64
	for _, in := range inputs {
		n += int64(len(in.Data))
	}
	if n < memoryLimitFrom || n > math.MaxInt64/memoryPerInputByte {
		return
	}
	debug.SetMemoryLimit(n * memoryPerInputByte)
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(gcPercentUnderLimit)
	}
}
