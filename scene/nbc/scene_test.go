package nbc

import (
	"errors"
	"math"
	"slices"
	"testing"

	enbc "commlab/engine/nbc"
	"commlab/engine/param"
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
	fs := scenetest.CheckInfo(t, sc, "tcc", "", "queue", "collectives", "msg", "nodes", "matrix", "cores", "oversubscribe", "test_every", "view")
	// Every model constant the scene does not show is the engine's
	// default; the ones it shows are its defaults.
	tcc, nbcf, err := Params(scene.Defaults(fs))
	if err != nil {
		t.Fatal(err)
	}
	d := enbc.Default()
	d.QueueCap, d.Collectives, d.Nodes, d.Msg, d.Matrix = DefaultQueue, DefaultCollectives, DefaultNodes, DefaultMsg, DefaultMatrix
	if tcc != d {
		t.Errorf("TCC params %+v, want %+v", tcc, d)
	}
	d.Method = enbc.NBCFTest
	if nbcf != d {
		t.Errorf("NBCF params %+v, want %+v", nbcf, d)
	}
}

// TestNumbersAreTheEngines: every number is the engine's, run directly
// with the same parameters, whatever the view.
func TestNumbersAreTheEngines(t *testing.T) {
	for _, set := range []map[string]string{
		nil, {"view": "nbcf"}, {"view": "both", "queue": "1", "collectives": "16"},
		{"msg": "1000", "nodes": "2", "oversubscribe": "1", "cores": "4"}, {"matrix": "100", "test_every": "10000"},
	} {
		r := build(t, set)
		got := r.Numbers()
		tcc, nbcf, err := Params(values(set))
		if err != nil {
			t.Fatal(err)
		}
		rt, err := enbc.Run(tcc, nil)
		if err != nil {
			t.Fatal(err)
		}
		rf, err := enbc.Run(nbcf, nil)
		if err != nil {
			t.Fatal(err)
		}
		blocked, blockedTime, calls := 0, 0.0, 0
		at := map[int]float64{}
		for _, e := range rt.Events {
			switch e.Kind {
			case enbc.Block:
				blocked++
				at[e.Handle] = e.Time
			case enbc.Enqueue:
				if b, ok := at[e.Handle]; ok {
					blockedTime += e.Time - b
				}
			}
		}
		for _, e := range rf.Events {
			if e.Kind == enbc.Progress {
				calls++
			}
		}
		want := map[string]float64{
			"total": rt.Total, "baseline": rt.Baseline, "speedup": rt.Speedup,
			"compute": rt.Compute, "comm": rt.Comm, "overlap": rt.Overlap, "overhead": rt.Overhead,
			"collectives": float64(tcc.Collectives), "queue": float64(tcc.QueueCap),
			"compute_threads":  float64(tcc.ComputeThreads()),
			"blocked_enqueues": float64(blocked), "blocked_time": blockedTime,
			"nbcf_total": rf.Total, "nbcf_baseline": rf.Baseline, "nbcf_speedup": rf.Speedup,
			"progress_calls": float64(calls),
		}
		for k, w := range want {
			if g, ok := got[k]; !ok || math.Float64bits(g) != math.Float64bits(w) {
				t.Errorf("%v: %s = %v, engine %v", set, k, g, w)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%v: numbers %v, want the keys of %v", set, got, want)
		}
		if !(got["total"] > 0 && got["speedup"] > 0 && got["baseline"] > 0) {
			t.Errorf("%v: total %v, speedup %v, baseline %v: want positive", set, got["total"], got["speedup"], got["baseline"])
		}
	}
	// The defaults fill the queue: the main thread blocks.
	if n := build(t, nil).Numbers()["blocked_enqueues"]; n != DefaultCollectives-DefaultQueue {
		t.Errorf("defaults: %v blocked enqueues, want %d (collectives - capacity)", n, DefaultCollectives-DefaultQueue)
	}
	if n := build(t, map[string]string{"queue": "16"}).Numbers()["blocked_enqueues"]; n != 0 {
		t.Errorf("queue 16 > 6 collectives: %v blocked enqueues, want 0", n)
	}
}

// TestDeterministic: two builds give the same numbers and steps.
func TestDeterministic(t *testing.T) {
	a, b := build(t, map[string]string{"view": "both"}), build(t, map[string]string{"view": "both"})
	if !slices.Equal(a.Steps(), b.Steps()) || a.End() != b.End() {
		t.Error("two builds differ in steps or end")
	}
	for k, x := range a.Numbers() {
		if b.Numbers()[k] != x {
			t.Errorf("%s: %v then %v", k, x, b.Numbers()[k])
		}
	}
}

func TestEndAndSteps(t *testing.T) {
	for _, view := range []string{ViewTCC, ViewNBCF, ViewBoth} {
		r := build(t, map[string]string{"view": view})
		tt, tf := r.tl[iTCC].res.Total, r.tl[iNBCF].res.Total
		want := map[string]float64{ViewTCC: tt, ViewNBCF: tf, ViewBoth: max(tt, tf)}[view]
		if r.End() != want {
			t.Errorf("%s: End %v, want %v", view, r.End(), want)
		}
		st := r.Steps()
		if !slices.IsSorted(st) || len(st) == 0 || st[0] < 0 || st[len(st)-1] > r.End() {
			t.Errorf("%s: steps %v not sorted in [0, End]", view, st)
		}
		// Every issue, dequeue, done and wait return is a step.
		for _, tl := range r.shown {
			for _, e := range tl.res.Events {
				switch e.Kind {
				case enbc.Issue, enbc.Dequeue, enbc.Done, enbc.WaitReturn:
					if _, ok := slices.BinarySearch(st, e.Time); !ok {
						t.Errorf("%s: %s of h%d at %v is not a step", view, e.Kind, e.Handle, e.Time)
					}
				}
			}
		}
	}
}

func TestBadValuesNameTheField(t *testing.T) {
	for _, tc := range []struct {
		set  map[string]string
		want string
	}{
		{map[string]string{"queue": "0"}, "queue"},
		{map[string]string{"queue": "17"}, "queue"},
		{map[string]string{"collectives": "17"}, "collectives"},
		{map[string]string{"msg": "1e9"}, "msg"},
		{map[string]string{"msg": "NaN"}, "msg"},
		{map[string]string{"nodes": "1"}, "nodes"},
		{map[string]string{"nodes": "33"}, "nodes"},
		{map[string]string{"matrix": "2.5"}, "matrix"},
		{map[string]string{"cores": "33"}, "cores"},
		{map[string]string{"oversubscribe": "maybe"}, "oversubscribe"},
		{map[string]string{"test_every": "0"}, "test_every"},
		{map[string]string{"view": "gantt"}, "view"},
	} {
		_, err := New().Build(values(tc.set), 1)
		var fe *scene.FieldError
		if !errors.As(err, &fe) || fe.Key != tc.want {
			t.Errorf("Build(%v) = %v, want a FieldError on %q", tc.set, err, tc.want)
		}
	}
	v := values(nil)
	delete(v, "queue")
	var fe *scene.FieldError
	if _, err := New().Build(v, 1); !errors.As(err, &fe) || fe.Key != "queue" {
		t.Errorf("Build without queue = %v, want a FieldError on queue", err)
	}
}

// TestEngineRangeErrorMapsToField: a value the scene's field allows but
// the engine refuses comes back on the engine's key (here a model
// constant, sockets > cores, which no control shows).
func TestEngineRangeErrorMapsToField(t *testing.T) {
	err := checked.Errors(&param.Error{Field: "cores", Value: "1", Want: "an integer in [2, 256]"}, values(map[string]string{"cores": "1"}))
	var fe *scene.FieldError
	if !errors.As(err, &fe) || fe.Key != "cores" || fe.Value != "1" || fe.Want != "an integer in [2, 256]" {
		t.Errorf("checked.Errors = %#v", err)
	}
	err = checked.Errors(&param.Error{Field: "sockets", Value: "3", Want: "an integer in [1, 2]"}, values(nil))
	if !errors.As(err, &fe) || fe.Key != "sockets" || fe.Value != "3" {
		t.Errorf("checked.Errors on a hidden constant = %#v", err)
	}
}
