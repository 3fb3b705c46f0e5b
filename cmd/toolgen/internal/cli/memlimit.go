package cli

import (
	"math"
	"os"
	"runtime/debug"

	"github.com/toolgen-go/toolgen/schema/load"
)

// Large inputs run under a soft memory limit of memoryPerInputByte times
// their size (measured: the front end's live heap peaks at about 21 times
// the size of the synthetic catalogue's JSON). Without it the collector
// lets the heap grow to twice its live size, so the front end's peak live
// heap set the run's peak RSS; with it the collector runs more often near
// the peak instead. It is a soft limit: a heap that needs more still gets
// it, at the cost of more collections. GOMEMLIMIT, when set, wins.
const (
	memoryLimitFrom    = 4 << 20
	memoryPerInputByte = 36
)

// limitMemory sets the soft memory limit for inputs of large total size.
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
}
