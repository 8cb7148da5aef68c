package nbc

import (
	"fmt"

	"commlab/engine/cost"
)

// Fitted to what TestEstimateBoundsRun measures (go test -run
// EstimateBounds -v ./engine/nbc/ logs it): bytes allocated per message of
// the alltoalls (57-84 with MPI and TCC; about 1,000-1,400 with LibNBC's
// schedules) and per progress call or chunk of rows (about 8), and engine
// time per message (2-12 µs) and per call (0.8-2 µs) on one core of the
// development machine under a load of 10-17.
const (
	messageBytes       = 100
	libNBCMessageBytes = 1400
	callBytes          = 6
	fixedBytes         = 128 << 10
	nsMessage          = 3000
	libNBCnsMessage    = 6000
	nsCall             = 800
)

// Messages is the point-to-point messages of p's alltoalls: every node
// sends one to every other in each collective (eager or rendezvous, the
// protocol's extra steps are in the constants).
func Messages(p Params) float64 {
	n := float64(p.Nodes)
	return float64(p.Collectives) * n * (n - 1)
}

// Calls bounds the progress calls and chunks of rows the compute threads
// run as events: with NBCF-test, a call every TestEvery outer-loop
// iterations on every thread that calls it; otherwise a few per thread.
func Calls(p Params) float64 {
	n := float64(p.Nodes)
	rows := float64(p.Matrix)/n + 1
	threads := float64(p.ComputeThreads())
	if p.Method == NBCFTest {
		callers := threads
		if p.TestThreads == TestMaster {
			callers = 1
		}
		return n * callers * (rows/threads/float64(p.TestEvery) + 1)
	}
	return n * threads * 4
}

// Estimate is the cost of Run for p (valid).
func Estimate(p Params) cost.Cost {
	msgs, calls := Messages(p), Calls(p)
	perMsg, nsMsg := float64(messageBytes), float64(nsMessage)
	if p.Method.LibNBC() {
		perMsg, nsMsg = libNBCMessageBytes, libNBCnsMessage
	}
	c := cost.Cost{
		Events:  msgs + calls,
		Bytes:   perMsg*msgs + callBytes*calls + fixedBytes,
		Seconds: (nsMsg*msgs + nsCall*calls) * 1e-9,
		Key:     "nodes",
		Why:     fmt.Sprintf("nodes = %d with collectives = %d sends about %s messages", p.Nodes, p.Collectives, cost.Num(msgs)),
	}
	c.Fit = func(over float64) string {
		return fmt.Sprintf("lower collectives to at most %d or nodes to at most %d", max(1, int(float64(p.Collectives)/cost.Scale(over, 1))), max(2, int(float64(p.Nodes)/cost.Scale(over, 2))))
	}
	if calls > msgs {
		c.Key = "test_every"
		c.Why = fmt.Sprintf("nodes = %d with matrix = %d and test_every = %d makes about %s progress calls", p.Nodes, p.Matrix, p.TestEvery, cost.Num(calls))
		c.Fit = func(over float64) string {
			return fmt.Sprintf("raise test_every to at least %d or lower matrix to at most %d", int(float64(p.TestEvery)*cost.Scale(over, 1))+1, int(float64(p.Matrix)/cost.Scale(over, 1)))
		}
	}
	return c
}
