package nbc

import (
	"slices"

	enbc "commlab/engine/nbc"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/scene"
)

// Scene is the TCC queue scene: the handle queue and the threads of rank
// 0, with LibNBC's progress-function timeline for contrast.
type Scene struct{}

// New returns the TCC queue scene.
func New() scene.Scene { return Scene{} }

// Info names the scene for the index page.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "tcc",
		Title: "TCC queue progress: non-blocking alltoalls on a progress thread",
		Paper: "Paper 001: non-blocking collectives, LibNBC vs. TCC (§III, Fig. 1-2)",
		Summary: "TCC, the paper's Threaded Collective Communication, hands each non-blocking " +
			"alltoall to a progress thread through a ring queue of handles: the main thread " +
			"enqueues a handle per call and blocks while the queue is full, the progress thread " +
			"takes the head, runs the MPI library's blocking alltoall and sets the handle's done " +
			"flag, one collective at a time, and Wait returns once the flag is set. The ring's " +
			"slots, the handles' flags and the compute threads' share of the matrix-vector " +
			"product are drawn at the playhead above a timeline of rank 0's threads. Switch the " +
			"view to see LibNBC's progress function on the same workload, whose large messages " +
			"advance only when a thread is inside the library: here every compute thread calls " +
			"NBC_Test between its outer-loop iterations (the call in the OpenMP loop's body, the " +
			"paper's reading), one at a time under the library's lock.",
	}
}

// Fields are the queue, the workload, the threads and the view.
func (Scene) Fields() []scene.Field { return Fields() }

// model is what the fields set (scene.Model): the engine's parameters for
// the two runs the scene draws, TCC and LibNBC with the progress function
// called during the computation (NBCF-ovlp-test), on the same workload.
type model struct{ tcc, nbcf enbc.Params }

// checked is the scene's checked build (scene.Checked): the engine's range
// errors become *scene.FieldError on the scene's keys, which are the
// engine's names.
var checked = scene.Checked{
	Fields: Fields,
	Model: func(v scene.Values) (scene.Model, error) {
		tcc, nbcf, err := Params(v)
		return &model{tcc, nbcf}, err
	},
	Errors: scene.EngineError,
}

// Build checks every value (a bad one is a *scene.FieldError naming its
// field, even when a caller skipped parsing) and runs the engine twice on
// the same workload, TCC and NBCF-ovlp-test, each with a trace: the
// numbers are both runs' whatever the view, so switching the view does not
// change them.
func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }

// BuildProgress is Build telling pr the fraction done, half for each
// method's run (enbc.RunProgress; scene.Progressive).
func (Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	return checked.BuildProgress(v, seed, pr)
}

// Run is the scene's build once the values are checked. The model is
// deterministic: the seed is not used.
func (m *model) Run(v scene.Values, _ uint64, pr progress.Func) (scene.Run, error) {
	r := &run{p: m.tcc, view: v[KeyView]}
	for i, p := range []enbc.Params{m.tcc, m.nbcf} {
		tr := new(trace.Trace)
		res, err := enbc.RunProgress(p, tr, pr.Part(float64(i)/2, float64(i+1)/2))
		if err != nil {
			return nil, err
		}
		if err := enbc.ValidateHandles(res.Events); err != nil {
			return nil, errf.Errorf("%s handles: %w", p.Method, err)
		}
		r.tl[i] = newTimeline(p.Method, res, tr)
	}
	r.prepare()
	return r, nil
}

// run is one built scene: both timelines, and the ones the view shows.
type run struct {
	p    enbc.Params // TCC's
	view string
	tl   [2]*timeline // TCC, NBCF-ovlp-test
	// shown are the timelines the Gantt draws, top first.
	shown []*timeline
	end   float64
	steps []float64
	nSpan int // spans of the shown timelines, to size the list
}

// Indices into run.tl.
const (
	iTCC  = 0
	iNBCF = 1
)

func (r *run) prepare() {
	switch r.view {
	case ViewNBCF:
		r.shown = []*timeline{r.tl[iNBCF]}
	case ViewBoth:
		r.shown = []*timeline{r.tl[iTCC], r.tl[iNBCF]}
	default:
		r.shown = []*timeline{r.tl[iTCC]}
	}
	var steps []float64
	for _, tl := range r.shown {
		r.end = max(r.end, tl.end)
		r.nSpan += len(tl.tr.Spans)
		for _, h := range tl.handles {
			steps = append(steps, h.issue, h.dequeue, h.done, h.waitReturn)
		}
	}
	if !(r.end > 0) {
		r.end = 1
	}
	steps = slices.DeleteFunc(steps, func(x float64) bool { return !(x >= 0 && x <= r.end) })
	permsort.Sort(steps)
	r.steps = slices.Compact(steps)
}

// End is the end of the shown runs: the later of the two in the "both"
// view.
func (r *run) End() float64                              { return r.end }
func (r *run) Steps() []float64                          { return r.steps }
func (r *run) Frame(t float64, v scene.View) render.List { return r.frame(t, v) }

// Trace is the first shown run's record.
func (r *run) Trace() *trace.Trace { return r.shown[0].tr }

// Numbers are TCC's total time, its parts and its speedup over the MPI
// library's blocking alltoall, the queue's blocked enqueues, and the same
// for LibNBC's progress-function run on the same workload.
func (r *run) Numbers() map[string]float64 {
	t, f := r.tl[iTCC], r.tl[iNBCF]
	blocked, blockedTime := 0, 0.0
	for _, h := range t.handles {
		if h.block >= 0 {
			blocked++
			blockedTime += h.enqueue - h.block
		}
	}
	return map[string]float64{
		"total":            t.res.Total,
		"baseline":         t.res.Baseline,
		"speedup":          t.res.Speedup,
		"compute":          t.res.Compute,
		"comm":             t.res.Comm,
		"overlap":          t.res.Overlap,
		"overhead":         t.res.Overhead,
		"collectives":      float64(len(t.handles)),
		"queue":            float64(r.p.QueueCap),
		"compute_threads":  float64(r.p.ComputeThreads()),
		"blocked_enqueues": float64(blocked),
		"blocked_time":     blockedTime,
		"nbcf_total":       f.res.Total,
		"nbcf_baseline":    f.res.Baseline,
		"nbcf_speedup":     f.res.Speedup,
		"progress_calls":   float64(len(f.progress)),
	}
}
