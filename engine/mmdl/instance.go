package mmdl

import (
	"fmt"
	"strconv"
	"strings"

	"commlab/engine/param"
)

// Limits on an Instance, so that a typo cannot allocate the machine away.
const (
	MaxProcs = 100_000
	MaxTasks = 1e12
)

// Instance is one MMDL problem: the processors, their initial loads and
// the task's and network's parameters. See the package doc for the units.
type Instance struct {
	// MHz is each processor's clock rate in MHz.
	MHz []float64 `json:"mhz" help:"clock rate per processor, MHz (comma-separated)"`
	// Tasks is each processor's initial load l_i in unit tasks.
	Tasks []float64 `json:"tasks" help:"initial unit tasks per processor (comma-separated)"`
	// Compute is millions of clock cycles per task (0.1 = 100 K clocks);
	// γ_i = Compute/MHz_i seconds.
	Compute float64 `json:"compute" help:"compute parameter: 10^6 clocks per task (0.1 = 100 K clocks)"`
	// Comm is megabytes per task (0.003 = 3 KB); β = Comm·8e6/Throughput
	// seconds.
	Comm float64 `json:"comm" help:"communication parameter: MB per task (0.003 = 3 KB)"`
	// Latency is α, seconds per message.
	Latency float64 `json:"latency" help:"start-up latency α per message, s"`
	// Throughput is the network's bit rate, bit/s.
	Throughput float64 `json:"throughput" help:"network throughput, bit/s"`
}

func fmtF(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// Validate reports the first field outside its range, naming it (and the
// processor, as mhz[3]).
func (in Instance) Validate() error {
	p := len(in.MHz)
	if p < 1 || p > MaxProcs {
		return &param.Error{Field: "mhz", Value: fmt.Sprintf("%d entries", p), Want: fmt.Sprintf("one clock rate per processor, 1 to %d processors", MaxProcs)}
	}
	if len(in.Tasks) != p {
		return &param.Error{Field: "tasks", Value: fmt.Sprintf("%d entries", len(in.Tasks)), Want: fmt.Sprintf("one load per processor: as many as mhz (%d)", p)}
	}
	for i, f := range in.MHz {
		// From 1 MHz: below it γ = compute/MHz can overflow float64.
		if !(f >= 1 && f <= 1e6) {
			return &param.Error{Field: fmt.Sprintf("mhz[%d]", i), Value: fmtF(f), Want: "a clock rate in [1, 1e6] MHz"}
		}
	}
	for i, l := range in.Tasks {
		if !(l >= 0 && l <= MaxTasks) {
			return &param.Error{Field: fmt.Sprintf("tasks[%d]", i), Value: fmtF(l), Want: fmt.Sprintf("a load in [0, %g] tasks", MaxTasks)}
		}
	}
	switch {
	case !(in.Compute > 0 && in.Compute <= 1e6):
		return &param.Error{Field: "compute", Value: fmtF(in.Compute), Want: "10^6 clocks per task in (0, 1e6]"}
	case !(in.Comm >= 0 && in.Comm <= 1e6):
		return &param.Error{Field: "comm", Value: fmtF(in.Comm), Want: "MB per task in [0, 1e6]"}
	case !(in.Latency >= 0 && in.Latency <= 1e3):
		return &param.Error{Field: "latency", Value: fmtF(in.Latency), Want: "seconds in [0, 1000]"}
	case !(in.Throughput >= 1 && in.Throughput <= 1e15): // from 1 bit/s, as mhz from 1: β stays finite
		return &param.Error{Field: "throughput", Value: fmtF(in.Throughput), Want: "bit/s in [1, 1e15]"}
	}
	return nil
}

// Procs is the number of processors.
func (in Instance) Procs() int { return len(in.MHz) }

// Gamma is γ_i, the seconds processor i takes per task: Compute/MHz_i.
func (in Instance) Gamma(i int) float64 { return in.Compute / in.MHz[i] }

// Beta is β, the seconds one task occupies both ends of a transfer:
// Comm·10^6 bytes·8 / Throughput.
func (in Instance) Beta() float64 { return in.Comm * 8e6 / in.Throughput }

// TotalTasks is Σ l_i.
func (in Instance) TotalTasks() float64 {
	var n float64
	for _, l := range in.Tasks {
		n += l
	}
	return n
}

// Loads names the paper's initial load patterns (Table 2), in its order.
var Loads = []string{"1", "2", "3-a", "3-b", "4"}

// ProcSets are the paper's processor sets (Table 1), in MHz, by number.
var ProcSets = map[int][]float64{
	1: {2400, 2400, 2400, 2400, 2400, 2400, 2400, 2400},
	2: {2400, 2400, 2400, 2400, 2400, 2400, 2000, 2000},
}

// loadTable is the paper's Table 2: 600,000 vectors in all.
var loadTable = map[string][]float64{
	"1":   {75000, 75000, 75000, 75000, 75000, 75000, 75000, 75000},
	"2":   {40000, 50000, 60000, 70000, 80000, 90000, 100000, 110000},
	"3-a": {125000, 125000, 125000, 125000, 25000, 25000, 25000, 25000},
	"3-b": {25000, 25000, 25000, 25000, 125000, 125000, 125000, 125000},
	"4":   {120000, 120000, 120000, 120000, 120000, 0, 0, 0},
}

// The paper's parameters (Section 4.2, Table 3).
const (
	ComputeBefore = 0.1    // 100 K clocks per task, the first guess
	CommBefore    = 0.003  // 3 KB per task
	ComputeAfter  = 0.294  // refitted from the first run, eq. (1)
	CommAfter     = 0.0034 // refitted, eq. (2); 3.36 KB by counting bytes
	PaperLatency  = 100e-6 // 100 µs
	PaperBitRate  = 800e6  // 800 Mbit/s
)

// Preset is the paper's instance for ProcSet procset (1 or 2) and Load load
// (one of Loads), with the parameters before or after calibration.
func Preset(procset int, load string, calibrated bool) (Instance, error) {
	mhz, ok := ProcSets[procset]
	if !ok {
		return Instance{}, &param.Error{Field: "procset", Value: strconv.Itoa(procset), Want: "1 or 2"}
	}
	tasks, ok := loadTable[load]
	if !ok {
		return Instance{}, &param.Error{Field: "load", Value: strconv.Quote(load), Want: `one of "` + strings.Join(Loads, `", "`) + `"`}
	}
	in := Instance{
		MHz: append([]float64(nil), mhz...), Tasks: append([]float64(nil), tasks...),
		Compute: ComputeBefore, Comm: CommBefore, Latency: PaperLatency, Throughput: PaperBitRate,
	}
	if calibrated {
		in.Compute, in.Comm = ComputeAfter, CommAfter
	}
	return in, nil
}
