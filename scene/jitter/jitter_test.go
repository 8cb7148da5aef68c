package jitter

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	"commlab/engine/allreduce"
	"commlab/engine/param"
	"commlab/engine/trace"
	"commlab/scene"
	"commlab/scene/butterfly"
	"commlab/scene/scenetest"
)

// values returns the scene's defaults with some keys changed.
func values(set map[string]string) scene.Values { return scenetest.Values(New(), set) }

func build(t testing.TB, set map[string]string, seed uint64) *run {
	t.Helper()
	return scenetest.Build(t, New(), set, seed).(*run)
}

func TestInfoAndFields(t *testing.T) {
	sc := New()
	if in := sc.Info(); in.Name != "jitter" || in.Title == "" || in.Paper == "" || in.Summary == "" {
		t.Errorf("Info = %+v, want name jitter and every text filled", in)
	}
	fs := sc.Fields()
	if err := scene.CheckFields(fs); err != nil {
		t.Fatal(err)
	}
	// The allreduce controls first, exactly as the butterfly scene has them,
	// so a URL switching scenes keeps its parameters.
	bf := butterfly.Fields()
	if len(fs) != len(bf)+2 {
		t.Fatalf("%d fields, want the %d allreduce fields + view + trials", len(fs), len(bf))
	}
	for i, f := range bf {
		if fs[i].Key != f.Key || fs[i].Default != f.Default {
			t.Errorf("field %d = %s=%s, want %s=%s", i, fs[i].Key, fs[i].Default, f.Key, f.Default)
		}
	}
	if f := fs[len(bf)]; f.Key != KeyView || f.Default != ViewBoth || !slices.Equal(f.Choices, []string{"both", "conventional", "redundant"}) {
		t.Errorf("view field = %+v", f)
	}
	if f := fs[len(bf)+1]; f.Key != KeyTrials || f.Min != 10 || f.Max != 1000 || f.Default != "200" {
		t.Errorf("trials field = %+v", f)
	}
}

func TestBadValuesNameTheField(t *testing.T) {
	tests := []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"view": "sideways"}, "view"},
		{map[string]string{"trials": "5"}, "trials"},
		{map[string]string{"trials": "1001"}, "trials"},
		{map[string]string{"trials": "20.5"}, "trials"},
		{map[string]string{"P": "48"}, "P"},
		{map[string]string{"P": "8192"}, "P"},
		{map[string]string{"alpha": "-1"}, "alpha"},
		// Constraints between fields, checked by the engine.
		{map[string]string{"period": "1e-05", "duration": "1e-05"}, "duration"},
		{map[string]string{"P": "16", "T": "5"}, "T"},
	}
	for _, tc := range tests {
		_, err := New().Build(values(tc.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != tc.want || fe.Want == "" {
			t.Errorf("Build(%v) error = %v, want a FieldError on %q", tc.set, err, tc.want)
		}
	}
	v := values(nil)
	delete(v, KeyTrials)
	_, err := New().Build(v, 1)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || fe.Key != KeyTrials {
		t.Errorf("Build without trials: %v, want a FieldError on trials", err)
	}
}

// TestNumbersMatchSimulator checks the page's numbers against the engine
// run directly: trial i of seed is allreduce.Simulator.Run with
// scene.RNG(seed, i), trial 0 being the run drawn.
func TestNumbersMatchSimulator(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		seed uint64
	}{
		{map[string]string{"P": "16", "T": "4", "trials": "30"}, 1},
		{map[string]string{"P": "64", "trials": "50"}, 7},
		{map[string]string{"P": "8", "T": "1", "trials": "10", "co_scheduled": "1"}, 42},
		{map[string]string{"P": "32", "T": "0", "trials": "10"}, 3},
	} {
		r := build(t, tc.set, tc.seed)
		p, err := butterfly.Params(values(tc.set))
		if err != nil {
			t.Fatal(err)
		}
		n := values(tc.set).Int(KeyTrials)
		var sim allreduce.Simulator
		var sumC, sumR float64
		var first allreduce.Result
		for i := range n {
			res, err := sim.Run(p, scene.RNG(tc.seed, i), nil)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = allreduce.Result{ByT: slices.Clone(res.ByT)}
			}
			sumC += res.ByT[0]
			sumR += res.ByT[p.T]
		}
		num := r.Numbers()
		want := map[string]float64{
			"conventional":      first.ByT[0],
			"redundant":         first.ByT[p.T],
			"mean_conventional": sumC / float64(n),
			"mean_redundant":    sumR / float64(n),
			"trials":            float64(n),
			"no_jitter":         p.NoJitterTime(),
		}
		for k, w := range want {
			if got, ok := num[k]; !ok || math.Abs(got-w) > 1e-12*math.Abs(w) {
				t.Errorf("%v seed %d: %s = %v, want %v", tc.set, tc.seed, k, got, w)
			}
		}
		// The critical processes: the one whose finish is the completion
		// time, checked on an independently recorded trace.
		var tr trace.Trace
		if _, err := sim.Run(p, scene.RNG(tc.seed, 0), &tr); err != nil {
			t.Fatal(err)
		}
		cc, cr := int(num["critical_conventional"]), int(num["critical_redundant"])
		lastReduce := 0.0
		for _, s := range tr.Spans {
			if s.Lane == cc && s.Step == p.K() {
				lastReduce = max(lastReduce, s.End)
			}
		}
		if lastReduce != first.ByT[0] {
			t.Errorf("%v: P%d's last stage-K span ends at %v, want the conventional completion %v", tc.set, cc, lastReduce, first.ByT[0])
		}
		for _, m := range tr.Markers {
			if m.Label == "final result" && m.Lane == cr && m.Time != first.ByT[p.T] {
				t.Errorf("%v: P%d holds the result at %v, want the redundant completion %v", tc.set, cr, m.Time, first.ByT[p.T])
			}
		}
	}
}

// TestFinishTimes checks what the layout reads from the trace: f_i^(K) and
// g_i^(T) per process, whose maxima are the engine's two completion times.
func TestFinishTimes(t *testing.T) {
	for _, set := range []map[string]string{
		{"P": "16", "T": "4"}, {"P": "64"}, {"P": "32", "T": "0"}, {"P": "8", "N": "0", "T": "2"},
	} {
		for seed := uint64(1); seed <= 5; seed++ {
			r := build(t, set, seed)
			if got := slices.Max(r.finConv); got != r.res.ByT[0] {
				t.Errorf("%v seed %d: max f_i^K = %v, want ByT[0] = %v", set, seed, got, r.res.ByT[0])
			}
			if got := slices.Max(r.finRed); got != r.res.ByT[r.p.T] {
				t.Errorf("%v seed %d: max g_i^T = %v, want ByT[T] = %v", set, seed, got, r.res.ByT[r.p.T])
			}
			for i := range r.finConv {
				if r.finRed[i] > r.finConv[i] {
					t.Errorf("%v seed %d: P%d holds the result at %v with redundant exchanges, later than %v without", set, seed, i, r.finRed[i], r.finConv[i])
				}
				// A process adopts exactly when a copy beat its own result.
				if adopted := r.adopt[i].exchange > 0; adopted != (r.finRed[i] < r.finConv[i]) {
					t.Errorf("%v seed %d: P%d adopt = %+v, but g = %v, f = %v", set, seed, i, r.adopt[i], r.finRed[i], r.finConv[i])
				}
			}
			if r.finConv[r.critConv] != r.conv || r.finRed[r.critRed] != r.red {
				t.Errorf("%v seed %d: critical processes P%d, P%d do not set the completion times", set, seed, r.critConv, r.critRed)
			}
		}
	}
}

func TestStepsAndEnd(t *testing.T) {
	r := build(t, map[string]string{"P": "16", "T": "4"}, 2)
	if r.End() != r.res.ByT[0] {
		t.Errorf("End = %v, want the conventional completion %v", r.End(), r.res.ByT[0])
	}
	steps := r.Steps()
	if !slices.IsSorted(steps) || len(slices.Compact(slices.Clone(steps))) != len(steps) {
		t.Errorf("Steps %v are not sorted and unique", steps)
	}
	for _, s := range steps {
		if s < 0 || s > r.End() {
			t.Errorf("step %v outside [0, %v]", s, r.End())
		}
	}
	for _, want := range append(slices.Clone(r.res.StageEnd), r.res.ByT[1:]...) {
		if !slices.Contains(steps, want) {
			t.Errorf("Steps %v miss %v (a stage or redundant-exchange completion)", steps, want)
		}
	}
	// Seed 2 draws a stalled process: stage completions and the earlier
	// redundant completion are all distinct instants here.
	if len(steps) < r.k+1 {
		t.Errorf("%d steps, want at least K+1 = %d", len(steps), r.k+1)
	}
}

func TestHistogramCountsEveryTrial(t *testing.T) {
	r := build(t, map[string]string{"P": "32", "T": "5", "trials": "137"}, 5)
	for s, name := range []string{"conventional", "redundant"} {
		sum := 0
		for _, c := range r.hist.counts[s] {
			sum += c
		}
		if sum != 137 {
			t.Errorf("%s bins sum to %d, want 137 trials", name, sum)
		}
	}
	// Without jitter every trial takes the no-jitter time: one bin each.
	r = build(t, map[string]string{"P": "16", "T": "4", "os_jitter": "0", "net_noise": "0", "trials": "10"}, 1)
	for s := range r.hist.counts {
		if c := r.hist.counts[s][r.hist.bin(r.p.NoJitterTime())]; c != 10 {
			t.Errorf("no jitter: series %d has %d trials in the no-jitter bin, want 10", s, c)
		}
	}
}

// TestHistogramDeterministic: the same parameters and seed give the same
// histogram, and another seed another one.
func TestHistogramDeterministic(t *testing.T) {
	set := map[string]string{"P": "64", "trials": "40"}
	a, b, c := build(t, set, 9), build(t, set, 9), build(t, set, 10)
	if a.hist.counts != b.hist.counts || a.hist.mean != b.hist.mean {
		t.Error("two builds of one seed differ")
	}
	if a.hist.mean == c.hist.mean {
		t.Error("seeds 9 and 10 give the same means")
	}
}

func TestPickLanes(t *testing.T) {
	if got := pickLanes(64, 6, 5, 9); len(got) != 64 || got[63] != 63 {
		t.Errorf("P=64: %d lanes, want all 64", len(got))
	}
	for _, tc := range []struct{ P, k, cc, cr int }{{128, 7, 127, 3}, {256, 8, 77, 200}, {4096, 12, 4095, 1234}} {
		got := pickLanes(tc.P, tc.k, tc.cc, tc.cr)
		if len(got) != SubsetLanes {
			t.Errorf("P=%d: %d lanes, want %d", tc.P, len(got), SubsetLanes)
		}
		if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
			t.Errorf("P=%d: lanes %v not sorted and unique", tc.P, got)
		}
		for _, want := range []int{tc.cc, tc.cr, tc.cc ^ 1<<(tc.k-1), tc.cr ^ 1} {
			if !slices.Contains(got, want) {
				t.Errorf("P=%d: lanes miss P%d (a critical process or its partner)", tc.P, want)
			}
		}
		if got[0] < 0 || got[len(got)-1] >= tc.P {
			t.Errorf("P=%d: lane out of range in %v", tc.P, got)
		}
	}
}

// TestEngineErrorsMapToFields: the scene's build maps its engine's range
// errors (*param.Error) onto the page's FieldError on the same key,
// with the value as the page holds it.
func TestEngineErrorsMapToFields(t *testing.T) {
	v := values(nil)
	err := checked.Errors(fmt.Errorf("wrapped: %w", &param.Error{Field: "period", Value: "1e-3", Want: "a test range"}), v)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || *fe != (scene.FieldError{Key: "period", Value: v["period"], Want: "a test range"}) {
		t.Errorf("checked.Errors = %#v, want a FieldError on period", err)
	}
}
