package logp

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"

	elogp "commlab/engine/logp"
	"commlab/engine/param"
	"commlab/engine/trace"
	"commlab/scene"
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
	fs := scenetest.CheckInfo(t, sc, "logp", "additions", "P", "n", "L", "o", "g", "sigma", "gap_sigma", "Ls", "replays")
	// The model's defaults are the engine's (but n, see DefaultN), and the
	// plan assumes the mean latency: L_s = μ.
	v := scene.Defaults(fs)
	p, ls, err := Params(v)
	if err != nil {
		t.Fatal(err)
	}
	d := elogp.Default()
	d.N = DefaultN
	if p != d || ls != d.L {
		t.Errorf("defaults give %+v, L_s = %v; want %+v, L_s = μ = %v", p, ls, d, d.L)
	}
}

func TestBadValuesNameTheField(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"P": "1"}, "P"},
		{map[string]string{"P": "33"}, "P"},
		{map[string]string{"P": "2.5"}, "P"},
		{map[string]string{"n": "0"}, "n"},
		{map[string]string{"L": "-1"}, "L"},
		{map[string]string{"o": "NaN"}, "o"},
		{map[string]string{"g": "21"}, "g"},
		{map[string]string{"sigma": "-0.5"}, "sigma"},
		{map[string]string{"gap_sigma": "x"}, "gap_sigma"},
		{map[string]string{"Ls": "101"}, "Ls"},
		{map[string]string{"replays": "0"}, "replays"},
		{map[string]string{"replays": "2001"}, "replays"},
	} {
		_, err := New().Build(values(tc.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != tc.want || fe.Want == "" {
			t.Errorf("Build(%v) error = %v, want a FieldError on %q", tc.set, err, tc.want)
		}
	}
	v := values(nil)
	delete(v, KeyLs)
	var fe *scene.FieldError
	if _, err := New().Build(v, 1); !errors.As(err, &fe) || fe.Key != KeyLs {
		t.Errorf("Build without Ls: %v, want a FieldError on Ls", err)
	}
}

// TestNumbersMatchEngine checks the page's numbers against the engine
// called directly: the plan with L_s, replay i with scene.RNG(seed, i)
// (replay 0 is the run drawn), and elogp.Expected with the scene's trials.
func TestNumbersMatchEngine(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		seed uint64
	}{
		{nil, 1},
		{map[string]string{"P": "2", "n": "1000", "replays": "50"}, 7},
		{map[string]string{"P": "8", "sigma": "5", "Ls": "14.5", "replays": "30"}, 42},
		{map[string]string{"P": "32", "n": "5000", "gap_sigma": "1", "g": "3", "replays": "10"}, 1 << 40},
		{map[string]string{"P": "4", "sigma": "0", "replays": "3"}, 3},
	} {
		r := build(t, tc.set, tc.seed)
		v := values(tc.set)
		p, ls, err := Params(v)
		if err != nil {
			t.Fatal(err)
		}
		s, err := elogp.Plan(p, ls)
		if err != nil {
			t.Fatal(err)
		}
		n := v.Int(KeyReplays)
		var first elogp.Result
		sum := 0.0
		for i := range n {
			res, err := elogp.Replay(s, p, scene.RNG(tc.seed, i), nil)
			if err != nil {
				t.Fatal(err)
			}
			if i == 0 {
				first = res
			}
			sum += res.T
		}
		trials := min(20000, max(2000, 300000/len(s.Prog.Ops)))
		mean, se, err := elogp.Expected(p, ls, trials, tc.seed)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{
			"planned":         s.Planned(),
			"T":               first.T,
			"stall":           first.Stall,
			"late_messages":   float64(first.Late),
			"mean_T":          sum / float64(n),
			"replays":         float64(n),
			"expected":        mean,
			"expected_stderr": se,
			"expected_trials": float64(trials),
			"processors_used": float64(s.Used),
		}
		got := r.Numbers()
		if len(got) != len(want) {
			t.Errorf("%v: numbers %v, want the keys of %v", tc.set, got, want)
		}
		for k, w := range want {
			if g, ok := got[k]; !ok || g != w {
				t.Errorf("%v seed %d: %s = %v, want %v", tc.set, tc.seed, k, g, w)
			}
		}
		// A late message only ever costs time: T ≥ T_s.
		if got["T"] < got["planned"] {
			t.Errorf("%v: T = %v before T_s = %v", tc.set, got["T"], got["planned"])
		}
		if p.Sigma == 0 && p.GapSigma == 0 && (got["T"] != got["planned"] || got["expected"] != got["planned"]) {
			t.Errorf("%v: without fluctuation T = %v, E[T] = %v, want T_s = %v", tc.set, got["T"], got["expected"], got["planned"])
		}
	}
}

// TestExpectedP2MatchesClosedForm: for P = 2 the Monte Carlo reference the
// scene draws agrees with the spec's closed form, E[T](μ) = T_s(μ) + σ/√(2π)
// (μ = 10 ≫ σ = 2, so the truncation at 0 changes nothing visible).
func TestExpectedP2MatchesClosedForm(t *testing.T) {
	r := build(t, map[string]string{"P": "2", "n": "1000"}, 5)
	closed, err := elogp.ExpectedP2(r.p, r.ls)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(r.expected - closed); d > 4*r.stderr {
		t.Errorf("Monte Carlo E[T] = %v ± %v, closed form %v: %.1f standard errors apart", r.expected, r.stderr, closed, d/r.stderr)
	}
	if want := r.sched.Planned() + 2/math.Sqrt(2*math.Pi); math.Abs(closed-want) > 1e-6 {
		t.Errorf("closed form %v, want T_s + σ/√(2π) = %v", closed, want)
	}
	// The slides' T_s = (n + 3o + L_s)/2.
	if want := (1000 + 3*1 + 10) / 2.0; r.sched.Planned() != want {
		t.Errorf("T_s = %v, want (n + 3o + L_s)/2 = %v", r.sched.Planned(), want)
	}
}

// TestPlanIsTheTimetable: the plan panel's trace (the schedule replayed
// with every latency L_s) ends at T_s, stalls nowhere, and every message
// flies exactly L_s.
func TestPlanIsTheTimetable(t *testing.T) {
	for _, set := range []map[string]string{nil, {"P": "16", "n": "1000", "Ls": "13"}, {"P": "5", "g": "4", "gap_sigma": "2"}} {
		r := build(t, set, 3)
		if err := trace.Validate(r.plan); err != nil {
			t.Errorf("%v: plan trace: %v", set, err)
		}
		if err := trace.Validate(r.replay); err != nil {
			t.Errorf("%v: replay trace: %v", set, err)
		}
		if got := slices.Max(r.panels[0].finish); got != r.sched.Planned() {
			t.Errorf("%v: the plan's last operation ends at %v, want T_s = %v", set, got, r.sched.Planned())
		}
		for _, s := range r.plan.Spans {
			if s.Kind == trace.Stall {
				t.Errorf("%v: the plan stalls: %+v", set, s)
			}
		}
		for _, m := range r.plan.Messages {
			if m.Arrive-m.Send != r.ls || m.Delay != 0 {
				t.Errorf("%v: planned message %+v does not fly L_s = %v", set, m, r.ls)
			}
		}
		if got := slices.Max(r.panels[1].finish); got != r.res.T {
			t.Errorf("%v: the replay's last operation ends at %v, want T = %v", set, got, r.res.T)
		}
	}
}

func TestStepsAndEnd(t *testing.T) {
	r := build(t, map[string]string{"P": "8", "n": "500"}, 2)
	if r.End() != max(r.res.T, r.expected) {
		t.Errorf("End = %v, want max(T, E[T]) = %v", r.End(), max(r.res.T, r.expected))
	}
	steps := r.Steps()
	if !slices.IsSorted(steps) || len(slices.Compact(slices.Clone(steps))) != len(steps) {
		t.Errorf("Steps %v are not sorted and unique", steps)
	}
	for _, s := range steps {
		if s <= 0 || s > r.End() {
			t.Errorf("step %v outside (0, %v]", s, r.End())
		}
	}
	want := []float64{r.sched.Planned(), r.res.T}
	for _, m := range r.replay.Messages {
		want = append(want, m.Arrive)
	}
	for _, w := range want {
		if !slices.Contains(steps, w) {
			t.Errorf("Steps %v miss %v (T_s, T or an arrival)", steps, w)
		}
	}
}

// TestDeterministic: one seed gives one run, another seed another.
func TestDeterministic(t *testing.T) {
	set := map[string]string{"P": "6", "replays": "40"}
	a, b, c := build(t, set, 9), build(t, set, 9), build(t, set, 10)
	if !slices.Equal(a.mean, b.mean) || a.res != b.res || a.expected != b.expected {
		t.Error("two builds of one seed differ")
	}
	if slices.Equal(a.mean, c.mean) {
		t.Error("seeds 9 and 10 give the same running mean")
	}
}

// TestOneNumberOneProcessor: n = 1 leaves nothing to add or send; the
// scene still builds and draws.
func TestOneNumberOneProcessor(t *testing.T) {
	r := build(t, map[string]string{"n": "1", "replays": "2"}, 1)
	if r.sched.Planned() != 0 || r.res.T != 0 || !(r.End() > 0) {
		t.Errorf("n = 1: T_s %v, T %v, End %v; want 0, 0 and a positive axis", r.sched.Planned(), r.res.T, r.End())
	}
	if l := r.Frame(r.End(), v960); len(l.Items) == 0 {
		t.Error("n = 1: empty frame")
	}
}

// TestPinnedNumbers pins the defaults' numbers at seed 1, as printed once
// (shortest round-trip form, so the comparison is exact). Do not edit:
// the test also runs under js/wasm (GOOS=js GOARCH=wasm go test
// -exec=$(go env GOROOT)/lib/wasm/go_js_wasm_exec ./scene/logp -run
// Pinned), where it shows that the page computes the very numbers a native
// build does.
func TestPinnedNumbers(t *testing.T) {
	got := build(t, nil, 1).Numbers()
	want := map[string]float64{
		"planned":         43,
		"T":               47.36201845789255,
		"stall":           4.362018457892553,
		"late_messages":   1,
		"mean_T":          44.45398184921413,
		"replays":         200,
		"expected":        44.371272608614895,
		"expected_stderr": 0.009558052595370287,
		"expected_trials": 20000,
		"processors_used": 3,
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
}

// TestEngineErrorsMapToFields: the scene's build maps its engine's range
// errors (*param.Error) onto the page's FieldError on the same key,
// with the value as the page holds it.
func TestEngineErrorsMapToFields(t *testing.T) {
	v := values(map[string]string{"sigma": "3"})
	err := checked.Errors(fmt.Errorf("wrapped: %w", &param.Error{Field: "sigma", Value: "3", Want: "a test range"}), v)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || *fe != (scene.FieldError{Key: "sigma", Value: v["sigma"], Want: "a test range"}) {
		t.Errorf("checked.Errors = %#v, want a FieldError on sigma", err)
	}
}
