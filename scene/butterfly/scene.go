package butterfly

import (
	"slices"
	"sync"

	"commlab/engine/allreduce"
	"commlab/engine/progress"
	"commlab/engine/trace"
	"commlab/internal/errf"
	"commlab/internal/permsort"
	"commlab/scene"
)

// FullMaxP is the largest P drawn box by box; above it the rows become a
// heat-strip. At 64 processes a box on a 640-pixel slide is still about
// seven pixels wide; at 128 it would be three.
const FullMaxP = 64

// Scene is the butterfly scene. Its zero value is ready to use.
type Scene struct{}

// New returns the butterfly scene.
func New() scene.Scene { return Scene{} }

// Info describes the scene for the index page.
func (Scene) Info() scene.Info {
	return scene.Info{
		Name:  "butterfly",
		Seed:  DefaultSeed,
		Title: "Butterfly allreduce with redundant exchanges",
		Paper: "Paper 000 (Fig. 1–4): Matsumoto and Suda, a collective communication algorithm that mitigates the effect of jitter",
		Summary: "The butterfly allreduce as the paper's Fig. 1 draws it: processes are columns, " +
			"the K = log2 P exchange stages are rows, and each box holds its partial sum (the formula " +
			"for small P) once the process has it. Messages fly along the butterfly; OS jitter stalls " +
			"reductions (hatched) and network noise delays messages (dashed). Below the stages, the " +
			"T redundant exchanges of the proposed method send the finished result again, and each " +
			"process adopts the earliest copy it sees (highlighted, as in Fig. 2–4), which is how a " +
			"process that jitter held back still finishes early. Box colour tells when a process " +
			"finished each stage; beyond 64 processes the rows become heat-strips, so 4096 " +
			"processes still read.",
	}
}

// Fields are the allreduce controls (see Fields in params.go).
func (Scene) Fields() []scene.Field { return Fields() }

// checked is the scene's checked build (scene.Checked): the engine's range
// errors become *scene.FieldError on the scene's keys, which are the
// engine's names.
var checked = scene.Checked{
	Fields: Fields,
	Model: func(v scene.Values) (scene.Model, error) {
		p, err := Params(v)
		return &model{p}, err
	},
	Errors: scene.EngineError,
}

// model is what the fields set (scene.Model): the engine's parameters.
type model struct{ p allreduce.Params }

// Build checks v, records trial 0 of seed and prepares it for drawing.
func (Scene) Build(v scene.Values, seed uint64) (scene.Run, error) { return checked.Build(v, seed) }

// BuildProgress is Build telling pr the fraction of the traced trial done
// (scene.Progressive); the layout after it is quick.
func (Scene) BuildProgress(v scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	return checked.BuildProgress(v, seed, pr)
}

// Run is the scene's build once the values are checked.
func (m *model) Run(_ scene.Values, seed uint64, pr progress.Func) (scene.Run, error) {
	res, tr, err := RecordProgress(m.p, seed, pr.Part(0, 0.9))
	if err != nil {
		return nil, err
	}
	return newRun(m.p, res, tr)
}

// msg is a trace message placed in the butterfly: row is the row its
// receiver's box is in (stage k, or K+j for redundant exchange j).
type msg struct {
	from, to, row        int
	send, arrive, onTime float64 // onTime: when it would have arrived without network noise
	redundant, used      bool
}

// stall is an OS-jitter window that stalled a reduction: lane i, in the
// stage drawn in row.
type stall struct {
	row, lane  int
	start, end float64
}

// Run is one recorded allreduce ready to draw.
type Run struct {
	p   allreduce.Params
	res allreduce.Result
	tr  *trace.Trace

	n, k, t int // P, K, T
	rows    int // K+1+T: initial values, stages, redundant exchanges

	// fin[r*n+i] is when process i holds row r's result: 0 for the initial
	// values, f_i^(k) for stage k, g_i^(j) for redundant exchange j.
	fin []float64
	// hadStall[r*n+i]: OS jitter stalled process i's reduction in row r.
	hadStall []bool
	// adopted[r*n+i] is the message index of the copy process i adopted
	// in redundant exchange row r, or -1.
	adopted []int32
	stalls  []stall // sorted by start
	msgs    []msg   // sorted by send time
	rowEnd  []float64

	critConv, critRed int // processes that set ByT[0] and ByT[T]
	steps             []float64
	end               float64

	mu    sync.Mutex
	lay   *layout     // the layout of the last canvas size drawn
	strip *stripCache // the heat-strip bins of the last layout and theme
}

func newRun(p allreduce.Params, res allreduce.Result, tr *trace.Trace) (*Run, error) {
	r := &Run{p: p, res: res, tr: tr, n: p.P, k: p.K(), t: p.T}
	r.rows = r.k + 1 + r.t
	n := r.n
	r.fin = make([]float64, r.rows*n)
	r.hadStall = make([]bool, r.rows*n)
	r.adopted = make([]int32, r.rows*n)
	for i := range r.adopted {
		r.adopted[i] = -1
	}

	// Messages: stage k's message to i arrives at a_i^(k) (eq. 1); a
	// redundant copy in exchange j is sent at g^(j-1) and arrives after one
	// flight (plus noise).
	arrive := make([]float64, r.rows*n) // arrival of row r's message to i
	seen := make([]bool, r.rows*n)
	r.msgs = make([]msg, 0, len(tr.Messages))
	for _, m := range tr.Messages {
		row := m.Step
		if row < 1 || row >= r.rows || m.From < 0 || m.From >= n || m.To < 0 || m.To >= n {
			return nil, errf.Errorf("butterfly: trace message %d→%d in step %d does not fit P = %d, K = %d, T = %d", m.From, m.To, m.Step, n, r.k, r.t)
		}
		if seen[row*n+m.To] {
			return nil, errf.Errorf("butterfly: two messages to P%d in step %d", m.To, m.Step)
		}
		seen[row*n+m.To] = true
		arrive[row*n+m.To] = m.Arrive
		r.msgs = append(r.msgs, msg{from: m.From, to: m.To, row: row, send: m.Send, arrive: m.Arrive,
			onTime: m.Arrive - m.Delay, redundant: row > r.k, used: m.Used})
		if row > r.k && m.Used {
			r.adopted[row*n+m.To] = int32(len(r.msgs) - 1)
		}
	}
	for i, s := range seen[n:] {
		if !s {
			return nil, errf.Errorf("butterfly: no message to P%d in step %d", i%n, 1+i/n)
		}
	}

	// Stage k of process i ends where its last span of that stage ends
	// (wait for the partner, then reduce around OS-jitter windows); with no
	// span (a zero-length stage) it ends when the partner's message is in.
	spanEnd := make([]float64, (r.k+1)*n)
	// Counted first, so that the stalls take one allocation of their size
	// (appending grew them to five times it: 78 MB for 13 MB of stalls).
	nStalls := 0
	for _, s := range tr.Spans {
		if s.Kind == trace.Stall && s.Step >= 1 && s.Step <= r.k && s.Lane >= 0 && s.Lane < n {
			nStalls++
		}
	}
	r.stalls = make([]stall, 0, nStalls)
	for _, s := range tr.Spans {
		if s.Step < 1 || s.Step > r.k || s.Lane < 0 || s.Lane >= n {
			continue
		}
		spanEnd[s.Step*n+s.Lane] = max(spanEnd[s.Step*n+s.Lane], s.End)
		if s.Kind == trace.Stall {
			r.hadStall[s.Step*n+s.Lane] = true
			r.stalls = append(r.stalls, stall{row: s.Step, lane: s.Lane, start: s.Start, end: s.End})
		}
	}
	permsort.SortFunc(r.stalls, func(a, b stall) int {
		if a.start != b.start {
			if a.start < b.start {
				return -1
			}
			return 1
		}
		return (a.row*n + a.lane) - (b.row*n + b.lane)
	})
	for row := 1; row < r.rows; row++ {
		for i := range n {
			prev := r.fin[(row-1)*n+i]
			a := arrive[row*n+i]
			if row <= r.k { // eq. (2): the reduction starts at max(f, a)
				r.fin[row*n+i] = max(prev, a, spanEnd[row*n+i])
			} else { // g^(j) = min(g^(j-1), copy's arrival)
				r.fin[row*n+i] = min(prev, a)
			}
		}
	}

	r.rowEnd = make([]float64, r.rows)
	for row := range r.rows {
		r.rowEnd[row] = slices.Max(r.fin[row*n : (row+1)*n])
	}
	argmax := func(row int) int {
		fs := r.fin[row*n : (row+1)*n]
		return slices.Index(fs, slices.Max(fs))
	}
	r.critConv, r.critRed = argmax(r.k), argmax(r.rows-1)
	// The trace and the engine's result must tell the same story, or the
	// picture would contradict the numbers beside it.
	if conv, red := r.rowEnd[r.k], r.rowEnd[r.rows-1]; conv != res.ByT[0] || red != res.ByT[r.t] {
		return nil, errf.Errorf("butterfly: trace gives completion times %g and %g, the engine %g and %g", conv, red, res.ByT[0], res.ByT[r.t])
	}

	for _, e := range r.rowEnd[1:] {
		r.steps = append(r.steps, e)
	}
	permsort.Sort(r.steps)
	r.steps = slices.Compact(r.steps)
	// The conventional completion is the last thing the model computes,
	// but a late process's redundant copies are still in flight then.
	r.end = max(res.ByT[0], tr.End())
	return r, nil
}

// End is when the last message arrives: at or after the conventional
// completion time.
func (r *Run) End() float64 { return r.end }

// Steps are the instants each butterfly stage and each redundant exchange
// completes (its last process holds the result), sorted, without repeats.
func (r *Run) Steps() []float64 { return slices.Clone(r.steps) }

// Trace is the recorded run.
func (r *Run) Trace() *trace.Trace { return r.tr }

// Numbers are the completion times and the processes that set them.
func (r *Run) Numbers() map[string]float64 {
	return map[string]float64{
		"conventional":          r.res.ByT[0],
		"redundant":             r.res.ByT[r.t],
		"no_jitter":             r.p.NoJitterTime(),
		"critical_conventional": float64(r.critConv),
		"critical_redundant":    float64(r.critRed),
		"K":                     float64(r.k),
		"T":                     float64(r.t),
		"P":                     float64(r.n),
	}
}

// group returns the processes whose values row's box of process i sums:
// after stage k, the 2^k processes that share i's bits above k; after the
// butterfly, all of them.
func (r *Run) group(row, i int) (lo, size int) {
	k := min(row, r.k)
	size = 1 << k
	return i &^ (size - 1), size
}

// sum is the partial sum in row's box of process i.
func (r *Run) sum(row, i int) int {
	lo, size := r.group(row, i)
	// Σ_{j=lo}^{lo+size-1} (j+1)
	return size*lo + size*(size+1)/2
}

// heat is the position of time x on the heat ramp, which spans [0, the
// conventional completion time].
func (r *Run) heat(x float64) float64 {
	if c := r.res.ByT[0]; c > 0 {
		return x / c
	}
	return 0
}
