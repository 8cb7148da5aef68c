package allreduce

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"commlab/cmd/gen-report/internal/report"
	"commlab/cmd/gen-report/internal/study"
	engine "commlab/engine/allreduce"
	"commlab/engine/sweep"
)

// Study is paper 000's study: gen-report's eval allreduce and the
// allreduce page.
type Study struct{}

func (Study) Name() string { return "allreduce" }

func (Study) Eval(stdout, stderr io.Writer, args []string) error {
	return evalAllreduce(stdout, stderr, args)
}

// Sweep lays out the sweep of sets A, B, C1 and C2 and of the readings
// under cfg. The trials are adaptive (rule), so cfg.Trials, the fixed
// count of the other studies, does not apply.
func (Study) Sweep(cfg study.Config) (study.Sweep, error) {
	return NewSweep(cfg.Full, cfg.Seed), nil
}

// rule is the allreduce sweep's adaptive rule (issue 22). A cell runs
// blocks of Block trials until the 95 % half-widths of what the page shows
// of it (the conventional mean, the proposed mean, their paired ratio) are
// within Precision of their estimates, never fewer than its minimum
// (Params.MinTrials(Waive): the trials that see the rare event that moves
// a mean by more than Waive MinHits times), and no more than its cap:
// Cap, or fewer where Cap trials would cost more than Budget
// process-stage updates (CutBudget on the cuts of Fig. 12 and 21), MinCap
// at least (a cap below Block runs one block of the cap). The minimum
// wins over the cap up to MinBudget updates; a cell whose minimum costs
// more runs what MinBudget affords and is marked short of its minimum.
type rule struct {
	Block     int
	Precision float64
	Waive     float64
	Cap       int
	MinCap    int
	Budget    float64
	CutBudget float64
	MinBudget float64
}

// The rules of the full and the quick report: their budgets keep the
// full report's sweep to about 2 CPU-minutes (4.0e10 process-stage
// updates at the minimums, 5.1e10 at the caps) and the quick report's to
// about 7 CPU-seconds (docs/allreduce.md has the measured account), at
// the price of cells capped and short of their minimum, which the page
// lists.
var (
	fullRule  = rule{Block: 10, Precision: 0.02, Waive: 0.005, Cap: 1000, MinCap: 5, Budget: 2e7, CutBudget: 1.5e8, MinBudget: 2e8}
	quickRule = rule{Block: 10, Precision: 0.02, Waive: 0.005, Cap: 1000, MinCap: 5, Budget: 5e6, CutBudget: 2.5e7, MinBudget: 5e7}
)

// A reading is one way of reading the paper's jitter model (the options of
// engine/allreduce.Params, docs/allreduce.md): the readings section sweeps
// each on the cuts of Fig. 12 and 21 and at the corners the z ranges of
// Fig. 8, 13 and 17 describe.
type reading struct {
	name  string // the options as the flags write them, beside os_phase=first and net_wait=period
	phase engine.OSPhase
	wait  engine.NetWait
	hits  engine.OSHits
	what  string
}

var readings = []reading{
	{"os_hits=wall", engine.PhaseFirst, engine.WaitPeriod, engine.HitsWall,
		"the spec's reading: an OS window holds the CPU whenever it runs, so a reduction ready inside one waits for its end"},
	{"os_hits=wall, os_phase=stationary", engine.PhaseStationary, engine.WaitPeriod, engine.HitsWall,
		"as os_hits=wall, with windows for every integer m, so that some are already running at t = 0 (the project's first reading)"},
	{"os_hits=wall, net_wait=inverse", engine.PhaseFirst, engine.WaitInverse, engine.HitsWall,
		"as os_hits=wall, with network noise every 1/period seconds on average, the paper's words taken literally (it all but vanishes)"},
	{"os_hits=compute", engine.PhaseFirst, engine.WaitPeriod, engine.HitsCompute,
		"OS jitter counts only while a process computes (eq. 2 adds it to γN, eq. 1 has none): a window that begins while a process waits for its partner is absorbed by the wait"},
	{"os_hits=compute, net_wait=inverse", engine.PhaseFirst, engine.WaitInverse, engine.HitsCompute,
		"both: the mechanism behind the audit's crude stand-in (windows rarer, network noise off)"},
}

func (r reading) apply(p *engine.Params) { p.OSPhase, p.NetWait, p.OSHits = r.phase, r.wait, r.hits }

// defaultReading is the index of the reading the page's figures and
// findings take: os_hits=compute (with os_phase=first, net_wait=period),
// the one that fits the paper's words (eq. 2 charges OS jitter to the
// computation) and its figures best (the readings section and
// docs/allreduce.md say why). engine.Default() keeps os_hits=wall, the
// spec's reading, which the scenes' cases and goldens are built on.
func defaultReading() int {
	i := slices.IndexFunc(readings, func(r reading) bool {
		return r.phase == engine.PhaseFirst && r.wait == engine.WaitPeriod && r.hits == engine.HitsCompute
	})
	if i < 0 {
		panic("allreduce study: os_hits=compute is not among the readings")
	}
	return i
}

// The cuts of the time-vs-P figures (Fig. 12: set B, Fig. 21: set C1),
// both at x = 10^-2.
const cutExp = -2

// Sweep is the paper-000 sweep: sets A, B, C1 and C2 on one grid each,
// every feasible cell a sweep point under the default reading, then the
// other readings' cells: the two cuts and the corners of Fig. 8, 13 and
// 17.
type Sweep struct {
	Full bool
	Seed uint64
	rule rule
	sets []engine.Set
	def  int // the default reading, an index into readings
	// points[pt] is the cell a sweep point runs; index finds it again.
	points []cellRef
	index  map[cellRef]int
	// Laid out once per point: its parameters, the point whose random
	// numbers it draws (its cell under the default reading: every reading
	// of a cell sees the same phases and noise, trial by trial), its cap,
	// its minimum and the minimum it would need.
	params            []engine.Params
	twin              []int
	caps, mins, needs []int
	// placed records every number the page shows of a cell, for the tests
	// (TestSameCellsAgree); reset by each Page.
	placed []placement
}

// cellRef is cell (xi, ki) of set under reading.
type cellRef struct{ set, xi, ki, reading int }

func NewSweep(full bool, seed uint64) *Sweep {
	s := &Sweep{Full: full, Seed: seed, rule: quickRule, sets: engine.PaperSets(full), def: defaultReading(), index: map[cellRef]int{}}
	if full {
		s.rule = fullRule
	}
	add := func(c cellRef) {
		if _, ok := s.index[c]; ok {
			return
		}
		s.index[c] = len(s.points)
		s.points = append(s.points, c)
	}
	for si, set := range s.sets {
		for xi := range set.XExp {
			for ki, k := range set.K {
				if _, ok := set.Point(xi, k); ok {
					add(cellRef{si, xi, ki, s.def})
				}
			}
		}
	}
	for ri := range readings {
		if ri == s.def {
			continue
		}
		for _, c := range s.readingCells() {
			c.reading = ri
			add(c)
		}
	}
	for _, c := range s.points {
		set := s.sets[c.set]
		p, _ := set.Point(c.xi, set.K[c.ki])
		readings[c.reading].apply(&p)
		if c.reading != s.def && !s.inCut(c) {
			// Another reading's corner: the page shows its influence, the
			// conventional time alone, so it runs without the redundant
			// exchanges (half the updates, and the minimum of the
			// conventional time's rare event only). The conventional time
			// of a trial is the same bits with T = K or 0: the exchanges
			// come after it and draw nothing.
			p.T = 0
		}
		s.params = append(s.params, p)
		s.twin = append(s.twin, s.index[cellRef{c.set, c.xi, c.ki, s.def}])
		u := engine.Updates(p)
		budget := s.rule.Budget
		if s.inCut(c) {
			budget = s.rule.CutBudget
		}
		s.caps = append(s.caps, clampInt(math.Floor(budget/u), s.rule.MinCap, s.rule.Cap))
		need := p.MinTrials(s.rule.Waive)
		m := need
		if float64(need)*u > s.rule.MinBudget {
			m = clampInt(math.Floor(s.rule.MinBudget/u), s.rule.MinCap, need)
		}
		s.needs, s.mins = append(s.needs, need), append(s.mins, m)
	}
	return s
}

func clampInt(x float64, lo, hi int) int {
	if x < float64(lo) {
		return lo
	}
	if x > float64(hi) {
		return hi
	}
	return int(x)
}

// readingCells are the cells every reading runs (with reading unset): the
// cuts of Fig. 12 and 21 at every P, and at the largest P the corners
// whose influence the z ranges of Fig. 8 (set B at its first x), 13 and 17
// (sets C1 and C2 from x = 10^-2 on) describe.
func (s *Sweep) readingCells() []cellRef {
	var out []cellRef
	for _, name := range []string{"B", "C1"} {
		si := s.setIndex(name)
		xi := slices.Index(s.sets[si].XExp, cutExp)
		for ki := range s.sets[si].K {
			out = append(out, cellRef{si, xi, ki, 0})
		}
	}
	b := s.setIndex("B")
	out = append(out, cellRef{b, 0, len(s.sets[b].K) - 1, 0})
	for _, name := range []string{"C1", "C2"} {
		si := s.setIndex(name)
		for xi, e := range s.sets[si].XExp {
			if e >= cutExp-1e-9 {
				out = append(out, cellRef{si, xi, len(s.sets[si].K) - 1, 0})
			}
		}
	}
	return out
}

// inCut says whether c lies on the cut of Fig. 12 or 21.
func (s *Sweep) inCut(c cellRef) bool {
	name := s.sets[c.set].Name
	return (name == "B" || name == "C1") && s.sets[c.set].XExp[c.xi] == cutExp
}

// point is the sweep point of cell (set, xi, ki) under reading r, or -1.
func (s *Sweep) point(set, xi, ki, r int) int {
	if pt, ok := s.index[cellRef{set, xi, ki, r}]; ok {
		return pt
	}
	return -1
}

// Points is the number of sweep points.
func (s *Sweep) Points() int { return len(s.points) }

func (s *Sweep) setIndex(name string) int {
	return slices.IndexFunc(s.sets, func(x engine.Set) bool { return x.Name == name })
}

// studyRule is the rule with each point's cap and minimum.
func (s *Sweep) studyRule() study.Rule {
	return study.Rule{Block: s.rule.Block, Precision: s.rule.Precision,
		Cap: func(pt int) int { return s.caps[pt] }, MinTrials: func(pt int) int { return s.mins[pt] }}
}

// Fingerprint names the grid, the readings and the rule, so that shards of
// different sweeps never merge.
func (s *Sweep) Fingerprint() string {
	var names []string
	for _, r := range readings {
		names = append(names, r.name)
	}
	return fmt.Sprintf("allreduce/v3 full=%t seed=%d points=%d default=%s readings=%s rule=%+v MinHits=%d",
		s.Full, s.Seed, len(s.points), readings[s.def].name, strings.Join(names, "; "), s.rule, engine.MinHits)
}

// trialCosts is one trial's estimated time at each point.
func (s *Sweep) trialCosts() []float64 {
	c := make([]float64, len(s.points))
	for pt := range c {
		c[pt] = engine.Estimate(s.params[pt], false).Seconds
	}
	return c
}

// Costs is each point's estimated time: one trial's times the trials it is
// expected to run, its first checkpoint or three blocks, whichever is
// more, within its cap.
func (s *Sweep) Costs() []float64 {
	c := s.trialCosts()
	r := s.studyRule()
	for pt := range c {
		first, last := r.Span(pt)
		c[pt] *= float64(min(max(first, 3*s.rule.Block), last))
	}
	return c
}

// Run sweeps the owned points and returns each one's cell as JSON.
func (s *Sweep) Run(ctx context.Context, owned []bool, progress func(done, total float64)) ([]json.RawMessage, error) {
	cells, err := study.RunUntil(ctx, owned, s.trialCosts(), s.studyRule(), s.Seed, progress,
		func(_ int, rs [][]float64) (float64, float64, error) { return 1, precisionOf(rs), nil },
		func() *engine.Simulator { return new(engine.Simulator) },
		func(sim *engine.Simulator, pt, trial int, rng *rand.Rand) ([]float64, error) {
			// Every reading of a cell draws trial t's numbers from the
			// cell's default-reading point (common random numbers).
			r, err := sim.Run(s.params[pt], sweep.RNG(s.Seed, s.twin[pt], trial), nil)
			return r.ByT, err
		},
		func(pt int, rs [][]float64, st sweep.Stop) (*cell, error) {
			c, err := summarize(s.params[pt], rs, s.rule.Waive, s.mins[pt], s.needs[pt], st.Capped)
			return &c, err
		})
	if err != nil {
		return nil, err
	}
	return study.Encode(cells, func(pt int) bool { return cells[pt] != nil })
}

var _ study.TrialCounter = (*Sweep)(nil) // gen-report status counts its trials

// PointTrials is the number of trials point's cell holds (the adaptive
// rule's stop), read from its result and checked against the rule.
func (s *Sweep) PointTrials(pt int, result json.RawMessage) (int, error) {
	if pt < 0 || pt >= len(s.params) {
		return 0, fmt.Errorf("point %d of %d", pt, len(s.params))
	}
	var c *cell
	if err := json.Unmarshal(result, &c); err != nil {
		return 0, err
	}
	if c == nil {
		return 0, fmt.Errorf("null, want a cell")
	}
	if err := c.check(s.params[pt], s.studyRule(), pt, s.needs[pt]); err != nil {
		return 0, err
	}
	return c.Trials, nil
}

// decode reads every point's cell, refusing one that the rule and the
// model cannot have given (a *study.PointError).
func (s *Sweep) decode(raw []json.RawMessage) ([]*cell, error) {
	rl := s.studyRule()
	cells, err := study.Decode(raw, func(pt int, c *cell) error {
		if c == nil {
			return fmt.Errorf("null, want a cell")
		}
		return c.check(s.params[pt], rl, pt, s.needs[pt])
	})
	return cells, err
}

// Page builds the page from every point's cell (Run's results, or the
// shards' put together).
func (s *Sweep) Page(raw []json.RawMessage) (report.Page, error) {
	cells, err := s.decode(raw)
	if err != nil {
		return report.Page{}, err
	}
	s.placed = nil
	return s.page(cells), nil
}
