package export

import (
	"bytes"
	"fmt"
	"testing"

	"commlab/engine/goal"
	"commlab/engine/logp"
)

// The LogP executor (engine/logp) and the GOAL executor agree on the
// standard collectives when the machine is LogP (1-byte messages, G = O
// = 0): same schedule, same end, to the nanosecond.
func TestAgainstLogPExecutor(t *testing.T) {
	for _, c := range []struct {
		name string
		prog func(int) (*logp.Program, error)
		P    int
		m    logp.Machine
	}{
		{"broadcast", logp.BinomialBroadcast, 1000, logp.Machine{L: 2500, O: 1500, Gap: 1000}},
		{"broadcast", logp.BinomialBroadcast, 4096, logp.Machine{L: 300, O: 200, Gap: 700}},
		{"barrier", logp.DisseminationBarrier, 1024, logp.Machine{L: 2500, O: 1500, Gap: 1000}},
		{"barrier", logp.DisseminationBarrier, 777, logp.Machine{L: 100, O: 40, Gap: 30}},
	} {
		prog, err := c.prog(c.P)
		if err != nil {
			t.Fatal(err)
		}
		var e logp.Executor
		want := e.Run(prog, c.m, logp.Noise{})
		var buf bytes.Buffer
		if err := Program(&buf, prog, 1); err != nil {
			t.Fatal(err)
		}
		_, r := run(t, buf.Bytes(), goal.Params{L: int64(c.m.L), Overhead: int64(c.m.O), Gap: int64(c.m.Gap), S: 1 << 20})
		if float64(r.End) != want {
			t.Errorf("%s P=%d: GOAL %d ns, LogP executor %g", c.name, c.P, r.End, want)
		}
	}
}

// BenchmarkAgainstLogPExecutor runs the same schedules on both executors
// in one process, so their ratio holds on a busy machine too.
func BenchmarkAgainstLogPExecutor(b *testing.B) {
	for _, c := range []struct {
		name string
		prog func(int) (*logp.Program, error)
		P    int
	}{
		{"barrier", logp.DisseminationBarrier, 1024},
		{"broadcast", logp.BinomialBroadcast, 4096},
		{"barrier", logp.DisseminationBarrier, 65536},
	} {
		prog, err := c.prog(c.P)
		if err != nil {
			b.Fatal(err)
		}
		m := logp.Machine{L: 2500, O: 1500, Gap: 1000}
		var buf bytes.Buffer
		if err := Program(&buf, prog, 1); err != nil {
			b.Fatal(err)
		}
		s, err := goal.Read(&buf, "b", goal.ReadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		gp := goal.Params{L: 2500, Overhead: 1500, Gap: 1000, S: 1 << 20}
		b.Run(fmt.Sprintf("%s/P=%d/logp", c.name, c.P), func(b *testing.B) {
			var e logp.Executor
			for b.Loop() {
				e.Run(prog, m, logp.Noise{})
			}
			b.ReportMetric(float64(len(prog.Ops))*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
		b.Run(fmt.Sprintf("%s/P=%d/goal", c.name, c.P), func(b *testing.B) {
			var x goal.Executor // reused, as the logp side's
			for b.Loop() {
				if _, err := x.Run(s, gp, goal.Noise{}, goal.Options{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.NumOps())*float64(b.N)/b.Elapsed().Seconds(), "ops/s")
		})
	}
}
