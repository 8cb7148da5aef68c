package allreduce

import (
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/engine/cost/costtest"
	"commlab/engine/trace"
)

// TestEstimateBoundsRun holds Estimate's memory to what a trial allocates
// (within 2x: measured ≤ estimate ≤ 2·measured, plus the fixed 64 kB) across
// P, message sizes, jitter periods and tracing, and logs the time per event
// (the constants of cost.go come from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	base := Default()
	type tc struct {
		name   string
		edit   func(*Params)
		traced bool
	}
	cases := []tc{
		{"P=2^10", func(p *Params) { p.P, p.T = 1<<10, 10 }, false},
		{"P=2^16", func(p *Params) { p.P, p.T = 1<<16, 16 }, false},
		{"P=2^17 quiet", func(p *Params) { p.P, p.T, p.OSJitter, p.NetNoise = 1<<17, 17, false, false }, false},
		{"P=2^12 traced", func(p *Params) { p.P = 1 << 12 }, true},
		{"P=64 traced", func(p *Params) { p.P, p.T = 64, 6 }, true},
		{"P=64 N=1e7 period=1e-5 traced", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 64, 6, 1e7, 1e-5, 1e-6 }, true},
		{"P=128 N=1e8 period=1e-4 traced", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 128, 7, 1e8, 1e-4, 1e-6 }, true},
		{"P=64 N=1e7 period=1e-6", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 64, 6, 1e7, 1e-6, 1e-7 }, false},
		{"P=256 N=1e9 net", func(p *Params) { p.P, p.T, p.N, p.OSJitter = 256, 8, 1e9, false }, false},
	}
	for _, c := range cases {
		p := base
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p, c.traced)
		var s Simulator
		var rec *trace.Trace
		if c.traced {
			rec = new(trace.Trace)
		}
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, err := s.Run(p, rand.New(rand.NewPCG(1, 2)), rec); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-32s est %10.3g B  got %10.3g B  ratio %.2f   est %8.3g s  took %8.3g s  (%.3g events, %.3g records)",
			c.name, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), est.Events, est.Spans)
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, 2]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

// TestAdviceFits: issue 26's refusal of duration just under period blamed
// the process-stages ("lower P to at most 2"); the cost is the jitter
// windows, and every way out the refusal names fits.
func TestAdviceFits(t *testing.T) {
	b := cost.Budget{Name: "the command", Bytes: 4e9, Seconds: 600, Force: "-force"}
	for _, c := range []struct {
		name   string
		edit   func(*Params)
		trials float64
		key    string
		want   []string
		not    string
	}{
		{"duration just under period", func(p *Params) { p.P, p.T, p.Duration = 64, 6, 0.000999999999999 }, 30, "duration",
			[]string{"duration = 0.000999999999999 of period = 0.001", "jitter windows", "lower duration to at most", "raise period to at least"}, "updates about"},
		{"N = 1e9 at period 1e-6", func(p *Params) { p.P, p.T, p.N, p.Period, p.Duration = 64, 6, 1e9, 1e-6, 1e-7 }, 30, "period",
			[]string{"jitter windows", "raise period to at least"}, ""},
		{"P = 2^24, 1000 trials", func(p *Params) { p.P, p.T = 1<<24, 24 }, 1000, "P",
			[]string{"lower P to at most", "and T to"}, ""},
		{"P = 2^24, T = 3, 1000 trials", func(p *Params) { p.P, p.T = 1<<24, 3 }, 1000, "P",
			[]string{"lower P to at most"}, "and T to"},
	} {
		p := Default()
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		// As eval allreduce does: the trials multiply one trial's cost.
		est := Estimate(p, false)
		est.Seconds *= c.trials
		est.Events *= c.trials
		if est.Key != c.key {
			t.Errorf("%s: key %q, want %q", c.name, est.Key, c.key)
		}
		costtest.AdviceFits(t, est, b)
		msg := est.Check(b).Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: %s\ndoes not say %q", c.name, msg, w)
			}
		}
		if c.not != "" && strings.Contains(msg, c.not) {
			t.Errorf("%s: %s\nsays %q", c.name, msg, c.not)
		}
		t.Logf("%s: %s", c.name, msg)
	}
}
