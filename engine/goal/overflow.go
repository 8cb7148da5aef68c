package goal

import (
	"fmt"
	"math"
	"math/bits"
	"strconv"

	"commlab/engine/cost"
)

// Overflow. LogGOPSim computes times in unsigned 64-bit integers and
// wraps without a word: two chained "calc 9223372036854775807" end at
// 2^64 - 2 (which a signed reader prints as -2), "send
// 18446744073709551615b" has a NIC gap (s-1)·G that wraps to a few
// nanoseconds. This executor computes the same way, so that its answers
// are LogGOPSim's to the nanosecond, but a time past MaxLength (2^63 - 1
// ns, what Result's int64 times hold: 292 years) is not an answer: the
// run stops with an *OverflowError naming the operation and the time it
// would have reached, and says what LogGOPSim would have wrapped it to.
// An error rather than a warning beside the wrapped value: every later
// time would be computed from the wrapped one, so nothing the run
// reported after it would mean anything.
//
// The check costs nothing on the runs that need none: a run's times are
// sums of its operations' CPU, NIC and flight times along some chain of
// them, so when all of them together stay under 2^60 ns (a bound the
// schedule's totals give at once, noise included) no time can pass
// 2^63; only where they do not does the executor check each time it
// computes (exec.checked).
//
// A 0-byte message is where LogGOPSim's (s-1) itself wraps to 2^64 - 1:
// it costs o + (0-1)·O = o - O of CPU, g - G of NIC, and at the receiver
// o minus min(O, G) (o - G when O is 0, o - O when G is 0: the max of two
// wrapped values). These are LogGOPSim's answers and are kept (with its
// defaults a 0-byte message costs g - 6 of NIC); where one would be
// negative the clocks would run backwards, so the run is refused before
// it starts, naming the parameter (a *RangeError).

// checkBelow is the bound on all of a run's durations together under
// which no time can overflow (a factor 8 below MaxLength: the network
// noise's bound is a far quantile, not a maximum).
const checkBelow = 1 << 60

// checkAll checks every run's times (the tests: a checked run is the
// same run).
var checkAll = false

// OverflowError is a time of a run that passes MaxLength.
type OverflowError struct {
	Rank int
	Op   string // its label, or "op N" in its rank
	What string // the operation, as GOAL writes it
	Part string // which of its times: "the end of", "the arrival of the message of", ...
	// Reached is what it would have reached (ns) and Wrapped what
	// LogGOPSim's unsigned arithmetic makes of it.
	Reached float64
	Wrapped uint64
}

func (e *OverflowError) Error() string {
	return fmt.Sprintf("goal: %s rank %d %s (%s) would be at %s ns, past the %d ns (292 years) a run's times hold; LogGOPSim's unsigned 64-bit arithmetic makes it %d ns (%d as a signed time), and every time after it would follow from that",
		e.Part, e.Rank, e.Op, e.What, cost.Num(e.Reached), uint64(MaxLength), e.Wrapped, int64(e.Wrapped))
}

// zeroBytes refuses parameters under which a 0-byte message of s would
// cost a negative time (LogGOPSim's (s-1) wraps for s = 0).
func (p Params) zeroBytes(s *Schedule) error {
	if s.zeroSends == 0 {
		return nil
	}
	why := fmt.Sprintf("the schedule has %d messages of 0 bytes, which LogGOPSim charges", s.zeroSends)
	switch {
	case p.OverheadPerByte > p.Overhead:
		return &RangeError{"O", strconv.FormatInt(p.OverheadPerByte, 10), fmt.Sprintf("at most o = %d: %s o + (0-1)·O of CPU, negative with O > o (its unsigned 0-1 wraps)", p.Overhead, why)}
	case p.GapPerByte > p.Gap:
		return &RangeError{"G", strconv.FormatInt(p.GapPerByte, 10), fmt.Sprintf("at most g = %d: %s g + (0-1)·G of NIC, negative with G > g (its unsigned 0-1 wraps)", p.Gap, why)}
	case p.OverheadPerByte == 0 && p.GapPerByte > p.Overhead:
		return &RangeError{"G", strconv.FormatInt(p.GapPerByte, 10), fmt.Sprintf("at most o = %d: %s o + max((0-1)·O, (0-1)·G) = o - G of receive overhead when O = 0, negative with G > o (its unsigned 0-1 wraps)", p.Overhead, why)}
	}
	return nil
}

// timeBound bounds every time of a run of s under p: all of its
// durations one after the other (noise's, when on, as EstimateNoise
// bounds them).
func timeBound(s *Schedule, p Params, n Noise) float64 {
	o, g, L := float64(p.Overhead), float64(p.Gap), float64(p.L)
	O, G := float64(p.OverheadPerByte), float64(p.GapPerByte)
	b := s.calcTime + float64(s.sends)*(3*o+2*g+L) + s.sendBytes*(O+2*G+max(O, G))
	if n.Trace != nil || n.OS != nil || n.Net != nil {
		w := workOf(s, p, n)
		b += w.osStall + w.traceStall + w.netDelay
	}
	return b
}

// Checked arithmetic: a sum or product past MaxLength is overMark, which
// stays over through later sums.
const overMark = math.MaxUint64

func addC(a, b uint64) uint64 {
	c, carry := bits.Add64(a, b, 0)
	if carry != 0 || c > MaxLength {
		return overMark
	}
	return c
}

func mulC(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	if hi != 0 || lo > MaxLength {
		return overMark
	}
	return lo
}

// per is (s-1)·x exactly, for s ≥ 1 (s = 0: its own cases).
func per(s, x uint64) uint64 { return mulC(s-1, x) }

// overflowed records an overflow of the operation in place u of rank h,
// whose time would be LogGOPSim's wrapped and exactly reached (≥ 2^63
// when reached is overMark: computed in float), and stops the run.
func (e *exec) overflowed(h, u uint32, part string, wrapped uint64, exact float64) {
	s := e.s
	o := s.Op(s.index(u))
	what := ""
	switch o.Kind {
	case Calc:
		what = fmt.Sprintf("calc %d", o.Size)
	case Send:
		what = fmt.Sprintf("send %db to %d", o.Size, o.Peer)
	default:
		what = fmt.Sprintf("recv %db from %s", o.Size, wild(o.Peer))
	}
	e.stopped = &OverflowError{Rank: int(h), Op: e.opName(u), What: what, Part: part, Reached: exact, Wrapped: wrapped}
}

// The exact time of each of the executor's sums, in float (it is only
// wanted once a sum overflowed).
func fsum(x ...uint64) float64 {
	t := 0.0
	for _, v := range x {
		t += float64(v)
	}
	return t
}

// checkCalc checks a calc's end t + size + stall.
func (e *exec) checkCalc(h, op uint32, t, size, stall uint64) bool {
	if addC(addC(t, size), stall) != overMark {
		return true
	}
	e.overflowed(h, op, "the end of", t+size+stall, fsum(t, size, stall))
	return false
}

// checkSend checks a send's CPU end t + o + (s-1)·O + stall, NIC end t +
// g + (s-1)·G and arrival t + o + L + delay.
func (e *exec) checkSend(h, op uint32, t, size, stall, delay uint64) bool {
	cpu, nic := addC(t, e.o), addC(t, e.g)
	if size > 0 {
		cpu, nic = addC(cpu, per(size, e.O)), addC(nic, per(size, e.G))
	} else { // o - O and g - G: zeroBytes made them at least 0
		cpu, nic = addC(t, e.o-e.O), addC(t, e.g-e.G)
	}
	cpu = addC(cpu, stall)
	arrive := addC(addC(addC(t, e.o), e.L), delay)
	switch {
	case cpu == overMark:
		e.overflowed(h, op, "the end of the CPU time of", t+e.o+(size-1)*e.O+stall, fsum(t, e.o, stall)+float64(size-1)*float64(e.O))
	case nic == overMark:
		e.overflowed(h, op, "the end of the NIC gap of", t+e.g+(size-1)*e.G, fsum(t, e.g)+float64(size-1)*float64(e.G))
	case arrive == overMark:
		e.overflowed(h, op, "the arrival of the message of", t+e.o+e.L+delay, fsum(t, e.o, e.L, delay))
	default:
		return true
	}
	return false
}

// checkTake checks the receive at rank dst of send op's message (of
// rank h) at t: the receiver's CPU end t + o + stall + max((s-1)·O,
// (s-1)·G) and NIC end t + g + (s-1)·G.
func (e *exec) checkTake(h, dst, op uint32, t, size, stall uint64) bool {
	var cpu, nic uint64
	if size > 0 {
		cpu = addC(addC(addC(t, e.o), stall), max(per(size, e.O), per(size, e.G)))
		nic = addC(addC(t, e.g), per(size, e.G))
	} else {
		// LogGOPSim's max of (0-1)·O and (0-1)·G, both wrapped: minus
		// min(O, G), or minus the other where one is 0 (zeroBytes made o
		// minus it at least 0)
		back := min(e.O, e.G)
		if e.O == 0 || e.G == 0 {
			back = max(e.O, e.G)
		}
		cpu = addC(addC(t, e.o-back), stall)
		nic = addC(t, e.g-e.G)
	}
	switch {
	case cpu == overMark:
		busy := max((size-1)*e.O, (size-1)*e.G)
		e.overflowed(h, op, fmt.Sprintf("the end of the receive at rank %d of the message of", dst), t+e.o+stall+busy, fsum(t, e.o, stall)+float64(size-1)*float64(max(e.O, e.G)))
	case nic == overMark:
		e.overflowed(h, op, fmt.Sprintf("the end of the NIC gap at rank %d of the receive of the message of", dst), t+e.g+(size-1)*e.G, fsum(t, e.g)+float64(size-1)*float64(e.G))
	default:
		return true
	}
	return false
}
