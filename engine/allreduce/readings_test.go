package allreduce

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"commlab/engine/noise"
)

// readings are the four readings of eq. 2 and 4.1.3 the report compares,
// each an edit of the default.
var readings = []struct {
	name string
	edit func(*Params)
}{
	{"os_phase=first", func(p *Params) {}},
	{"os_phase=stationary", func(p *Params) { p.OSPhase = PhaseStationary }},
	{"net_wait=inverse", func(p *Params) { p.NetWait = WaitInverse }},
	{"os_hits=compute", func(p *Params) { p.OSHits = HitsCompute }},
}

// TestReadingsShareRandomNumbers: the readings of a cell draw the same
// random numbers in the same order, so a sweep can pair them (common
// random numbers). Run takes the same two words from the caller's source
// under every reading; from the same key the OS phases and first windows
// are the same under every reading, and the network events the same under
// every reading with the same mean wait.
func TestReadingsShareRandomNumbers(t *testing.T) {
	for _, k := range []int{4, 10} {
		base := Default()
		base.P, base.T, base.Period, base.Duration = 1<<k, k, 1e-4, 1e-5 // noise in every run
		var s Simulator
		var after []uint64
		var phases, windows [][]float64
		var events [][]float64
		for _, r := range readings {
			p := base
			r.edit(&p)
			rng := rand.New(rand.NewPCG(5, 6))
			if _, err := s.Run(p, rng, nil); err != nil {
				t.Fatal(err)
			}
			after = append(after, rng.Uint64())

			osn, net, err := noiseModels(p, noise.NewKey(rand.New(rand.NewPCG(5, 6))))
			if err != nil {
				t.Fatal(err)
			}
			var ph, win, ev []float64
			for i := range p.P {
				ph = append(ph, osn.Phase(i))
				if p.OSPhase == PhaseFirst {
					win = append(win, osn.FirstWindow(i))
				}
				ev = append(ev, net.NextEvent(i, 0), net.NextEvent(i, 1e-3))
			}
			phases, windows = append(phases, ph), append(windows, win)
			if p.NetWait == WaitPeriod {
				events = append(events, ev)
			}
		}
		for i, r := range readings {
			if after[i] != after[0] {
				t.Errorf("P = 2^%d, %s: Run left the source at a different place than %s", k, r.name, readings[0].name)
			}
			if !slices.Equal(phases[i], phases[0]) {
				t.Errorf("P = 2^%d, %s: OS phases differ from %s's", k, r.name, readings[0].name)
			}
		}
		if !slices.Equal(windows[0], windows[2]) || !slices.Equal(windows[0], windows[3]) {
			t.Errorf("P = 2^%d: first OS windows differ between readings with os_phase=first", k)
		}
		if len(events) != 3 {
			t.Fatalf("%d readings with net_wait=period, want 3", len(events))
		}
		for i := 1; i < len(events); i++ {
			if !slices.Equal(events[i], events[0]) {
				t.Errorf("P = 2^%d: network events differ between readings with net_wait=period", k)
			}
		}
	}
}

// TestComputeNeverLater: with the same random numbers and no network noise,
// os_hits=compute is never later than os_hits=wall, and os_phase=first
// never later than os_phase=stationary, for every process-stage (so for
// every T). Under compute a reduction ready at s finishes no later than
// under wall from s (wall may also wait out a window already running), and
// wall's finish only grows with s; stationary has the windows of first
// and one more. This fails if the readings stop sharing their OS phases:
// independent phases make either reading the later one in some trial.
func TestComputeNeverLater(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 9))
	var s Simulator
	earlier, later := 0, 0
	for trial := range 200 {
		p := randomParams(r, 1, 9)
		p.OSJitter, p.NetNoise, p.CoScheduled = true, false, trial%5 == 0
		run := func(hits OSHits, phase OSPhase) []float64 {
			q := p
			q.OSHits, q.OSPhase = hits, phase
			res, err := s.Run(q, rand.New(rand.NewPCG(uint64(trial), 1)), nil)
			if err != nil {
				t.Fatal(err)
			}
			return res.ByT
		}
		wall, compute, stationary := run(HitsWall, PhaseFirst), run(HitsCompute, PhaseFirst), run(HitsWall, PhaseStationary)
		for T := range wall {
			if compute[T] > wall[T] {
				t.Fatalf("case %d %+v: ByT[%d] %g under compute, later than %g under wall", trial, p, T, compute[T], wall[T])
			}
			if wall[T] > stationary[T] {
				t.Fatalf("case %d %+v: ByT[%d] %g under first, later than %g under stationary", trial, p, T, wall[T], stationary[T])
			}
		}
		if compute[0] < wall[0] {
			earlier++
		}
		if stationary[0] > wall[0] {
			later++
		}
	}
	if earlier == 0 || later == 0 {
		t.Fatalf("compute earlier than wall in %d of 200 cases, stationary later than first in %d: the readings do not differ", earlier, later)
	}
}

// TestComputeIgnoresPhase: under os_hits=compute a window that began before
// t = 0 never begins during a reduction, so os_phase=first and stationary
// give the same numbers bit for bit.
func TestComputeIgnoresPhase(t *testing.T) {
	r := rand.New(rand.NewPCG(10, 11))
	var s Simulator
	for trial := range 60 {
		p := randomParams(r, 1, 9)
		p.OSJitter, p.OSHits = true, HitsCompute
		var got [2][]float64
		for i, phase := range []OSPhase{PhaseFirst, PhaseStationary} {
			p.OSPhase = phase
			res, err := s.Run(p, rand.New(rand.NewPCG(uint64(trial), 2)), nil)
			if err != nil {
				t.Fatal(err)
			}
			got[i] = res.ByT
		}
		if !slices.Equal(got[0], got[1]) {
			t.Fatalf("case %d %+v: first %v, stationary %v", trial, p, got[0], got[1])
		}
	}
}

// TestOSHitsText: the option's names round-trip through JSON and flags,
// the default is left out of the JSON (so outputs from before the option
// are unchanged), and a bad name is an error naming os_hits and the names
// allowed.
func TestOSHitsText(t *testing.T) {
	p := Default()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "os_hits") {
		t.Errorf("default JSON %s names os_hits", b)
	}
	p.OSHits = HitsCompute
	b, _ = json.Marshal(p)
	if !strings.Contains(string(b), `"os_hits":"compute"`) {
		t.Errorf("JSON %s lacks os_hits=compute", b)
	}
	var q Params
	if err := json.Unmarshal(b, &q); err != nil || q.OSHits != HitsCompute {
		t.Errorf("round trip: %v, os_hits %v", err, q.OSHits)
	}
	err = json.Unmarshal([]byte(`{"os_hits":"sometimes"}`), &q)
	if err == nil || !strings.Contains(err.Error(), `os_hits = "sometimes" is out of range: want one of wall, compute`) {
		t.Errorf("bad name: %v", err)
	}
	var h OSHits
	if err := h.Set("compute"); err != nil || h.String() != "compute" {
		t.Errorf("Set(compute): %v, %v", err, h)
	}
	if err := h.Set("work"); err == nil || !strings.Contains(err.Error(), "wall, compute") {
		t.Errorf("Set(work): %v", err)
	}
}
