// Package budget is the commands' budget for one run (gen-report eval and
// topology, gen-anim): about half the machine's memory and 10 minutes of
// engine time, checked against a model's estimate (engine/cost) before the
// run allocates anything; -force lifts it.
package budget

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strconv"
	"strings"

	"commlab/engine/cost"
)

// Seconds is the commands' time budget: a run estimated at more than 10
// minutes of engine time is refused unless forced. The full report's
// sweeps run for minutes in all, but no single eval should.
const Seconds = 600

// FallbackMemory is the machine's memory assumed when /proc/meminfo cannot
// be read (not Linux): 8 GB, so the budget is 4 GB.
const FallbackMemory = 8e9

// CLI is the commands' budget: half of MemTotal from /proc/meminfo (or of
// FallbackMemory), Seconds of engine time. With force it is
// cost.Unlimited.
func CLI(force bool) cost.Budget {
	if force {
		return cost.Unlimited
	}
	mem, ok := machineMemory()
	name := "the command"
	if !ok {
		mem = FallbackMemory
	}
	return cost.Budget{Name: name, Bytes: mem / 2, Seconds: Seconds, Force: "-force"}
}

// Describe says what the budget is, for usage lines.
func Describe() string {
	mem, ok := machineMemory()
	src := "this machine's"
	if !ok {
		mem, src = FallbackMemory, "an assumed"
	}
	return fmt.Sprintf("half of %s %s memory and %s of engine time", src, cost.Bytes(mem), cost.Duration(Seconds))
}

func machineMemory() (float64, bool) {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0, false
	}
	return memTotal(b)
}

// memTotal reads "MemTotal: 24576000 kB" from /proc/meminfo's text.
func memTotal(b []byte) (float64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 3 && f[0] == "MemTotal:" && f[2] == "kB" {
			kb, err := strconv.ParseFloat(f[1], 64)
			if err != nil || !(kb > 0) {
				return 0, false
			}
			return kb * 1024, true
		}
	}
	return 0, false
}
