package nbc

import (
	"fmt"
	"math"

	"commlab/engine/des"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
)

// Event kinds of the discrete-event model.
const (
	evData     int32 = iota // a message's data has arrived at its receiver (ID: message)
	evTxDone                // the sender's NIC has put the data on the wire (ID: message)
	evPost                  // a send and its matching receive's post times (ID: message; see postSend/postRecv)
	evRTS                   // a rendezvous request-to-send reaches the receiver (ID: message)
	evCTS                   // the clear-to-send reaches the sender (ID: message)
	evPostRecv              // a receive is posted (ID: message)
	evMain                  // the main thread's current step ends (ID: rank)
	evWorker                // a compute thread finishes its rows (ID: rank·T + thread)
	evProgWake              // the progress thread runs after a hand-off (ID: rank)
	evCore                  // a context switch or a time slice ends on the shared core (ID: rank)
	evRows                  // a compute thread finishes a chunk of its rows, row-wise mode (ID: rank·T + thread)
	evTestIn                // a thread gets the library's lock for its NBC_Test (ID: rank·T + thread)
	evTestOut               // a thread's NBC_Test returns (ID: rank·T + thread)
	evCopy                  // the local copy ends, if its rate has not changed since (ID: rank)
)

// Actions wait in a rank's library until some thread of the rank is inside
// it (the rendezvous protocol needs one: the paper's Section IV-C riddle).
const (
	actAnswerRTS int8 = iota // send the clear-to-send
	actStartData             // the CTS came back: start the RDMA write
	actAdvance               // a round's requests are complete: post the next round or finish
)

type action struct {
	kind int8
	id   int32
}

// msg is one point-to-point message of one collective.
type msg struct {
	src, dst, coll int32 // coll: rank-local collective index (handle)
	posted         [2]bool
	rtsIn, dataIn  bool
	sent           bool
	lane           [2]int16 // rank 0's lanes that posted the send, the receive
}

// coll is one collective on one rank.
type coll struct {
	round, rounds int
	outstanding   int
	issued        bool
	done          bool
	mainWaits     bool // the main thread blocks on its flag (NBCT, TCC)
}

// Main-thread steps.
const (
	stCreate = iota
	stIssue
	stBlocking
	stCompute
	stWait
	stFinalize
	stEnd
)

type step struct {
	kind int
	h    int
}

type rank struct {
	pc      int  // index into the main program
	sub     int  // step-local state
	h       int  // handle of a blocked wait or blocking call
	inLib   bool // the main thread is inside the library
	acts    []action
	libBusy float64    // the library's serial CPU (MPI_THREAD_MULTIPLE's global lock) is busy until then
	links   [2]float64 // the node's link: send side and receive side busy until
	waiting bool       // the main thread is inside the library waiting for collective h
	ended   bool
	colls   []coll

	rowsDone, rowsMain int
	workersLeft        int
	// Row-wise mode (model.rowwise): each compute thread's rows left, the
	// end of its NBC_Test call, and how many threads are inside one.
	rowsLeft   []int
	callEnd    []float64
	testers    int
	computeEnd float64
	forkAt     float64
	end        float64

	// TCC's HandleQueue and the progress thread.
	queue       []int // ring of handles
	head, cnt   int
	progAwake   bool // runnable (not waiting on the condition variable)
	progSched   bool // on a core (always when runnable unless oversubscribed)
	progIn      bool // running a collective / polling: inside the library
	progCur     int  // TCC: the handle it runs, −1 if none
	wakePending bool
	preempt     bool // the progress thread just woke: CFS lets it preempt the compute thread
	mainBlocked bool // TCC: enqueue waits for a slot
	stop        bool

	// The shared core (oversubscription): compute thread w and the
	// progress thread.
	wStarted, wDone bool
	wRemaining      float64
	wRunning        bool
	wSince, wDoneAt float64
	wPending        float64 // the time of w's scheduled completion (wCompletion)
	owner           int8    // 0 none, 1 w, 2 progress
	switching       bool
	next            int8
	sliceEnd        float64
	coreAt          float64

	// Memory sharing (Params.MemoryShare): compute threads streaming per
	// socket, the link's transfers (send, receive) and the local copy.
	streams []int
	dma     [2]ivQueue
	cp      copyState
}

const (
	ownNone int8 = iota
	ownW
	ownP
)

type model struct {
	p        Params
	P, T, K  int
	commOnly bool
	sim      des.Sim
	ranks    []rank
	msgs     []msg
	prog     []step
	rowTime  []float64 // per compute thread
	rankRows []int
	shared   bool // oversubscribed: the progress thread shares compute thread w's core
	w        int
	// allTest: NBCF-test with every compute thread calling NBC_Test
	// (Params.TestThreads = TestAll). interferes: a progress thread slows
	// the compute threads' rows (Params.PollInterference > 0). Either runs
	// the product row-wise: one event per chunk of rows per thread.
	allTest, interferes bool
	// memShare: Params.MemoryShare (rows run one by one at their share).
	memShare bool

	rec      *trace.Trace
	lanes    []laneState
	progLane int
	netLane  int
	evs      []HandleEvent
	tx, rx   [][2]float64 // rank 0's transfer intervals
	moving   [][2]float64 // rank 0's intervals with a collective in progress and not stalled
	movingOn bool
	movingAt float64
	first    float64 // rank 0's first Issue
	lastWait float64
	err      error
	events   int // handled by simulate
}

type laneState struct {
	open  bool
	kind  trace.Kind
	start float64
	label string
	step  int
}

// threadRows splits rank r's rows over T threads, OpenMP static schedule.
func threadRows(rows, T, t int) int {
	q, rem := rows/T, rows%T
	if t < rem {
		return q + 1
	}
	return q
}

// rowTimes is each compute thread's time per row: the row's bytes over the
// bandwidth it streams, its core's or its share of its socket's.
func rowTimes(p Params, T int) []float64 {
	perSocket := (p.Cores + p.Sockets - 1) / p.Sockets
	on := make([]int, p.Sockets)
	for t := range T {
		on[t/perSocket]++
	}
	rt := make([]float64, T)
	for t := range T {
		bw := min(p.CoreBandwidth, p.SocketBandwidth/float64(on[t/perSocket]))
		rt[t] = float64(p.Matrix) * p.ElemBytes / bw
	}
	return rt
}

// ComputeTime is the matrix-vector product alone on one rank with p's
// compute threads: the slowest thread's rows, plus the fork and join.
func ComputeTime(p Params) float64 {
	T := p.ComputeThreads()
	rt := rowTimes(p, T)
	rows := (p.Matrix + p.Nodes - 1) / p.Nodes
	var worst float64
	for t := range T {
		worst = max(worst, float64(threadRows(rows, T, t))*rt[t])
	}
	return worst + p.ForkJoin
}

func run(p Params, rec *trace.Trace, pr progress.Func) (Result, error) {
	res, _, err := runCounted(p, rec, pr)
	return res, err
}

// runCounted is run that also returns how many events its simulations
// handled (the run, its communication alone, its baseline): what
// Estimate bounds.
func runCounted(p Params, rec *trace.Trace, pr progress.Func) (Result, int, error) {
	m := newModel(p, rec, false)
	m.watch(pr.Part(0, 0.5))
	if err := m.simulate(); err != nil {
		return Result{}, 0, err
	}
	events := m.events
	res := Result{Total: m.total(), Events: m.evs}
	res.Compute = ComputeTime(p)
	c := newModel(p, nil, true)
	c.watch(pr.Part(0.5, 0.75))
	if err := c.simulate(); err != nil {
		return Result{}, 0, err
	}
	events += c.events
	res.Comm = c.lastWait - c.first
	res.Overlap = m.overlap()
	res.Overhead = res.Total - (res.Compute + res.Comm - res.Overlap)
	res.Baseline = res.Total
	if b := p.Method.Baseline(); b != p.Method {
		bp := p
		bp.Method = b
		bm := newModel(bp, nil, false)
		bm.watch(pr.Part(0.75, 1))
		if err := bm.simulate(); err != nil {
			return Result{}, 0, err
		}
		res.Baseline = bm.total()
		events += bm.events
	}
	res.Speedup = res.Baseline / res.Total
	if rec != nil {
		rec.Sort()
	}
	return res, events, nil
}

func newModel(p Params, rec *trace.Trace, commOnly bool) *model {
	m := &model{p: p, P: p.Nodes, T: p.ComputeThreads(), K: p.Collectives, commOnly: commOnly, rec: rec}
	m.shared = p.Method.Threaded() && p.Oversubscribe
	m.w = m.T - 1
	m.allTest = !commOnly && p.Method == NBCFTest && p.TestThreads == TestAll
	m.interferes = !commOnly && p.Method.Threaded() && p.PollInterference > 0
	m.memShare = p.MemoryShare
	m.rowTime = rowTimes(p, m.T)
	m.ranks = make([]rank, m.P)
	m.msgs = make([]msg, m.K*m.P*m.P)
	for i := range m.msgs {
		k := i / (m.P * m.P)
		m.msgs[i] = msg{src: int32(i / m.P % m.P), dst: int32(i % m.P), coll: int32(k)}
	}
	m.rankRows = make([]int, m.P)
	for r := range m.P {
		m.rankRows[r] = p.Matrix / m.P
		if r < p.Matrix%m.P {
			m.rankRows[r]++
		}
	}
	// The main program (specs/nbc-tcc.md, the paper's Section IV-A).
	add := func(kind, h int) { m.prog = append(m.prog, step{kind, h}) }
	if p.Method.Threaded() {
		add(stCreate, -1)
	}
	switch p.Method {
	case MPI:
		for h := range m.K {
			add(stBlocking, h)
		}
		add(stCompute, -1)
	case NBCFNoOvlp:
		for h := range m.K {
			add(stIssue, h)
		}
		for h := range m.K {
			add(stWait, h)
		}
		add(stCompute, -1)
	default:
		for h := range m.K {
			add(stIssue, h)
		}
		add(stCompute, -1)
		for h := range m.K {
			add(stWait, h)
		}
	}
	if p.Method == TCC {
		add(stFinalize, -1)
	}
	add(stEnd, -1)
	for r := range m.ranks {
		rk := &m.ranks[r]
		rk.colls = make([]coll, m.K)
		rk.queue = make([]int, p.QueueCap)
		rk.progCur = -1
		rk.h = -1
		if m.memShare {
			rk.streams = make([]int, p.Sockets)
		}
		if m.rowwise() {
			rk.rowsLeft = make([]int, m.T)
			rk.callEnd = make([]float64, m.T)
		}
	}
	if rec != nil {
		n := m.T
		m.progLane, m.netLane = -1, n
		if p.Method.Threaded() {
			m.progLane, m.netLane = n, n+1
		}
		*rec = *trace.New("nbc", m.netLane+1, func(i int) string {
			switch {
			case i == 0:
				return "main (thread 0)"
			case i < m.T:
				return fmt.Sprintf("compute %d", i)
			case i == m.progLane:
				return "progress thread"
			}
			return "other ranks"
		})
		m.lanes = make([]laneState, m.netLane+1)
	}
	return m
}

func (m *model) simulate() error {
	for r := range m.P {
		m.sim.Schedule(0, evMain, int32(r))
	}
	m.events = m.sim.Run(m)
	if err := m.sim.Err(); err != nil {
		return err
	}
	if m.err != nil {
		return m.err
	}
	for r := range m.ranks {
		if !m.ranks[r].ended {
			return errf.Errorf("nbc: internal error: rank %d stopped at step %d of %d (deadlock in the model)", r, m.ranks[r].pc, len(m.prog))
		}
	}
	return nil
}

// watch has pr hear the share of the ranks' programs done, every
// des.CheckEvery events (never going back), and stop the run when it says.
func (m *model) watch(pr progress.Func) {
	if pr == nil {
		return
	}
	var last float64
	m.sim.Checkpoint = func() error {
		done := 0
		for r := range m.ranks {
			done += m.ranks[r].pc
		}
		last = max(last, float64(done)/float64(len(m.ranks)*max(len(m.prog), 1)))
		return pr.Report(last)
	}
}

func (m *model) total() float64 {
	var t float64
	for r := range m.ranks {
		t = max(t, m.ranks[r].end)
	}
	return t
}

// Handle is the des.Handler.
func (m *model) Handle(s *des.Sim, e des.Event) {
	now := e.Time
	switch e.Kind {
	case evMain:
		m.mainStep(int(e.ID), now)
	case evWorker:
		r, t := int(e.ID)/m.T, int(e.ID)%m.T
		rk := &m.ranks[r]
		if m.shared && t == m.w {
			if !rk.wRunning || now != rk.wDoneAt {
				return // paused since: a stale completion
			}
			rk.wRunning, rk.wDone, rk.wRemaining = false, true, 0
			m.setLane(r, t, trace.Idle, now, "barrier", -1)
			m.reschedule(r, now)
		} else {
			m.setLane(r, t, trace.Idle, now, "barrier", -1)
		}
		m.streamEnd(r, t, now)
		m.workerDone(r, now)
	case evPost:
		m.postSend(int(e.ID), now)
	case evPostRecv:
		m.postRecv(int(e.ID), now)
	case evRTS:
		g := &m.msgs[e.ID]
		g.rtsIn = true
		if g.posted[1] {
			m.act(int(g.dst), action{actAnswerRTS, e.ID}, now)
		}
	case evCTS:
		g := &m.msgs[e.ID]
		m.act(int(g.src), action{actStartData, e.ID}, now)
	case evData:
		g := &m.msgs[e.ID]
		g.dataIn = true
		if g.posted[1] {
			m.complete(int(g.dst), int(g.coll), now)
		}
	case evTxDone:
		g := &m.msgs[e.ID]
		g.sent = true
		m.complete(int(g.src), int(g.coll), now)
	case evRows:
		m.rowsDone(int(e.ID)/m.T, int(e.ID)%m.T, now)
	case evTestIn:
		m.testIn(int(e.ID)/m.T, int(e.ID)%m.T, now)
	case evTestOut:
		r, t := int(e.ID)/m.T, int(e.ID)%m.T
		m.ranks[r].testers--
		m.nextRows(r, t, now)
	case evProgWake:
		m.progWake(int(e.ID), now)
	case evCore:
		r := int(e.ID)
		if now != m.ranks[r].coreAt {
			return
		}
		m.coreEvent(r, now)
	case evCopy:
		m.copyDone(int(e.ID), now)
	}
}

// ---- the library: presence, actions, protocols ----

// present reports whether some thread of rank r is inside the MPI library
// now, so that protocol messages that arrive are answered.
func (m *model) present(r int) bool {
	rk := &m.ranks[r]
	return rk.inLib || rk.testers > 0 || rk.progIn && rk.progSched
}

// act runs a protocol action now if a thread is in the library, else
// leaves it for the next one that enters.
func (m *model) act(r int, a action, now float64) {
	if m.present(r) {
		m.doAction(r, a, now)
		return
	}
	m.ranks[r].acts = append(m.ranks[r].acts, a)
	m.track(r, now)
}

// track records when rank 0's collectives progress by themselves: one is
// in progress and nothing waits for a thread to enter the library.
//
//go:noinline
func (m *model) track(r int, now float64) {
	if r != 0 {
		return
	}
	rk := &m.ranks[0]
	on := len(rk.acts) == 0 && !m.allDone(0)
	if on == m.movingOn {
		return
	}
	if m.movingOn {
		m.moving = append(m.moving, [2]float64{m.movingAt, now})
	}
	m.movingOn, m.movingAt = on, now
}

// flush runs the actions that waited for a thread to enter the library.
func (m *model) flush(r int, now float64) {
	rk := &m.ranks[r]
	for len(rk.acts) > 0 && m.present(r) {
		a := rk.acts[0]
		rk.acts = rk.acts[1:]
		m.doAction(r, a, now)
	}
	if len(rk.acts) == 0 {
		rk.acts = rk.acts[:0]
	}
	m.track(r, now)
}

func (m *model) doAction(r int, a action, now float64) {
	switch a.kind {
	case actAnswerRTS:
		m.sim.Schedule(now+m.p.MPICall+m.p.Latency, evCTS, a.id)
	case actStartData:
		m.startData(int(a.id), now+m.p.MPICall)
	case actAdvance:
		m.advance(r, int(a.id), now)
	}
}

func (m *model) msgIndex(h, src, dst int) int { return (h*m.P+src)*m.P + dst }

// startData puts a message's data on the wire: the sender's link
// serialises its transfers, the receiver's link its arrivals.
func (m *model) startData(i int, t float64) {
	g := &m.msgs[i]
	src, dst := &m.ranks[g.src], &m.ranks[g.dst]
	d := m.p.Msg / m.p.Bandwidth
	start := max(t, src.txFree())
	src.setTxFree(start + d)
	arrive := max(start+d+m.p.Latency, dst.rxFree()+d)
	dst.setRxFree(arrive)
	m.sim.Schedule(start+d, evTxDone, int32(i))
	m.sim.Schedule(arrive, evData, int32(i))
	if m.memShare {
		src.dma[0].push(start, start+d)
		dst.dma[1].push(arrive-d, arrive)
	}
	if g.src == 0 {
		m.tx = append(m.tx, [2]float64{start, start + d})
	}
	if g.dst == 0 {
		m.rx = append(m.rx, [2]float64{arrive - d, arrive})
	}
	if m.rec != nil && (g.src == 0 || g.dst == 0) {
		cl := "rendezvous"
		if m.eager() {
			cl = "eager"
		}
		from, to := int(g.lane[0]), m.netLane
		if g.dst == 0 {
			from, to = m.netLane, int(g.lane[1])
		}
		m.rec.AddMessage(trace.Message{From: from, To: to, Send: start, Arrive: arrive, Step: int(g.coll), Class: cl, Used: true})
	}
}

// The links' free times live in the rank so that all state is per rank.
func (rk *rank) txFree() float64     { return rk.links[0] }
func (rk *rank) rxFree() float64     { return rk.links[1] }
func (rk *rank) setTxFree(t float64) { rk.links[0] = t }
func (rk *rank) setRxFree(t float64) { rk.links[1] = t }

func (m *model) eager() bool { return m.p.Msg <= m.p.EagerLimit }

// postSend is the send of message i being posted (by a thread inside the
// library): eager data leaves at once, a rendezvous sends its RTS.
func (m *model) postSend(i int, now float64) {
	g := &m.msgs[i]
	g.posted[0] = true
	if m.eager() {
		m.startData(i, now)
		return
	}
	m.sim.Schedule(now+m.p.Latency, evRTS, int32(i))
}

// postRecv is the matching receive being posted: it takes eager data that
// already arrived, and answers an RTS that already came.
func (m *model) postRecv(i int, now float64) {
	g := &m.msgs[i]
	g.posted[1] = true
	switch {
	case m.eager() && g.dataIn:
		m.complete(int(g.dst), int(g.coll), now)
	case !m.eager() && g.rtsIn:
		m.doAction(int(g.dst), action{actAnswerRTS, int32(i)}, now)
	}
}

// complete counts one request of rank r's collective h as complete; when
// its round is, the schedule advances at the next library entry.
func (m *model) complete(r, h int, now float64) {
	c := &m.ranks[r].colls[h]
	c.outstanding--
	if c.outstanding == 0 {
		m.act(r, action{actAdvance, int32(h)}, now)
	}
}

// algorithm returns the alltoall algorithm of the method's collectives.
func (m *model) pairwise() bool {
	if m.p.Method.LibNBC() {
		return m.p.NBCAlltoall == Pairwise
	}
	return m.p.Alltoall == Pairwise
}

// postRound posts round k of rank r's collective h from time t (or when
// the library is free), receive before send as LibNBC schedules them, and
// returns when the posting ends. Before the first round the block to
// itself is copied locally: its time is fixed, or, with memory sharing, it
// runs at its share of the socket's memory and postRound returns +Inf (the
// posts follow when it ends: copyDone).
func (m *model) postRound(r, h, k int, lane int, t float64) float64 {
	rk := &m.ranks[r]
	t = max(t, rk.libBusy)
	if k == 0 {
		if m.memShare {
			m.startCopy(r, h, lane, t)
			return math.Inf(1)
		}
		t += m.p.Msg / m.p.CopyBandwidth
	}
	return m.postOps(r, h, k, lane, t)
}

// postOps posts round k's requests from time t, one MPI call each.
func (m *model) postOps(r, h, k int, lane int, t float64) float64 {
	rk := &m.ranks[r]
	c := &rk.colls[h]
	t = max(t, rk.libBusy)
	post := func(peer int, send bool) {
		t += m.p.MPICall
		if send {
			i := m.msgIndex(h, r, peer)
			m.msgs[i].lane[0] = int16(lane)
			m.sim.Schedule(t, evPost, int32(i))
		} else {
			i := m.msgIndex(h, peer, r)
			m.msgs[i].lane[1] = int16(lane)
			m.sim.Schedule(t, evPostRecv, int32(i))
		}
		c.outstanding++
	}
	if m.pairwise() {
		d := k + 1
		post((r-d+m.P)%m.P, false)
		post((r+d)%m.P, true)
	} else {
		for d := 1; d < m.P; d++ {
			post((r-d+m.P)%m.P, false)
			post((r+d)%m.P, true)
		}
	}
	rk.libBusy = t
	return t
}

func (m *model) rounds() int {
	if m.pairwise() {
		return m.P - 1
	}
	return 1
}

func (m *model) opsPerRound() int {
	if m.pairwise() {
		return 2
	}
	return 2 * (m.P - 1)
}

// advance: rank r's collective h finished a round (seen by a thread in the
// library): post the next, or the collective is done.
func (m *model) advance(r, h int, now float64) {
	rk := &m.ranks[r]
	c := &rk.colls[h]
	c.round++
	if c.round < c.rounds {
		m.postRound(r, h, c.round, m.libLane(r), now)
		return
	}
	c.done = true
	m.event(r, now, h, Done, -1)
	m.track(r, now)
	switch m.p.Method {
	case MPI, NBCFNoOvlp, NBCFTest, NBCFNoTest:
		// The main thread is in the blocking call or in NBC_Wait on it, or
		// it will find the flag when it gets there.
		if rk.waiting && rk.h == h {
			rk.waiting = false
			m.sim.Schedule(now, evMain, int32(r))
		}
	case NBCT:
		if c.mainWaits {
			c.mainWaits = false
			m.sim.Schedule(now+m.p.MutexHandoff, evMain, int32(r))
		}
		if m.allDone(r) {
			m.progSleep(r, now)
		}
	case TCC:
		if c.mainWaits {
			c.mainWaits = false
			m.sim.Schedule(now+m.p.MutexHandoff, evMain, int32(r))
		}
		rk.progCur = -1
		m.tccNext(r, now)
	}
}

func (m *model) allDone(r int) bool {
	for _, c := range m.ranks[r].colls {
		if c.issued && !c.done {
			return false
		}
	}
	return true
}

// libLane is the lane of the rank-0 thread in the library now.
func (m *model) libLane(r int) int {
	if m.ranks[r].inLib || m.progLane < 0 {
		return 0
	}
	return m.progLane
}

// outstanding is how many requests a progress call tests.
func (m *model) outstanding(r int) int {
	n := 0
	for _, c := range m.ranks[r].colls {
		if c.issued && !c.done {
			n += c.outstanding
		}
	}
	return n
}
