package allreduce

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	enginesweep "commlab/engine/sweep"
)

// TestHitsMatchSimulation holds Params.Hits to the engine: over many
// trials, the share in which the conventional time, and the proposed time
// with T exchanges, is late by more than half a duration must match the
// probabilities within 4 standard errors plus 10 % (the model's
// approximations: independent stages, a jitter-free schedule up to the
// first hit). The duration is far longer than the run, so a hit shows.
func TestHitsMatchSimulation(t *testing.T) {
	base := Default()
	base.Alpha, base.N, base.Period, base.Duration = 1e-7, 90, 1e-3, 1e-5
	type tc struct {
		name string
		edit func(*Params)
	}
	cases := []tc{
		{"P=2^10 T=2", func(p *Params) { p.P, p.T = 1<<10, 2 }},
		{"P=2^10 T=4", func(p *Params) { p.P, p.T = 1<<10, 4 }},
		{"co-scheduled P=2^8", func(p *Params) { p.P, p.T, p.CoScheduled = 1<<8, 8, true }},
	}
	for _, r := range readings {
		cases = append(cases, tc{r.name + " P=2^11", func(p *Params) { p.P, p.T = 1<<11, 11; r.edit(p) }})
	}
	n := 1000
	if testing.Short() {
		n = 300
	}
	var s Simulator
	for ci, c := range cases {
		p := base
		c.edit(&p)
		h := p.Hits()
		m0 := p.NoJitterTime()
		var conv, prop int
		for trial := range n {
			res, err := s.Run(p, rand.New(rand.NewPCG(uint64(ci), uint64(trial))), nil)
			if err != nil {
				t.Fatal(err)
			}
			if res.ByT[0] > m0+p.Duration/2 {
				conv++
			}
			if res.ByT[p.T] > m0+p.Duration/2 {
				prop++
			}
		}
		for _, q := range []struct {
			what   string
			model  float64
			events int
		}{{"conventional", h.Conventional, conv}, {"proposed", h.Proposed, prop}} {
			f := float64(q.events) / float64(n)
			se := math.Sqrt(q.model * (1 - q.model) / float64(n))
			if math.Abs(f-q.model) > 4*se+0.1*q.model {
				t.Errorf("%s: %s late in %d of %d trials (%.4f), Hits says %.4f", c.name, q.what, q.events, n, f, q.model)
			}
		}
		t.Logf("%s: conventional %.4f (model %.4f), proposed %.4f (model %.4f)", c.name, float64(conv)/float64(n), h.Conventional, float64(prop)/float64(n), h.Proposed)
	}
}

// evalCase is the audit's case (issue 22): gen-report eval allreduce -P 4096
// -alpha 1e-7 -N 90 -period 1e-2 -duration 1e-4.
func evalCase() Params {
	p := Default()
	p.Alpha, p.N, p.Period, p.Duration = 1e-7, 90, 1e-2, 1e-4
	return p
}

// independentAnswer is the audit's proposed time for evalCase from 4,000
// trials of an independent implementation of the same reading, s.
const independentAnswer = 3.09e-6

// TestMinTrialsEvalCase: 30 trials of the audit's case (eval's default,
// seeded as eval seeds them) have not met the event that makes the
// proposed time late (every process late: both parity classes hit at
// stage 1, probability 0.6 %), and their t-interval excludes the
// independent answer by far; MinTrials' count of trials meets it about
// ten times and its t-interval covers the answer.
func TestMinTrialsEvalCase(t *testing.T) {
	p := evalCase()
	n := p.MinTrials(0.005)
	if h := p.Hits(); n != int(math.Ceil(MinHits/h.Proposed)) {
		t.Fatalf("MinTrials = %d, want MinHits/Proposed = %g/%g", n, float64(MinHits), h.Proposed)
	}
	var s Simulator
	var times []float64 // the proposed time (T = K) of each trial
	for trial := range n {
		res, err := s.Run(p, enginesweep.RNG(1, 0, trial), nil)
		if err != nil {
			t.Fatal(err)
		}
		times = append(times, res.ByT[p.T])
	}
	lo, hi := tInterval(times[:30])
	if lo <= independentAnswer && independentAnswer <= hi {
		t.Errorf("30 trials: interval [%.4g, %.4g] covers %g: the case no longer shows the thin sample", lo, hi, independentAnswer)
	}
	t.Logf("30 trials: [%.4g, %.4g] s", lo, hi)
	lo, hi = tInterval(times)
	if !(lo <= independentAnswer && independentAnswer <= hi) {
		t.Errorf("MinTrials = %d trials: interval [%.4g, %.4g] misses %g", n, lo, hi, independentAnswer)
	}
	t.Logf("%d trials: [%.4g, %.4g] s", n, lo, hi)
}

// tInterval is the 95 % t-interval of the mean of xs (len ≥ 2).
func tInterval(xs []float64) (lo, hi float64) {
	var sum, ss float64
	for _, x := range xs {
		sum += x
	}
	n := float64(len(xs))
	mean := sum / n
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	hw := tQuantile975(len(xs)-1) * math.Sqrt(ss/(n-1)/n)
	return mean - hw, mean + hw
}

// tQuantile975 is Student's t 0.975 quantile: a table to 30 degrees of
// freedom, the Cornish-Fisher expansion in 1/ν beyond (error below 1e-4).
func tQuantile975(df int) float64 {
	table := [...]float64{12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042}
	if df <= len(table) {
		return table[df-1]
	}
	z, v := 1.959964, float64(df)
	return z + (z*z*z+z)/(4*v) + (5*z*z*z*z*z+16*z*z*z+3*z)/(96*v*v)
}

// TestMinTrialsRule: no noise or noise that cannot matter sets no minimum;
// a smaller tolerance never asks for fewer trials; an event met in almost
// every trial (its absence the rare one) is counted from the rarer side.
func TestMinTrialsRule(t *testing.T) {
	quiet := evalCase()
	quiet.OSJitter, quiet.NetNoise = false, false
	if n := quiet.MinTrials(0.005); n != 2 {
		t.Errorf("no jitter: MinTrials = %d, want 2", n)
	}
	if h := quiet.Hits(); h.Conventional != 0 || h.Proposed != 0 {
		t.Errorf("no jitter: hits %+v, want none", h)
	}
	tiny := Default()
	tiny.P, tiny.T, tiny.OSHits, tiny.NetWait = 2, 1, HitsCompute, WaitInverse
	if n := tiny.MinTrials(0.005); n != 2 {
		t.Errorf("P = 2, os_hits=compute, net_wait=inverse (hit probability %g): MinTrials = %d, want 2", tiny.Hits().Conventional, n)
	}
	r := rand.New(rand.NewPCG(12, 13))
	for range 200 {
		p := randomParams(r, 1, 20)
		a, b := p.MinTrials(0.02), p.MinTrials(0.002)
		if a > b || a < 2 {
			t.Fatalf("%+v: MinTrials(0.02) = %d, MinTrials(0.002) = %d", p, a, b)
		}
		h := p.Hits()
		for _, pi := range []float64{h.Conventional, h.Proposed} {
			if !(pi >= 0 && pi <= 1) {
				t.Fatalf("%+v: probability %g", p, pi)
			}
		}
		if h.Proposed > h.Conventional*(1+1e-12) {
			t.Fatalf("%+v: proposed late with probability %g > conventional %g", p, h.Proposed, h.Conventional)
		}
	}
	// The stationary reading's stage 1 stalls about duration/period of the
	// processes: at P = 4096 both parity classes are hit in every trial, so
	// the late trials are the rule and set no minimum.
	st := evalCase()
	st.OSPhase = PhaseStationary
	if h := st.Hits(); h.Proposed < 0.999 {
		t.Errorf("stationary eval case: proposed late with probability %g, want ≈ 1", h.Proposed)
	}
	if n := st.MinTrials(0.005); n != 2 {
		t.Errorf("stationary eval case: MinTrials = %d, want 2", n)
	}
}

// TestExpNeg: the series agrees with math.Exp to a few ulps, and to a
// relative 4x·2^-52 or so for large x, where each squaring doubles the
// error.
func TestExpNeg(t *testing.T) {
	for _, x := range []float64{0, 1e-12, 1e-6, 0.3, 0.5, 0.7, 1, 3, 20, 700} {
		want := math.Exp(-x)
		if got := expNeg(x); math.Abs(got-want) > 1e-15*max(4, 4*x)*want {
			t.Errorf("expNeg(%g) = %.17g, want %.17g", x, got, want)
		}
	}
	if got := expNeg(math.Inf(1)); got != 0 {
		t.Errorf("expNeg(+Inf) = %g", got)
	}
}

// ExampleParams_MinTrials shows the audit's case: how likely a trial is to
// make the proposed time late, and the trials a mean needs to have seen
// that MinHits times.
func ExampleParams_MinTrials() {
	p := Default()
	p.Alpha, p.N, p.Period, p.Duration = 1e-7, 90, 1e-2, 1e-4
	h := p.Hits()
	fmt.Printf("conventional late in %.3f of the trials, proposed in %.5f\n", h.Conventional, h.Proposed)
	fmt.Println("minimum trials:", p.MinTrials(0.005))
	// Output:
	// conventional late in 0.852 of the trials, proposed in 0.00609
	// minimum trials: 1644
}
