package nbc

import (
	"fmt"
	"math"

	"commlab/engine/cost"
)

// Estimate bounds what Run does from the model's own counts, not from
// typical cases (issue 26): Run is up to three simulations (the case, its
// communication alone, its baseline), and each handles
//
//   - at most six events per point-to-point message (the two posts, a
//     rendezvous's RTS and CTS, the data leaving and arriving);
//   - a few events per rank and collective for the main thread's steps and
//     the progress thread's hand-offs;
//   - the product's chunks of rows: one event per thread, or, when the
//     threads run row by row (every thread testing, a progress thread's
//     interference, memory sharing), one per chunk (three with an
//     NBC_Test after it);
//   - with memory sharing, a re-timing of the local copy whenever a
//     compute thread starts or ends;
//   - on an oversubscribed core, a cycle of time slices for every
//     TimeSlice of compute thread w's work (each cycle advances w by a
//     full slice), a handful of events each: the work of the thread that
//     shares the core with the progress thread, at the slowest rate it can
//     get, bounds the number of slices whether or not the progress thread
//     is awake the whole time.
//
// TestEstimateBoundsRun holds measured events ≤ Events ≤ 8 × measured
// over adversarial shapes; the bytes and seconds per event are measured
// there (go test -run EstimateBounds -v ./engine/nbc/ logs them).
const (
	eventsPerMessage = 6
	// Bytes allocated per message of one simulation (the message, rank
	// 0's intervals, the actions queued for a thread in the library), per
	// event pending at the peak (an event is 24 B; the event list's runs
	// keep up to as many taken events as pending ones until they compact,
	// and each doubling allocates anew), per handle event rank 0 records
	// (32 B, doubled by growth) and per message with memory sharing (its
	// two intervals on the links, 16 B each, up to four times that as
	// their queues grow).
	messageBytes  = 28
	pendingBytes  = 250
	recordBytes   = 128
	threadBytes   = 48
	memShareBytes = 128
	fixedBytes    = 128 << 10
	// Engine time per event: nsEvent plus nsHeap per doubling of the
	// events pending (the event list is a heap), CPU time on one core of
	// the development machine (TestEstimateBoundsRun and
	// BenchmarkEstimateSeconds log the measured times).
	nsEvent    = 80
	nsHeap     = 8
	nsMemShare = 40
)

// sim is the bound of one simulation: its messages and its other events,
// the events pending at once and the handle events it records.
type sim struct {
	messages, events, records float64
	// pending: the messages' events pending at once, and the threads'
	// (T + 16 a rank).
	pending, threads float64
}

// Messages is the point-to-point messages of one simulation of p's
// alltoalls: every node sends one to every other in each collective.
func Messages(p Params) float64 {
	n := float64(p.Nodes)
	return float64(p.Collectives) * n * (n - 1)
}

// simBound bounds one simulation of p (its method): the case itself, or,
// with commOnly, its collectives alone.
func simBound(p Params, commOnly bool) sim {
	P, K, T := float64(p.Nodes), float64(p.Collectives), float64(p.ComputeThreads())
	s := sim{messages: Messages(p)}
	perRank := 12*K + 24
	if !commOnly {
		rowsT := math.Ceil(math.Ceil(float64(p.Matrix)/P) / T) // the most rows a thread has
		allTest := p.Method == NBCFTest && p.TestThreads == TestAll
		rowwise := allTest || p.Method.Threaded() && p.PollInterference > 0 || p.MemoryShare
		calls := math.Ceil(rowsT / float64(p.TestEvery))
		// The main thread: chunks between NBC_Test calls (rows, lock,
		// return), or rows one by one, or one chunk.
		switch {
		case p.Method == NBCFTest:
			perRank += 3*calls + 4
		case rowwise:
			perRank += rowsT + 4
		default:
			perRank += 4
		}
		// The other compute threads.
		switch {
		case allTest:
			perRank += (T - 1) * (3*calls + 2)
		case rowwise:
			perRank += (T - 1) * (rowsT + 2)
		default:
			perRank += T
		}
		if p.MemoryShare {
			perRank += 2*K + T + 2
		}
		if p.Method.Threaded() && p.Oversubscribe {
			perRank += 6 * (sliceCycles(p) + 2*K + 4)
		}
	}
	s.events = P * perRank
	s.pending = pending(p)
	s.threads = P * (T + 16)
	s.records = 8*K + 4
	if p.Method == NBCFTest && !commOnly {
		s.records += math.Ceil(math.Ceil(math.Ceil(float64(p.Matrix)/P)/T) / float64(p.TestEvery))
	}
	return s
}

// sliceCycles bounds the cycles of time slices on one rank's oversubscribed
// core: compute thread w and the progress thread alternate only while
// both are runnable, and a cycle (w's slice, a switch, the progress
// thread's slice, a switch) advances w by a full TimeSlice and lasts at
// least two. So the cycles are at most w's work over TimeSlice, and at
// most the time the progress thread is awake over two TimeSlices.
func sliceCycles(p Params) float64 {
	return math.Ceil(min(wWork(p)/p.TimeSlice, awake(p)/(2*p.TimeSlice))) + 1
}

// awake bounds how long a progress thread stays awake (runnable) while it
// shares its core: from its first wake to its last collective's end. Each
// collective copies its own block, posts its requests, moves (P−1)
// messages through each link of the node (a message can wait for all of
// its sender's and its receiver's others) and, per round, needs the
// progress thread on the core for a few protocol steps (post, answer the
// RTS, start the data on the CTS, see the round complete), each of which
// may wait for compute thread w's slice and the switches around it; the
// chains across ranks are counted twice.
func awake(p Params) float64 {
	P := float64(p.Nodes)
	rounds := 1.0
	pairwise := p.Alltoall == Pairwise
	if p.Method.LibNBC() {
		pairwise = p.NBCAlltoall == Pairwise
	}
	if pairwise {
		rounds = P - 1
	}
	copyRate := p.CopyBandwidth
	if p.MemoryShare {
		perSocket := (p.Cores + p.Sockets - 1) / p.Sockets
		copyRate = min(copyRate, p.SocketBandwidth/2/float64(perSocket+1)/2)
	}
	wait := p.TimeSlice + 2*p.ContextSwitch
	copyTime := p.Msg / copyRate // TCC's progress thread copies; LibNBC's issuing thread, before the product
	if p.Method.LibNBC() {
		copyTime = 0
	}
	perColl := copyTime + 2*(P-1)*(p.MPICall+p.ScheduleStep+p.Msg/p.Bandwidth) +
		rounds*(6*wait+3*p.Latency+4*p.MPICall+p.ProgressCall+2*(P-1)*p.RequestTest) + 2*p.MutexHandoff
	return 2*float64(p.Collectives)*perColl + p.ThreadCreate + 4*p.MutexHandoff
}

// pending bounds the messages' events pending at once in one simulation
// of p. Per rank: the posts of one round (posted in one go; the
// next issue waits for the library), or the transfers queued on the
// node's links, whichever is more (a rendezvous's transfers start after
// its posts are taken): each started transfer has its end and its arrival
// scheduled, and a link takes one at a time, so they pile up when a
// transfer lasts longer than posting the next (MPICall), up to every
// message in flight, and otherwise as many as start within a transfer
// and a latency; plus, for rendezvous messages, every handshake in flight
// (a thread entering the library answers all waiting RTSs at once).
// LibNBC's collectives are all issued before any is waited on; MPI's
// blocking calls and TCC's progress thread run them one at a time.
// Pairwise rounds have one message each way per collective in flight:
// its posts, handshake, transfer end and arrival, a dozen events at most.
func pending(p Params) float64 {
	P, K := float64(p.Nodes), float64(p.Collectives)
	inFlight := 1.0
	if p.Method.LibNBC() {
		inFlight = K
	}
	pairwise := p.Alltoall == Pairwise
	if p.Method.LibNBC() {
		pairwise = p.NBCAlltoall == Pairwise
	}
	perRank := 12 * inFlight
	if !pairwise {
		n := inFlight * (P - 1) // messages in flight each way
		d := p.Msg / p.Bandwidth
		queued := max(0, 1-p.MPICall/d)
		transfers := 2 * min(n, n*queued+(d+p.Latency)/max(p.MPICall, d)+1)
		perRank = max(2*(P-1), transfers)
		if p.Msg > p.EagerLimit {
			perRank += n
		}
	}
	return P * perRank
}

// wWork bounds the compute time of thread w, the one that shares its core
// with the progress thread when oversubscribed: its rows at the slowest
// rate it can stream (its static rate; with memory sharing, an equal share
// of half its socket, the rest possibly taken by the NIC's DMA, with every
// thread of the socket and the copy), slowed by a polling progress thread.
func wWork(p Params) float64 {
	T := p.ComputeThreads()
	rows := math.Ceil(math.Ceil(float64(p.Matrix)/float64(p.Nodes)) / float64(T))
	perSocket := (p.Cores + p.Sockets - 1) / p.Sockets
	on := min(perSocket, T)
	rate := min(p.CoreBandwidth, p.SocketBandwidth/float64(on))
	if p.MemoryShare {
		rate = min(p.CoreBandwidth, p.SocketBandwidth/2/float64(on+1))
	}
	return rows * float64(p.Matrix) * p.ElemBytes / rate * (1 + p.PollInterference)
}

// runSims are the simulations Run makes for p.
func runSims(p Params) []sim {
	out := []sim{simBound(p, false), simBound(p, true)}
	if b := p.Method.Baseline(); b != p.Method {
		bp := p
		bp.Method = b
		out = append(out, simBound(bp, false))
	}
	return out
}

// Estimate is the cost of Run for p (valid): an upper bound of its events
// and memory for every p in range, and of its time on the development
// machine.
func Estimate(p Params) cost.Cost {
	var msgs, events, ns float64
	bytes := float64(fixedBytes)
	for _, s := range runSims(p) {
		msgs += s.messages
		all := eventsPerMessage*s.messages + s.events
		events += all
		perEvent := nsEvent + nsHeap*math.Log2(1+s.pending+s.threads)
		if p.MemoryShare {
			perEvent += nsMemShare // a row's share of the socket, the link's state
		}
		ns += all * perEvent
		// Every simulation's allocations count: they run one after the
		// other, and what the first frees the collector may not have
		// returned before the next allocates.
		bytes += messageBytes*s.messages + pendingBytes*s.pending + threadBytes*s.threads + recordBytes*s.records
		if p.MemoryShare {
			bytes += memShareBytes * s.messages
		}
	}
	c := cost.Cost{
		Events:  events,
		Bytes:   bytes,
		Seconds: ns * 1e-9,
		Key:     "nodes",
		Why:     fmt.Sprintf("nodes = %d with collectives = %d sends about %s messages", p.Nodes, p.Collectives, cost.Num(msgs)),
	}
	c.Fit = func(over float64) string {
		return fmt.Sprintf("lower collectives to at most %d or nodes to at most %d", max(1, int(float64(p.Collectives)/cost.Scale(over, 1))), max(2, int(float64(p.Nodes)/cost.Scale(over, 2))))
	}
	if events <= 2*eventsPerMessage*msgs {
		return c
	}
	// The threads' events dominate: name what drives them.
	if p.Method.Threaded() && p.Oversubscribe {
		n := float64(p.Nodes) * sliceCycles(p)
		if 6*n > events/2 {
			c.Key = "time_slice"
			c.Why = fmt.Sprintf("time_slice = %g s on the oversubscribed core, against up to %s s of compute on the thread that shares it, makes up to %s time slices", p.TimeSlice, cost.Num(min(wWork(p), awake(p))), cost.Num(n))
			c.Fit = func(over float64) string {
				if wWork(p) <= awake(p)/2 { // the compute of the shared core's thread bounds the slices
					return fmt.Sprintf("raise time_slice to at least %g s or lower matrix to at most %d", p.TimeSlice*cost.Scale(over, 1), int(float64(p.Matrix)/cost.Scale(over, 2)))
				}
				// the time the progress thread is awake bounds them
				return fmt.Sprintf("raise time_slice to at least %g s or lower msg to at most %s", p.TimeSlice*cost.Scale(over, 1), cost.Num(p.Msg/cost.Scale(over, 1)))
			}
			return c
		}
	}
	c.Key = "matrix"
	c.Why = fmt.Sprintf("nodes = %d with matrix = %d and test_every = %d runs about %s chunks of rows and progress calls", p.Nodes, p.Matrix, p.TestEvery, cost.Num(events))
	c.Fit = func(over float64) string {
		if p.Method == NBCFTest {
			return fmt.Sprintf("raise test_every to at least %d or lower matrix to at most %d", int(float64(p.TestEvery)*cost.Scale(over, 1))+1, int(float64(p.Matrix)/cost.Scale(over, 1)))
		}
		return fmt.Sprintf("lower matrix to at most %d", int(float64(p.Matrix)/cost.Scale(over, 1)))
	}
	return c
}
