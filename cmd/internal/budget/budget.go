package budget

import (
	"fmt"
	"os"
	"sync"

	"commlab/engine/cost"
)

// Seconds is the commands' time budget: a run estimated at more than 10
// minutes of engine time is refused unless forced. The full report's
// sweeps run for minutes in all, but no single eval should.
const Seconds = 600

// FallbackMemory is the machine's memory assumed when /proc/meminfo cannot
// be read (not Linux): 8 GB, so the budget is 4 GB.
const FallbackMemory = 8e9

// memory is the smallest limit of this process, read once: the address
// space mapped grows as the command runs, and the budget is for the run
// ahead of it.
var memory = sync.OnceValue(func() Limit { return Machine{FS: os.DirFS("/"), Rlimit: rlimit}.Memory() })

// CLI is the commands' budget: half of the memory this process may use
// (see the package comment), Seconds of engine time. With force it is
// cost.Unlimited.
func CLI(force bool) cost.Budget {
	if force {
		return cost.Unlimited
	}
	return Of(memory())
}

// Of is the commands' budget under l: half of it, Seconds of engine time.
func Of(l Limit) cost.Budget {
	return cost.Budget{Name: "the command", Bytes: l.Bytes / 2, Seconds: Seconds, Force: "-force", Basis: "half of " + l.String()}
}

// Describe says what the budget is, for usage lines: "half of the 25.3 GB
// of MemTotal (/proc/meminfo) and 10 min of engine time".
func Describe() string {
	return fmt.Sprintf("half of %s and %s of engine time", memory(), cost.Duration(Seconds))
}

// ReadLimit is how many bytes a command reads of one input of unknown size
// (a pipe, a device, a file) before refusing it (internal/boundedio): the
// budget's memory, or with force all the memory this process may use,
// past which the read would end the process anyway.
func ReadLimit(force bool) int64 {
	l := memory()
	if force {
		return int64(l.Bytes)
	}
	return int64(l.Bytes / 2)
}
