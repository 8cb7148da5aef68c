package mmdl

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	emmdl "commlab/engine/mmdl"
	"commlab/engine/param"
	"commlab/engine/trace"
	"commlab/scene"
	"commlab/scene/scenetest"
)

// values returns the scene's defaults with some keys changed.
func values(set map[string]string) scene.Values { return scenetest.Values(New(), set) }

func build(t testing.TB, set map[string]string) *run {
	t.Helper()
	return scenetest.Build(t, New(), set, 1).(*run)
}

func TestInfoAndFields(t *testing.T) {
	sc := New()
	fs := scenetest.CheckInfo(t, sc, "mmdl", "", "procset", "load", "calibrated", "schedule", "rounds", "latency", "throughput")
	// The defaults are the paper's Fig. 4-8 case after calibration.
	in, err := Instance(scene.Defaults(fs))
	if err != nil {
		t.Fatal(err)
	}
	want, _ := emmdl.Preset(2, "2", true)
	if !slices.Equal(in.MHz, want.MHz) || !slices.Equal(in.Tasks, want.Tasks) || in.Compute != 0.294 || in.Comm != 0.0034 ||
		in.Latency != 100e-6 || in.Throughput != 800e6 {
		t.Errorf("defaults give %+v, want the paper's ProcSet 2 / Load 2 after calibration", in)
	}
}

func TestBadValuesNameTheField(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"procset": "3"}, "procset"},
		{map[string]string{"load": "5"}, "load"},
		{map[string]string{"load": ""}, "load"},
		{map[string]string{"calibrated": "maybe"}, "calibrated"},
		{map[string]string{"rounds": "-1"}, "rounds"},
		{map[string]string{"rounds": "101"}, "rounds"},
		{map[string]string{"rounds": "2.5"}, "rounds"},
		{map[string]string{"latency": "0"}, "latency"},
		{map[string]string{"latency": "2"}, "latency"},
		{map[string]string{"latency": "NaN"}, "latency"},
		{map[string]string{"throughput": "0"}, "throughput"},
		{map[string]string{"throughput": "1e12"}, "throughput"},
		{map[string]string{"throughput": "fast"}, "throughput"},
	} {
		_, err := New().Build(values(tc.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != tc.want || fe.Want == "" {
			t.Errorf("Build(%v) = %v, want a FieldError on %q", tc.set, err, tc.want)
		}
	}
	// A missing key is an error too, not a silent zero.
	v := values(nil)
	delete(v, KeyLatency)
	if _, err := New().Build(v, 1); err == nil {
		t.Error("Build without latency succeeded")
	}
}

// TestEngineErrorsBecomeFieldErrors: a value the engine rejects (past the
// scene's own checks) comes back on the engine's field name.
func TestEngineErrorsBecomeFieldErrors(t *testing.T) {
	v := values(nil)
	err := checked.Errors(&param.Error{Field: "latency", Value: "5", Want: "seconds in [0, 1000]"}, v)
	var fe *scene.FieldError
	if !errors.As(err, &fe) || fe.Key != "latency" || fe.Value != v[KeyLatency] {
		t.Errorf("checked.Errors = %v, want latency with the page's value", err)
	}
	err = checked.Errors(&param.Error{Field: "mhz[3]", Value: "0", Want: "a clock rate"}, v)
	if !errors.As(err, &fe) || fe.Key != "mhz[3]" || fe.Value != "0" {
		t.Errorf("checked.Errors = %v, want the engine's own field and value", err)
	}
}

// TestNumbersAreTheEngines: every number is what a direct engine call on
// the same instance gives, so the page and gen-report agree.
func TestNumbersAreTheEngines(t *testing.T) {
	for _, set := range []map[string]string{
		nil,
		{"procset": "1", "load": "4", "calibrated": "0", "rounds": "1"},
		{"load": "3-b", "rounds": "20", "latency": "0.01"},
		{"load": "1", "procset": "1", "rounds": "100"},
		{"rounds": "0", "latency": "0.001"},
	} {
		r := build(t, set)
		v := values(set)
		in, err := emmdl.Preset(v.Int(KeyProcSet), v[KeyLoad], v.Bool(KeyCalibrated))
		if err != nil {
			t.Fatal(err)
		}
		in.Latency, in.Throughput = v.Float(KeyLatency), v.Float(KeyThroughput)
		st, err := emmdl.SteadyState(in)
		if err != nil {
			t.Fatal(err)
		}
		R := v.Int(KeyRounds)
		sched, err := emmdl.ParseSched(v[KeySchedule])
		if err != nil {
			t.Fatal(err)
		}
		var sch *emmdl.Schedule
		if R == 0 {
			R, sch, err = emmdl.ChooseRounds(in, st, sched)
		} else {
			sch, err = emmdl.Rounds(in, st, R, sched)
		}
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]float64{
			"T":              st.T,
			"makespan":       sch.Makespan,
			"formula_total":  emmdl.FormulaTotal(st.T, in.Latency, R),
			"optimal_rounds": float64(emmdl.OptimalRounds(st.T, in.Latency)),
			"optimal_total":  emmdl.FormulaTotal(st.T, in.Latency, emmdl.OptimalRounds(st.T, in.Latency)),
			"rounds":         float64(R),
			"latency":        in.Latency,
			"tasks":          600000,
			"overhead":       sch.Makespan - st.T,
		}
		got := r.Numbers()
		for k, w := range want {
			if got[k] != w {
				t.Errorf("%v: %s = %v, want %v", set, k, got[k], w)
			}
		}
		moved := 0.0
		for i := range st.Flow {
			for j := range st.Flow[i] {
				moved += st.Flow[i][j]
			}
		}
		if math.Abs(got["moved"]-moved) > 1e-6*moved+1e-9 {
			t.Errorf("%v: moved = %v, the flows add up to %v", set, got["moved"], moved)
		}
		if r.End() != sch.Makespan {
			t.Errorf("%v: End %v, want the makespan %v", set, r.End(), sch.Makespan)
		}
		if !(sch.Makespan >= st.T*(1-1e-12)) {
			t.Errorf("%v: makespan %v below T %v", set, sch.Makespan, st.T)
		}
	}
}

// TestDeterministic: the same values give the same numbers, whatever the
// seed (the model draws nothing).
func TestDeterministic(t *testing.T) {
	a, err := New().Build(values(nil), 1)
	if err != nil {
		t.Fatal(err)
	}
	b, err := New().Build(values(nil), 99)
	if err != nil {
		t.Fatal(err)
	}
	na, nb := a.Numbers(), b.Numbers()
	for k, x := range na {
		if nb[k] != x {
			t.Errorf("%s: %v with seed 1, %v with seed 99", k, x, nb[k])
		}
	}
	if !slices.Equal(a.Steps(), b.Steps()) {
		t.Error("steps differ between seeds")
	}
}

// TestStepsAreRoundBoundaries: the steps are the R round boundaries and
// the makespan, sorted, inside the run.
func TestStepsAreRoundBoundaries(t *testing.T) {
	for _, R := range []string{"1", "5", "20", "overlap 5"} {
		set := map[string]string{"rounds": R}
		if r, ok := strings.CutPrefix(R, "overlap "); ok {
			set = map[string]string{"rounds": r, "schedule": "overlap"}
		}
		r := build(t, set)
		steps := r.Steps()
		if !slices.IsSorted(steps) || steps[len(steps)-1] != r.End() {
			t.Errorf("R = %s: steps %v not sorted or not ending at the makespan %v", R, steps, r.End())
		}
		for _, s := range steps {
			if !(s > 0 && s <= r.End()) {
				t.Errorf("R = %s: step %v outside (0, %v]", R, s, r.End())
			}
		}
		if len(r.rounds) != r.sch.R {
			t.Errorf("R = %s: %d round boundaries, want R", R, len(r.rounds))
		}
		for _, b := range r.rounds {
			if !slices.Contains(steps, b) && b < r.End() {
				t.Errorf("R = %s: boundary %v is not a step", R, b)
			}
		}
	}
}

// TestPaperRoundsAreItsPeriod: with the paper's schedule the boundaries are
// the starts of rounds 2 … R+1, multiples of the period, and the playhead's
// first round says it only transfers; the overlapped schedule of the same
// case ends sooner.
func TestPaperRoundsAreItsPeriod(t *testing.T) {
	r := build(t, nil)
	if r.sch.Sched != emmdl.Paper || !(r.sch.Period > 0) {
		t.Fatalf("the default schedule is %v with period %v, want the paper's", r.sch.Sched, r.sch.Period)
	}
	for k, b := range r.rounds {
		if want := float64(k+1) * r.sch.Period; b != want {
			t.Errorf("boundary %d at %v, want %d·period = %v", k, b, k+1, want)
		}
	}
	o := build(t, map[string]string{"schedule": "overlap"})
	if o.sch.Makespan >= r.sch.Makespan {
		t.Errorf("overlap makespan %v, paper %v: want overlap shorter", o.sch.Makespan, r.sch.Makespan)
	}
	if _, err := New().Build(values(map[string]string{"schedule": "fast"}), 1); err == nil || !strings.Contains(err.Error(), "schedule") {
		t.Errorf("schedule=fast: %v, want an error naming the field", err)
	}
}

// TestAutoRoundsIsTheSchedulersChoice: R = 0 builds what ChooseRounds picks.
func TestAutoRoundsIsTheSchedulersChoice(t *testing.T) {
	r := build(t, map[string]string{"rounds": "0", "latency": "0.01"})
	in, _ := Instance(values(map[string]string{"latency": "0.01"}))
	st, _ := emmdl.SteadyState(in)
	R, sch, err := emmdl.ChooseRounds(in, st, emmdl.Paper)
	if err != nil {
		t.Fatal(err)
	}
	if r.sch.R != R || r.sch.Makespan != sch.Makespan || !r.auto {
		t.Errorf("auto built R = %d, makespan %v; ChooseRounds gives %d, %v", r.sch.R, r.sch.Makespan, R, sch.Makespan)
	}
}

// TestTraceIsValid: the exported trace passes the project's trace
// validator (spans sorted and disjoint per lane, every send received).
func TestTraceIsValid(t *testing.T) {
	for _, set := range []map[string]string{nil, {"rounds": "100"}, {"procset": "1", "load": "4", "calibrated": "0"}, {"schedule": "overlap"}, {"schedule": "overlap", "rounds": "100"}, {"rounds": "1"}} {
		r := build(t, set)
		if err := trace.Validate(r.Trace()); err != nil {
			t.Errorf("%v: %v", set, err)
		}
	}
}
