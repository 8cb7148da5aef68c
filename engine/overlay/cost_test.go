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
// (within estBytesFactor) across process counts, iterations, chunking and tracing
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
		// Chunks of 4096 B hold whole messages of about 2 KiB here, but
		// the estimate takes the chunks at their worst (any keys'
		// spread): 2.03x.
		if est.Bytes < cost.Under*got || est.Bytes > estBytesFactor*got+64<<10 {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, %d]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got), estBytesFactor)
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

// Estimate's stated factors over what a run measures on the shapes of
// TestEstimateBoundsWorstShapes: memory at most estBytesFactor× (more
// than cost.Holds' 2: a cache's per-pair records and reserved events
// depend on how many pairs lack a static connection, which the estimate
// takes at its worst), CPU time at most estTimeFactor×. The time is CPU
// time, not wall time, so that a loaded machine moves it less.
const (
	estBytesFactor = 3
	estTimeFactor  = 8
)

// worstShapes are the shapes that stress Estimate: chunks down to one
// byte (the chunks outnumber everything), caches that thrash under either
// handshake, many pairs with few keys, random connections with a cache,
// one process per switch, and a traced run of chunks (the scene's case).
var worstShapes = []struct {
	name   string
	edit   func(*Params)
	traced bool
}{
	{"C=8 whole it=1", func(p *Params) { p.Iterations = 1 }, false},
	{"C=1 kernel it=1", func(p *Params) { p.Iterations, p.Cache = 1, 1 }, false},
	{"C=1 application it=1", func(p *Params) { p.Iterations, p.Cache, p.Handshake = 1, 1, HandshakeApplication }, false},
	{"C=32 128 B it=1", func(p *Params) { p.Iterations, p.Cache, p.ChunkBytes = 1, 32, 128 }, false},
	{"C=0 128 B it=1", func(p *Params) { p.Iterations, p.Cache, p.ChunkBytes = 1, 0, 128 }, false},
	{"all 128 B it=1", func(p *Params) { p.Iterations, p.Policy, p.ChunkBytes = 1, All, 128 }, false},
	{"C=4 1 B chunks, 16 procs", func(p *Params) {
		p.Nodes, p.Procs, p.Switches, p.Keys, p.Iterations, p.Cache, p.ChunkBytes = 8, 16, 4, 1<<16, 1, 4, 1
	}, false},
	{"C=4 1 B chunks application, 16 procs", func(p *Params) {
		p.Nodes, p.Procs, p.Switches, p.Keys, p.Iterations, p.Cache, p.ChunkBytes, p.Handshake = 8, 16, 4, 1<<16, 1, 4, 1, HandshakeApplication
	}, false},
	{"random C=2 it=1", func(p *Params) { p.Iterations, p.Policy, p.Cache = 1, Random, 2 }, false},
	{"256 procs keys=procs", func(p *Params) { p.Nodes, p.Procs, p.Switches, p.Keys, p.Iterations = 128, 256, 8, 256, 1 }, false},
	{"64 switches of 1 node, C=16", func(p *Params) { p.Switches, p.Iterations, p.Cache = 64, 1, 16 }, false},
	{"pattern random 256 B", func(p *Params) { p.Pattern, p.Iterations, p.ChunkBytes = PatternRandom, 1, 256 }, false},
	{"traced 512 B, 32 procs", func(p *Params) {
		p.Nodes, p.Procs, p.Switches, p.Keys, p.Iterations, p.ChunkBytes = 16, 32, 4, 1<<18, 2, 512
	}, true},
}

// TestEstimateBoundsWorstShapes (issue 26): on every worst shape the
// estimate bounds the run's allocation and its CPU time from above,
// within the stated factors. The time's check needs the CPU clock (unix).
func TestEstimateBoundsWorstShapes(t *testing.T) {
	if testing.Short() {
		t.Skip("runs about 20 CPU-s; -short skips it")
	}
	for _, c := range worstShapes {
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
		var cpu float64
		var haveCPU bool
		got := cost.Allocated(func() {
			c0, ok0 := cpuSeconds()
			if _, err := RunIS(p, rand.New(rand.NewPCG(1, 2)), rec); err != nil {
				t.Fatal(err)
			}
			c1, ok1 := cpuSeconds()
			cpu, haveCPU = c1-c0, ok0 && ok1
		})
		t.Logf("%-38s %8.3g messages: est %9.3g B got %9.3g B (%.2f); est %7.3g s, CPU %7.3g s (%.2f), %6.0f ns/message",
			c.name, Messages(p), est.Bytes, got, est.Bytes/got, est.Seconds, cpu, est.Seconds/cpu, cpu*1e9/Messages(p))
		if est.Bytes < cost.Under*got || est.Bytes > estBytesFactor*got+64<<10 {
			t.Errorf("%s: estimate %s, allocated %s: want within [1, %d]x", c.name, cost.Bytes(est.Bytes), cost.Bytes(got), estBytesFactor)
		}
		if haveCPU && (est.Seconds < cpu || est.Seconds > estTimeFactor*cpu) {
			t.Errorf("%s: estimate %.3g s, CPU %.3g s: want within [1, %d]x", c.name, est.Seconds, cpu, estTimeFactor)
		}
	}
}
