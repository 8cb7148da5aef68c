package main

import (
	"errors"
	"strings"
	"testing"
	"weak"

	"commlab/engine/cost"
	"commlab/engine/trace"
	"commlab/render"
	"commlab/scene"
)

// heavyScene is testScene with an estimate: P·10 MB (80 MB at the
// default P = 8, 640 MB at P = 64, over the page's 500 MB). Its runs are
// pointers, so a test can see one collected. With co at P = 32 the build
// fails after the budget accepted it.
type heavyScene struct{ testScene }

func (heavyScene) Estimate(v scene.Values) (cost.Cost, error) {
	return cost.Cost{Bytes: float64(v.Int("P")) * 10e6, Key: "P", Why: "P = " + v["P"]}, nil
}

func (s heavyScene) Build(v scene.Values, seed uint64) (scene.Run, error) {
	if v["co"] == "1" && v["P"] == "32" {
		return nil, errors.New("engine says no at P = 32 with co")
	}
	return &heavyRun{end: float64(v.Int("P")) + float64(seed), data: make([]byte, 1<<20)}, nil
}

type heavyRun struct {
	end  float64
	data []byte
}

func (r *heavyRun) End() float64     { return r.end }
func (r *heavyRun) Steps() []float64 { return []float64{1, 2, 3} }
func (r *heavyRun) Frame(t float64, v scene.View) render.List {
	return render.List{W: v.W, H: v.H, Background: v.Theme.Background, Items: []render.Item{render.Text{S: "frame"}}}
}
func (r *heavyRun) Trace() *trace.Trace         { return nil }
func (r *heavyRun) Numbers() map[string]float64 { return map[string]float64{"end": r.end} }

// TestPeakWithinBudget: a build that fits beside the run shown keeps that
// run playing; one that would not fit beside it but fits alone releases
// it first (its last frame stays, not playing, the state says so, and
// the run itself is collected), and the new run plays on; one over the
// budget alone is refused with the run shown kept. A build that fails or
// is canceled after a release builds the released run again.
func TestPeakWithinBudget(t *testing.T) {
	reg := scene.Registry{heavyScene{testScene{"heavy"}}}.Within(cost.Page)
	a, err := newApp(reg, "P=32")
	if err != nil {
		t.Fatal(err)
	}
	if h := a.Held(); h != 320e6 {
		t.Fatalf("held %v, want 320 MB (P = 32)", h)
	}
	// 160 MB beside 320 MB fits: the run shown stays and plays.
	a.Do(actPlay)
	j, errs := a.Request(map[string]string{"P": "16"})
	if errs != nil || j == nil {
		t.Fatalf("Request P=16: %v %v", j, errs)
	}
	if _, ok := a.run.(*released); ok || !a.player.Playing {
		t.Errorf("160 MB beside 320 MB: released %T, playing %v; want the run shown playing", a.run, a.player.Playing)
	}
	a.Cancel()

	// 320 MB beside 320 MB would pass 500 MB: the run shown goes first.
	a.Frame(100, 80)
	old := weak.Make(a.run.(*heavyRun))
	a.Do(actPlay)
	j, errs = a.Request(map[string]string{"seed": "5"})
	if errs != nil || j == nil {
		t.Fatalf("Request seed=5: %v %v", j, errs)
	}
	r, ok := a.run.(*released)
	if !ok {
		t.Fatalf("320 MB beside 320 MB: the run shown is %T, want it released", a.run)
	}
	if a.player.Playing {
		t.Error("a released run still plays")
	}
	if l := a.Frame(200, 160); len(l.Items) != 1 || l.W != 100 {
		t.Errorf("the released run's frame: %+v, want the last one laid out (100 x 80, one item)", l)
	}
	st := a.State(100, 80)
	said := false
	for _, n := range st["notices"].([]any) {
		said = said || strings.Contains(n.(map[string]any)["message"].(string), "released to make room")
	}
	if !said || st["building"] != true || r.numbers["end"] != 33 {
		t.Errorf("state while building after a release: notices %v, building %v, numbers %v", st["notices"], st["building"], r.numbers)
	}
	if a.Held() != 0 {
		t.Errorf("held %v after the release, want 0", a.Held())
	}
	// The release collects it at once (no runtime.GC here).
	if old.Value() != nil {
		t.Error("the released run was not collected by the release")
	}
	buildNow(j)
	if errs := a.Finish(j); errs != nil {
		t.Fatal(errs)
	}
	if _, ok := a.run.(*heavyRun); !ok || a.player.End != 37 || !a.player.Playing {
		t.Errorf("after the build: %T end %v playing %v; want the new run (end 37) playing on", a.run, a.player.End, a.player.Playing)
	}

	// 640 MB alone is over the budget: refused, nothing released.
	if errs := a.SetParams(map[string]string{"P": "64"}); len(errs) != 1 || errs[0].Key != "P" {
		t.Errorf("P = 64: %v, want the budget's refusal on P", errs)
	}
	if _, ok := a.run.(*heavyRun); !ok || a.player.End != 37 {
		t.Errorf("after a refusal: %T end %v, want the run shown kept", a.run, a.player.End)
	}

	// A release, then a build that fails: the released run comes back.
	if errs := a.SetParams(map[string]string{"co": "1"}); len(errs) != 1 || !strings.Contains(errs[0].Want, "engine says no") {
		t.Errorf("co at P = 32: %v, want the build's error", errs)
	}
	if _, ok := a.run.(*heavyRun); !ok || a.player.End != 37 || a.st.Values["co"] != "0" || a.job != nil {
		t.Errorf("after a failed build: %T end %v co %s job %v; want the released run built again", a.run, a.player.End, a.st.Values["co"], a.job)
	}

	// A release, then a cancel: the released run is built again.
	j, _ = a.Request(map[string]string{"seed": "6"})
	if _, ok := a.run.(*released); !ok {
		t.Fatalf("seed 6: %T, want a release", a.run)
	}
	a.Cancel()
	rj := a.job
	if rj == nil || !rj.rebuild || rj.c.next.Seed != 5 {
		t.Fatalf("after the cancel: job %+v, want the released run (seed 5) built again", rj)
	}
	buildNow(rj)
	a.Finish(rj)
	if _, ok := a.run.(*heavyRun); !ok || a.player.End != 37 || a.job != nil {
		t.Errorf("after the rebuild: %T end %v job %v", a.run, a.player.End, a.job)
	}
	_ = j
}
