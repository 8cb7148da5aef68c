package calibrate

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sort"
	"sync"
	"time"

	"commlab/engine/mmdl"
)

// execution is one schedule run on this machine.
type execution struct {
	records  []Record
	makespan float64 // of the executed timeline
	wall     float64 // wall-clock seconds, one operation at a time
	checksum uint64
	clock    string
}

// link is the wire from one processor to another: a buffer the sender packs
// into and the receiver unpacks from, handed over through a channel.
type link struct {
	ch   chan packet
	data []float64
	ids  []int
}

type packet struct{ n int }

type command struct {
	kind mmdl.OpKind
	n    int
	all  bool // compute everything held (the processor's last compute)
	link *link
}

// report is a worker's account of its part of an operation: a compute, the
// packing of a send or the unpacking of a receive, timed by its own clock.
type report struct {
	proc int
	n    int
	d    time.Duration
}

// worker is one emulated processor: its vectors live in its own memory.
type worker struct {
	proc  int
	a     []float64 // the shared matrix (read only)
	data  []float64 // held vectors, cols each
	ids   []int     // their identities
	extra float64   // rows repeated per vector to emulate the clock rate
	carry float64
	y, z  []float64
	sum   uint64
	rows  int // rows of the matrix multiplied, extra ones included
	clock func() time.Duration
	cmds  chan command
	done  chan<- report
}

func (w *worker) run(wg *sync.WaitGroup) {
	defer wg.Done()
	// The thread CPU clock times this goroutine only while it stays on
	// one thread.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for c := range w.cmds {
		t0 := w.clock()
		var n int
		switch c.kind {
		case mmdl.Compute:
			n = w.compute(c.n, c.all)
		case mmdl.Send:
			held := len(w.ids)
			n = min(c.n, held)
			copy(c.link.data[:n*cols], w.data[(held-n)*cols:held*cols])
			copy(c.link.ids[:n], w.ids[held-n:])
			w.data, w.ids = w.data[:(held-n)*cols], w.ids[:held-n]
			d := w.clock() - t0
			c.link.ch <- packet{n}
			w.done <- report{w.proc, n, d}
			continue
		case mmdl.Recv:
			p := <-c.link.ch
			t0 = w.clock() // the wait for the sender is not the receiver's work
			n = p.n
			w.data = append(w.data, c.link.data[:n*cols]...)
			w.ids = append(w.ids, c.link.ids[:n]...)
		}
		w.done <- report{w.proc, n, w.clock() - t0}
	}
}

// compute multiplies n held vectors (all of them if all) by the matrix,
// popping them, and returns how many it computed.
func (w *worker) compute(n int, all bool) int {
	held := len(w.ids)
	if all || n > held {
		n = held
	}
	for k := held - 1; k >= held-n; k-- {
		v := w.data[k*cols : (k+1)*cols]
		matVec(w.y, w.a, v, 0, rows)
		w.sum ^= resultHash(w.ids[k], w.y)
		w.rows += rows
		// The emulated clock rate: repeat whole rows of the product,
		// carrying the fraction to the next vector.
		w.carry += w.extra
		extra := int(w.carry)
		w.carry -= float64(extra)
		for extra > 0 {
			r := min(extra, rows)
			matVec(w.z, w.a, v, 0, r)
			w.rows += r
			extra -= r
		}
	}
	w.data, w.ids = w.data[:(held-n)*cols], w.ids[:held-n]
	return n
}

// execute runs ops (a schedule for in) on one worker goroutine per
// processor, one operation at a time in the schedule's global time order,
// and replays the measured durations into the executed timeline.
func execute(ctx context.Context, in mmdl.Instance, ops []mmdl.Op, wallClock bool) (execution, error) {
	P := len(in.MHz)
	var ex execution
	clock := func() time.Duration { d, _ := threadCPU(); return d }
	ex.clock = ClockThreadCPU
	if _, ok := threadCPU(); wallClock || !ok {
		epoch := time.Now()
		clock = func() time.Duration { return time.Since(epoch) }
		ex.clock = ClockWall
	}
	// Each processor's operations in its own order: by scheduled start,
	// ties in the schedule's order.
	queue := make([][]int, P)
	for k, op := range ops {
		if op.Proc < 0 || op.Proc >= P {
			return execution{}, fmt.Errorf("op %d: processor %d, want [0, %d)", k, op.Proc, P)
		}
		if !(op.Tasks >= 0) || math.IsInf(op.Tasks, 0) {
			return execution{}, fmt.Errorf("op %d: tasks %g, want a finite count ≥ 0", k, op.Tasks)
		}
		switch op.Kind {
		case mmdl.Compute:
		case mmdl.Send, mmdl.Recv:
			if op.Peer < 0 || op.Peer >= P || op.Peer == op.Proc {
				return execution{}, fmt.Errorf("op %d: processor %d's peer %d, want another processor in [0, %d)", k, op.Proc, op.Peer, P)
			}
		default:
			return execution{}, fmt.Errorf("op %d: unknown kind %v", k, op.Kind)
		}
		queue[op.Proc] = append(queue[op.Proc], k)
	}
	for _, q := range queue {
		sort.SliceStable(q, func(a, b int) bool { return ops[q[a]].Start < ops[q[b]].Start })
	}

	// Pair the k-th send i→j with the k-th receive of j from i, and round
	// fractional tasks to whole vectors cumulatively: per processor for
	// computes, per link for transfers.
	vectors := make([]int, len(ops))
	pair := make([]int, len(ops))
	type linkKey struct{ from, to int }
	sends := map[linkKey][]int{}
	recvs := map[linkKey][]int{}
	received := make([]int, P)
	for p, q := range queue {
		cum, done := 0.0, 0
		for _, k := range q {
			switch op := ops[k]; op.Kind {
			case mmdl.Compute:
				cum += op.Tasks
				vectors[k] = int(math.Round(cum)) - done
				done += vectors[k]
			case mmdl.Send:
				sends[linkKey{p, op.Peer}] = append(sends[linkKey{p, op.Peer}], k)
			case mmdl.Recv:
				recvs[linkKey{op.Peer, p}] = append(recvs[linkKey{op.Peer, p}], k)
			}
		}
	}
	links := map[int]*link{} // by send op
	for key, s := range sends {
		r := recvs[key]
		if len(r) != len(s) {
			return execution{}, fmt.Errorf("processor %d sends %d messages to %d, which receives %d", key.from, len(s), key.to, len(r))
		}
		cum, done, most := 0.0, 0, 0
		for m, k := range s {
			if a, b := ops[k].Tasks, ops[r[m]].Tasks; math.Abs(a-b) > 1e-9*max(1, a) {
				return execution{}, fmt.Errorf("message %d from %d to %d: %g tasks sent, %g received", m, key.from, key.to, a, b)
			}
			cum += ops[k].Tasks
			vectors[k] = int(math.Round(cum)) - done
			vectors[r[m]] = vectors[k]
			done += vectors[k]
			most = max(most, vectors[k])
			pair[k], pair[r[m]] = r[m], k
		}
		received[key.to] += done
		l := &link{ch: make(chan packet, 1), data: make([]float64, most*cols), ids: make([]int, most)}
		for _, k := range s {
			links[k] = l
		}
	}
	for key, r := range recvs {
		if _, ok := sends[key]; !ok {
			return execution{}, fmt.Errorf("processor %d receives %d messages from %d, which sends none", key.to, len(r), key.from)
		}
	}

	// The workers, their initial vectors (identities 0 … Σl−1, processor by
	// processor) and the emulated clock rates.
	done := make(chan report, 2)
	host := hostMHz(in)
	workers := make([]*worker, P)
	a := newMatrix()
	first := 0
	for p := range P {
		l := int(in.Tasks[p])
		if float64(l) != in.Tasks[p] {
			return execution{}, fmt.Errorf("processor %d starts with %g tasks, want whole vectors", p, in.Tasks[p])
		}
		w := &worker{
			proc: p, a: a,
			data: make([]float64, l*cols, (l+received[p])*cols), ids: make([]int, l, l+received[p]),
			extra: rows * (host/in.MHz[p] - 1),
			y:     make([]float64, rows),
			z:     make([]float64, rows),
			clock: clock,
			cmds:  make(chan command), done: done,
		}
		for k := range l {
			w.ids[k] = first + k
			fillVector(w.data[k*cols:(k+1)*cols], first+k)
		}
		first += l
		workers[p] = w
	}
	var wg sync.WaitGroup
	for _, w := range workers {
		wg.Add(1)
		go w.run(&wg)
	}
	defer func() {
		for _, w := range workers {
			close(w.cmds)
		}
		wg.Wait()
	}()

	records := make([]Record, len(ops), len(ops)+P)
	for k, op := range ops {
		records[k].Planned = op
	}
	var order []int // records in dispatch order
	head := make([]int, P)
	next := func(p int) int {
		if head[p] < len(queue[p]) {
			return queue[p][head[p]]
		}
		return -1
	}
	// The processor's final operation is a compute: it takes whatever
	// rounding left on the processor.
	lastCompute := make([]int, P)
	for p, q := range queue {
		lastCompute[p] = -1
		if n := len(q); n > 0 && ops[q[n-1]].Kind == mmdl.Compute {
			lastCompute[p] = q[n-1]
		}
	}
	// Keep the collector out of the measured operations as far as
	// possible: the setup's garbage goes now, the run allocates nothing.
	runtime.GC()
	epoch := time.Now()
	for left := len(ops); left > 0; {
		if err := ctx.Err(); err != nil {
			return execution{}, err
		}
		// The ready operation with the earliest scheduled start: a
		// compute, or a send whose receiver's next operation is its
		// receive.
		best := -1
		for p := range P {
			k := next(p)
			if k < 0 {
				continue
			}
			switch ops[k].Kind {
			case mmdl.Compute:
			case mmdl.Send:
				if next(ops[k].Peer) != pair[k] {
					continue
				}
			default:
				continue
			}
			if best < 0 || ops[k].Start < ops[best].Start {
				best = k
			}
		}
		if best < 0 {
			return execution{}, fmt.Errorf("the schedule deadlocks: %d operations left and every processor waits on a transfer its peer is not next to make", left)
		}
		op := ops[best]
		if op.Kind == mmdl.Compute {
			workers[op.Proc].cmds <- command{kind: mmdl.Compute, n: vectors[best], all: best == lastCompute[op.Proc]}
			r := <-done
			records[best].Vectors = r.n
			records[best].Duration = r.d.Seconds()
			head[op.Proc]++
			left--
			order = append(order, best)
			continue
		}
		recv := pair[best]
		workers[op.Peer].cmds <- command{kind: mmdl.Recv, link: links[best]}
		workers[op.Proc].cmds <- command{kind: mmdl.Send, n: vectors[best], link: links[best]}
		// The transfer's time: the sender's packing, the emulated
		// wire for the bytes that really moved, the receiver's
		// unpacking.
		var copying time.Duration
		n := 0
		for range 2 {
			r := <-done
			copying += r.d
			n = r.n
		}
		wire := in.Latency + float64(n)*VectorBytes*8/in.Throughput
		for _, k := range []int{best, recv} {
			records[k].Vectors = n
			records[k].Wire = wire
			records[k].Duration = copying.Seconds() + wire
		}
		head[op.Proc]++
		head[op.Peer]++
		left -= 2
		order = append(order, best)
	}
	// Rounding (or a schedule ending in a transfer) can leave a few
	// vectors on a processor: compute them last, as recorded extras.
	for p, w := range workers {
		if len(w.ids) == 0 {
			continue
		}
		round := 0
		if q := queue[p]; len(q) > 0 {
			round = ops[q[len(q)-1]].Round
		}
		w.cmds <- command{kind: mmdl.Compute, all: true}
		r := <-done
		records = append(records, Record{
			Planned:  mmdl.Op{Proc: p, Kind: mmdl.Compute, Peer: -1, Round: round},
			Vectors:  r.n,
			Duration: r.d.Seconds(), Remainder: true,
		})
		order = append(order, len(records)-1)
	}
	ex.wall = time.Since(epoch).Seconds()

	// The executed timeline: each processor runs its operations in order
	// as soon as it is free; a transfer starts when both ends are.
	free := make([]float64, P)
	for _, k := range order {
		r := &records[k]
		p := r.Planned.Proc
		if r.Planned.Kind == mmdl.Compute {
			r.Start = free[p]
		} else {
			r.Start = max(free[p], free[r.Planned.Peer])
		}
		r.End = r.Start + r.Duration
		free[p] = r.End
		if r.Planned.Kind != mmdl.Compute {
			free[r.Planned.Peer] = r.End
			q := &records[pair[k]]
			q.Start, q.End = r.Start, r.End
		}
		ex.makespan = max(ex.makespan, r.End)
	}
	for _, w := range workers {
		ex.checksum ^= w.sum
	}
	ex.records = records
	return ex, nil
}
