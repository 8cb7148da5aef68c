package goal

import (
	"fmt"

	"commlab/engine/cost"
)

// Fitted to what TestEstimateBoundsRun measures (go test -run
// EstimateBounds -v ./engine/goal/ logs it) and to the README's 2^20-rank
// run (2.6 GB of text, 63 M operations, 1.78 GB peak, 24.4 s): per byte of
// GOAL text read and run, bytes allocated and engine time; per operation
// recorded (critical path, trace), its records.
const (
	textBytes    = 1.7 // measured 1.6-2.1 (reserve included, touched or not)
	nsText       = 12  // measured 8-15 ns; the README's 2^20 run 9.4
	recordedOp   = 60  // per operation of the bound (one per 24 bytes)
	nsRecordedOp = 400
	// Running a schedule already read: its state per operation, and what
	// recording adds (TestEstimateBoundsRun's second measurement).
	runOp         = 23.5 // measured 12-23
	recordedRunOp = 95   // measured 110-111 in all with the run's own
	nsRunOp       = 150
)

// EstimateText is the cost of reading a GOAL text of size bytes and running
// it (recording every operation when record): known from the file's size
// before reading it. Reading reserves one operation per 24 bytes up front;
// the run's state is a few words per operation.
func EstimateText(size int64, record bool) cost.Cost {
	n := float64(size)
	ops := n / 24
	c := cost.Cost{
		Events:  ops,
		Bytes:   textBytes*n + 1<<20,
		Seconds: nsText * n * 1e-9,
		Key:     "f",
		Why:     fmt.Sprintf("a GOAL file of %s (up to %s operations)", cost.Bytes(n), cost.Num(ops)),
		Fit: func(over float64) string {
			return fmt.Sprintf("files up to about %s fit", cost.Bytes(n/cost.Scale(over, 1)))
		},
	}
	if record {
		c.Spans = ops
		c.Bytes += recordedOp * ops
		c.Seconds += nsRecordedOp * ops * 1e-9
	}
	return c
}

// EstimateRun is the cost of running a schedule already read, of ops
// operations, recording it when record (the page's schedule scene, which
// also lays out a bar per operation: about as much again).
func EstimateRun(ops int, record bool) cost.Cost {
	n := float64(ops)
	c := cost.Cost{
		Events:  n,
		Bytes:   runOp*n + 64<<10,
		Seconds: nsRunOp * n * 1e-9,
		Key:     "file",
		Why:     fmt.Sprintf("a schedule of %s operations", cost.Num(n)),
		Fit: func(over float64) string {
			return fmt.Sprintf("schedules up to about %s operations fit", cost.Num(n/cost.Scale(over, 1)))
		},
	}
	if record {
		c.Spans = n
		c.Bytes += recordedRunOp * n
		c.Seconds += nsRecordedOp * n * 1e-9
	}
	return c
}
