package nbc

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/engine/param"
)

// eventFactor and bytesFactor are how loose Estimate's bounds may be:
// measured ≤ Events ≤ eventFactor × measured and allocated ≤ Bytes ≤
// bytesFactor × allocated + the fixed 128 kB on every shape below. Bytes
// are looser than events: how many events wait at once depends on how the
// transfers and handshakes of many collectives interleave, which the
// estimate bounds without running them.
const (
	eventFactor = 8
	bytesFactor = 3
)

// adversarial are shapes that drive each term of Estimate to its worst:
// messages (many nodes and collectives, LibNBC's schedules, eager and
// rendezvous), rows (every thread testing after every row, a progress
// thread's interference and memory sharing on the largest matrix, many
// cores) and time slices (an oversubscribed core with Linux's shortest
// slice, free switches, slow memory), including issue 26's.
func adversarial() []struct {
	name string
	edit func(*Params)
} {
	return []struct {
		name string
		edit func(*Params)
	}{
		{"default", func(p *Params) {}},
		{"nodes=128 coll=16 tcc", func(p *Params) { p.Nodes, p.Collectives = 128, 16 }},
		{"nodes=128 coll=16 mpi all-at-once", func(p *Params) { p.Nodes, p.Collectives, p.Method, p.Alltoall = 128, 16, MPI, AllAtOnce }},
		{"nodes=128 coll=16 nbcf-test pairwise", func(p *Params) {
			p.Nodes, p.Collectives, p.Method, p.NBCAlltoall = 128, 16, NBCFTest, Pairwise
		}},
		{"nodes=128 coll=16 nbct eager", func(p *Params) { p.Nodes, p.Collectives, p.Method, p.Msg = 128, 16, NBCT, 1000 }},
		{"nodes=64 nbcf-notest", func(p *Params) { p.Nodes, p.Method = 64, NBCFNoTest }},
		{"nbcf-test all matrix=200000 nodes=2", func(p *Params) { p.Method, p.Matrix, p.Nodes = NBCFTest, 200000, 2 }},
		{"nbcf-test master matrix=200000 nodes=2", func(p *Params) {
			p.Method, p.Matrix, p.Nodes, p.TestThreads = NBCFTest, 200000, 2, TestMaster
		}},
		{"nbct interference matrix=200000 nodes=2", func(p *Params) {
			p.Method, p.Matrix, p.Nodes, p.PollInterference = NBCT, 200000, 2, 0.1
		}},
		{"tcc memory sharing matrix=200000 coll=16", func(p *Params) {
			p.Matrix, p.Nodes, p.Collectives, p.MemoryShare = 200000, 2, 16, true
		}},
		{"nbcf-test memory sharing cores=256", func(p *Params) {
			p.Method, p.Cores, p.Sockets, p.Matrix, p.MemoryShare = NBCFTest, 256, 16, 100000, true
		}},
		{"tcc oversubscribed slice=1e-4 switch=0 matrix=200000", func(p *Params) {
			p.Oversubscribe, p.TimeSlice, p.ContextSwitch, p.Matrix, p.Nodes = true, MinTimeSlice, 0, 200000, 2
		}},
		{"nbct oversubscribed slice=1e-4 nodes=128 coll=16 matrix=200000", func(p *Params) {
			p.Method, p.Oversubscribe, p.TimeSlice, p.ContextSwitch = NBCT, true, MinTimeSlice, 1e-9
			p.Nodes, p.Collectives, p.Matrix = 128, 16, 200000
		}},
		{"nbct oversubscribed slice=1e-4 slow memory", func(p *Params) {
			p.Method, p.Oversubscribe, p.TimeSlice, p.ContextSwitch = NBCT, true, MinTimeSlice, 0
			p.Nodes, p.Matrix, p.SocketBandwidth, p.CoreBandwidth, p.Msg = 2, 8000, 2e9, 2e9, 50e6
		}},
		{"tcc oversubscribed memory sharing interference", func(p *Params) {
			p.Oversubscribe, p.TimeSlice, p.MemoryShare, p.PollInterference = true, MinTimeSlice, true, 0.5
			p.Nodes, p.Matrix, p.Collectives = 4, 40000, 8
		}},
	}
}

// TestEstimateBoundsRun holds Estimate to what Run does on adversarial
// shapes: its events (counted exactly) within [1, eventFactor] times the
// run's, and its memory within [1, bytesFactor] times what Run allocates
// (plus the fixed 128 kB). It logs the engine time per event (the constants of
// cost.go come from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range adversarial() {
		p := Default()
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p)
		var took time.Duration
		var events int
		got := cost.Allocated(func() {
			t0 := time.Now()
			var err error
			if _, events, err = runCounted(p, nil, nil); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-62s events est %9.3g got %9.3g (×%.2f)  bytes est %9.3g got %9.3g (×%.2f)  time est %7.3g s took %7.3g s",
			c.name, est.Events, float64(events), est.Events/float64(events), est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds())
		if !(est.Events >= float64(events) && est.Events <= eventFactor*float64(events)) {
			t.Errorf("%s: estimate %g events, run handled %d: want within [1, %d]x", c.name, est.Events, events, eventFactor)
		}
		if !(est.Bytes >= cost.Under*got && est.Bytes <= bytesFactor*got+fixedBytes) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, %d]x (+%s)", c.name, cost.Bytes(est.Bytes), cost.Bytes(got), bytesFactor, cost.Bytes(fixedBytes))
		}
	}
}

// TestEstimateBoundsRandom draws small shapes across the whole parameter
// space (every method, switch and reading, times and rates over their
// ranges) and holds the bounds on each: events and bytes at least the
// run's.
func TestEstimateBoundsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(26, 1))
	logU := func(lo, hi float64) float64 { return lo * math.Pow(hi/lo, rng.Float64()) }
	n := 300
	if testing.Short() {
		n = 60
	}
	for i := range n {
		p := Default()
		p.Method = Methods[rng.IntN(len(Methods))]
		p.Nodes = 2 + rng.IntN(15)
		p.Collectives = 1 + rng.IntN(6)
		p.Matrix = int(logU(1, 20000))
		p.Msg = logU(1, 4e6)
		p.Cores = 2 + rng.IntN(31)
		p.Sockets = 1 + rng.IntN(min(p.Cores, 4))
		p.QueueCap = 1 + rng.IntN(4)
		p.TestEvery = int(logU(1, 100))
		p.TestThreads = []string{TestAll, TestMaster}[rng.IntN(2)]
		p.Alltoall = []string{Pairwise, AllAtOnce}[rng.IntN(2)]
		p.NBCAlltoall = []string{Pairwise, AllAtOnce}[rng.IntN(2)]
		p.Oversubscribe = rng.IntN(2) == 0
		p.MemoryShare = rng.IntN(2) == 0
		p.DMATraffic = rng.Float64()
		p.PollInterference = []float64{0, 0.05, 2}[rng.IntN(3)]
		p.TimeSlice = logU(MinTimeSlice, 1e-2)
		p.ContextSwitch = []float64{0, 3e-6, 1e-4}[rng.IntN(3)]
		p.Latency = logU(1e-7, 1e-4)
		p.Bandwidth = logU(1e8, 1e11)
		p.SocketBandwidth = logU(1e9, 1e11)
		p.CoreBandwidth = logU(1e9, 1e11)
		p.CopyBandwidth = logU(1e9, 1e11)
		p.EagerLimit = logU(1, 1e6)
		p.MutexHandoff = logU(1e-7, 1e-4)
		p.ThreadCreate = logU(1e-7, 1e-4)
		p.ProgressCall = logU(1e-8, 1e-5)
		if err := p.Validate(); err != nil {
			t.Fatalf("shape %d: %v", i, err)
		}
		est := Estimate(p)
		var events int
		var err error
		got := cost.Allocated(func() { _, events, err = runCounted(p, nil, nil) })
		if err != nil {
			t.Fatalf("shape %d %+v: %v", i, p, err)
		}
		if est.Events < float64(events) {
			t.Errorf("shape %d %+v: estimate %g events, run handled %d", i, p, est.Events, events)
		}
		if est.Bytes < cost.Under*got {
			t.Errorf("shape %d %+v: estimate %s, run allocated %s", i, p, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

// TestIssue26Refused: the inputs of issue 26 that ran out of memory are
// refused by Validate, naming time_slice; the same shapes at Linux's
// shortest slice run, within their estimate.
func TestIssue26Refused(t *testing.T) {
	for _, ts := range []float64{1e-9, 1e-300, 1e-7, MinTimeSlice * (1 - 1e-12)} {
		for _, m := range []Method{TCC, NBCT} {
			p := Default()
			p.Method, p.Oversubscribe, p.TimeSlice, p.ContextSwitch = m, true, ts, 0
			err := p.Validate()
			re, ok := err.(*param.Error)
			if !ok || re.Field != "time_slice" {
				t.Errorf("%s time_slice %g: %v, want a *param.Error on time_slice", m, ts, err)
			}
		}
	}
}
