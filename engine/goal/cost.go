package goal

import (
	"fmt"
	"math"
	"sync"

	"commlab/engine/cost"
)

// What a run costs is bounded from the algorithm, not fitted to typical
// schedules: every operation and message is handled once, waits for a
// busy CPU or NIC in a group at O(log n) (wait.go), walks at most
// walkMax posted recvs or unexpected messages before its rank's queues
// are indexed (match.go), and a recorded run keeps a record per
// operation and message and a critical path of at most critLimit links.
// So the memory bound (the most the run holds at once, cost.Cost.Bytes)
// counts what each structure can hold at most: the queue and the wait
// groups every operation that can be released and not yet run at once
// (no more than the chains that cover the operations: shapeStats) and
// every message, the indexes every recv and message of the ranks that
// can need one, each growing array at twice its need and half again
// while it is copied. The time bound is a cost per operation, message
// and dependency at the slowest measured on the adversarial shapes
// (BenchmarkShapes, internal/goalshape: a linear broadcast, fan-in and
// fan-out, long chains, unexpected floods, posted walks, wildcards),
// natively, with a margin. TestEstimateShapes holds the memory bound to
// what runs of the shapes and of butterflies hold (at least that, at
// most memFactor times where the shape is adversarial: a lock-step
// collective holds far less than everything that could wait at once);
// BenchmarkEstimate reports the time bound against the CPU time taken
// (est/cpu, at least 1).
const (
	// bytes: a queue item (24) in the chunk arena and in the current
	// bucket, a parked item (24), an operation freed (8, and 4 in its
	// host's batch): each array at twice its need as it doubles, and
	// while the largest of them is copied, its old half (growCopy an
	// item); a wait group (80)
	queueItem  = 2 * 24 * 2
	parkedItem = 24 * 2
	growCopy   = 24
	freedItem  = 12 * 2 * 1.5
	groupBytes = 80
	// a chunk (6152 bytes) per queue bucket that holds items
	bucketChunk = chunkItems*24 + 8
	// per recv and per message of an indexed rank: its links, its map
	// entries (two lists for a recv, three for a message) and list heads,
	// doubled
	indexedRecv = 24*2 + 2*64 + 2*8*2
	indexedMsg  = 44*2 + 3*64 + 3*8*2
	// recorded: OpRecord, MsgRecord, the cause and message-index arrays,
	// the file-order index, and a critical-path link (48) per op and
	// message that can be one
	recordOp  = 48 + 12 + 4 + 4
	recordMsg = 88 + 12
	critLink  = 48
	// time, ns of CPU at the slowest measured on the shapes (2026-11-27,
	// load 20-25 on 2 cores: BenchmarkShapes' cpu-ns/item): an operation
	// or message handled, 330 on a fan-in or a flood of unexpected
	// messages, 70-100 on butterflies; recorded, 480 more; a dependency;
	// a critical-path link walked twice
	nsItem       = 550
	nsRecordItem = 500
	nsDep        = 10
	nsCritLink   = 40
	// reading: a byte of the densest text (operations of 7 bytes, labels
	// of one letter, dependencies): measured at most 13.4 CPU-ns a byte
	// (BenchmarkShapes' read cases, BenchmarkReadDense), and what it
	// holds a byte (an operation of 16 bytes per 7, its label's 16 + 8
	// and a map entry of 64 per 10, doubled as the arrays grow)
	readBytes       = 6.6
	readLabelBytes  = 16
	runFixed        = 128 << 10
	readFixed       = 1<<20 + 64<<10
	layoutScratch   = 40 // per operation of a block laid out (places.go)
	statsRankBytes  = 4  // shape(): a count per rank, once
	pendRerunFactor = 2  // pend and big are copied for an Executor's reruns
)

// EstimateRead bounds reading GOAL text of size bytes (labels: keeping
// every label): whatever the text, it holds at most one operation per 7
// bytes (calc 0), and its time is at most nsTextMax a byte. A regular
// file's size is known before reading it; a stream's is not, and
// ReadOptions.Limits bound it as it streams.
func EstimateRead(size int64, labels bool) cost.Cost {
	n := float64(size)
	per := readBytes
	if labels {
		per += readLabelBytes
	}
	ops := n / 7
	layout := 0.0
	if ops >= float64(layoutMinOps) {
		layout = layoutScratch * float64(layoutOps)
	}
	return cost.Cost{
		Events:  ops,
		Bytes:   per*n + layout + readFixed,
		Seconds: nsTextMax * n * 1e-9,
		Key:     "f",
		Why:     fmt.Sprintf("a GOAL file of %s (up to %s operations)", cost.Bytes(n), cost.Num(ops)),
		Fit: func(over float64) string {
			return fmt.Sprintf("files up to about %s fit", cost.Bytes(n/cost.Scale(over, 1)))
		},
	}
}

// EstimateSchedule bounds running s (recording it when record), from what
// s holds: its operations, messages, dependencies, ranks, the recvs that
// wait for nothing (posted before any message arrives) and the ranks that
// can need an index for their queues. Noise adds EstimateNoise's.
func EstimateSchedule(s *Schedule, record bool) cost.Cost {
	n, m := float64(s.NumOps()), float64(s.NumSends())
	P := float64(s.NumRanks())
	W := P * float64(max(s.CPUs(), s.NICs()))
	st := s.shape()
	// the operations released and not yet run at once (a chain each at
	// most) and every message, at once in the queue or parked, and a group
	// each at most
	items := min(float64(st.chains), n-float64(s.rootRecvs)) + m
	// groups: a CPU's calcs, and a CPU's sends or messages on each NIC
	w := float64(max(s.CPUs(), s.NICs()))
	groups := min(P*(w+2*w*w), items)
	b := runFixed + pendRerunFactor*(n+bigBytes*2*float64(s.bigPend)) + 40*W + 51*W + 8*float64(s.recvStart[s.numRanks]) +
		(queueItem+growCopy)*(items+groups) + bucketChunk*min(65, items+groups) + parkedItem*items + groupBytes*(groups+chunkLen) +
		8*P + 12*2*1.5*m + indexedRecv*float64(st.indexRecvs) + indexedMsg*float64(st.indexMsgs) + statsRankBytes*P +
		freedItem*float64(st.maxDeps+2)
	if P >= reserveMin {
		b += 48 * P // the queue's reserve
	}
	secs := nsItem*(n+m) + nsDep*float64(s.NumDeps())
	c := cost.Cost{
		Events: n + m,
		Key:    "file",
		Why:    fmt.Sprintf("a schedule of %s operations and %s messages", cost.Num(n), cost.Num(m)),
		Fit: func(over float64) string {
			return fmt.Sprintf("schedules up to about %s operations fit", cost.Num(n/cost.Scale(over, 1)))
		},
	}
	if record {
		links := float64(critLimit(s.NumOps(), s.NumSends()))
		c.Spans = n + m
		b += recordOp*n + recordMsg*m + 36*W + 24*2*1.5*groups + critLink*links
		secs += nsRecordItem*(n+m) + nsCritLink*links
	}
	c.Bytes, c.Seconds = b, secs*1e-9
	return c
}

// EstimateRun bounds running a schedule of ops operations, recording it
// when record, from the count alone: every operation a message (the most
// a schedule of ops operations can have) that can wait, on a rank of its
// own that can need its queues indexed. EstimateSchedule, from the
// schedule itself, is tighter.
func EstimateRun(ops int, record bool) cost.Cost {
	n := float64(ops)
	items, groups := 2*n, 2*n
	c := cost.Cost{
		Events: 2 * n,
		Bytes: runFixed + pendRerunFactor*(n+bigBytes*2*n/pendBig) + 91*2*n + 8*n + (queueItem+growCopy)*(items+groups) + bucketChunk*65 +
			parkedItem*items + groupBytes*(groups+chunkLen) + 8*n + 12*2*1.5*n + indexedRecv*n + indexedMsg*n + statsRankBytes*n + freedItem*n,
		Seconds: (nsItem*2*n + nsDep*n) * 1e-9,
		Key:     "file",
		Why:     fmt.Sprintf("a schedule of %s operations", cost.Num(n)),
		Fit: func(over float64) string {
			return fmt.Sprintf("schedules up to about %s operations fit", cost.Num(n/cost.Scale(over, 1)))
		},
	}
	if record {
		links := float64(critLimit(ops, ops))
		c.Spans = 2 * n
		c.Bytes += recordOp*n + recordMsg*n + 36*2*n + 24*2*1.5*groups + critLink*links
		c.Seconds += (nsRecordItem*2*n + nsCritLink*links) * 1e-9
	}
	return c
}

// EstimateText bounds reading GOAL text of size bytes and running it
// (recording it when record) before reading it: EstimateRead, and
// EstimateRun for the most operations the text can hold. Far above what
// most files take (a butterfly's 24 bytes an operation are read as 7);
// callers that can should read within ReadOptions.Limits and check
// EstimateSchedule before running.
func EstimateText(size int64, record bool) cost.Cost {
	rd := EstimateRead(size, record)
	run := EstimateRun(int(min(float64(size)/7, MaxOps)), record)
	c := rd
	c.Events += run.Events
	c.Spans += run.Spans
	c.Bytes += run.Bytes
	c.Seconds += run.Seconds
	return c
}

// Engine time and memory of noise, measured by TestEstimateNoise (go test
// -run EstimateNoise -v ./engine/goal/ logs them; CPU time on 2026-11-25,
// load 5-10). Noise never steps over
// windows one by one: OS jitter skips whole periods of work at once
// (osFinish), so its cost is a call per CPU interval whatever the period;
// a noise trace is read event by event over each interval (whole wraps at
// once); network noise scans the noise buckets and events of each delayed
// flight.
const (
	nsInterval   = 200 // per CPU interval (a calc, o at each end of a message) with noise on, the queue's extra re-insertions included: measured 120-190
	nsTraceEvent = 3   // per trace event an interval meets, and per step of its binary search: measured 1-1.2
	nsNetMessage = 250 // per message with network noise (its cursor, the extra re-insertions): measured 200-240 with the scan's 5 buckets at 25
	nsNetScan    = 25  // per noise bucket or event a flight scans: measured 11-14
	rankPhase    = 8   // per rank: a trace offset, an OS phase
	rankCursor   = 32  // per rank: a network-noise cursor
	// network noise spreads messages over the queue's time buckets, each
	// holding a chunk of its own: up to 65 of 6 kB (measured 200-216 kB
	// more than the quiet run)
	netQueue   = 65 * chunkItems * 24
	noiseFixed = 512 // the noise models themselves
)

// MaxLength is the longest run the engine's times hold: End and the noise
// stall total are int64 nanoseconds (about 292 years).
const MaxLength = math.MaxInt64

// NoiseNames are the names a surface gives the noise inputs and L, for
// cost.Key and messages: gen-report eval goal's flags (FlagNames), or the
// schedule scene's URL keys. TraceFile is the noise trace's file name.
type NoiseNames struct {
	OSPeriod, OSDuration, NetMean, NetDelay, Trace, L string
	TraceFile                                         string
}

// FlagNames are gen-report eval goal's flags.
var FlagNames = NoiseNames{OSPeriod: "os-period", OSDuration: "os-duration", NetMean: "net-mean",
	NetDelay: "net-delay", Trace: "noise-trace", L: "L"}

// noiseWork is what noise adds to a run of a schedule, counted from the
// schedule and the parameters without running it.
type noiseWork struct {
	intervals float64 // CPU intervals noise applies to: each calc, o at both ends of each message
	cpuWork   float64 // their total length, ns
	messages  float64
	flight    float64 // L, ns: a clean flight
	traceIter float64 // trace events the intervals meet (expected), binary-search steps included
	netScan   float64 // buckets and events the flights scan (expected)
	// Bounds, ns: the clean run's length (every operation's CPU, NIC and
	// flight time one after the other: the critical path is a chain of
	// some of them) and what each noise adds to any chain at most (the
	// network's at a quantile far in its tail).
	clean, osStall, traceStall, netDelay float64
}

// length bounds the noisy run's End (and its stall total), ns.
func (w noiseWork) length() float64 { return w.clean + w.osStall + w.traceStall + w.netDelay }

// traceShape is what the estimate needs of a noise trace.
type traceShape struct {
	n, span, sum, maxDur, search float64
}

func shapeOf(t *NoiseTrace) traceShape {
	sh := traceShape{n: float64(len(t.Start)), span: float64(t.Start[len(t.Start)-1])}
	for _, d := range t.Duration {
		sh.sum += float64(d)
		sh.maxDur = max(sh.maxDur, float64(d))
	}
	sh.search = math.Ceil(math.Log2(sh.n)) + 1
	return sh
}

// iter is the events an interval of l ns meets (on average over the
// random offsets): as many as start in it, at most one per ns, and at
// most twice the trace (whole wraps are added at once), plus the binary
// search that finds where it starts.
func (sh traceShape) iter(l float64) float64 {
	return min(sh.n*l/sh.span, l+1, 2*sh.n) + sh.search
}

// stall bounds the trace's stall of an interval of l ns: the event that
// reaches into it, and the events starting in it (a whole trace's
// durations per wrap, and at most one event per ns).
func (sh traceShape) stall(l float64) float64 {
	return sh.maxDur + min((math.Floor(l/sh.span)+1)*sh.sum, (l+2)*sh.maxDur)
}

// netQuantile bounds the network-noise events of m flights of l ns with
// events every mean ns, each delaying its flight by delay < mean (ρ =
// delay/mean): a flight's events are a branching process whose mean is
// (l/mean)/(1-ρ) and variance (l/mean)/(1-ρ)³; the bound is the mean plus
// ten standard deviations plus 40/(1-ρ)², past which a single flight's
// tail is below e^-20.
func netQuantile(m, l, mean, delay float64) float64 {
	rho := delay / mean
	a := m * l / mean
	return a/(1-rho) + 10*math.Sqrt(a/math.Pow(1-rho, 3)) + 40/((1-rho)*(1-rho))
}

func workOf(s *Schedule, p Params, n Noise) noiseWork {
	w := noiseWork{flight: float64(p.L)}
	o, L, g := float64(p.Overhead), float64(p.L), float64(p.Gap)
	O, G := float64(p.OverheadPerByte), float64(p.GapPerByte)
	var sh traceShape
	if n.Trace != nil {
		sh = shapeOf(n.Trace)
	}
	var calcs, calcWork float64
	for i := range uint32(s.NumOps()) {
		switch s.kind(i) {
		case Calc:
			c := float64(s.size(i))
			calcs++
			calcWork += c
			if n.Trace != nil {
				w.traceIter += sh.iter(c)
				w.traceStall += sh.stall(c)
			}
		case Send:
			b := max(float64(s.size(i))-1, 0)
			w.messages++
			// sender: CPU o+(s-1)O, NIC g+(s-1)G, flight o+L; receiver:
			// CPU o+max((s-1)O, (s-1)G), NIC g+(s-1)G
			w.clean += 3*o + 2*g + L + b*(O+2*G) + max(b*O, b*G)
		}
	}
	w.clean += calcWork
	w.intervals = calcs + 2*w.messages
	w.cpuWork = calcWork + 2*w.messages*o
	if n.Trace != nil {
		w.traceIter += 2 * w.messages * sh.iter(o)
		w.traceStall += 2 * w.messages * sh.stall(o)
	}
	if j := n.OS; j != nil {
		// Work c started anywhere meets at most ⌈c/(period-duration)⌉+1
		// windows.
		d := float64(j.Duration)
		w.osStall = w.cpuWork*d/float64(j.Period-j.Duration) + 2*w.intervals*d
	}
	if nn := n.Net; nn != nil {
		mean, delay := float64(nn.Mean), float64(nn.Delay)
		// A flight scans its own length's buckets (one per mean), the
		// events it meets and up to four buckets past its end.
		per := L / (mean - delay) // events and buckets of one flight, expected: (L/mean)/(1-ρ)
		w.netScan = w.messages * (2*per + 5)
		w.netDelay = delay * netQuantile(w.messages, L, mean, delay)
	}
	return w
}

// EstimateNoise is what noise n adds to running s under p: the
// engine time its models take (the OS jitter's call per CPU interval, the
// trace events each interval meets, the network-noise buckets each flight
// scans) and their per-rank state, counted from the schedule without
// running it; the run's own cost is EstimateRun's (or EstimateText's),
// and AddNoise adds the two. The noisy run's length is bounded as well
// (every operation's time one after the other, each CPU interval
// stretched by the OS jitter's 1/(1 - duration/period) plus a window and
// by the trace's durations, each flight delayed by its events' tail): a
// bound past MaxLength, where the engine's times would wrap, is a
// *RangeError naming the input that drives it and what would fit, as is
// a model out of its range (Noise.Validate's errors, with the flags'
// names). names are the surface's names for the inputs.
func EstimateNoise(s *Schedule, p Params, n Noise, names NoiseNames) (cost.Cost, error) {
	if err := n.validModels(); err != nil {
		return cost.Cost{}, err
	}
	w := workOf(s, p, n)
	if err := w.check(n, names); err != nil {
		return cost.Cost{}, err
	}
	ranks := float64(s.NumRanks())
	c := cost.Cost{Bytes: noiseFixed}
	var tTrace, tNet float64
	if n.Trace != nil || n.OS != nil {
		c.Events += w.intervals
		c.Seconds += nsInterval * w.intervals * 1e-9
	}
	if n.Trace != nil {
		c.Events += w.traceIter
		tTrace = nsTraceEvent * w.traceIter * 1e-9
		if !n.CoScheduled {
			c.Bytes += rankPhase * ranks
		}
	}
	if n.OS != nil && !n.OS.CoScheduled {
		c.Bytes += rankPhase * ranks
	}
	if n.Net != nil {
		c.Events += w.messages + w.netScan
		tNet = (nsNetMessage*w.messages + nsNetScan*w.netScan) * 1e-9
		c.Bytes += rankCursor*ranks + netQueue
	}
	c.Seconds += tTrace + tNet
	switch {
	case n.Trace != nil && tTrace >= tNet:
		sh := shapeOf(n.Trace)
		c.Key = names.Trace
		c.Why = fmt.Sprintf("the noise trace %s (%s events over %s ns): CPU intervals meet its events about %s times (%s intervals: calc and o)",
			traceLabel(names), cost.Num(sh.n), cost.Num(sh.span), cost.Num(w.traceIter), cost.Num(w.intervals))
		c.Fit = func(over float64) string {
			return fmt.Sprintf("a trace about %s times sparser (at most %s events over the same span) fits",
				cost.Num(cost.Scale(over, 1)), cost.Num(sh.n/cost.Scale(over, 1)))
		}
	case n.Net != nil && tNet > 0:
		mean, delay, L := float64(n.Net.Mean), float64(n.Net.Delay), float64(p.L)
		c.Key = names.NetMean
		c.Why = fmt.Sprintf("%s = %s with %s = %s and %s = %s scans about %s network-noise buckets and events over %s messages",
			names.NetMean, cost.Num(mean), names.NetDelay, cost.Num(delay), names.L, cost.Num(L), cost.Num(w.netScan), cost.Num(w.messages))
		c.Fit = func(over float64) string {
			// A flight scans about L/(mean - delay) buckets and events.
			f := cost.Scale(over, 1)
			s := fmt.Sprintf("raise %s to at least %s", names.NetMean, cost.Num(math.Ceil(delay+f*(mean-delay))))
			if d := mean - f*(mean-delay); d >= 1 {
				s += fmt.Sprintf(" or lower %s to at most %s", names.NetDelay, cost.Num(math.Floor(d)))
			}
			if l := math.Floor(L / f); l >= 1 {
				s += fmt.Sprintf(" or lower %s to at most %s", names.L, cost.Num(l))
			}
			return s
		}
	default:
		c.Key = names.OSPeriod
		c.Why = fmt.Sprintf("OS jitter on %s CPU intervals", cost.Num(w.intervals))
	}
	return c, nil
}

func traceLabel(names NoiseNames) string {
	if names.TraceFile == "" {
		return "given"
	}
	return names.TraceFile
}

// check refuses noise whose run could outlast MaxLength: a *RangeError on
// the input whose bound is the largest, with the value of it that fits.
func (w noiseWork) check(n Noise, names NoiseNames) error {
	total := w.length()
	if total < MaxLength {
		return nil
	}
	room := MaxLength/1.1 - w.clean
	var field, value, why string
	var fits func(x float64) bool // with this value instead, the run fits
	var hi float64
	switch big := max(w.osStall, w.traceStall, w.netDelay); {
	case n.OS != nil && w.osStall == big:
		j := n.OS
		field, value, hi = names.OSDuration, fmt.Sprint(j.Duration), float64(j.Duration)
		why = fmt.Sprintf("%s = %d of every %s = %d leaves %d ns of work per period, stretching %s ns of CPU work up to %s times",
			names.OSDuration, j.Duration, names.OSPeriod, j.Period, j.Period-j.Duration, cost.Num(w.cpuWork), cost.Num(float64(j.Period)/float64(j.Period-j.Duration)))
		fits = func(d float64) bool {
			return w.cpuWork*d/(float64(j.Period)-d)+2*w.intervals*d <= room-w.traceStall-w.netDelay
		}
	case n.Trace != nil && w.traceStall == big:
		sh := shapeOf(n.Trace)
		field, value = names.Trace, traceLabel(names)
		why = fmt.Sprintf("its durations add up to %s ns over %s ns", cost.Num(sh.sum), cost.Num(sh.span))
	default:
		nn := n.Net
		field, value, hi = names.NetDelay, fmt.Sprint(nn.Delay), float64(nn.Delay)
		why = fmt.Sprintf("with %s = %d, flights could be delayed by %s ns in all", names.NetMean, nn.Mean, cost.Num(w.netDelay))
		fits = func(d float64) bool {
			return d*netQuantile(w.messages, w.flight, float64(nn.Mean), d) <= room-w.osStall-w.traceStall
		}
	}
	fit := ""
	switch {
	case fits == nil: // the trace: its durations scale its stall
		if f := (room - w.osStall - w.netDelay) / w.traceStall; f > 0 {
			fit = fmt.Sprintf("; durations about %s times shorter fit", cost.Num(1/f))
		}
	case fits(1): // the largest value that fits, by bisection
		lo := 1.0
		for hi-lo > 1 {
			if m := math.Floor((lo + hi) / 2); fits(m) {
				lo = m
			} else {
				hi = m
			}
		}
		fit = fmt.Sprintf("; %s at most %d fits", field, int64(lo))
	}
	return &RangeError{field, value, fmt.Sprintf("noise that stretches the run less: %s; the run could last up to %s ns, past the %s ns (292 years) its times hold%s",
		why, cost.Num(total), cost.Num(MaxLength), fit)}
}

// AddNoise is the cost of a run (EstimateRun's or EstimateText's) with
// its noise (EstimateNoise's): events, records, memory and time add up;
// the explanation is the noise's when it takes longer than the run.
func AddNoise(run, nz cost.Cost) cost.Cost {
	c := run
	c.Events += nz.Events
	c.Spans += nz.Spans
	c.Bytes += nz.Bytes
	c.Seconds += nz.Seconds
	if nz.Seconds > run.Seconds && nz.Why != "" {
		c.Key, c.Fit = nz.Key, nz.Fit
		c.Why = nz.Why + ", beside " + run.Why
	}
	return c
}

// shapeStats is what the estimates need of a schedule past its counts,
// gathered on first use (one pass over its operations) and kept.
type shapeStats struct {
	// recvs of the ranks that post more than walkMax, and messages to the
	// ranks that receive more than walkMax: the most the match indexes
	// can hold (match.go)
	indexRecvs, indexMsgs int
	// the most dependents of one operation (freed at once)
	maxDeps int
	// chains: how many chains of dependencies cover the operations (a
	// greedy path cover): operations that wait for no one of each other
	// lie on different chains, so no more than chains of them are
	// released and not yet run at once
	chains int
}

type statsOnce struct {
	once sync.Once
	st   shapeStats
}

func (s *Schedule) shape() shapeStats {
	s.stats.once.Do(func() {
		in := make([]uint32, s.numRanks)
		for u := range uint32(s.NumOps()) {
			if s.kind(u) == Send {
				in[s.ops[u].peer]++
			}
		}
		st := &s.stats.st
		// each operation continues its chain into its first dependent not
		// continuing another's: the chains are disjoint paths, n minus the
		// dependents so reached
		reached := make([]uint64, (s.NumOps()+63)/64)
		st.chains = s.NumOps()
		for u := range uint32(s.NumOps()) {
			ds := s.deps(u)
			st.maxDeps = max(st.maxDeps, len(ds))
			for _, d := range ds {
				v := d &^ startDep
				if reached[v/64]&(1<<(v%64)) == 0 {
					reached[v/64] |= 1 << (v % 64)
					st.chains--
					break
				}
			}
		}
		for r := range s.numRanks {
			if recvs := int(s.recvStart[r+1] - s.recvStart[r]); recvs > walkMax {
				st.indexRecvs += recvs
			}
			if int(in[r]) > walkMax {
				st.indexMsgs += int(in[r])
			}
		}
	})
	return s.stats.st
}
