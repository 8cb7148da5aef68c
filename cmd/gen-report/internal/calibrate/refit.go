package calibrate

import (
	"fmt"

	"commlab/engine/mmdl"
)

// Params are the two software parameters the paper refits (Table 3), in
// mmdl.Instance's units: Compute in millions of clocks per task (0.1 =
// 100 K clocks), Comm in megabytes per task (0.003 = 3 KB).
type Params struct {
	Compute float64 `json:"compute"`
	Comm    float64 `json:"comm"`
}

// Fit is a refit and what it rests on. A run without transfers (a
// balanced load) says nothing about Comm: it is then carried over from the
// instance, and TransferVectors is 0.
type Fit struct {
	Params
	ComputeVectors  int `json:"compute_vectors"`  // tasks computed
	TransferVectors int `json:"transfer_vectors"` // tasks moved
	Transfers       int `json:"transfers"`        // messages
}

// Refit applies the paper's eq. (1) and (2) to executed operations:
//
//	compute parameter = compute time (s) x CPU clock (MHz)      per task (1)
//	comm parameter    = transfer time (s) x throughput (MB/s)   per task (2)
//
// summed over all operations before dividing by the tasks (so it is the
// task-weighted mean of each operation's own value). The transfer time is
// the measured one less the latency in.Latency that every message pays:
// latency is a hardware parameter the paper holds fixed, eq. (2) is about
// the bytes. Each transfer counts once (its Send record). Throughput in
// MB/s is in.Throughput / 8e6.
func Refit(in mmdl.Instance, ops []Record) (Fit, error) {
	var clocks, wire float64
	f := Fit{Params: Params{Comm: in.Comm}}
	for k, r := range ops {
		switch r.Planned.Kind {
		case mmdl.Compute:
			p := r.Planned.Proc
			if p < 0 || p >= len(in.MHz) {
				return Fit{}, fmt.Errorf("calibrate: op %d: processor %d, want [0, %d)", k, p, len(in.MHz))
			}
			clocks += r.Duration * in.MHz[p]
			f.ComputeVectors += r.Vectors
		case mmdl.Send:
			wire += r.Duration - in.Latency
			f.TransferVectors += r.Vectors
			f.Transfers++
		}
	}
	if f.ComputeVectors == 0 {
		return Fit{}, fmt.Errorf("calibrate: no task was computed, eq. (1) has nothing to fit")
	}
	f.Compute = clocks / float64(f.ComputeVectors)
	if f.TransferVectors > 0 {
		if wire <= 0 {
			return Fit{}, fmt.Errorf("calibrate: %d transfers took %g s less than their latency (%g s each) in all", f.Transfers, -wire, in.Latency)
		}
		f.Comm = wire * (in.Throughput / 8e6) / float64(f.TransferVectors)
	}
	return f, nil
}
