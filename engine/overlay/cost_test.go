package overlay

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
	"time"

	"commlab/engine/cost"
	"commlab/engine/cost/costtest"
	"commlab/engine/trace"
)

// TestEstimateBoundsRun holds Estimate's memory to what RunIS allocates
// (within 2x) across process counts, iterations, chunking and tracing
// (512 processes, 1 iteration: 574 MB estimated, 555 MB allocated; too slow
// to keep here),
// and logs the time per message (nsMessage comes from these lines).
func TestEstimateBoundsRun(t *testing.T) {
	for _, c := range []struct {
		name   string
		edit   func(*Params)
		traced bool
	}{
		{"it=1", func(p *Params) { p.Iterations = 1 }, false},
		{"procs=192 it=1", func(p *Params) { p.Nodes, p.Procs, p.Iterations = 96, 192, 1 }, false},
		{"all it=2", func(p *Params) { p.Iterations, p.Policy = 2, All }, false},
		{"all procs=64 it=2", func(p *Params) { p.Nodes, p.Procs, p.Iterations, p.Policy = 32, 64, 2, All }, false},
		{"C=0 it=4", func(p *Params) { p.Iterations, p.Cache = 4, 0 }, false},
		{"chunks", func(p *Params) { p.ChunkBytes, p.Iterations = 4096, 1 }, false},
		{"traced", func(p *Params) { p.Iterations = 1 }, true},
	} {
		p := Default()
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p, c.traced)
		var rec *trace.Trace
		if c.traced {
			rec = new(trace.Trace)
		}
		var took time.Duration
		got := cost.Allocated(func() {
			t0 := time.Now()
			if _, err := RunIS(p, rand.New(rand.NewPCG(1, 2)), rec); err != nil {
				t.Fatal(err)
			}
			took = time.Since(t0)
		})
		t.Logf("%-20s est %9.3g B got %9.3g B ratio %.2f  est %7.3g s took %7.3g s (%.3g messages, %.0f ns/message)",
			c.name, est.Bytes, got, est.Bytes/got, est.Seconds, took.Seconds(), Messages(p), (took.Seconds()-nsKey*1e-9*float64(p.Keys))*1e9/Messages(p))
		if !cost.Holds(est.Bytes, got, 64<<10) {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, 2]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got))
		}
	}
}

var atMostZero = regexp.MustCompile(`at most 0([^.0-9]|$)`)

// TestAdviceFits: issue 26's refusals name parameters whose advised values
// fit (it said "lower procs to at most 0" for chunks of one byte).
func TestAdviceFits(t *testing.T) {
	b := cost.Budget{Name: "the command", Bytes: 4e9, Seconds: 600, Force: "-force"}
	for _, c := range []struct {
		name string
		edit func(*Params)
		want string
	}{
		{"chunks of 1 byte", func(p *Params) { p.ChunkBytes, p.Keys, p.KeyBytes = 1, MaxKeys, 1024 }, "raise chunk_bytes to at least"},
		{"1024 nodes, 10 iterations", func(p *Params) { p.Procs, p.Nodes, p.Iterations = 1024, 1024, 10 }, "lower procs to at most"},
		{"100 iterations, fill", func(p *Params) { p.Procs, p.Nodes, p.Switches, p.Fill, p.Iterations = 1024, 512, 256, 2, 100 }, "lower iterations to at most"},
	} {
		p := Default()
		c.edit(&p)
		if err := p.Validate(); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		est := Estimate(p, false)
		msg := est.Check(b).Error()
		ways := costtest.AdviceFits(t, est, b)
		if len(ways) == 0 || !strings.Contains(msg, c.want) || atMostZero.MatchString(msg) {
			t.Errorf("%s: %s; want a way out naming %q", c.name, msg, c.want)
		}
		t.Logf("%s: %s", c.name, msg)
	}
}
