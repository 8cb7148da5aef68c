package nbc

import (
	"fmt"
	"math"

	"commlab/engine/param"
	"commlab/internal/errf"
)

// Method is one implementation of the non-blocking Alltoall the paper
// measures (Fig. 1 and 2).
type Method string

const (
	// MPI is the MPI library's blocking MPI_Alltoall, then the computation.
	MPI Method = "mpi"
	// NBCFNoOvlp is LibNBC with the progress function, waited on right after
	// it is started (no overlap): the LibNBC baseline.
	NBCFNoOvlp Method = "nbcf-noovlp"
	// NBCFTest is LibNBC with the progress function (NBC_Test) called by the
	// main thread once per TestEvery outer-loop iterations of its share of
	// the matrix-vector product (the paper's NBCF-ovlp-test).
	NBCFTest Method = "nbcf-test"
	// NBCFNoTest is LibNBC with the progress function never called before
	// the wait (the paper's NBCF-ovlp-notest).
	NBCFNoTest Method = "nbcf-notest"
	// NBCT is LibNBC with its progress thread (the paper's NBCT-ovlp).
	NBCT Method = "nbct"
	// TCC is the paper's Threaded Collective Communication: a progress
	// thread runs the library's blocking collectives in issue order
	// (Section III; the paper's TCC-ovlp).
	TCC Method = "tcc"
)

// Methods lists the methods in the order of the paper's Fig. 1 and 2.
var Methods = []Method{NBCFNoOvlp, NBCFTest, NBCFNoTest, NBCT, MPI, TCC}

// methods are Methods' names, for Set and Validate.
var methods = param.Of(Methods)

// String returns the method's name, which is also its CLI and URL value.
func (m Method) String() string { return string(m) }

// Set parses a method name; with String it makes *Method a flag.Value.
func (m *Method) Set(s string) error {
	i := methods.Index(s)
	if i < 0 {
		return errf.Errorf("unknown method %q (want one of %s)", s, methods.List())
	}
	*m = Methods[i]
	return nil
}

// LibNBC reports whether the method is one of LibNBC's (schedule of
// point-to-point operations) rather than a call of the MPI library's
// blocking collective.
func (m Method) LibNBC() bool {
	return m == NBCFNoOvlp || m == NBCFTest || m == NBCFNoTest || m == NBCT
}

// Threaded reports whether the method has a progress thread.
func (m Method) Threaded() bool { return m == NBCT || m == TCC }

// Baseline is the non-overlapped method the paper measures a method's
// overlap speedup against: LibNBC's progress-function version waited on at
// once (NBCF-noovlp, 16 compute threads) for every LibNBC method, the MPI
// library's blocking collective for TCC (whose blocking collective it runs)
// and for MPI itself. See doc.go.
func (m Method) Baseline() Method {
	if m.LibNBC() {
		return NBCFNoOvlp
	}
	return MPI
}

// The alltoall algorithms (Params.Alltoall and Params.NBCAlltoall).
const (
	// AllAtOnce posts every send and receive at once and waits for all:
	// LibNBC's Alltoall schedule (the paper, Section IV-C), one round.
	AllAtOnce = "all-at-once"
	// Pairwise exchanges with one partner per step, P−1 steps, each waiting
	// for the last: MPICH's long-message MPI_Alltoall, which Intel MPI 4.0
	// inherits.
	Pairwise = "pairwise"
)

// Who calls the progress function in NBCF-test (Params.TestThreads).
const (
	// TestAll: every compute thread, once per outer-loop iteration of its
	// share (the call in the OpenMP-parallel loop's body).
	TestAll = "all"
	// TestMaster: the main thread alone, once per iteration of its share.
	TestMaster = "master"
)

// Limits of the parameters.
const (
	MaxNodes       = 128     // the all-ranks simulation costs O(P²) messages per collective: 16 alltoalls on 128 nodes take 0.85 s
	MaxMatrix      = 200_000 // n of the n × n matrix
	MaxMsg         = 1 << 30 // bytes per destination
	MaxCollectives = 16      // the sweep goes to 16 in flight
	MaxCores       = 256
	MaxQueue       = 64
	MaxTestEvery   = 1_000_000
	maxTime        = 1.0 // s: bound of every time constant
	// minRate bounds the bandwidths below: 1 B/s is slower than any link or
	// memory, and keeps every time finite (2^30 B per destination and a
	// 200000² matrix of 1024 B elements at 1 B/s are 1e11 s and 4e13 s;
	// at 1e-300 B/s they overflow float64).
	minRate = 1
	maxRate = 1e15
	// MaxPollInterference bounds Params.PollInterference: a compute thread
	// 11 times slower than alone is far beyond any interference.
	MaxPollInterference = 10
	// MinTimeSlice bounds Params.TimeSlice below: Linux refuses a CFS
	// granularity under 100 µs (kernel/sysctl.c: min_sched_granularity_ns
	// = 100000, the floor of sched_min_granularity_ns and
	// sched_latency_ns), so no thread sharing a core runs for less before
	// the other gets it. It also bounds the events of an oversubscribed
	// run: one time slice of the shared core each (issue 26).
	MinTimeSlice = 100e-6
)

// Params are the model's inputs (specs/nbc-tcc.md). Times are in seconds,
// sizes in bytes, bandwidths in bytes per second. The defaults of the model
// constants come from the hardware the paper names (Section IV-B: Fujitsu
// PRIMERGY CX400, Xeon E5-2680 2.7 GHz, 16 cores and 128 GB per node,
// InfiniBand FDR, RHEL 6.1 kernel 2.6.32, Intel MPI 4.0 Update 3 with
// MPI_THREAD_MULTIPLE); none is fitted to the paper's bars.
type Params struct {
	// The experiment (Section IV-A, IV-C).
	Nodes int `json:"nodes" help:"nodes (one MPI rank each), an integer in [2, 128]"`
	// Msg is the Alltoall's message size per destination.
	Msg    float64 `json:"msg" help:"alltoall message size per destination in bytes, in [1, 1073741824] (the CLI also takes 500KB, 5MB, 64KiB, 1MiB)"`
	Matrix int     `json:"matrix" help:"n of the n x n matrix of the matrix-vector product, an integer in [1, 200000]"`
	Method Method  `json:"method" help:"implementation: mpi, nbcf-noovlp, nbcf-test, nbcf-notest, nbct or tcc"`
	// Collectives is how many non-blocking alltoalls are issued back to back
	// before the computation (the paper: 1; its future work: more).
	Collectives int `json:"collectives" help:"non-blocking alltoalls in flight, an integer in [1, 16]"`
	// Cores per node; the compute threads are Cores (no progress thread, or
	// Oversubscribe) or Cores−1 (a progress thread on its own core).
	Cores int `json:"cores" help:"cores per node, an integer in [2, 256] (the paper: 16)"`
	// Oversubscribe runs Cores compute threads plus the progress thread,
	// which then shares the last core with a compute thread (the paper's
	// Section V alternative to 15 + 1).
	Oversubscribe bool `json:"oversubscribe" help:"progress thread shares a core with a compute thread (16+1) instead of its own core (15+1)"`
	// QueueCap is the capacity of TCC's ring HandleQueue.
	QueueCap int `json:"queue" help:"TCC handle queue capacity, an integer in [1, 64]"`
	// TestEvery: NBCF-test calls the progress function once per this many
	// outer-loop iterations of the main thread (the paper: 1).
	TestEvery int `json:"test_every" help:"NBCF-test: a progress call once per this many outer-loop iterations, in [1, 1000000]"`
	// TestThreads is who calls NBC_Test in NBCF-test. The paper calls it
	// "once per outer-loop iteration" of the product (Section IV-C), and
	// the outer loop is the one OpenMP parallelises (Section IV-A), so the
	// call sits in the parallel loop's body and every compute thread makes
	// it after each of its rows: TestAll, the default. The calls serialise
	// on the library's lock (MPI_THREAD_MULTIPLE), so they cost computation
	// as well as the call itself. TestMaster is the main thread alone (an
	// "omp master" call; the model's reading before issue 12).
	TestThreads string `json:"test_threads" help:"NBCF-test: who calls the progress function once per outer-loop iteration: all (every compute thread: the OpenMP loop's body, the paper's reading) or master"`
	// Alltoall is the MPI library's blocking alltoall algorithm (MPI, TCC).
	Alltoall string `json:"alltoall" help:"MPI library's alltoall algorithm: pairwise or all-at-once"`
	// NBCAlltoall is LibNBC's schedule (the paper: all at once); pairwise
	// gives the comparison with the same algorithm the paper leaves to
	// future work.
	NBCAlltoall string `json:"nbc_alltoall" help:"LibNBC's alltoall schedule: all-at-once or pairwise"`

	// Network: InfiniBand FDR 4x.
	//
	// Latency is the one-way MPI latency of a small message, for data and
	// for the rendezvous protocol's control messages: ~1.5 µs for Intel MPI
	// over FDR (HCA, one switch hop, the verbs stack).
	Latency float64 `json:"latency" help:"one-way network latency per message in s, in [0, 1]"`
	// Bandwidth is each node's injection (and ejection) bandwidth: FDR 4x
	// carries 54.5 Gb/s of data = 6.8 GB/s; after PCIe Gen3 x8 and packet
	// headers MPI reaches about 6 GB/s.
	Bandwidth float64 `json:"bandwidth" help:"per-node link bandwidth in B/s, in [1, 1e15]"`
	// EagerLimit: messages up to this size go eagerly; larger ones use the
	// rendezvous protocol. 262144 B is Intel MPI 4.0's I_MPI_EAGER_THRESHOLD
	// default.
	EagerLimit float64 `json:"eager_limit" help:"eager/rendezvous threshold in bytes, in [0, 1073741824]"`

	// Node: two Xeon E5-2680 sockets.
	//
	// Sockets: the CX400 node has two E5-2680 (8 cores each, 16 in all).
	Sockets int `json:"sockets" help:"sockets per node (memory domains), an integer in [1, cores]"`
	// SocketBandwidth is one socket's sustained memory bandwidth: four
	// DDR3-1600 channels give 51.2 GB/s peak; STREAM triad reaches ~78 %
	// of it on Sandy Bridge-EP, 40 GB/s.
	SocketBandwidth float64 `json:"socket_bandwidth" help:"sustained memory bandwidth per socket in B/s, in [1, 1e15]"`
	// CoreBandwidth is what one core streams alone: 10 line-fill buffers of
	// 64 B per ~80 ns memory latency, 8 GB/s.
	CoreBandwidth float64 `json:"core_bandwidth" help:"memory bandwidth one core streams alone in B/s, in [1, 1e15]"`
	// ElemBytes is the matrix element size: double precision. The
	// matrix-vector product streams the matrix once (8 B per multiply-add);
	// at 2.7 GHz × 8 flops/cycle a core computes ~40× faster than its
	// memory feeds it, so the row time is the bytes over the bandwidth.
	ElemBytes float64 `json:"elem_bytes" help:"bytes per matrix element streamed, in (0, 1024]"`

	// CopyBandwidth is one core's memcpy rate: the Alltoall's block to
	// itself is copied locally, reading and writing every byte, about half
	// the core's 8 GB/s stream: 4 GB/s. LibNBC copies it in NBC_Ialltoall
	// (the issuing thread); MPICH's MPI_Alltoall first thing in the call
	// (the progress thread, in TCC).
	CopyBandwidth float64 `json:"copy_bandwidth" help:"one core's memcpy bandwidth for the alltoall's local block in B/s, in [1, 1e15]"`

	// Software costs (host CPU time).
	//
	// MPICall is the host time of one call into the MPI library that posts
	// a request or answers a protocol message (a verbs post plus the
	// MPI_THREAD_MULTIPLE global lock): ~0.5 µs at 2.7 GHz.
	MPICall float64 `json:"mpi_call" help:"host time of one MPI library call (post or protocol step) in s, in [0, 1]"`
	// ScheduleStep is LibNBC's extra cost per schedule operation: building
	// the schedule entry and interpreting it to post it (the decomposition
	// overhead the paper's Section II and III name): ~0.5 µs.
	ScheduleStep float64 `json:"schedule_step" help:"LibNBC cost per schedule operation in s, in [0, 1]"`
	// ProgressCall is one NBC_Test / progress-thread poll: a completion-queue
	// poll of the MPI progress engine under the global lock, ~0.5 µs.
	ProgressCall float64 `json:"progress_call" help:"cost of one progress call (NBC_Test) in s, in [0, 1]"`
	// RequestTest is the added cost per outstanding request that a progress
	// call tests (MPI_Testall walks them): ~20 ns.
	RequestTest float64 `json:"request_test" help:"cost per outstanding request tested by a progress call in s, in [0, 1]"`
	// MutexHandoff is the time for a thread blocked on a pthread condition
	// variable to run after another signals it (futex wake-up and the
	// scheduler's switch on Linux 2.6.32): ~5 µs.
	MutexHandoff float64 `json:"mutex_handoff" help:"condition-variable hand-off between threads in s, in [0, 1]"`
	// ContextSwitch is the direct cost of switching threads on a core
	// (lmbench lat_ctx on Sandy Bridge class CPUs, with cache refill): ~3 µs.
	ContextSwitch float64 `json:"context_switch" help:"cost of one context switch in s, in [0, 1]"`
	// TimeSlice is how long the kernel lets one of two runnable threads run
	// on a shared core before switching. CFS scales its granularities by
	// 1 + log2(CPUs) = 5 on 16 CPUs: sched_min_granularity is 0.75 ms × 5
	// = 3.75 ms in later kernels (the default kept here) and 1 ms × 5 =
	// 5 ms in those of the paper's 2.6.32 era (kernel/sched_fair.c:
	// sysctl_sched_min_granularity = 1000000); two CPU-bound threads get
	// about sched_latency / 2 each. Linux refuses granularities under
	// 100 µs (MinTimeSlice).
	TimeSlice float64 `json:"time_slice" help:"scheduler time slice on an oversubscribed core in s, in [0.0001, 1] (Linux's CFS refuses a granularity under 100 µs)"`
	// ThreadCreate is pthread_create plus the new thread's first run (the
	// progress thread's start-up, in TCC's Init and LibNBC's thread
	// variant): ~30 µs.
	ThreadCreate float64 `json:"thread_create" help:"cost of creating the progress thread in s, in [0, 1]"`
	// PollInterference is the paper's "synchronisation cost between the
	// progress thread and the compute threads" (Section V), which it names
	// without a magnitude: while a progress thread polls (NBCT's thread
	// while a handle is active, TCC's inside the blocking collective, whose
	// wait spins), each compute thread's row takes 1 + PollInterference
	// times as long: the poll loop keeps taking the library's lock and the
	// completion queue's and requests' cache lines, and adds its own memory
	// traffic to the socket the compute threads stream from. Dimensionless;
	// the rate is taken at the start of each row. Default 0: a progress
	// thread on a core of its own, as the hardware figures alone have it.
	// The report calibrates it on the paper's 2-node figure.
	PollInterference float64 `json:"poll_interference" help:"slowdown of each compute thread's row while a progress thread polls (0.1 = 10 % longer), in [0, 10]"`
	// ForkJoin is an OpenMP parallel region's fork plus its closing barrier
	// with 16 threads (Intel OpenMP, hot team): ~3 µs.
	ForkJoin float64 `json:"fork_join" help:"OpenMP parallel region fork + join barrier in s, in [0, 1]"`

	// MemoryShare: a socket's memory bandwidth is shared by everything
	// that streams from its memory at the same time: the NIC's DMA
	// (DMATraffic × Bandwidth per busy direction of the link, paced by the
	// link and served first, at most half the socket), then, max-min
	// fairly, the compute threads on it (each at most CoreBandwidth) and
	// the alltoall's local copy (one core reading and writing every byte,
	// at most 2 × CopyBandwidth of traffic). The communication buffers are
	// on socket 0, where the main thread first touched them (Linux's
	// default first-touch placement), so the copy and the DMA load socket
	// 0. Off (the default, the model before issue 22): each compute thread
	// streams at its static share (the lesser of CoreBandwidth and
	// SocketBandwidth over the threads on its socket), and copies and
	// transfers take no memory bandwidth. On, the compute threads run row
	// by row (or chunk by chunk between NBC_Test calls), each chunk's rate
	// taken at its start; the copy's rate is re-evaluated whenever a
	// compute thread starts or ends its share.
	MemoryShare bool `json:"memory_share" help:"compute threads, the alltoall's local copy and the NIC's DMA share each socket's memory bandwidth (max-min fair) instead of the compute threads alone"`
	// DMATraffic is the memory traffic the NIC's DMA makes per byte on
	// the wire, for each busy direction (with MemoryShare): an RDMA send
	// reads its buffer from memory and a receive writes its buffer to it,
	// 1 B per B. Intel's Data Direct I/O (Xeon E5-2600) puts incoming
	// DMA writes in the last-level cache instead, but only in 10 % of its
	// ways (2 MB of the E5-2680's 20 MB), which messages of 500 KB-5 MB
	// on a socket streaming a matrix overflow; 0 is the bound where no
	// DMA byte reaches memory.
	DMATraffic float64 `json:"dma_traffic" help:"memory traffic of the NIC's DMA per byte on the wire and busy direction (with memory_share), in [0, 1]"`
}

// Default returns the paper's 32-node case with TCC.
func Default() Params { return Paper32Nodes(TCC) }

// base holds everything but the experiment's size.
//
//go:noinline
func base(m Method) Params {
	return Params{
		Method:          m,
		Collectives:     1,
		Cores:           16,
		QueueCap:        16,
		TestEvery:       1,
		TestThreads:     TestAll,
		Alltoall:        Pairwise,
		NBCAlltoall:     AllAtOnce,
		Latency:         1.5e-6,
		Bandwidth:       6e9,
		EagerLimit:      262144,
		Sockets:         2,
		SocketBandwidth: 40e9,
		CoreBandwidth:   8e9,
		CopyBandwidth:   4e9,
		ElemBytes:       8,
		MPICall:         0.5e-6,
		ScheduleStep:    0.5e-6,
		ProgressCall:    0.5e-6,
		RequestTest:     20e-9,
		MutexHandoff:    5e-6,
		ContextSwitch:   3e-6,
		TimeSlice:       3.75e-3,
		ThreadCreate:    30e-6,
		ForkJoin:        3e-6,
		DMATraffic:      1,
	}
}

// Paper2Nodes is the paper's Fig. 1 setup: 2 nodes, 5 MB messages, a
// 4,000 × 4,000 matrix.
func Paper2Nodes(m Method) Params {
	p := base(m)
	p.Nodes, p.Msg, p.Matrix = 2, 5e6, 4000
	return p
}

// Paper32Nodes is the paper's Fig. 2 setup: 32 nodes, 500 KB messages, a
// 30,000 × 30,000 matrix.
//
//go:noinline
func Paper32Nodes(m Method) Params {
	p := base(m)
	p.Nodes, p.Msg, p.Matrix = 32, 500e3, 30000
	return p
}

// ComputeThreads is the number of threads of the matrix-vector product:
// all cores without a progress thread or when oversubscribing, one fewer
// when the progress thread has its own core (the paper: 16 vs 15).
func (p Params) ComputeThreads() int {
	if p.Method.Threaded() && !p.Oversubscribe {
		return p.Cores - 1
	}
	return p.Cores
}

// Validate reports the first parameter outside its range, naming it.
func (p Params) Validate() error {
	ints := []struct {
		field  string
		v      int
		lo, hi int
	}{
		{"nodes", p.Nodes, 2, MaxNodes},
		{"matrix", p.Matrix, 1, MaxMatrix},
		{"collectives", p.Collectives, 1, MaxCollectives},
		{"cores", p.Cores, 2, MaxCores},
		{"queue", p.QueueCap, 1, MaxQueue},
		{"test_every", p.TestEvery, 1, MaxTestEvery},
		{"sockets", p.Sockets, 1, max(1, p.Cores)},
	}
	if !(p.Msg >= 1 && p.Msg <= MaxMsg) {
		return &param.Error{Field: "msg", Value: fmt.Sprint(p.Msg), Want: fmt.Sprintf("a size in bytes in [1, %d]", MaxMsg)}
	}
	for _, c := range ints[:3] {
		if c.v < c.lo || c.v > c.hi {
			return &param.Error{Field: c.field, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("an integer in [%d, %d]", c.lo, c.hi)}
		}
	}
	if methods.Index(string(p.Method)) < 0 {
		return methods.Error("method", string(p.Method))
	}
	for _, c := range ints[3:] {
		if c.v < c.lo || c.v > c.hi {
			return &param.Error{Field: c.field, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("an integer in [%d, %d]", c.lo, c.hi)}
		}
	}
	if p.TestThreads != TestAll && p.TestThreads != TestMaster {
		return &param.Error{Field: "test_threads", Value: fmt.Sprintf("%q", p.TestThreads), Want: TestAll + " or " + TestMaster}
	}
	if !(p.DMATraffic >= 0 && p.DMATraffic <= 1) {
		return &param.Error{Field: "dma_traffic", Value: fmt.Sprint(p.DMATraffic), Want: "a ratio in [0, 1]"}
	}
	if !(p.PollInterference >= 0 && p.PollInterference <= MaxPollInterference) {
		return &param.Error{Field: "poll_interference", Value: fmt.Sprint(p.PollInterference), Want: fmt.Sprintf("a ratio in [0, %d]", MaxPollInterference)}
	}
	for _, c := range []struct{ field, v string }{{"alltoall", p.Alltoall}, {"nbc_alltoall", p.NBCAlltoall}} {
		if c.v != Pairwise && c.v != AllAtOnce {
			return &param.Error{Field: c.field, Value: fmt.Sprintf("%q", c.v), Want: "pairwise or all-at-once"}
		}
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"latency", p.Latency}, {"mpi_call", p.MPICall}, {"schedule_step", p.ScheduleStep},
		{"progress_call", p.ProgressCall}, {"request_test", p.RequestTest}, {"mutex_handoff", p.MutexHandoff},
		{"context_switch", p.ContextSwitch}, {"thread_create", p.ThreadCreate}, {"fork_join", p.ForkJoin}} {
		if !(c.v >= 0 && c.v <= maxTime) {
			return &param.Error{Field: c.field, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("a time in seconds in [0, %g]", maxTime)}
		}
	}
	if !(p.TimeSlice >= MinTimeSlice && p.TimeSlice <= maxTime) {
		return &param.Error{Field: "time_slice", Value: fmt.Sprint(p.TimeSlice), Want: fmt.Sprintf("a time in seconds in [%g, %g] (Linux's CFS refuses a granularity under 100 µs)", MinTimeSlice, maxTime)}
	}
	for _, c := range []struct {
		field string
		v     float64
	}{{"bandwidth", p.Bandwidth}, {"socket_bandwidth", p.SocketBandwidth}, {"core_bandwidth", p.CoreBandwidth}, {"copy_bandwidth", p.CopyBandwidth}} {
		if !(c.v >= minRate && c.v <= maxRate) {
			return &param.Error{Field: c.field, Value: fmt.Sprint(c.v), Want: fmt.Sprintf("a bandwidth in B/s in [%g, %g]", float64(minRate), maxRate)}
		}
	}
	if !(p.EagerLimit >= 0 && p.EagerLimit <= MaxMsg) {
		return &param.Error{Field: "eager_limit", Value: fmt.Sprint(p.EagerLimit), Want: fmt.Sprintf("a size in bytes in [0, %d]", MaxMsg)}
	}
	if !(p.ElemBytes > 0 && p.ElemBytes <= 1024) || math.IsInf(p.ElemBytes, 0) {
		return &param.Error{Field: "elem_bytes", Value: fmt.Sprint(p.ElemBytes), Want: "a size in bytes in (0, 1024]"}
	}
	return nil
}
