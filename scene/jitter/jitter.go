package jitter

import (
	"cmp"
	"slices"

	"commlab/engine/allreduce"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/scene"
	"commlab/scene/butterfly"
)

// The scene's own URL keys, beside the allreduce fields.
const (
	KeyView   = "view"
	KeyTrials = "trials"
)

// The views: the two runs of one seed stacked on one time axis, or one of them.
const (
	ViewBoth         = "both"
	ViewConventional = "conventional"
	ViewRedundant    = "redundant"
)

// MaxLanes is how many process lanes a Gantt panel draws at most. Up to
// MaxLanes processes every one has its lane; beyond, a subset that always
// holds the processes that set the completion times (see pickLanes).
const MaxLanes = 64

// SubsetLanes is the size of that subset: about as many lanes as stay a few
// pixels tall on a 640x360 embed.
const SubsetLanes = 48

// Scene is the jitter scene: the Gantt chart of one allreduce run under OS
// jitter and network noise, conventional against redundant exchanges, with
// the completion-time histogram over trials.
type Scene struct{}

// New returns the jitter scene.
func New() scene.Scene { return Scene{} }

// Info names the scene for the index page.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "jitter",
		Seed:  butterfly.DefaultSeed,
		Title: "OS and network jitter in the butterfly allreduce",
		Paper: "Paper 000 (§4, OS and network jitter; Fig. 2-4, 12, 21)",
		Summary: "Per-process timelines of one butterfly allreduce: reductions, waits for a partner, " +
			"OS-jitter windows that stall a process and network noise that delays messages. " +
			"One stalled process holds up every process by the last stage; the same run with T " +
			"redundant exchanges lets the others' copies of the result route around it. The two " +
			"are drawn on one time axis with the completion time of each and the process that set " +
			"it, beside a histogram of completion times over many trials of the same parameters.",
	}
}

// Fields are the allreduce controls plus the view and the histogram's trials.
func (Scene) Fields() []scene.Field { return Fields() }

// Fields are the allreduce controls plus the view and the histogram's trials.
func Fields() []scene.Field {
	return append(butterfly.Fields(),
		scene.Field{Key: KeyView, Label: "view", Help: "conventional and redundant stacked on one time axis, or one of them",
			Kind: scene.Choice, Type: "choice", Choices: []string{ViewBoth, ViewConventional, ViewRedundant}, Default: ViewBoth},
		scene.Field{Key: KeyTrials, Label: "trials", Help: "trials in the completion-time histogram (trial 0 is the run drawn)",
			Kind: scene.Int, Type: "int", Min: 10, Max: 1000, Log: true, Default: "200"},
	)
}

// Build checks every value (a bad one is a *scene.FieldError naming its
// field, even when a caller skipped parsing), records trial 0 with a trace
// and runs the histogram's trials without one.
func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }

// tracedTrials is what the traced trial costs in untraced trials, about
// (recording and sorting its trace, then the lanes), for the fraction done.
const tracedTrials = 20

// BuildProgress is Build telling pr the fraction done, trial by trial and
// stage by stage inside a trial (scene.Progressive).
func (Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	return checked.BuildProgress(v, seed, pr)
}

// checked is the scene's checked build (scene.Checked): the allreduce
// engine's range errors become *scene.FieldError on the scene's keys.
var checked = scene.Checked{
	Fields: Fields,
	Model: func(v scene.Values) (scene.Model, error) {
		p, err := butterfly.Params(v)
		return &model{p}, err
	},
	Errors: scene.EngineError,
}

// model is what the fields set (scene.Model): the engine's parameters;
// the view and the trials are read from the values.
type model struct{ p allreduce.Params }

// Run is the scene's build once the values are checked: the traced trial
// 0, then the histogram's trials.
func (m *model) Run(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	p := m.p
	n := v.Int(KeyTrials)
	split := float64(tracedTrials) / float64(tracedTrials+n)
	res, tr, err := butterfly.RecordProgress(p, seed, pr.Part(0, split))
	if err != nil {
		return nil, err
	}
	r := newRun(p, res, tr, v[KeyView])
	if err := r.runTrials(seed, n, pr.Part(split, 1)); err != nil {
		return nil, err
	}
	return r, nil
}

// run is one built scene: the traced trial, what every frame needs from it
// worked out once, and the histogram.
type run struct {
	p    allreduce.Params
	view string
	res  allreduce.Result
	tr   *trace.Trace
	k    int // stages K = log2 P

	// Per process: f_i^(K), when it finishes the conventional butterfly,
	// and g_i^(T), when it holds the final result with T redundant exchanges.
	finConv, finRed []float64
	// adopt[i] is the exchange whose copy process i finally adopted (0:
	// its own result was earliest) and from whom.
	adopt     []adoption
	critConv  int // the process with the largest f_i^(K)
	critRed   int // the process with the largest g_i^(T)
	conv, red float64

	lanes []int       // the processes drawn, in lane order
	slot  map[int]int // process -> lane index, for drawn processes
	// work[i] is lane i's reductions and OS-jitter stalls; the waits
	// between them are not kept, since a lane's spans tile [0, f_i^(K)] and
	// one bar under the work draws all of its waiting.
	work  [][]trace.Span
	nwork int
	msgs  []message // between drawn lanes, conventional then redundant
	steps []float64

	hist histogram
}

type adoption struct {
	exchange int // 1..T, or 0 when the process kept its own result
	from     int
}

// message is a trace message between two drawn lanes.
type message struct {
	from, to  int // lane indices
	send, arr float64
	delay     float64
	redundant bool
	used      bool // a redundant copy its receiver adopted
}

func newRun(p allreduce.Params, res allreduce.Result, tr *trace.Trace, view string) *run {
	r := &run{p: p, view: view, res: res, tr: tr, k: p.K()}
	r.conv, r.red = res.ByT[0], res.ByT[p.T]
	r.finConv = make([]float64, p.P)
	r.finRed = make([]float64, p.P)
	r.adopt = make([]adoption, p.P)
	// g_i^(T) is the "final result" marker. f_i^(K) is the send time of
	// process i's first redundant copy, which it sends as soon as it holds
	// the result; with no redundant exchange g_i^(0) = f_i^(K). (Spans cannot
	// tell it: with N = 0 the last reduction is empty and not recorded.)
	for _, m := range tr.Markers {
		if m.Label == "final result" {
			r.finRed[m.Lane] = m.Time
		}
	}
	if p.T == 0 {
		copy(r.finConv, r.finRed)
	}
	for _, m := range tr.Messages {
		if m.Class != "redundant" {
			continue
		}
		ex := m.Step - r.k
		if ex == 1 {
			r.finConv[m.From] = m.Send
		}
		// Exchanges are recorded in order, so the last adopted copy wins.
		if m.Used && ex > r.adopt[m.To].exchange {
			r.adopt[m.To] = adoption{exchange: ex, from: m.From}
		}
	}
	r.critConv = argmax(r.finConv)
	r.critRed = argmax(r.finRed)

	r.lanes = pickLanes(p.P, r.k, r.critConv, r.critRed)
	r.slot = make(map[int]int, len(r.lanes))
	for i, proc := range r.lanes {
		r.slot[proc] = i
	}
	r.work = make([][]trace.Span, len(r.lanes))
	for _, s := range tr.Spans {
		if i, ok := r.slot[s.Lane]; ok && s.Kind != trace.Idle {
			r.work[i] = append(r.work[i], s)
			r.nwork++
		}
	}
	for _, m := range tr.Messages {
		from, ok1 := r.slot[m.From]
		to, ok2 := r.slot[m.To]
		if !ok1 || !ok2 {
			continue
		}
		red := m.Class == "redundant"
		r.msgs = append(r.msgs, message{from: from, to: to, send: m.Send, arr: m.Arrive, delay: m.Delay, redundant: red, used: red && m.Used})
	}
	// Conventional first, so that the conventional panel draws a prefix.
	permsort.SortStableFunc(r.msgs, func(a, b message) int {
		return cmp.Compare(boolInt(a.redundant), boolInt(b.redundant))
	})

	// Step between stage completions and redundant-exchange completions.
	steps := append([]float64(nil), res.StageEnd...)
	steps = append(steps, res.ByT[1:]...)
	permsort.Sort(steps)
	r.steps = slices.Compact(steps)
	return r
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// argmax returns the first index of the largest value: the process that
// set a completion time (ties go to the lowest rank).
func argmax(xs []float64) int {
	best := 0
	for i, x := range xs {
		if x > xs[best] {
			best = i
		}
	}
	return best
}

// pickLanes chooses the processes to draw. Up to MaxLanes, all of them.
// Beyond, SubsetLanes of them: the two critical processes, their butterfly
// partners at every stage (so the messages that held them up are drawn
// between drawn lanes), then evenly spaced ranks.
func pickLanes(P, k, critConv, critRed int) []int {
	if P <= MaxLanes {
		lanes := make([]int, P)
		for i := range lanes {
			lanes[i] = i
		}
		return lanes
	}
	seen := map[int]bool{}
	var lanes []int
	add := func(i int) {
		if !seen[i] && len(lanes) < SubsetLanes {
			seen[i] = true
			lanes = append(lanes, i)
		}
	}
	add(critConv)
	add(critRed)
	for st := 0; st < k; st++ {
		add(critConv ^ 1<<st)
		add(critRed ^ 1<<st)
	}
	// Evenly spaced ranks, finer and finer, until the subset is full.
	for n := 2; len(lanes) < SubsetLanes && n <= P; n *= 2 {
		for j := range n {
			add(j * P / n)
		}
	}
	permsort.Sort(lanes)
	return lanes
}

// runTrials runs trials 0..n-1 of seed without a trace on one Simulator,
// so the histogram is a pure function of the parameters and the seed.
func (r *run) runTrials(seed uint64, n int, pr progress.Func) error {
	var sim allreduce.Simulator
	conv := make([]float64, n)
	red := make([]float64, n)
	for i := range n {
		sim.Progress = pr.Part(float64(i)/float64(n), float64(i+1)/float64(n))
		res, err := sim.Run(r.p, scene.RNG(seed, i), nil)
		if err != nil {
			return errf.Errorf("jitter: trial %d: %w", i, err)
		}
		conv[i], red[i] = res.ByT[0], res.ByT[r.p.T]
	}
	r.hist = newHistogram(conv, red)
	return nil
}

func (r *run) End() float64                              { return r.conv }
func (r *run) Steps() []float64                          { return r.steps }
func (r *run) Trace() *trace.Trace                       { return r.tr }
func (r *run) Frame(t float64, v scene.View) render.List { return r.frame(t, v) }

// Numbers are this run's completion times and their critical processes,
// and the means over the histogram's trials.
func (r *run) Numbers() map[string]float64 {
	return map[string]float64{
		"conventional":          r.conv,
		"redundant":             r.red,
		"critical_conventional": float64(r.critConv),
		"critical_redundant":    float64(r.critRed),
		"mean_conventional":     r.hist.mean[0],
		"mean_redundant":        r.hist.mean[1],
		"trials":                float64(r.hist.n),
		"no_jitter":             r.p.NoJitterTime(),
	}
}
