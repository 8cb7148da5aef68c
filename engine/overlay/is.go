package overlay

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"commlab/engine/des"
	"commlab/engine/param"
	"commlab/engine/progress"
	"commlab/engine/topology"
	"commlab/engine/trace"
	"commlab/internal/errf"
)

// Event kinds of the simulation (des.Event.Kind).
const (
	evJob    int32 = iota // a CPU job ends; ID = job
	evArrive              // a message reaches the next process; ID = message
	evSyn                 // a shortcut's connection request (SYN) reaches its far end; ID = connection
	evReady               // the reply (SYN-ACK) reaches the opener, which may send on it; ID = connection
	evAck                 // HandshakeKernel: the opener's ACK reaches the far end, the connection waits for accept(); ID = connection
	evHop                 // a message's head reaches the next link of its path; ID = message
)

// What a CPU job is.
const (
	jBucket   uint8 = iota // local bucketing before the exchange
	jRank                  // local ranking after it
	jSend                  // handing a message to the network
	jRecv                  // taking a message at its destination
	jRelay                 // taking a message and forwarding it
	jConnect               // a shortcut's connect at its opener (HandshakeKernel: its cost only)
	jAccept                // its accept at the far end
	jTeardown              // closing an evicted shortcut
)

// Message tags: allreduce rounds are 0 … rounds−1, the exchange of the
// send counts is tagCounts, the keys' all-to-all-v tagKeys.
const (
	tagKeys   = -1
	tagCounts = -2
)

// The exchange's phases of a process (is.phase).
const (
	phNone   int8 = iota // bucketing, allreduce or ranking
	phCounts             // the send counts' all-to-all
	phKeys               // the keys' all-to-all-v
)

type job struct {
	proc int32
	kind uint8
	id   int32 // message or connection
	next int32 // the job queued after it on the same CPU, -1 for none
	// start and end are set when the job starts, at the head of its
	// CPU's queue. Until then end holds the CPU time of a job whose cost
	// is known when it is queued (bucketing, ranking, set-up, teardown; a
	// send's, a receive's and a relay's depend on the connections open
	// when it starts: is.cost). A posted chunk is a queued job, so a job
	// stays 32 bytes.
	start, end float64
}

type message struct {
	src, dst int32
	from, at int32 // the current hop: from one process to another
	tag      int32
	iter     int32
	bytes    float64
	keys     int32   // keys it carries (a chunk of a key message: its share)
	sent     float64 // when it left its current holder
	tail     float64 // when its tail left the last link it crossed
	hop      int32   // the next link of its path, by index
	relayed  bool
}

// is is one Integer Sort run.
type is struct {
	p      Params
	cl     *cluster
	cs     *Connections
	next   []int32
	sim    des.Sim
	rec    *trace.Trace
	res    Result
	rounds int

	linkFree []float64
	jobs     []job
	freeJobs []int32
	// Each CPU's queue of jobs (linked through job.next): only the job
	// running (the head) has its end in the event queue, so the event
	// queue holds one job per process rather than every send a process
	// has posted. busy says whether a process's CPU is running a job (or
	// finishing one: the next starts once the finished one's effects are
	// in).
	qHead, qTail []int32
	busy         []bool
	msgs         []message
	freeMsgs     []int32
	pathBuf      []int

	counts []int32 // counts[src·P+dst]: keys src sends dst
	expect []int32 // expect[dst]: key messages (chunks) dst receives per iteration
	perm   []int32 // Pattern random: perm[(it·P+i)·(P−1)+k] is i's k-th destination
	// Program state per process.
	iter, round []int32
	phase       []int8
	arGot       []bool  // [proc][iter·rounds + round]: allreduce message received
	countsGot   []int32 // [proc][iter]: send-count messages received
	keysGot     []int32 // [proc][iter]: key messages received
	keysRecv    []int64 // [proc][iter]: keys received
	done        []float64
}

// RunIS runs the Integer Sort on the overlay Params describe and returns
// what it measured. rng draws the keys (and the random policy's
// connections); rec, when not nil, receives the trace: one lane per
// process, its CPU's work as spans, every hop of every message.
func RunIS(p Params, rng *rand.Rand, rec *trace.Trace) (Result, error) {
	return RunISProgress(p, rng, rec, nil)
}

// RunISProgress is RunIS telling pr the fraction of the processes'
// iterations done, every des.CheckEvery events (a key all-to-all counts
// half an iteration); an error pr returns stops the run and comes back.
// The numbers do not depend on pr.
func RunISProgress(p Params, rng *rand.Rand, rec *trace.Trace, pr progress.Func) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	t, err := Cluster(p)
	if err != nil {
		return Result{}, err
	}
	cl, err := fromTree(t, p.Procs)
	if err != nil {
		return Result{}, err
	}
	return run(p, cl, rng, rec, pr)
}

// RunISOn is RunIS on the switch tree t instead of Cluster(p): p.Nodes
// must be t's node count; p.Switches is not used.
func RunISOn(p Params, t *topology.Tree, rng *rand.Rand, rec *trace.Trace) (Result, error) {
	if err := p.Validate(); err != nil {
		return Result{}, err
	}
	if p.Nodes != len(t.Nodes) {
		return Result{}, &param.Error{Field: "nodes", Value: fmt.Sprint(p.Nodes), Want: fmt.Sprintf("the tree's node count, %d", len(t.Nodes))}
	}
	cl, err := fromTree(t, p.Procs)
	if err != nil {
		return Result{}, err
	}
	return run(p, cl, rng, rec, nil)
}

func run(p Params, cl *cluster, rng *rand.Rand, rec *trace.Trace, pr progress.Func) (Result, error) {
	if rng == nil {
		return Result{}, errf.Errorf("overlay: RunIS needs a random source")
	}
	P := p.Procs
	adj, counts, perm := draw(p, cl, rng)
	s := &is{p: p, cl: cl, rec: rec, rounds: bits.Len(uint(P - 1)), counts: counts, perm: perm}
	s.next = routes(adj, cl.procLeaf, p.Policy)
	for i := range s.next {
		if s.next[i] < 0 {
			return Result{}, errf.Errorf("overlay: process %d cannot reach process %d over the static connections", i/P, i%P)
		}
	}
	s.cs = NewConnections(adj, p.Cache, s.bufferBytes)
	s.expect = make([]int32, P)
	for src := range P {
		for dst := range P {
			if src != dst {
				s.expect[dst] += int32(chunks(p, s.counts[src*P+dst]))
			}
		}
	}
	// Every message makes a Send or a Relay event; with a shortcut cache a
	// relayed one also a shortcut's open, ready and eviction, at most
	// about as many as the share f of pairs without a static connection
	// (the paper's experiment at C = 8 under the kernel's handshake: 3.3
	// events per message, f = 0.76; with 256 B chunks, which shortcuts
	// serve, 1.5). Reserved up front: growing the slice of a million
	// events would copy it and hold twice its size.
	static := 0
	for _, ns := range adj {
		static += len(ns)
	}
	perMsg := 1.0
	if p.Cache > 0 && p.Policy != All {
		perMsg += 3.15 * (1 - float64(static)/float64(P*(P-1)))
	}
	s.res.Events = make([]ConnEvent, 0, static/2+int(Messages(p)*perMsg))
	for a, ns := range adj {
		for _, b := range ns {
			if a < b {
				s.event(0, Open, a, b, -1)
			}
		}
		s.res.StaticMean += float64(len(ns))
		s.res.StaticMax = max(s.res.StaticMax, float64(len(ns)))
	}
	s.res.StaticMean /= float64(P)
	if rec != nil {
		*rec = *trace.New("overlay", P, func(i int) string { return fmt.Sprintf("P%d", i) })
	}

	s.qHead, s.qTail = make([]int32, P), make([]int32, P)
	s.busy = make([]bool, P)
	for i := range P {
		s.qHead[i], s.qTail[i] = -1, -1
	}
	s.linkFree = make([]float64, cl.numLinks())
	s.iter, s.round = make([]int32, P), make([]int32, P)
	s.phase = make([]int8, P)
	s.arGot = make([]bool, P*p.Iterations*s.rounds)
	s.countsGot = make([]int32, P*p.Iterations)
	s.keysGot = make([]int32, P*p.Iterations)
	s.keysRecv = make([]int64, P*p.Iterations)
	s.done = make([]float64, P)
	for i := range P {
		s.startIteration(i, 0)
	}
	if pr != nil {
		// A process leaves its key phase an event before its next
		// iteration starts: the fraction heard never goes back.
		var last float64
		s.sim.Checkpoint = func() error {
			last = max(last, s.fractionDone())
			return pr.Report(last)
		}
	}
	s.sim.Run(s)
	if err := s.sim.Err(); err != nil {
		return Result{}, err
	}

	for i := range P {
		if int(s.iter[i]) != p.Iterations {
			return Result{}, errf.Errorf("overlay: process %d stopped in iteration %d (a model bug)", i, s.iter[i])
		}
		s.res.Time = max(s.res.Time, s.done[i])
		s.res.ConnMean += float64(s.cs.Peak(i))
		s.res.ConnMax = max(s.res.ConnMax, float64(s.cs.Peak(i)))
		s.res.BufferMean += s.cs.PeakBuffer(i)
		s.res.BufferBytes = max(s.res.BufferBytes, s.cs.PeakBuffer(i))
	}
	s.res.ConnMean /= float64(P)
	s.res.BufferMean /= float64(P)
	if rec != nil {
		rec.Sort()
	}
	return s.res, nil
}

// fractionDone is the share of the processes' iterations done, a key
// all-to-all under way counting half an iteration, for RunISProgress.
func (s *is) fractionDone() float64 {
	var done float64
	for i := range s.iter {
		done += float64(s.iter[i])
		if s.phase[i] == phKeys {
			done += 0.5
		}
	}
	return done / float64(len(s.iter)*s.p.Iterations)
}

// draw makes a run's random draws: the keys, then the random pattern's
// orders, then the random policy's connections, so that one seed gives
// every policy, cache and handshake the same keys and orders (common
// random numbers: their differences are not the draws'). It returns the
// static connections, the send counts and the orders (nil unless
// PatternRandom).
func draw(p Params, cl *cluster, rng *rand.Rand) (adj [][]int, counts, perm []int32) {
	counts = drawCounts(p, rng)
	if p.Pattern == PatternRandom {
		perm = drawOrders(p, rng)
	}
	switch p.Policy {
	case Topology:
		adj = staticTopology(cl.procLeaf)
	case All:
		adj = staticAll(p.Procs)
	case Random:
		adj = staticRandom(p.Procs, p.RandomDegree, rng)
	}
	return adj, counts, perm
}

// drawCounts draws every process's keys as NPB IS does (the mean of four
// uniform numbers, scaled to [0, MaxKey): a bell-shaped distribution),
// counts them per bucket, and splits the buckets over the processes as
// NPB's rank() does: process j takes buckets until the running total of
// all processes' bucket sizes reaches (j+1)·Keys/P. It returns how many
// keys each process sends each (itself included).
func drawCounts(p Params, rng *rand.Rand) []int32 {
	P, B := p.Procs, p.Buckets
	local := make([]int32, P*B)
	total := make([]int64, B)
	for i := range P {
		n := p.Keys / P
		if i < p.Keys%P {
			n++
		}
		for range n {
			// Four 32-bit uniforms from two draws; their sum s < 2^34 and
			// MaxKey ≤ 2^30 keep s·MaxKey within 64 bits, all integer.
			u, w := rng.Uint64(), rng.Uint64()
			sum := u>>32 + u&0xffffffff + w>>32 + w&0xffffffff
			key := sum * uint64(p.MaxKey) >> 34
			b := key * uint64(B) / uint64(p.MaxKey)
			local[i*B+int(b)]++
			total[b]++
		}
	}
	owner := make([]int, B)
	var acc int64
	j := 0
	for b := range B {
		owner[b] = j
		acc += total[b]
		for j < P-1 && acc >= int64(j+1)*int64(p.Keys)/int64(P) {
			j++
		}
	}
	counts := make([]int32, P*P)
	for i := range P {
		for b := range B {
			counts[i*P+owner[b]] += local[i*B+b]
		}
	}
	return counts
}

// bufferBytes is a connection's buffer at each end: the bandwidth-delay
// product of its path (Bandwidth × round-trip latency).
func (s *is) bufferBytes(a, b int) float64 {
	return s.p.Bandwidth * 2 * s.latency(a, b)
}

// latency is the one-way latency between processes a and b, without the
// transfer time.
//
//go:noinline
func (s *is) latency(a, b int) float64 {
	return s.p.Latency + float64(s.cl.hops(s.cl.procNode[a], s.cl.procNode[b]))*s.p.HopLatency
}

func (s *is) event(t float64, k EventKind, from, to, via int) {
	s.res.Events = append(s.res.Events, ConnEvent{Time: t, Kind: k, From: int32(from), To: int32(to), Via: int32(via)})
}

// poll is a process's CPU time to handle one message: the fixed cost and
// select()'s scan of its open connections.
func (s *is) poll(proc int) float64 {
	return s.p.MsgCPU + s.p.PollPerConn*float64(s.cs.Open(proc))
}

// cpu queues a job on proc's CPU at time t (the simulation's now); the
// CPU serves jobs in the order they are queued. work is its CPU time when
// that does not depend on the state at its start (is.cost).
func (s *is) cpu(proc int, t, work float64, kind uint8, id int32) {
	var j int32
	if n := len(s.freeJobs); n > 0 {
		j = s.freeJobs[n-1]
		s.freeJobs = s.freeJobs[:n-1]
	} else {
		j = int32(len(s.jobs))
		s.jobs = append(s.jobs, job{})
	}
	s.jobs[j] = job{proc: int32(proc), kind: kind, id: id, next: -1, end: work}
	if s.qHead[proc] < 0 {
		s.qHead[proc] = j
	} else {
		s.jobs[s.qTail[proc]].next = j
	}
	s.qTail[proc] = j
	if !s.busy[proc] {
		s.start(proc, t)
	}
}

// start runs the job at the head of proc's queue from time t.
func (s *is) start(proc int, t float64) {
	j := s.qHead[proc]
	s.busy[proc] = true
	s.jobs[j].start, s.jobs[j].end = t, t+s.cost(&s.jobs[j])
	s.sim.Schedule(s.jobs[j].end, evJob, j)
}

// cost is job j's CPU time, found when it starts: a message handled pays
// select()'s scan of the connections open then (is.poll), including
// shortcuts opened since the send was posted.
func (s *is) cost(j *job) float64 {
	p := int(j.proc)
	switch j.kind {
	case jSend, jRecv:
		return s.poll(p)
	case jRelay:
		return 2*s.poll(p) + s.p.RelayCPU + s.msgs[j.id].bytes/s.p.RelayBandwidth
	}
	return j.end // its work, until it starts
}

func (s *is) newMessage(m message) int32 {
	if n := len(s.freeMsgs); n > 0 {
		id := s.freeMsgs[n-1]
		s.freeMsgs = s.freeMsgs[:n-1]
		s.msgs[id] = m
		return id
	}
	s.msgs = append(s.msgs, m)
	return int32(len(s.msgs) - 1)
}

// startIteration runs iteration it's bucketing on process i.
func (s *is) startIteration(i int, t float64) {
	// round −1: neither in the allreduce nor in the exchange, so messages
	// arriving early are only counted.
	s.round[i], s.phase[i] = -1, phNone
	n := s.p.Keys / s.p.Procs
	if i < s.p.Keys%s.p.Procs {
		n++
	}
	s.cpu(i, t, float64(n)*s.p.KeyTime, jBucket, -1)
}

// allreducePeers are process i's partners in round r of the allreduce of
// the bucket sizes: recursive doubling (exchange with i XOR 2^r) when P is
// a power of two, else dissemination (send to i+2^r, receive from i−2^r).
func (s *is) allreducePeers(i, r int) (to, from int) {
	P := s.p.Procs
	if P&(P-1) == 0 {
		return i ^ (1 << r), i ^ (1 << r)
	}
	return (i + 1<<r) % P, ((i-1<<r)%P + P) % P
}

// advance moves process i through the allreduce rounds it can finish at
// time t, then into the key exchange.
func (s *is) advance(i int, t float64) {
	it := int(s.iter[i])
	for int(s.round[i]) < s.rounds {
		r := int(s.round[i])
		if !s.arGot[(i*s.p.Iterations+it)*s.rounds+r] {
			return
		}
		s.round[i]++
		if int(s.round[i]) < s.rounds {
			s.post(i, t, int32(s.round[i]))
		}
	}
	if s.phase[i] != phNone {
		return
	}
	// The send counts' all-to-all (NPB IS's MPI_Alltoall of send_count:
	// one int to every process), every send posted at once in the
	// pattern's order; the keys follow once every count is in.
	s.phase[i] = phCounts
	it32 := s.iter[i]
	for k := 1; k < s.p.Procs; k++ {
		dst := s.dest(i, int(it32), k)
		s.sendTo(i, dst, t, tagCounts, 4, 0)
	}
	s.checkCounts(i, t)
}

// dest is process i's k-th destination (k = 1 … P−1) of iteration it in
// the exchange's pattern.
func (s *is) dest(i, it, k int) int {
	return patternDest(s.p, s.perm, i, it, k)
}

func patternDest(p Params, perm []int32, i, it, k int) int {
	P := p.Procs
	switch p.Pattern {
	case PatternPairwise:
		if P&(P-1) == 0 {
			return i ^ k
		}
	case PatternRandom:
		return int(perm[(it*P+i)*(P-1)+k-1])
	}
	return (i + k) % P
}

// checkCounts starts the keys' all-to-all-v once every count of the
// iteration is in: messages in the pattern's order, each split into
// chunks of ChunkBytes sent one after another.
func (s *is) checkCounts(i int, t float64) {
	k := i*s.p.Iterations + int(s.iter[i])
	if s.phase[i] != phCounts || int(s.countsGot[k]) != s.p.Procs-1 {
		return
	}
	s.phase[i] = phKeys
	P := s.p.Procs
	for k := 1; k < P; k++ {
		dst := s.dest(i, int(s.iter[i]), k)
		keys := int(s.counts[i*P+dst])
		n := chunks(s.p, int32(keys))
		for c := range n {
			part := keys/n + b2i(c < keys%n)
			s.sendTo(i, dst, t, tagKeys, float64(part)*s.p.KeyBytes, int32(part))
		}
	}
	s.checkExchange(i, t)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// chunks is how many messages a key message of keys keys is split into:
// ceil(bytes / ChunkBytes), at least 1 (an empty message still tells the
// receiver it has all), 1 when ChunkBytes is 0.
func chunks(p Params, keys int32) int {
	if p.ChunkBytes == 0 {
		return 1
	}
	b := float64(keys) * p.KeyBytes
	n := int(b / float64(p.ChunkBytes))
	if float64(n)*float64(p.ChunkBytes) < b {
		n++
	}
	return max(1, min(n, int(keys)))
}

// drawOrders draws Pattern random's orders: for every iteration and
// process a uniform permutation of the other processes.
func drawOrders(p Params, rng *rand.Rand) []int32 {
	P := p.Procs
	out := make([]int32, 0, p.Iterations*P*(P-1))
	for range p.Iterations {
		for i := range P {
			o := make([]int32, 0, P-1)
			for k := 1; k < P; k++ {
				o = append(o, int32((i+k)%P))
			}
			rng.Shuffle(len(o), func(a, b int) { o[a], o[b] = o[b], o[a] })
			out = append(out, o...)
		}
	}
	return out
}

// post sends round r's allreduce message: the bucket-size array.
func (s *is) post(i int, t float64, r int32) {
	to, _ := s.allreducePeers(i, int(r))
	s.sendTo(i, to, t, r, float64(s.p.Buckets)*4, 0)
}

func (s *is) sendTo(i, dst int, t float64, tag int32, bytes float64, keys int32) {
	id := s.newMessage(message{src: int32(i), dst: int32(dst), at: int32(i), tag: tag, iter: s.iter[i], bytes: bytes, keys: keys})
	s.res.Messages++
	s.cpu(i, t, 0, jSend, id)
}

// checkExchange starts the ranking once every key message of the
// iteration has been received.
func (s *is) checkExchange(i int, t float64) {
	k := i*s.p.Iterations + int(s.iter[i])
	if s.phase[i] == phKeys && s.keysGot[k] == s.expect[i] {
		s.phase[i] = phNone
		s.round[i] = -1 // ranking: neither allreduce nor exchange
		own := int64(s.counts[i*s.p.Procs+i])
		s.cpu(i, t, float64(s.keysRecv[k]+own)*s.p.KeyTime, jRank, -1)
	}
}

// Handle is the simulation's event handler.
func (s *is) Handle(sim *des.Sim, e des.Event) {
	t := sim.Now()
	switch e.Kind {
	case evJob:
		j := s.jobs[e.ID]
		s.freeJobs = append(s.freeJobs, e.ID)
		s.qHead[j.proc] = j.next
		s.jobDone(j, t)
		s.busy[j.proc] = false
		if s.qHead[j.proc] >= 0 {
			s.start(int(j.proc), t)
		}
	case evArrive:
		m := &s.msgs[e.ID]
		s.cs.Touch(int(m.from), int(m.at))
		at := int(m.at)
		if m.at == m.dst {
			s.cpu(at, t, 0, jRecv, e.ID)
		} else {
			s.cpu(at, t, 0, jRelay, e.ID)
		}
	case evSyn:
		c := s.cs.conns[e.ID]
		switch {
		case !c.open:
			s.cs.SetReady(e.ID) // abandoned: the record may be reused
		case s.p.Handshake == HandshakeKernel:
			// The far end's kernel answers at once (SYN-ACK), its
			// process is not involved.
			s.sim.Schedule(t+s.latency(int(c.a), int(c.b)), evReady, e.ID)
		default:
			// The far end's process accepts (the opener is a) and then
			// replies.
			s.cpu(int(c.b), t, s.p.HandshakeCPU, jAccept, e.ID)
		}
	case evHop:
		s.cross(e.ID, t)
	case evReady:
		c := s.cs.conns[e.ID]
		if s.p.Handshake == HandshakeKernel {
			// The SYN-ACK is in: the opener's connection is established
			// and it may send (its data waits at the far end until
			// accept()); the ACK goes on to the far end.
			if !s.cs.SetOpenerReady(e.ID) {
				s.cs.SetReady(e.ID) // abandoned
				return
			}
			s.event(t, ShortcutReady, int(c.a), int(c.b), -1)
			s.sim.Schedule(t+s.latency(int(c.a), int(c.b)), evAck, e.ID)
			return
		}
		if s.cs.SetReady(e.ID) {
			s.event(t, ShortcutReady, int(c.a), int(c.b), -1)
		}
	case evAck:
		// The connection is in the far end's accept queue; its process
		// accepts it when its CPU gets there, behind the work already
		// queued, which includes nothing sent on this connection: that
		// arrives after the ACK. The queue is not bounded here: Linux
		// 2.4's SOMAXCONN of 128 exceeds the C shortcuts a process can
		// be the far end of in the paper's range (C ≤ 16).
		c := s.cs.conns[e.ID]
		if !c.open {
			s.cs.SetReady(e.ID)
			return
		}
		s.cpu(int(c.b), t, s.p.HandshakeCPU, jAccept, e.ID)
	}
}

func (s *is) jobDone(j job, t float64) {
	i := int(j.proc)
	if s.rec != nil {
		s.span(j, t)
	}
	switch j.kind {
	case jBucket:
		s.round[i] = 0
		s.post(i, t, 0)
		s.advance(i, t)
	case jRank:
		s.iter[i]++
		if int(s.iter[i]) == s.p.Iterations {
			s.done[i] = t
			return
		}
		s.startIteration(i, t)
	case jSend:
		s.forward(j.id, i, t, true)
	case jRelay:
		s.forward(j.id, i, t, false)
	case jRecv:
		m := s.msgs[j.id]
		s.freeMsgs = append(s.freeMsgs, j.id)
		k := i*s.p.Iterations + int(m.iter)
		switch m.tag {
		case tagKeys:
			s.keysGot[k]++
			s.keysRecv[k] += int64(m.keys)
			if m.iter == s.iter[i] {
				s.checkExchange(i, t)
			}
			return
		case tagCounts:
			s.countsGot[k]++
			if m.iter == s.iter[i] {
				s.checkCounts(i, t)
			}
			return
		}
		s.arGot[k*s.rounds+int(m.tag)] = true
		if m.iter == s.iter[i] && s.round[i] >= 0 {
			s.advance(i, t)
		}
	case jConnect:
		if j.id < 0 {
			return // HandshakeKernel: the SYN left when the process relayed
		}
		c := s.cs.conns[j.id]
		if c.open {
			s.sim.Schedule(t+s.latency(int(c.a), int(c.b)), evSyn, j.id)
		} else {
			s.cs.SetReady(j.id) // abandoned: the record may be reused
		}
	case jAccept:
		if s.p.Handshake == HandshakeKernel {
			// Accepted: the far end may send on it too, and the
			// handshake is over (SetReady frees a closed one's record).
			s.cs.SetReady(j.id)
			return
		}
		c := s.cs.conns[j.id]
		if c.open {
			s.sim.Schedule(t+s.latency(int(c.a), int(c.b)), evReady, j.id)
		} else {
			s.cs.SetReady(j.id)
		}
	case jTeardown:
	}
}

// forward sends message id on from process i at time t: direct when i and
// the destination have a ready connection, else to the next hop of i's
// routing table. A sender whose message must be relayed opens a shortcut
// to the destination (Section 3.2, Fig. 2).
func (s *is) forward(id int32, i int, t float64, original bool) {
	m := &s.msgs[id]
	dst := int(m.dst)
	hop := dst
	if !s.cs.Ready(i, dst) {
		hop = int(s.next[i*s.p.Procs+dst])
		if original {
			m.relayed = true
			s.res.Relayed++
		}
		s.event(t, Relay, i, dst, hop)
		if original {
			s.shortcut(i, dst, t)
		}
	} else if original {
		s.event(t, Send, i, dst, -1)
	}
	s.cs.Touch(i, hop)
	s.inject(id, i, hop, t)
}

// shortcut opens a shortcut from i to dst, closing what LRU evicts to make
// room. The handshake costs both ends HandshakeCPU, queued on their CPUs
// behind the work already there, and the path three one-way trips (SYN,
// SYN-ACK, ACK). Under HandshakeKernel the SYN leaves now (the message
// layer's non-blocking connect() as it relays), the opener may send once
// the SYN-ACK is back, one round trip later, whatever its CPU is doing,
// and the far end once it has accepted. Under HandshakeApplication the SYN
// leaves when the opener's CPU gets to the connect, and the shortcut is
// ready at both ends when the reply to the far end's accept is back.
func (s *is) shortcut(i, dst int, t float64) {
	id, ev := s.cs.OpenShortcut(i, dst)
	if id < 0 {
		return
	}
	for _, e := range ev {
		s.res.Evicted++
		s.event(t, Evict, e.From, e.To, e.By)
		s.cpu(e.From, t, s.p.TeardownCPU, jTeardown, -1)
		s.cpu(e.To, t, s.p.TeardownCPU, jTeardown, -1)
	}
	s.res.ShortcutsOpened++
	s.event(t, ShortcutOpen, i, dst, -1)
	if s.p.Handshake == HandshakeKernel {
		s.sim.Schedule(t+s.latency(i, dst), evSyn, id)
		s.cpu(i, t, s.p.HandshakeCPU, jConnect, -1)
		return
	}
	s.cpu(i, t, s.p.HandshakeCPU, jConnect, id)
}

// inject puts message id on the wire from process from to process to at
// time t. It crosses its path's links in order, and each link serves
// messages in the order their heads reach it (a FIFO queue per link and
// direction, so messages sharing a link contend): a message starts on a
// link when its head is there and the link is free, and its tail leaves
// the link bytes/Bandwidth after it started there, but not before it left
// the one before (cut-through: no link waits for the whole message, none
// runs ahead of its feed). It arrives the path latency after its tail left
// the last link.
//
// The order is the order of arrival at each link, decided when the head
// gets there (an event per link it has to wait for), not the order of
// injection: reserving every link of the path at injection would let a
// message sent early but stuck behind its own uplink hold a downlink idle
// for messages that could use it now, so that posting all sends at one
// instant ran slower than spreading them out: a larger select() cost made
// "all" faster (TestSelectCostPaperCluster, TestCostsNeverHelp).
func (s *is) inject(id int32, from, to int, t float64) {
	m := &s.msgs[id]
	m.from, m.at = int32(from), int32(to)
	m.sent = t
	m.tail = t + m.bytes/s.p.Bandwidth
	m.hop = 0
	s.cross(id, t)
}

// cross moves message id's head over the links it reaches by time t, and
// schedules the next step: the head at a link it has to wait for, or the
// arrival after the last one.
func (s *is) cross(id int32, t float64) {
	m := &s.msgs[id]
	u, v := s.cl.procNode[m.from], s.cl.procNode[m.at]
	links, _ := s.cl.path(u, v, s.pathBuf)
	s.pathBuf = links
	xfer := m.bytes / s.p.Bandwidth
	for int(m.hop) < len(links) {
		l := links[m.hop]
		if s.linkFree[l] > t {
			// Queued behind the link's earlier messages: its head starts
			// there when the link is free. Those already queued are served
			// first; the head's turn is kept by the time it arrived.
			start := s.linkFree[l]
			m.tail = max(m.tail, start+xfer)
			s.linkFree[l] = m.tail
			m.hop++
			s.sim.Schedule(start, evHop, id)
			return
		}
		m.tail = max(m.tail, t+xfer)
		s.linkFree[l] = m.tail
		m.hop++
	}
	from, to := int(m.from), int(m.at)
	arrive := m.tail + s.latency(from, to)
	if s.rec != nil {
		class := "keys"
		switch m.tag {
		case tagKeys:
		case tagCounts:
			class = "counts"
		default:
			class = "allreduce"
		}
		if m.relayed {
			class += "-relayed"
		}
		s.rec.AddMessage(trace.Message{From: from, To: to, Send: m.sent, Arrive: arrive, Step: int(m.iter), Class: class, Used: true})
	}
	s.sim.Schedule(arrive, evArrive, id)
}

var jobLabels = [...]struct {
	kind  trace.Kind
	label string
}{
	jBucket:   {trace.Compute, "bucket"},
	jRank:     {trace.Compute, "rank"},
	jSend:     {trace.Send, "send"},
	jRecv:     {trace.Receive, "receive"},
	jRelay:    {trace.Send, "relay"},
	jConnect:  {trace.Send, "connect"},
	jAccept:   {trace.Receive, "accept"},
	jTeardown: {trace.Send, "close"},
}

func (s *is) span(j job, t float64) {
	l := jobLabels[j.kind]
	s.rec.AddSpan(int(j.proc), l.kind, j.start, t, int(min(s.iter[j.proc], int32(s.p.Iterations-1))), l.label)
}
