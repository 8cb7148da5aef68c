package allreduce

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"commlab/engine/noise"
	"commlab/engine/param"
	"commlab/engine/trace"
)

// Dyadic times keep every sum exact, so hand-computed cases compare with ==.
const (
	a = 0x1p-20 // Tcomm = α (β = 0): about 0.95 µs
	c = 0x1p-30 // γN: about 0.93 ns
	D = 0x1p-16 // one OS-jitter window: about 15 µs, longer than 3a
)

func handParams(p int) Params {
	return Params{P: p, Alpha: a, Beta: 0, Gamma: c / 8, N: 8, Period: 1, Duration: D, T: log2(p)}
}

func log2(p int) int { return Params{P: p}.K() }

// stalls returns OS noise with period 1 s where only the listed processes
// have a window inside the run: process i's window starts at at[i].
func stalls(p int, at map[int]float64) *noise.Periodic {
	ph := make([]float64, p)
	for i := range ph {
		ph[i] = 0.5 // window [0.5, 0.5+D): never reached
	}
	for i, t := range at {
		ph[i] = t
	}
	return &noise.Periodic{Period: 1, Duration: D, Phases: ph}
}

func TestHandCases(t *testing.T) {
	for _, tc := range []struct {
		name   string
		p      int
		stalls map[int]float64
		want   []float64 // ByT
	}{
		{"P=2 no noise", 2, nil, []float64{a + c, a + c}},
		{"P=4 no noise", 4, nil, []float64{2 * (a + c), 2 * (a + c), 2 * (a + c)}},
		{"P=8 no noise", 8, nil, []float64{3 * (a + c), 3 * (a + c), 3 * (a + c), 3 * (a + c)}},
		// Fig. 3/4 of the paper: P3 (index 2) is stalled in stage 1, so P1
		// (index 0) waits for it in stage 2. The first redundant exchange
		// brings P1 the result from P2 (index 1) one message later than the
		// no-jitter time: conventional 2a+2c+D, redundant 3a+2c.
		{"P=4 stall on P2 in stage 1", 4, map[int]float64{2: a + c/2}, []float64{2*a + 2*c + D, 3*a + 2*c, 3*a + 2*c}},
		// The last stage's reduction of process 0 is stalled; its odd
		// partner forwards the result: no-jitter time + one message.
		{"P=8 stall on P0 in stage 3", 8, map[int]float64{0: 3*a + 2*c + c/2}, []float64{3*a + 3*c + D, 4*a + 3*c, 4*a + 3*c, 4*a + 3*c}},
		// A stall in stage 1 on process 0 spreads through the even class
		// (processes 0, 2, 4, 6 all finish late, 6 the latest at
		// 3a+3c+D); the odd class is clean and one exchange repairs all.
		{"P=8 stall on P0 in stage 1", 8, map[int]float64{0: a + c/2}, []float64{3*a + 3*c + D, 4*a + 3*c, 4*a + 3*c, 4*a + 3*c}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := handParams(tc.p)
			var osn *noise.Periodic
			if tc.stalls != nil {
				osn = stalls(tc.p, tc.stalls)
			}
			var s Simulator
			got := s.run(p, osn, nil, nil)
			if !slices.Equal(got.ByT, tc.want) {
				t.Errorf("ByT = %v, want %v", got.ByT, tc.want)
			}
			if tc.stalls == nil && got.Conventional() != p.NoJitterTime() {
				t.Errorf("no-jitter time %v, want K(Tcomm+γN) = %v", got.Conventional(), p.NoJitterTime())
			}
			var tr trace.Trace
			traced := s.run(p, osn, nil, &tr)
			if !slices.Equal(traced.ByT, got.ByT) {
				t.Errorf("traced ByT %v differs from untraced %v", traced.ByT, got.ByT)
			}
			if err := trace.Validate(&tr); err != nil {
				t.Error(err)
			}
		})
	}
}

// reference is the spec's recurrence written plainly: stage-major, no
// blocking, no fast path; OS windows walked one period at a time and
// network events scanned from the first event at or after the send.
func reference(p Params, osn *noise.Periodic, net *noise.Poisson) []float64 {
	k := p.K()
	f := make([]float64, p.P)
	// Window m of process i starts at FirstWindow(i) + period + ... +
	// period (m additions), as in the noise package: written as φ + m·period
	// it would differ in the last bits. wins[i] is the latest window start
	// not after the last ready time of process i (ready times only grow).
	var wins []float64
	if osn != nil {
		wins = make([]float64, p.P)
		for i := range wins {
			wins[i] = osn.FirstWindow(i)
		}
	}
	finish := func(i int, s, c float64) float64 {
		if osn == nil {
			return s + c
		}
		per, d := osn.Period, osn.Duration
		for wins[i]+per <= s {
			wins[i] += per
		}
		w := wins[i]
		// Ready inside a window: wait for its end, unless only windows
		// that begin during the work count (os_hits=compute).
		if w <= s && s < w+d && p.OSHits == HitsWall {
			s = w + d
		}
		end := s + c
		for ; ; w += per {
			if w < s {
				continue
			}
			if w >= end {
				return end
			}
			end += d
		}
	}
	delay := func(i int, s, flight float64) float64 {
		if net == nil {
			return 0
		}
		end, n := s+flight, 0
		for e := net.NextEvent(i, s); e < end; e = net.NextAfter(i, e) {
			n++
			end += net.Delay
		}
		return float64(n) * net.Delay
	}
	next := make([]float64, p.P)
	for st := 1; st <= k; st++ {
		m := 1 << (st - 1)
		for i := range f {
			j := i ^ m
			arr := f[j] + p.Tcomm() + delay(j, f[j], p.Tcomm())
			next[i] = finish(i, max(f[i], arr), p.Work())
		}
		f, next = next, f
	}
	byT := []float64{slices.Max(f)}
	fl := p.SendOverhead + p.Tcomm()
	for st := 1; st <= p.T; st++ {
		m := 1 << (st - 1)
		for i := range f {
			j := i ^ m
			next[i] = min(f[i], f[j]+fl+delay(j, f[j], fl))
		}
		f, next = next, f
		byT = append(byT, slices.Max(f))
	}
	return byT
}

func noises(t testing.TB, p Params, key noise.Key) (*noise.Periodic, *noise.Poisson) {
	osn, net, err := noiseModels(p, key)
	if err != nil {
		t.Fatal(err)
	}
	return osn, net
}

// randomParams draws a case where both jitters matter: durations from
// 1/1000 to 1/3 of the period, messages from 8 B to 1 MB.
func randomParams(r *rand.Rand, minK, maxK int) Params {
	k := minK + r.IntN(maxK-minK+1)
	period := math.Pow(10, -4+2*r.Float64())
	p := Params{
		P: 1 << k, Alpha: math.Pow(10, -7+r.Float64()), Beta: 1e-9, Gamma: 1e-10,
		N:      math.Round(math.Pow(10, 1+5*r.Float64())),
		Period: period, Duration: period * math.Pow(10, -3+2.5*r.Float64()),
		OSJitter: r.IntN(4) != 0, NetNoise: r.IntN(4) != 0, CoScheduled: r.IntN(5) == 0,
		T: r.IntN(k + 1),
	}
	if r.IntN(4) == 0 {
		p.SendOverhead = p.Alpha * r.Float64()
	}
	p.OSPhase = OSPhase(r.IntN(2))
	if r.IntN(8) == 0 {
		p.NetWait = WaitInverse
	}
	if r.IntN(3) == 0 {
		p.OSHits = HitsCompute
	}
	return p
}

// TestMatchesReference checks the blocked kernel with its cursors against
// the plain recurrence, exactly, on random cases that include P > 2^13 so
// the second blocking pass runs.
func TestMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var s Simulator
	n := 60
	if testing.Short() {
		n = 15
	}
	for trial := range n {
		minK, maxK := 1, 10
		if trial%10 == 0 { // two blocking passes: stages 14 and 15 too
			minK, maxK = 14, 15
		}
		p := randomParams(r, minK, maxK)
		key := noise.KeyOf(r.Uint64(), r.Uint64())
		osn, net := noises(t, p, key)
		got := s.run(p, osn, net, nil)
		want := reference(p, osn, net)
		if !slices.Equal(got.ByT, want) {
			t.Fatalf("case %d %+v:\n got ByT %v\nwant     %v", trial, p, got.ByT, want)
		}
	}
}

// TestInvariants: redundancy never hurts (ByT is non-increasing in T),
// jitter never helps, and the trace agrees with the numbers.
func TestInvariants(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var s Simulator
	for trial := range 200 {
		p := randomParams(r, 1, 9)
		rng := rand.New(rand.NewPCG(uint64(trial), 7))
		res, err := s.Run(p, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		for T := 1; T < len(res.ByT); T++ {
			if res.ByT[T] > res.ByT[T-1] {
				t.Fatalf("case %d %+v: ByT[%d] = %g > ByT[%d] = %g", trial, p, T, res.ByT[T], T-1, res.ByT[T-1])
			}
		}
		quiet := p
		quiet.OSJitter, quiet.NetNoise = false, false
		nj, err := s.Run(quiet, rng, nil)
		if err != nil {
			t.Fatal(err)
		}
		if rel := math.Abs(nj.Conventional()-p.NoJitterTime()) / p.NoJitterTime(); rel > 1e-14 {
			t.Fatalf("case %d: no-jitter time %g, closed form K(Tcomm+γN) = %g", trial, nj.Conventional(), p.NoJitterTime())
		}
		if res.Conventional() < nj.Conventional()*(1-1e-15) {
			t.Fatalf("case %d: jitter made the butterfly faster: %g < %g", trial, res.Conventional(), nj.Conventional())
		}
		if trial%20 == 0 {
			var tr trace.Trace
			traced, err := s.Run(p, rand.New(rand.NewPCG(uint64(trial), 7)), &tr)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(traced.ByT, res.ByT) {
				t.Fatalf("case %d: traced run %v differs from sweep run %v", trial, traced.ByT, res.ByT)
			}
			checkTrace(t, p, &tr, traced)
		}
	}
}

// checkTrace runs the shared validator and the allreduce's own checks:
// every process has K butterfly receives, the last span of every lane ends
// at the conventional finish, and the final markers give ByT[T].
func checkTrace(t *testing.T, p Params, tr *trace.Trace, res Result) {
	t.Helper()
	if err := trace.Validate(tr); err != nil {
		t.Fatal(err)
	}
	recv := make([]int, p.P)
	for _, m := range tr.Messages {
		if m.Class == "butterfly" {
			recv[m.To]++
		}
	}
	for i, n := range recv {
		if n != p.K() {
			t.Fatalf("process %d received %d butterfly messages, want K = %d", i, n, p.K())
		}
	}
	var last float64
	for _, s := range tr.Spans {
		last = max(last, s.End)
	}
	if last != res.Conventional() {
		t.Fatalf("latest span ends at %g, conventional time is %g", last, res.Conventional())
	}
	var final float64
	for _, m := range tr.Markers {
		if m.Label == "final result" {
			final = max(final, m.Time)
		}
	}
	if final != res.ByT[p.T] {
		t.Fatalf("latest final-result marker at %g, ByT[T=%d] = %g", final, p.T, res.ByT[p.T])
	}
}

func TestValidate(t *testing.T) {
	ok := Default()
	if err := ok.Validate(); err != nil {
		t.Fatalf("Default() invalid: %v", err)
	}
	for _, tc := range []struct {
		field string
		edit  func(*Params)
	}{
		{"P", func(p *Params) { p.P = 3 }},
		{"P", func(p *Params) { p.P = 1 }},
		{"P", func(p *Params) { p.P = MaxP * 2 }},
		{"alpha", func(p *Params) { p.Alpha = 0 }},
		{"alpha", func(p *Params) { p.Alpha = -1e-6 }},
		{"N", func(p *Params) { p.N = math.NaN() }},
		{"period", func(p *Params) { p.Period = 0 }},
		{"duration", func(p *Params) { p.Duration = 0 }},
		{"duration", func(p *Params) { p.Duration = p.Period }},
		{"T", func(p *Params) { p.T = 13 }},
		{"T", func(p *Params) { p.T = -1 }},
		{"send_overhead", func(p *Params) { p.SendOverhead = -1 }},
		{"os_phase", func(p *Params) { p.OSPhase = 2 }},
		{"net_wait", func(p *Params) { p.NetWait = 7 }},
		{"os_hits", func(p *Params) { p.OSHits = 2 }},
		{"period", func(p *Params) { p.NetWait, p.Period, p.Duration = WaitInverse, 1e-13, 1e-14 }},
		// A port busier than free for good (issue 16: a message waited
		// without end at period 100, duration 50 with net_wait=inverse).
		{"duration", func(p *Params) { p.NetWait, p.Period, p.Duration = WaitInverse, 100, 50 }},
		{"duration", func(p *Params) { p.NetWait, p.Period, p.Duration = WaitInverse, 10, 0.1 }},
	} {
		p := Default()
		tc.edit(&p)
		err := p.Validate()
		re, isRange := err.(*param.Error)
		if !isRange || re.Field != tc.field {
			t.Errorf("%+v: got error %v, want a *param.Error on %s", p, err, tc.field)
		}
	}
}
