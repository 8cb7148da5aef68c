package calibrate

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sort"
	"testing"

	"commlab/engine/mmdl"
)

// tiny is the paper's ProcSet 2 with a small Load 2 (400 … 1100 vectors, a
// hundredth of the paper's) and the paper's first guesses.
func tiny(t *testing.T, load string, scale float64) mmdl.Instance {
	t.Helper()
	in, err := mmdl.Preset(2, load, false)
	if err != nil {
		t.Fatal(err)
	}
	for i := range in.Tasks {
		in.Tasks[i] = math.Round(in.Tasks[i] * scale)
	}
	return in
}

func schedule(t *testing.T, in mmdl.Instance, R int) *mmdl.Schedule {
	t.Helper()
	st, err := mmdl.SteadyState(in)
	if err != nil {
		t.Fatal(err)
	}
	s, err := mmdl.Rounds(in, st, R, mmdl.Overlap)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestExecuteTiny runs a small schedule for real and checks the record:
// every operation executed once; each processor's operations on the
// executed timeline in the schedule's order and never overlapping; both
// ends of a transfer at the same times; no compute before its vectors are
// there; every vector computed exactly once (the checksum of a serial
// computation).
func TestExecuteTiny(t *testing.T) {
	for _, wall := range []bool{false, true} {
		t.Run(fmt.Sprintf("wall=%v", wall), func(t *testing.T) { testExecuteTiny(t, wall) })
	}
}

func testExecuteTiny(t *testing.T, wall bool) {
	in := tiny(t, "2", 0.002) // 80 … 220 vectors, 1200 in all
	s := schedule(t, in, 3)
	ex, err := execute(context.Background(), in, s.Ops, wall)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[bool]string{false: ClockThreadCPU, true: ClockWall}[wall]; ex.clock != want && runtime.GOOS == "linux" {
		t.Errorf("timed by %q, want %q", ex.clock, want)
	}
	total := int(in.TotalTasks())
	if want := SerialChecksum(total); ex.checksum != want {
		t.Fatalf("checksum %#x, want %#x from a serial computation", ex.checksum, want)
	}
	if len(ex.records) < len(s.Ops) {
		t.Fatalf("%d records for %d operations", len(ex.records), len(s.Ops))
	}
	computed, moved := 0, 0
	byProc := make([][]int, in.Procs())
	for k, r := range ex.records {
		if k < len(s.Ops) && r.Planned != s.Ops[k] {
			t.Fatalf("record %d is %+v, want the schedule's op %+v", k, r.Planned, s.Ops[k])
		}
		if !(r.Duration >= 0) || r.End != r.Start+r.Duration || r.Start < 0 {
			t.Errorf("record %d: start %v, duration %v, end %v", k, r.Start, r.Duration, r.End)
		}
		switch r.Planned.Kind {
		case mmdl.Compute:
			computed += r.Vectors
		case mmdl.Send:
			moved += r.Vectors
			if wire := in.Latency + float64(r.Vectors)*3200*8/in.Throughput; r.Wire != wire || r.Duration < wire {
				t.Errorf("record %d: a transfer of %v s with a wire of %v s, want the wire %v s (%d vectors) and more", k, r.Duration, r.Wire, wire, r.Vectors)
			}
		}
		if math.Abs(float64(r.Vectors)-r.Planned.Tasks) > 1 && !r.Remainder {
			t.Errorf("record %d: %d vectors for %v scheduled tasks", k, r.Vectors, r.Planned.Tasks)
		}
		byProc[r.Planned.Proc] = append(byProc[r.Planned.Proc], k)
	}
	if computed != total {
		t.Errorf("%d vectors computed, want %d", computed, total)
	}
	if moved == 0 {
		t.Fatal("no vector moved: Load 2 must move some")
	}
	end := 0.0
	for p, ks := range byProc {
		// The records of a processor come in the schedule's order
		// (remainders last); the executed timeline must keep it.
		held := int(in.Tasks[p])
		for m, k := range ks {
			r := ex.records[k]
			if m > 0 && r.Start < ex.records[ks[m-1]].End {
				t.Errorf("P%d: op %d starts at %v before op %d ends at %v", p, k, r.Start, ks[m-1], ex.records[ks[m-1]].End)
			}
			switch r.Planned.Kind {
			case mmdl.Compute, mmdl.Send:
				held -= r.Vectors
			case mmdl.Recv:
				held += r.Vectors
				q := ex.records[k]
				// Find the matching send's times: same link, same
				// interval.
				found := false
				for _, j := range byProc[r.Planned.Peer] {
					o := ex.records[j]
					if o.Planned.Kind == mmdl.Send && o.Planned.Peer == p && o.Start == q.Start && o.End == q.End && o.Vectors == q.Vectors {
						found = true
					}
				}
				if !found {
					t.Errorf("P%d: receive %d has no send at the same times", p, k)
				}
			}
			if held < 0 {
				t.Errorf("P%d: op %d (%v) uses vectors it does not hold (%d)", p, k, r.Planned.Kind, held)
			}
			end = max(end, r.End)
		}
		if held != 0 {
			t.Errorf("P%d: %d vectors left uncomputed", p, held)
		}
	}
	if end != ex.makespan {
		t.Errorf("makespan %v, want the last end %v", ex.makespan, end)
	}
}

// TestVectorsMove runs Load 4, where processors 5, 6 and 7 start with
// nothing: they can only compute vectors whose bytes crossed a link, and
// the checksum proves those results are the right vectors' products.
func TestVectorsMove(t *testing.T) {
	in := tiny(t, "4", 0.002) // 240 vectors on each of P0-P4, none on P5-P7
	s := schedule(t, in, 2)
	ex, err := execute(context.Background(), in, s.Ops, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := SerialChecksum(int(in.TotalTasks())); ex.checksum != want {
		t.Fatalf("checksum %#x, want %#x", ex.checksum, want)
	}
	for p := 5; p < 8; p++ {
		n := 0
		for _, r := range ex.records {
			if r.Planned.Proc == p && r.Planned.Kind == mmdl.Compute {
				n += r.Vectors
			}
		}
		if n == 0 {
			t.Errorf("P%d started empty and computed nothing", p)
		}
	}
}

// TestEmulatedClock: beside a 2400 MHz host, a processor of f MHz
// multiplies 20·2400/f rows per vector on average (a 2000 MHz one 24: 20 and
// 4 repeated), the fraction carried from vector to vector.
func TestEmulatedClock(t *testing.T) {
	a := newMatrix()
	for _, c := range []struct{ mhz float64 }{{2400}, {2000}, {1600}, {2100}, {700}} {
		const n = 70
		w := &worker{a: a, extra: rows * (2400/c.mhz - 1), y: make([]float64, rows), z: make([]float64, rows),
			data: make([]float64, n*cols), ids: make([]int, n)}
		if got := w.compute(n, false); got != n {
			t.Fatalf("%v MHz: computed %d of %d", c.mhz, got, n)
		}
		// n·20·2400/f rows, less the fraction still carried.
		want := int(math.Floor(n*rows*2400/c.mhz + 1e-9))
		if w.rows != want && w.rows != want-1 {
			t.Errorf("%v MHz: %d rows for %d vectors, want %d", c.mhz, w.rows, n, want)
		}
	}
}

func TestExecuteRejectsBrokenSchedules(t *testing.T) {
	in := tiny(t, "2", 0.001)
	s := schedule(t, in, 2)
	var send int
	for k, op := range s.Ops {
		if op.Kind == mmdl.Send {
			send = k
			break
		}
	}
	drop := append(append([]mmdl.Op(nil), s.Ops[:send]...), s.Ops[send+1:]...)
	if _, err := execute(context.Background(), in, drop, false); err == nil {
		t.Error("a receive without its send: no error")
	}
	bad := append([]mmdl.Op(nil), s.Ops...)
	bad[send].Peer = bad[send].Proc
	if _, err := execute(context.Background(), in, bad, false); err == nil {
		t.Error("a send to itself: no error")
	}
	frac := in
	frac.Tasks = append([]float64(nil), in.Tasks...)
	frac.Tasks[0] += 0.5
	if _, err := execute(context.Background(), frac, s.Ops, false); err == nil {
		t.Error("half a vector: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := execute(ctx, in, s.Ops, false); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v, want context.Canceled", err)
	}
}

// TestRunLoop runs the whole loop on a small load: the After schedule uses
// exactly the Before refit, both passes are real, and the executed
// schedule keeps every operation.
func TestRunLoop(t *testing.T) {
	in, err := mmdl.Preset(2, "2", false)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(context.Background(), in, 5, Options{Scale: 0.002})
	if err != nil {
		t.Fatal(err)
	}
	if res.After.Params != res.Before.Fitted.Params {
		t.Errorf("after ran with %+v, want the before refit %+v", res.After.Params, res.Before.Fitted.Params)
	}
	if res.Before.Params != (Params{in.Compute, in.Comm}) {
		t.Errorf("before ran with %+v, want the instance's", res.Before.Params)
	}
	for _, p := range []Pass{res.Before, res.After} {
		if p.R != 5 || !(p.Measured > 0) || !(p.Predicted > 0) || !(p.Fitted.Compute > 0) || !(p.Fitted.Comm > 0) {
			t.Errorf("pass %+v", p)
		}
		ex := p.Executed()
		if len(ex.Ops) != len(p.Ops) || ex.Makespan != p.Measured {
			t.Errorf("executed schedule: %d ops, makespan %v; want %d, %v", len(ex.Ops), ex.Makespan, len(p.Ops), p.Measured)
		}
		if !sort.SliceIsSorted(ex.Ops, func(a, b int) bool { return ex.Ops[a].Proc < ex.Ops[b].Proc }) {
			t.Error("executed schedule: ops not processor by processor")
		}
	}
	if res.Instance.TotalTasks() != 1200 {
		t.Errorf("scaled load %v, want 1200", res.Instance.TotalTasks())
	}
}

// TestRemainder hand-builds a schedule that leaves vectors behind: P0
// sends 2 of its 5 and computes 1, and its last operation is the send, so
// 2 are computed as a remainder; P1 computes the 2 it received. 1.4 + 0.4
// scheduled tasks round cumulatively to 1 and 1 vectors.
func TestRemainder(t *testing.T) {
	in := mmdl.Instance{MHz: []float64{2400, 2000}, Tasks: []float64{5, 0}, Compute: 0.1, Comm: 0.003, Latency: 1e-4, Throughput: 800e6}
	ops := []mmdl.Op{
		{Proc: 0, Kind: mmdl.Compute, Peer: -1, Tasks: 1, Start: 0, End: 1},
		{Proc: 0, Kind: mmdl.Send, Peer: 1, Tasks: 2, Start: 1, End: 2},
		{Proc: 1, Kind: mmdl.Recv, Peer: 0, Tasks: 2, Start: 1, End: 2},
		{Proc: 1, Kind: mmdl.Compute, Peer: -1, Tasks: 1.4, Start: 2, End: 3},
		{Proc: 1, Kind: mmdl.Compute, Peer: -1, Tasks: 0.4, Start: 3, End: 4},
	}
	ex, err := execute(context.Background(), in, ops, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := SerialChecksum(5); ex.checksum != want {
		t.Fatalf("checksum %#x, want %#x", ex.checksum, want)
	}
	got := make([]int, len(ex.records))
	for k, r := range ex.records {
		got[k] = r.Vectors
	}
	// The last compute of P1 takes all it holds: 2 - 1 = 1.
	if want := []int{1, 2, 2, 1, 1, 2}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("vectors per record %v, want %v", got, want)
	}
	if r := ex.records[5]; !r.Remainder || r.Planned.Proc != 0 || r.Start != ex.records[1].End {
		t.Errorf("remainder %+v, want P0's, right after its send", r)
	}
	// P1 receives only once the send is done and computes after.
	if r := ex.records[3]; r.Start != ex.records[2].End {
		t.Errorf("P1's first compute starts at %v, want the receive's end %v", r.Start, ex.records[2].End)
	}
}
