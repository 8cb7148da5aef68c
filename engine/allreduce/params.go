package allreduce

import (
	"fmt"
	"math"
	"math/bits"

	"commlab/engine/param"
	"commlab/internal/errf"
)

// MaxP is the largest number of processes Run accepts: 2^24 processes use
// 1 GiB of state (64 bytes each).
const MaxP = 1 << 24

// Params are the model's inputs (Table 1 of the paper). Times are in
// seconds, sizes in bytes. Default returns the paper's values.
type Params struct {
	P     int     `json:"P" help:"processes P = 2^K, a power of two in [2, 16777216]"`
	Alpha float64 `json:"alpha" help:"network latency α, s, in (0, 1]"`
	Beta  float64 `json:"beta" help:"network time per byte β, s/B (1 GB/s = 1e-9), in [0, 1]"`
	Gamma float64 `json:"gamma" help:"reduction time per byte γ, s/B (10 GB/s = 1e-10), in [0, 1]"`
	N     float64 `json:"N" help:"message size N, bytes, in [0, 1e12]"`
	// Period and Duration describe both jitters: the OS windows recur
	// every Period and last Duration; network noise events arrive with
	// mean spacing Period and each delays a message by Duration.
	Period   float64 `json:"period" help:"OS-jitter period and mean time between network-noise events, s, in (0, 1000]"`
	Duration float64 `json:"duration" help:"OS-jitter window and network-noise delay, s, in (0, period)"`
	// OSJitter and NetNoise switch the two jitter models; with both off
	// the run is the paper's "no jitter" reference.
	OSJitter bool `json:"os_jitter" help:"periodic OS jitter on"`
	NetNoise bool `json:"net_noise" help:"Poisson network noise on"`
	// CoScheduled gives all processes the same OS-noise phase.
	CoScheduled bool `json:"co_scheduled" help:"all processes share one OS-jitter phase"`
	// OSPhase says whether a window may already be running at t = 0
	// (stationary) or each process's first window starts at its phase
	// (first, the paper's reading and the default).
	OSPhase OSPhase `json:"os_phase" help:"first: process i's first OS window starts at φ_i in [0, period), none runs at t = 0 (the paper); stationary: one may already be running at t = 0"`
	// NetWait is the mean time between network-noise events: period (the
	// spec's reading, default) or 1/period (the paper's words, literally).
	NetWait NetWait `json:"net_wait" help:"mean time between network-noise events: period (default) or inverse = 1/period (the paper's literal words)"`
	// OSHits says which OS windows delay a reduction: any window running
	// when it is ready or starting during it (wall, default), or only one
	// that begins during it (compute: eq. 2's OS-jitter as a term of the
	// computation's time). omitempty keeps the JSON of the default reading
	// as it was before the option existed.
	OSHits OSHits `json:"os_hits,omitempty" help:"wall: an OS window holds the CPU whenever it runs, a reduction ready inside one waits for its end (default); compute: only a window that begins during a reduction delays it (eq. 2: OS-jitter is a term of the computation time), one that begins while the process waits for its partner passes in the wait"`
	// T is how many redundant exchanges to simulate, in [0, K]; the result
	// holds the allreduce time for every T' ≤ T.
	T int `json:"T" help:"redundant exchanges simulated, in [0, K]; -1 means K"`
	// SendOverhead is a CPU cost per redundant send, s (the paper's future
	// work: sending is not free). The default 0 reproduces the paper.
	SendOverhead float64 `json:"send_overhead" help:"CPU cost per redundant send, s, in [0, 1] (paper: 0)"`
}

// OSPhase is when the OS-jitter windows begin (spec, "Jitter models",
// Revised). The zero value is the paper's reading.
type OSPhase uint8

const (
	// PhaseFirst: process i is unavailable during [φ_i + m·period,
	// φ_i + m·period + duration) for m ≥ 0 only. The paper draws the time of
	// each process's first jitter at random (4.1.3 A), so no window is
	// running at t = 0.
	PhaseFirst OSPhase = iota
	// PhaseStationary: windows for every integer m, so a window may already
	// be running at t = 0 (about duration/period of the processes start
	// stalled): the project's earlier reading, kept as an option.
	PhaseStationary
)

var osPhaseNames = [...]string{PhaseFirst: "first", PhaseStationary: "stationary"}

// osPhases are osPhaseNames, for Set and Validate.
var osPhases = param.Names(osPhaseNames[:]...)

// OSPhases are the names OSPhase accepts, in order.
func OSPhases() []string { return osPhaseNames[:] }

func (o OSPhase) String() string {
	if int(o) < len(osPhaseNames) {
		return osPhaseNames[o]
	}
	return fmt.Sprintf("OSPhase(%d)", o)
}

// Set parses a name (flag.Value); the error lists the names allowed.
func (o *OSPhase) Set(s string) error {
	i := osPhases.Index(s)
	if i < 0 {
		return errf.Errorf("want one of %s", osPhases.List())
	}
	*o = OSPhase(i)
	return nil
}

func (o OSPhase) MarshalText() ([]byte, error) { return []byte(o.String()), nil }

func (o *OSPhase) UnmarshalText(b []byte) error {
	if err := o.Set(string(b)); err != nil {
		return osPhases.Error("os_phase", string(b))
	}
	return nil
}

// NetWait is how the network noise's mean inter-arrival time follows from
// period. The zero value is the spec's reading.
type NetWait uint8

const (
	// WaitPeriod: mean time between a port's noise events = period (rate
	// 1/period), the same frequency as the OS jitter.
	WaitPeriod NetWait = iota
	// WaitInverse: mean wait 1/period, the paper's words taken literally
	// (4.1.3 B: "平均待ち時間 1/period"); with period = 1e-3 s that is one
	// event every 1000 s, so network noise all but vanishes.
	WaitInverse
)

var netWaitNames = [...]string{WaitPeriod: "period", WaitInverse: "inverse"}

// netWaits are netWaitNames, for Set and Validate.
var netWaits = param.Names(netWaitNames[:]...)

// NetWaits are the names NetWait accepts, in order.
func NetWaits() []string { return netWaitNames[:] }

func (w NetWait) String() string {
	if int(w) < len(netWaitNames) {
		return netWaitNames[w]
	}
	return fmt.Sprintf("NetWait(%d)", w)
}

// Set parses a name (flag.Value); the error lists the names allowed.
func (w *NetWait) Set(s string) error {
	i := netWaits.Index(s)
	if i < 0 {
		return errf.Errorf("want one of %s", netWaits.List())
	}
	*w = NetWait(i)
	return nil
}

func (w NetWait) MarshalText() ([]byte, error) { return []byte(w.String()), nil }

func (w *NetWait) UnmarshalText(b []byte) error {
	if err := w.Set(string(b)); err != nil {
		return netWaits.Error("net_wait", string(b))
	}
	return nil
}

// OSHits is which OS-jitter windows delay a reduction (papers/000 eq. 2,
// "γ × N + OS-jitter"). The zero value is the spec's reading.
type OSHits uint8

const (
	// HitsWall: a window holds the process's CPU for its whole length.
	// A reduction ready while a window runs waits for its end, and a
	// window that begins during a reduction suspends it; a window that
	// begins and ends while the process waits for its partner costs
	// nothing.
	HitsWall OSHits = iota
	// HitsCompute: OS jitter counts only while the process computes (eq.
	// 2 adds it to the computation's time γN, eq. 1 has none): a window
	// delays a reduction by its whole length only if it begins during
	// it, and one that begins while the process waits for its partner's
	// message is absorbed by the wait. Interrupt handlers, page faults
	// and cache refills cost a process that runs; an idle core takes them
	// for free. Under it os_phase makes no difference.
	HitsCompute
)

var osHitsNames = [...]string{HitsWall: "wall", HitsCompute: "compute"}

// osHitsChoices are osHitsNames, for Set and Validate.
var osHitsChoices = param.Names(osHitsNames[:]...)

// OSHitsNames are the names OSHits accepts, in order.
func OSHitsNames() []string { return osHitsNames[:] }

func (h OSHits) String() string {
	if int(h) < len(osHitsNames) {
		return osHitsNames[h]
	}
	return fmt.Sprintf("OSHits(%d)", h)
}

// Set parses a name (flag.Value); the error lists the names allowed.
func (h *OSHits) Set(s string) error {
	i := osHitsChoices.Index(s)
	if i < 0 {
		return errf.Errorf("want one of %s", osHitsChoices.List())
	}
	*h = OSHits(i)
	return nil
}

func (h OSHits) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

func (h *OSHits) UnmarshalText(b []byte) error {
	if err := h.Set(string(b)); err != nil {
		return osHitsChoices.Error("os_hits", string(b))
	}
	return nil
}

// NetMean is the mean time between a port's network-noise events, s.
func (p Params) NetMean() float64 {
	if p.NetWait == WaitInverse {
		return 1 / p.Period
	}
	return p.Period
}

// Default returns the paper's parameters for P = 4096 with both jitters on
// and all K redundant exchanges.
func Default() Params {
	return Params{
		P: 4096, Alpha: 1e-6, Beta: 1e-9, Gamma: 1e-10, N: 8,
		Period: 1e-3, Duration: 1e-5, OSJitter: true, NetNoise: true, T: 12,
	}
}

// K returns log2 P, the number of butterfly stages.
func (p Params) K() int { return bits.Len(uint(p.P)) - 1 }

// Tcomm returns α + βN, the time of one point-to-point message.
func (p Params) Tcomm() float64 { return p.Alpha + float64(p.Beta*p.N) }

// Work returns γN, the time of one stage's reduction.
func (p Params) Work() float64 { return float64(p.Gamma * p.N) }

// NoJitterTime is the closed form K·(Tcomm + γN) of the conventional
// butterfly without jitter.
func (p Params) NoJitterTime() float64 { return float64(p.K()) * (p.Tcomm() + p.Work()) }

func timeErr(field string, v float64, lo, hi float64, openLo bool) error {
	ok := v <= hi && (v > lo || (!openLo && v == lo))
	if ok && !math.IsNaN(v) {
		return nil
	}
	br := "["
	if openLo {
		br = "("
	}
	return &param.Error{Field: field, Value: fmt.Sprint(v), Want: fmt.Sprintf("a number in %s%g, %g]", br, lo, hi)}
}

// Validate reports the first parameter outside its range, naming it.
func (p Params) Validate() error {
	if p.P < 2 || p.P > MaxP || p.P&(p.P-1) != 0 {
		return &param.Error{Field: "P", Value: fmt.Sprint(p.P), Want: fmt.Sprintf("a power of two in [2, %d]", MaxP)}
	}
	for _, c := range []struct {
		field  string
		v      float64
		lo, hi float64
		openLo bool
	}{
		{"alpha", p.Alpha, 0, 1, true},
		{"beta", p.Beta, 0, 1, false},
		{"gamma", p.Gamma, 0, 1, false},
		{"N", p.N, 0, 1e12, false},
		{"period", p.Period, 0, 1e3, true},
		{"send_overhead", p.SendOverhead, 0, 1, false},
	} {
		if err := timeErr(c.field, c.v, c.lo, c.hi, c.openLo); err != nil {
			return err
		}
	}
	if p.OSJitter || p.NetNoise {
		if !(p.Duration > 0 && p.Duration < p.Period) {
			return &param.Error{Field: "duration", Value: fmt.Sprint(p.Duration), Want: fmt.Sprintf("a number in (0, period=%g)", p.Period)}
		}
	} else if err := timeErr("duration", p.Duration, 0, p.Period, false); err != nil {
		return err
	}
	if _, ok := osPhases.Name(int(p.OSPhase)); !ok {
		return &param.Error{Field: "os_phase", Value: p.OSPhase.String(), Want: "one of " + osPhases.List()}
	}
	if _, ok := osHitsChoices.Name(int(p.OSHits)); !ok {
		return &param.Error{Field: "os_hits", Value: p.OSHits.String(), Want: "one of " + osHitsChoices.List()}
	}
	if _, ok := netWaits.Name(int(p.NetWait)); !ok {
		return &param.Error{Field: "net_wait", Value: p.NetWait.String(), Want: "one of " + netWaits.List()}
	}
	// 1/period must stay finite; a mean wait of more than 1e12 s meets no
	// event in any run anyway, so the bound costs nothing.
	if p.NetNoise && p.NetWait == WaitInverse && !(p.Period >= 1e-12) {
		return &param.Error{Field: "period", Value: fmt.Sprint(p.Period), Want: "a number in [1e-12, 1000] with net_wait=inverse (the mean wait 1/period must stay finite)"}
	}
	// Each network-noise event holds a port for duration; events that come
	// faster than that (duration ≥ the mean wait) keep a port busy for
	// good, and a message waiting on it waits without end. With
	// net_wait=period that is the duration < period rule above.
	if p.NetNoise && p.NetWait == WaitInverse && !(p.Duration < 1/p.Period) {
		return &param.Error{Field: "duration", Value: fmt.Sprint(p.Duration), Want: fmt.Sprintf("a number in (0, 1/period=%g) with net_wait=inverse (a port must be free part of the time: the noise's duration below its mean wait)", 1/p.Period)}
	}
	if k := p.K(); p.T < 0 || p.T > k {
		return &param.Error{Field: "T", Value: fmt.Sprint(p.T), Want: fmt.Sprintf("an integer in [0, K=%d] (K = log2 P)", k)}
	}
	return nil
}
