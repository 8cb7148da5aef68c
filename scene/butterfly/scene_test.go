package butterfly

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"commlab/engine/allreduce"
	"commlab/engine/trace"
	"commlab/scene"
)

// values returns the scene's defaults with the given overrides.
func values(kv ...string) scene.Values {
	v := scene.Defaults(Fields())
	for i := 0; i+1 < len(kv); i += 2 {
		v[kv[i]] = kv[i+1]
	}
	return v
}

// jittery is a small run where OS jitter and network noise are frequent
// enough to show in a few microseconds: seed 1 stalls P3 in stage 2 and P2
// hands it the result in the first redundant exchange (Fig. 3–4 of the
// paper, on four processes).
func jittery(p, t string) scene.Values {
	return values("P", p, "T", t, "period", "2e-05", "duration", "3e-06")
}

func build(t testing.TB, v scene.Values, seed uint64) *Run {
	t.Helper()
	run, err := New().Build(v, seed)
	if err != nil {
		t.Fatal(err)
	}
	return run.(*Run)
}

func TestInfoAndFields(t *testing.T) {
	info := New().Info()
	if info.Name != "butterfly" || info.Title == "" || info.Summary == "" {
		t.Errorf("Info = %+v: want name butterfly, a title and a summary", info)
	}
	if err := scene.CheckFields(New().Fields()); err != nil {
		t.Error(err)
	}
}

// TestNumbersMatchEngine: what the page reports is what a native run of
// the engine with scene.RNG(seed, 0) gives, without a trace (the browser
// tests compare the two).
func TestNumbersMatchEngine(t *testing.T) {
	for _, c := range []struct {
		v    scene.Values
		seed uint64
	}{
		{values("P", "2", "T", "1"), 7},
		{jittery("8", "3"), 1},
		{values("P", "64", "T", "6"), 42},
		{values("P", "64", "T", "0", "net_noise", "0"), 3},
		{values("P", "4096", "T", "12"), 1},
		{values("P", "4096", "T", "12", "os_phase", "stationary"), 1},
		{values("P", "256", "T", "8", "N", "1e6", "net_wait", "inverse"), 2},
	} {
		name := fmt.Sprintf("P=%s,T=%s,%s,%s,seed=%d", c.v["P"], c.v["T"], c.v["os_phase"], c.v["net_wait"], c.seed)
		t.Run(name, func(t *testing.T) {
			run := build(t, c.v, c.seed)
			p, err := Params(c.v)
			if err != nil {
				t.Fatal(err)
			}
			var sim allreduce.Simulator
			res, err := sim.Run(p, scene.RNG(c.seed, 0), nil)
			if err != nil {
				t.Fatal(err)
			}
			got := run.Numbers()
			want := map[string]float64{
				"conventional": res.ByT[0],
				"redundant":    res.ByT[p.T],
				"no_jitter":    p.NoJitterTime(),
				"K":            float64(p.K()),
				"T":            float64(p.T),
				"P":            float64(p.P),
			}
			for k, w := range want {
				if got[k] != w {
					t.Errorf("Numbers()[%q] = %v, engine %v", k, got[k], w)
				}
			}

			// The critical processes, from the engine's own trace: each
			// process's "final result" marker is g_i^(T).
			finals := func(tt int) []float64 {
				q := p
				q.T = tt
				var tr trace.Trace
				if _, err := sim.Run(q, scene.RNG(c.seed, 0), &tr); err != nil {
					t.Fatal(err)
				}
				f := make([]float64, p.P)
				for _, m := range tr.Markers {
					if m.Label == "final result" {
						f[m.Lane] = m.Time
					}
				}
				return f
			}
			conv, red := finals(0), finals(p.T)
			if i := int(got["critical_conventional"]); conv[i] != res.ByT[0] {
				t.Errorf("critical_conventional = P%d, which finished at %v, not at the completion time %v", i, conv[i], res.ByT[0])
			}
			if i := int(got["critical_redundant"]); red[i] != res.ByT[p.T] {
				t.Errorf("critical_redundant = P%d, which finished at %v, not at %v", i, red[i], res.ByT[p.T])
			}
		})
	}
}

// TestPhaseAndWaitFields: os_phase and net_wait reach the engine (the
// default is the paper's first jitter at a random time and a mean wait of
// one period) and change the run they should.
func TestPhaseAndWaitFields(t *testing.T) {
	d, err := Params(values())
	if err != nil {
		t.Fatal(err)
	}
	if d.OSPhase != allreduce.PhaseFirst || d.NetWait != allreduce.WaitPeriod {
		t.Errorf("defaults os_phase=%v net_wait=%v, want first and period", d.OSPhase, d.NetWait)
	}
	p, err := Params(values("os_phase", "stationary", "net_wait", "inverse"))
	if err != nil {
		t.Fatal(err)
	}
	if p.OSPhase != allreduce.PhaseStationary || p.NetWait != allreduce.WaitInverse {
		t.Errorf("got os_phase=%v net_wait=%v, want stationary and inverse", p.OSPhase, p.NetWait)
	}
	// Heavy OS jitter (windows a third of the period) on 4096 processes:
	// stationary windows stall about a third of the processes at t = 0,
	// so the conventional run is slower than with the first window at a
	// random phase.
	heavy := func(phase string) float64 {
		return build(t, values("P", "4096", "T", "12", "period", "3e-05", "duration", "1e-05", "net_noise", "0", "os_phase", phase), 1).Numbers()["conventional"]
	}
	if f, s := heavy("first"), heavy("stationary"); !(f < s) {
		t.Errorf("conventional time: first %v, stationary %v; want first < stationary", f, s)
	}
	// Network noise only, on long messages: one event every period = 1 ms
	// meets some of the 256·8 messages of ~1 ms each; at one every 1000 s
	// none does, so the run is jitter-free.
	netOnly := func(wait string) *Run {
		return build(t, values("P", "256", "T", "8", "N", "1e6", "os_jitter", "0", "net_wait", wait), 1)
	}
	if n := netOnly("period").Numbers(); !(n["conventional"] > n["no_jitter"]) {
		t.Errorf("net_wait=period: conventional %v, no jitter %v; want noise to delay it", n["conventional"], n["no_jitter"])
	}
	if n := netOnly("inverse").Numbers(); n["conventional"] != n["no_jitter"] {
		t.Errorf("net_wait=inverse: conventional %v, want the jitter-free %v", n["conventional"], n["no_jitter"])
	}
}

// TestOSHitsField: os_hits reaches the engine with the engine's default,
// and compute changes the run it should: windows a third of the period
// on 4096 processes stall many reductions under wall, but only those a
// window begins in under compute, so the conventional time is shorter.
func TestOSHitsField(t *testing.T) {
	d, err := Params(values())
	if err != nil {
		t.Fatal(err)
	}
	if d.OSHits != allreduce.Default().OSHits {
		t.Errorf("default os_hits=%v, want the engine's %v", d.OSHits, allreduce.Default().OSHits)
	}
	for _, name := range allreduce.OSHitsNames() {
		p, err := Params(values("os_hits", name))
		if err != nil || p.OSHits.String() != name {
			t.Errorf("os_hits=%s: %v, %v", name, p.OSHits, err)
		}
	}
	heavy := func(hits string) float64 {
		return build(t, values("P", "4096", "T", "12", "period", "3e-05", "duration", "1e-05", "net_noise", "0", "os_hits", hits), 1).Numbers()["conventional"]
	}
	if w, c := heavy("wall"), heavy("compute"); !(c < w) {
		t.Errorf("conventional time: wall %v, compute %v; want compute < wall", w, c)
	}
}

// TestFinishTimes checks the per-process times the picture is coloured by
// against the recurrences of the spec on a hand-checkable run: two
// processes, no jitter, so f = Tcomm + γN and the redundant copy comes too
// late to be used.
func TestFinishTimes(t *testing.T) {
	run := build(t, values("P", "2", "T", "1", "os_jitter", "0", "net_noise", "0"), 1)
	tcomm, work := 1e-6+8e-9, 8e-10
	want := []float64{0, 0, tcomm + work, tcomm + work, tcomm + work, tcomm + work}
	for i, w := range want {
		if math.Abs(run.fin[i]-w) > 1e-18 {
			t.Errorf("fin[%d] = %v, want %v", i, run.fin[i], w)
		}
	}
	if len(run.msgs) != 4 {
		t.Fatalf("%d messages, want 2 butterfly + 2 redundant", len(run.msgs))
	}
	for _, m := range run.msgs {
		if m.redundant == m.used {
			t.Errorf("message %+v: butterfly messages are used, these redundant copies are not", m)
		}
	}
	if got, want := run.End(), tcomm+work+tcomm; math.Abs(got-want) > 1e-18 {
		t.Errorf("End = %v, want the redundant copies' arrival %v", got, want)
	}
}

func TestStepsAndEnd(t *testing.T) {
	for _, v := range []scene.Values{jittery("8", "3"), values("P", "4096", "T", "12"), values("P", "2", "T", "0")} {
		run := build(t, v, 1)
		steps := run.Steps()
		if !slices.IsSorted(steps) || len(slices.Compact(slices.Clone(steps))) != len(steps) {
			t.Errorf("P=%s: Steps %v not sorted and distinct", v["P"], steps)
		}
		want := append(slices.Clone(run.res.StageEnd), run.res.ByT[1:]...)
		for _, w := range want {
			if !slices.Contains(steps, w) {
				t.Errorf("P=%s: Steps lack %v (a stage or exchange end)", v["P"], w)
			}
		}
		if len(steps) > len(want) {
			t.Errorf("P=%s: %d steps, more than the %d stage and exchange ends", v["P"], len(steps), len(want))
		}
		if end := run.End(); end < run.res.ByT[0] || end != max(run.res.ByT[0], run.tr.End()) || steps[len(steps)-1] > end {
			t.Errorf("P=%s: End = %v, want the later of the conventional time %v and the trace's end %v", v["P"], end, run.res.ByT[0], run.tr.End())
		}
	}
}

func TestBadValues(t *testing.T) {
	for _, c := range []struct {
		v   scene.Values
		key string
	}{
		{values("P", "4", "T", "3"), "T"},         // T > K = 2
		{values("P", "3"), "P"},                   // not a power of two
		{values("P", "8192"), "P"},                // beyond the trace limit
		{values("duration", "0.002"), "duration"}, // not below period
		{values("alpha", "x"), "alpha"},
		{values("os_jitter", "maybe"), "os_jitter"},
		{values("os_phase", "sometimes"), "os_phase"},
		{values("net_wait", "1/period"), "net_wait"},
		{values("os_hits", "cpu"), "os_hits"},
	} {
		_, err := New().Build(c.v, 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != c.key || fe.Want == "" {
			t.Errorf("Build(%v) error = %v, want a FieldError on %s", c.v, err, c.key)
		}
	}
	v := values()
	delete(v, "P")
	if _, err := New().Build(v, 1); err == nil {
		t.Error("Build without P succeeded")
	}
}

// TestEngineErrorsMapToFields: the scene's build maps its engine's range
// errors (allreduce.RangeError) onto the page's FieldError on the same key,
// with the value as the page holds it.
func TestEngineErrorsMapToFields(t *testing.T) {
	v := scene.Defaults(Fields())
	err := checked.Errors(fmt.Errorf("wrapped: %w", &allreduce.RangeError{Field: "alpha", Value: "1e-6", Want: "a test range"}), v)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || *fe != (scene.FieldError{Key: "alpha", Value: v["alpha"], Want: "a test range"}) {
		t.Errorf("checked.Errors = %#v, want a FieldError on alpha", err)
	}
}
