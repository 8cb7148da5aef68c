package logp

import (
	"slices"

	elogp "commlab/engine/logp"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/scene"
)

// DefaultN is the scene's default n. The engine's example sums 1000
// numbers, where the additions fill 97 % of the time axis and a latency of
// 10 is a few pixels wide; with 100 the messages and the stall they cause
// take a quarter of it. The tree's shape, and so E[T] - T_s, does not
// depend on n once every processor pays (see elogp.Plan).
const DefaultN = 100

// The Monte Carlo E[T](L_s) reference averages MaxExpectedTrials replays
// (its standard error is then below 1 % of the spread of T), fewer for
// large trees: a replay costs about one executor step per operation, and
// ExpectedOps operations keep a rebuild on a slider move near 20 ms
// natively at P = 32 (BenchmarkBuild). MinExpectedTrials is the floor.
const (
	MaxExpectedTrials = 20000
	MinExpectedTrials = 2000
	ExpectedOps       = 300_000
)

// expectedTrials is the reference's trials for a schedule.
func expectedTrials(s *elogp.Schedule) int {
	return min(MaxExpectedTrials, max(MinExpectedTrials, ExpectedOps/max(1, len(s.Prog.Ops))))
}

// Scene is the LogP scene: the optimal summation schedule planned with L_s,
// then replayed with drawn latencies, and the running mean of T over
// replays converging to E[T](L_s).
type Scene struct{}

// New returns the LogP scene.
func New() scene.Scene { return Scene{} }

// Info names the scene for the index page.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "logp",
		Title: "LogP summation under fluctuating latency",
		Paper: "Paper 002 (slides): LogP with latency and gap fluctuation, parallel addition",
		// The slides count time in additions (one addition = 1), with o,
		// g and L in the same unit.
		TimeUnit: "additions",
		Summary: "The optimal LogP schedule for summing n numbers on P processors (additions, send " +
			"and receive overheads o, partial sums in flight for L) is fixed in advance with a " +
			"planning latency L_s. Replayed with latencies drawn from Normal(μ, σ²), an early message " +
			"does not help, but a late one stalls its receiver and the delay propagates to the " +
			"completion time T. The plan and one replay share a time axis; beside them the running " +
			"mean of T over many replays converges to E[T](L_s), above the fluctuation-free prediction " +
			"T_s(L_s). Move L_s and σ to see why the best plan assumes a latency above the mean.",
	}
}

// Fields are the model's controls, the planning latency and the replays.
func (Scene) Fields() []scene.Field { return Fields() }

// model is what the fields set (scene.Model): the engine's parameters and
// the planning latency L_s.
type model struct {
	p  elogp.Params
	ls float64
}

// checked is the scene's checked build (scene.Checked): the engine's range
// errors become *scene.FieldError on the scene's keys, which are the
// engine's names.
var checked = scene.Checked{
	Fields: Fields,
	Model: func(v scene.Values) (scene.Model, error) {
		p, ls, err := Params(v)
		return &model{p, ls}, err
	},
	Errors: scene.EngineError,
}

// Build checks every value (a bad one is a *scene.FieldError naming its
// field, even when a caller skipped parsing), plans the schedule with L_s,
// records it as planned and as replay 0 (scene.RNG(seed, 0)), runs replays
// 0..replays-1 for the running mean and estimates E[T](L_s).
func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }

// BuildProgress is Build telling pr the fraction done: the replays (every
// 16), then the trials of E[T](L_s) (scene.Progressive).
func (Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	return checked.BuildProgress(v, seed, pr)
}

// Run is the scene's build once the values are checked.
func (m *model) Run(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	p, ls := m.p, m.ls
	s, err := elogp.Plan(p, ls)
	if err != nil {
		return nil, err
	}
	r := &run{p: p, ls: ls, sched: s}
	// The plan drawn is the schedule replayed with every latency equal to
	// L_s and no gap fluctuation: the engine's own timetable, T = T_s.
	flat := p
	flat.L, flat.Sigma, flat.GapSigma = ls, 0, 0
	r.plan = new(trace.Trace)
	if _, err := elogp.Replay(s, flat, scene.RNG(seed, 0), r.plan); err != nil {
		return nil, err
	}
	r.replay = new(trace.Trace)
	if r.res, err = elogp.Replay(s, p, scene.RNG(seed, 0), r.replay); err != nil {
		return nil, err
	}
	if err := r.runReplays(seed, v.Int(KeyReplays), pr.Part(0, 0.5)); err != nil {
		return nil, err
	}
	r.trials = expectedTrials(s)
	if r.expected, r.stderr, err = elogp.ExpectedProgress(p, ls, r.trials, seed, pr.Part(0.5, 1)); err != nil {
		return nil, err
	}
	r.prepare()
	return r, nil
}

// run is one built scene: the plan and replay 0 as traces, what every
// frame needs from them worked out once, and the replays' running mean.
type run struct {
	p     elogp.Params
	ls    float64
	sched *elogp.Schedule

	plan, replay *trace.Trace
	res          elogp.Result // replay 0

	// times[i] is T of replay i; mean[i] the mean of times[0..i].
	times, mean []float64

	expected, stderr float64 // Monte Carlo E[T](L_s)
	trials           int     // its replays

	panels [2]gantt // planned, replayed
	waits  bool     // some lane waits (Idle) in either trace
	end    float64
	steps  []float64
	nItems int // items a finished frame draws at most, to size the list
}

// gantt is one trace as a frame draws it.
type gantt struct {
	replay bool
	names  []string       // lane names, P1 first (P1 is the root)
	spans  [][]trace.Span // per lane, in time order
	msgs   []trace.Message
	finish []float64 // per lane: the end of its last operation (0: unused)
	T      float64   // completion: the root's last addition ends
}

// runReplays replays the schedule n times without a trace, replay i with
// scene.RNG(seed, i), so the running mean is a pure function of the
// parameters and the seed (replay 0 is the one drawn).
func (r *run) runReplays(seed uint64, n int, pr progress.Func) error {
	r.times = make([]float64, n)
	r.mean = make([]float64, n)
	sum := 0.0
	for i := range n {
		res, err := elogp.Replay(r.sched, r.p, scene.RNG(seed, i), nil)
		if err != nil {
			return errf.Errorf("replay %d: %w", i, err)
		}
		r.times[i] = res.T
		sum += res.T
		r.mean[i] = sum / float64(i+1)
		if i%16 == 15 {
			if err := pr.Report(float64(i+1) / float64(n)); err != nil {
				return err
			}
		}
	}
	return nil
}

// prepare sorts both traces into per-lane spans and works out the time
// axis and the step instants.
func (r *run) prepare() {
	for i, tr := range []*trace.Trace{r.plan, r.replay} {
		g := &r.panels[i]
		g.replay = i == 1
		n := len(tr.Lanes)
		g.names = make([]string, n)
		for q, l := range tr.Lanes {
			g.names[q] = l.Name
		}
		g.spans = make([][]trace.Span, n)
		g.finish = make([]float64, n)
		for _, s := range tr.Spans {
			g.spans[s.Lane] = append(g.spans[s.Lane], s)
			if s.Kind != trace.Idle {
				g.finish[s.Lane] = max(g.finish[s.Lane], s.End)
			} else {
				r.waits = true
			}
			r.nItems += 2
		}
		g.msgs = tr.Messages
		r.nItems += 3 * len(g.msgs)
	}
	r.panels[0].T = r.sched.Planned()
	r.panels[1].T = r.res.T
	// The axis spans the replay and the E[T] mark (a lucky replay ends
	// before it).
	r.end = max(r.res.T, r.sched.Planned(), r.expected)
	if !(r.end > 0) {
		// n = 1 on one processor: nothing to add, nothing to send.
		r.end = 1
	}

	steps := []float64{r.sched.Planned(), r.res.T}
	for _, m := range r.replay.Messages {
		steps = append(steps, m.Arrive)
	}
	for _, f := range r.panels[1].finish {
		if f > 0 {
			steps = append(steps, f)
		}
	}
	steps = slices.DeleteFunc(steps, func(x float64) bool { return !(x > 0 && x <= r.end) })
	permsort.Sort(steps)
	r.steps = slices.Compact(steps)
}

func (r *run) End() float64                              { return r.end }
func (r *run) Steps() []float64                          { return r.steps }
func (r *run) Trace() *trace.Trace                       { return r.replay }
func (r *run) Frame(t float64, v scene.View) render.List { return r.frame(t, v) }

// Numbers are the plan's and this replay's completion times, the running
// mean over the replays and the Monte Carlo E[T](L_s).
func (r *run) Numbers() map[string]float64 {
	return map[string]float64{
		"planned":         r.sched.Planned(),
		"T":               r.res.T,
		"stall":           r.res.Stall,
		"late_messages":   float64(r.res.Late),
		"mean_T":          r.mean[len(r.mean)-1],
		"replays":         float64(len(r.times)),
		"expected":        r.expected,
		"expected_stderr": r.stderr,
		"expected_trials": float64(r.trials),
		"processors_used": float64(r.sched.Used),
	}
}
