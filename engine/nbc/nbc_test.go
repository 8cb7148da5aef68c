package nbc

import (
	"errors"
	"flag"
	"fmt"
	"go/format"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"

	"commlab/engine/param"
	"commlab/engine/trace"
)

func run1(t *testing.T, p Params) (Result, *trace.Trace) {
	t.Helper()
	var tr trace.Trace
	r, err := Run(p, &tr)
	if err != nil {
		t.Fatal(err)
	}
	if err := trace.Validate(&tr); err != nil {
		t.Fatalf("%s: trace: %v", p.Method, err)
	}
	if err := ValidateHandles(r.Events); err != nil {
		t.Fatalf("%s: handles: %v", p.Method, err)
	}
	return r, &tr
}

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol*math.Max(math.Abs(a), math.Abs(b)) }

// TestPaperCases runs the paper's twelve bars and checks what holds for
// every one: valid traces and handle life cycles, the parts add up, the
// speedup is Baseline/Total and a method is its own baseline's speedup 1.
func TestPaperCases(t *testing.T) {
	for _, setup := range []func(Method) Params{Paper2Nodes, Paper32Nodes} {
		for _, m := range Methods {
			p := setup(m)
			r, tr := run1(t, p)
			if got := r.Compute + r.Comm - r.Overlap + r.Overhead; !near(got, r.Total, 1e-12) {
				t.Errorf("%d nodes %s: parts add to %g, total %g", p.Nodes, m, got, r.Total)
			}
			if r.Speedup != r.Baseline/r.Total {
				t.Errorf("%d nodes %s: speedup %g != baseline/total", p.Nodes, m, r.Speedup)
			}
			if m.Baseline() == m && r.Speedup != 1 {
				t.Errorf("%d nodes %s: its own baseline, speedup %g", p.Nodes, m, r.Speedup)
			}
			if r.Overlap < 0 || r.Overlap > r.Total {
				t.Errorf("%d nodes %s: overlap %g outside [0, total %g]", p.Nodes, m, r.Overlap, r.Total)
			}
			if want := p.ComputeThreads() + 1 + b2i(m.Threaded()); len(tr.Lanes) != want {
				t.Errorf("%s: %d lanes, want %d", m, len(tr.Lanes), want)
			}
			if len(tr.Messages) != 2*(p.Nodes-1) {
				t.Errorf("%s: %d messages, want %d (rank 0's sends and receives)", m, len(tr.Messages), 2*(p.Nodes-1))
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// small is two nodes, one row per thread-ish: a case to check by hand.
func small(m Method, msg float64) Params {
	p := Paper2Nodes(m)
	p.Msg, p.Matrix = msg, 64
	return p
}

// TestOneCollectiveByHand: MPI's blocking alltoall on 2 nodes. The local
// copy, then the receive and the send posted (one MPI call each); eager data
// leaves at once and arrives after d + L; a rendezvous first sends an RTS
// (L), the peer answers with a CTS (one call + L) and the data leaves after
// one more call.
func TestOneCollectiveByHand(t *testing.T) {
	for _, tc := range []struct {
		msg  float64
		want func(p Params) float64
	}{
		{1000, func(p Params) float64 {
			return p.Msg/p.CopyBandwidth + 2*p.MPICall + p.Msg/p.Bandwidth + p.Latency
		}},
		{1e6, func(p Params) float64 {
			return p.Msg/p.CopyBandwidth + 2*p.MPICall + p.Latency + p.MPICall + p.Latency + p.MPICall + p.Msg/p.Bandwidth + p.Latency
		}},
	} {
		p := small(MPI, tc.msg)
		r, _ := run1(t, p)
		if want := tc.want(p); !near(r.Comm, want, 1e-12) {
			t.Errorf("msg %g: comm %.9g, want %.9g", tc.msg, r.Comm, want)
		}
		if want := r.Comm + ComputeTime(p); !near(r.Total, want, 1e-12) {
			t.Errorf("msg %g: total %.9g, want comm + compute = %.9g", tc.msg, r.Total, want)
		}
		if r.Overlap != 0 {
			t.Errorf("msg %g: blocking MPI overlaps %g", tc.msg, r.Overlap)
		}
	}
}

// TestComputeTimeByHand: 4,000 rows over 2 ranks and 16 threads is 125 rows
// a thread, 4,000 × 8 B each at 5 GB/s (40 GB/s over 8 threads a socket).
func TestComputeTimeByHand(t *testing.T) {
	p := Paper2Nodes(MPI)
	if got, want := ComputeTime(p), 125*4000*8/5e9+p.ForkJoin; !near(got, want, 1e-12) {
		t.Errorf("16 threads: %g, want %g", got, want)
	}
	// 15 threads: 134 rows on a socket of 8 threads at 5 GB/s.
	p.Method = TCC
	if got, want := ComputeTime(p), 134*4000*8/5e9+p.ForkJoin; !near(got, want, 1e-12) {
		t.Errorf("15 threads: %g, want %g", got, want)
	}
}

// TestNoTestLosesOverlapAboveEagerLimit: without progress calls a
// rendezvous waits for NBC_Wait (no overlap, as slow as noovlp); an eager
// message moves by itself, hidden behind the computation, and saves the
// progress calls' cost.
func TestNoTestLosesOverlapAboveEagerLimit(t *testing.T) {
	for _, tc := range []struct {
		msg      float64
		overlaps bool
	}{{250e3, true}, {300e3, false}, {5e6, false}} {
		p := Paper2Nodes(NBCFNoTest)
		p.Msg = tc.msg
		notest, _ := run1(t, p)
		p.Method = NBCFTest
		test, _ := run1(t, p)
		if tc.overlaps {
			if d := p.Msg / p.Bandwidth; !(notest.Overlap >= d && notest.Total < test.Total && notest.Speedup > 1) {
				t.Errorf("eager %g B: notest overlap %g (transfer %g), total %g vs test %g: want notest overlapped", tc.msg, notest.Overlap, d, notest.Total, test.Total)
			}
		} else {
			// At most the RTS's flight is saved: it arrived during the compute.
			if !(notest.Total >= notest.Baseline-p.Latency-1e-12 && (tc.msg < 1e6 || test.Speedup > 1.2)) {
				t.Errorf("rendezvous %g B: notest %g vs noovlp %g, test speedup %g: want notest not overlapped, test overlapped", tc.msg, notest.Total, notest.Baseline, test.Speedup)
			}
			if notest.Overlap > 1e-5 {
				t.Errorf("rendezvous: notest overlap %g, want ~0", notest.Overlap)
			}
		}
	}
}

func countKind(evs []HandleEvent, k EventKind) int {
	n := 0
	for _, e := range evs {
		if e.Kind == k {
			n++
		}
	}
	return n
}

func at(evs []HandleEvent, h int, k EventKind) float64 {
	for _, e := range evs {
		if e.Handle == h && e.Kind == k {
			return e.Time
		}
	}
	return math.NaN()
}

// TestQueueCapacityOneBlocks: with one slot, the second handle waits until
// the progress thread takes the first, the third until the first is done
// and the second taken.
func TestQueueCapacityOneBlocks(t *testing.T) {
	p := Paper2Nodes(TCC)
	p.Collectives, p.QueueCap = 3, 1
	r, tr := run1(t, p)
	if n := countKind(r.Events, Block); n != 2 {
		t.Fatalf("%d block events, want 2 (handles 1 and 2)", n)
	}
	if at(r.Events, 0, Block) == at(r.Events, 0, Block) {
		t.Error("handle 0 blocked on an empty queue")
	}
	if e, d := at(r.Events, 2, Enqueue), at(r.Events, 0, Done); !(e >= d) {
		t.Errorf("handle 2 enqueued at %g before handle 0 is done at %g", e, d)
	}
	if e, d := at(r.Events, 1, Enqueue), at(r.Events, 0, Dequeue); e != d+p.MutexHandoff {
		t.Errorf("handle 1 enqueued at %g, want the dequeue of handle 0 (%g) + a hand-off", e, d)
	}
	found := false
	for _, s := range tr.Spans {
		found = found || s.Lane == 0 && s.Kind == trace.Idle && strings.Contains(s.Label, "queue full")
	}
	if !found {
		t.Error("no 'queue full' span on the main thread")
	}
	// A ring of 3 takes all three at once.
	p.QueueCap = 3
	r3, _ := run1(t, p)
	if n := countKind(r3.Events, Block); n != 0 {
		t.Errorf("queue of 3: %d blocks", n)
	}
	if r3.Total > r.Total {
		t.Errorf("a bigger queue is slower: %g > %g", r3.Total, r.Total)
	}
}

// TestTCCSerialisesInOrder: the progress thread runs one collective at a
// time, in issue order, and Finalize returns after the last is done.
func TestTCCSerialisesInOrder(t *testing.T) {
	p := Paper32Nodes(TCC)
	p.Collectives, p.QueueCap = 4, 2
	r, _ := run1(t, p)
	for h := 1; h < 4; h++ {
		if s, d := at(r.Events, h, Start), at(r.Events, h-1, Done); s < d {
			t.Errorf("handle %d starts at %g before %d is done at %g", h, s, h-1, d)
		}
		if s := at(r.Events, h, Enqueue); at(r.Events, h-1, Enqueue) > s {
			t.Error("out of order")
		}
	}
	fc, fr := at(r.Events, -1, FinalizeCall), at(r.Events, -1, FinalizeReturn)
	if !(fc >= at(r.Events, 3, WaitReturn) && fr == fc+2*p.MutexHandoff && fr >= at(r.Events, 3, Done)) {
		t.Errorf("finalize [%g, %g] vs last wait %g, last done %g", fc, fr, at(r.Events, 3, WaitReturn), at(r.Events, 3, Done))
	}
	if r.Total < fr {
		t.Errorf("total %g before finalize returns %g", r.Total, fr)
	}
}

// TestSeveralInFlight: LibNBC progresses several collectives at once, TCC
// one after the other, so the communication alone grows faster for TCC
// (latency-bound messages, where concurrency pays).
func TestSeveralInFlight(t *testing.T) {
	comm := func(m Method, k int) float64 {
		p := Paper32Nodes(m)
		p.Msg, p.Collectives = 1024, k
		r, _ := run1(t, p)
		return r.Comm
	}
	nbc, tcc := comm(NBCT, 8)/comm(NBCT, 1), comm(TCC, 8)/comm(TCC, 1)
	if !(tcc > nbc) {
		t.Errorf("8 in flight vs 1: NBCT ×%g, TCC ×%g: want TCC to grow more", nbc, tcc)
	}
}

// TestOversubscriptionCostsContextSwitches: 16 compute threads + the
// progress thread switch on the shared core; the switches cost time.
func TestOversubscriptionCostsContextSwitches(t *testing.T) {
	for _, m := range []Method{TCC, NBCT} {
		p := Paper32Nodes(m)
		p.Oversubscribe = true
		p.TimeSlice = 0.2e-3
		r, tr := run1(t, p)
		switches := 0
		for _, s := range tr.Spans {
			if s.Kind == trace.Stall && s.Label == "context switch" {
				switches++
				if s.Lane != p.Cores-1 || !near(s.End-s.Start, p.ContextSwitch, 1e-9) {
					t.Errorf("%s: switch span %+v", m, s)
				}
			}
		}
		if switches < 4 {
			t.Errorf("%s: %d context switches, want several (slice %g s)", m, switches, p.TimeSlice)
		}
		p.ContextSwitch = 0
		free, _ := run1(t, p)
		if !(r.Total > free.Total) {
			t.Errorf("%s: switches cost nothing: %g vs %g", m, r.Total, free.Total)
		}
		if p.ComputeThreads() != p.Cores {
			t.Errorf("oversubscribed: %d compute threads", p.ComputeThreads())
		}
	}
}

// TestMonotone: more bytes, more rows, more latency never make a run faster.
func TestMonotone(t *testing.T) {
	for _, m := range Methods {
		prev := 0.0
		for _, msg := range []float64{1e3, 1e4, 1e5, 3e5, 1e6, 5e6} {
			p := Paper2Nodes(m)
			p.Msg = msg
			r, _ := run1(t, p)
			if r.Total < prev {
				t.Errorf("%s: msg %g: total %g < %g at the smaller size", m, msg, r.Total, prev)
			}
			prev = r.Total
		}
		prev = 0
		for _, n := range []int{100, 1000, 4000, 8000} {
			p := Paper2Nodes(m)
			p.Matrix = n
			r, _ := run1(t, p)
			// NBCF-test sees the end of the collective at its next call:
			// a longer compute can move a call earlier by up to a row.
			if r.Total < prev*(1-1e-3) {
				t.Errorf("%s: matrix %d: total %g < %g", m, n, r.Total, prev)
			}
			prev = r.Total
		}
		prev = 0
		for _, l := range []float64{0, 1e-6, 1e-5, 1e-4} {
			p := Paper32Nodes(m)
			p.Latency = l
			r, _ := run1(t, p)
			if r.Total < prev {
				t.Errorf("%s: latency %g: total %g < %g", m, l, r.Total, prev)
			}
			prev = r.Total
		}
	}
}

// TestProgressCallFrequency: NBCF-test calls the progress function once per
// TestEvery of the main thread's rows (between them, not after the last).
func TestProgressCallFrequency(t *testing.T) {
	p := Paper2Nodes(NBCFTest) // 125 rows on the main thread
	for _, tc := range []struct{ every, calls int }{{1, 124}, {10, 12}, {125, 0}, {1000, 0}} {
		p.TestEvery = tc.every
		r, _ := run1(t, p)
		if n := countKind(r.Events, Progress); n != tc.calls {
			t.Errorf("test_every %d: %d progress calls, want %d", tc.every, n, tc.calls)
		}
	}
}

func TestDeterministic(t *testing.T) {
	for _, m := range Methods {
		p := Paper32Nodes(m)
		p.Collectives = 3
		a, ta := run1(t, p)
		b, tb := run1(t, p)
		if !reflect.DeepEqual(a, b) || !reflect.DeepEqual(ta, tb) {
			t.Errorf("%s: two runs differ", m)
		}
	}
}

var update = flag.Bool("update", false, "rewrite pinned_test.go with the current totals")

// pinnedCases are the runs TestPinned pins.
func pinnedCases() []struct {
	name string
	p    Params
	want float64
} {
	master := Paper32Nodes(NBCFTest)
	master.TestThreads = TestMaster
	interf := Paper2Nodes(NBCT)
	interf.PollInterference = 0.2
	shared := Paper2Nodes(TCC)
	shared.MemoryShare, shared.DMATraffic = true, 0.7
	shared32 := Paper32Nodes(NBCT)
	shared32.MemoryShare = true
	over := Paper32Nodes(TCC)
	over.Oversubscribe, over.TimeSlice, over.Collectives = true, 2e-4, 3
	return []struct {
		name string
		p    Params
		want float64
	}{
		{"pinned2TCC", Paper2Nodes(TCC), pinned2TCC},
		{"pinned32NBCF", Paper32Nodes(NBCFTest), pinned32NBCF},
		{"pinned32NBCFMaster", master, pinned32NBCFMaster},
		{"pinned2NBCTInterference", interf, pinned2NBCTInterference},
		{"pinned2TCCMemoryShare", shared, pinned2TCCMemoryShare},
		{"pinned32NBCTMemoryShare", shared32, pinned32NBCTMemoryShare},
		{"pinned32TCCOversubscribed", over, pinned32TCCOversubscribed},
	}
}

// TestPinned pins totals bit for bit (a change means the model changed, or
// its arithmetic differs between native and js/wasm). After a deliberate
// change of the model: go test ./engine/nbc -run TestPinned -update.
func TestPinned(t *testing.T) {
	var out strings.Builder
	out.WriteString("package nbc\n\n// Pinned totals (do not edit by hand: go test ./engine/nbc -run TestPinned -update).\nconst (\n")
	for _, tc := range pinnedCases() {
		r, err := Run(tc.p, nil)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "\t%s = %.17g\n", tc.name, r.Total)
		if !*update && r.Total != tc.want {
			t.Errorf("%s: total %.17g, pinned %.17g", tc.name, r.Total, tc.want)
		}
	}
	out.WriteString(")\n")
	if *update {
		src, err := format.Source([]byte(out.String()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile("pinned_test.go", src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		edit  func(*Params)
		field string
	}{
		{func(p *Params) { p.Nodes = 1 }, "nodes"},
		{func(p *Params) { p.Nodes = MaxNodes + 1 }, "nodes"},
		{func(p *Params) { p.Msg = 0 }, "msg"},
		{func(p *Params) { p.Msg = math.NaN() }, "msg"},
		{func(p *Params) { p.Matrix = 0 }, "matrix"},
		{func(p *Params) { p.Method = "nbc" }, "method"},
		{func(p *Params) { p.Collectives = 17 }, "collectives"},
		{func(p *Params) { p.Cores = 1 }, "cores"},
		{func(p *Params) { p.QueueCap = 0 }, "queue"},
		{func(p *Params) { p.TestEvery = 0 }, "test_every"},
		{func(p *Params) { p.Sockets = 17 }, "sockets"},
		{func(p *Params) { p.Alltoall = "ring" }, "alltoall"},
		{func(p *Params) { p.NBCAlltoall = "" }, "nbc_alltoall"},
		{func(p *Params) { p.Latency = -1e-6 }, "latency"},
		{func(p *Params) { p.MutexHandoff = math.Inf(1) }, "mutex_handoff"},
		{func(p *Params) { p.TimeSlice = 0 }, "time_slice"},
		{func(p *Params) { p.Bandwidth = 0 }, "bandwidth"},
		{func(p *Params) { p.CopyBandwidth = -1 }, "copy_bandwidth"},
		{func(p *Params) { p.EagerLimit = -1 }, "eager_limit"},
		{func(p *Params) { p.ElemBytes = 0 }, "elem_bytes"},
		{func(p *Params) { p.TestThreads = "every" }, "test_threads"},
		{func(p *Params) { p.PollInterference = -0.1 }, "poll_interference"},
		{func(p *Params) { p.PollInterference = math.NaN() }, "poll_interference"},
		{func(p *Params) { p.PollInterference = MaxPollInterference + 1 }, "poll_interference"},
	} {
		p := Default()
		tc.edit(&p)
		_, err := Run(p, nil)
		var re *param.Error
		if !errors.As(err, &re) || re.Field != tc.field {
			t.Errorf("%s: got %v, want a *param.Error on %s", tc.field, err, tc.field)
		}
	}
	if err := Default().Validate(); err != nil {
		t.Error(err)
	}
}

// TestValidateHandlesCatches breaks a good TCC life cycle in each way the
// validator names.
func TestValidateHandlesCatches(t *testing.T) {
	p := Paper2Nodes(TCC)
	p.Collectives, p.QueueCap = 3, 2
	good, _ := run1(t, p)
	edit := func(f func([]HandleEvent) []HandleEvent) []HandleEvent {
		return f(append([]HandleEvent(nil), good.Events...))
	}
	drop := func(h int, k EventKind) func([]HandleEvent) []HandleEvent {
		return func(evs []HandleEvent) []HandleEvent {
			for i, e := range evs {
				if e.Handle == h && e.Kind == k {
					return append(evs[:i], evs[i+1:]...)
				}
			}
			t.Fatalf("no %s of %d", k, h)
			return nil
		}
	}
	for name, evs := range map[string][]HandleEvent{
		"missing wait-return": edit(drop(1, WaitReturn)),
		"missing dequeue":     edit(drop(2, Dequeue)),
		"missing done":        edit(drop(0, Done)),
		"twice started": edit(func(evs []HandleEvent) []HandleEvent {
			last := evs[len(evs)-1]
			return append(evs, HandleEvent{Time: last.Time, Handle: 1, Kind: Start, Slot: -1})
		}),
		"wrong slot": edit(func(evs []HandleEvent) []HandleEvent {
			for i := range evs {
				if evs[i].Kind == Dequeue && evs[i].Handle == 1 {
					evs[i].Slot++
				}
			}
			return evs
		}),
		"time goes back": edit(func(evs []HandleEvent) []HandleEvent {
			evs[len(evs)-1].Time = -1
			return evs
		}),
		"handle skipped": edit(func(evs []HandleEvent) []HandleEvent {
			for i := range evs {
				if evs[i].Handle == 2 {
					evs[i].Handle = 3
				}
			}
			return evs
		}),
	} {
		if err := ValidateHandles(evs); err == nil {
			t.Errorf("%s: not caught", name)
		}
	}
	// Two handles run at once: the progress thread would have started
	// handle 1 before handle 0 was done.
	var evs []HandleEvent
	for i, e := range []struct {
		h int
		k EventKind
	}{{0, Issue}, {0, Enqueue}, {0, Dequeue}, {0, Start}, {1, Issue}, {1, Enqueue}, {1, Dequeue}, {1, Start},
		{0, Done}, {1, Done}, {0, WaitCall}, {0, WaitReturn}, {1, WaitCall}, {1, WaitReturn}} {
		slot := -1
		if e.k == Enqueue || e.k == Dequeue {
			slot = e.h
		}
		evs = append(evs, HandleEvent{Time: float64(i), Handle: e.h, Kind: e.k, Slot: slot})
	}
	if err := ValidateHandles(evs); err == nil || !strings.Contains(err.Error(), "one collective at a time") {
		t.Errorf("two at once: got %v", err)
	}
	// Swapping 1's Start after 0's Done makes it valid.
	evs[7], evs[8] = evs[8], evs[7]
	evs[7].Time, evs[8].Time = 7, 8
	if err := ValidateHandles(evs); err != nil {
		t.Errorf("the fixed sequence: %v", err)
	}
}

// TestEveryThreadTests: with every compute thread calling NBC_Test once per
// outer-loop iteration, the calls serialise on the library's lock; with a
// call much longer than a row the lock sets the pace: every call but the
// threads' last runs one after another. The main thread alone pays only its
// own calls.
func TestEveryThreadTests(t *testing.T) {
	p := Paper2Nodes(NBCFTest) // 2,000 rows per rank on 16 threads
	p.ProgressCall, p.RequestTest = 20e-6, 0
	all, _ := run1(t, p)
	calls := float64(2000 - p.ComputeThreads())
	if lock := calls * p.ProgressCall; all.Total < lock {
		t.Errorf("all threads: total %g s, want at least the %g calls one after another, %g s", all.Total, calls, lock)
	}
	p.TestThreads = TestMaster
	master, _ := run1(t, p)
	if lock := 124 * p.ProgressCall; master.Total > all.Total/2 || master.Total < lock {
		t.Errorf("main thread only: total %g s, want between its own 124 calls (%g s) and half the all-threads total (%g s)", master.Total, lock, all.Total)
	}
	// The main thread's calls are the ones recorded, in both readings.
	if a, m := countKind(all.Events, Progress), countKind(master.Events, Progress); a != 124 || m != 124 {
		t.Errorf("progress events: %d (all), %d (master), want 124 each", a, m)
	}
}

// TestPollInterference: a polling progress thread slows the rows that start
// while it polls. With a transfer that outlasts the product (NBCT, 2 nodes,
// 20 MB) every row but the first starts under the poll (the first starts
// before the hand-off wakes the thread), so the product takes nearly 1 + ε
// as long, all of it hidden under the transfer: the overlap grows by ε
// times the slowest thread's rows but one. Where the product is as long as the transfer
// (TCC, 32 nodes) the total grows with ε. Methods without a progress
// thread ignore it.
func TestPollInterference(t *testing.T) {
	p := Paper2Nodes(NBCT)
	p.Msg = 20e6 // the transfer (3.3 ms) outlasts the product (0.86 ms)
	base, _ := run1(t, p)
	// The slowest thread is one of eight on a socket: 134 rows.
	row := float64(p.Matrix) * p.ElemBytes / (p.SocketBandwidth / 8)
	rows := ComputeTime(p) - p.ForkJoin - row
	for _, eps := range []float64{0.1, 0.5, 2} {
		p.PollInterference = eps
		r, _ := run1(t, p)
		if got := r.Overlap - base.Overlap; !near(got, eps*rows, 1e-9) {
			t.Errorf("ε %g: overlap grew %g s, want ε × 133 rows = %g s", eps, got, eps*rows)
		}
	}
	prev := 0.0
	for _, eps := range []float64{0, 0.1, 0.5, 2} {
		q := Paper32Nodes(TCC)
		q.PollInterference = eps
		r, _ := run1(t, q)
		if r.Total <= prev {
			t.Errorf("TCC 32 nodes, ε %g: total %g not above %g", eps, r.Total, prev)
		}
		prev = r.Total
	}
	for _, m := range []Method{MPI, NBCFNoOvlp, NBCFTest, NBCFNoTest} {
		q := Paper2Nodes(m)
		a, _ := run1(t, q)
		q.PollInterference = 1
		b, _ := run1(t, q)
		if a.Total != b.Total {
			t.Errorf("%s has no progress thread but poll_interference changed its total: %g → %g", m, a.Total, b.Total)
		}
	}
}
