package main

import (
	"fmt"
	"runtime"

	"commlab/engine/cost"
	"commlab/engine/trace"
	"commlab/render"
	"commlab/scene"
)

// The page's peak memory: while a new run builds, the run on screen stays
// (and plays), so both are in memory. When the two would not fit the
// page's budget together (their estimates, engine/cost) but the new one
// fits alone, the run on screen is released before the build starts: its
// last frame stays drawn, not playing, with a notice saying so, and the
// new build has the whole budget. If that build then fails or is
// canceled, the released run is built again.

// released stands in for a run released to make room: the last frame laid
// out, the numbers it reported, no trace. It holds nothing of the run.
type released struct {
	end     float64
	steps   []float64
	list    render.List
	numbers map[string]float64
	report  []scene.Number
	playing bool // the player was playing: the next run plays on
}

func (r *released) End() float64                          { return r.end }
func (r *released) Steps() []float64                      { return r.steps }
func (r *released) Frame(float64, scene.View) render.List { return r.list }
func (r *released) Trace() *trace.Trace                   { return nil }
func (r *released) Numbers() map[string]float64           { return r.numbers }
func (r *released) Report() []scene.Number                { return r.report }

// estimate is the scene's estimate for v, if it has one.
func (a *app) estimate(v scene.Values) (cost.Cost, bool) {
	est, ok := a.sc.(scene.Estimator)
	if !ok {
		return cost.Cost{}, false
	}
	c, err := est.Estimate(v)
	return c, err == nil
}

// Held is the memory the run on screen holds, by its estimate (0 once
// released, or for a scene that has no estimate).
func (a *app) Held() float64 {
	if _, ok := a.run.(*released); ok || a.run == nil {
		return 0
	}
	c, ok := a.estimate(a.st.Values)
	if !ok {
		return 0
	}
	return c.Bytes
}

// makeRoom releases the run on screen before j builds, when j's run would
// not fit beside it in the page's budget but fits alone.
func (a *app) makeRoom(j *job) {
	held := a.Held()
	if held == 0 || !limitedBytes(a.budget.Bytes) {
		return
	}
	need, ok := a.estimate(j.c.next.Values)
	if !ok || need.Check(a.budget) != nil || need.Bytes+held <= a.budget.Bytes {
		return
	}
	// Steps, Numbers and Report are slices and maps of their own: holding
	// them does not hold the run.
	r := &released{end: a.run.End(), steps: a.run.Steps(), list: a.lastList,
		numbers: a.run.Numbers(), report: scene.Report(a.run), playing: a.player.Playing}
	a.run, a.lastList = r, render.List{}
	a.player.Playing = false
	// Collect now: the heap's next goal is twice what was live after the
	// last collection, which still counted the run released, so without
	// this the new build could grow the heap to twice the old run before
	// its memory is reused. What is live now is small: the mark is quick.
	runtime.GC()
	a.notices = append(a.notices, scene.Notice{Key: "run", Message: fmt.Sprintf(
		"The run shown was released to make room for the one being built (≈ %s beside ≈ %s would pass %s's %s): its last frame stays, not playing, until the new run is built.",
		cost.Bytes(need.Bytes), cost.Bytes(held), a.budget.Name, cost.Bytes(a.budget.Bytes))})
	a.dirty = true
}

func limitedBytes(x float64) bool { return x > 0 && x < 1e300 }

// rebuild makes the job that builds the released run again (a.st, the
// values it was built from) after the build it made room for failed or
// was canceled, and returns it for the caller to launch; nil when nothing
// was released or when that job was itself such a rebuild.
func (a *app) rebuild(after *job) *job {
	if _, ok := a.run.(*released); !ok || after.rebuild {
		return nil
	}
	j := newJob(a.sc, change{next: a.st, speed: a.player.Speed, loop: a.player.Loop, t: a.player.T, seek: true})
	j.rebuild = true
	a.job, a.dirty = j, true
	a.notices = append(a.notices, scene.Notice{Key: "run", Message: "Building the run shown again: it was released to make room for the build that did not finish."})
	return j
}
