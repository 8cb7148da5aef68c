package mmdl

import (
	"fmt"
	"slices"

	emmdl "commlab/engine/mmdl"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/render"
	"commlab/scene"
)

// Scene is the steady-rounds scene: the round schedule's Gantt chart, the
// processors' loads rebalancing, and the round count's trade-off.
type Scene struct{}

// New returns the steady-rounds scene.
func New() scene.Scene { return Scene{} }

// Info names the scene for the index page.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "mmdl",
		Title: "Multi-master divisible load in steady rounds",
		Paper: "Paper 003: multi-master divisible load scheduling on a real machine (§2.3, Fig. 1, 4-8)",
		Summary: "Eight processors start with unequal shares of 600,000 independent tasks. The " +
			"steady state moves tasks from processors that would finish late to those that " +
			"would finish early, so that all finish at the asymptotic makespan T, and the " +
			"schedule carries it out in R steady rounds, each flow in R equal messages. With " +
			"schedule = paper (the paper's Section 2.3) every round has the same length, T/R " +
			"plus a latency α per message of the busiest processor, and a processor computes in " +
			"each round what arrived in the round before: in the first round the processors " +
			"only send and receive and otherwise sit idle, and one more round at the end only " +
			"computes. With schedule = overlap (the paper's future work) every transfer starts " +
			"as soon as both ends are free and the processors compute their own load while " +
			"they wait, so the rounds shrink to their transfers and the makespan comes close " +
			"to T. The Gantt chart shows each processor's sends, receives, computation and " +
			"idle time with a thin rule at each round boundary (the dashed one is T), the load bars beside it " +
			"rebalance as the rounds go by, and the plot below shows the paper's accounting " +
			"T + T/R + α·R: more rounds shrink the cost T/R of the round that only " +
			"communicates but add latency α·R, so the total is least at R* = √(T/α); the dot " +
			"is the simulated makespan. Set R to 0 to let the scheduler choose.",
	}
}

// Fields are the presets, the schedule, the round count and the link.
func (Scene) Fields() []scene.Field { return Fields() }

// checked is the scene's checked build (scene.Checked): the engine's range
// errors become *scene.FieldError on the scene's keys, which are the
// engine's names.
var checked = scene.Checked{
	Fields: Fields,
	Model: func(v scene.Values) (scene.Model, error) {
		in, err := Instance(v)
		return &model{in}, err
	},
	Errors: scene.EngineError,
}

// model is what the fields set (scene.Model): the paper's preset with the
// link from the controls.
type model struct{ in emmdl.Instance }

// Build checks every value (a bad one is a *scene.FieldError naming its
// field, even when a caller skipped parsing), solves the steady state and
// simulates the round schedule, R rounds or the scheduler's choice.
func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }

// BuildProgress is Build telling pr the fraction done: with rounds = 0 the
// scheduler tries many round counts (emmdl.ChooseRoundsProgress), the
// scene's one long build (scene.Progressive).
func (Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	return checked.BuildProgress(v, seed, pr)
}

// Run is the scene's build once the values are checked. The model is
// deterministic: the seed is not used.
func (m *model) Run(v scene.Values, _ uint64, pr progress.Func) (scene.Run, error) {
	in := m.in
	st, err := emmdl.SteadyState(in)
	if err != nil {
		return nil, err
	}
	sched, err := emmdl.ParseSched(v[KeySchedule])
	if err != nil {
		return nil, err
	}
	var sch *emmdl.Schedule
	if R := v.Int(KeyRounds); R > 0 {
		sch, err = emmdl.Rounds(in, st, R, sched)
	} else {
		_, sch, err = emmdl.ChooseRoundsProgress(in, st, sched, pr)
	}
	if err != nil {
		return nil, err
	}
	r := &run{
		in: in, st: st, sch: sch,
		procset: v[KeyProcSet], load: v[KeyLoad], calibrated: v.Bool(KeyCalibrated),
		auto: v.Int(KeyRounds) == 0,
	}
	if err := r.prepare(); err != nil {
		return nil, err
	}
	return r, nil
}

// run is one built scene.
type run struct {
	in  emmdl.Instance
	st  emmdl.Steady
	sch *emmdl.Schedule
	tr  *trace.Trace

	procset, load string
	calibrated    bool
	auto          bool // the scheduler chose R

	P       int
	total   float64        // all tasks
	lanes   [][]trace.Span // per processor, in time order
	xfers   []xfer         // every transfer, for the load bars
	comps   [][]xfer       // per processor, its computations
	rounds  []float64      // round boundaries, in time order
	loadMax float64        // the load bars' full scale, in tasks
	formula float64        // T + T/R + α·R
	best    int            // R* = √(T/α), rounded
	bestVal float64        // T + T/R* + α·R*
	end     float64        // the makespan
	steps   []float64      // round boundaries and the end
	nSpans  int            // to size the display list
	names   []string       // lane labels, short
	long    []string       // lane labels with the clock rate
}

// xfer is tasks moving from one processor to another over [start, end]
// (the send's interval: the receiver holds what the sender has let go, so
// the bars always sum to the load), or, in comps, computed over it.
type xfer struct {
	from, to   int
	tasks      float64
	start, end float64
}

// frac is how much of x is done at t.
func (x xfer) frac(t float64) float64 {
	switch {
	case t >= x.end:
		return 1
	case t <= x.start || x.end <= x.start:
		return 0
	}
	return (t - x.start) / (x.end - x.start)
}

func (r *run) prepare() error {
	r.P = len(r.in.MHz)
	for _, l := range r.in.Tasks {
		r.total += l
	}
	r.tr = r.sch.Trace()
	r.lanes = make([][]trace.Span, r.P)
	for _, s := range r.tr.Spans {
		if s.Lane < 0 || s.Lane >= r.P {
			return errf.Errorf("span on lane %d of %d", s.Lane, r.P)
		}
		r.lanes[s.Lane] = append(r.lanes[s.Lane], s)
	}
	for _, l := range r.lanes {
		permsort.SortFunc(l, func(a, b trace.Span) int {
			if a.Start != b.Start {
				if a.Start < b.Start {
					return -1
				}
				return 1
			}
			return 0
		})
		r.nSpans += len(l)
	}
	r.comps = make([][]xfer, r.P)
	for _, op := range r.sch.Ops {
		switch op.Kind {
		case emmdl.Send:
			r.xfers = append(r.xfers, xfer{op.Proc, op.Peer, op.Tasks, op.Start, op.End})
		case emmdl.Compute:
			r.comps[op.Proc] = append(r.comps[op.Proc], xfer{op.Proc, op.Proc, op.Tasks, op.Start, op.End})
		}
	}
	for i := range r.P {
		r.loadMax = max(r.loadMax, r.in.Tasks[i], r.st.Final[i])
	}
	alpha := r.in.Latency
	r.formula = emmdl.FormulaTotal(r.st.T, alpha, r.sch.R)
	r.best = emmdl.OptimalRounds(r.st.T, alpha)
	r.bestVal = emmdl.FormulaTotal(r.st.T, alpha, r.best)
	r.end = r.sch.Makespan
	if !(r.end > 0) {
		r.end = 1
	}
	r.rounds = roundBoundaries(r.sch)
	r.steps = append(slices.Clone(r.rounds), r.end)
	r.steps = slices.DeleteFunc(r.steps, func(x float64) bool { return !(x > 0 && x <= r.end) })
	permsort.Sort(r.steps)
	r.steps = slices.Compact(r.steps)
	r.names = make([]string, r.P)
	r.long = make([]string, r.P)
	for i, mhz := range r.in.MHz {
		r.names[i] = fmt.Sprintf("P%d", i)
		r.long[i] = fmt.Sprintf("P%d %s MHz", i, num(mhz))
	}
	return nil
}

// roundBoundaries are R instants in time order, after the last of which
// only computation is left. The paper's schedule: the starts of rounds
// 2 … R+1, at multiples of its period (round R+1 only computes). The
// overlapped schedule: where each round's last transfer ends; a round's
// transfers may start before the previous round's have all ended, so the
// boundaries say when a round is complete. When no task moves there are
// none.
func roundBoundaries(s *emmdl.Schedule) []float64 {
	if s.Sched == emmdl.Paper && len(s.Boundaries) == s.R+1 {
		return slices.Clone(s.Boundaries[1:])
	}
	// The overlapped schedule, and the paper's single round (R = 1:
	// its transfers, then computation).
	var out []float64
	for k, e := range s.RoundEnd {
		if e > s.RoundStart[k] {
			out = append(out, e)
		}
	}
	permsort.Sort(out)
	return out
}

func (r *run) End() float64                              { return r.end }
func (r *run) Steps() []float64                          { return r.steps }
func (r *run) Frame(t float64, v scene.View) render.List { l, _ := r.paint(t, v); return l }
func (r *run) Trace() *trace.Trace                       { return r.tr }

// Numbers are the steady state's T, the simulated makespan, the paper's
// formula at this R and at R*, and the tasks moved.
func (r *run) Numbers() map[string]float64 {
	moved := 0.0
	for _, x := range r.xfers {
		moved += x.tasks
	}
	return map[string]float64{
		"T":              r.st.T,
		"makespan":       r.sch.Makespan,
		"formula_total":  r.formula,
		"optimal_rounds": float64(r.best),
		"optimal_total":  r.bestVal,
		"rounds":         float64(r.sch.R),
		"latency":        r.in.Latency,
		"tasks":          r.total,
		"moved":          moved,
		"overhead":       r.sch.Makespan - r.st.T,
	}
}

// loads returns the tasks each processor holds at t and how many of them
// it has computed: held starts at the initial load and ends at the steady
// state's final load; a transfer moves its tasks at a steady rate while
// the sender sends.
func (r *run) loads(t float64, held, done []float64) {
	copy(held, r.in.Tasks)
	for _, x := range r.xfers {
		if f := x.frac(t); f > 0 {
			held[x.from] -= f * x.tasks
			held[x.to] += f * x.tasks
		}
	}
	for i, cs := range r.comps {
		done[i] = 0
		for _, c := range cs {
			if c.start >= t {
				break
			}
			done[i] += c.frac(t) * c.tasks
		}
	}
}
